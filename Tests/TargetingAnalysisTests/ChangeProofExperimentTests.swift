import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// `diff --prove` with experiments and the holdout: experiment variants, keys and the holdout. Every witness is
/// resolved under both rule sets and must show exactly the decision (destination, experiment
/// variant, holdout) the move names.
final class ChangeProofExperimentTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    static let rules = """
    attribute plan: string
    segment recent = profile.installed_at >= now - 30d
    audience new_users = recent

    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }

    placement onboarding_followup {
      new_users -> pricing_q4 {
        control  -> flow "flow_onb_a"
        discount -> flow "flow_onb_discount"
      }
      everyone -> flow "flow_default"
    }

    placement main_paywall {
      new_users -> paywall "pw_new"
      everyone -> paywall "pw_standard"
    }

    """

    private func program(_ text: String, file: StaticString, line: UInt) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: text)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics.filter(\.isError)), file: file, line: line)
    }

    /// The proof, after checking that every witness moves exactly as claimed under both rule sets.
    private func prove(_ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws -> ChangeProof {
        let before = try program(old, file: file, line: line), after = try program(new, file: file, line: line)
        let proof = ChangeProof.prove(old: before, new: after, now: Self.now)
        XCTAssertTrue(proof.reportsExperiments, file: file, line: line)
        for placement in proof.placements {
            for move in placement.transitions {
                let text = JSONWriter.write(move.witness)
                let profile = try Profile(jsonData: Data(text.utf8))
                XCTAssertNotNil(profile.id, "a witness names an id: \(text)", file: file, line: line)
                let from = try before.decide(placement: XCTUnwrap(before.placementIndex(named: placement.name)), for: profile, now: Self.now).get()
                let to = try after.decide(placement: XCTUnwrap(after.placementIndex(named: placement.name)), for: profile, now: Self.now).get()
                XCTAssertEqual(ChangeProof.Seen(from), move.before, "OLD of \(text)", file: file, line: line)
                XCTAssertEqual(ChangeProof.Seen(to), move.after, "NEW of \(text)", file: file, line: line)
                XCTAssertEqual(from.outcome, move.from, file: file, line: line)
                XCTAssertEqual(to.outcome, move.to, file: file, line: line)
                XCTAssertNotEqual(move.before, move.after, file: file, line: line)
            }
        }
        return proof
    }

    private func text(_ seen: ChangeProof.Seen) -> String {
        var text = seen.outcome.map(\.description) ?? "no match"
        if let experiment = seen.experiment, let variant = seen.variant { text += " (\(experiment): \(variant))" }
        if let holdout = seen.heldOutBy { text += " (held out by \(holdout))" }
        return text
    }

    /// The moves of `placement`, as `from -> to` text, after checking the verdict agrees.
    private func moves(_ old: String, _ new: String, placement: String = "onboarding_followup",
                       file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let proof = try prove(old, new, file: file, line: line)
        let found = try XCTUnwrap(proof.placements.first { $0.name == placement }, file: file, line: line)
        XCTAssertEqual(found.status, found.transitions.isEmpty ? .equivalent : .changed,
                       found.unsettled.map { "\(text($0.before)) -> \(text($0.after)): \($0.reason)" }.joined(separator: "; "), file: file, line: line)
        return found.transitions.map { "\(text($0.before)) -> \(text($0.after))" }
    }

    // MARK: - The holdout

    func testAnAddedHoldoutMovesEveryRowToEveryone() throws {
        let new = Self.rules + "holdout q4_holdout 5%\n"
        XCTAssertEqual(try moves(Self.rules, new), [
            #"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_default" (held out by q4_holdout)"#,
            #"flow "flow_onb_discount" (pricing_q4: discount) -> flow "flow_default" (held out by q4_holdout)"#,
            #"flow "flow_default" -> flow "flow_default" (held out by q4_holdout)"#,
        ])
        XCTAssertEqual(try moves(Self.rules, new, placement: "main_paywall"), [
            #"paywall "pw_new" -> paywall "pw_standard" (held out by q4_holdout)"#,
            #"paywall "pw_standard" -> paywall "pw_standard" (held out by q4_holdout)"#,
        ])
    }

    func testAnExceptedPlacementIsEquivalent() throws {
        let proof = try prove(Self.rules, Self.rules + "holdout q4_holdout 5% except main_paywall\n")
        XCTAssertEqual(proof.placements.map(\.status), [.changed, .equivalent])
    }

    func testARaisedHoldoutOnlyHoldsMoreOut() throws {
        let moves = try moves(Self.rules + "holdout q4_holdout 5%\n", Self.rules + "holdout q4_holdout 10%\n", placement: "main_paywall")
        // One draw on both sides: buckets 5–9 are held out after, and nobody comes back.
        XCTAssertEqual(moves, [
            #"paywall "pw_new" -> paywall "pw_standard" (held out by q4_holdout)"#,
            #"paywall "pw_standard" -> paywall "pw_standard" (held out by q4_holdout)"#,
        ])
    }

    func testTheSameHoldoutIsEquivalent() throws {
        let rules = Self.rules + "holdout q4_holdout 5%\n"
        XCTAssertEqual(try prove(rules, rules).placements.map(\.status), [.equivalent, .equivalent])
    }

    func testAFullHoldoutOnAnAttributeMovesOnlyProfilesWithIt() throws {
        let moves = try moves(Self.rules, Self.rules + "holdout h 100% by plan\n", placement: "main_paywall")
        XCTAssertEqual(moves, [
            #"paywall "pw_new" -> paywall "pw_standard" (held out by h)"#,
            #"paywall "pw_standard" -> paywall "pw_standard" (held out by h)"#,
        ])
    }

    // MARK: - Experiments

    func testAChangedExperimentWeightMovesOneWay() throws {
        let new = Self.rules.replacingOccurrences(of: "50% control\n  50% discount", with: "40% control\n  60% discount")
        XCTAssertNotEqual(new, Self.rules)
        // One draw on both sides: buckets 40–49 move from control to discount, none back.
        XCTAssertEqual(try moves(Self.rules, new), [#"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_onb_discount" (pricing_q4: discount)"#])
        XCTAssertEqual(try prove(Self.rules, new).placements[1].status, .equivalent)
    }

    func testAChangedVariantDestinationMovesThatVariantOnly() throws {
        let new = Self.rules.replacingOccurrences(of: #"discount -> flow "flow_onb_discount""#, with: #"discount -> flow "flow_onb_b""#)
        XCTAssertNotEqual(new, Self.rules)
        XCTAssertEqual(try moves(Self.rules, new), [#"flow "flow_onb_discount" (pricing_q4: discount) -> flow "flow_onb_b" (pricing_q4: discount)"#])
    }

    func testAMoveBetweenVariantsThatShowOneDestinationIsAChange() throws {
        let old = Self.rules.replacingOccurrences(of: #"discount -> flow "flow_onb_discount""#, with: #"discount -> flow "flow_onb_a""#)
        let new = old.replacingOccurrences(of: "50% control\n  50% discount", with: "30% control\n  70% discount")
        XCTAssertEqual(try moves(old, new), [#"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_onb_a" (pricing_q4: discount)"#])
    }

    func testARenamedExperimentDrawsAfresh() throws {
        let new = Self.rules.replacingOccurrences(of: "pricing_q4", with: "pricing_q5")
        XCTAssertEqual(Set(try moves(Self.rules, new)), [
            #"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_onb_a" (pricing_q5: control)"#,
            #"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_onb_discount" (pricing_q5: discount)"#,
            #"flow "flow_onb_discount" (pricing_q4: discount) -> flow "flow_onb_a" (pricing_q5: control)"#,
            #"flow "flow_onb_discount" (pricing_q4: discount) -> flow "flow_onb_discount" (pricing_q5: discount)"#,
        ])
    }

    func testAChangedKeyMovesProfilesWithoutTheNewKeyToTheRowsBelow() throws {
        let new = Self.rules.replacingOccurrences(of: "by profile.customer_user_id", with: "by plan")
        let found = try moves(Self.rules, new)
        // Drawn on another value: any variant to any variant, and in or out of the experiment.
        XCTAssertTrue(found.contains(#"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_onb_discount" (pricing_q4: discount)"#), "\(found)")
        XCTAssertTrue(found.contains(#"flow "flow_onb_a" (pricing_q4: control) -> flow "flow_default""#), "\(found)")
        XCTAssertTrue(found.contains(#"flow "flow_default" -> flow "flow_onb_a" (pricing_q4: control)"#), "\(found)")
    }

    func testTheSameExperimentIsEquivalent() throws {
        XCTAssertEqual(try prove(Self.rules, Self.rules).placements.map(\.status), [.equivalent, .equivalent])
    }

    // MARK: - Keys the rules pin

    private let testers = """
    segment qa = profile.customer_user_id in ["qa1", "qa2"]
    audience testers = qa
    experiment pricing_q4 by profile.customer_user_id {
      50% control
      50% discount
    }
    placement onboarding_followup {
      testers -> pricing_q4 {
        control  -> flow "flow_onb_a"
        discount -> flow "flow_onb_discount"
      }
      everyone -> flow "flow_default"
    }

    """

    func testAPinnedKeyIsDecidedByTheBucketsOfItsValues() throws {
        let before = try program(testers, file: #filePath, line: #line)
        let plan = try XCTUnwrap(before.placements[0].rows[0].split)
        let buckets = ["qa1", "qa2"].map { SplitDraw.bucket(splitID: plan.id, profileID: $0) }
        // Both testers draw `discount` (buckets 96 and 64): a 40/60 split leaves them there, so
        // nobody moves although some buckets do.
        XCTAssertEqual(buckets, [96, 64])
        let shifted = testers.replacingOccurrences(of: "50% control\n  50% discount", with: "40% control\n  60% discount")
        XCTAssertEqual(try moves(testers, shifted), [])
        // A 70/30 split (drawn `discount` first, buckets 0–29) moves both to `control`, and
        // nobody the other way.
        let flipped = testers.replacingOccurrences(of: "50% control\n  50% discount", with: "70% control\n  30% discount")
        XCTAssertEqual(try moves(testers, flipped), [#"flow "flow_onb_discount" (pricing_q4: discount) -> flow "flow_onb_a" (pricing_q4: control)"#])
    }
}
