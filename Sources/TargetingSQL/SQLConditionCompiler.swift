import TargetingBase
import TargetingEngine

/// Compiles conditions into SQL boolean expressions with the two-valued semantics of
/// `Evaluator.run`: a missing or mistyped value makes every test false except `is set` /
/// `is not set`, and `!=`, `not in` negate only a fitting value.
///
/// SQL is three-valued: a comparison with NULL is NULL. Where a condition only decides whether
/// a row is taken (an audience, and every segment no `not` reaches), NULL and FALSE are the same
/// answer through `AND` and `OR`, so a test whose comparison is NULL exactly when the value is
/// missing is written as that comparison alone, as an analyst writes it (`country = 'US'`).
/// Under `not`, every test is made two-valued first.
struct SQLConditionCompiler {
    let dialect: SQLDialect
    let now: Int64
    /// The column holding segment N's result.
    let segmentColumn: (Int) -> String
    /// How slot N's view holds its value.
    var form: (Int) -> SQLValueForm = { _ in .plain }
    /// The column holding prerequisite N's result (never NULL), once its placement is decided.
    var prerequisiteColumn: (Int) -> String = SQLConditionCompiler.prerequisiteColumn

    /// The column of prerequisite `index`: `pre<N>`.
    static func prerequisiteColumn(_ index: Int) -> String { "pre\(index)" }

    /// A condition over slot columns and segment columns, as SQL text: two-valued unless
    /// `deciding` (a condition that only decides whether a row is taken).
    func compile(_ condition: Condition, deciding: Bool = false) -> String {
        dialect.sql(expression(condition, twoValued: !deciding))
    }

    /// A condition over slot columns and segment columns; with `twoValued`, never NULL.
    func expression(_ condition: Condition, twoValued: Bool = true) -> SQLExpression {
        switch condition {
        case .and(let items): return items.isEmpty ? .bool(true) : .parenthesized(.and(items.map { expression($0, twoValued: twoValued) }))
        case .or(let items): return items.isEmpty ? .bool(false) : .parenthesized(.or(items.map { expression($0, twoValued: twoValued) }))
        case .not(let inner): return .parenthesized(.not(expression(inner, twoValued: true)))
        case .segment(let index): return .column(segmentColumn(index))
        case .test(let test): return expression(test, twoValued: twoValued)
        case .prerequisite(let index): return .column(prerequisiteColumn(index))
        }
    }

    /// The segments whose columns must be two-valued: those a `not` reaches in `conditions`
    /// (audiences' and segments' alike), and the segments those use. `segments(i)` is segment
    /// i's condition.
    static func twoValuedSegments(from conditions: [Condition], segments: (Int) -> Condition) -> Set<Int> {
        var marked: Set<Int> = []
        var visited: Set<[Int]> = []
        func walk(_ condition: Condition, negated: Bool) {
            switch condition {
            case .and(let items), .or(let items): items.forEach { walk($0, negated: negated) }
            case .not(let inner): walk(inner, negated: true)
            case .test, .prerequisite: break
            case .segment(let index):
                if negated { marked.insert(index) }
                guard visited.insert([index, negated ? 1 : 0]).inserted else { return }
                walk(segments(index), negated: negated)
            }
        }
        conditions.forEach { walk($0, negated: false) }
        return marked
    }

    /// One comparison: the value fits the test's type and the type's check holds (negated
    /// for a negated test); presence is the `p` column.
    func expression(_ test: CompiledTest, twoValued: Bool = true) -> SQLExpression {
        if test.slot < 0 {
            // `now` is inlined: the outcome is known at compile time.
            return .bool(test.holds(.date(now), now: now))
        }
        let c = "s\(test.slot)_"
        let v = SQLExpression.column(c + "v")
        let valueFits = SQLExpression.parenthesized(.isNull(v, negated: true))
        var fits = valueFits
        let check: SQLExpression
        // Whether `check` is NULL exactly when the value is missing (else it may be NULL for
        // a fitting value, and is coalesced).
        var strict = true
        switch test.kind {
        case .presence:
            return test.negated ? .parenthesized(.not(.column(c + "p"))) : .column(c + "p")
        case .text(let text, let fold):
            check = self.text(text, fold ? .column(c + "f") : v)
            strict = text.literals.allSatisfy(dialect.canWrite)
            if case .matches = text { strict = false }
        case .number(let number):
            if case .derived(let rule, let source) = form(test.slot) {
                check = derived(number, SQLDerivedBounds(rule: rule, now: now), v, source)
            } else {
                check = self.number(number, v)
            }
        case .bool(let literal):
            check = .parenthesized(.compare(v, .equal, .bool(literal)))
        case .date(let date):
            guard case .date(let source) = form(test.slot) else { preconditionFailure("a date test of a slot read as another type") }
            check = self.date(date, v, source)
        case .version(let version):
            (fits, check, strict) = (.column(c + "ok"), self.version(version, SQLVersionComparison(prefix: c)), false)
        case .members(let members, let fold):
            // A set is present when `setIsPresent` (ClickHouse has no NULL array: its unset set is empty).
            fits = .parenthesized(.setIsPresent(v))
            check = self.members(members, fold ? .column(c + "f") : v)
            strict = dialect.hasNullArrays && members.literals.allSatisfy(dialect.canWrite)
        }
        if strict {
            if twoValued { return .parenthesized(.and([fits, test.negated ? .not(check) : check])) }
            return test.negated ? .parenthesized(.not(check)) : check
        }
        if case .members(let members, _) = test.kind, !dialect.hasNullArrays, members.literals.allSatisfy(dialect.canWrite) {
            // No NULL array (ClickHouse): an unset set is empty, where `has`, `has any` and
            // `has all` are false and never NULL; `has none` and negations need the set present.
            if case .hasNone = members {} else if !twoValued, !test.negated { return check }
            return .parenthesized(.and([fits, test.negated ? .not(check) : check]))
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

    /// A test of the date `value`, held in `form`.
    private func date(_ test: InstantTest, _ value: SQLExpression, _ form: SQLDateForm) -> SQLExpression {
        let literals = SQLDateLiterals(dialect: dialect)
        func compare(_ comparison: SQLExpression.Comparison, _ operand: DateOperand) -> SQLExpression {
            literals.compare(value, comparison, operand.at(now), form: form, note: SQLConditionCompiler.note(operand, now: now))
        }
        switch test {
        case .equals(let operand): return compare(.equal, operand)
        case .order(let ordering, let operand): return compare(op(ordering), operand)
        case .between(let low, let high): return .parenthesized(.and([compare(.greaterOrEqual, low), compare(.lessOrEqual, high)]))
        }
    }

    /// A test of a number derived from the date `value` (held in `form`), as comparisons of that date.
    private func derived(_ test: OrderedTest<Double>, _ bounds: SQLDerivedBounds, _ value: SQLExpression, _ form: SQLDateForm) -> SQLExpression {
        let literals = SQLDateLiterals(dialect: dialect)
        func terms(_ terms: SQLDerivedBounds.Terms) -> SQLExpression {
            // No value passes: a comparison that no date passes, NULL when the value is missing.
            guard let terms else { return literals.compare(value, .less, Int64.min, form: form) }
            let compared = terms.map { literals.compare(value, $0.0, $0.1, form: form) }
            return compared.count == 1 ? compared[0] : .parenthesized(.and(compared))
        }
        switch test {
        case .equals(let literal): return terms(bounds.equals(literal))
        case .order(let ordering, let literal): return terms(bounds.order(ordering, literal))
        case .between(let low, let high): return terms(bounds.between(low, high))
        case .isIn(let literals): return .parenthesized(.or(literals.sorted().map { terms(bounds.equals($0)) }))
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
            guard literals.allSatisfy(dialect.canWrite) else { return .parenthesized(.or(literals.map { .arrayContains(value, .string($0)) })) }
            return .overlaps(value, literals.map(SQLExpression.string))
        case .hasAll(let literals):
            guard literals.allSatisfy(dialect.canWrite) else { return .parenthesized(.and(literals.map { .arrayContains(value, .string($0)) })) }
            return .containsAll(value, literals.map(SQLExpression.string))
        case .hasNone(let literals):
            // A literal the engine cannot write is NULL and held by no set: its term is coalesced.
            let held = literals.map { literal in
                let term = SQLExpression.arrayContains(value, .string(literal))
                return dialect.canWrite(literal) ? term : .coalesce([term, .bool(false)])
            }
            return .parenthesized(.not(.parenthesized(.or(held))))
        }
    }

    /// What a relative instant (`now - 30d`) means, for a comment beside its value:
    /// `now - 30d = 2026-10-30T12:00:00Z`; nil for an absolute one.
    static func note(_ operand: DateOperand, now: Int64) -> String? {
        guard case .relative(let offset) = operand else { return nil }
        let magnitude = offset.magnitude
        let units: [(UInt64, String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")]
        let (size, unit) = units.first { magnitude % $0.0 == 0 && magnitude >= $0.0 } ?? (1, "ms")
        let written = offset == 0 ? "now" : "now \(offset < 0 ? "-" : "+") \(magnitude / size)\(unit)"
        return "\(written) = \(Timestamp.format(operand.at(now)))"
    }
}

extension TextTest {
    /// The texts the test compares with.
    var literals: [String] {
        switch self {
        case .equals(let literal), .contains(let literal), .startsWith(let literal), .endsWith(let literal): [literal]
        case .isIn(let literals): Array(literals)
        case .matches: []
        }
    }
}

extension MembersTest {
    /// The texts the test looks for.
    var literals: [String] {
        switch self {
        case .has(let literal): [literal]
        case .hasAny(let literals), .hasAll(let literals), .hasNone(let literals): Array(literals)
        }
    }
}
