import TargetingBase

/// A `matches` pattern spelled as each engine's regular expression, with the same language as
/// the tool's automaton on every value (non-ASCII text and line breaks included).
///
/// Nothing is left to an engine's defaults: the whole value is matched between explicit
/// anchors (PostgreSQL's `^…$` outside newline-sensitive mode; Java's `^…\z`, because its `$`
/// also matches before a final line break); `.`, `\d` and `\w` become explicit classes
/// (Java's `.` skips line breaks, PostgreSQL's `\w` follows the locale); every character that
/// is not an ASCII letter or digit is escaped, by code point where it is not printable ASCII;
/// groups capture nothing (`(?:…)`). Case is not the engine's business either: under `ignoring
/// case` the pattern is already lowercased and the lowercased column is matched.
///
/// The spellings each engine reads the same way, checked on PostgreSQL 15 and Spark 3.5 and 4
/// by Tests/SQL/agreement.py and spark_agreement.py: a `\` before printable ASCII that is not a
/// letter or digit is that character, inside a class and as a range end too (`[\--\/]`;
/// PostgreSQL's advanced expressions and Java both); a code is `\uXXXX` or `\UXXXXXXXX` in
/// PostgreSQL and `\x{…}` in Java, inside classes too; Java's class intersection `&&` cannot
/// occur, since `&` is always written `\&`. Spark SQL reads backslash escapes in string
/// literals, so `SQLDialect.string` doubles every backslash of the expression there.
///
/// Java matches by backtracking, so some patterns cost Spark more than the tool or PostgreSQL
/// (the language, and so every answer, stays the same): a count of a group whose branches
/// overlap (`(a|ab)*`, `([a-z]{1,9}){1,9}`) can take exponential time on a value that almost
/// matches, and `*` or `+` of a group with alternation recurses once per repetition, so a
/// value of some thousand characters (a built-in string; custom values have at most 50)
/// overflows Java's stack and fails the query.
struct SQLPattern {
    let dialect: SQLDialect

    /// The regular expression for the whole pattern.
    func regex(_ node: PatternNode) -> String {
        "^(?:" + body(node) + ")" + dialect.endAnchor
    }

    /// The condition that `text` (a text expression, not NULL) matches `pattern`.
    func condition(_ text: SQLExpression, _ pattern: MatchPattern) -> SQLExpression {
        .matches(text, .string(regex(pattern.node)))
    }

    private func body(_ node: PatternNode) -> String {
        switch node {
        case .empty:
            return ""
        case .set(let set):
            return self.set(set)
        case .sequence(let items):
            return items.map { group($0, forSequence: true) }.joined()
        case .alternation(let branches):
            return "(?:" + branches.map(body).joined(separator: "|") + ")"
        case .repetition(let inner, let min, let max):
            let count: String
            switch (min, max) {
            case (0, nil): count = "*"
            case (1, nil): count = "+"
            case (0, 1?): count = "?"
            case (let low, nil): count = "{\(low),}"
            case (let low, let high?) where low == high: count = "{\(low)}"
            case (let low, let high?): count = "{\(low),\(high)}"
            }
            return group(inner, forSequence: false) + count
        }
    }

    /// `node` as one unit of a sequence, or as the operand of a count.
    private func group(_ node: PatternNode, forSequence: Bool) -> String {
        switch node {
        case .set: body(node)
        case .alternation: body(node)
        case .sequence, .empty: forSequence ? body(node) : "(?:" + body(node) + ")"
        case .repetition: forSequence ? body(node) : "(?:" + body(node) + ")"
        }
    }

    /// One scalar from `set`: a literal, or a class of escaped ranges.
    private func set(_ set: ScalarSet) -> String {
        if let scalar = set.single { return literal(scalar.value) }
        if set.isEmpty {
            // Matches nothing: every scalar (NUL too, which a Spark string can hold) is outside it.
            return "[^" + classRange(0...0x10FFFF) + "]"
        }
        return "[" + set.ranges.map(classRange).joined() + "]"
    }

    private func classRange(_ range: ClosedRange<UInt32>) -> String {
        range.lowerBound == range.upperBound ? literal(range.lowerBound) : literal(range.lowerBound) + "-" + literal(range.upperBound)
    }

    /// A scalar as itself (ASCII letters and digits), `\c` (other printable ASCII), or its code.
    private func literal(_ value: UInt32) -> String {
        let scalar = Unicode.Scalar(value) ?? "?"
        if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { return String(scalar) }
        if (0x20...0x7E).contains(value) { return "\\" + String(scalar) }
        return dialect.regexCodePoint(value)
    }
}
