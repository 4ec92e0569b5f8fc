import TargetingBase
import TargetingTestSupport
import XCTest
@testable import TargetingCLI

/// What the command line says to a typo or a file in the wrong form: the nearest name, or the
/// option that reads that form.
final class CommandLineHelpTests: TemporaryDirectoryTestCase {
    func testVersionPrintsThePackageVersion() {
        for arguments in [["--version"], ["version"]] {
            let result = CLIHarness.run(arguments)
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(result.out, "targeting \(PackageVersion.text)\n")
            XCTAssertEqual(result.err, "")
        }
        XCTAssertNotNil(SemanticVersion(parsing: PackageVersion.text), "a SemVer 2.0 version")
        XCTAssertTrue(CLIHarness.run(["--help"]).out.contains("  version   Print the package version"))
        let extra = CLIHarness.run(["--version", "x"])
        XCTAssertEqual(extra.status, 64)
        XCTAssertEqual(extra.errLines.first, "error: `--version` takes no arguments")
        XCTAssertEqual(CLIHarness.run(["verison"]).errLines.first, "error: unknown subcommand `verison`; did you mean `version`?")
    }

    func testAMisspelledSubcommandGetsTheNearestOne() {
        let result = CLIHarness.run(["reslove"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.errLines.first, "error: unknown subcommand `reslove`; did you mean `resolve`?")
        XCTAssertEqual(CLIHarness.run(["frobnicate"]).errLines.first, "error: unknown subcommand `frobnicate`")
    }

    func testAMisspelledOptionGetsTheNearestOptionOfThatCommand() {
        let result = CLIHarness.run(["resolve", "--all", "--forma", "json"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.errLines.first, "error: unknown option `--forma`; did you mean `--format`?")
        XCTAssertEqual(CLIHarness.run(["ingest", "--stor", "x"]).errLines.first, "error: unknown option `--stor`; did you mean `--store`?")
        XCTAssertEqual(CLIHarness.run(["check", "--zzzzzz"]).errLines.first, "error: unknown option `--zzzzzz`")
    }

    func testAJSONLinesFileGivenToProfileNamesTheSecondLineAndTheOptionForIt() {
        let path = directory.write("two.jsonl", "{\"id\":\"a\"}\n\n{\"id\":\"b\"}\n")
        let result = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--profile", path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "\(path):3: error: a second JSON value starts on this line, but --profile reads one profile; "
                       + "for a JSON Lines file (one profile per line) use `--profiles \(path)`\n")
        XCTAssertEqual(result.out, "")
    }

    func testAPrettyPrintedProfileWithAnErrorNamesItsLineAndColumn() {
        let path = directory.write("bad.json", "{\n  \"id\": \"a\",\n  \"x\": ]\n}\n")
        let result = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--profile", path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "\(path): error: invalid JSON at line 3, column 8: expected a value but found `]`\n")
    }
}
