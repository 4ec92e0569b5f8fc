import TargetingSyntax

/// The rule set's holdout prepared for drawing: a profile whose bucket of
/// `"<name>-<key value>"` is below the weight is held out of every covered placement.
package struct HoldoutPlan: Hashable, Sendable {
    /// The holdout's name.
    package let name: String
    /// The share held out, 1…100.
    package let weight: Int
    /// Whose value is drawn.
    package let key: DrawKey
    /// The placements it does not cover.
    package let excepted: Set<String>

    package init(name: String, weight: Int, key: DrawKey, excepted: Set<String>) {
        self.name = name
        self.weight = weight
        self.key = key
        self.excepted = excepted
    }

    /// Whether a profile with this draw input is held out; one that cannot be drawn is not.
    package func holdsOut(_ input: DrawInput) -> Bool {
        guard case .value(let value) = input else { return false }
        return holdsOut(bucket: SplitDraw.bucket(splitID: name, profileID: value))
    }

    /// Whether a profile whose draw on this holdout gave `bucket` is held out.
    package func holdsOut(bucket: Int) -> Bool { bucket < weight }

    /// Whether the holdout covers the placement named `placement`.
    package func covers(_ placement: String) -> Bool { !excepted.contains(placement) }
}
