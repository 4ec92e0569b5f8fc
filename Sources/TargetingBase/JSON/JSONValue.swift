/// A JSON value that keeps booleans and numbers apart and keeps object members in input order.
public enum JSONValue: Hashable, Sendable {
    /// The JSON literal `null`.
    case null
    /// A JSON boolean (`true` or `false`), never confused with a number.
    case bool(Bool)
    /// A JSON number, stored as a double-precision value.
    case number(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array, elements in order.
    case array([JSONValue])
    /// A JSON object, members in their stored (input) order.
    case object([JSONMember])

    /// The member value for `key` (first match), or nil; only for objects.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key {
            return member.value
        }
        return nil
    }

    /// The string payload, or nil when this is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number payload, or nil when this is not a number (booleans are not numbers).
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The boolean payload, or nil when this is not a boolean (numbers are not booleans).
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The array elements, or nil when this is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The object members in stored order, or nil when this is not an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short name of the JSON type for messages: "null", "boolean", "number", "string", "array", "object".
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member with the given name and value.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
