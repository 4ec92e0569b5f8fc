import XCTest
@testable import TargetingBase

/// `MatchPattern.shortestMatch()`: the shortest value a pattern accepts, the example the
/// language server shows on hover.
final class PatternExampleTests: XCTestCase {
    private func pattern(_ source: String, ignoringCase: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> MatchPattern? {
        switch MatchPattern.compile(source, ignoringCase: ignoringCase) {
        case .success(let pattern): return pattern
        case .failure(let error):
            XCTFail("`\(source)` does not compile: \(error.message)", file: file, line: line)
            return nil
        }
    }

    /// The example of `source`, and that the pattern accepts it (on the DFA and on the NFA).
    private func assertExample(_ source: String, ignoringCase: Bool = false, _ expected: String?,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let pattern = pattern(source, ignoringCase: ignoringCase, file: file, line: line) else { return }
        let example = pattern.shortestMatch()
        XCTAssertEqual(example, expected, "example of /\(source)/", file: file, line: line)
        // A budget of one state leaves every pattern but the one-state ones to the NFA.
        let nfaOnly = PatternAutomaton(pattern.node, stateBudget: 1)
        XCTAssertEqual(nfaOnly.shortestMatch(caseStable: ignoringCase), expected, "NFA example of /\(source)/", file: file, line: line)
        if let example { XCTAssertTrue(pattern.matches(example), "/\(source)/ rejects its example \(example.debugDescription)", file: file, line: line) }
    }

    func testLiteralsAndCountsGiveTheirShortestText() {
        assertExample("abc", "abc")
        assertExample("BF-\\d{4}", "BF-0000")
        assertExample("(pro|plus)_(monthly|annual)(_v[0-9]+)?", "pro_annual")
        assertExample("a*", "")
        assertExample("x+y{2,5}", "xyy")
    }

    func testClassesReadAsALetterWhereTheyHoldOne() {
        assertExample("[a-z0-9._-]+@(corp|staff)\\.example\\.com", "a@corp.example.com")
        assertExample("\\w", "a")
        assertExample(".", "a")
        assertExample("[^a-z]", "0")
        assertExample("[._-]", "-")
    }

    func testIgnoringCaseGivesAValueThatMatchesAsWritten() {
        assertExample("BF-\\d{4}", ignoringCase: true, "bf-0000")
        // `[^a]` under `ignoring case` holds `A`, whose lowercase it rejects.
        assertExample("[^a]", ignoringCase: true, "b")
        assertExample("[^a-z0-9]", ignoringCase: true, "-")
        assertExample("Σ", ignoringCase: true, "ς")
    }

    func testALanguageWithoutValuesHasNoExample() {
        // No pattern that compiles is empty; an empty set stands for one that did not compile.
        XCTAssertNil(MatchPattern.nothing(written: "(", ignoringCase: false).shortestMatch())
        let empty = PatternNode.sequence([.set(ScalarSet("a")), .set(ScalarSet()), .set(ScalarSet("b"))])
        XCTAssertNil(PatternAutomaton(empty).shortestMatch())
        XCTAssertNil(PatternAutomaton(empty, stateBudget: 1).shortestMatch())
    }

    func testAPatternOverTheDFABudgetStillHasAnExample() throws {
        let source = "(a|b)*a(a|b){12}"
        let pattern = try XCTUnwrap(self.pattern(source))
        let small = PatternAutomaton(pattern.node, stateBudget: 64)
        XCTAssertNil(small.dfa)
        XCTAssertEqual(small.shortestMatch(), "aaaaaaaaaaaaa")
        XCTAssertEqual(pattern.shortestMatch(), "aaaaaaaaaaaaa")
    }
}
