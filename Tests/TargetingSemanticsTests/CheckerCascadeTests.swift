import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingSemantics
@testable import TargetingSyntax

/// A declaration that failed to parse still declares its name: one mistake, one diagnostic.
final class CheckerCascadeTests: XCTestCase {
    /// Asserts that the only diagnostic of `marked` is one syntax error at the marker.
    private func assertOnlySyntaxError(_ marked: String, code: String = "syntax", messageContains: String = "expected",
                                       file: StaticString = #filePath, line: UInt = #line) {
        let source = MarkedSource(marked)
        let found = diagnostics(source.text)
        XCTAssertEqual(found.count, 1, describe(found), file: file, line: line)
        assertDiagnostic(in: found, severity: .error, code: code, messageContains: messageContains, at: source.position(), file: file, line: line)
    }

    func testBrokenSegmentStillDeclaresItsName() {
        assertOnlySyntaxError("""
        attribute experience: string one of ["pro"]
        segment pros = experience ==
        1️⃣segment adults = profile.age >= 18
        audience pro_adults = pros and adults
        placement p {
          pro_adults -> flow "f"
          everyone -> flow "d"
        }
        """)
    }

    func testBrokenAudienceStillDeclaresItsName() {
        assertOnlySyntaxError("""
        segment adults = profile.age >= 18
        audience grown = adults and 1️⃣)
        placement p {
          grown -> flow "f"
          everyone -> flow "d"
        }
        """)
    }

    func testBrokenAttributeStillDeclaresTheKey() {
        assertOnlySyntaxError("""
        attribute level: 1️⃣numbr
        segment high = level >= 3
        audience a = high
        placement p {
          a -> flow "f"
          everyone -> flow "d"
        }
        """, code: "unknown-type", messageContains: "unknown type `numbr`")
    }

    func testNamesOnlyTheBrokenTextUsesAreNotCalledUnused() {
        // `adults` is used only by the broken audience: no "never used" warning for it.
        let found = diagnostics("segment adults = profile.age >= 18\naudience grown = adults and and\n")
        XCTAssertEqual(found.map(\.code), ["syntax"], describe(found))
    }

    func testAnUnknownNameIsStillReportedBesideABrokenDeclaration() {
        let found = diagnostics("segment a = x ==\naudience b = nope\n")
        XCTAssertEqual(found.filter(\.isError).map(\.code), ["syntax", "unknown-segment"], describe(found))
    }

    func testNoCheckedRulesWhenAFileHasSyntaxErrors() {
        let (file, parseDiagnostics) = Parser.parseRules(SourceFile(path: "a.rules", text: "segment a = x ==\n"))
        XCTAssertTrue(file.hasSyntaxErrors)
        XCTAssertFalse(parseDiagnostics.isEmpty)
        XCTAssertEqual(file.unparsed.map(\.name), ["a"])
        let (rules, checkDiagnostics) = Checker.check([file])
        XCTAssertNil(rules)
        XCTAssertEqual(checkDiagnostics, [])
        XCTAssertNil(LoadedRules(sources: [SourceFile(path: "a.rules", text: "segment a = x ==\n")]).program)
    }

    func testNoCheckedRulesWhenTheCheckerFindsErrors() {
        let (file, _) = Parser.parseRules(SourceFile(path: "a.rules", text: "audience a = nope\n"))
        let (rules, found) = Checker.check([file])
        XCTAssertNil(rules)
        XCTAssertTrue(found.contains(where: \.isError))
        let (clean, _) = Parser.parseRules(SourceFile(path: "b.rules", text: "segment s = x == 1\naudience a = s\n"))
        XCTAssertNotNil(Checker.check([clean]).0)
    }
}
