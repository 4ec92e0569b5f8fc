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

    /// A condition over slot columns and segment columns, as SQL text.
    func compile(_ condition: Condition) -> String {
        dialect.sql(expression(condition))
    }

    /// A condition over slot columns and segment columns.
    func expression(_ condition: Condition) -> SQLExpression {
        switch condition {
        case .and(let items): return items.isEmpty ? .bool(true) : .parenthesized(.and(items.map(expression)))
        case .or(let items): return items.isEmpty ? .bool(false) : .parenthesized(.or(items.map(expression)))
        case .not(let inner): return .parenthesized(.not(expression(inner)))
        case .segment(let index): return .column(segmentColumn(index))
        case .test(let test): return expression(test)
        }
    }

    /// One comparison.
    func expression(_ test: CompiledTest) -> SQLExpression {
        if test.slot < 0 {
            // `now` is inlined: the outcome is known at compile time.
            let outcome: Bool
            if case .isSet = test.kind { outcome = !test.negated } else {
                outcome = Evaluator.compare(.date(now), test.kind, now: now).map { $0 != test.negated } ?? false
            }
            return .bool(outcome)
        }
        let c = "s\(test.slot)_"
        let fits: SQLExpression
        let check: SQLExpression
        switch test.kind {
        case .isSet:
            return test.negated ? .parenthesized(.not(.column(c + "p"))) : .column(c + "p")
        case .versionEquals, .versionOrder, .versionBetween, .versionIn:
            fits = .column(c + "ok")
            check = versionCheck(test.kind, prefix: c)
        case .stringEquals, .stringIn, .contains, .startsWith, .endsWith, .matches, .numberEquals, .numberOrder, .numberBetween, .numberIn,
             .boolEquals, .dateEquals, .dateOrder, .dateBetween, .has, .hasAny, .hasAll, .hasNone:
            fits = .parenthesized(.isNull(.column(c + "v"), negated: true))
            check = valueCheck(test.kind, prefix: c)
        }
        let holds = SQLExpression.coalesce([check, .bool(false)])
        return .parenthesized(.and([fits, test.negated ? .not(holds) : holds]))
    }

    private func op(_ ordering: Ordering) -> SQLExpression.Comparison {
        switch ordering {
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        }
    }

    private func valueCheck(_ kind: CompiledTest.Kind, prefix c: String) -> SQLExpression {
        let v = SQLExpression.column(c + "v")
        func text(_ fold: Bool) -> SQLExpression { fold ? .column(c + "f") : v }
        func date(_ operand: DateOperand) -> SQLExpression { SQLConditionCompiler.instant(operand, now: now) }
        func compare(_ left: SQLExpression, _ comparison: SQLExpression.Comparison, _ right: SQLExpression) -> SQLExpression {
            .parenthesized(.compare(left, comparison, right))
        }
        func between(_ low: SQLExpression, _ high: SQLExpression) -> SQLExpression {
            .parenthesized(.and([.compare(v, .greaterOrEqual, low), .compare(v, .lessOrEqual, high)]))
        }
        switch kind {
        case .stringEquals(let literal, let fold):
            return compare(text(fold), .equal, .string(literal))
        case .stringIn(let literals, let fold):
            return .parenthesized(.isIn(text(fold), literals.map(SQLExpression.string)))
        case .contains(let literal, let fold):
            return .contains(text(fold), .string(literal))
        case .startsWith(let literal, let fold):
            return compare(.prefix(text(fold), literal.unicodeScalars.count), .equal, .string(literal))
        case .endsWith(let literal, let fold):
            return compare(.suffix(text(fold), literal.unicodeScalars.count), .equal, .string(literal))
        case .matches(let pattern):
            return SQLPattern(dialect: dialect).condition(text(pattern.ignoringCase), pattern)
        case .numberEquals(let literal):
            return compare(v, .equal, .number(literal))
        case .numberOrder(let ordering, let literal):
            return compare(v, op(ordering), .number(literal))
        case .numberBetween(let low, let high):
            return between(.number(low), .number(high))
        case .numberIn(let literals):
            return .parenthesized(.isIn(v, literals.sorted().map(SQLExpression.number)))
        case .boolEquals(let literal):
            return compare(v, .equal, .bool(literal))
        case .dateEquals(let operand):
            return compare(v, .equal, date(operand))
        case .dateOrder(let ordering, let operand):
            return compare(v, op(ordering), date(operand))
        case .dateBetween(let low, let high):
            return between(date(low), date(high))
        case .has(let literal, let fold):
            return .arrayContains(text(fold), .string(literal))
        case .hasAny(let literals, let fold):
            return .parenthesized(.or(literals.map { .arrayContains(text(fold), .string($0)) }))
        case .hasAll(let literals, let fold):
            return .parenthesized(.and(literals.map { .arrayContains(text(fold), .string($0)) }))
        case .hasNone(let literals, let fold):
            // Each term is coalesced: a literal PostgreSQL cannot hold is NULL and held by no set.
            let held = literals.map { SQLExpression.coalesce([.arrayContains(text(fold), .string($0)), .bool(false)]) }
            return .parenthesized(.not(.parenthesized(.or(held))))
        case .versionEquals, .versionOrder, .versionBetween, .versionIn, .isSet:
            return .bool(false)  // compiled by `versionCheck` and `expression`, never here
        }
    }

    private func versionCheck(_ kind: CompiledTest.Kind, prefix c: String) -> SQLExpression {
        let comparison = SQLVersionComparison(prefix: c)
        let zero = SQLExpression.integer(0)
        switch kind {
        case .versionEquals(let literal):
            return .parenthesized(.compare(comparison.compare(to: literal), .equal, zero))
        case .versionOrder(let ordering, let literal):
            return .parenthesized(.compare(comparison.compare(to: literal), op(ordering), zero))
        case .versionBetween(let low, let high):
            return .parenthesized(.and([.compare(comparison.compare(to: low), .greaterOrEqual, zero),
                                        .compare(comparison.compare(to: high), .lessOrEqual, zero)]))
        case .versionIn(let literals):
            return .parenthesized(.or(literals.sorted().map { .compare(comparison.compare(to: $0), .equal, zero) }))
        case .stringEquals, .stringIn, .contains, .startsWith, .endsWith, .matches, .numberEquals, .numberOrder, .numberBetween,
             .numberIn, .boolEquals, .dateEquals, .dateOrder, .dateBetween, .has, .hasAny, .hasAll, .hasNone, .isSet:
            return .bool(false)  // compiled by `valueCheck` and `expression`, never here
        }
    }

    /// An instant inlined as Unix ms; a relative one (`now - 30d`) keeps its meaning in a comment
    /// beside the number: `1793448000000 /* now - 30d = 2026-10-30T12:00:00Z */`.
    static func instant(_ operand: DateOperand, now: Int64) -> SQLExpression {
        let ms = operand.at(now)
        guard case .relative(let offset) = operand else { return .integer(ms) }
        let magnitude = offset.magnitude
        let units: [(UInt64, String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")]
        let (size, unit) = units.first { magnitude % $0.0 == 0 && magnitude >= $0.0 } ?? (1, "ms")
        let written = offset == 0 ? "now" : "now \(offset < 0 ? "-" : "+") \(magnitude / size)\(unit)"
        return .commented(.integer(ms), "\(written) = \(Timestamp.format(ms))")
    }
}
