/// An attribute of a profile: a custom attribute key or a built-in field of SPEC §2.
public enum AttributeTarget: Hashable, Sendable {
    /// A custom attribute key.
    case custom(String)
    /// A built-in profile field (the name after `profile.` in rules).
    case builtin(String)
}
