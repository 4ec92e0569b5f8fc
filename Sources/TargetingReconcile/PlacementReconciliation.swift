/// One placement's shown lines, classified: how many of each class, and the first examples.
package struct PlacementReconciliation: Hashable, Sendable {
    /// Examples kept per class: the first ones in the order replayed.
    package static let examplesKept = 3

    /// The placement's name as the lines give it.
    package var placement: String
    /// Whether the rules declare it.
    package var isDeclared: Bool
    /// Per class (indexed by `ReconcileClass.rawValue`), the lines of that class.
    package private(set) var counts: [Int] = Array(repeating: 0, count: ReconcileClass.allCases.count)
    /// Per class, up to `examplesKept` lines, each with what it showed and what the rules
    /// predicted; `match` keeps none (matches are the expected case).
    package private(set) var examples: [[ReconcileLine]] = Array(repeating: [], count: ReconcileClass.allCases.count)

    package init(placement: String, isDeclared: Bool) {
        self.placement = placement
        self.isDeclared = isDeclared
    }

    /// The lines of the placement.
    package var shown: Int { counts.reduce(0, +) }

    /// The lines of `kind`.
    package func count(_ kind: ReconcileClass) -> Int { counts[kind.rawValue] }

    /// The lines that do not match.
    package var mismatches: Int { shown - count(.match) }

    /// Counts `line` in its class, keeping it as an example while there are fewer than `examplesKept`.
    mutating func add(_ line: ReconcileLine) {
        let kind = line.kind
        counts[kind.rawValue] += 1
        if kind != .match, examples[kind.rawValue].count < PlacementReconciliation.examplesKept {
            examples[kind.rawValue].append(line)
        }
    }
}
