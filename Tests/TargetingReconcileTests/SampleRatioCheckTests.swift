import Foundation
import XCTest
@testable import TargetingReconcile

final class SampleRatioCheckTests: XCTestCase {
    private func check(_ variants: [(String, Int, Int)], undeclared: [(String, Int)] = []) -> SampleRatioCheck {
        SampleRatioCheck(experiment: "e", variants: variants.map { .init(name: $0.0, weight: $0.1, assigned: $0.2, isDeclared: true) }
            + undeclared.map { .init(name: $0.0, weight: 0, assigned: $0.1, isDeclared: false) })
    }

    func testCountsAsWeighedGiveNothingToFlag() {
        let even = check([("a", 50, 40), ("b", 50, 40)])
        XCTAssertEqual(even.statistic, 0)
        XCTAssertEqual(even.pValue, 1)
        XCTAssertFalse(even.isFlagged)
        let uneven = check([("a", 10, 10), ("b", 30, 30), ("c", 60, 60)])
        XCTAssertEqual(uneven.statistic ?? -1, 0, accuracy: 1e-12)
        XCTAssertEqual(uneven.degreesOfFreedom, 2)
    }

    func testPearsonsStatisticAndItsPValue() {
        // 60 and 40 where 50 and 50 are expected: (10² / 50) · 2 = 4, df 1.
        let skewed = check([("a", 50, 60), ("b", 50, 40)])
        XCTAssertEqual(skewed.statistic ?? -1, 4, accuracy: 1e-12)
        XCTAssertEqual(skewed.pValue ?? -1, erfc(2.0.squareRoot()), accuracy: 1e-12)
        XCTAssertFalse(skewed.isFlagged)
        // 30 / 70 against 20 / 80 over 100: 10²/20 + 10²/80 = 6.25.
        let weighted = check([("a", 20, 30), ("b", 80, 70)])
        XCTAssertEqual(weighted.statistic ?? -1, 6.25, accuracy: 1e-12)
    }

    func testARatioFarOffIsFlagged() {
        let off = check([("a", 50, 600), ("b", 50, 400)])
        XCTAssertLessThan(off.pValue ?? 1, SampleRatioCheck.threshold)
        XCTAssertTrue(off.isFlagged)
    }

    func testNoProfileAssignedHasNoPValue() {
        let none = check([("a", 50, 0), ("b", 50, 0)])
        XCTAssertNil(none.statistic)
        XCTAssertNil(none.pValue)
        XCTAssertFalse(none.isFlagged)
    }

    func testUndeclaredVariantsTakeNoPartInTheTest() {
        let with = check([("a", 50, 60), ("b", 50, 40)], undeclared: [("c", 500)])
        XCTAssertEqual(with.statistic ?? -1, 4, accuracy: 1e-12)
        XCTAssertEqual(with.degreesOfFreedom, 1)
        XCTAssertEqual(with.testedProfiles, 100)
        XCTAssertNil(check([("a", 50, 0), ("b", 50, 0)], undeclared: [("c", 3)]).pValue)
    }

    func testTheExpectedShareIsTheWeightOverTheTestedWeights() {
        // Weights that do not add up to 100: the shares are taken over their sum.
        let uneven = check([("a", 10, 3), ("b", 30, 0)], undeclared: [("rogue", 5)])
        XCTAssertEqual(uneven.testedWeight, 40)
        XCTAssertEqual(uneven.variants.map { uneven.expectedFraction($0) }, [0.25, 0.75, nil])
        // The statistic expects those shares of the tested profiles: 3 against 0.75 and 0 against 2.25.
        XCTAssertEqual(uneven.statistic ?? -1, 2.25 * 2.25 / 0.75 + 2.25 * 2.25 / 2.25, accuracy: 1e-12)
        let even = check([("a", 50, 0), ("b", 50, 0)])
        XCTAssertEqual(even.variants.map { even.expectedFraction($0) }, [0.5, 0.5])
        XCTAssertNil(even.statistic)
    }
}
