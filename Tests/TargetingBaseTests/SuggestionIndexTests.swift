import XCTest
@testable import TargetingBase

/// The length-bucketed index makes the same choice as comparing with every name.
final class SuggestionIndexTests: XCTestCase {
    func testAgreesWithTheLinearSearch() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcde_")
        func word() -> String { String((0..<Int.random(in: 1...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! }) }
        for _ in 0..<200 {
            let names = (0..<Int.random(in: 0...40, using: &generator)).map { _ in word() }
            let index = SuggestionIndex(names)
            for _ in 0..<20 {
                let query = word()
                XCTAssertEqual(index.nearest(to: query), Suggestion.nearest(to: query, in: names), "\(query) in \(names)")
            }
        }
    }

    func testSuggestsTheTypo() {
        XCTAssertEqual(SuggestionIndex(["pros", "adults", "amateurs"]).nearest(to: "prso"), "pros")
        XCTAssertNil(SuggestionIndex(["pros"]).nearest(to: "completely_different"))
    }
}
