import XCTest
@testable import TargetingSQL
import TargetingTestSupport

/// `SQLIdentifier`: plain names and qualified tables are held as given; anything that could
/// change the query around them is refused with a message naming the option.
final class SQLIdentifierTests: XCTestCase {
    func testPlainAndQualifiedNamesAreKeptAsWritten() throws {
        XCTAssertEqual(try SQLIdentifier("lake.app.profiles", role: .table).text, "lake.app.profiles")
        XCTAssertEqual(try SQLIdentifier("_Users2", role: .table).text, "_Users2")
        XCTAssertEqual(try SQLIdentifier("profile_json", role: .column).text, "profile_json")
        XCTAssertEqual(SQLIdentifier.profiles.text, "profiles")
        XCTAssertEqual(SQLIdentifier.profile.text, "profile")
    }

    func testAnythingButLettersDigitsAndUnderscoreIsRefused() {
        let tables = ["", ".", "a.", ".a", "a..b", "1abc", "a.2b", "x; DROP TABLE y", "a b", "a-b", "\"quoted\"", "a`b",
                      "a/*c*/", "a--", "naïve", "a\u{0}", "a'b", "tab\tle"]
        for name in tables {
            XCTAssertThrowsError(try SQLIdentifier(name, role: .table), name) { error in
                let invalid = error as? SQLIdentifier.Invalid
                XCTAssertEqual(invalid?.name, name)
                XCTAssertEqual(invalid?.role, .table)
            }
        }
        XCTAssertThrowsError(try SQLIdentifier("a.b", role: .column)) { error in
            XCTAssertEqual((error as? SQLIdentifier.Invalid)?.role, .column)
        }
    }

    func testTheQueryReadsTheNamedSource() throws {
        let program = checkedProgram("""
            attribute plan: string
            segment s = plan == "pro"
            audience a = s
            placement p {
              a -> flow "f"
            }
            """)
        let query = try SQLCompiler.compile(placement: "p", program: program, now: 0, dialect: .postgres,
                                        table: try SQLIdentifier("lake.app.users", role: .table),
                                        column: try SQLIdentifier("doc", role: .column))
        XCTAssertTrue(query.contains("(SELECT doc AS profile FROM lake.app.users) AS source"), query)
    }
}
