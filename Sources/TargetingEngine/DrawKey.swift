/// Whose value a split, an experiment or the holdout draws on (its `by KEY`).
package enum DrawKey: Hashable, Sendable {
    /// The profile's `id`: a profile without one cannot be drawn, which is an error for a split
    /// or an experiment that must decide.
    case profileID
    /// Another string attribute, read through the program's slot of this index: a profile
    /// without a string value for it does not enter.
    case slot(Int)
}

/// What a draw's key gives for one profile.
package enum DrawInput: Hashable, Sendable {
    /// The text drawn on.
    case value(String)
    /// The key is `profile.id` and the profile has none.
    case missingProfileID
    /// Another key that the profile has no string value for.
    case absent

    /// The value of `key` in a profile whose id is `profileID` and whose slots read as `slot`.
    package static func of(_ key: DrawKey, profileID: String?, slot: (Int) -> SlotValue) -> DrawInput {
        switch key {
        case .profileID:
            return profileID.map(DrawInput.value) ?? .missingProfileID
        case .slot(let index):
            if case .string(let text) = slot(index) { return .value(text) }
            return .absent
        }
    }
}
