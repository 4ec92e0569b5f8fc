import Foundation
import TargetingTestSupport
import XCTest
import TargetingBase

/// What a growth engineer trips over in the first hour: strict gates, empty test runs, typos,
/// messages that say how to fix it, and honest `ingest` summaries.
final class AuthoringTests: TemporaryDirectoryTestCase {
    private let typoRules = """
    attribute goal: string
    segment wants = goals == "build_muscle"
    audience a = wants
    placement p {
      a -> flow "f"
      everyone -> flow "g"
    }

    """

    func testStrictCheckFailsOnWarnings() {
        let rules = directory.write("typo.rules", typoRules)
        let plain = CLIHarness.run(["check", rules])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertTrue(plain.err.contains("warning: attribute `goals` is not declared"), plain.err)
        XCTAssertTrue(plain.err.contains("help: did you mean `goal`?"), plain.err)
        let strict = CLIHarness.run(["check", rules, "--strict"])
        XCTAssertEqual(strict.status, 1, strict.err)
        XCTAssertTrue(strict.err.contains("--strict: warnings count as errors"), strict.err)
        XCTAssertEqual(strict.out, "0 errors, 1 warnings\n")
        XCTAssertEqual(CLIHarness.run(["check", CLIHarness.rulesPath, "--strict"]).status, 0, "the shipped rules have no warnings")
    }

    func testBuiltinFieldTyposSuggestTheProfileField() {
        let rules = directory.write("c.rules", "segment de = contry == \"DE\"\nsegment c = country == \"DE\"\naudience a = de or c\nplacement p {\n  a -> flow \"f\"\n}\n")
        let result = CLIHarness.run(["check", rules])
        XCTAssertTrue(result.err.contains("help: did you mean `profile.country`?"), result.err)
        XCTAssertEqual(result.err.components(separatedBy: "did you mean `profile.country`").count - 1, 2, "a custom `country` suggests the field too")
    }

    func testStrictTestFailsOnWarningsBeforeRunning() {
        let rules = directory.write("r/typo.rules", typoRules)
        _ = directory.write("r/typo.tests", "test \"one\" {\n  given {\n    goal = \"x\"\n  }\n  expect p -> flow \"g\"\n}\n")
        let plain = CLIHarness.run(["test", "--rules", rules])
        XCTAssertEqual(plain.status, 0, plain.err)
        let strict = CLIHarness.run(["test", "--rules", rules, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.err.contains("attribute `goals` is not declared"), strict.err)
        XCTAssertTrue(strict.err.contains("no test was run"), strict.err)
        XCTAssertEqual(strict.out, "")
    }

    func testATestRunWithNothingToRunFails() {
        let none = CLIHarness.run(["test", "--rules", CLIHarness.rulesPath, "--run", "no such test"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.err.contains("error: no test name contains `no such test` (--run)"), none.err)
        XCTAssertEqual(none.out, "0 passed, 0 failed\n")
        let rules = directory.write("empty/r.rules", "placement p {\n  everyone -> flow \"f\"\n}\n")
        let empty = CLIHarness.run(["test", "--rules", rules])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.err.contains("error: no tests to run"), empty.err)
    }

    func testAGivenAttributeNoRuleReadsIsWarned() {
        let rules = directory.write("g/r.rules", typoRules.replacingOccurrences(of: "goals ==", with: "goal =="))
        let tests = directory.write("g/r.tests", "test \"typo\" {\n  given {\n    goall = \"build_muscle\"\n  }\n  expect p -> flow \"g\"\n}\n")
        let result = CLIHarness.run(["check", rules, tests])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.err.contains("r.tests:3:5: warning: attribute `goall` is neither declared nor read by any rule"), result.err)
        XCTAssertTrue(result.err.contains("help: did you mean `goal`?"), result.err)
    }

    func testMessagesSayHowToFixIt() {
        let rules = directory.write("m.rules", """
        attribute hours: number
        attribute tags: set
        segment busy = hours == "4"
        segment tagged = tags == "x"
        audience a = busy or tagged
        placement p {
          a -> split "s" {
            50% -> flow "a"
            40% -> flow "b"
          }
        }

        """)
        let result = CLIHarness.run(["check", rules])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("help: write `4` without quotes"), result.err)
        XCTAssertTrue(result.err.contains("help: a set holds members: use `has`"), result.err)
        XCTAssertTrue(result.err.contains("help: the weights are 50% (line 8) + 40% (line 9) = 90%; add 10% to reach 100%"), result.err)
    }

    func testANegatedSegmentIsExplainedTheRightWayRound() {
        let profile = directory.write("am.json", #"{"id":"u1","custom_attributes":{"experience":"amateur","weekly_hours":20,"reminders":0}}"#)
        let result = CLIHarness.run(["resolve", "onboarding_followup", "--profile", profile, "--rules", CLIHarness.rulesPath,
                                     "--now", "2026-11-29T12:00:00Z", "--explain"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("segment `dedicated`: weekly_hours is 20, so `weekly_hours >= 10` is true, so `not dedicated` is false"), result.out)
    }

    func testAMissingProfileFileSaysWhy() {
        let missing = directory.file("missing.json")
        let result = CLIHarness.run(["resolve", "onboarding_followup", "--profile", missing, "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "error: cannot read `\(missing)`: no such file or directory\n")
        let batch = CLIHarness.run(["resolve", "--all", "--profiles", directory.path, "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(batch.status, 2)
        XCTAssertTrue(batch.err.hasSuffix(": it is a directory\n"), batch.err)
    }

    func testIngestCountsANewProfileAsCreatedOnly() {
        let store = directory.write("s.jsonl", #"{"id":"old"}"# + "\n")
        let events = directory.write("e.jsonl", [
            #"{"profile_id":"old","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["pro"]}"#,
            #"{"profile_id":"new","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["pro"]}"#,
            #"{"profile_id":"new","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["amateur"]}"#,
        ].joined(separator: "\n") + "\n")
        let json = CLIHarness.run(["ingest", events, "--store", store, "--rules", CLIHarness.rulesPath, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.err)
        XCTAssertEqual(CLIHarness.member(json.out, "profiles_created"), .number(1))
        XCTAssertEqual(CLIHarness.member(json.out, "profiles_updated"), .number(1))
        _ = directory.write("s.jsonl", #"{"id":"old"}"# + "\n")
        let text = CLIHarness.run(["ingest", events, "--store", store, "--rules", CLIHarness.rulesPath])
        XCTAssertTrue(text.out.contains("profiles: 1 updated, 1 created"), text.out)
    }

    func testIngestCapsTheOpenSessionsInText() {
        let lines = (0..<25).map { #"{"profile_id":"p\#(String(format: "%02d", $0))","name":"flow_screen_showed","instanceId":"scr"}"# }
        let events = directory.write("open.jsonl", lines.joined(separator: "\n") + "\n")
        let store = directory.file("s.jsonl")
        let text = CLIHarness.run(["ingest", events, "--store", store, "--rules", CLIHarness.rulesPath])
        XCTAssertTrue(text.out.contains("25 still open (p00, p01, "), text.out)
        XCTAssertTrue(text.out.contains("p19, … and 5 more)"), text.out)
        XCTAssertFalse(text.out.contains("p20"), text.out)
        let json = CLIHarness.run(["ingest", events, "--store", store, "--rules", CLIHarness.rulesPath, "--format", "json"])
        XCTAssertEqual(CLIHarness.member(json.out, "sessions_open")?.arrayValue?.count, 25, "JSON lists them all")
    }

    func testIngestWithoutRulesNeedsNoRulesToStoreUnderElementIDs() {
        let events = directory.write("e.jsonl", #"{"profile_id":"a","name":"flow_user_input","instanceId":"scr","element_id":"goal","element_type":"text","value":"x"}"# + "\n")
        let refused = CLIHarness.run(["ingest", events, "--store", directory.file("s.jsonl")], currentDirectory: directory.path)
        XCTAssertEqual(refused.status, 2, refused.err)
        XCTAssertTrue(refused.err.contains("--no-rules"), refused.err)
        let result = CLIHarness.run(["ingest", events, "--store", directory.file("s.jsonl"), "--no-rules"], currentDirectory: directory.path)
        XCTAssertEqual(result.status, 0, result.err)
    }
}

/// `targeting bucket`: the draw of splits for chosen ids (the buckets below are the ones the
/// shipped tests' comments computed independently in Python).
final class BucketCommandTests: XCTestCase {
    func testBucketsAndVariants() {
        let text = CLIHarness.run(["bucket", "sporty_beginners_v1", "--id", "u_beginner_sport_21", "--id", "u_beginner_sport_26", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertEqual(text.outLines, ["u_beginner_sport_21 sporty_beginners_v1: bucket 7 -> nothing",
                                       "u_beginner_sport_26 sporty_beginners_v1: bucket 10 -> flow \"flow_sport_start_b\""])
        let json = CLIHarness.run(["bucket", "sporty_beginners_v1", "--id", "u_beginner_sport_26", "--rules", CLIHarness.rulesPath, "--format", "json"])
        XCTAssertEqual(json.out, #"{"split":"sporty_beginners_v1","profile_id":"u_beginner_sport_26","bucket":10,"kind":"flow","id":"flow_sport_start_b"}"# + "\n")
    }

    func testUnknownSplitAndMissingIDs() {
        let unknown = CLIHarness.run(["bucket", "sporty_beginners_v2", "--id", "x", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.err, "error: unknown split `sporty_beginners_v2`; did you mean `sporty_beginners_v1`?\n")
        XCTAssertEqual(CLIHarness.run(["bucket", "sporty_beginners_v1", "--rules", CLIHarness.rulesPath]).status, 64)
    }
}

/// `resolve --explain` shows the bucket that chose a split's variant.
final class ExplainBucketTests: TemporaryDirectoryTestCase {
    func testTheDecidedSplitRowShowsItsBucket() {
        let profile = directory.write("b.json", #"{"id":"u_beginner_sport_26","custom_attributes":{"experience":"beginner","interests":"sports"}}"#)
        let result = CLIHarness.run(["resolve", "onboarding_followup", "--profile", profile, "--rules", CLIHarness.rulesPath,
                                     "--now", "2026-11-29T12:00:00Z", "--explain"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("5. sporty_beginners -> split \"sporty_beginners_v1\": decided (bucket 10 -> flow \"flow_sport_start_b\")"), result.out)
    }
}

/// A missing `given events` file fails its test; the run goes on (and `check` still reports it).
final class MissingTestInputTests: TemporaryDirectoryTestCase {
    func testAMissingEventsFileFailsOnlyItsTest() {
        let rules = directory.write("mt/r.rules", "placement p {\n  everyone -> flow \"f\"\n}\n")
        let tests = directory.write("mt/r.tests", "test \"missing\" {\n  given events \"nope.jsonl\"\n  expect p -> flow \"f\"\n}\ntest \"fine\" {\n  expect p -> flow \"f\"\n}\n")
        let run = CLIHarness.run(["test", "--rules", rules])
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertTrue(run.out.contains("FAIL \(tests):1 missing"), run.out)
        XCTAssertTrue(run.out.contains("r.tests:2:16: error: cannot read"), run.out)
        XCTAssertTrue(run.out.contains("PASS \(tests):5 fine"), run.out)
        XCTAssertTrue(run.out.hasSuffix("1 passed, 1 failed\n"), run.out)
        let check = CLIHarness.run(["check", rules, tests])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.err.contains("r.tests:2:16: error: cannot read `nope.jsonl`"), check.err)
    }
}

/// `expect P -> no match`, `from AUDIENCE`, and coverage per split variant.
final class SharperExpectationTests: TemporaryDirectoryTestCase {
    private let rules = """
    attribute goal: string
    segment fit = goal == "fit"
    segment any_goal = goal is set
    audience fitness = fit
    audience others = any_goal
    placement p {
      fitness -> flow "f"
      others -> split "s" {
        90% -> flow "o"
        10% -> nothing
      }
    }

    """

    private func run(_ tests: String, _ extra: [String] = []) -> CLIResult {
        let path = directory.write("x/r.rules", rules)
        directory.write("x/r.tests", tests)
        return CLIHarness.run(["test", "--rules", path] + extra)
    }

    func testNoMatchIsNotAHoldoutAndFromNamesTheDecidingAudience() {
        let result = run("""
        test "no goal" {
          expect p -> no match
          expect p -> nothing
        }
        test "fit" {
          given {
            goal = "fit"
          }
          expect p -> flow "f" from fitness
          expect p -> flow "f" from others
          expect p -> no match
        }

        """)
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.out.contains("PASS "), result.out)
        XCTAssertTrue(result.out.contains(":10:3: expected p -> flow \"f\" from others, got flow \"f\" (audience `fitness`)"), result.out)
        XCTAssertTrue(result.out.contains(":11:3: expected p -> no match, got flow \"f\" (audience `fitness`)"), result.out)
        XCTAssertTrue(result.out.hasSuffix("1 passed, 1 failed\n"), result.out)
    }

    func testAHoldoutIsNothingFromItsAudienceButNotNoMatch() {
        // Bucket 4 of split `s` for id `h3` is the 10% holdout (ids chosen with `targeting bucket`).
        let bucket = CLIHarness.run(["bucket", "s", "--rules", directory.write("b/r.rules", rules), "--id", "h3", "--format", "json"])
        guard case .number(let drawn)? = CLIHarness.member(bucket.out, "bucket") else { return XCTFail(bucket.out + bucket.err) }
        let holdout = drawn < 10
        let result = run("""
        test "holdout" {
          given {
            profile.id = "h3"
            goal = "x"
          }
          expect p -> \(holdout ? "nothing" : "flow \"o\"") from others
          expect p -> no match
        }

        """)
        XCTAssertTrue(result.out.contains("expected p -> no match, got \(holdout ? "nothing" : "flow \"o\"") (audience `others`, split `s`)"), result.out)
        XCTAssertTrue(result.out.hasSuffix("0 passed, 1 failed\n"), result.out)
    }

    func testFromMustNameARowOfThePlacementAndNoMatchTakesNoFrom() {
        let unknown = run("test \"t\" {\n  expect p -> flow \"f\" from fitnes\n}\n")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.err.contains("r.tests:2:29: error: placement `p` has no row for audience `fitnes`"), unknown.err)
        XCTAssertTrue(unknown.err.contains("help: did you mean `fitness`?"), unknown.err)
        let noMatch = run("test \"t\" {\n  expect p -> no match from fitness\n}\n")
        XCTAssertEqual(noMatch.status, 2)
        XCTAssertTrue(noMatch.err.contains("r.tests:2:24: error: `no match` has no deciding audience, so it takes no `from`"), noMatch.err)
    }

    func testFormatterKeepsNoMatchAndFrom() {
        let path = directory.write("f/r.tests", "test \"t\" {\n  expect   p ->   no match\n  expect p -> flow \"f\"   from fitness\n}\n")
        let result = CLIHarness.run(["fmt", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "test \"t\" {\n  expect p -> no match\n  expect p -> flow \"f\" from fitness\n}\n")
    }

    func testCoverageCountsEachSplitVariant() {
        let result = run("""
        test "fit" {
          given {
            goal = "fit"
          }
          expect p -> flow "f"
        }

        """, ["--coverage"])
        XCTAssertTrue(result.out.contains("p row 2: split `s` 10% -> nothing: no"), result.out)
        XCTAssertTrue(result.out.contains("p row 2: split `s` 90% -> flow \"o\": no"), result.out)
        XCTAssertTrue(result.out.contains("coverage: 1 of 6 (16.6%)"), result.out)
        let json = run("test \"fit\" {\n  given {\n    goal = \"fit\"\n  }\n  expect p -> flow \"f\"\n}\n", ["--coverage", "--format", "json"])
        let line = json.outLines.first { $0.hasPrefix("{\"coverage\"") } ?? ""
        let variants = CLIHarness.member(line, "coverage")?["variants"]
        XCTAssertEqual(variants, .array([
            .object([JSONMember(key: "split", value: .string("s")), JSONMember(key: "kind", value: .null),
                     JSONMember(key: "id", value: .null), JSONMember(key: "covered", value: .bool(false))]),
            .object([JSONMember(key: "split", value: .string("s")), JSONMember(key: "kind", value: .string("flow")),
                     JSONMember(key: "id", value: .string("o")), JSONMember(key: "covered", value: .bool(false))]),
        ]), line)
    }
}

/// `resolve --summary`: profiles per audience, destination and variant, counted the same way
/// the listed decisions would be.
final class ResolveSummaryTests: TemporaryDirectoryTestCase {
    private func resolve(_ extra: [String]) -> CLIResult {
        CLIHarness.run(["resolve", "--all", "--profiles", CLIHarness.example("profiles/corpus.jsonl"), "--rules", CLIHarness.rulesPath,
                        "--now", "2026-11-29T12:00:00Z"] + extra)
    }

    func testSummaryCountsWhatTheListShows() throws {
        let listed = resolve(["--format", "json"])
        var expected: [String: Int] = [:]
        for line in listed.outLines {
            let key = ["placement", "audience", "kind", "id", "split"].map { CLIHarness.member(line, $0).map { "\($0)" } ?? "?" }.joined(separator: "|")
            expected[key, default: 0] += 1
        }
        for jobs in ["1", "2"] {
            let summary = resolve(["--summary", "--format", "json", "--jobs", jobs])
            XCTAssertEqual(summary.status, listed.status)
            var counted: [String: Int] = [:]
            var shares: [String: Double] = [:]
            for line in summary.outLines {
                XCTAssertNil(CLIHarness.member(line, "profile_id"), line)
                let key = ["placement", "audience", "kind", "id", "split"].map { CLIHarness.member(line, $0).map { "\($0)" } ?? "?" }.joined(separator: "|")
                guard case .number(let profiles)? = CLIHarness.member(line, "profiles"), case .number(let share)? = CLIHarness.member(line, "share") else {
                    return XCTFail(line)
                }
                if profiles > 0 { counted[key] = Int(profiles) }
                shares[key] = share
            }
            XCTAssertEqual(counted, expected, "--jobs \(jobs)")
            XCTAssertFalse(summary.outLines.contains { $0.contains(#""audience":null"#) }, "both placements end with `everyone`, so cannot miss")
        }
    }

    func testEveryEntryIsListedWithZerosAndNoMatchOnlyWhereItCanHappen() {
        let rules = directory.write("p.rules", """
        segment f = fan == 1
        segment g = goal == "x"
        audience fans = f
        audience goals = g
        placement p {
          fans -> split "hold" {
            50% -> flow "a"
            50% -> nothing
          }
          goals -> nothing
          goals -> nothing
          everyone -> flow "d"
        }
        placement q {
          fans -> flow "a"
        }
        """)
        let profiles = directory.write("one.jsonl", "{\"id\":\"u6\"}\n")
        let text = CLIHarness.run(["resolve", "--all", "--rules", rules, "--profiles", profiles, "--summary", "--now", "2026-11-29"])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertEqual(text.outLines, [
            "p: 1 profiles",
            "  nothing (audience `fans`, split `hold`): 0 (0.0%)",
            "  flow \"a\" (audience `fans`, split `hold`): 0 (0.0%)",
            "  nothing (audience `goals`): 0 (0.0%)",
            "  flow \"d\" (audience `everyone`): 1 (100.0%)",
            "q: 1 profiles",
            "  flow \"a\" (audience `fans`): 0 (0.0%)",
            "  no match (no audience matched): 1 (100.0%)",
        ])
        let json = CLIHarness.run(["resolve", "q", "--rules", rules, "--profiles", profiles, "--summary", "--now", "2026-11-29", "--format", "json"])
        XCTAssertEqual(json.outLines.map { CLIHarness.canonical($0) }, [
            #"{"placement":"q","audience":"fans","kind":"flow","id":"a","split":null,"profiles":0,"share":0}"#,
            #"{"placement":"q","audience":null,"kind":null,"id":null,"split":null,"profiles":1,"share":100}"#,
        ].map { CLIHarness.canonical($0) })
    }

    func testTextSummaryAndItsLimits() {
        let text = resolve(["--summary"])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.outLines.contains("onboarding_followup: 10000 profiles"), text.out)
        XCTAssertTrue(text.outLines.contains { $0.hasPrefix("  nothing (audience `sporty_beginners`, split `sporty_beginners_v1`): ") }, text.out)
        XCTAssertFalse(text.outLines.contains { $0.hasPrefix("  no match") }, text.out)
        let explain = resolve(["--summary", "--explain"])
        XCTAssertEqual(explain.status, 64)
        let single = CLIHarness.run(["resolve", "--all", "--profile", CLIHarness.example("profiles/pro_adult.json"), "--summary", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(single.status, 64)
    }
}
