import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingSQL

/// Characters that end or change a SQL string literal or comment, in rule literals, flow and
/// split ids and file names: escaped in string literals of both dialects, and unable to end the
/// `--` comments a query copies each declaration into. Tests/SQL/injection.rules runs the same
/// characters on real engines (agreement.py, spark_agreement.py).
final class SQLInjectionTests: XCTestCase {
    private let now: Int64 = 1_796_040_000_000  // 2026-11-29T12:00:00Z

    /// Each case: the literal's value, and how PostgreSQL and Spark SQL write it.
    private let cases: [(value: String, postgres: String, spark: String)] = [
        ("o'brien", "'o''brien'", "'o\\'brien'"),
        ("''", "''''''", "'\\'\\''"),
        ("say \"hi\"", "'say \"hi\"'", "'say \"hi\"'"),
        ("back\\slash", "'back\\slash'", "'back\\\\slash'"),
        ("\\'", "'\\'''", "'\\\\\\''"),
        ("x\\", "'x\\'", "'x\\\\'"),
        ("--dash", "'--dash'", "'--dash'"),
        ("/*open", "'/*open'", "'/*open'"),
        ("close*/", "'close*/'", "'close*/'"),
        ("$$dollar$$", "'$$dollar$$'", "'$$dollar$$'"),
        ("$tag$x$tag$", "'$tag$x$tag$'", "'$tag$x$tag$'"),
        ("100%", "'100%'", "'100%'"),
        ("under_score", "'under_score'", "'under_score'"),
        ("\\%\\_", "'\\%\\_'", "'\\\\%\\\\_'"),
        ("a'); DROP TABLE profiles; --", "'a''); DROP TABLE profiles; --'", "'a\\'); DROP TABLE profiles; --'"),
        ("two\nlines", "'two\nlines'", "'two\\nlines'"),
        ("tab\there\rcr", "'tab\there\rcr'", "'tab\\there\\rcr'"),
        ("\u{1}\u{1F}", "'\u{1}\u{1F}'", "'\\u0001\\u001F'"),
        ("line\u{2028}sep", "'line\u{2028}sep'", "'line\u{2028}sep'"),
    ]

    func testEveryCharacterIsEscapedInStringLiteralsOfBothDialects() {
        for item in cases {
            XCTAssertEqual(SQLDialect.postgres.string(item.value), item.postgres, item.value)
            XCTAssertEqual(SQLDialect.spark.string(item.value), item.spark, item.value)
            XCTAssertEqual(SQLText.stringLiterals(item.postgres, .postgres), [item.value], item.postgres)
            XCTAssertEqual(SQLText.stringLiterals(item.spark, .spark), [item.value], item.spark)
        }
        // Rule literals cannot hold U+0000 (`\u{0}` is rejected); profile values can, and Spark reads them.
        XCTAssertEqual(SQLDialect.spark.string("a\u{0}b"), "'a\\u0000b'")
    }

    /// A rule set whose literals, flow ids and split ids hold every case, in one file whose name
    /// holds a line break and `*/`: the query of each dialect lexes to exactly those literals
    /// (plus its own), and every comment is one line that ends where the generator meant it to.
    func testGeneratedQueriesLexToTheRuleLiterals() throws {
        var text = "attribute nick: string\n"
        for (index, item) in cases.enumerated() {
            let literal = SQLInjectionTests.ruleLiteral(item.value)
            text += "segment s\(index) = nick == \(literal) or nick contains \(literal) or nick in [\(literal), \"x\"]\n"
            text += "audience a\(index) = s\(index)\n"
        }
        text += "placement p {\n"
        for (index, item) in cases.enumerated() {
            let literal = SQLInjectionTests.ruleLiteral(item.value)
            text += index % 2 == 0
                ? "  a\(index) -> flow \(literal)\n"
                : "  a\(index) -> split \(literal) {\n    50% -> flow \(literal)\n    50% -> nothing\n  }\n"
        }
        text += "}\n"
        let loaded = LoadedRules(sources: [SourceFile(path: "dir/odd\nname*.rules", text: text)])
        XCTAssertFalse(loaded.hasErrors, "\(loaded.diagnostics)")
        guard let program = loaded.program else { return }
        for dialect in [SQLDialect.postgres, .spark] {
            let query = try SQLCompiler.header(now: now, dialect: dialect, rules: "rules\r\ndir*/\u{2028}x\\")
                + SQLCompiler.compile(placement: "p", program: program, now: now, dialect: dialect)
            let literals = Set(SQLText.stringLiterals(query, dialect))
            for item in cases { XCTAssertTrue(literals.contains(item.value), "\(dialect): \(item.value)") }
            let comments = SQLText.comments(query, dialect)
            XCTAssertEqual(comments.filter { $0.hasPrefix("--") }.count, 3 + cases.count * 2, "\(dialect): \(comments)")
            for comment in comments where comment.hasPrefix("--") {
                XCTAssertFalse(comment.contains("*/"), comment)
                XCTAssertFalse(comment.hasSuffix("\\"), "a backslash before the line break continues a Spark comment: \(comment)")
                XCTAssertTrue(comment.unicodeScalars.allSatisfy { !["\n", "\r", "\u{2028}", "\u{2029}"].contains($0) }, comment)
            }
            XCTAssertTrue(comments.contains("-- rules: rules  dir* / x\\ "), "\(comments)")
            XCTAssertTrue(comments.contains { $0.hasPrefix("-- odd name*.rules:2 s0 = nick == \"o'brien\"") }, "\(comments)")
            XCTAssertTrue(comments.contains { $0.hasPrefix("-- odd name*.rules:32 s15 = nick == \"two\\nlines\"") }, "\(comments)")
        }
    }

    /// `value` written as a rules string literal, with escapes for what a literal cannot hold raw.
    static func ruleLiteral(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// A small lexer for the SQL the compiler writes: string literals (PostgreSQL: `''` doubles a
/// quote, backslashes are plain; Spark SQL: backslash escapes, `'` or `"` quotes), quoted
/// identifiers, `--` comments to the end of the line (Spark SQL: a backslash right before the
/// line break continues them) and `/* */` comments.
enum SQLText {
    enum Token { case string(String), comment(String) }

    static func tokens(_ sql: String, _ dialect: SQLDialect) -> [Token] {
        let s = Array(sql.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "-", i + 1 < s.count, s[i + 1] == "-" {
                var j = i
                while j < s.count, s[j] != "\n", s[j] != "\r" {
                    if dialect == .spark, s[j] == "\\", j + 1 < s.count, s[j + 1] == "\n" { j += 2; continue }
                    j += 1
                }
                tokens.append(.comment(String(String.UnicodeScalarView(s[i..<j]))))
                i = j
            } else if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                var j = i + 2
                var depth = 1
                while j < s.count, depth > 0 {
                    if s[j] == "/", j + 1 < s.count, s[j + 1] == "*" { depth += 1; j += 2 } else if s[j] == "*", j + 1 < s.count, s[j + 1] == "/" { depth -= 1; j += 2 } else { j += 1 }
                }
                tokens.append(.comment(String(String.UnicodeScalarView(s[i..<j]))))
                i = j
            } else if c == "'" || (dialect == .spark && c == "\"") {
                var value = String.UnicodeScalarView()
                var j = i + 1
                while j < s.count {
                    if s[j] == c {
                        if dialect == .postgres, j + 1 < s.count, s[j + 1] == c { value.append(c); j += 2; continue }
                        break
                    }
                    if dialect == .spark, s[j] == "\\", j + 1 < s.count {
                        let e = s[j + 1]
                        switch e {
                        case "n": value.append("\n"); j += 2
                        case "t": value.append("\t"); j += 2
                        case "r": value.append("\r"); j += 2
                        case "0": value.append("\u{0}"); j += 2
                        case "u" where j + 5 < s.count:
                            let hex = String(String.UnicodeScalarView(s[(j + 2)...(j + 5)]))
                            value.append(Unicode.Scalar(UInt32(hex, radix: 16) ?? 0x3F) ?? "?")
                            j += 6
                        case "%", "_": value.append("\\"); value.append(e); j += 2
                        default: value.append(e); j += 2
                        }
                        continue
                    }
                    value.append(s[j])
                    j += 1
                }
                tokens.append(.string(String(value)))
                i = j + 1
            } else if c == "\"" || c == "`" {
                var j = i + 1
                while j < s.count, s[j] != c { j += 1 }
                i = j + 1
            } else {
                i += 1
            }
        }
        return tokens
    }

    static func stringLiterals(_ sql: String, _ dialect: SQLDialect) -> [String] {
        tokens(sql, dialect).compactMap { if case .string(let value) = $0 { value } else { nil } }
    }

    static func comments(_ sql: String, _ dialect: SQLDialect) -> [String] {
        tokens(sql, dialect).compactMap { if case .comment(let text) = $0 { text } else { nil } }
    }
}
