import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TargetingTestSupport
import XCTest
@testable import TargetingCLI

/// `targeting test --format junit`: one JUnit XML document on stdout.
final class TestJUnitTests: TemporaryDirectoryTestCase {

    private let rules = """
    attribute experience: string one of ["beginner", "pro"]
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    audience pro_adults = pros and adults
    placement onboarding_followup {
      pro_adults -> flow "flow_pro_v2"
      everyone   -> flow "flow_default"
    }

    """

    private let passing = """
    test "pro adults see the pro flow" {
      now 2026-11-29T12:00:00Z
      given {
        profile.birthday = 1990-06-15
        experience = "pro"
      }
      expect onboarding_followup -> flow "flow_pro_v2"
    }

    """

    /// A failing test whose name needs escaping, and a test that cannot run.
    private let failingAndErroring = """
    test "teens <&\\"> the pro flow" {
      now 2026-11-29T12:00:00Z
      given {
        profile.birthday = 2010-01-01
        experience = "pro"
      }
      expect onboarding_followup -> flow "flow_pro_v2"
    }

    test "a missing events file" {
      now 2026-11-29T12:00:00Z
      given events "missing.jsonl"
      expect onboarding_followup -> flow "flow_default"
    }

    """

    private func project(_ tests: [String: String]) -> String {
        let rulesPath = directory.write("Rules/main.rules", rules)
        for (name, text) in tests { directory.write("Rules/" + name, text) }
        return (rulesPath as NSString).deletingLastPathComponent
    }

    /// The document parsed by Foundation's XML parser (which rejects a malformed one).
    private func parse(_ xml: String, file: StaticString = #filePath, line: UInt = #line) throws -> XMLElement {
        XCTAssertTrue(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"), xml, file: file, line: line)
        let document = try XMLDocument(xmlString: xml, options: [])
        return try XCTUnwrap(document.rootElement(), file: file, line: line)
    }

    private func attribute(_ element: XMLElement?, _ name: String) -> String? {
        element?.attribute(forName: name)?.stringValue
    }

    func testPassingTests() throws {
        let rulesDir = project(["a.tests": passing])
        let result = CLIHarness.run(["test", "--rules", rulesDir, "--format", "junit"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.out, """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="targeting" tests="1" failures="0" errors="0">
          <testsuite name="\(rulesDir)/a.tests" tests="1" failures="0" errors="0" skipped="0">
            <testcase name="pro adults see the pro flow" classname="\(rulesDir)/a.tests" file="\(rulesDir)/a.tests" line="1"/>
          </testsuite>
        </testsuites>

        """)
    }

    func testFailingAndErroringTestsAreEscaped() throws {
        let rulesDir = project(["a.tests": passing, "b.tests": failingAndErroring])
        let result = CLIHarness.run(["test", "--rules", rulesDir, "--format", "junit"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.out.contains(#"<testcase name="teens &lt;&amp;&quot;&gt; the pro flow""#), result.out)

        let root = try parse(result.out)
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(attribute(root, "name"), "targeting")
        XCTAssertEqual([attribute(root, "tests"), attribute(root, "failures"), attribute(root, "errors")], ["3", "1", "1"])
        let suites = root.elements(forName: "testsuite")
        XCTAssertEqual(suites.map { attribute($0, "name") }, ["\(rulesDir)/a.tests", "\(rulesDir)/b.tests"])
        let suite = suites[1]
        XCTAssertEqual([attribute(suite, "tests"), attribute(suite, "failures"), attribute(suite, "errors"), attribute(suite, "skipped")],
                       ["2", "1", "1", "0"])
        let cases = suite.elements(forName: "testcase")
        XCTAssertEqual(cases.map { attribute($0, "name") }, ["teens <&\"> the pro flow", "a missing events file"])
        XCTAssertEqual(cases.map { attribute($0, "classname") }, ["\(rulesDir)/b.tests", "\(rulesDir)/b.tests"])
        XCTAssertEqual(cases.map { attribute($0, "line") }, ["1", "10"])

        let failure = try XCTUnwrap(cases[0].elements(forName: "failure").first)
        XCTAssertEqual(attribute(failure, "message"), "expected onboarding_followup -> flow \"flow_pro_v2\", got flow \"flow_default\" (audience `everyone`)")
        // The text under FAIL in the text report.
        XCTAssertEqual(failure.stringValue,
                       "  \(rulesDir)/b.tests:7:3: expected onboarding_followup -> flow \"flow_pro_v2\", got flow \"flow_default\" (audience `everyone`)\n")
        XCTAssertTrue(cases[0].elements(forName: "error").isEmpty)

        let error = try XCTUnwrap(cases[1].elements(forName: "error").first)
        XCTAssertTrue(attribute(error, "message")?.contains("missing.jsonl") == true, attribute(error, "message") ?? "")
        XCTAssertTrue(error.stringValue?.contains("\(rulesDir)/b.tests:12:") == true, error.stringValue ?? "")
    }

    func testCoverageIsInPropertiesAndMinCoverageStillFails() throws {
        let rulesDir = project(["a.tests": passing])
        let result = CLIHarness.run(["test", "--rules", rulesDir, "--format", "junit", "--min-coverage", "100"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.contains("error: coverage is below --min-coverage 100%"), result.err)
        let root = try parse(result.out)
        let properties = try XCTUnwrap(root.elements(forName: "properties").first).elements(forName: "property")
        let pairs = properties.map { (attribute($0, "name") ?? "", attribute($0, "value") ?? "") }
        XCTAssertEqual(pairs.map(\.0), ["coverage", "coverage.rows", "coverage.segments", "coverage.variants", "min-coverage", "below-min-coverage"])
        XCTAssertEqual(pairs[1].1, "1 of 2 (50.0%)")
        XCTAssertEqual(pairs[4].1, "100%")
        XCTAssertTrue(pairs[5].1.contains("rows"), pairs[5].1)
        XCTAssertEqual(root.elements(forName: "testsuite").count, 1)
    }

    func testNoTestsRunGivesAnEmptyDocumentAndFails() throws {
        let rulesDir = project(["a.tests": passing])
        let result = CLIHarness.run(["test", "--rules", rulesDir, "--format", "junit", "--run", "nothing matches"])
        XCTAssertEqual(result.status, 1)
        let root = try parse(result.out)
        XCTAssertEqual(attribute(root, "tests"), "0")
        XCTAssertEqual(root.elements(forName: "testsuite").map { attribute($0, "tests") }, ["0"])
    }

    func testUnknownFormatNamesJUnit() {
        let result = CLIHarness.run(["test", "--format", "xml"])
        XCTAssertEqual(result.errLines.first, "error: invalid format `xml`; use `text`, `json` or `junit`")
        XCTAssertTrue(CLIHarness.run(["test", "--help"]).out.contains("Output format: text, json or junit"))
    }

    func testEscapingCoversXMLSpecialsAndControlCharacters() {
        XCTAssertEqual(JUnitReport.escape("a<b>&\"c'", attribute: true), "a&lt;b&gt;&amp;&quot;c&apos;")
        XCTAssertEqual(JUnitReport.escape("x\u{1}y\u{1B}z\u{FFFF}", attribute: false), "x\u{FFFD}y\u{FFFD}z\u{FFFD}")
        XCTAssertEqual(JUnitReport.escape("a\tb\nc\rd", attribute: true), "a&#9;b&#10;c&#13;d")
        XCTAssertEqual(JUnitReport.escape("a\tb\nc\rd", attribute: false), "a\tb\nc&#13;d")
        XCTAssertEqual(JUnitReport.escape("é🙂", attribute: false), "é🙂")
    }
}
