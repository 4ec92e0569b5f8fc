import XCTest
import TargetingTestSupport
@testable import TargetingBase
@testable import TargetingSemantics

/// `always` only before a row that shows something, and the warning for a `-> nothing` row the
/// holdout would override.
final class CheckerAlwaysRowTests: XCTestCase {
    private let head = """
    segment premium = profile.access_levels has "premium"
    segment recent = profile.installed_at >= now - 30d
    audience subscribers = premium
    audience new_users = recent
    experiment pricing { 50% control 50% discount }

    """

    func testAlwaysBeforeASplitOrAnExperimentRowIsAnError() {
        assertDiagnostic(head + """
        placement p {
          1️⃣always new_users -> split "s" { 50% -> flow "a" 50% -> flow "b" }
          2️⃣always subscribers -> pricing { control -> flow "c" discount -> flow "d" }
          everyone -> flow "e"
        }
        """, severity: .error, code: "always-on-draw", messageContains: "`always` cannot begin a split row")
        assertDiagnostic(head + """
        placement p {
          1️⃣always new_users -> split "s" { 50% -> flow "a" 50% -> flow "b" }
          2️⃣always subscribers -> pricing { control -> flow "c" discount -> flow "d" }
          everyone -> flow "e"
        }
        """, severity: .error, code: "always-on-draw", messageContains: "`always` cannot begin an experiment row", marker: "2️⃣")
    }

    func testANothingRowAboveEveryDrawOfACoveredPlacementIsWarnedUnlessAlways() {
        let warned = head + """
        placement p {
          1️⃣subscribers -> nothing
          new_users -> pricing { control -> flow "c" discount -> flow "d" }
          everyone -> flow "e"
        }
        holdout h 5%
        """
        let found = assertDiagnostic(warned, severity: .warning, code: "held-out-skips-row", messageContains: "held-out profiles skip this row")
        XCTAssertEqual(found?.help, "write `always subscribers -> nothing` if it must hold for them too (a business rule), or leave it as it is if the holdout may override it")
        let quiet = [
            warned.replacingOccurrences(of: "1️⃣subscribers -> nothing", with: "always subscribers -> nothing"),
            warned.replacingOccurrences(of: "holdout h 5%", with: "holdout h 5% except p"),
            warned.replacingOccurrences(of: "holdout h 5%", with: ""),
            // Below the experiment row: held-out profiles skip the draw before it anyway.
            head + "placement p {\n  new_users -> pricing { control -> flow \"c\" discount -> flow \"d\" }\n  subscribers -> nothing\n  everyone -> flow \"e\"\n}\nholdout h 5%",
        ]
        for text in quiet {
            let found = diagnostics(MarkedSource(text).text, file: "main.rules")
            XCTAssertFalse(found.contains { $0.code == "held-out-skips-row" || $0.isError }, "\(text)\n\(describe(found))")
        }
    }
}
