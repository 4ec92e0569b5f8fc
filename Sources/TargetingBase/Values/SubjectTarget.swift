/// What the left side of a comparison reads from a profile: an attribute (a custom key or a
/// built-in field), or what the profile's history says about a placement (README, *Caps*).
///
/// An input can only write attributes (`AttributeTarget`); a comparison can also read the
/// history, so its subjects are this wider type.
public enum SubjectTarget: Hashable, Sendable {
    /// A custom attribute key.
    case custom(String)
    /// A built-in profile field (the name after `profile.` in rules).
    case builtin(String)
    /// `shown PLACEMENT [in DURATION]` or `shown [P1, P2, …] [in DURATION]`: how many times the
    /// placements were shown, summed over them, in the rolling window of `window` milliseconds
    /// that ends at now, or ever (nil). A number, 0 without history.
    case shownCount(placements: [String], window: Int64?)
    /// `last shown PLACEMENT` or `last shown [P1, P2, …]`: the latest instant any of the
    /// placements was shown; a date, not set without one.
    case lastShown(placements: [String])
}

extension SubjectTarget {
    /// The subject that reads `attribute`.
    package init(_ attribute: AttributeTarget) {
        switch attribute {
        case .custom(let key): self = .custom(key)
        case .builtin(let field): self = .builtin(field)
        }
    }

    /// Reads a name as `AttributeTarget(written:)` does: a custom key or a built-in field.
    package init?(written: some StringProtocol) {
        guard let attribute = AttributeTarget(written: written) else { return nil }
        self.init(attribute)
    }

    /// The attribute read, or nil for a history subject.
    package var attribute: AttributeTarget? {
        switch self {
        case .custom(let key): .custom(key)
        case .builtin(let field): .builtin(field)
        case .shownCount, .lastShown: nil
        }
    }

    /// The placements a history subject reads, in the order written; empty for an attribute.
    package var historyPlacements: [String] {
        switch self {
        case .custom, .builtin: []
        case .shownCount(let placements, _), .lastShown(let placements): placements
        }
    }

    /// A history subject's placements as written: the name alone for one, else `[P1, P2, …]`.
    package static func placementList(_ placements: [String]) -> String {
        placements.count == 1 ? placements[0] : "[" + placements.joined(separator: ", ") + "]"
    }

    /// As written on the left of a comparison: `profile.birthday`, a custom key,
    /// `shown main_paywall in 7d` (the window in its largest whole unit), `shown [a, b] in 1d` or
    /// `last shown main_paywall`.
    package var written: String {
        switch self {
        case .custom(let key): key
        case .builtin(let field): AttributeTarget.builtinPrefix + field
        case .shownCount(let placements, let window):
            "shown " + SubjectTarget.placementList(placements) + (window.map { " in " + SubjectTarget.durationText($0) } ?? "")
        case .lastShown(let placements): "last shown " + SubjectTarget.placementList(placements)
        }
    }

    /// The key of a custom attribute or the field of a built-in one (without `profile.`); a
    /// history subject as written.
    package var bareName: String {
        switch self {
        case .custom(let key): key
        case .builtin(let field): field
        case .shownCount, .lastShown: written
        }
    }

    /// A duration in milliseconds as the language writes it, in the largest unit that divides
    /// it (`7d`, `36h`, `90m`, `45s`).
    package static func durationText(_ ms: Int64) -> String {
        for (unit, scale) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000)] where ms != 0 && ms % scale == 0 {
            return "\(ms / scale)\(unit)"
        }
        return "\(ms / 1_000)s"
    }
}

extension SubjectTarget: CustomStringConvertible {
    /// As written on the left of a comparison.
    public var description: String { written }
}
