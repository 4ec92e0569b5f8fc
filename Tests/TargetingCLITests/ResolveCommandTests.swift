import Foundation
import TargetingTestSupport
import XCTest

/// `targeting resolve` (splits, the command line, the edge cases "Profiles and batches") over the shipped rules.
final class ResolveCommandTests: TemporaryDirectoryTestCase {
    private let now = "2026-11-29T12:00:00Z"

    private func resolve(_ arguments: [String], stdin: String = "") -> CLIResult {
        CLIHarness.run(["resolve", "--rules", CLIHarness.rulesPath, "--now", now] + arguments, stdin: stdin)
    }

    /// A `resolve --format json` line as the command line, experiments and the holdout write it (the shipped rules have an
    /// experiment and a holdout, so the line carries `experiment`, `variant` and `held_out`).
    private func row(_ profile: String?, _ placement: String, _ audience: String?, _ kind: String?, _ id: String?, split: String? = nil,
                     experiment: String? = nil, variant: String? = nil, heldOut: Bool = false) -> String {
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
        return "{\"profile_id\":\(quoted(profile)),\"placement\":\"\(placement)\",\"audience\":\(quoted(audience)),\"kind\":\(quoted(kind)),\"id\":\(quoted(id)),\"split\":\(quoted(split))"
            + ",\"experiment\":\(quoted(experiment)),\"variant\":\(quoted(variant)),\"held_out\":\(heldOut)}"
    }

    private func assertRows(_ result: CLIResult, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.outLines.map { CLIHarness.canonical($0, file: file, line: line) },
                       expected.map { CLIHarness.canonical($0, file: file, line: line) }, file: file, line: line)
        for output in result.outLines {
            XCTAssertEqual(CLIHarness.keys(output).map(Set.init), ["profile_id", "placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"],
                           "exactly the nine keys: \(output)", file: file, line: line)
        }
    }

    // MARK: Examples/profiles/all.jsonl at 2026-11-29T12:00:00Z
    //
    // Reasoning over Rules/*.rules:
    // - u_pro_adult: pro, 36 years old -> pro_adults. US, 4.3.1, installed 3 days ago -> new_us_modern.
    // - u_pro_teen: pro but 16 -> no row above everyone. US, 4.3.1, installed 2 days ago -> new_us_modern.
    // - u_amateur_committed: amateur, 11 weekly hours -> committed_amateurs. FR, 4.2.0, installed today -> new_eu_modern.
    // - u_amateur_reminders: amateur; weekly_hours "12" is a string (mistyped: false), reminders true is
    //   stored as 1 -> committed_amateurs. 4.2.0-beta.3 < 4.2.0 -> outdated_app.
    // - u_amateur_casual: amateur, 2 hours, no reminders -> casual_amateurs. v4.10 is modern, ES, but
    //   installed 59 days ago -> everyone.
    // - u_beginner_sport_1/2/3: beginners with sports -> the split. No installed_at -> not new -> everyone.
    // - u_beginner_music: beginner without sports -> other_beginners. GB -> everyone.
    // - u_skipped_quiz: no experience -> quiz_skippers. 4.1.9 -> outdated_app.
    // - u_premium: pro without a birthday (not an adult) -> everyone. access_levels has premium -> nothing.
    // - u_broken_values: "expert" is set but matches no segment -> everyone. "not a version" -> outdated_app.
    //
    // Split variants (sorted by weight: 10% nothing, 40% flow_sport_start_b, 50% flow_sport_start_a), with
    //   r = int.from_bytes(hashlib.md5(f"sporty_beginners_v1-{id}".encode()).digest()[8:], "big") % 100
    // computed with Python's hashlib: u_beginner_sport_1 -> 20, u_beginner_sport_2 -> 32,
    // u_beginner_sport_3 -> 40 (all in 10..<50: flow_sport_start_b); s1 -> 57 (flow_sport_start_a);
    // s3 -> 9, s12 -> 7 (nothing); s11 -> 40 (flow_sport_start_b); u_beginner_sport_7 -> 93
    // (flow_sport_start_a); u_beginner_sport_holdout -> 4 (nothing).

    private var expectedOnboarding: [String] {
        let p = "onboarding_followup"
        return [
            row("u_pro_adult", p, "pro_adults", "flow", "flow_pro_v2"),
            row("u_pro_teen", p, "everyone", "flow", "flow_default"),
            row("u_amateur_committed", p, "committed_amateurs", "flow", "flow_amateur_plan"),
            row("u_amateur_reminders", p, "committed_amateurs", "flow", "flow_amateur_plan"),
            row("u_amateur_casual", p, "casual_amateurs", "flow", "flow_amateur_casual"),
            row("u_beginner_sport_1", p, "sporty_beginners", "flow", "flow_sport_start_b", split: "sporty_beginners_v1"),
            row("u_beginner_sport_2", p, "sporty_beginners", "flow", "flow_sport_start_b", split: "sporty_beginners_v1"),
            row("u_beginner_sport_3", p, "sporty_beginners", "flow", "flow_sport_start_b", split: "sporty_beginners_v1"),
            row("u_beginner_sport_7", p, "sporty_beginners", "flow", "flow_sport_start_a", split: "sporty_beginners_v1"),
            row("u_beginner_sport_holdout", p, "sporty_beginners", nil, nil, split: "sporty_beginners_v1"),
            row("u_beginner_music", p, "other_beginners", "flow", "flow_beginner"),
            row("u_skipped_quiz", p, "quiz_skippers", "flow", "flow_quiz_reminder"),
            row("u_premium", p, "everyone", "flow", "flow_default"),
            row("u_broken_values", p, "everyone", "flow", "flow_default"),
        ]
    }

    private var expectedPaywall: [String] {
        let p = "main_paywall"
        return [
            row("u_pro_adult", p, "new_us_modern", "paywall", "pw_intro_us"),
            row("u_pro_teen", p, "new_us_modern", "paywall", "pw_intro_us"),
            row("u_amateur_committed", p, "new_eu_modern", "paywall", "pw_intro_eu"),
            row("u_amateur_reminders", p, "outdated_app", "paywall", "pw_update_first"),
            row("u_amateur_casual", p, "everyone", "paywall", "pw_standard"),
            row("u_beginner_sport_1", p, "everyone", "paywall", "pw_standard"),
            row("u_beginner_sport_2", p, "everyone", "paywall", "pw_standard"),
            row("u_beginner_sport_3", p, "everyone", "paywall", "pw_standard"),
            row("u_beginner_sport_7", p, "everyone", "paywall", "pw_standard"),
            row("u_beginner_sport_holdout", p, "everyone", "paywall", "pw_standard"),
            row("u_beginner_music", p, "everyone", "paywall", "pw_standard"),
            row("u_skipped_quiz", p, "outdated_app", "paywall", "pw_update_first"),
            row("u_premium", p, "premium_members", nil, nil),
            row("u_broken_values", p, "outdated_app", "paywall", "pw_update_first"),
        ]
    }

    /// Only the pro adult is sent to the pro flow, so only they see the coaching paywall
    /// (outside the coaching trial: no customer_user_id); the subscriber's row says nothing.
    private var expectedCoaching: [String] {
        let p = "coaching_paywall"
        return expectedPaywall.map { line -> String in
            let id = CLIHarness.member(line, "profile_id")?.stringValue
            switch id {
            case "u_pro_adult": return row(id, p, "coached_pros", "paywall", "pw_coaching_7d")
            case "u_premium": return row(id, p, "premium_members", nil, nil)
            default: return row(id, p, "everyone", nil, nil)
            }
        }
    }

    func testOnboardingFollowupForEveryExampleProfile() {
        let result = resolve(["onboarding_followup", "--profiles", CLIHarness.example("profiles/all.jsonl"), "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        assertRows(result, expectedOnboarding)
    }

    func testMainPaywallForEveryExampleProfile() {
        let result = resolve(["main_paywall", "--profiles", CLIHarness.example("profiles/all.jsonl"), "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        assertRows(result, expectedPaywall)
    }

    func testAllResolvesEveryPlacementPerProfile() {
        let result = resolve(["--all", "--profiles", CLIHarness.example("profiles/all.jsonl"), "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        var expected: [String] = []
        for ((onboarding, paywall), coaching) in zip(zip(expectedOnboarding, expectedPaywall), expectedCoaching) { expected += [onboarding, paywall, coaching] }
        assertRows(result, expected)
    }

    func testJSONLineHasTheDocumentedShape() {
        let result = resolve(["onboarding_followup", "--profile", CLIHarness.example("profiles/pro_adult.json"), "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, [row("u_pro_adult", "onboarding_followup", "pro_adults", "flow", "flow_pro_v2")])
    }

    func testSplitVariantsFollowAdaptysAlgorithm() {
        let lines = ["s1", "s3", "s11", "s12"].map { "{\"id\":\"\($0)\",\"custom_attributes\":{\"experience\":\"beginner\",\"interests\":\"sports\"}}" }
        let path = directory.write("split.jsonl", lines.joined(separator: "\n") + "\n")
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let p = "onboarding_followup", split = "sporty_beginners_v1"
        assertRows(result, [
            row("s1", p, "sporty_beginners", "flow", "flow_sport_start_a", split: split),
            row("s3", p, "sporty_beginners", nil, nil, split: split),
            row("s11", p, "sporty_beginners", "flow", "flow_sport_start_b", split: split),
            row("s12", p, "sporty_beginners", nil, nil, split: split),
        ])
    }

    // MARK: Batches with bad lines

    func testBadLinesAreReportedAndTheRestResolvedInOrder() {
        let thirtyOne = (1...31).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let lines = [
            #"{"id":"a","custom_attributes":{"experience":"pro"},"birthday":"1980-01-01"}"#,    // 1
            #"{"id":"broken","custom_attributes":{"experience":"pro"}"#,                         // 2 bad JSON
            #"{"id":"b","custom_attributes":{"experience":"beginner","interests":"music"}}"#,   // 3
            #"{"id":"dup","country":"US","country":"DE"}"#,                                      // 4 duplicate key
            #"{"id":"c"}"#,                                                                      // 5
            "{\"id\":\"many\",\"custom_attributes\":{\(thirtyOne)}}",                           // 6 31 attributes
            "{\"id\":\"long\",\"custom_attributes\":{\"bio\":\"\(String(repeating: "x", count: 51))\"}}",  // 7 51 characters
            #"{"id":"twin","custom_attributes":{"mood":"a"," mood ":"b"}}"#,                     // 8 equal after trimming
            #"{"id":"badkey","custom_attributes":{"no spaces":"x"}}"#,                           // 9 invalid key
            #"{"id":"d","custom_attributes":{"experience":"amateur","weekly_hours":10}}"#,       // 10
        ]
        let path = directory.write("batch.jsonl", lines.joined(separator: "\n") + "\n")
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 2)
        let p = "onboarding_followup"
        assertRows(result, [
            row("a", p, "pro_adults", "flow", "flow_pro_v2"),
            row("b", p, "other_beginners", "flow", "flow_beginner"),
            row("c", p, "quiz_skippers", "flow", "flow_quiz_reminder"),
            row("d", p, "committed_amateurs", "flow", "flow_amateur_plan"),
        ])
        for number in [2, 4, 6, 7, 8, 9] {
            XCTAssertTrue(result.err.contains("\(path):\(number):"), "line \(number) not reported: \(result.err)")
        }
        for number in [1, 3, 5, 10] {
            XCTAssertFalse(result.err.contains("\(path):\(number):"), "line \(number) wrongly reported: \(result.err)")
        }
        XCTAssertEqual(result.errLines.count, 6, result.err)
        XCTAssertTrue(result.err.contains("50"), result.err)
        XCTAssertTrue(result.err.contains("30"), result.err)
    }

    /// profiles: a rejected profile gets "a message that names the profile, the key and the rule".
    func testRejectedProfileMessageNamesTheProfileTheKeyAndTheRule() {
        let line = "{\"id\":\"wordy_user\",\"custom_attributes\":{\"bio\":\"\(String(repeating: "x", count: 51))\"}}"
        let path = directory.write("wordy.jsonl", line + "\n")
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.errLines.count, 1, result.err)
        let message = result.errLines.first ?? ""
        XCTAssertTrue(message.hasPrefix("\(path):1:"), message)
        XCTAssertTrue(message.contains("bio"), message)
        XCTAssertTrue(message.contains("50"), message)
        XCTAssertTrue(message.contains("wordy_user"), "the profile is not named: \(message)")
    }

    func testOverlongAndTooDeepLinesAreRejectedWithoutStoppingTheBatch() {
        let huge = "{\"id\":\"huge\",\"padding\":\"\(String(repeating: "z", count: 1024 * 1024))\"}"
        let deep = "{\"id\":\"deep\",\"x\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}"
        let path = directory.write("limits.jsonl", [#"{"id":"before"}"#, huge, deep, #"{"id":"after"}"#].joined(separator: "\n") + "\n")
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.outLines.compactMap { CLIHarness.member($0, "profile_id")?.stringValue }, ["before", "after"])
        XCTAssertTrue(result.err.contains("\(path):2:"), result.err)
        XCTAssertTrue(result.err.contains("\(path):3:"), result.err)
    }

    /// `CommandIO.currentDirectory` is documented as "the working directory relative paths
    /// resolve against"; the default `--rules Rules` is relative to it.
    func testThirtyAttributesAndFiftyCharactersAreFine() {
        let thirty = (1...30).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let lines = [
            "{\"id\":\"max\",\"custom_attributes\":{\(thirty)}}",
            "{\"id\":\"fifty\",\"custom_attributes\":{\"bio\":\"  \(String(repeating: "x", count: 50))  \"}}",
        ]
        let path = directory.write("limits.jsonl", lines.joined(separator: "\n"))
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 2)
    }

    func testProfileWithoutIDResolvesWithNullProfileID() {
        let path = directory.write("noid.jsonl", #"{"custom_attributes":{"experience":"amateur","weekly_hours":12}}"# + "\n")
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        assertRows(result, [row(nil, "onboarding_followup", "committed_amateurs", "flow", "flow_amateur_plan")])
    }

    func testProfileWithoutIDIsRejectedWhenASplitMustDecide() {
        let lines = [
            #"{"id":"first","custom_attributes":{"experience":"pro"}}"#,
            #"{"custom_attributes":{"experience":"beginner","interests":"sports"}}"#,
            #"{"custom_attributes":{"experience":"beginner"}}"#,
        ]
        let path = directory.write("noid-split.jsonl", lines.joined(separator: "\n") + "\n")
        let result = resolve(["--all", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 2)
        // The rejected line gets no output at all, not even for the placement without a split.
        assertRows(result, [
            row("first", "onboarding_followup", "everyone", "flow", "flow_default"),
            row("first", "main_paywall", "outdated_app", "paywall", "pw_update_first"),
            row("first", "coaching_paywall", "everyone", nil, nil),
            row(nil, "onboarding_followup", "other_beginners", "flow", "flow_beginner"),
            row(nil, "main_paywall", "outdated_app", "paywall", "pw_update_first"),
            row(nil, "coaching_paywall", "everyone", nil, nil),
        ])
        XCTAssertTrue(result.err.contains("\(path):2:"), result.err)
        XCTAssertTrue(result.err.contains("sporty_beginners_v1"), result.err)
        XCTAssertFalse(result.err.contains("\(path):3:"), result.err)
    }

    func testNonStringIDIsNoID() {
        let path = directory.write("numid.jsonl", #"{"id":42,"custom_attributes":{"experience":"beginner"}}"# + "\n")
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        assertRows(result, [row(nil, "onboarding_followup", "other_beginners", "flow", "flow_beginner")])
    }

    func testBlankLinesAndCRLFInABatch() {
        let text = "{\"id\":\"x\"}\r\n\r\n   \r\n{\"id\":\"y\",\"custom_attributes\":{\"experience\":\"beginner\"}}\r\n"
        let path = directory.write("crlf.jsonl", text)
        let result = resolve(["onboarding_followup", "--profiles", path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        assertRows(result, [
            row("x", "onboarding_followup", "quiz_skippers", "flow", "flow_quiz_reminder"),
            row("y", "onboarding_followup", "other_beginners", "flow", "flow_beginner"),
        ])
    }

    // MARK: Inputs

    func testProfileFromStandardInput() {
        let json = CLIHarness.text(CLIHarness.example("profiles/pro_adult.json"))
        let result = resolve(["onboarding_followup", "--profile", "-", "--format", "json"], stdin: json)
        XCTAssertEqual(result.status, 0, result.err)
        assertRows(result, [row("u_pro_adult", "onboarding_followup", "pro_adults", "flow", "flow_pro_v2")])
    }

    func testInvalidProfileOnStandardInputExitsTwo() {
        let result = resolve(["onboarding_followup", "--profile", "-"], stdin: "{\"id\": ")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("error:"), result.err)
        XCTAssertEqual(result.out, "")
    }

    func testStoreWithID() {
        let store = directory.write("store.jsonl", [
            #"{"id":"one","custom_attributes":{"experience":"beginner"}}"#,
            #"{"id":"two","custom_attributes":{"experience":"pro"},"birthday":"1990-01-01"}"#,
        ].joined(separator: "\n") + "\n")
        let result = resolve(["onboarding_followup", "--store", store, "--id", "two", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        assertRows(result, [row("two", "onboarding_followup", "pro_adults", "flow", "flow_pro_v2")])

        let missing = resolve(["onboarding_followup", "--store", store, "--id", "three"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.err.contains("three"), missing.err)
    }

    func testUnreadableProfilesFileExitsTwo() {
        let result = resolve(["onboarding_followup", "--profiles", directory.file("absent.jsonl")])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("absent.jsonl"), result.err)
    }

    // MARK: Explanations

    func testExplainListsEveryRowAndMissingAttributes() {
        let result = resolve(["onboarding_followup", "--profile", CLIHarness.example("profiles/base.json"), "--explain"])
        XCTAssertEqual(result.status, 0, result.err)
        for audience in ["pro_adults", "committed_amateurs", "casual_amateurs", "sporty_beginners", "other_beginners", "quiz_skippers", "everyone"] {
            XCTAssertTrue(result.out.contains(audience), "row `\(audience)` not listed:\n\(result.out)")
        }
        XCTAssertTrue(result.out.contains("experience"), result.out)
        XCTAssertTrue(result.out.contains("missing"), result.out)
        XCTAssertTrue(result.out.contains("not matched"), result.out)
        XCTAssertTrue(result.out.contains("flow_quiz_reminder"), result.out)
    }

    func testExplainShowsActualValueOfAFailingComparison() {
        let path = directory.write("teen.json", #"{"id":"t","birthday":"2010-03-02","custom_attributes":{"experience":"pro"}}"#)
        let result = resolve(["onboarding_followup", "--profile", path, "--explain"])
        XCTAssertEqual(result.status, 0, result.err)
        // pro_adults fails on age: 16 at 2026-11-29.
        XCTAssertTrue(result.out.contains("profile.age"), result.out)
        XCTAssertTrue(result.out.contains("16"), result.out)
        XCTAssertTrue(result.out.contains("flow_default"), result.out)
    }

    func testExplainInJSONKeepsTheDocumentedKeys() {
        let result = resolve(["onboarding_followup", "--profile", CLIHarness.example("profiles/base.json"), "--explain", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 1)
        for key in ["profile_id", "placement", "audience", "kind", "id", "split"] {
            XCTAssertTrue(CLIHarness.keys(result.outLines.first ?? "")?.contains(key) ?? false, key)
        }
    }

    // MARK: Errors

    func testRulesWithErrorsExitTwoWithDiagnostics() {
        let rules = directory.write("rules/bad.rules", """
        segment pros = experience == "pro"
        audience pro_adults = prso
        placement p {
          pro_adults -> flow "f"
          everyone -> flow "g"
        }

        """)
        let profile = directory.write("p.json", #"{"id":"x"}"#)
        let result = CLIHarness.run(["resolve", "p", "--rules", directory.file("rules"), "--profile", profile, "--format", "json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(rules):2:23: error:"), result.err)
        XCTAssertEqual(result.out, "")
    }

    func testUnknownPlacementSuggestsTheNearest() {
        let result = resolve(["onboarding_folowup", "--profile", CLIHarness.example("profiles/base.json")])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("unknown placement `onboarding_folowup`"), result.err)
        XCTAssertTrue(result.err.contains("did you mean `onboarding_followup`?"), result.err)
        XCTAssertEqual(result.out, "")
    }

    func testUsageErrors() {
        let profile = CLIHarness.example("profiles/base.json")
        XCTAssertEqual(resolve(["--profile", profile]).status, 64)                                   // no placement
        XCTAssertEqual(resolve(["main_paywall", "--all", "--profile", profile]).status, 64)          // both
        XCTAssertEqual(resolve(["main_paywall"]).status, 64)                                          // no input
        XCTAssertEqual(resolve(["main_paywall", "--profile", profile, "--profiles", profile]).status, 64)
        XCTAssertEqual(resolve(["main_paywall", "--profile", profile, "--now", "yesterday"]).status, 64)
        XCTAssertEqual(resolve(["main_paywall", "--profile", profile, "--bogus"]).status, 64)
    }

    func testHelp() {
        let result = CLIHarness.run(["resolve", "--help"])
        XCTAssertEqual(result.status, 0)
        for heading in ["OVERVIEW:", "USAGE: targeting resolve", "OPTIONS:", "--profiles", "--explain"] {
            XCTAssertTrue(result.out.contains(heading), "`\(heading)` missing:\n\(result.out)")
        }
    }

    func testTextOutput() {
        let result = resolve(["main_paywall", "--profile", CLIHarness.example("profiles/pro_adult.json")])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 1)
        XCTAssertTrue(result.out.contains("u_pro_adult"), result.out)
        XCTAssertTrue(result.out.contains("pw_intro_us"), result.out)
    }
}
