import TargetingBase
import TargetingEngine

/// Compiles conditions into SQL boolean expressions that are never NULL, with the two-valued
/// semantics of `Evaluator.run`: a missing or mistyped value makes every test false except
/// `is set` / `is not set`, and `!=`, `not in` negate only a fitting value.
struct SQLConditionCompiler {
    let dialect: SQLDialect
    let now: Int64
    /// The column holding segment N's result.
    let segmentColumn: (Int) -> String

    /// A condition over slot columns and segment columns.
    func compile(_ condition: Condition) -> String {
        switch condition {
        case .and(let items): return items.isEmpty ? "TRUE" : "(" + items.map(compile).joined(separator: " AND ") + ")"
        case .or(let items): return items.isEmpty ? "FALSE" : "(" + items.map(compile).joined(separator: " OR ") + ")"
        case .not(let inner): return "(NOT \(compile(inner)))"
        case .segment(let index): return segmentColumn(index)
        case .test(let test): return compile(test)
        }
    }

    /// One comparison.
    func compile(_ test: CompiledTest) -> String {
        if test.slot < 0 {
            // `now` is inlined: the outcome is known at compile time.
            let outcome: Bool
            if case .isSet = test.kind { outcome = !test.negated } else {
                outcome = Evaluator.compare(.date(now), test.kind, now: now).map { $0 != test.negated } ?? false
            }
            return outcome ? "TRUE" : "FALSE"
        }
        let c = "s\(test.slot)_"
        let fits: String
        let check: String
        switch test.kind {
        case .isSet:
            return test.negated ? "(NOT \(c)p)" : c + "p"
        case .versionEquals, .versionOrder, .versionBetween, .versionIn:
            fits = c + "ok"
            check = versionCheck(test.kind, prefix: c)
        case .stringEquals, .stringIn, .contains, .startsWith, .endsWith, .matches, .numberEquals, .numberOrder, .numberBetween, .numberIn,
             .boolEquals, .dateEquals, .dateOrder, .dateBetween, .has, .hasAny, .hasAll, .hasNone:
            fits = "(\(c)v IS NOT NULL)"
            check = valueCheck(test.kind, prefix: c)
        }
        return test.negated ? "(\(fits) AND NOT coalesce(\(check), FALSE))" : "(\(fits) AND coalesce(\(check), FALSE))"
    }

    private func op(_ ordering: Ordering) -> String {
        switch ordering {
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    private func valueCheck(_ kind: CompiledTest.Kind, prefix c: String) -> String {
        let v = c + "v"
        func text(_ fold: Bool) -> String { fold ? c + "f" : v }
        func date(_ operand: DateOperand) -> String { SQLConditionCompiler.instant(operand, now: now) }
        func list(_ items: [String]) -> String { "(" + items.joined(separator: ", ") + ")" }
        switch kind {
        case .stringEquals(let literal, let fold):
            return "(\(text(fold)) = \(dialect.string(literal)))"
        case .stringIn(let literals, let fold):
            return "(\(text(fold)) IN \(list(literals.map(dialect.string))))"
        case .contains(let literal, let fold):
            return dialect.contains(text(fold), dialect.string(literal))
        case .startsWith(let literal, let fold):
            return "(left(\(text(fold)), \(literal.unicodeScalars.count)) = \(dialect.string(literal)))"
        case .endsWith(let literal, let fold):
            return "(right(\(text(fold)), \(literal.unicodeScalars.count)) = \(dialect.string(literal)))"
        case .matches(let pattern):
            return SQLPattern(dialect: dialect).condition(text(pattern.ignoringCase), pattern)
        case .numberEquals(let literal):
            return "(\(v) = \(dialect.double(literal)))"
        case .numberOrder(let ordering, let literal):
            return "(\(v) \(op(ordering)) \(dialect.double(literal)))"
        case .numberBetween(let low, let high):
            return "(\(v) >= \(dialect.double(low)) AND \(v) <= \(dialect.double(high)))"
        case .numberIn(let literals):
            return "(\(v) IN \(list(literals.sorted().map(dialect.double))))"
        case .boolEquals(let literal):
            return "(\(v) = \(literal ? "TRUE" : "FALSE"))"
        case .dateEquals(let operand):
            return "(\(v) = \(date(operand)))"
        case .dateOrder(let ordering, let operand):
            return "(\(v) \(op(ordering)) \(date(operand)))"
        case .dateBetween(let low, let high):
            return "(\(v) >= \(date(low)) AND \(v) <= \(date(high)))"
        case .has(let literal, let fold):
            return dialect.arrayContains(text(fold), dialect.string(literal))
        case .hasAny(let literals, let fold):
            return "(" + literals.map { dialect.arrayContains(text(fold), dialect.string($0)) }.joined(separator: " OR ") + ")"
        case .hasAll(let literals, let fold):
            return "(" + literals.map { dialect.arrayContains(text(fold), dialect.string($0)) }.joined(separator: " AND ") + ")"
        case .hasNone(let literals, let fold):
            // Each term is coalesced: a literal PostgreSQL cannot hold is NULL and held by no set.
            return "(NOT (" + literals.map { "coalesce(\(dialect.arrayContains(text(fold), dialect.string($0))), FALSE)" }.joined(separator: " OR ") + "))"
        case .versionEquals, .versionOrder, .versionBetween, .versionIn, .isSet:
            return "FALSE"  // compiled by `versionCheck` and `compile`, never here
        }
    }

    private func versionCheck(_ kind: CompiledTest.Kind, prefix c: String) -> String {
        let comparison = SQLVersionComparison(dialect: dialect, prefix: c)
        switch kind {
        case .versionEquals(let literal):
            return "(\(comparison.compare(to: literal)) = 0)"
        case .versionOrder(let ordering, let literal):
            return "(\(comparison.compare(to: literal)) \(op(ordering)) 0)"
        case .versionBetween(let low, let high):
            return "(\(comparison.compare(to: low)) >= 0 AND \(comparison.compare(to: high)) <= 0)"
        case .versionIn(let literals):
            let sorted = literals.sorted()
            return "(" + sorted.map { "\(comparison.compare(to: $0)) = 0" }.joined(separator: " OR ") + ")"
        case .stringEquals, .stringIn, .contains, .startsWith, .endsWith, .matches, .numberEquals, .numberOrder, .numberBetween,
             .numberIn, .boolEquals, .dateEquals, .dateOrder, .dateBetween, .has, .hasAny, .hasAll, .hasNone, .isSet:
            return "FALSE"  // compiled by `valueCheck` and `compile`, never here
        }
    }

    /// An instant inlined as Unix ms; a relative one (`now - 30d`) keeps its meaning in a comment
    /// beside the number: `1793448000000 /* now - 30d = 2026-10-30T12:00:00Z */`.
    static func instant(_ operand: DateOperand, now: Int64) -> String {
        let ms = operand.at(now)
        guard case .relative(let offset) = operand else { return String(ms) }
        let magnitude = offset.magnitude
        let units: [(UInt64, String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")]
        let (size, unit) = units.first { magnitude % $0.0 == 0 && magnitude >= $0.0 } ?? (1, "ms")
        let written = offset == 0 ? "now" : "now \(offset < 0 ? "-" : "+") \(magnitude / size)\(unit)"
        return "\(ms) /* \(written) = \(Timestamp.format(ms)) */"
    }
}
