import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase

/// `targeting diff OLD NEW --prove`: verdicts, witnesses `resolve` confirms, exit statuses.
final class DiffProveCommandTests: TemporaryDirectoryTestCase {
    private let oldRules = """
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    audience pro_adults = pros and adults
    placement followup {
      pro_adults -> flow "flow_pro"
      everyone -> flow "flow_default"
    }
    placement same {
      pro_adults -> paywall "pw_pro"
    }
    placement retired {
      pro_adults -> paywall "pw_old"
    }

    """

    private let newRules = """
    segment pro_users = experience == "pro"
    segment grown_ups = profile.age >= 21
    segment adults = profile.age >= 18
    audience pro_adults = pro_users and grown_ups
    audience renamed = pro_users and adults
    placement followup {
      pro_adults -> flow "flow_pro"
      everyone -> flow "flow_default"
    }
    placement same {
      renamed -> paywall "pw_pro"
    }
    placement fresh {
      pro_adults -> paywall "pw_new"
    }

    """

    private let now = "2026-11-30T12:00:00Z"

    func testJSONVerdictsAndWitnessesThatResolveAsReported() throws {
        let old = directory.write("old.rules", oldRules), new = directory.write("new.rules", newRules)
        let result = CLIHarness.run(["diff", old, new, "--prove", "--now", now, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try XCTUnwrap(try? JSONParser.parse(Array(result.out.utf8)).get())
        XCTAssertEqual(json.objectMembers?.map(\.key), ["now", "placements"])
        XCTAssertEqual(json["now"], .string(now))
        let placements = try XCTUnwrap(json["placements"]?.arrayValue)
        XCTAssertEqual(placements.map { $0["placement"]?.stringValue ?? "" }, ["followup", "same", "retired", "fresh"])
        XCTAssertEqual(placements.map { $0["status"]?.stringValue ?? "" }, ["changed", "equivalent", "removed", "added"])
        XCTAssertEqual(placements.map { $0.objectMembers?.map(\.key) ?? [] }, Array(repeating: ["placement", "status", "transitions"], count: 4))
        let moves = try XCTUnwrap(placements[0]["transitions"]?.arrayValue)
        XCTAssertEqual(moves.count, 1)
        XCTAssertEqual(moves[0]["from"], .object([JSONMember(key: "kind", value: .string("flow")), JSONMember(key: "id", value: .string("flow_pro"))]))
        XCTAssertEqual(moves[0]["to"], .object([JSONMember(key: "kind", value: .string("flow")), JSONMember(key: "id", value: .string("flow_default"))]))
        let witness = JSONWriter.write(try XCTUnwrap(moves[0]["witness"]))
        let before = CLIHarness.run(["resolve", "followup", "--rules", old, "--profile", "-", "--now", now], stdin: witness)
        let after = CLIHarness.run(["resolve", "followup", "--rules", new, "--profile", "-", "--now", now], stdin: witness)
        XCTAssertTrue(before.out.contains(#"flow "flow_pro""#), before.out + before.err)
        XCTAssertTrue(after.out.contains(#"flow "flow_default""#), after.out + after.err)
    }

    func testTextAndFailOnChange() {
        let old = directory.write("old.rules", oldRules), new = directory.write("new.rules", newRules)
        let result = CLIHarness.run(["diff", old, new, "--prove", "--now", now, "--fail-on-change"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.outLines.first, "diff --prove at \(now)")
        XCTAssertTrue(result.outLines.contains("followup: changed (1 kind of move)"), result.out)
        XCTAssertTrue(result.outLines.contains { $0.hasPrefix(#"  flow "flow_pro" -> flow "flow_default": {"id":"witness","#) }, result.out)
        XCTAssertTrue(result.outLines.contains("same: equivalent"), result.out)
        XCTAssertTrue(result.outLines.contains("retired: removed"), result.out)
        XCTAssertTrue(result.outLines.contains("fresh: added"), result.out)
        // Only the equivalent placement: exit 0 even with --fail-on-change.
        let same = CLIHarness.run(["diff", old, new, "--prove", "--now", now, "--fail-on-change", "--placement", "same"])
        XCTAssertEqual(same.status, 0, same.err)
        XCTAssertEqual(same.outLines, ["diff --prove at \(now)", "same: equivalent"])
    }

    func testAChangeThatCreatesPartialExposureSaysSo() throws {
        let copy = directory.url.appendingPathComponent("new").path
        try FileManager.default.copyItem(atPath: CLIHarness.rulesPath, toPath: copy)
        let placements = copy + "/placements.rules"
        let text = try String(contentsOfFile: placements, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "  pricing_test_amateurs -> pricing_q4 {", with: "  committed_amateurs    -> pricing_q4 {")
        XCTAssertNotEqual(edited, text, "the shipped onboarding_followup changed: update this edit")
        try edited.write(toFile: placements, atomically: true, encoding: .utf8)
        let created = CLIHarness.run(["diff", CLIHarness.rulesPath, copy, "--prove", "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(created.status, 0, created.err)
        XCTAssertTrue(created.outLines.contains { $0.hasPrefix("partial exposure created: some profiles enter `pricing_q4` in `onboarding_followup` while the earlier row `premium_members` of `main_paywall` decides for them: {") }, created.out)
        let removed = CLIHarness.run(["diff", copy, CLIHarness.rulesPath, "--prove", "--now", "2026-11-29T12:00:00Z", "--format", "json"])
        let exposure = CLIHarness.member(removed.out, "partial_exposure")
        XCTAssertEqual(exposure?["created"], .array([]))
        XCTAssertEqual(exposure?["removed"]?.arrayValue?.first?["earlier_row"], .string("premium_members"))
        // Without a change of exposure the JSON has no such key.
        let same = CLIHarness.run(["diff", CLIHarness.rulesPath, CLIHarness.rulesPath, "--prove", "--now", "2026-11-29T12:00:00Z", "--format", "json"])
        XCTAssertNil(CLIHarness.member(same.out, "partial_exposure"))
    }

    func testTheShippedRulesAgainstThemselvesAndAOneRowChange() throws {
        let copy = directory.url.appendingPathComponent("new").path
        try FileManager.default.copyItem(atPath: CLIHarness.rulesPath, toPath: copy)
        let same = CLIHarness.run(["diff", CLIHarness.rulesPath, copy, "--prove", "--now", "2026-11-29T12:00:00Z", "--fail-on-change"])
        XCTAssertEqual(same.status, 0, same.err)
        XCTAssertEqual(same.outLines.dropFirst(), ["onboarding_followup: equivalent", "main_paywall: equivalent", "coaching_paywall: equivalent"])
        let placements = copy + "/placements.rules"
        let text = try String(contentsOfFile: placements, encoding: .utf8)
        // Only `main_paywall`'s row: the one followed by `outdated_app`.
        let edited = text.replacingOccurrences(of: "always premium_members   -> nothing\n  always team_members      -> nothing\n  outdated_app",
                                               with: "always premium_members   -> paywall \"pw_standard\"\n  always team_members      -> nothing\n  outdated_app")
        XCTAssertNotEqual(edited, text, "the shipped main_paywall changed: update this edit")
        try edited.write(toFile: placements, atomically: true, encoding: .utf8)
        let changed = CLIHarness.run(["diff", CLIHarness.rulesPath, copy, "--prove", "--now", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(changed.status, 0, changed.err)
        XCTAssertTrue(changed.outLines.contains("main_paywall: changed (2 kinds of move)"), changed.out)
        XCTAssertTrue(changed.outLines.contains { $0.hasPrefix(#"  nothing (held out by q4_holdout) -> paywall "pw_standard" (held out by q4_holdout): "#) }, changed.out)
        XCTAssertTrue(changed.outLines.contains { $0.hasPrefix(#"  nothing -> paywall "pw_standard": "#) }, changed.out)
    }

    func testUsageErrors() {
        let old = directory.write("old.rules", oldRules), new = directory.write("new.rules", newRules)
        let corpus = directory.write("p.jsonl", "{\"id\":\"u\"}\n")
        for extra in [["--profiles", corpus], ["--sql", "postgres"], ["--by", "row"], ["--examples", "2"]] {
            let result = CLIHarness.run(["diff", old, new, "--prove", "--now", now] + extra)
            XCTAssertEqual(result.status, 64, "\(extra): \(result.err)")
        }
        let missing = CLIHarness.run(["diff", old, new, "--now", now])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.err.contains("--prove"), missing.err)
        let broken = directory.write("broken.rules", "audience a = nope\n")
        XCTAssertEqual(CLIHarness.run(["diff", old, broken, "--prove", "--now", now]).status, 2)
    }

    private let experimentRules = """
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }
    placement onboarding {
      new_users -> pricing_q4 {
        control -> flow "flow_a"
        discount -> flow "flow_discount"
      }
      everyone -> flow "flow_default"
    }

    """

    func testAnAddedHoldoutNamesVariantsAndTheHoldoutAndResolvesAsReported() throws {
        let old = directory.write("old.rules", experimentRules), new = directory.write("new.rules", experimentRules + "holdout q4_holdout 5%\n")
        let text = CLIHarness.run(["diff", old, new, "--prove", "--now", now])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.outLines.contains("onboarding: changed (3 kinds of move)"), text.out)
        XCTAssertTrue(text.outLines.contains { $0.hasPrefix(#"  flow "flow_a" (experiment pricing_q4: control) -> flow "flow_default" (held out by q4_holdout): {"id":"#) }, text.out)
        XCTAssertTrue(text.outLines.contains { $0.hasPrefix(#"  flow "flow_default" -> flow "flow_default" (held out by q4_holdout): {"id":"#) }, text.out)

        let result = CLIHarness.run(["diff", old, new, "--prove", "--now", now, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try XCTUnwrap(try? JSONParser.parse(Array(result.out.utf8)).get())
        let moves = try XCTUnwrap(json["placements"]?.arrayValue?.first?["transitions"]?.arrayValue)
        XCTAssertEqual(moves.count, 3)
        XCTAssertEqual(moves[0].objectMembers?.map(\.key), ["from", "to", "from_experiment", "from_variant", "from_held_out",
                                                            "to_experiment", "to_variant", "to_held_out", "witness"])
        XCTAssertEqual(moves[0]["from_experiment"], .string("pricing_q4"))
        XCTAssertEqual(moves[0]["from_variant"], .string("control"))
        XCTAssertEqual(moves[0]["from_held_out"], .bool(false))
        XCTAssertEqual(moves[0]["to_experiment"], .null)
        XCTAssertEqual(moves[0]["to_held_out"], .bool(true))
        // `resolve` shows each witness what the move says.
        for move in moves {
            let witness = JSONWriter.write(try XCTUnwrap(move["witness"]))
            let before = CLIHarness.run(["resolve", "onboarding", "--rules", old, "--profile", "-", "--now", now, "--format", "json"], stdin: witness)
            let after = CLIHarness.run(["resolve", "onboarding", "--rules", new, "--profile", "-", "--now", now, "--format", "json"], stdin: witness)
            let from = try XCTUnwrap(try? JSONParser.parse(Array(before.out.utf8)).get(), before.err)
            let to = try XCTUnwrap(try? JSONParser.parse(Array(after.out.utf8)).get(), after.err)
            for (decision, side) in [(from, "from"), (to, "to")] {
                XCTAssertEqual(decision["kind"], move[side]?["kind"], witness)
                XCTAssertEqual(decision["id"], move[side]?["id"], witness)
                XCTAssertEqual(decision["experiment"], move[side + "_experiment"], witness)
                XCTAssertEqual(decision["variant"], move[side + "_variant"], witness)
                XCTAssertEqual(decision["held_out"], move[side + "_held_out"], witness)
            }
        }
    }

    func testRulesWithoutExperimentsKeepTheirJSONShape() throws {
        let old = directory.write("old.rules", oldRules), new = directory.write("new.rules", newRules)
        let result = CLIHarness.run(["diff", old, new, "--prove", "--now", now, "--format", "json", "--placement", "followup"])
        let json = try XCTUnwrap(try? JSONParser.parse(Array(result.out.utf8)).get())
        let moves = try XCTUnwrap(json["placements"]?.arrayValue?.first?["transitions"]?.arrayValue)
        XCTAssertEqual(moves.first?.objectMembers?.map(\.key), ["from", "to", "witness"])
    }
}
