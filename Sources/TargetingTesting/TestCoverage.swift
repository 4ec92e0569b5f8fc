import TargetingBase
import TargetingEngine

/// How much of the rules a test run exercised: each placement row that decided some
/// `expect PLACEMENT -> …`, and each segment that came out true for some test's profile and
/// false for another's.
package struct TestCoverage: Hashable, Sendable {
    /// One thing to cover.
    package struct Item: Hashable, Sendable {
        /// What kind of item.
        package enum Kind: String, Hashable, Sendable {
            /// A placement row: covered when it decided some `expect PLACEMENT -> …`.
            case row
            /// A segment: covered when it was true for some test's profile and false for another's.
            case segment
            /// A split variant (a `nothing` variant included), an experiment row's variant, or
            /// the sticky path of a sticky experiment's row (its recorded assignment deciding):
            /// covered when some `expect` was decided by it.
            case variant
            /// A prerequisite (`placement P -> …` in a segment): covered when it held for some
            /// test's profile and not for another's.
            case prerequisite
        }

        /// For a variant: its split (or experiment and variant name) and what it shows.
        package struct Variant: Hashable, Sendable {
            /// The split id, or nil for an experiment's variant.
            package var split: String?
            /// The experiment and the variant's name, for an experiment row's variant.
            package var experiment: String? = nil
            package var variant: String? = nil
            /// `flow`, `paywall`, or nil for `nothing`.
            package var kind: String?
            package var id: String?
            /// Whether this is the sticky path of a sticky experiment's row.
            package var sticky = false
        }

        /// A row or a segment.
        package var kind: Kind
        /// For a row: `placement row N: audience -> destination`; for a segment: its name.
        package var name: String
        /// Where it is written.
        package var range: SourceRange
        /// Whether the tests covered it.
        package var covered: Bool
        /// For a segment that is not covered: which value no test saw (`never true`, `never false`).
        package var detail: String?
        /// For a variant: its split and destination.
        package var variant: Variant? = nil
    }

    /// Rows (in placement and row order), then segments (in declaration order).
    package var items: [Item]

    /// How many items are covered.
    package var coveredCount: Int { items.filter(\.covered).count }

    /// The covered share in tenths of a percent (1000 when there is nothing to cover).
    package var permille: Int { CoverageFigure.permille(covered: coveredCount, total: items.count) }

    /// The closing line: `coverage: N of M (P%)`, with one decimal.
    package var summary: String {
        "coverage: \(coveredCount) of \(items.count) (\(CoverageFigure.percentText(permille)))"
    }

    /// The figures, each over its own items: rows, segments, split variants, and prerequisites
    /// when the rules have some.
    package var figures: [CoverageFigure] {
        let kinds: [Item.Kind] = [.row, .segment, .variant] + (items.contains { $0.kind == .prerequisite } ? [.prerequisite] : [])
        return kinds.map { kind in
            let ofKind = items.filter { $0.kind == kind }
            return CoverageFigure(kind: kind, covered: ofKind.filter(\.covered).count, total: ofKind.count)
        }
    }

    /// Computes coverage from the results of a run over `program`.
    package init(program: Program, results: [TestResult]) {
        var decided: Set<PlacementRowKey> = []
        var decidedRows: Set<PlacementRowKey> = []
        var seenTrue = Array(repeating: false, count: program.segments.count)
        var seenFalse = Array(repeating: false, count: program.segments.count)
        var heldFor = Array(repeating: false, count: program.prerequisites.count)
        var failedFor = Array(repeating: false, count: program.prerequisites.count)
        for trace in results.compactMap(\.trace) {
            for (index, value) in trace.prerequisiteValues.enumerated() where index < heldFor.count {
                if value { heldFor[index] = true } else { failedFor[index] = true }
            }
            decided.formUnion(trace.decidedRows)
            decidedRows.formUnion(trace.decidedRows.map { PlacementRowKey(placement: $0.placement, row: $0.row) })
            for (index, value) in trace.segmentValues.enumerated() where index < seenTrue.count {
                if value { seenTrue[index] = true } else { seenFalse[index] = true }
            }
        }
        var items: [Item] = []
        for (placementIndex, placement) in program.placements.enumerated() {
            for (rowIndex, row) in placement.rows.enumerated() {
                let name = "\(placement.name) row \(rowIndex + 1): \(row.source.audience.name) -> " + row.source.destination.description
                let covered = decidedRows.contains(PlacementRowKey(placement: placementIndex, row: rowIndex))
                items.append(Item(kind: .row, name: name, range: row.source.range, covered: covered, detail: nil))
                guard let split = row.split else { continue }
                for (step, variant) in split.steps.enumerated() {
                    let reached = decided.contains(PlacementRowKey(placement: placementIndex, row: rowIndex, variant: step))
                    let shown: (kind: String?, id: String?)
                    switch variant.destination {
                    case .flow(let id, _): shown = ("flow", id)
                    case .paywall(let id, _): shown = ("paywall", id)
                    case .nothing, .split, .experiment: shown = (nil, nil)
                    }
                    let weight = variant.bound - (step > 0 ? split.steps[step - 1].bound : 0)
                    if let name = variant.variant {
                        items.append(Item(kind: .variant, name: "\(placement.name) row \(rowIndex + 1): experiment `\(split.id)` \(name) \(weight)% -> " + variant.destination.description,
                                          range: row.source.range, covered: reached, detail: nil,
                                          variant: Item.Variant(split: nil, experiment: split.id, variant: name, kind: shown.kind, id: shown.id)))
                    } else {
                        items.append(Item(kind: .variant, name: "\(placement.name) row \(rowIndex + 1): split `\(split.id)` \(weight)% -> " + variant.destination.description,
                                          range: row.source.range, covered: reached, detail: nil,
                                          variant: Item.Variant(split: split.id, kind: shown.kind, id: shown.id)))
                    }
                }
                if row.guards.contains(.assignment) {
                    let reached = decided.contains { $0.placement == placementIndex && $0.row == rowIndex && $0.sticky }
                    items.append(Item(kind: .variant, name: "\(placement.name) row \(rowIndex + 1): experiment `\(split.id)` sticky (a recorded assignment decides)",
                                      range: row.source.range, covered: reached, detail: nil,
                                      variant: Item.Variant(split: nil, experiment: split.id, variant: nil, kind: nil, id: nil, sticky: true)))
                }
            }
        }
        for (index, segment) in program.ruleSet.segments.enumerated() {
            let covered = seenTrue[index] && seenFalse[index]
            let detail: String? = covered ? nil : !seenTrue[index] && !seenFalse[index] ? "never evaluated" : seenTrue[index] ? "never false" : "never true"
            items.append(Item(kind: .segment, name: segment.name.text, range: segment.name.range, covered: covered, detail: detail))
        }
        for (index, prerequisite) in program.prerequisites.enumerated() {
            let covered = heldFor[index] && failedFor[index]
            let detail: String? = covered ? nil : !heldFor[index] && !failedFor[index] ? "never evaluated" : heldFor[index] ? "never false" : "never true"
            items.append(Item(kind: .prerequisite, name: prerequisite.source.text, range: prerequisite.source.range, covered: covered, detail: detail))
        }
        self.items = items
    }
}
