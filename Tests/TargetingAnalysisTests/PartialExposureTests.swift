import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingEngine
@testable import TargetingProfiles

/// An experiment across placements: `check` warns when some profile enters it in one placement
/// and an earlier row of another decides for it, with a witness that does both.
final class PartialExposureTests: XCTestCase {
    private func rules(_ paywallFirstRow: String) -> String {
        """
        segment exam = goal == "exam"
        segment learner = level is set
        audience exam_takers = exam
        audience learners = learner
        experiment pricing by profile.customer_user_id { 50% a 50% b }
        placement onboarding_end {
          \(paywallFirstRow)
          learners -> pricing { a -> flow "f_a" b -> flow "f_b" }
          everyone -> flow "f"
        }
        placement main_paywall {
          learners -> pricing { a -> paywall "p_a" b -> paywall "p_b" }
          everyone -> paywall "p"
        }
        """
    }

    func testAnEarlierRowOfOnePlacementIsWarnedWithAWitnessThatDoesBoth() throws {
        let marked = MarkedSource(rules("exam_takers -> flow \"f_exam\"").replacingOccurrences(of: "  learners -> pricing { a -> flow", with: "  1️⃣learners -> pricing { a -> flow"))
        let found = diagnostics(marked.text, file: "main.rules")
        let warning = try XCTUnwrap(assertDiagnostic(in: found, severity: .warning, code: "partial-exposure",
                                                     messageContains: "some profiles enter experiment `pricing` in `main_paywall` but not in `onboarding_end`, where the earlier row `exam_takers` decides for them",
                                                     at: marked.position()))
        XCTAssertEqual(found.filter { $0.code == "partial-exposure" }.count, 1, describe(found))
        // The witness does what the warning says.
        let program = checkedProgram(marked.text)
        let json = try XCTUnwrap(warning.message.range(of: "e.g. ").map { String(warning.message[$0.upperBound...]) })
        let profile = try ProfileReader.read(Array(json.utf8)).get()
        let now = try XCTUnwrap(Timestamp.parse("2026-11-29T12:00:00Z"))
        let paywall = try program.decide(placement: try XCTUnwrap(program.placementIndex(named: "main_paywall")), for: profile, now: now).get()
        let onboarding = try program.decide(placement: try XCTUnwrap(program.placementIndex(named: "onboarding_end")), for: profile, now: now).get()
        XCTAssertEqual(paywall.experiment, "pricing", json)
        XCTAssertEqual(onboarding.audience, "exam_takers", json)
    }

    func testTheSameAudienceAndNoEarlierRowTakingItIsQuiet() {
        let same = diagnostics(rules(""), file: "main.rules")
        XCTAssertFalse(same.contains { $0.code == "partial-exposure" }, describe(same))
        // An earlier row no learner reaches: quiet too.
        let disjoint = rules("exam_takers -> flow \"f_exam\"").replacingOccurrences(of: "segment exam = goal == \"exam\"", with: "segment exam = goal == \"exam\" and level is not set")
        let found = diagnostics(disjoint, file: "main.rules")
        XCTAssertFalse(found.contains { $0.code == "partial-exposure" }, describe(found))
    }
}
