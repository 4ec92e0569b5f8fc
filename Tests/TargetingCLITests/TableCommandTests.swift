import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase

/// `targeting table PLACEMENT`: the text, JSON and Markdown forms on the shipped rules.
final class TableCommandTests: TemporaryDirectoryTestCase {
    private let now = "2026-11-29T12:00:00Z"

    func testTextOfTheShippedFollowUp() {
        let result = CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--now", now])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.first, "placement onboarding_followup at \(now): 12 combinations in 5 rows")
        XCTAssertEqual(result.outLines.dropFirst().first, "experience  reminders        -> destinations")
        // Held-out adult pros see the default too.
        XCTAssertTrue(result.outLines.contains(#"pro         any              -> flow "flow_pro_v2" | flow "flow_default"  (depends on `profile.age >= 18`, holdout `q4_holdout`)"#), result.out)
        // The holdout (on customer_user_id) sends held-out quiz skippers to the default.
        XCTAssertTrue(result.outLines.contains(#"not set     any              -> flow "flow_quiz_reminder" | flow "flow_default"  (depends on holdout `q4_holdout`)"#), result.out)
    }

    func testASetIsDescribedByWhatItsSubsetsHold() {
        let result = CLIHarness.run(["table", "onboarding_followup", "--by", "interests", "--rules", CLIHarness.rulesPath, "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.first, "placement onboarding_followup at 2026-11-29T12:00:00Z: 17 combinations in 2 rows")
        XCTAssertEqual(result.outLines.dropFirst(2).map { String($0.prefix(27)) }, [#"has no "sports" | not set  "#, #"has "sports"               "#])
        let markdown = CLIHarness.run(["table", "onboarding_followup", "--by", "interests", "--rules", CLIHarness.rulesPath,
                                       "--now", "2026-11-29T12:00:00Z", "--format", "markdown"])
        XCTAssertTrue(markdown.outLines.contains { $0.hasPrefix("| has no `sports`; not set | ") }, markdown.out)
        // JSON lists every subset, as before.
        let json = CLIHarness.run(["table", "onboarding_followup", "--by", "interests", "--rules", CLIHarness.rulesPath,
                                   "--now", "2026-11-29T12:00:00Z", "--format", "json"])
        XCTAssertTrue(json.out.contains(#"{"interests":[[],["music"],"#), json.out)
    }

    func testJSONShape() throws {
        let result = CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--now", now, "--by", "experience", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try XCTUnwrap(try? JSONParser.parse(Array(result.out.utf8)).get())
        XCTAssertEqual(json.objectMembers?.map(\.key), ["placement", "now", "by", "rows"])
        XCTAssertEqual(json["by"], .array([.string("experience")]))
        let rows = try XCTUnwrap(json["rows"]?.arrayValue)
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows.map { $0.objectMembers?.map(\.key) ?? [] }, Array(repeating: ["when", "destinations", "depends_on"], count: 4))
        let unset = try XCTUnwrap(rows.first { $0["when"]?["experience"] == .array([.null]) })
        XCTAssertEqual(unset["destinations"], .array([
            .object([JSONMember(key: "kind", value: .string("flow")), JSONMember(key: "id", value: .string("flow_quiz_reminder"))]),
            .object([JSONMember(key: "kind", value: .string("flow")), JSONMember(key: "id", value: .string("flow_default"))]),
        ]))
        XCTAssertEqual(unset["depends_on"], .array([.string("holdout `q4_holdout`")]))
    }

    func testMarkdownAndErrors() {
        let markdown = CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--now", now, "--format", "markdown"])
        XCTAssertEqual(markdown.status, 0, markdown.err)
        XCTAssertEqual(markdown.outLines.prefix(2), ["| `experience` | `reminders` | destinations | depends on |", "|---|---|---|---|"])
        XCTAssertTrue(markdown.outLines.contains(#"| `pro` | any | `flow "flow_pro_v2"`, `flow "flow_default"` | `profile.age >= 18`, holdout `q4_holdout` |"#), markdown.out)
        let unknown = CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--now", now, "--by", "weekly_hours"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.err, "error: `weekly_hours` is a number; --by takes `one of` strings, `bool` and `set of` attributes\n")
        let unread = CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--now", now, "--by", "profile.platform"])
        XCTAssertEqual(unread.status, 2)
        XCTAssertEqual(unread.err, "error: the placement does not read `profile.platform`\n")
        let many = CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--now", now, "--by", Array(repeating: "experience", count: 7).joined(separator: ",")])
        XCTAssertEqual(many.status, 2)
        XCTAssertEqual(many.err, "error: --by gives 16384 combinations; a table holds at most 4096: name fewer attributes with --by\n")
        XCTAssertEqual(CLIHarness.run(["table", "onboarding_followup", "--rules", CLIHarness.rulesPath, "--format", "html"]).status, 64)
        XCTAssertEqual(CLIHarness.run(["table", "nope", "--rules", CLIHarness.rulesPath, "--now", now]).status, 2)
    }

    func testAnExperimentRowDependsOnTheKeyAndTheExperiment() {
        let path = directory.write("e.rules", """
        attribute tier: string one of ["gold", "silver"]
        segment tiered = tier is set
        audience t = tiered
        experiment e by profile.customer_user_id {
          50% a
          50% b
        }
        placement p {
          t -> e {
            a -> flow "fa"
            b -> flow "fb"
          }
          everyone -> flow "d"
        }

        """)
        let result = CLIHarness.run(["table", "p", "--rules", path, "--now", now])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.outLines.contains(#"gold | silver  -> flow "fa" | flow "fb" | flow "d"  (depends on key `profile.customer_user_id`, experiment `e`)"#), result.out)
        XCTAssertTrue(result.outLines.contains(#"not set        -> flow "d""#), result.out)
    }
}
