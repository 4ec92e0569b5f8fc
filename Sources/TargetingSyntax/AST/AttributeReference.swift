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
    /// For `shown …` and `last shown …`: the placements' names as written (one, or the items of
    /// `[P1, P2, …]`); empty for an attribute.
    package var placementNames: [Identifier]
    /// For `shown PLACEMENT in DURATION`: the duration as written.
    package var window: Identifier?

    /// Creates a reference.
    package init(target: Target, spelling: NameSpelling, range: SourceRange, placementNames: [Identifier] = [],
                 window: Identifier? = nil) {
        self.target = target
        self.spelling = spelling
        self.range = range
        self.placementNames = placementNames
        self.window = window
    }

    /// The name as a user would write it in a message: `experience`, `profile.age` or
    /// `shown main_paywall in 7d` (a window as written).
    package var displayName: String {
        guard !placementNames.isEmpty else { return target.written }
        let placements = SubjectTarget.placementList(placementNames.map(\.text))
        switch target {
        case .lastShown: return "last shown " + placements
        case .custom, .builtin, .shownCount:
            return "shown " + placements + (window.map { " in " + $0.text } ?? "")
        }
    }
}
