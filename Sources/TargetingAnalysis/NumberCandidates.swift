import TargetingEngine

/// Numbers that stand for every class of numbers a set of comparisons can tell apart.
///
/// Comparisons with number literals (`==`, `<`, `between`, `in`, …) have one truth value on
/// each literal and on each open interval between neighbouring literals, so one number per
/// literal and per interval is enough.
enum NumberCandidates {
    /// The number literals of `kinds`.
    static func literals(_ kinds: [CompiledTest.Kind]) -> [Double] {
        var found: [Double] = []
        for kind in kinds {
            switch kind {
            case .number(let test): found += test.literals
            // Presence, and tests of strings, booleans, instants, versions and sets: no number.
            case .presence, .text, .bool, .date, .version, .members: continue
            }
        }
        return found.filter(\.isFinite)
    }

    /// Each literal, a number between each two neighbours, one below and one above; whole
    /// numbers first, then the closest numbers on either side as a fallback.
    static func values(around literals: [Double]) -> [Double] {
        let sorted = Array(Set(literals)).sorted()
        guard let first = sorted.first, let last = sorted.last else { return [0] }
        var result = sorted
        result.append((first - 1).rounded(.down))
        for (low, high) in zip(sorted, sorted.dropFirst()) {
            let whole = low.rounded(.down) + 1
            if whole < high { result.append(whole) }
            let middle = low + (high - low) / 2
            if low < middle, middle < high { result.append(middle) }
        }
        result.append(last.rounded(.down) + 1)
        for literal in sorted { result += [literal.nextDown, literal.nextUp] }
        return result.filter(\.isFinite)
    }

    /// Whole numbers standing for every class a derived whole-number field (`age`,
    /// `days_since_install`) can be in: each literal's floor and its neighbours.
    static func wholeNumbers(around literals: [Double]) -> [Int] {
        var result: Set<Int> = []
        for literal in literals where abs(literal) < 1e9 {
            let floor = Int(literal.rounded(.down))
            result.formUnion([floor - 1, floor, floor + 1])
        }
        return result.sorted()
    }
}
