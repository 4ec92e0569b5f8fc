import Foundation
import TargetingTestSupport
import XCTest

/// `targeting export --layout columns`: the typed rows, warnings, rejected lines, exit statuses.
final class ExportCommandTests: TemporaryDirectoryTestCase {
    private let rules = """
    attribute plan: string
    attribute tags: set
    segment a = plan == "pro" and tags has "x" and profile.age >= 18
    audience chosen = a
    placement p {
      chosen -> flow "f"
    }
    """

    func testWritesOneTypedRowPerProfileAndNamesWhatItCannotHold() {
        let rulesPath = directory.write("r.rules", rules)
        let profiles = directory.write("p.jsonl", """
        {"id": "u1", "birthday": "1990-06-15", "custom_attributes": {" plan ": " pro ", "tags": "x,y"}}

        {"id": "u2", "custom_attributes": {"plan": 5}}
        not json
        {"id": "u3"}

        """)
        let result = CLIHarness.run(["export", "--layout", "columns", "--rules", rulesPath, "--profiles", profiles])
        XCTAssertEqual(result.status, 2, "a rejected line makes the exit status 2")
        XCTAssertEqual(result.out, """
        {"id":"u1","birthday":"1990-06-15","ca_plan":"pro","ca_tags":["x","y"]}
        {"id":"u2","birthday":null,"ca_plan":null,"ca_tags":null}
        {"id":"u3","birthday":null,"ca_plan":null,"ca_tags":null}

        """)
        XCTAssertTrue(result.err.contains("\(profiles):3: warning: `ca_plan` (text) cannot hold the value 5; written as null"), result.err)
        XCTAssertTrue(result.err.contains("\(profiles):4: error:"), "the bad line is reported where it is: " + result.err)
        let clean = directory.write("clean.jsonl", "{\"id\": \"u1\"}\n")
        XCTAssertEqual(CLIHarness.run(["export", "--layout", "columns", "--rules", rulesPath, "--profiles", clean]).status, 0)
    }

    func testUsageErrors() {
        let rulesPath = directory.write("r.rules", rules)
        let profiles = directory.write("p.jsonl", "{\"id\": \"u1\"}\n")
        for bad in [["--profiles", profiles], ["--layout", "json", "--profiles", profiles], ["--layout", "columns"],
                    ["--layout", "columns", "--profiles", profiles, "--store", profiles], ["--layout", "columns", "--profiles", profiles, "x"]] {
            let result = CLIHarness.run(["export", "--rules", rulesPath] + bad)
            XCTAssertEqual(result.status, 64, "\(bad): \(result.err)")
        }
        XCTAssertEqual(CLIHarness.run(["export", "--layout", "columns", "--rules", rulesPath, "--profiles", directory.file("missing.jsonl")]).status, 2)
    }
}
