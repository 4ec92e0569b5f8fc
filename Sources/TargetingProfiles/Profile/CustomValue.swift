import TargetingBase

/// A custom attribute value as Adapty stores it: a string or a finite number.
public enum CustomValue: Hashable, Sendable {
    /// A trimmed string of 1–50 characters.
    case string(String)
    /// A finite number.
    case number(Double)

    /// The JSON form.
    public var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        }
    }
}

extension CustomValue: CustomStringConvertible {
    /// The stored value as JSON text: `"pro"` for a string, `17` for a number.
    public var description: String { JSONWriter.write(json) }
}
