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

    /// One comparison: the value fits the test's type and the type's check holds (negated
    /// for a negated test); presence is the `p` column.
    func expression(_ test: CompiledTest) -> SQLExpression {
        if test.slot < 0 {
            // `now` is inlined: the outcome is known at compile time.
            return .bool(test.holds(.date(now), now: now))
        }
        let c = "s\(test.slot)_"
        let v = SQLExpression.column(c + "v")
        let valueFits = SQLExpression.parenthesized(.isNull(v, negated: true))
        let fits: SQLExpression
        let check: SQLExpression
        switch test.kind {
        case .presence:
            return test.negated ? .parenthesized(.not(.column(c + "p"))) : .column(c + "p")
        case .text(let text, let fold):
            (fits, check) = (valueFits, self.text(text, fold ? .column(c + "f") : v))
        case .number(let number):
            (fits, check) = (valueFits, self.number(number, v))
        case .bool(let literal):
            (fits, check) = (valueFits, .parenthesized(.compare(v, .equal, .bool(literal))))
        case .date(let date):
            (fits, check) = (valueFits, self.date(date, v))
        case .version(let version):
            (fits, check) = (.column(c + "ok"), self.version(version, SQLVersionComparison(prefix: c)))
        case .members(let members, let fold):
            (fits, check) = (valueFits, self.members(members, fold ? .column(c + "f") : v))
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

    private func compare(_ left: SQLExpression, _ comparison: SQLExpression.Comparison, _ right: SQLExpression) -> SQLExpression {
        .parenthesized(.compare(left, comparison, right))
    }

    private func between(_ value: SQLExpression, _ low: SQLExpression, _ high: SQLExpression) -> SQLExpression {
        .parenthesized(.and([.compare(value, .greaterOrEqual, low), .compare(value, .lessOrEqual, high)]))
    }

    /// A test of the text `value` (the folded column under `ignoring case`).
    private func text(_ test: TextTest, _ value: SQLExpression) -> SQLExpression {
        switch test {
        case .equals(let literal): compare(value, .equal, .string(literal))
        case .isIn(let literals): .parenthesized(.isIn(value, literals.map(SQLExpression.string)))
        case .contains(let literal): .contains(value, .string(literal))
        case .startsWith(let literal): compare(.prefix(value, literal.unicodeScalars.count), .equal, .string(literal))
        case .endsWith(let literal): compare(.suffix(value, literal.unicodeScalars.count), .equal, .string(literal))
        case .matches(let pattern): SQLPattern(dialect: dialect).condition(value, pattern)
        }
    }

    /// A test of the number `value`.
    private func number(_ test: OrderedTest<Double>, _ value: SQLExpression) -> SQLExpression {
        switch test {
        case .equals(let literal): compare(value, .equal, .number(literal))
        case .order(let ordering, let literal): compare(value, op(ordering), .number(literal))
        case .between(let low, let high): between(value, .number(low), .number(high))
        case .isIn(let literals): .parenthesized(.isIn(value, literals.sorted().map(SQLExpression.number)))
        }
    }

    /// A test of the instant `value` (Unix ms).
    private func date(_ test: InstantTest, _ value: SQLExpression) -> SQLExpression {
        func instant(_ operand: DateOperand) -> SQLExpression { SQLConditionCompiler.instant(operand, now: now) }
        switch test {
        case .equals(let operand): return compare(value, .equal, instant(operand))
        case .order(let ordering, let operand): return compare(value, op(ordering), instant(operand))
        case .between(let low, let high): return between(value, instant(low), instant(high))
        }
    }

    /// A test of a version, through its parts' comparison with each literal.
    private func version(_ test: OrderedTest<SemanticVersion>, _ comparison: SQLVersionComparison) -> SQLExpression {
        let zero = SQLExpression.integer(0)
        switch test {
        case .equals(let literal):
            return .parenthesized(.compare(comparison.compare(to: literal), .equal, zero))
        case .order(let ordering, let literal):
            return .parenthesized(.compare(comparison.compare(to: literal), op(ordering), zero))
        case .between(let low, let high):
            return .parenthesized(.and([.compare(comparison.compare(to: low), .greaterOrEqual, zero),
                                        .compare(comparison.compare(to: high), .lessOrEqual, zero)]))
        case .isIn(let literals):
            return .parenthesized(.or(literals.sorted().map { .compare(comparison.compare(to: $0), .equal, zero) }))
        }
    }

    /// A test of the set `value` (the folded column under `ignoring case`).
    private func members(_ test: MembersTest, _ value: SQLExpression) -> SQLExpression {
        switch test {
        case .has(let literal):
            return .arrayContains(value, .string(literal))
        case .hasAny(let literals):
            return .parenthesized(.or(literals.map { .arrayContains(value, .string($0)) }))
        case .hasAll(let literals):
            return .parenthesized(.and(literals.map { .arrayContains(value, .string($0)) }))
        case .hasNone(let literals):
            // Each term is coalesced: a literal PostgreSQL cannot hold is NULL and held by no set.
            let held = literals.map { SQLExpression.coalesce([.arrayContains(value, .string($0)), .bool(false)]) }
            return .parenthesized(.not(.parenthesized(.or(held))))
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
