import Foundation
import TargetingTestSupport
import XCTest

/// `targeting ingest` over `placement_shown` lines: the history it stores, the summary that
/// counts them, and each rejected line reported with its number while the rest go on.
final class IngestShownCommandTests: TemporaryDirectoryTestCase {
    private var example: String { CLIHarness.example("events/shown.jsonl") }

    private let good = #"{"profile_id":"u1","name":"placement_shown","placement":"main_paywall","kind":"paywall","id":"pw_annual","experiment":"annual_first","variant":"annual_first","held_out":false,"at":"2026-12-01T10:00:00Z"}"#

    func testTheExampleStreamStoresHistoriesWithTheRulesAndWithout() {
        for rules in [["--rules", CLIHarness.rulesPath], ["--no-rules"]] {
            let store = directory.file("profiles\(rules.count).jsonl")
            let result = CLIHarness.run(["ingest", example, "--store", store] + rules)
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(result.err, "")
            XCTAssertTrue(result.out.contains("profile updates: 2\nshown events: 6\nignored: 0\n"), result.out)
            let lines = CLIResult.lines(CLIHarness.text(store)).filter { !$0.isEmpty }
            XCTAssertEqual(lines.count, 2)
            XCTAssertEqual(CLIHarness.member(lines[1], "history"), CLIHarness.member(#"{"history":{"shown":{"onboarding_followup":["2026-11-28T09:20:00Z"],"main_paywall":["2026-11-28T09:25:00Z","2026-11-30T07:40:00Z"]},"assigned":{"pricing_q4":{"variant":"control","at":"2026-11-28T09:20:00Z"}}}}"#, "history"))
        }
    }

    func testTheExampleHistoriesAgreeWithWhatTheRulesDecide() {
        let store = directory.file("profiles.jsonl")
        XCTAssertEqual(CLIHarness.run(["ingest", example, "--store", store, "--rules", CLIHarness.rulesPath]).status, 0)
        let result = CLIHarness.run(["resolve", "--all", "--store", store, "--rules", CLIHarness.rulesPath, "--now", "2026-11-28T10:00:00Z", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let decided = result.outLines.map { line in
            [CLIHarness.member(line, "profile_id"), CLIHarness.member(line, "placement"), CLIHarness.member(line, "id"), CLIHarness.member(line, "variant")]
                .map { $0?.stringValue ?? "-" }.joined(separator: " ")
        }
        XCTAssertEqual(decided, [
            "u_shown_pro onboarding_followup flow_pro_v2 -", "u_shown_pro main_paywall pw_intro_us -", "u_shown_pro coaching_paywall pw_coaching_7d -",
            "u_shown_amateur onboarding_followup flow_amateur_plan control", "u_shown_amateur main_paywall pw_standard control", "u_shown_amateur coaching_paywall - -",
        ])
        for line in CLIResult.lines(CLIHarness.text(example)) where line.contains("placement_shown") {
            let shown = [CLIHarness.member(line, "profile_id"), CLIHarness.member(line, "placement"), CLIHarness.member(line, "id"), CLIHarness.member(line, "variant")]
                .map { $0?.stringValue ?? "-" }.joined(separator: " ")
            XCTAssertTrue(decided.contains(shown), "the example shows what the rules do not decide: \(shown)")
        }
    }

    func testBadShownLinesAreReportedWithTheirLineAndTheRestIsStored() {
        let events = directory.write("events.jsonl", [
            good,
            good.replacingOccurrences(of: #""kind":"paywall""#, with: #""kind":"banner""#),
            good.replacingOccurrences(of: #","placement":"main_paywall""#, with: ""),
            good.replacingOccurrences(of: #""at":"2026-12-01T10:00:00Z""#, with: #""at":"2026-12-01""#),
            good.replacingOccurrences(of: #","variant":"annual_first""#, with: ""),
            good.replacingOccurrences(of: #""held_out":false"#, with: #""held_out":"no""#),
            good.replacingOccurrences(of: #""id":"pw_annual""#, with: #""id":"""#),
            good.replacingOccurrences(of: "u1", with: "u2").replacingOccurrences(of: "10:00", with: "11:00"),
        ].joined(separator: "\n") + "\n")
        let store = directory.file("profiles.jsonl")
        let result = CLIHarness.run(["ingest", events, "--store", store, "--no-rules"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.errLines.filter { !$0.isEmpty }, [
            "\(events):2: error: profile `u1`: `kind` must be `flow` or `paywall`, found `banner`",
            "\(events):3: error: profile `u1`: missing `placement`, the placement shown",
            "\(events):4: error: profile `u1`: `at` must be an RFC 3339 instant with time and zone such as `2026-12-01T10:00:00Z`, found `2026-12-01`",
            "\(events):5: error: profile `u1`: `experiment` `annual_first` is given without `variant`; give both or neither",
            "\(events):6: error: profile `u1`: `held_out` must be a boolean, found `no`",
            "\(events):7: error: profile `u1`: `id` must be a non-empty string, found an empty string",
        ])
        XCTAssertEqual(result.out, """
            events read: 8
            inputs applied: 0
            shown events: 2
            ignored: 0
            rejected: 6
            profiles: 0 updated, 2 created, 0 unchanged
            sessions: 0 closed, 0 still open
            store: \(store)

            """)
        XCTAssertEqual(CLIHarness.text(store), """
            {"id":"u1","history":{"shown":{"main_paywall":["2026-12-01T10:00:00Z"]},"assigned":{"annual_first":{"variant":"annual_first","at":"2026-12-01T10:00:00Z"}}}}
            {"id":"u2","history":{"shown":{"main_paywall":["2026-12-01T11:00:00Z"]},"assigned":{"annual_first":{"variant":"annual_first","at":"2026-12-01T11:00:00Z"}}}}

            """)
    }

    func testTheJSONSummaryCountsShownLinesOnlyWhenThereAreAny() {
        let store = directory.file("profiles.jsonl")
        let events = directory.write("events.jsonl", good + "\n")
        var result = CLIHarness.run(["ingest", events, "--store", store, "--no-rules", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, #"{"store":"\#(store)","events":1,"applied":0,"profile_updates":0,"shown":1,"ignored":{},"rejected":0,"warnings":0,"profiles_created":1,"profiles_updated":0,"profiles_unchanged":0,"dates_not_midnight":0,"sessions_closed":0,"sessions_open":[]}"# + "\n")
        // The same line again changes nothing: the profile's line keeps its bytes.
        let before = CLIHarness.text(store)
        result = CLIHarness.run(["ingest", events, "--store", store, "--no-rules", "--format", "json"])
        XCTAssertEqual(CLIHarness.member(result.out, "profiles_unchanged"), .number(1))
        XCTAssertEqual(CLIHarness.text(store), before)
        let other = directory.write("other.jsonl", #"{"profile_id":"u1","name":"flow_did_disappear"}"# + "\n")
        result = CLIHarness.run(["ingest", other, "--store", store, "--no-rules", "--format", "json"])
        XCTAssertNil(CLIHarness.member(result.out, "shown"))
    }
}
