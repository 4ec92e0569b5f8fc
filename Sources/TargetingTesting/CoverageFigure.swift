/// One figure of a coverage report: how many of the rows, the segments or the split variants
/// the tests covered.
package struct CoverageFigure: Hashable, Sendable {
    /// What is counted.
    package var kind: TestCoverage.Item.Kind
    /// How many are covered.
    package var covered: Int
    /// How many there are.
    package var total: Int

    /// Creates a figure.
    package init(kind: TestCoverage.Item.Kind, covered: Int, total: Int) {
        self.kind = kind
        self.covered = covered
        self.total = total
    }

    /// The figure's name in reports: `rows`, `segments`, `variants` or `prerequisites` (the JSON key and the
    /// word of the text line).
    package var name: String {
        switch kind {
        case .row: "rows"
        case .segment: "segments"
        case .variant: "variants"
        case .prerequisite: "prerequisites"
        }
    }

    /// The covered share in tenths of a percent, rounded down (1000 when there is nothing to cover).
    package var permille: Int { CoverageFigure.permille(covered: covered, total: total) }

    /// `covered` of `total` in tenths of a percent, rounded down, so 100 % means every item;
    /// 1000 when `total` is 0.
    package static func permille(covered: Int, total: Int) -> Int {
        total == 0 ? 1000 : Int((Double(covered) * 1000 / Double(total)).rounded(.down))
    }

    /// A share in tenths of a percent as printed: `83.3%`.
    package static func percentText(_ permille: Int) -> String { "\(permille / 10).\(permille % 10)%" }
}
