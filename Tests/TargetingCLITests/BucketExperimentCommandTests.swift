import Foundation
import XCTest
import TargetingBase
import TargetingTestSupport

/// `targeting bucket NAME --id VALUE` for an experiment and for the holdout: the
/// bucket of `"<name>-<value>"` and the variant, or whether it is held out.
final class BucketExperimentCommandTests: TemporaryDirectoryTestCase {
    private func bucket(_ arguments: [String]) -> CLIResult {
        CLIHarness.run(["bucket", "--rules", directory.write("rules/main.rules", ExperimentFixture.rules)] + arguments)
    }

    private let values = ["u1", "u2", "u3", "u4", "u5", "u6", "jos\u{E9}", "c-42"]

    func testExperimentText() {
        let result = bucket(["pricing_q4"] + values.flatMap { ["--id", $0] })
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, values.map { value in
            "\(value) pricing_q4: bucket \(ReferenceDraw.bucket("pricing_q4", value)) -> \(ReferenceDraw.variant("pricing_q4", value, ExperimentFixture.pricing))"
        })
        XCTAssertEqual(result.err, "")
    }

    func testExperimentJSONNamesTheKey() {
        let result = bucket(["by_customer", "--format", "json"] + values.flatMap { ["--id", $0] })
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, values.map { value in
            "{\"experiment\":\"by_customer\",\"key\":\"profile.customer_user_id\",\"value\":\"\(value)\",\"bucket\":\(ReferenceDraw.bucket("by_customer", value)),\"variant\":\"\(ReferenceDraw.variant("by_customer", value, ExperimentFixture.colors))\"}"
        })
        let byID = bucket(["pricing_q4", "--format", "json", "--id", "u1"])
        XCTAssertEqual(CLIHarness.member(byID.out, "key"), .string("profile.id"))
    }

    func testHoldoutTextAndJSON() {
        let text = bucket(["q4_holdout"] + values.flatMap { ["--id", $0] })
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertEqual(text.outLines, values.map { value in
            let bucket = ReferenceDraw.bucket("q4_holdout", value)
            return "\(value) q4_holdout: bucket \(bucket) -> " + (bucket < 20 ? "held out (< 20)" : "not held out")
        })
        let json = bucket(["q4_holdout", "--format", "json"] + values.flatMap { ["--id", $0] })
        XCTAssertEqual(json.status, 0, json.err)
        XCTAssertEqual(json.outLines, values.map { value in
            let bucket = ReferenceDraw.bucket("q4_holdout", value)
            return "{\"holdout\":\"q4_holdout\",\"key\":\"profile.id\",\"value\":\"\(value)\",\"bucket\":\(bucket),\"held_out\":\(bucket < 20)}"
        })
        // Both answers occur among a few hundred ids.
        let many = (0..<300).map { "id\($0)" }
        XCTAssertTrue(many.contains { ReferenceDraw.bucket("q4_holdout", $0) < 20 })
        XCTAssertTrue(many.contains { ReferenceDraw.bucket("q4_holdout", $0) >= 20 })
        let all = bucket(["q4_holdout"] + many.flatMap { ["--id", $0] })
        XCTAssertEqual(all.outLines.filter { $0.hasSuffix("held out (< 20)") }.count, many.filter { ReferenceDraw.bucket("q4_holdout", $0) < 20 }.count)
    }

    func testUnknownNameSuggestsExperimentsAndTheHoldout() {
        let experiment = bucket(["pricing_q5", "--id", "u1"])
        XCTAssertEqual(experiment.status, 2)
        XCTAssertEqual(experiment.out, "")
        XCTAssertTrue(experiment.err.contains("did you mean `pricing_q4`?"), experiment.err)
        let holdout = bucket(["q4_holdot", "--id", "u1"])
        XCTAssertEqual(holdout.status, 2)
        XCTAssertTrue(holdout.err.contains("did you mean `q4_holdout`?"), holdout.err)
    }
}
