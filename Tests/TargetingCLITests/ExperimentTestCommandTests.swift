import Foundation
import XCTest
import TargetingTestSupport

/// `targeting test` with the expectations: `from EXPERIMENT.VARIANT`, `expect [not] held
/// out`, failures that name the variant and the holdout, and coverage of every variant.
final class ExperimentTestCommandTests: TemporaryDirectoryTestCase {
    /// Ids for each case, found with the reference draw.
    private struct Cast {
        var control: String       // not held out, pricing_q4 control
        var discount: String      // not held out, pricing_q4 discount
        var held: String          // held out
        var red: String           // a customer_user_id by_customer draws red
        var blue: String

        init() {
            let ids = (1...500).map { "t\($0)" }
            func first(_ wanted: (String) -> Bool) -> String { ids.first(where: wanted)! }
            func kept(_ id: String) -> Bool { ReferenceDraw.bucket("q4_holdout", id) >= 20 }
            control = first { kept($0) && ReferenceDraw.variant("pricing_q4", $0, ExperimentFixture.pricing) == "control" }
            discount = first { kept($0) && ReferenceDraw.variant("pricing_q4", $0, ExperimentFixture.pricing) == "discount" }
            held = first { !kept($0) }
            red = first { ReferenceDraw.variant("by_customer", $0, ExperimentFixture.colors) == "red" }
            blue = first { ReferenceDraw.variant("by_customer", $0, ExperimentFixture.colors) == "blue" }
        }
    }

    private let cast = Cast()

    private func test(_ name: String, id: String, customer: String? = nil, installed: String = "2026-11-20", _ expectations: [String]) -> String {
        var lines = ["test \"\(name)\" {", "  now 2026-11-29T12:00:00Z", "  given {", "    profile.id = \"\(id)\""]
        if let customer { lines.append("    profile.customer_user_id = \"\(customer)\"") }
        lines += ["    profile.installed_at = \(installed)", "  }"]
        lines += expectations.map { "  expect " + $0 }
        return (lines + ["}", ""]).joined(separator: "\n")
    }

    private var controlTest: String {
        test("control", id: cast.control, customer: cast.red, [
            #"onboarding_followup -> flow "flow_onb_a" from pricing_q4.control"#,
            #"main_paywall -> paywall "pw_standard" from pricing_q4.control"#,
            #"colors -> flow "red" from by_customer.red"#,
            "not held out",
        ])
    }

    private var discountTest: String {
        test("discount", id: cast.discount, customer: cast.blue, [
            #"onboarding_followup -> flow "flow_onb_discount" from pricing_q4.discount"#,
            #"main_paywall -> paywall "pw_discount" from pricing_q4.discount"#,
            #"colors -> flow "blue" from by_customer.blue"#,
        ])
    }

    private var heldTest: String {
        let variant = ReferenceDraw.variant("pricing_q4", cast.held, ExperimentFixture.pricing)
        return test("held out", id: cast.held, [
            "held out",
            #"onboarding_followup -> flow "flow_default" from everyone"#,
            "main_paywall -> paywall \"\(variant == "control" ? "pw_standard" : "pw_discount")\" from pricing_q4.\(variant)",
            "colors -> no match",
        ])
    }

    private var oldUserTest: String {
        test("old user", id: cast.control, installed: "2025-01-01", [
            #"onboarding_followup -> flow "flow_default" from everyone"#,
            #"main_paywall -> paywall "pw_standard" from everyone"#,
        ])
    }

    /// Writes the fixture rules and `tests` into `Rules/` and returns the directory.
    private func project(_ tests: String) -> String {
        directory.write("Rules/main.tests", tests)
        return (directory.write("Rules/main.rules", ExperimentFixture.rules) as NSString).deletingLastPathComponent
    }

    /// `PATH:LINE:3` of the first line of `tests` that contains `text`.
    private func place(_ tests: String, _ dir: String, _ text: String) -> String {
        let line = tests.components(separatedBy: "\n").firstIndex { $0.contains(text) }! + 1
        return "\(dir)/main.tests:\(line):3"
    }

    func testFromVariantAndHeldOutPass() {
        let dir = project(controlTest + discountTest + heldTest + oldUserTest)
        let result = CLIHarness.run(["test", "--rules", dir])
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertEqual(result.outLines, [
            "PASS \(dir)/main.tests:1 control",
            "PASS \(dir)/main.tests:13 discount",
            "PASS \(dir)/main.tests:24 held out",
            "PASS \(dir)/main.tests:35 old user",
            "4 passed, 0 failed",
        ])
    }

    func testAWrongVariantFailsNamingTheVariantDrawn() {
        let tests = test("wrong variant", id: cast.control, [
            #"onboarding_followup -> flow "flow_onb_discount" from pricing_q4.discount"#,
            #"onboarding_followup -> flow "flow_onb_a" from pricing_q4.discount"#,
        ])
        let dir = project(tests)
        let result = CLIHarness.run(["test", "--rules", dir])
        XCTAssertEqual(result.status, 1, result.err)
        let first = place(tests, dir, "flow_onb_discount\" from")
        let second = place(tests, dir, "flow_onb_a\" from pricing_q4.discount")
        XCTAssertEqual(result.outLines, [
            "FAIL \(dir)/main.tests:1 wrong variant",
            "  \(first): expected onboarding_followup -> flow \"flow_onb_discount\" from pricing_q4.discount, got flow \"flow_onb_a\" (audience `new_users`) (experiment pricing_q4: control)",
            "  \(second): expected onboarding_followup -> flow \"flow_onb_a\" from pricing_q4.discount, got flow \"flow_onb_a\" (audience `new_users`) (experiment pricing_q4: control)",
            "0 passed, 1 failed",
        ])
    }

    func testHeldOutExpectationsFail() {
        let tests = test("kept", id: cast.control, ["held out"])
            + test("held", id: cast.held, ["not held out", #"onboarding_followup -> flow "flow_onb_a""#])
        let dir = project(tests)
        let result = CLIHarness.run(["test", "--rules", dir])
        XCTAssertEqual(result.status, 1, result.err)
        let lines = tests.components(separatedBy: "\n")
        let heldStart = lines.firstIndex { $0 == "test \"held\" {" }! + 1
        XCTAssertEqual(result.outLines, [
            "FAIL \(dir)/main.tests:1 kept",
            "  \(place(tests, dir, "expect held out")): expected held out, got not held out by q4_holdout",
            "FAIL \(dir)/main.tests:\(heldStart) held",
            "  \(place(tests, dir, "expect not held out")): expected not held out, got held out by q4_holdout",
            "  \(place(tests, dir, "flow_onb_a\"")): expected onboarding_followup -> flow \"flow_onb_a\", got flow \"flow_default\" (audience `everyone`) (held out by q4_holdout)",
            "0 passed, 2 failed",
        ])
    }

    func testJSONFailureCarriesTheExperimentVariant() {
        let tests = test("wrong variant", id: cast.control, [#"main_paywall -> paywall "pw_discount" from pricing_q4.discount"#])
        let result = CLIHarness.run(["test", "--rules", project(tests), "--format", "json"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.outLines.count, 2)
        let failure = CLIHarness.member(result.outLines[0], "failure")
        XCTAssertEqual(failure?["experiment"]?.stringValue, "pricing_q4: control")
        XCTAssertEqual(failure?["actual"]?.stringValue, "paywall \"pw_standard\"")
        XCTAssertEqual(failure?["audience"]?.stringValue, "new_users")
        XCTAssertEqual(result.outLines[1], #"{"passed":0,"failed":1}"#)
    }

    func testCoverageCountsEachVariantOfEachExperimentRow() {
        let dir = project(controlTest + discountTest + heldTest + oldUserTest)
        let full = CLIHarness.run(["test", "--rules", dir, "--min-coverage", "100"])
        XCTAssertEqual(full.status, 0, full.out + full.err)
        XCTAssertTrue(full.outLines.contains("coverage of variants: 6 of 6 (100.0%)"), full.out)
        XCTAssertTrue(full.outLines.contains("coverage: 12 of 12 (100.0%)"), full.out)
        for variant in ["control 50% -> flow \"flow_onb_a\"", "discount 50% -> flow \"flow_onb_discount\"",
                        "control 50% -> paywall \"pw_standard\"", "discount 50% -> paywall \"pw_discount\""] {
            XCTAssertTrue(full.outLines.contains { $0.hasSuffix("experiment `pricing_q4` \(variant): yes") }, "\(variant)\n\(full.out)")
        }
        XCTAssertTrue(full.outLines.contains { $0.hasSuffix("colors row 1: experiment `by_customer` red 50% -> flow \"red\": yes") }, full.out)

        // Without the discount test, the discount and blue variants are not covered (but for the
        // paywall variant the held-out profile draws, as main_paywall is excepted).
        let heldVariant = ReferenceDraw.variant("pricing_q4", cast.held, ExperimentFixture.pricing)
        let covered = heldVariant == "discount" ? "4 of 6 (66.6%)" : "3 of 6 (50.0%)"
        let partial = CLIHarness.run(["test", "--rules", project(controlTest + heldTest + oldUserTest), "--min-coverage", "100"])
        XCTAssertEqual(partial.status, 1, partial.out + partial.err)
        XCTAssertTrue(partial.outLines.contains("coverage of variants: \(covered), below --min-coverage 100%"), partial.out)
        XCTAssertTrue(partial.outLines.contains { $0.hasSuffix("onboarding_followup row 1: experiment `pricing_q4` discount 50% -> flow \"flow_onb_discount\": no") }, partial.out)
        XCTAssertTrue(partial.outLines.contains { $0.hasSuffix("colors row 1: experiment `by_customer` blue 50% -> flow \"blue\": no") }, partial.out)
        XCTAssertTrue(partial.err.contains("below --min-coverage 100%"), partial.err)
        XCTAssertEqual(partial.outLines.last, "3 passed, 0 failed")

        // A lower bound the variants meet passes.
        let half = CLIHarness.run(["test", "--rules", project(controlTest + heldTest + oldUserTest), "--min-coverage", "50"])
        XCTAssertEqual(half.status, 0, half.out + half.err)
    }

    func testCheckReportsTestFileErrorsForExperiments() {
        let tests = test("bad names", id: cast.control, [
            #"onboarding_followup -> flow "flow_onb_a" from pricing_q5.control"#,
            #"colors -> flow "red" from pricing_q4.control"#,
        ])
        let dir = project(tests)
        let result = CLIHarness.run(["check", dir])
        XCTAssertEqual(result.status, 1, result.out + result.err)
        let all = result.out + result.err
        XCTAssertTrue(all.contains("unknown experiment `pricing_q5`"), all)
        XCTAssertTrue(all.contains("did you mean `pricing_q4`?"), all)
        XCTAssertTrue(all.contains("no row of placement `colors` uses experiment `pricing_q4`"), all)
    }
}
