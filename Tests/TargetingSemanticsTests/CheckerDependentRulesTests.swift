import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase

/// The checker's rules for rules that depend on rules: prerequisites name a placement and
/// outcomes it can give, cycles through placements print their path, layers hold declared
/// experiments once each within 100 %, and counts over several placements range to 100 each.
final class CheckerDependentRulesTests: XCTestCase {
    /// Two placements and an experiment the cases ask about, after the segment under test `s`.
    private let rest = """

    attribute level: string
    segment pro = level == "pro"
    audience a = s
    audience pros = pro
    experiment pricing { 50% control 50% discount }
    experiment trial { 50% short 50% long }
    placement onboarding {
      pros -> flow "onb_pro"
      everyone -> flow "onb_default"
    }
    placement main_paywall {
      pros -> pricing { control -> paywall "p_control" discount -> paywall "p_discount" }
      pros -> paywall "capped"
    }
    placement asking {
      a -> flow "asked"
    }
    placement other_paywall {
      everyone -> trial { short -> paywall "short" long -> paywall "long" }
    }
    """

    private func errors(_ text: String) -> [Diagnostic] { diagnostics(text).filter(\.isError) }

    private func assertError(_ segment: String, code: String, messageContains: String, help: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        let found = assertDiagnostic(segment + rest, severity: .error, code: code, messageContains: messageContains, file: file, line: line)
        if let help { XCTAssertEqual(found?.help, help, file: file, line: line) }
        let all = errors(MarkedSource(segment + rest).text)
        XCTAssertEqual(all.count, 1, describe(all), file: file, line: line)
    }

    func testEveryFormOfAPrerequisiteChecks() {
        for segment in ["placement onboarding -> flow \"onb_pro\"", "placement main_paywall -> paywall \"capped\"",
                        "placement main_paywall -> no match", "placement main_paywall -> pricing.discount",
                        "placement main_paywall -> [pricing.control, no match]", "not placement onboarding -> [flow \"onb_pro\", flow \"onb_default\"]",
                        "placement other_paywall -> [trial.short, paywall \"long\"] or level == \"x\""] {
            let found = errors("segment s = " + segment + rest)
            XCTAssertEqual(found, [], segment + "\n" + describe(found))
        }
    }

    func testAnUnknownPlacementSuggestsTheNearest() {
        assertError("segment s = placement 1️⃣onboardin -> flow \"onb_pro\"", code: "unknown-placement", messageContains: "unknown placement `onboardin`",
                    help: "did you mean `onboarding`?")
        assertError("segment s = placement 1️⃣pro -> flow \"onb_pro\"", code: "wrong-kind", messageContains: "`pro` is a segment, not a placement")
    }

    func testAnOutcomeThePlacementNeverGivesIsAnError() {
        assertError("segment s = placement onboarding -> 1️⃣flow \"onb_pr\"", code: "outcome-never-given",
                    messageContains: "placement `onboarding` never gives `flow \"onb_pr\"`", help: "did you mean `flow \"onb_pro\"`?")
        assertError("segment s = placement onboarding -> 1️⃣nothing", code: "outcome-never-given", messageContains: "never gives `nothing`")
        assertError("segment s = placement onboarding -> 1️⃣no match", code: "outcome-never-given", messageContains: "never gives `no match`")
        assertError("segment s = placement onboarding -> [flow \"onb_pro\", 1️⃣paywall \"onb_pro\"]", code: "outcome-never-given",
                    messageContains: "never gives `paywall \"onb_pro\"`")
    }

    func testAVariantMustBeOneTheyDraw() {
        assertError("segment s = placement main_paywall -> pricing.1️⃣discont", code: "unknown-variant",
                    messageContains: "experiment `pricing` has no variant `discont`", help: "did you mean `discount`?")
        assertError("segment s = placement main_paywall -> 1️⃣pricng.discount", code: "unknown-experiment", messageContains: "unknown experiment `pricng`")
        assertError("segment s = placement onboarding -> 1️⃣pricing.discount", code: "experiment-not-drawn",
                    messageContains: "placement `onboarding` never draws experiment `pricing`")
    }

    func testARepeatedOutcomeIsAnError() {
        assertError("segment s = placement main_paywall -> [no match, 1️⃣no match]", code: "duplicate-value", messageContains: "`no match` is already listed")
    }

    func testAPrerequisiteInAnAudienceIsAnError() {
        let text = "segment s = pro" + rest + "\naudience b = 1️⃣placement onboarding -> flow \"onb_pro\"\n"
        assertDiagnostic(text, severity: .error, code: "prerequisite-in-audience", messageContains: "an audience combines segments only")
    }

    func testACycleThroughPlacementsPrintsItsPath() {
        // `asking`'s row uses audience `a`, whose segment `s` asks about `asking` itself.
        let found = assertDiagnostic("segment s = placement 1️⃣asking -> flow \"asked\"" + rest, severity: .error, code: "cycle",
                                     messageContains: "placement `asking` depends on itself")
        XCTAssertEqual(found?.help, "cycle: placement `asking` -> audience `a` -> segment `s` -> placement `asking`")
        // Through two placements and a chain of segments.
        let two = """
        segment s1 = placement q -> flow "q"
        segment s2 = s1
        segment s3 = placement p -> flow "p"
        audience a1 = s2
        audience a3 = s3
        placement p {
          a1 -> flow "p"
          everyone -> flow "x"
        }
        placement q {
          a3 -> flow "q"
          everyone -> flow "y"
        }
        """
        let cycles = errors(two).filter { $0.code == "cycle" }
        XCTAssertEqual(cycles.count, 1, describe(cycles))
        XCTAssertEqual(cycles.first?.help,
                       "cycle: placement `p` -> audience `a1` -> segment `s2` -> segment `s1` -> placement `q` -> audience `a3` -> segment `s3` -> placement `p`")
    }

    func testLayers() {
        let layered = "segment s = pro" + rest
        XCTAssertEqual(errors(layered + "\nlayer l { 40% pricing 60% trial }\n"), [])
        XCTAssertEqual(errors(layered + "\nlayer l by profile.customer_user_id { 100% pricing }\n"), [])
        assertDiagnostic(layered + "\nlayer 1️⃣l { 60% pricing 50% trial }\n", severity: .error, code: "layer-weights-sum",
                         messageContains: "add up to 110%, more than 100%")
        assertDiagnostic(layered + "\nlayer l { 40% pricing }\nlayer m { 40% 1️⃣pricing }\n", severity: .error, code: "experiment-in-two-layers",
                         messageContains: "experiment `pricing` is already in a layer")
        assertDiagnostic(layered + "\nlayer l { 40% 1️⃣pricin }\n", severity: .error, code: "unknown-experiment", messageContains: "unknown experiment `pricin`")
        assertDiagnostic(layered + "\nlayer l { 1️⃣0% pricing }\n", severity: .error, code: "split-weight", messageContains: "invalid weight `0%`")
        assertDiagnostic(layered + "\nlayer 1️⃣l { }\n", severity: .error, code: "layer-size", messageContains: "from 1 to 20 experiments, not 0")
        assertDiagnostic(layered + "\nlayer 1️⃣pricing { 40% trial }\n", severity: .error, code: "duplicate-name", messageContains: "`pricing` is already declared")
        // `layer` stays a name everywhere but at the start of a declaration.
        XCTAssertEqual(errors("attribute layer: string\nsegment layer2 = layer == \"x\"\naudience b = layer2\nplacement layer { b -> flow \"x\" }\n"), [])
    }

    func testACountOverSeveralPlacementsRangesToAHundredEach() {
        for segment in ["shown [main_paywall, onboarding] in 24h >= 2", "shown [main_paywall, onboarding, other_paywall] in 7d < 300",
                        "last shown [main_paywall, onboarding] <= now - 3d", "shown [main_paywall] == 1"] {
            let found = errors("segment s = " + segment + rest)
            XCTAssertEqual(found, [], segment + "\n" + describe(found))
        }
        assertError("segment s = shown [main_paywall, onboarding] in 24h >= 1️⃣201", code: "shown-count",
                    messageContains: "count `201` is not a whole number from 0 to 200")
        assertError("segment s = shown [main_paywall, 1️⃣main_paywall] in 24h >= 2", code: "duplicate-name",
                    messageContains: "placement `main_paywall` is already listed")
        assertError("segment s = shown [main_paywall, 1️⃣onboardin] >= 2", code: "unknown-placement", messageContains: "unknown placement `onboardin`")
    }
}
