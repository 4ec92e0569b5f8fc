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

    private func run(_ lines: [String], _ options: [String] = [], rules text: String = ReconcileCommandTests.rules) -> CLIResult {
        let rules = directory.write("r.rules", text)
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
        // Each example: what the rules predicted and what was shown, in the same five keys.
        XCTAssertEqual(CLIHarness.canonical(JSONWriter.write(placement(json, "main_paywall")!["examples"]!)), CLIHarness.canonical("""
        {"different destination":[{"profile_id":"u_dest","at":"2026-11-28T10:00:00Z",
           "predicted":{"kind":"paywall","id":"pw_standard","experiment":null,"variant":null,"held_out":false},
           "shown":{"kind":"paywall","id":"pw_b","experiment":null,"variant":null,"held_out":false}}],
         "different variant":[{"profile_id":"u_var","at":"2026-11-20T10:00:00Z",
           "predicted":{"kind":"paywall","id":"pw_standard","experiment":null,"variant":null,"held_out":false},
           "shown":{"kind":"paywall","id":"pw_standard","experiment":"pricing","variant":"control","held_out":false}}],
         "variant changed after assignment":[{"profile_id":"u_var","at":"2026-11-22T10:00:00Z",
           "predicted":{"kind":"paywall","id":"pw_a","experiment":"pricing","variant":"control","held_out":false},
           "shown":{"kind":"paywall","id":"pw_b","experiment":"pricing","variant":"discount","held_out":false}}]}
        """))
        // No row matched, and no placement: `predicted` is null; a held-out prediction says so.
        XCTAssertEqual(JSONWriter.write(placement(json, "quiet")!["examples"]!), """
        {"shown but predicted nothing":[{"profile_id":"u_quiet","at":"2026-11-28T10:00:00Z","predicted":null,\
        "shown":{"kind":"paywall","id":"pw_quiet","experiment":null,"variant":null,"held_out":false}}]}
        """)
        XCTAssertEqual(JSONWriter.write(placement(json, "legacy")!["examples"]!["unknown placement"]!), """
        [{"profile_id":"u_legacy","at":"2026-11-28T10:00:00Z","predicted":null,\
        "shown":{"kind":"flow","id":"flow_old","experiment":null,"variant":null,"held_out":false}}]
        """)
        XCTAssertEqual(JSONWriter.write(placement(json, "onboarding")!["examples"]!["held out but shown an experiment"]!), """
        [{"profile_id":"u_held","at":"2026-11-28T10:00:00Z",\
        "predicted":{"kind":"flow","id":"flow_default","experiment":null,"variant":null,"held_out":true},\
        "shown":{"kind":"flow","id":"flow_default","experiment":"pricing","variant":"control","held_out":false}}]
        """)
        // Two profiles first assigned control, none discount: chi-squared 2 with 1 degree of freedom.
        guard case .array(let experiments)? = CLIHarness.member(json, "experiments"), experiments.count == 1,
              case .object(let members) = experiments[0], case .number(let p)? = experiments[0]["p_value"] else { return XCTFail(json) }
        XCTAssertEqual(members.map(\.key), ["experiment", "assigned", "expected", "p_value", "flagged"])
        XCTAssertEqual(JSONWriter.write(experiments[0]["assigned"]!), #"{"control":2,"discount":0}"#)
        XCTAssertEqual(JSONWriter.write(experiments[0]["expected"]!), #"{"control":50,"discount":50}"#)
        XCTAssertEqual(p, erfc(1), accuracy: 1e-12)
        XCTAssertEqual(experiments[0]["flagged"], .bool(false))
    }

    func testEveryLineMatchingExitsZero() {
        let result = run([Self.everyClass[0], Self.everyClass[7]])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("\n2 shown lines: 2 match, 0 do not\n"), result.out)
        XCTAssertTrue(result.out.contains("pricing: control 0 (expected 50.0%), discount 0 (expected 50.0%); no profile assigned"), result.out)
        let empty = run([#"{"profile_id":"u1","name":"flow_did_disappear"}"#], ["--format", "json"])
        XCTAssertEqual(empty.status, 0, empty.err)
        XCTAssertEqual(placement(empty.out, "main_paywall")?["shown"], .number(0))
        XCTAssertEqual(JSONWriter.write(CLIHarness.member(empty.out, "experiments")!), #"[{"experiment":"pricing","assigned":{"control":0,"discount":0},"expected":{"control":50,"discount":50},"p_value":null,"flagged":false}]"#)
    }

    func testTextListsTheClassesAlignedWithExamples() {
        let result = run(Self.everyClass)
        XCTAssertEqual(result.status, 1)
        let lines = result.outLines
        XCTAssertEqual(Array(lines.prefix(8)), [
            "main_paywall: 4 shown, 1 match, 3 do not",
            "  match                             1",
            "  different destination             1",
            #"    u_dest at 2026-11-28T10:00:00Z: predicted paywall "pw_standard", shown paywall "pw_b""#,
            "  different variant                 1",
            #"    u_var at 2026-11-20T10:00:00Z: predicted paywall "pw_standard", shown paywall "pw_standard" (experiment pricing: control)"#,
            "  variant changed after assignment  1",
            #"    u_var at 2026-11-22T10:00:00Z: predicted paywall "pw_a" (experiment pricing: control), shown paywall "pw_b" (experiment pricing: discount)"#,
        ])
        XCTAssertTrue(lines.contains(#"    u_quiet at 2026-11-28T10:00:00Z: predicted no match, shown paywall "pw_quiet""#), result.out)
        XCTAssertTrue(lines.contains(#"    u_held at 2026-11-28T10:00:00Z: predicted flow "flow_default" (held out), shown flow "flow_default" (experiment pricing: control)"#), result.out)
        XCTAssertTrue(lines.contains("legacy (not in the rules): 1 shown, 0 match, 1 do not"), result.out)
        XCTAssertTrue(lines.contains(#"    u_legacy at 2026-11-28T10:00:00Z: no prediction (the rules declare no such placement), shown flow "flow_old""#), result.out)
        XCTAssertTrue(lines.contains("  pricing: control 2 (observed 100.0%, expected 50.0%), discount 0 (observed 0.0%, expected 50.0%); chi-squared 2.00, df 1, p = 0.1573"), result.out)
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
        XCTAssertTrue(out.contains("| placement | class | profile | at | predicted | shown |\n|---|---|---|---|---|---|\n"), out)
        XCTAssertTrue(out.contains(#"| `main_paywall` | variant changed after assignment | `u_var` | 2026-11-22T10:00:00Z | `paywall "pw_a" (experiment pricing: control)` | `paywall "pw_b" (experiment pricing: discount)` |"# + "\n"), out)
        XCTAssertTrue(out.contains(#"| `onboarding` | held out but shown an experiment | `u_held` | 2026-11-28T10:00:00Z | `flow "flow_default" (held out)` | `flow "flow_default" (experiment pricing: control)` |"# + "\n"), out)
        XCTAssertTrue(out.contains(#"| `quiet` | shown but predicted nothing | `u_quiet` | 2026-11-28T10:00:00Z | no match | `paywall "pw_quiet"` |"# + "\n"), out)
        XCTAssertTrue(out.contains(#"| `legacy` | unknown placement | `u_legacy` | 2026-11-28T10:00:00Z | not in the rules | `flow "flow_old"` |"# + "\n"), out)
        XCTAssertTrue(out.contains("| `pricing` | `control` 2 (observed 100.0%, expected 50.0%), `discount` 0 (observed 0.0%, expected 50.0%) | 0.1573 | ok |\n"), out)
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

    func testTheSampleRatioGivesObservedAndExpectedSharesInEveryFormat() {
        // Weights 1 : 3 over four profiles, a fifth first assigned a variant the rules do not declare.
        let rules = """
        experiment trial {
          25% short
          75% long
        }
        placement offer {
          everyone -> trial {
            short -> paywall "pw_short"
            long -> paywall "pw_long"
          }
        }

        """
        let lines = ["a", "b", "c", "d", "e"].enumerated().map { index, id in
            Self.shown(id, "offer", "paywall", "pw_long", "2026-11-28T10:00:00Z", experiment: ("trial", index == 4 ? "extra" : index == 0 ? "short" : "long"))
        }
        let text = run(lines, rules: rules)
        XCTAssertTrue(text.outLines.contains("  trial: short 1 (observed 25.0%, expected 25.0%), long 3 (observed 75.0%, expected 75.0%), extra 1 (not declared); chi-squared 0.00, df 1, p = 1"), text.out)
        let json = run(lines, ["--format", "json"], rules: rules)
        guard case .array(let experiments)? = CLIHarness.member(json.out, "experiments"), let trial = experiments.first else { return XCTFail(json.out) }
        XCTAssertEqual(JSONWriter.write(trial["assigned"]!), #"{"short":1,"long":3,"extra":1}"#)
        XCTAssertEqual(JSONWriter.write(trial["expected"]!), #"{"short":25,"long":75,"extra":null}"#)
        XCTAssertEqual(trial["p_value"], .number(1))
        let markdown = run(lines, ["--format", "markdown"], rules: rules)
        XCTAssertTrue(markdown.out.contains("| `trial` | `short` 1 (observed 25.0%, expected 25.0%), `long` 3 (observed 75.0%, expected 75.0%), `extra` 1 (not declared) | 1 | ok |\n"), markdown.out)
    }

    func testExplainFollowsOneProfileWithTheExplanationResolvePrints() {
        let result = run(Self.everyClass, ["--explain", "u_var"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.err, "")
        let events = directory.file("events.jsonl")
        // The first line of u_var is decided for the profile holding only its id, at the line's
        // instant: the explanation is the one `resolve --explain` gives for that profile then.
        let profile = directory.write("u_var.json", #"{"id":"u_var"}"#)
        let resolved = CLIHarness.run(["resolve", "main_paywall", "--profile", profile, "--explain", "--rules", directory.file("r.rules"), "--now", "2026-11-20T10:00:00Z"])
        XCTAssertEqual(resolved.status, 0, resolved.err)
        XCTAssertTrue(result.out.hasPrefix("""
        \(events):3 at 2026-11-20T10:00:00Z: main_paywall
          shown: paywall "pw_standard" (experiment pricing: control)
          class: different variant

        """ + resolved.out + "\n\(events):4 at 2026-11-22T10:00:00Z: main_paywall\n"), result.out)
        // The second is decided with the assignment the first recorded.
        XCTAssertTrue(result.out.contains("""
          shown: paywall "pw_b" (experiment pricing: discount)
          class: variant changed after assignment
        u_var main_paywall: paywall "pw_a" (audience `new_users`) (experiment pricing: control)
          1. new_users -> pricing: decided (sticky: assigned control at 2026-11-20T10:00:00Z (sticky 30d))

        """), result.out)
        XCTAssertEqual(result.outLines.last, "u_var: 2 shown lines, 0 match, 2 do not")
        XCTAssertFalse(result.out.contains("u_dest"), "only the profile followed")

        let unknown = run(Self.everyClass, ["--explain", "u_legacy"])
        XCTAssertEqual(unknown.out, """
        \(events):7 at 2026-11-28T10:00:00Z: legacy
          shown: flow "flow_old"
          class: unknown placement
          no decision: the rules declare no placement `legacy`

        u_legacy: 1 shown line, 0 match, 1 does not

        """)
        // The exit status counts only the profile's lines.
        let matching = run(Self.everyClass, ["--explain", "u_match"])
        XCTAssertEqual(matching.status, 0, matching.err)
        XCTAssertEqual(matching.outLines.last, "u_match: 1 shown line, 1 match, 0 do not")
    }

    func testExplainInJSONCarriesTheDecisionOfResolveExplain() {
        let result = run(Self.everyClass, ["--explain", "u_var", "--format", "json"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.outLines.count, 1)
        XCTAssertEqual(CLIHarness.keys(result.out), ["profile_id", "lines"])
        XCTAssertEqual(CLIHarness.member(result.out, "profile_id"), .string("u_var"))
        guard case .array(let lines)? = CLIHarness.member(result.out, "lines"), lines.count == 2,
              case .object(let members) = lines[0] else { return XCTFail(result.out) }
        XCTAssertEqual(members.map(\.key), ["file", "line", "at", "placement", "class", "predicted", "shown", "decision", "error"])
        XCTAssertEqual(lines.map { $0["line"] }, [.number(3), .number(4)])
        XCTAssertEqual(lines.map { $0["class"]?.stringValue }, ["different variant", "variant changed after assignment"])
        XCTAssertEqual(lines[1]["error"], .null)
        XCTAssertEqual(JSONWriter.write(lines[1]["predicted"]!), #"{"kind":"paywall","id":"pw_a","experiment":"pricing","variant":"control","held_out":false}"#)
        // `decision` is what `resolve --explain --format json` prints for the profile then.
        let profile = directory.write("u_var.json", #"{"id":"u_var"}"#)
        let resolved = CLIHarness.run(["resolve", "main_paywall", "--profile", profile, "--explain", "--format", "json", "--rules", directory.file("r.rules"), "--now", "2026-11-20T10:00:00Z"])
        XCTAssertEqual(JSONWriter.write(lines[0]["decision"]!) + "\n", resolved.out)

        let unknown = run(Self.everyClass, ["--explain", "u_legacy", "--format", "json"])
        guard case .array(let legacy)? = CLIHarness.member(unknown.out, "lines"), legacy.count == 1 else { return XCTFail(unknown.out) }
        XCTAssertEqual(legacy[0]["decision"], .null)
        XCTAssertEqual(legacy[0]["predicted"], .null)
        XCTAssertEqual(legacy[0]["error"]?.stringValue, "the rules declare no placement `legacy`")
    }

    func testExplainErrors() {
        // No line names the profile: an error on stderr, nothing on stdout, exit 2.
        let missing = run(Self.everyClass, ["--explain", "u_nobody"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.out, "")
        XCTAssertEqual(missing.errLines.first, "error: no profile with id `u_nobody` in the events")
        XCTAssertEqual(run(Self.everyClass, ["--explain", "u_nobody", "--format", "json"]).status, 2)
        // A profile only answers name is known, with no shown line.
        let answered = run(Self.everyClass + [#"{"profile_id":"u_quiz","name":"flow_did_disappear"}"#, #"{"profile_id":"u_quiz","name":"profile_updated","fields":{"country":"DE"}}"#], ["--explain", "u_quiz"])
        XCTAssertEqual(answered.status, 0, answered.err)
        XCTAssertEqual(answered.out, "u_quiz: 0 shown lines, 0 match, 0 do not\n")
        // Markdown has no form of it; a missing id is a usage error too.
        let markdown = run(Self.everyClass, ["--explain", "u_var", "--format", "markdown"])
        XCTAssertEqual(markdown.status, 64)
        XCTAssertEqual(markdown.out, "")
        XCTAssertEqual(markdown.errLines.first, "error: --explain prints text or json, not markdown")
        XCTAssertEqual(run(Self.everyClass, ["--explain"]).status, 64)
        // Rejected lines still make the exit status 2.
        let rejected = run(Self.everyClass + ["{not json"], ["--explain", "u_match"])
        XCTAssertEqual(rejected.status, 2)
        XCTAssertEqual(rejected.outLines.last, "u_match: 1 shown line, 1 match, 0 do not")
    }

    func testHelp() {
        let help = CLIHarness.run(["reconcile", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.hasPrefix("OVERVIEW: "), help.out)
        XCTAssertTrue(help.out.contains("USAGE: targeting reconcile EVENTS.jsonl… [--rules PATH]"), help.out)
        XCTAssertTrue(help.out.contains("  --explain <PROFILE_ID>  "), help.out)
        XCTAssertTrue(help.out.contains(#""expected":{VARIANT:PERCENT}"#), help.out)
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
