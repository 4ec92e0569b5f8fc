import Foundation
import XCTest
@testable import TargetingReconcile

/// The chi-squared p-value against tabled critical values and against the closed forms the
/// distribution has for 1 to 4 degrees of freedom (computed here with `erfc` and `exp`).
final class IncompleteGammaTests: XCTestCase {
    private func p(_ statistic: Double, _ df: Int) -> Double { IncompleteGamma.chiSquaredPValue(statistic, degreesOfFreedom: df) }

    func testTabledCriticalValues() {
        XCTAssertEqual(p(3.841, 1), 0.05, accuracy: 1e-4)
        XCTAssertEqual(p(6.635, 1), 0.01, accuracy: 1e-4)
        XCTAssertEqual(p(10.828, 1), 0.001, accuracy: 1e-5)
        XCTAssertEqual(p(5.991, 2), 0.05, accuracy: 1e-4)
        XCTAssertEqual(p(7.815, 3), 0.05, accuracy: 1e-4)
        XCTAssertEqual(p(18.307, 10), 0.05, accuracy: 1e-4)
        XCTAssertEqual(p(30.144, 19), 0.05, accuracy: 1e-4)
    }

    func testZeroIsCertainAndLargeIsTiny() {
        for df in 1...20 { XCTAssertEqual(p(0, df), 1) }
        XCTAssertLessThan(p(200, 1), 1e-40)
        XCTAssertGreaterThanOrEqual(p(200, 1), 0)
        XCTAssertLessThan(p(500, 19), 1e-80)
        XCTAssertEqual(p(1e6, 3), 0)
    }

    func testClosedFormsOnBothSidesOfTheSwitch() {
        // The series serves x < a + 1, the continued fraction the rest: these cover both.
        for step in 1...400 {
            let x = Double(step) * 0.1
            XCTAssertEqual(p(x, 1), erfc((x / 2).squareRoot()), accuracy: 1e-13, "df 1, x \(x)")
            XCTAssertEqual(p(x, 2), exp(-x / 2), accuracy: 1e-13, "df 2, x \(x)")
            XCTAssertEqual(p(x, 3), erfc((x / 2).squareRoot()) + (2 * x / Double.pi).squareRoot() * exp(-x / 2), accuracy: 1e-13, "df 3, x \(x)")
            XCTAssertEqual(p(x, 4), exp(-x / 2) * (1 + x / 2), accuracy: 1e-13, "df 4, x \(x)")
        }
    }

    func testFallsAsTheStatisticGrows() {
        for df in [1, 2, 5, 19] {
            var previous = 1.0
            for step in 1...300 {
                let value = p(Double(step) * 0.25, df)
                XCTAssertLessThanOrEqual(value, previous, "df \(df)")
                previous = value
            }
        }
    }

    func testLogGammaMatchesFactorialsAndHalfIntegers() {
        var factorial = 1.0
        for n in 1...30 {
            XCTAssertEqual(IncompleteGamma.logGamma(Double(n)), log(factorial), accuracy: 1e-12 * max(1, log(factorial)), "Γ(\(n))")
            factorial *= Double(n)
        }
        XCTAssertEqual(IncompleteGamma.logGamma(0.5), log(Double.pi.squareRoot()), accuracy: 1e-14)
        XCTAssertEqual(IncompleteGamma.logGamma(1.5), log(Double.pi.squareRoot() / 2), accuracy: 1e-14)
        XCTAssertEqual(IncompleteGamma.logGamma(9.5), log(Double.pi.squareRoot()) + (0..<9).reduce(0.0) { $0 + log(Double($1) + 0.5) }, accuracy: 1e-12)
    }
}
