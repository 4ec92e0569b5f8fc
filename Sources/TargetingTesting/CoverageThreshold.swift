/// The least coverage a run must reach (`--min-coverage N`): a percentage from 0 to 100 with at
/// most one decimal, compared with each figure as it is printed (one decimal, rounded down).
package struct CoverageThreshold: Hashable, Sendable {
    /// The threshold in tenths of a percent (0…1000).
    package var permille: Int

    /// Reads `N`, `N.D`: digits with at most one decimal, from 0 to 100; nil otherwise.
    package init?(parsing text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.allSatisfy { ("0"..."9").contains($0) } }
        guard !whole.isEmpty, whole.count <= 3, isDigits(whole), isDigits(fraction), fraction.count <= 1,
              parts.count == 1 || !fraction.isEmpty,
              let units = Int(whole) else { return nil }
        let permille = units * 10 + (Int(fraction) ?? 0)
        guard permille <= 1000 else { return nil }
        self.permille = permille
    }

    /// The threshold as printed: `90%`, `87.5%`.
    package var text: String {
        permille % 10 == 0 ? "\(permille / 10)%" : CoverageFigure.percentText(permille)
    }

    /// The figures of `coverage` below the threshold, in report order.
    package func failing(_ coverage: TestCoverage) -> [CoverageFigure] {
        coverage.figures.filter { $0.permille < permille }
    }
}
