import XCTest
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles
@testable import TargetingSQL
import TargetingTestSupport

/// A profile as a row of the typed table: each value as the rules read it, and what a column
/// cannot hold named.
final class SQLTableSchemaRowTests: XCTestCase {
    private let rules = """
    attribute plan: string
    attribute visits: number
    attribute opted_in: bool
    attribute renewal: date
    attribute tags: set
    segment a = plan == "pro" and visits >= 3 and opted_in == true and renewal < now and tags has "x"
    segment b = profile.age >= 18 and profile.access_levels has "premium" and profile.installed_at < now
    audience chosen = a and b
    placement p {
      chosen -> flow "f"
    }
    """

    private func row(_ json: String) throws -> SQLTableSchema.Row {
        let schema = try SQLTableSchema(programs: [checkedProgram(rules)])
        let profile = try ProfileReader.read(Array(json.utf8)).get()
        return schema.row(of: profile)
    }

    private func text(_ row: SQLTableSchema.Row) -> String { JSONWriter.write(.object(row.members)) }

    func testEachValueIsWrittenAsTheRulesReadIt() throws {
        let written = try row("""
        {"id": "u1", "birthday": "1990-06-15", "access_levels": [], "installed_at": "2026-11-26T09:30:00+02:00",
         "custom_attributes": {" plan ": " pro ", "visits": 3, "opted_in": 1, "renewal": 1796040000123.9, "tags": "x,,y "}}
        """)
        XCTAssertEqual(text(written), #"{"id":"u1","birthday":"1990-06-15","access_levels":[],"installed_at":"2026-11-26T07:30:00.000Z","ca_plan":"pro","ca_visits":3,"ca_opted_in":true,"ca_renewal":"2026-11-30T12:00:00.123Z","ca_tags":["x","","y"]}"#)
        XCTAssertEqual(written.problems, [])
    }

    func testAValueTheColumnCannotHoldIsNullAndNamed() throws {
        let written = try row("""
        {"id": 7, "birthday": "1990-06-15T23:00:00-05:00", "access_levels": ["a", 1], "installed_at": "yesterday",
         "custom_attributes": {"plan": 5, "visits": "3", "opted_in": 2, "renewal": 1e17}}
        """)
        XCTAssertEqual(text(written), #"{"id":null,"birthday":"1990-06-16","access_levels":null,"installed_at":null,"ca_plan":null,"ca_visits":null,"ca_opted_in":null,"ca_renewal":null,"ca_tags":null}"#)
        XCTAssertEqual(written.problems, [
            "`id` is not a string; the column `id` holds null",
            "`birthday` holds the UTC date of 1990-06-15T23:00:00-05:00; its time of day is not kept",
            "`access_levels` (set) cannot hold an array with a member that is not a string; written as null",
            "`installed_at` (instant) cannot hold the text \"yesterday\", which is no date; written as null",
            "`ca_plan` (text) cannot hold the value 5; written as null",
            "`ca_visits` (number) cannot hold the value \"3\"; written as null",
            "`ca_opted_in` (bool) cannot hold the number 2, neither 1 nor 0; written as null",
            "`ca_renewal` (instant) cannot hold 1e+17, which is no date; written as null",
        ])
    }
}
