/// The placements of two rule sets paired by name: those both have, those only the old rules
/// have (removed) and those only the new rules have (added). Every comparison of two rule sets
/// (`diff` over a corpus, its query, its report) pairs them here.
package struct PlacementPairing: Hashable, Sendable {
    /// The old rules' placements, in their order.
    package let old: [String]
    /// The new rules' placements, in their order.
    package let new: [String]
    /// In both, in the old rules' order.
    package let shared: [String]
    /// Only in the old rules, in their order.
    package let removed: [String]
    /// Only in the new rules, in their order.
    package let added: [String]

    /// Pairs `old` and `new`, each a rule set's placement names in order.
    package init(old: [String], new: [String]) {
        let oldSet = Set(old), newSet = Set(new)
        self.old = old
        self.new = new
        shared = old.filter(newSet.contains)
        removed = old.filter { !newSet.contains($0) }
        added = new.filter { !oldSet.contains($0) }
    }

    /// Every placement once: the old rules' order, then the added ones.
    package var all: [String] { old + added }

    /// The pairing of the one placement `name` (none when neither rule set has it).
    package func only(_ name: String) -> PlacementPairing {
        PlacementPairing(old: old.filter { $0 == name }, new: new.filter { $0 == name })
    }
}
