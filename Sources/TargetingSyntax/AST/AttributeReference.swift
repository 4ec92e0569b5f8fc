import TargetingBase

/// How an attribute, an input element or a screen name was spelled in the source.
package enum NameSpelling: Hashable, Sendable {
    /// `name` or `a.b`.
    case bare
    /// `` `any-key` ``.
    case backticks
    /// `"any text"` (input element and screen names only).
    case string
}

/// A reference to a profile attribute: a custom attribute key or a built-in `profile.FIELD`.
package struct AttributeReference: Hashable, Sendable {
    /// Which attribute of a profile.
    package typealias Target = AttributeTarget

    /// What is referenced.
    package var target: Target
    /// How it was written.
    package var spelling: NameSpelling
    /// Where it is written.
    package var range: SourceRange

    /// Creates a reference.
    package init(target: Target, spelling: NameSpelling, range: SourceRange) {
        self.target = target
        self.spelling = spelling
        self.range = range
    }

    /// The name as a user would write it in a message: `experience` or `profile.age`.
    package var displayName: String { target.written }
}
