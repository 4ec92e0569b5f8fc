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
    package typealias Target = SubjectTarget

    /// What is referenced.
    package var target: Target
    /// How it was written.
    package var spelling: NameSpelling
    /// Where it is written (for a history subject, from `shown` or `last` to its last word).
    package var range: SourceRange
    /// For `shown PLACEMENT` and `last shown PLACEMENT`: the placement's name as written.
    package var placementName: Identifier?
    /// For `shown PLACEMENT in DURATION`: the duration as written.
    package var window: Identifier?

    /// Creates a reference.
    package init(target: Target, spelling: NameSpelling, range: SourceRange, placementName: Identifier? = nil,
                 window: Identifier? = nil) {
        self.target = target
        self.spelling = spelling
        self.range = range
        self.placementName = placementName
        self.window = window
    }

    /// The name as a user would write it in a message: `experience`, `profile.age` or
    /// `shown main_paywall in 7d` (a window as written).
    package var displayName: String {
        guard let placementName else { return target.written }
        switch target {
        case .lastShown: return "last shown " + placementName.text
        case .custom, .builtin, .shownCount:
            return "shown " + placementName.text + (window.map { " in " + $0.text } ?? "")
        }
    }
}
