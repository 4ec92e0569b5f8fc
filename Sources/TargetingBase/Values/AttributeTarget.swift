/// An attribute of a profile: a custom attribute key or a built-in field of SPEC §2.
public enum AttributeTarget: Hashable, Sendable {
    /// A custom attribute key.
    case custom(String)
    /// A built-in profile field (the name after `profile.` in rules).
    case builtin(String)
}

extension AttributeTarget: CustomStringConvertible {
    /// As written on the left of a comparison: `profile.birthday` for a built-in field, the key
    /// for a custom attribute.
    public var description: String {
        switch self {
        case .custom(let key): key
        case .builtin(let field): "profile." + field
        }
    }
}
