import TargetingBase
import TargetingSyntax

extension Checker {
    /// The operators a count of showings takes: `==`, `!=`, `<`, `<=`, `>`, `>=`.
    static let countOperators: Set<ComparisonOperator> = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
    /// The largest count a cap compares with: a placement keeps its latest 100 showings.
    static let maxShownCount = 100
    /// The shortest window of `shown PLACEMENT in DURATION`: one minute.
    static let minShownWindow: Int64 = 60_000
    /// The longest window of `shown PLACEMENT in DURATION`, and the longest `sticky` duration: 400 days.
    static let maxHistoryDuration: Int64 = 400 * Timestamp.msPerDay
    /// The shortest `sticky` duration: one day.
    static let minStickyDuration: Int64 = Timestamp.msPerDay

    /// The type of `shown PLACEMENT …` (a number) or `last shown PLACEMENT` (a date), after
    /// checking that the placement is declared.
    mutating func historySubjectType(_ reference: AttributeReference) -> AttributeType? {
        var known = true
        var listed: [String: SourceRange] = [:]
        for name in reference.placementNames {
            if let first = listed[name.text] {
                report(.repeatedPlacement(name.text, first: first, at: name.range))
                known = false
            }
            listed[name.text] = listed[name.text] ?? name.range
            if placements[name.text] == nil {
                if !isUnparsed(name.text, .placement) {
                    let suggestion = SuggestionIndex(placementOrder.map(\.name.text)).nearest(to: name.text)
                    report(.unknownPlacement(name.text, suggestion: suggestion, at: name.range))
                }
                known = false
            }
        }
        guard known else { return nil }
        switch reference.target {
        case .shownCount: return AttributeType(type: .number, allowed: nil, isDeclared: true)
        case .lastShown: return AttributeType(type: .date, allowed: nil, isDeclared: true)
        case .custom, .builtin: return nil
        }
    }

    /// A count of showings: its window from a minute to 400 days, one of the six operators,
    /// and a whole number from 0 to 100. Returns whether it passed, so the generic checks add
    /// nothing to an error already reported.
    mutating func checkShownCount(_ comparison: Comparison, _ reference: AttributeReference) -> Bool {
        var passed = true
        if case .shownCount(_, let window?) = reference.target, let written = reference.window,
           window < Checker.minShownWindow || window > Checker.maxHistoryDuration {
            report(.shownWindowOutOfRange(written.text, at: written.range))
            passed = false
        }
        guard Checker.countOperators.contains(comparison.op) else {
            report(.shownCountOperator(comparison.op, name: reference.displayName, at: comparison.operatorRange))
            return false
        }
        // Each placement keeps its latest 100 showings: a count over several sums theirs.
        let placements = max(1, reference.target.historyPlacements.count)
        let limit = Checker.maxShownCount * placements
        for literal in comparison.operands {
            guard case .number(let value) = literal.value else { continue }  // the type check reports it
            if value.rounded(.towardZero) != value || value < 0 || value > Double(limit) {
                report(.shownCountOutOfRange(literal.text, placements: placements, at: literal.range))
                passed = false
            } else if let always = Checker.constantCount(comparison.op, Int(value), limit: limit) {
                report(.constantCap(reference.displayName, op: comparison.op, count: literal.text, always: always, at: comparison.range))
            }
        }
        return passed
    }

    /// Whether a count of showings (0 to 100, as a placement keeps at most 100) compared by
    /// `op` with `count` is the same for every count: true when always true (`>= 0`,
    /// `<= 100`), false when never (`< 0`, `> 100`), nil when some counts pass and some fail,
    /// and nil for an operator that does not compare counts (reported by itself).
    static func constantCount(_ op: ComparisonOperator, _ count: Int, limit: Int = maxShownCount) -> Bool? {
        let holds: (Int) -> Bool
        switch op {
        case .equal: holds = { $0 == count }
        case .notEqual: holds = { $0 != count }
        case .less: holds = { Ordering.less.holds($0, count) }
        case .lessOrEqual: holds = { Ordering.lessOrEqual.holds($0, count) }
        case .greater: holds = { Ordering.greater.holds($0, count) }
        case .greaterOrEqual: holds = { Ordering.greaterOrEqual.holds($0, count) }
        case .contains, .startsWith, .endsWith, .matches, .isIn, .isNotIn, .between, .has, .hasAny, .hasAll, .hasNone,
             .isSet, .isNotSet:
            return nil
        }
        let results = (0...limit).map(holds)
        if results.allSatisfy({ $0 }) { return true }
        if !results.contains(true) { return false }
        return nil
    }

    /// `sticky DURATION` of an experiment: from one day to 400 days.
    mutating func checkSticky(_ experiment: ExperimentDeclaration) {
        guard let sticky = experiment.sticky else { return }
        if sticky.milliseconds < Checker.minStickyDuration || sticky.milliseconds > Checker.maxHistoryDuration {
            report(.stickyDurationOutOfRange(sticky.text, at: sticky.range))
        }
    }
}
