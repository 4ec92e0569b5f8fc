import XCTest
import TargetingTestSupport

/// The analyses on rules that depend on rules, through the CLI: a row a prerequisite makes
/// unreachable is reported, two experiments of one layer never overlap (proved, no witness), a
/// change to a placement moves the placements that ask about it in `diff --prove`, and `bucket`
/// draws a layer.
final class DependentRulesAnalysisTests: TemporaryDirectoryTestCase {
    private let rules = """
    attribute level: string one of ["pro", "amateur", "beginner"]
    segment pros = level == "pro"
    segment beginners = level == "beginner"
    segment onboarded_pro = placement onboarding -> flow "onb_pro"
    audience pro_users = pros
    audience beginner_users = beginners
    audience coached = onboarded_pro
    audience coached_beginners = onboarded_pro and beginners
    experiment price { 50% low 50% high }
    experiment trial { 50% short 50% long }
    layer tests {
      50% price
      50% trial
    }
    placement onboarding {
      pro_users -> flow "onb_pro"
      beginner_users -> flow "onb_beginner"
      everyone -> flow "onb_default"
    }
    placement paywall_a {
      coached_beginners -> paywall "never"
      coached -> paywall "coach"
      everyone -> paywall "plain"
    }
    placement paywall_b {
      pro_users -> price { low -> paywall "low" high -> paywall "high" }
      pro_users -> trial { short -> paywall "short" long -> paywall "long" }
      everyone -> paywall "rest"
    }
    """

    func testARowThePrerequisiteRulesOutIsUnreachable() {
        let path = directory.write("main.rules", rules)
        let checked = CLIHarness.run(["check", path])
        XCTAssertEqual(checked.status, 0, checked.err)
        // Only pros are sent to `onb_pro`: a beginner never is.
        XCTAssertTrue(checked.err.contains("row `coached_beginners` can never decide"), checked.err)
        // Every other row is reachable: the coached pros' row, and below `price` (drawn in one
        // half of the layer, entered by no one without an id), `trial` and `rest`.
        XCTAssertEqual(checked.err.components(separatedBy: "can never decide").count, 2, checked.err)
    }

    func testTwoExperimentsOfALayerNeverOverlap() {
        let path = directory.write("main.rules", rules)
        let result = CLIHarness.run(["overlap", "paywall_b", "--rules", path, "--now", "2026-11-30", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.out.contains(#""reachable":null"#) || result.out.contains(#""overlap":null"#), result.out)
        // `trial`'s row is reached only outside `price`'s share: its witness is drawn there.
        let text = CLIHarness.run(["overlap", "paywall_b", "--rules", path, "--now", "2026-11-30"])
        XCTAssertTrue(text.out.contains("2. pro_users -> trial: reachable, e.g. "), text.out)
        XCTAssertTrue(text.out.contains("3. everyone -> paywall \"rest\": reachable, e.g. "), text.out)
    }

    func testAChangeToAPlacementMovesThoseThatAskAboutIt() {
        let old = directory.write("old.rules", rules)
        let new = directory.write("new.rules", rules.replacingOccurrences(of: "  pro_users -> flow \"onb_pro\"", with: "  beginner_users -> flow \"onb_pro\""))
        let result = CLIHarness.run(["diff", old, new, "--prove", "--now", "2026-11-30T00:00:00Z"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.outLines.contains { $0.hasPrefix("onboarding: changed") }, result.out)
        XCTAssertTrue(result.outLines.contains("paywall_a: changed (2 kinds of move), asking about `onboarding`, which changed"), result.out)
        XCTAssertTrue(result.outLines.contains { $0.hasPrefix(#"  paywall "coach" -> paywall "plain": {"#) }, result.out)
        XCTAssertTrue(result.outLines.contains { $0.hasPrefix(#"  paywall "plain" -> paywall "never": {"#) }, result.out)
        XCTAssertTrue(result.outLines.contains("paywall_b: equivalent"), result.out)
    }

    func testBucketDrawsALayer() {
        let path = directory.write("main.rules", rules)
        let result = CLIHarness.run(["bucket", "tests", "--id", "u1", "--id", "u2", "--rules", path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        for (line, id) in zip(result.outLines, ["u1", "u2"]) {
            let bucket = ReferenceDraw.bucket("tests", id)
            XCTAssertEqual(CLIHarness.member(line, "bucket")?.numberValue, Double(bucket))
            XCTAssertEqual(CLIHarness.member(line, "experiment")?.stringValue, bucket < 50 ? "price" : "trial")
        }
    }

    func testATableNamesTheDrawsAPrerequisiteDependsOn() {
        let path = directory.write("draws.rules", """
        attribute level: string one of ["pro", "amateur"]
        segment pros = level == "pro"
        segment drew_a = placement p -> flow "a"
        audience pro_users = pros
        audience drawn_a = drew_a
        placement p {
          everyone -> split "s" { 50% -> flow "a" 50% -> flow "b" }
        }
        placement q {
          drawn_a -> flow "after_a"
          pro_users -> flow "pro"
          everyone -> flow "rest"
        }
        """)
        let result = CLIHarness.run(["table", "q", "--rules", path, "--now", "2026-11-30"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.outLines.contains(#"pro                -> flow "after_a" | flow "pro"  (depends on key `profile.id`, split `s`)"#), result.out)
        XCTAssertTrue(result.outLines.contains(#"amateur | not set  -> flow "after_a" | flow "rest"  (depends on key `profile.id`, split `s`)"#), result.out)
        XCTAssertFalse(result.out.contains("draw "), result.out)
    }
}
