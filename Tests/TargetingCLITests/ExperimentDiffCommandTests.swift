import Foundation
import XCTest
import TargetingBase
import TargetingTestSupport

/// `targeting diff OLD NEW --profiles` when only an experiment's weights change (experiments and the holdout: a
/// move between two variants is a change).
final class ExperimentDiffCommandTests: TemporaryDirectoryTestCase {
    private func rules(control: Int, discount: Int, discountFlow: String = "flow_onb_discount") -> String {
        """
        segment recent = profile.installed_at >= now - 30d
        audience new_users = recent
        experiment pricing_q4 {
          \(control)% control
          \(discount)% discount
        }
        placement onboarding_followup {
          new_users -> pricing_q4 {
            control  -> flow "flow_onb_a"
            discount -> flow "\(discountFlow)"
          }
          everyone -> flow "flow_default"
        }

        """
    }

    private let ids = (1...200).map { "u\($0)" }

    private func corpus() -> String {
        directory.write("profiles.jsonl", ids.map { "{\"id\":\"\($0)\",\"installed_at\":\"2026-11-20T00:00:00Z\"}" }.joined(separator: "\n") + "\n")
    }

    /// The ids the reference draw moves from control to discount when 50/50 becomes 20/80.
    private var moved: [String] {
        ids.filter {
            ReferenceDraw.variant("pricing_q4", $0, [(50, "control"), (50, "discount")]) == "control"
                && ReferenceDraw.variant("pricing_q4", $0, [(20, "control"), (80, "discount")]) == "discount"
        }
    }

    private func diff(old: String, new: String, _ arguments: [String]) -> CLIResult {
        CLIHarness.run(["diff", directory.write("old/main.rules", old), directory.write("new/main.rules", new),
                        "--profiles", corpus(), "--now", "2026-11-29T12:00:00Z"] + arguments)
    }

    func testProfilesMovingBetweenVariantsAreChanges() {
        let moved = self.moved
        XCTAssertGreaterThan(moved.count, 10)
        // Nobody moves the other way: 20/80 only takes buckets 20–49 from control.
        XCTAssertTrue(ids.allSatisfy {
            ReferenceDraw.variant("pricing_q4", $0, [(50, "control"), (50, "discount")]) == "control"
                || ReferenceDraw.variant("pricing_q4", $0, [(20, "control"), (80, "discount")]) == "discount"
        })
        let controlBefore = ids.filter { ReferenceDraw.bucket("pricing_q4", $0) < 50 }.count
        let controlAfter = ids.filter { ReferenceDraw.bucket("pricing_q4", $0) < 20 }.count
        func share(_ count: Int) -> String { "\(count * 1000 / 200 / 10).\(count * 1000 / 200 % 10)%" }

        let result = diff(old: rules(control: 50, discount: 50), new: rules(control: 20, discount: 80), ["--fail-on-change"])
        XCTAssertEqual(result.status, 1, result.err)
        let control = "flow \"flow_onb_a\" (audience `new_users`) (experiment pricing_q4: control)"
        let discount = "flow \"flow_onb_discount\" (audience `new_users`) (experiment pricing_q4: discount)"
        // Sizes come largest first (by the larger of before and after).
        var sizes = [(control, controlBefore, controlAfter), (discount, 200 - controlBefore, 200 - controlAfter)]
        sizes.sort { max($0.1, $0.2) > max($1.1, $1.2) }
        XCTAssertEqual(result.outLines, [
            "now: 2026-11-29T12:00:00Z",
            "placement onboarding_followup: \(moved.count) of 200 profiles (\(share(moved.count))) change audience, destination or variant",
            "  \(control) -> \(discount)  \(moved.count)  e.g. " + moved.prefix(3).joined(separator: ", "),
        ] + sizes.map { "  \($0.0): \($0.1) (\(share($0.1))) before, \($0.2) (\(share($0.2))) after" })
    }

    func testJSONTransitionsNameTheVariants() {
        let result = diff(old: rules(control: 50, discount: 50), new: rules(control: 20, discount: 80), ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        let report = CLIHarness.member(result.out, "placements")
        guard case .array(let placements)? = report, case .array(let transitions)? = placements.first?["transitions"] else {
            return XCTFail("no transitions: \(result.out)")
        }
        XCTAssertEqual(placements.first?["changed"], .number(Double(moved.count)))
        XCTAssertEqual(transitions.count, 1)
        XCTAssertEqual(transitions.first?["from"]?["variant"], .string("control"))
        XCTAssertEqual(transitions.first?["to"]?["variant"], .string("discount"))
        XCTAssertEqual(transitions.first?["to"]?["experiment"], .string("pricing_q4"))
        XCTAssertEqual(transitions.first?["count"], .number(Double(moved.count)))
    }

    func testVariantsSharingADestinationChangeNothingByDestination() {
        // Both variants show one flow: moving between them is a change of variant only.
        let old = rules(control: 50, discount: 50, discountFlow: "flow_onb_a")
        let new = rules(control: 20, discount: 80, discountFlow: "flow_onb_a")
        let byDestination = diff(old: old, new: new, ["--by", "destination", "--fail-on-change"])
        XCTAssertEqual(byDestination.status, 0, byDestination.out + byDestination.err)
        XCTAssertEqual(byDestination.outLines, ["now: 2026-11-29T12:00:00Z", "placement onboarding_followup: no change (200 profiles)"])
        // By row (the default) the move between variants is still a change, told apart in JSON.
        let byRow = diff(old: old, new: new, ["--format", "json"])
        XCTAssertEqual(CLIHarness.member(byRow.out, "changed"), .bool(true))
        guard case .array(let placements)? = CLIHarness.member(byRow.out, "placements"),
              case .array(let transitions)? = placements.first?["transitions"], let transition = transitions.first else {
            return XCTFail("no transitions: \(byRow.out)")
        }
        XCTAssertNotEqual(transition["from"], transition["to"])
        XCTAssertEqual(transition["from"]?["id"], transition["to"]?["id"])
    }
}
