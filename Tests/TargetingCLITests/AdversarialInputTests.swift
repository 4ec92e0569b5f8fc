import Foundation
import TargetingTestSupport
import XCTest

/// Inputs at and past the limits of the edge cases ("Limits"), and inputs far larger than real rule sets
/// and profiles: each gets its answer or one clear error, never a crash, and the work stays
/// linear in the input (each case here runs in well under a second in a debug build; the times
/// are not asserted).
final class AdversarialInputTests: TemporaryDirectoryTestCase {
    private let now = "2026-11-29T12:00:00Z"

    /// `attribute x: string`, segment `s` = `expression`, and a placement `p` sending audience `a`
    /// (= `s`) to flow `f1` and everyone else to `f0`.
    private func rules(_ expression: String, declaring declaration: String = "attribute x: string") -> String {
        "\(declaration)\nsegment s = \(expression)\naudience a = s\nplacement p {\n  a -> flow \"f1\"\n  everyone -> flow \"f0\"\n}\n"
    }

    private func resolve(_ rulesPath: String, _ profilesText: String, _ extra: [String] = ["--format", "json"]) -> CLIResult {
        let profiles = directory.write("profiles.jsonl", profilesText)
        return CLIHarness.run(["resolve", "p", "--rules", rulesPath, "--profiles", profiles, "--now", now] + extra)
    }

    /// The `id` of each output row of `resolve --format json`.
    private func ids(_ result: CLIResult) -> [String] {
        result.outLines.map { line in
            if case .string(let id)? = CLIHarness.member(line, "id") { return id }
            return "?"
        }
    }

    private func profile(x: String) -> String { "{\"id\":\"u1\",\"custom_attributes\":{\"x\":\"\(x)\"}}\n" }

    // MARK: Expression nesting (limit 256)

    func testNestingAtTheLimitResolves() {
        let shapes = [
            String(repeating: "(", count: 256) + "x == \"a\"" + String(repeating: ")", count: 256),
            String(repeating: "not ", count: 256) + "x == \"a\"",
            String(repeating: "not (", count: 128) + "x == \"a\"" + String(repeating: ")", count: 128),
        ]
        for (index, expression) in shapes.enumerated() {
            let path = directory.write("deep\(index).rules", rules(expression))
            let checked = CLIHarness.run(["check", path])
            XCTAssertEqual(checked.status, 0, checked.err)
            let result = resolve(path, profile(x: "a") + profile(x: "b"))
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(ids(result), ["f1", "f0"], expression.prefix(20) + "…")
            let sql = CLIHarness.run(["sql", "p", "--rules", path, "--dialect", "postgres", "--now", now])
            XCTAssertEqual(sql.status, 0, sql.err)
            let formatted = CLIHarness.run(["fmt", path])
            XCTAssertEqual(formatted.status, 0, formatted.err)
            XCTAssertTrue(formatted.out.contains(expression), String(formatted.out.prefix(300)))
        }
    }

    func testNestingPastTheLimitIsAnErrorAtTheOpeningThatGoesTooDeep() {
        // `segment s = ` is 12 columns: the 257th `(` is at column 13 + 256, the 257th `not` at 13 + 256 * 4.
        let shapes = [
            (String(repeating: "(", count: 257) + "x == \"a\"" + String(repeating: ")", count: 257), 269),
            (String(repeating: "not ", count: 257) + "x == \"a\"", 1037),
            ("not " + String(repeating: "not (", count: 128) + "x == \"a\"" + String(repeating: ")", count: 128), 13 + 4 + 127 * 5 + 4),
        ]
        for (index, (expression, column)) in shapes.enumerated() {
            let path = directory.write("deep\(index).rules", rules(expression))
            let checked = CLIHarness.run(["check", path])
            XCTAssertEqual(checked.status, 1)
            XCTAssertTrue(checked.err.hasPrefix("\(path):2:\(column): error: expression nests deeper than 256 levels\n"), checked.err)
            XCTAssertEqual(checked.out, "1 errors, 0 warnings\n")
            let result = resolve(path, profile(x: "a"))
            XCTAssertEqual(result.status, 2)
            XCTAssertEqual(result.out, "")
        }
    }

    // MARK: Long chains and lists

    func testHundredThousandTermOrChain() {
        let expression = (0..<100_000).map { "x == \"v\($0)\"" }.joined(separator: " or ")
        let path = directory.write("or.rules", rules(expression))
        let result = resolve(path, profile(x: "v99999") + profile(x: "v0") + profile(x: "a"))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(ids(result), ["f1", "f1", "f0"])
    }

    func testHundredThousandTermAndChainExplainsTheLastTerm() {
        let expression = (0..<100_000).map { "x != \"v\($0)\"" }.joined(separator: " and ")
        let path = directory.write("and.rules", rules(expression))
        let explained = resolve(path, profile(x: "a") + profile(x: "v99999"), ["--explain"])
        XCTAssertEqual(explained.status, 0, explained.err)
        XCTAssertEqual(explained.outLines.filter { $0.hasPrefix("u1 ") }, ["u1 p: flow \"f1\" (audience `a`)", "u1 p: flow \"f0\" (audience `everyone`)"])
        XCTAssertTrue(explained.out.contains("segment `s`: x is \"v99999\", so `x != \"v99999\"` is false (\(path):2:"), explained.out)
    }

    func testHundredThousandItemInList() {
        let list = (0..<100_000).map { "\"v\($0)\"" }.joined(separator: ", ")
        let path = directory.write("in.rules", rules("x in [\(list)]"))
        XCTAssertEqual(ids(resolve(path, profile(x: "v99999") + profile(x: "v5") + profile(x: "v100000"))), ["f1", "f1", "f0"])
    }

    func testFiveThousandPlacementRows() {
        let count = 5_000
        var text = "attribute x: string\n"
        for index in 0..<count { text += "segment s\(index) = x == \"v\(index)\"\naudience a\(index) = s\(index)\n" }
        text += "placement p {\n" + (0..<count).map { "  a\($0) -> flow \"f\($0)\"\n" }.joined() + "  everyone -> flow \"f_default\"\n}\n"
        let path = directory.write("rows.rules", text)
        let checked = CLIHarness.run(["check", path])
        XCTAssertEqual(checked.status, 0, checked.err)
        XCTAssertTrue(checked.err.contains("note: placement `p` has 5001 rows, too many for the reachability analysis"), checked.err)
        XCTAssertEqual(ids(resolve(path, profile(x: "v4999") + profile(x: "v0") + profile(x: "b"))), ["f4999", "f0", "f_default"])
    }

    /// A segment chain `s1 = s0`, `s2 = s1`, …: explaining a miss follows the chain down to the
    /// comparison (it overflowed the stack when that walk was recursive), and SQL groups the
    /// segments by level in one pass (it filtered every segment once per level).
    func testTenThousandDeepSegmentChain() {
        let depth = 10_000
        var text = "attribute x: string\nsegment s0 = x == \"a\"\n"
        for index in 1..<depth { text += "segment s\(index) = \(index % 2 == 0 ? "s\(index - 1)" : "not not s\(index - 1)")\n" }
        text += "audience a = s\(depth - 1)\nplacement p {\n  a -> flow \"f1\"\n  everyone -> flow \"f0\"\n}\n"
        let path = directory.write("chain.rules", text)
        let explained = resolve(path, profile(x: "a") + profile(x: "b"), ["--explain"])
        XCTAssertEqual(explained.status, 0, explained.err)
        XCTAssertEqual(explained.outLines.filter { $0.hasPrefix("u1 ") }, ["u1 p: flow \"f1\" (audience `a`)", "u1 p: flow \"f0\" (audience `everyone`)"])
        XCTAssertTrue(explained.out.contains("segment `s0`: x is \"b\", so `x == \"a\"` is false, so `not s0` is true (\(path):2:14)"),
                      explained.out)
        let sql = CLIHarness.run(["sql", "p", "--rules", path, "--dialect", "postgres", "--now", now])
        XCTAssertEqual(sql.status, 0, sql.err)
        XCTAssertTrue(sql.out.contains("AS seg_s\(depth - 1)\n"), String(sql.out.suffix(2000)))
        // One stage per level of the chain, after the slot stages.
        XCTAssertGreaterThan(sql.out.components(separatedBy: "\n  OFFSET 0\n)").count - 1, depth)
    }

    // MARK: Giant strings

    func testMegabyteStringLiteral() {
        let big = String(repeating: "z", count: 1 << 20)
        let path = directory.write("big.rules", rules("profile.email contains \"\(big)\" or x == \"a\""))
        let checked = CLIHarness.run(["check", path])
        XCTAssertEqual(checked.status, 0, checked.err)
        // A profile line holding the literal would pass the 1 MiB line limit; a `--profile` file has none.
        let matching = directory.write("matching.json", "{\"id\":\"u1\",\"email\":\"<\(big)>\"}")
        let one = CLIHarness.run(["resolve", "p", "--rules", path, "--profile", matching, "--now", now, "--format", "json"])
        XCTAssertEqual(one.status, 0, one.err)
        XCTAssertEqual(ids(one), ["f1"])
        XCTAssertEqual(ids(resolve(path, "{\"id\":\"u2\",\"email\":\"\(big.dropLast(100))\"}\n" + profile(x: "a"))), ["f0", "f1"])
        let sql = CLIHarness.run(["sql", "p", "--rules", path, "--dialect", "spark", "--now", now])
        XCTAssertEqual(sql.status, 0, sql.err)
        XCTAssertTrue(sql.out.contains("instr(") && sql.out.contains("'\(big)'"))
    }

    func testHugeProfileValues() {
        let path = directory.write("simple.rules", rules("x == \"a\" or profile.email ends with \"@x\""))
        let email = String(repeating: "e", count: 1_000_000) + "@x"
        let long = String(repeating: "a", count: 900_000)
        let result = resolve(path, "{\"id\":\"u1\",\"email\":\"\(email)\"}\n{\"id\":\"u2\",\"custom_attributes\":{\"x\":\"\(long)\"}}\n" + profile(x: "a"))
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(ids(result), ["f1", "f1"])
        XCTAssertEqual(result.errLines, ["\(directory.file("profiles.jsonl")):2: error: profile `u2`: custom attribute `x`: value is 900000 characters long; at most 50 are allowed"])
    }

    // MARK: JSON lines (1 MiB) and JSON nesting (64)

    /// A profile line of exactly `length` bytes (padded in an unknown top-level field).
    private func paddedLine(_ length: Int) -> String {
        let head = "{\"id\":\"u1\",\"custom_attributes\":{\"x\":\"a\"},\"pad\":\""
        return head + String(repeating: "p", count: length - head.utf8.count - 2) + "\"}"
    }

    func testJSONLineAtTheLimitResolvesAndOnePastIsRejected() {
        let path = directory.write("simple.rules", rules("x == \"a\""))
        let limit = 1 << 20
        XCTAssertEqual(paddedLine(limit).utf8.count, limit)
        let atLimit = resolve(path, paddedLine(limit) + "\n" + paddedLine(limit) + "\r\n")
        XCTAssertEqual(atLimit.status, 0, atLimit.err)
        XCTAssertEqual(ids(atLimit), ["f1", "f1"])
        let past = resolve(path, profile(x: "b") + paddedLine(limit + 1) + "\n" + profile(x: "a"))
        XCTAssertEqual(past.status, 2)
        XCTAssertEqual(ids(past), ["f0", "f1"])
        XCTAssertEqual(past.errLines, ["\(directory.file("profiles.jsonl")):2: error: line is longer than 1 MiB"])
    }

    func testJSONNestingAtTheLimitResolvesAndOnePastIsRejected() {
        let path = directory.write("simple.rules", rules("x == \"a\""))
        // The profile object is level 1; `pad` holds `depth - 1` nested arrays. The prefix is 47 columns.
        func nested(_ depth: Int) -> String {
            "{\"id\":\"u1\",\"custom_attributes\":{\"x\":\"a\"},\"pad\":" + String(repeating: "[", count: depth - 1)
                + String(repeating: "]", count: depth - 1) + "}\n"
        }
        let atLimit = resolve(path, nested(64))
        XCTAssertEqual(atLimit.status, 0, atLimit.err)
        XCTAssertEqual(ids(atLimit), ["f1"])
        for depth in [65, 100_000] {
            let past = resolve(path, nested(depth) + profile(x: "a"))
            XCTAssertEqual(past.status, 2)
            XCTAssertEqual(ids(past), ["f1"])
            XCTAssertEqual(past.errLines, ["\(directory.file("profiles.jsonl")):1: error: invalid JSON at column 111: nesting deeper than 64 levels"])
        }
        let single = directory.write("profile.json", nested(65))
        let one = CLIHarness.run(["resolve", "p", "--rules", path, "--profile", single, "--now", now])
        XCTAssertEqual(one.status, 2)
        XCTAssertEqual(one.errLines, ["\(single): error: invalid JSON at column 111: nesting deeper than 64 levels"])
    }
}
