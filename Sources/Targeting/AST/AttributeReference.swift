/// How an attribute, an input element or a screen name was spelled in the source.
public enum NameSpelling: Hashable, Sendable {
    /// `name` or `a.b`.
    case bare
    /// `` `any-key` ``.
    case backticks
    /// `"any text"` (input element and screen names only).
    case string
}

/// A reference to a profile attribute: a custom attribute key or a built-in `profile.FIELD`.
public struct AttributeReference: Hashable, Sendable {
    /// Which kind of attribute.
    public enum Target: Hashable, Sendable {
        /// A custom attribute key.
        case custom(String)
        /// A built-in profile field (the name after `profile.`).
        case builtin(String)
    }

    /// What is referenced.
    public var target: Target
    /// How it was written.
    public var spelling: NameSpelling
    /// Where it is written.
    public var range: SourceRange

    /// Creates a reference.
    public init(target: Target, spelling: NameSpelling, range: SourceRange) {
        self.target = target
        self.spelling = spelling
        self.range = range
    }

    /// The name as a user would write it in a message: `experience` or `profile.age`.
    public var displayName: String {
        switch target {
        case .custom(let key): key
        case .builtin(let field): "profile." + field
        }
    }
}
