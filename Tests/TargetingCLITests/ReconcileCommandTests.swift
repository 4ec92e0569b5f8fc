import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase

/// `targeting reconcile`: every class through the command, each format, the exit statuses, and
/// bad input.
final class ReconcileCommandTests: TemporaryDirectoryTestCase {
    static let rules = """
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent
    experiment pricing sticky 30d {
      50% control
      50% discount
    }
    placement main_paywall {
      new_users -> pricing {
        control -> paywall "pw_a"
        discount -> paywall "pw_b"
      }
      everyone -> paywall "pw_standard"
    }
    placement quiet {
      new_users -> paywall "pw_quiet"
    }
    placement onboarding {
      everyone -> flow "flow_default"
    }
    holdout everybody 100% except main_paywall, quiet

    """

    static func shown(_ profile: String, _ placement: String, _ kind: String, _ id: String, _ at: String, experiment: (String, String)? = nil, heldOut: Bool = false) -> String {
        var line = #"{"profile_id":"\#(profile)","name":"placement_shown","placement":"\#(placement)","kind":"\#(kind)","id":"\#(id)""#
        if let experiment { line += #","experiment":"\#(experiment.0)","variant":"\#(experiment.1)""# }
        return line + #","held_out":\#(heldOut),"at":"\#(at)"}"#
    }

    /// One line of each class, in the order they are listed in JSON (match first).
    static let everyClass = [
        shown("u_match", "main_paywall", "paywall", "pw_standard", "2026-11-28T10:00:00Z"),
        shown("u_dest", "main_paywall", "paywall", "pw_b", "2026-11-28T10:00:00Z"),
        shown("u_var", "main_paywall", "paywall", "pw_standard", "2026-11-20T10:00:00Z", experiment: ("pricing", "control")),
        shown("u_var", "main_paywall", "paywall", "pw_b", "2026-11-22T10:00:00Z", experiment: ("pricing", "discount")),
        shown("u_held", "onboarding", "flow", "flow_default", "2026-11-28T10:00:00Z", experiment: ("pricing", "control")),
        shown("u_quiet", "quiet", "paywall", "pw_quiet", "2026-11-28T10:00:00Z"),
        shown("u_legacy", "legacy", "flow", "flow_old", "2026-11-28T10:00:00Z"),
        shown("u_held", "onboarding", "flow", "flow_default", "2026-11-28T11:00:00Z", heldOut: true),
    ]

    private func run(_ lines: [String], _ options: [String] = []) -> CLIResult {
        let rules = directory.write("r.rules", Self.rules)
        let events = directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        return CLIHarness.run(["reconcile", events, "--rules", rules] + options)
    }

    private func placement(_ json: String, _ name: String) -> JSONValue? {
        guard case .array(let placements)? = CLIHarness.member(json, "placements") else { return nil }
        return placements.first { $0["placement"]?.stringValue == name }
    }

    private func counts(_ placement: JSONValue?) -> [String: Int] {
        guard case .object(let members)? = placement?["classes"] else { return [:] }
        var counts: [String: Int] = [:]
        for member in members { if case .number(let count) = member.value, count > 0 { counts[member.key] = Int(count) } }
        return counts
    }

    func testEveryClassInJSON() {
        let result = run(Self.everyClass, ["--format", "json"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.outLines.count, 1)
        let json = result.out
        XCTAssertEqual(CLIHarness.keys(json), ["placements", "experiments"])
        XCTAssertEqual(counts(placement(json, "main_paywall")), ["match": 1, "different destination": 1, "different variant": 1, "variant changed after assignment": 1])
        XCTAssertEqual(counts(placement(json, "onboarding")), ["match": 1, "held out but shown an experiment": 1])
        XCTAssertEqual(counts(placement(json, "quiet")), ["shown but predicted nothing": 1])
        XCTAssertEqual(counts(placement(json, "legacy")), ["unknown placement": 1])
        guard case .array(let placements)? = CLIHarness.member(json, "placements") else { return XCTFail(json) }
        XCTAssertEqual(placements.map { $0["placement"]?.stringValue }, ["main_paywall", "quiet", "onboarding", "legacy"])
        for entry in placements {
            guard case .object(let members) = entry, case .object(let classes)? = entry["classes"] else { return XCTFail(json) }
            XCTAssertEqual(members.map(\.key), ["placement", "shown", "classes", "examples"])
            XCTAssertEqual(classes.map(\.key), ["match", "different destination", "different variant", "variant changed after assignment",
                                                "held out but shown an experiment", "shown but predicted nothing", "unknown placement"])
        }
        XCTAssertEqual(CLIHarness.canonical(JSONWriter.write(placement(json, "main_paywall")!["examples"]!)), CLIHarness.canonical("""
        {"different destination":[{"profile_id":"u_dest","at":"2026-11-28T10:00:00Z"}],
         "different variant":[{"profile_id":"u_var","at":"2026-11-20T10:00:00Z"}],
         "variant changed after assignment":[{"profile_id":"u_var","at":"2026-11-22T10:00:00Z"}]}
        """))
        // Two profiles first assigned control, none discount: chi-squared 2 with 1 degree of freedom.
        guard case .array(let experiments)? = CLIHarness.member(json, "experiments"), experiments.count == 1,
              case .object(let members) = experiments[0], case .number(let p)? = experiments[0]["p_value"] else { return XCTFail(json) }
        XCTAssertEqual(members.map(\.key), ["experiment", "assigned", "p_value", "flagged"])
        XCTAssertEqual(JSONWriter.write(experiments[0]["assigned"]!), #"{"control":2,"discount":0}"#)
        XCTAssertEqual(p, erfc(1), accuracy: 1e-12)
        XCTAssertEqual(experiments[0]["flagged"], .bool(false))
    }

    func testEveryLineMatchingExitsZero() {
        let result = run([Self.everyClass[0], Self.everyClass[7]])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("\n2 shown lines: 2 match, 0 do not\n"), result.out)
        XCTAssertTrue(result.out.contains("pricing: control 0 (50%), discount 0 (50%); no profile assigned"), result.out)
        let empty = run([#"{"profile_id":"u1","name":"flow_did_disappear"}"#], ["--format", "json"])
        XCTAssertEqual(empty.status, 0, empty.err)
        XCTAssertEqual(placement(empty.out, "main_paywall")?["shown"], .number(0))
        XCTAssertEqual(JSONWriter.write(CLIHarness.member(empty.out, "experiments")!), #"[{"experiment":"pricing","assigned":{"control":0,"discount":0},"p_value":null,"flagged":false}]"#)
    }

    func testTextListsTheClassesAlignedWithExamples() {
        let result = run(Self.everyClass)
        XCTAssertEqual(result.status, 1)
        let lines = result.outLines
        XCTAssertEqual(Array(lines.prefix(5)), [
            "main_paywall: 4 shown, 1 match, 3 do not",
            "  match                             1",
            "  different destination             1  e.g. u_dest at 2026-11-28T10:00:00Z",
            "  different variant                 1  e.g. u_var at 2026-11-20T10:00:00Z",
            "  variant changed after assignment  1  e.g. u_var at 2026-11-22T10:00:00Z",
        ])
        XCTAssertTrue(lines.contains("legacy (not in the rules): 1 shown, 0 match, 1 do not"), result.out)
        XCTAssertEqual(lines.last, "8 shown lines: 2 match, 6 do not")
    }

    func testMarkdownIsATableWithTheExamplesAndTheSampleRatio() {
        let result = run(Self.everyClass, ["--format", "markdown"])
        XCTAssertEqual(result.status, 1)
        let out = result.out
        XCTAssertTrue(out.hasPrefix("### Targeting: served vs predicted\n\n**8 shown lines: 2 match, 6 do not.**\n"), out)
        XCTAssertTrue(out.contains("| placement | shown | match | different destination | different variant | variant changed after assignment | held out but shown an experiment | shown but predicted nothing | unknown placement |\n"), out)
        XCTAssertTrue(out.contains("| `main_paywall` | 4 | 1 | **1** | **1** | **1** | 0 | 0 | 0 |\n"), out)
        XCTAssertTrue(out.contains("| `legacy` (not in the rules) | 1 | 0 | 0 | 0 | 0 | 0 | 0 | **1** |\n"), out)
        XCTAssertTrue(out.contains("- `onboarding`, held out but shown an experiment: `u_held` at 2026-11-28T10:00:00Z\n"), out)
        XCTAssertTrue(out.contains("| `pricing` | `control` 2 (50%), `discount` 0 (50%) | 0.1573 | ok |\n"), out)
    }

    func testBadLinesAreReportedTheRestReplayedAndTheExitIsTwo() {
        let lines = [Self.everyClass[0], "{\"profile_id\":\"u1\"", Self.everyClass[0].replacingOccurrences(of: "\"paywall\"", with: "\"banner\"")]
        let result = run(lines, ["--format", "json"])
        XCTAssertEqual(result.status, 2)
        let events = directory.file("events.jsonl")
        XCTAssertEqual(result.errLines.count, 2, result.err)
        XCTAssertTrue(result.errLines[0].hasPrefix("\(events):2: error: "), result.err)
        XCTAssertEqual(result.errLines[1], "\(events):3: error: profile `u_match`: `kind` must be `flow` or `paywall`, found `banner`")
        XCTAssertEqual(counts(placement(result.out, "main_paywall")), ["match": 1])
        // The same lines through `ingest` give the same messages.
        let ingest = CLIHarness.run(["ingest", events, "--store", directory.file("s.jsonl"), "--rules", directory.file("r.rules")])
        XCTAssertEqual(ingest.errLines, result.errLines)
    }

    func testUnreadableInputAndUsageErrors() {
        let rules = directory.write("r.rules", Self.rules)
        let events = directory.write("events.jsonl", Self.everyClass[0] + "\n")
        let missing = CLIHarness.run(["reconcile", events, directory.file("absent.jsonl"), "--rules", rules])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.out, "")
        XCTAssertTrue(missing.err.contains("cannot read"), missing.err)
        let broken = directory.write("broken.rules", "segment s = \n")
        let bad = CLIHarness.run(["reconcile", events, "--rules", broken])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.out, "")
        XCTAssertEqual(CLIHarness.run(["reconcile", events, "--rules", directory.file("nowhere")]).status, 2)
        XCTAssertEqual(CLIHarness.run(["reconcile", events, "--rules", rules, "--format", "yaml"]).status, 64)
        XCTAssertEqual(CLIHarness.run(["reconcile", "--rules", rules]).status, 64)
        XCTAssertEqual(CLIHarness.run(["reconcile", events, "--rules", rules, "--time-zone", "Mars/Olympus"]).status, 64)
        XCTAssertEqual(CLIHarness.run(["reconcile", events, "--rules", rules, "--now", "2026-01-01"]).status, 64)
    }

    func testHelp() {
        let help = CLIHarness.run(["reconcile", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.hasPrefix("OVERVIEW: "), help.out)
        XCTAssertTrue(help.out.contains("USAGE: targeting reconcile EVENTS.jsonl… [--rules PATH]"), help.out)
        XCTAssertTrue(CLIHarness.run(["--help"]).out.contains("  reconcile "), "listed among the subcommands")
    }

    func testTheShippedExampleHasItsTwoDeliberateMismatches() {
        let result = CLIHarness.run(["reconcile", CLIHarness.example("events/reconcile.jsonl"), "--rules", CLIHarness.rulesPath, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.err, "")
        guard case .array(let placements)? = CLIHarness.member(result.out, "placements") else { return XCTFail(result.out) }
        var mismatches: [String: Int] = [:]
        for entry in placements {
            for (name, count) in counts(entry) where name != "match" { mismatches[name, default: 0] += count }
        }
        XCTAssertEqual(mismatches, ["different destination": 1, "variant changed after assignment": 1])
    }
}
