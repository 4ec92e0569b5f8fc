import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// The reachability analysis over generated rule sets with the experiments, keys and
/// holdout: no random profile (with an id) is decided by a row reported unreachable, and every
/// fall-through example resolves to no match.
final class AnalyzerExperimentRandomTests: XCTestCase {
    typealias World = ChangeProofExperimentRandomTests.World

    func testUnreachableRowsAreNeverReachedAndExamplesFallThrough() throws {
        let now: Int64 = 1_796_040_000_000
        var random = ChangeProofExperimentRandomTests.Generator(state: 20_261_203)
        var reported = 0, fallThroughs = 0
        for set in 0..<200 {
            var world = World(segments: (0..<4).map { _ in ChangeProofExperimentRandomTests.expression(&random) },
                              rows: (0..<random.pick([2, 3, 4])).map { _ in random.below(4) },
                              experimentKey: random.below(3), experimentWeights: (50, 50), splitKey: random.below(3),
                              everyone: random.below(3) > 0, keyedEveryone: random.below(3) == 0,
                              holdoutWeight: random.pick([0, 5, 50, 100, 100]), holdoutKey: random.below(3))
            if !world.rows.contains(0) { world.rows[0] = 0 }
            let text = world.text
            let program = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "main.rules", text: text)]).program, "set \(set): \(text)")
            let warnings = Analyzer.analyze(program)
            let rows = program.placements[0].rows
            var closed: Set<Int> = []
            for warning in warnings where warning.code == "unreachable-row" {
                let row = try XCTUnwrap(rows.firstIndex { $0.source.audience.range == warning.range }, describe(warning))
                closed.insert(row)
                reported += 1
            }
            for warning in warnings where warning.code == "placement-falls-through" {
                let message = warning.message
                let range = try XCTUnwrap(message.range(of: ", e.g. "))
                let profile = try Profile(jsonData: Data(message[range.upperBound...].utf8))
                let decision = try program.decide(placement: 0, for: profile, now: now).get()
                XCTAssertNil(decision.row, "set \(set): \(message)\n\(text)")
                fallThroughs += 1
            }
            guard !closed.isEmpty else { continue }
            for index in 0..<500 {
                let profile = ChangeProofExperimentRandomTests.randomProfile(&random, index: index)
                guard case .success(let decision) = program.decide(placement: 0, for: profile, now: now), let row = decision.row else { continue }
                XCTAssertFalse(closed.contains(row), "set \(set): \(JSONWriter.write(profile.json)) reaches row \(row + 1), reported unreachable:\n\(describe(warnings))\n\(text)")
                if closed.contains(row) { return }
            }
        }
        print("generated experiment rule sets: \(reported) rows reported unreachable, \(fallThroughs) fall-through examples")
        XCTAssertGreaterThan(reported, 20)
        XCTAssertGreaterThan(fallThroughs, 20)
    }
}
