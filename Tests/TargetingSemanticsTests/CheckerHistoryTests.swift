import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase

/// The checker's rules for caps (`shown PLACEMENT [in DURATION] OP N`, `last shown PLACEMENT`)
/// and sticky experiments, each diagnostic at the first character of the offending token.
final class CheckerHistoryTests: XCTestCase {
    /// A placement the cases cap, after the segment under test (named `s`).
    private let rest = """

    audience a = s
    placement main_paywall {
      a -> paywall "capped"
      everyone -> paywall "default"
    }
    """

    private func errors(_ text: String) -> [Diagnostic] { diagnostics(text).filter(\.isError) }

    /// Asserts the single error of `segment` (plus `rest`) at its marker.
    private func assertError(_ segment: String, code: String, messageContains: String, help: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        let found = assertDiagnostic(segment + rest, severity: .error, code: code, messageContains: messageContains, file: file, line: line)
        if let help { XCTAssertEqual(found?.help, help, file: file, line: line) }
        let all = errors(MarkedSource(segment + rest).text)
        XCTAssertEqual(all.count, 1, describe(all), file: file, line: line)
    }

    private func assertNoErrors(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = errors(text)
        XCTAssertEqual(found, [], describe(found), file: file, line: line)
    }

    func testEveryFormOfTheTwoSubjectsChecks() {
        for segment in ["shown main_paywall in 7d < 3", "shown main_paywall == 0", "shown main_paywall in 30m >= 100",
                        "shown main_paywall in 400d != 1", "shown main_paywall in 1m > 0", "shown main_paywall <= 5",
                        "last shown main_paywall <= now - 3d", "last shown main_paywall is set", "last shown main_paywall is not set",
                        "last shown main_paywall between 2026-01-01 and now", "last shown main_paywall == 2026-11-30T09:00:00Z",
                        "not (shown main_paywall in 12h > 2)"] {
            assertNoErrors("segment s = " + segment + rest)
        }
        // No warning either: a history subject is not an undeclared attribute.
        XCTAssertEqual(diagnostics("segment s = shown main_paywall in 7d < 3" + rest).filter { $0.severity == .warning }, [])
    }

    func testAttributesNamedShownAndLastKeepWorking() {
        let found = diagnostics("segment s = shown == \"x\" and last is set and shown in [\"a\"] and last > 3" + rest)
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
        XCTAssertEqual(Set(found.filter { $0.code == "undeclared-attribute" }.map(\.message)).count, 2, describe(found))
    }

    func testAnUnknownPlacementIsReportedAtItsNameWithDidYouMean() {
        assertError("segment s = shown 1️⃣main_paywal in 7d < 3", code: "unknown-placement", messageContains: "unknown placement `main_paywal`",
                    help: "did you mean `main_paywall`?")
        assertError("segment s = last shown 1️⃣mainpaywall is set", code: "unknown-placement", messageContains: "`mainpaywall`")
    }

    func testAPlacementMayCapItself() {
        assertNoErrors("segment s = not (shown main_paywall in 1d >= 1)" + rest)
    }

    func testAWindowOutsideOneMinuteTo400DaysIsAnErrorAtTheDuration() {
        for window in ["59s", "0m", "401d", "9601h"] {
            assertError("segment s = shown main_paywall in 1️⃣\(window) < 3", code: "shown-window", messageContains: "window `\(window)`")
        }
        assertNoErrors("segment s = shown main_paywall in 60s < 3 and shown main_paywall in 9600h < 3" + rest)
    }

    func testACountOutside0To100OrNotWholeIsAnErrorAtTheNumber() {
        for count in ["101", "2.5", "-1", "1000"] {
            assertError("segment s = shown main_paywall in 7d < 1️⃣\(count)", code: "shown-count", messageContains: "count `\(count)`")
        }
        assertNoErrors("segment s = shown main_paywall == 100 and shown main_paywall == 0 and shown main_paywall == 3.0" + rest)
    }

    func testOnlyTheSixCountOperatorsApplyToShown() {
        assertError("segment s = shown main_paywall 1️⃣between 1 and 2", code: "shown-operator", messageContains: "operator `between`")
        assertError("segment s = shown main_paywall in 7d 1️⃣is set", code: "shown-operator", messageContains: "operator `is set`")
        assertError("segment s = shown main_paywall 1️⃣in [1, 2]", code: "shown-operator", messageContains: "operator `in`")
        assertError("segment s = shown main_paywall 1️⃣contains \"x\"", code: "shown-operator", messageContains: "operator `contains`")
    }

    func testACountComparesWithANumberAndLastShownWithADate() {
        assertError("segment s = shown main_paywall == 1️⃣\"x\"", code: "type-mismatch", messageContains: "is a string")
        assertError("segment s = last shown main_paywall 1️⃣contains \"x\"", code: "operator-mismatch", messageContains: "contains")
        assertError("segment s = last shown main_paywall > 1️⃣3", code: "type-mismatch", messageContains: "number")
    }

    func testStickyDurationsRunFromOneDayTo400Days() {
        let experiment = { (duration: String) in """
            segment s = profile.age > 1
            audience a = s
            experiment e sticky \(duration) {
              50% x
              50% y
            }
            placement p {
              a -> e {
                x -> flow "fx"
                y -> flow "fy"
              }
            }
            """ }
        for duration in ["1d", "90d", "400d", "24h", "1440m"] { assertNoErrors(experiment(duration)) }
        for duration in ["23h", "401d", "59m"] {
            let found = assertDiagnostic(experiment("1️⃣" + duration), severity: .error, code: "sticky-duration",
                                         messageContains: "sticky duration `\(duration)`")
            XCTAssertEqual(found?.help, "an assignment sticks from 1 day to 400 days, such as `90d`")
        }
    }

    func testAStickyExperimentWithoutARowIsAWarning() {
        let text = """
        experiment 1️⃣e sticky 90d {
          50% x
          50% y
        }
        """
        let found = assertDiagnostic(text, severity: .warning, code: "sticky-unused", messageContains: "sticky experiment `e` is used by no placement row")
        XCTAssertNotNil(found?.help)
        XCTAssertEqual(diagnostics(MarkedSource(text).text).filter { $0.code == "unused" }, [])
    }

    func testTheAnalysisModelsCapsRatherThanStayingSilent() {
        // Seven days hold no more showings than thirty: the audience is empty, and said so.
        let found = diagnostics("segment s = shown main_paywall in 7d > 5 and shown main_paywall in 30d < 3" + rest)
        XCTAssertEqual(found.filter { $0.code == "unreachable-row" }.count, 1, describe(found))
        XCTAssertEqual(found.filter { $0.code == "analysis-history" }, [], describe(found))
    }

    func testACapThatNoCountChangesIsAWarningAtItsComparison() {
        for (segment, always) in [("1️⃣shown main_paywall >= 0", true), ("1️⃣shown main_paywall in 7d <= 100", true),
                                  ("1️⃣shown main_paywall < 0", false), ("1️⃣shown main_paywall in 7d > 100", false),
                                  ("not (1️⃣shown main_paywall in 30m >= 0)", true)] {
            let found = assertDiagnostic("segment s = " + segment + rest, severity: .warning, code: "constant-cap",
                                         messageContains: always ? "is always true" : "is never true")
            XCTAssertNotNil(found?.help)
        }
        for segment in ["shown main_paywall > 0", "shown main_paywall < 100", "shown main_paywall in 7d == 0", "shown main_paywall != 100",
                        "last shown main_paywall is set"] {
            let found = diagnostics("segment s = " + segment + rest)
            XCTAssertEqual(found.filter { $0.code == "constant-cap" }, [], segment + ": " + describe(found))
        }
    }
}
