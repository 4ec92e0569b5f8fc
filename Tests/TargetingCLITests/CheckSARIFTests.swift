import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase
@testable import TargetingCLI

/// `targeting check --format sarif`: one SARIF 2.1.0 log on stdout.
final class CheckSARIFTests: TemporaryDirectoryTestCase {

    /// An undeclared attribute (a warning) after a non-ASCII string on its line, and an
    /// unknown segment (an error).
    private let marked = MarkedSource("""
    attribute experience: string
    segment pros = experience == "prö" or 1️⃣level == "x"
    audience a = pros and 2️⃣prso
    placement p {
      a -> flow "f"
      everyone -> flow "g"
    }

    """)

    private func log(_ result: CLIResult, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        XCTAssertEqual(result.outLines.count, 1, result.out, file: file, line: line)
        guard case .success(let value) = JSONParser.parse(Array(result.out.utf8)) else {
            XCTFail("not JSON: \(result.out)", file: file, line: line)
            return nil
        }
        return value
    }

    func testErrorAndWarningWithRulesLevelsAndRegions() throws {
        let path = directory.write("bad.rules", marked.text)
        let result = CLIHarness.run(["check", path, "--format", "sarif"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.err, "")
        let log = try XCTUnwrap(self.log(result))
        XCTAssertEqual(log["$schema"], .string("https://json.schemastore.org/sarif-2.1.0.json"))
        XCTAssertEqual(log["version"], .string("2.1.0"))
        let runs = try XCTUnwrap(log["runs"]?.arrayValue)
        XCTAssertEqual(runs.count, 1)
        let run = runs[0]
        XCTAssertEqual(run["columnKind"], .string("unicodeCodePoints"))
        let driver = try XCTUnwrap(run["tool"]?["driver"])
        XCTAssertEqual(driver["name"], .string("targeting"))
        let rules = try XCTUnwrap(driver["rules"]?.arrayValue)
        XCTAssertEqual(rules.map { $0["id"] }, [.string("undeclared-attribute"), .string("unknown-segment")])
        XCTAssertEqual(rules[1]["shortDescription"]?["text"], .string("unknown segment"))

        let results = try XCTUnwrap(run["results"]?.arrayValue)
        XCTAssertEqual(results.count, 2, result.out)
        let warning = results[0], error = results[1]
        XCTAssertEqual(warning["ruleId"], .string("undeclared-attribute"))
        XCTAssertEqual(warning["ruleIndex"], .number(0))
        XCTAssertEqual(warning["level"], .string("warning"))
        XCTAssertEqual(error["ruleId"], .string("unknown-segment"))
        XCTAssertEqual(error["ruleIndex"], .number(1))
        XCTAssertEqual(error["level"], .string("error"))
        XCTAssertEqual(error["message"]?["text"], .string("unknown segment `prso` — did you mean `pros`?"))

        for (item, marker, width) in [(warning, "1️⃣", "level".count), (error, "2️⃣", "prso".count)] {
            let physical = try XCTUnwrap(item["locations"]?.arrayValue?.first?["physicalLocation"])
            // An absolute path is a file URI, without a base.
            XCTAssertEqual(physical["artifactLocation"]?["uri"], .string("file://" + path))
            XCTAssertNil(physical["artifactLocation"]?["uriBaseId"])
            let position = marked.position(marker)
            let region = try XCTUnwrap(physical["region"])
            XCTAssertEqual(region["startLine"], .number(Double(position.line)), marker)
            XCTAssertEqual(region["startColumn"], .number(Double(position.column)), marker)
            XCTAssertEqual(region["endLine"], .number(Double(position.line)), marker)
            XCTAssertEqual(region["endColumn"], .number(Double(position.column + width)), marker)
        }
    }

    func testStrictCountsWarningsWithoutChangingTheLog() throws {
        let path = directory.write("warn.rules", """
        segment pros = experience == "pro"
        audience a = pros
        placement p {
          a -> flow "f"
          everyone -> flow "g"
        }

        """)
        let plain = CLIHarness.run(["check", path, "--format", "sarif"])
        let strict = CLIHarness.run(["check", path, "--format", "sarif", "--strict"])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertEqual(strict.status, 1, strict.err)
        XCTAssertEqual(plain.out, strict.out)
        XCTAssertEqual(strict.err, "")
        let results = try XCTUnwrap(log(plain)?["runs"]?.arrayValue?.first?["results"]?.arrayValue)
        XCTAssertEqual(results.map { $0["level"] }, [.string("warning")])
    }

    func testCleanRulesGiveEmptyResults() throws {
        let result = CLIHarness.run(["check", CLIHarness.rulesPath, "--format", "sarif"])
        XCTAssertEqual(result.status, 0, result.err)
        let run = try XCTUnwrap(log(result)?["runs"]?.arrayValue?.first)
        XCTAssertEqual(run["results"], .array([]))
        XCTAssertEqual(run["tool"]?["driver"]?["rules"], .array([]))
    }

    func testUnreadablePathExitsTwoWithoutALog() {
        let result = CLIHarness.run(["check", directory.file("missing.rules"), "--format", "sarif"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.out, "")
        XCTAssertTrue(result.err.contains("error:"), result.err)
    }

    func testUnknownFormatNamesSarif() {
        let result = CLIHarness.run(["check", CLIHarness.rulesPath, "--format", "xml"])
        XCTAssertEqual(result.errLines.first, "error: invalid format `xml`; use `text`, `json` or `sarif`")
        XCTAssertTrue(CLIHarness.run(["check", "--help"]).out.contains("Output format: text, json or sarif"))
    }

    func testRelativePathsKeepTheirBaseAndPlacesWithoutASpan() {
        XCTAssertEqual(SARIFReport.artifactLocation("Rules/main.rules"), .object([
            JSONMember(key: "uri", value: .string("Rules/main.rules")),
            JSONMember(key: "uriBaseId", value: .string("%SRCROOT%")),
        ]))
        XCTAssertEqual(URIPath.encoded("my rules/a:b%.rules"), "my%20rules/a%3Ab%25.rules")
        XCTAssertEqual(URIPath.encoded("règles/ä.rules"), "r%C3%A8gles/%C3%A4.rules")

        let line = Diagnostic(.warning, .badRecord, "bad", at: .line(4, of: "p.jsonl"), place: .line)
        XCTAssertEqual(SARIFReport.location(line)?["physicalLocation"]?["region"], .object([JSONMember(key: "startLine", value: .number(4))]))
        let whole = Diagnostic(.error, .fileTooLarge, "big", at: .unknown("a.rules"), place: .file)
        XCTAssertNotNil(SARIFReport.location(whole)?["physicalLocation"]?["artifactLocation"])
        XCTAssertNil(SARIFReport.location(whole)?["physicalLocation"]?["region"])
        let none = Diagnostic(.error, .usage, "no", at: .unknown(""), place: .none)
        XCTAssertNil(SARIFReport.location(none))
        XCTAssertNil(SARIFReport.result(none, ruleIndex: 0)["locations"])
    }

    func testALiteralFixIsAProposedReplacement() throws {
        let fixMarked = MarkedSource("""
        attribute goal_date: date
        segment s = goal_date < 1️⃣"2008-12-01"2️⃣
        audience a = s
        placement p {
          a -> flow "f"
          everyone -> flow "g"
        }

        """)
        let path = directory.write("fix.rules", fixMarked.text)
        let result = CLIHarness.run(["check", path, "--format", "sarif"])
        XCTAssertEqual(result.status, 1, result.err)
        let log = try XCTUnwrap(self.log(result))
        let item = try XCTUnwrap(log["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first)
        XCTAssertEqual(item["ruleId"], .string("type-mismatch"))
        let fix = try XCTUnwrap(item["fixes"]?.arrayValue?.first)
        XCTAssertEqual(fix["description"]?["text"], .string("write `2008-12-01` without quotes"))
        let change = try XCTUnwrap(fix["artifactChanges"]?.arrayValue?.first)
        XCTAssertEqual(change["artifactLocation"]?["uri"], .string("file://" + path))
        let replacement = try XCTUnwrap(change["replacements"]?.arrayValue?.first)
        let start = fixMarked.position("1️⃣"), end = fixMarked.position("2️⃣")
        XCTAssertEqual(replacement["deletedRegion"], .object([
            JSONMember(key: "startLine", value: .number(Double(start.line))), JSONMember(key: "startColumn", value: .number(Double(start.column))),
            JSONMember(key: "endLine", value: .number(Double(end.line))), JSONMember(key: "endColumn", value: .number(Double(end.column))),
        ]))
        XCTAssertEqual(replacement["insertedContent"]?["text"], .string("2008-12-01"))
    }
}
