import XCTest
@testable import TargetingBase

/// The codes printed by `check --format json`, SARIF and the language server: lowercase words
/// joined by hyphens, each the spelling of its case's name.
final class DiagnosticCodeTests: XCTestCase {
    func testEachCodeIsItsCaseNameInLowercaseWordsJoinedByHyphens() {
        for code in DiagnosticCode.allCases {
            let words = code.rawValue.split(separator: "-", omittingEmptySubsequences: false)
            XCTAssertFalse(words.contains { $0.isEmpty || !$0.allSatisfy { $0.isLowercase || $0.isNumber } }, code.rawValue)
            let camel = words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
            XCTAssertEqual("\(code)", camel, code.rawValue)
        }
        XCTAssertGreaterThan(DiagnosticCode.allCases.count, 100)
    }

    func testADiagnosticPrintsTheCodeOfItsKind() {
        let diagnostic = Diagnostic(.warning, .unreachableRow, "row `a` can never decide", at: .unknown("r.rules"))
        XCTAssertEqual(diagnostic.code, "unreachable-row")
        XCTAssertEqual(diagnostic.kind, .unreachableRow)
    }
}
