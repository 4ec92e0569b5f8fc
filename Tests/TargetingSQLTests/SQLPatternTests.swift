import XCTest
@testable import TargetingBase
@testable import TargetingSQL

/// `matches` patterns as PostgreSQL and Spark (Java) regular expressions: exact text
/// for representative patterns. Tests/SQL/patterns.rules and the random rule sets run the same
/// constructs on real engines (agreement.py, spark_agreement.py).
final class SQLPatternTests: XCTestCase {
    private func regex(_ source: String, ignoringCase: Bool = false, _ dialect: SQLDialect,
                       file: StaticString = #filePath, line: UInt = #line) -> String {
        switch MatchPattern.compile(source, ignoringCase: ignoringCase) {
        case .success(let pattern):
            return SQLPattern(dialect: dialect).regex(pattern.node)
        case .failure(let error):
            XCTFail("\(error)", file: file, line: line)
            return ""
        }
    }

    /// Each case: the pattern, `ignoring case`, and the PostgreSQL and Spark regular expressions.
    private let cases: [(source: String, ignoringCase: Bool, postgres: String, spark: String)] = [
        // Literals and counts; under `ignoring case` the pattern is already lowercased.
        ("BF-\\d{4}", true, "^(?:bf\\-[0-9]{4})$", "^(?:bf\\-[0-9]{4})\\z"),
        ("BF-\\d{4}", false, "^(?:BF\\-[0-9]{4})$", "^(?:BF\\-[0-9]{4})\\z"),
        // A class whose range ends are escaped, alternation, escaped dots.
        ("[a-z0-9._-]+@(corp|staff)\\.example\\.com", false,
         "^(?:[\\--\\.0-9\\_a-z]+\\@(?:corp|staff)\\.example\\.com)$",
         "^(?:[\\--\\.0-9\\_a-z]+\\@(?:corp|staff)\\.example\\.com)\\z"),
        // Groups with `?` and `+` inside.
        ("(pro|plus)_(monthly|annual)(_v[0-9]+)?", false,
         "^(?:(?:pro|plus)\\_(?:monthly|annual)(?:\\_v[0-9]+)?)$",
         "^(?:(?:pro|plus)\\_(?:monthly|annual)(?:\\_v[0-9]+)?)\\z"),
        // Every special character escaped; `^` and `$` at the ends mean nothing more.
        ("^\\\\\\/\\.\\[\\]\\(\\)\\{\\}\\*\\+\\?\\|\\^\\$\\-$", false,
         "^(?:\\\\\\/\\.\\[\\]\\(\\)\\{\\}\\*\\+\\?\\|\\^\\$\\-)$",
         "^(?:\\\\\\/\\.\\[\\]\\(\\)\\{\\}\\*\\+\\?\\|\\^\\$\\-)\\z"),
        // `.` is every scalar, line breaks included; `\w` is ASCII only.
        ("a.\\w", false,
         "^(?:a[\\u0000-\\uD7FF\\uE000-\\U0010FFFF][0-9A-Z\\_a-z])$",
         "^(?:a[\\x{0}-\\x{D7FF}\\x{E000}-\\x{10FFFF}][0-9A-Z\\_a-z])\\z"),
        // Code points: BMP, non-BMP, a combining mark, white space and a line break.
        ("é\\u{1F600}e\\u{301} \\u{A0}\\u{A}", false,
         "^(?:\\u00E9\\U0001F600e\\u0301\\ \\u00A0\\u000A)$",
         "^(?:\\x{E9}\\x{1F600}e\\x{301}\\ \\x{A0}\\x{A})\\z"),
        // A negated class: every other scalar (surrogate code points are no scalars).
        ("[^a-c]", false,
         "^(?:[\\u0000-\\`d-\\uD7FF\\uE000-\\U0010FFFF])$",
         "^(?:[\\x{0}-\\`d-\\x{D7FF}\\x{E000}-\\x{10FFFF}])\\z"),
        // `-` first and last, `]` and `\` in a class (one range, from `\` to `]`); Java's `&&` stays two literal ampersands.
        ("[-a][a-][\\]\\\\][&&b]", false,
         "^(?:[\\-a][\\-a][\\\\-\\]][\\&b])$",
         "^(?:[\\-a][\\-a][\\\\-\\]][\\&b])\\z"),
        // An empty branch, counts of groups, nested bounded counts.
        ("a(|b)(ab){2,}(a{1,3}){2,3}x{0,100}", false,
         "^(?:a(?:|b)(?:ab){2,}(?:a{1,3}){2,3}x{0,100})$",
         "^(?:a(?:|b)(?:ab){2,}(?:a{1,3}){2,3}x{0,100})\\z"),
        // `ignoring case` over non-ASCII letters: É, a capital sigma (both small sigmas), İ
        // (two scalars), a range of capitals.
        ("ÉΣİ[A-Z]", true,
         "^(?:\\u00E9[\\u03C2-\\u03C3]i\\u0307[a-z])$",
         "^(?:\\x{E9}[\\x{3C2}-\\x{3C3}]i\\x{307}[a-z])\\z"),
    ]

    func testPatternsInBothDialects() {
        for item in cases {
            XCTAssertEqual(regex(item.source, ignoringCase: item.ignoringCase, .postgres), item.postgres, item.source)
            XCTAssertEqual(regex(item.source, ignoringCase: item.ignoringCase, .spark), item.spark, item.source)
        }
    }

    /// The pattern of a comparison that did not compile matches no value, NUL included.
    func testNothingMatchesNoScalar() {
        let nothing = MatchPattern.nothing(written: "(", ignoringCase: false).node
        XCTAssertEqual(SQLPattern(dialect: .postgres).regex(nothing), "^(?:[^\\u0000-\\U0010FFFF])$")
        XCTAssertEqual(SQLPattern(dialect: .spark).regex(nothing), "^(?:[^\\x{0}-\\x{10FFFF}])\\z")
    }

    /// The condition quotes the expression as each dialect's string literal: Spark SQL reads
    /// backslash escapes in literals, so every backslash of the expression is doubled there.
    func testConditionQuotesTheExpression() throws {
        let pattern = try MatchPattern.compile("a\\.b'", ignoringCase: false).get()
        XCTAssertEqual(SQLDialect.postgres.sql(SQLPattern(dialect: .postgres).condition(.column("s0_v"), pattern)), "(s0_v ~ '^(?:a\\.b\\'')$')")
        XCTAssertEqual(SQLDialect.spark.sql(SQLPattern(dialect: .spark).condition(.column("s0_v"), pattern)), "(s0_v RLIKE '^(?:a\\\\.b\\\\\\')\\\\z')")
    }
}
