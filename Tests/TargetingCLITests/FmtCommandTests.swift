import Foundation
import TargetingTestSupport
import XCTest

/// `targeting fmt [--check | -w] [PATH…]`.
final class FmtCommandTests: TemporaryDirectoryTestCase {

    private let messy = """
    segment pros   =   experience=="pro"
    audience pro_users = pros # the pros
    placement p {
      pro_users -> flow "f"
      everyone -> flow "g"
    }
    """

    private let tidy = """
    segment pros = experience == "pro"
    audience pro_users = pros  # the pros
    placement p {
      pro_users -> flow "f"
      everyone  -> flow "g"
    }

    """

    private let messyTests = """
    test "t" {
    now 2026-11-29T12:00:00Z
    expect p->flow "f"
    }
    """

    private let tidyTests = """
    test "t" {
      now 2026-11-29T12:00:00Z
      expect p -> flow "f"
    }

    """

    func testPrintsTheFormattedTextOfOneFile() {
        let path = directory.write("a.rules", messy)
        let result = CLIHarness.run(["fmt", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, tidy)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(CLIHarness.text(path), messy, "printing leaves the file alone")
    }

    func testPrintsEachOfSeveralFilesAfterAHeader() {
        let rules = directory.write("rules/a.rules", messy)
        let tests = directory.write("rules/a.tests", messyTests)
        directory.write("rules/notes.txt", "not rules")
        let result = CLIHarness.run(["fmt", "--rules", directory.file("rules")])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "==> \(rules) <==\n" + tidy + "==> \(tests) <==\n" + tidyTests)
    }

    func testCheckListsFilesThatWouldChangeAndExitsOne() {
        let changed = directory.write("a.rules", messy)
        directory.write("b.rules", tidy)
        let changedTests = directory.write("c.tests", messyTests)
        let result = CLIHarness.run(["fmt", "--check", directory.path])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.outLines, [changed, changedTests])
        XCTAssertEqual(CLIHarness.text(changed), messy, "--check writes nothing")
    }

    func testCheckExitsZeroWhenEverythingIsCanonical() {
        directory.write("a.rules", tidy)
        directory.write("a.tests", tidyTests)
        directory.write("empty.rules", "")
        let result = CLIHarness.run(["fmt", "--check", directory.path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "")
    }

    func testWriteRewritesChangedFilesAtomicallyAndListsThem() {
        let changed = directory.write("r/a.rules", messy)
        let untouched = directory.write("r/b.rules", tidy)
        let changedTests = directory.write("r/a.tests", messyTests)
        let result = CLIHarness.run(["fmt", "-w", directory.file("r")])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines, [changed, changedTests])
        XCTAssertEqual(CLIHarness.text(changed), tidy)
        XCTAssertEqual(CLIHarness.text(changedTests), tidyTests)
        XCTAssertEqual(CLIHarness.text(untouched), tidy)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("r")))?.sorted()
        XCTAssertEqual(entries, ["a.rules", "a.tests", "b.rules"], "no temporary files left behind")

        let again = CLIHarness.run(["fmt", "--check", directory.file("r")])
        XCTAssertEqual(again.status, 0, again.out)
        let rewrite = CLIHarness.run(["fmt", "--write", directory.file("r")])
        XCTAssertEqual(rewrite.status, 0, rewrite.err)
        XCTAssertEqual(rewrite.out, "", "nothing left to rewrite")
    }

    func testWriteTurnsCRLFAndBOMIntoCanonicalText() {
        let path = directory.write("a.rules", bytes: [0xEF, 0xBB, 0xBF] + Array("segment a = x == 1\r\n\r\n\r\nsegment b = y == 2\r\n".utf8))
        let check = CLIHarness.run(["fmt", "--check", path])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.outLines, [path])
        let result = CLIHarness.run(["fmt", "-w", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(CLIHarness.bytes(path), Array("segment a = x == 1\n\nsegment b = y == 2\n".utf8))
    }

    func testSyntaxErrorsArePrintedAndExitTwo() {
        let broken = directory.write("bad.rules", "segment ok = x == 1\nsegment a = x = 1\n")
        let fine = directory.write("good.rules", messy)
        let result = CLIHarness.run(["fmt", "-w", directory.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(broken):2:15: error: expected a comparison operator, found `=`"), result.err)
        XCTAssertTrue(result.err.contains("2 | segment a = x = 1"), result.err)
        XCTAssertEqual(CLIHarness.text(broken), "segment ok = x == 1\nsegment a = x = 1\n", "a broken file is never written")
        XCTAssertEqual(result.outLines, [fine], "the other files are still formatted")
        XCTAssertEqual(CLIHarness.text(fine), tidy)

        let check = CLIHarness.run(["fmt", "--check", broken])
        XCTAssertEqual(check.status, 2)
        let print = CLIHarness.run(["fmt", broken])
        XCTAssertEqual(print.status, 2)
        XCTAssertEqual(print.out, "")
    }

    func testUnreadablePathExitsTwo() {
        let missing = directory.file("missing.rules")
        let result = CLIHarness.run(["fmt", missing])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("error: cannot read `\(missing)`"), result.err)

        let defaultRules = CLIHarness.run(["fmt", "--check", "--rules", directory.file("nowhere")])
        XCTAssertEqual(defaultRules.status, 2)
    }

    func testDiffShowsWhatWouldChangeAndExitsOne() {
        let untidy = tidy.replacingOccurrences(of: " = ", with: "  =  ")
        XCTAssertNotEqual(untidy, tidy, "the fixture has something to tidy")
        let path = directory.write("a.rules", untidy)
        let result = CLIHarness.run(["fmt", "-d", path])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.out.hasPrefix("--- \(path)\n+++ \(path) (formatted)\n@@ -1,"), result.out)
        let removed = result.outLines.filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.map { String($0.dropFirst()) }
        let added = result.outLines.filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.map { String($0.dropFirst()) }
        XCTAssertFalse(removed.isEmpty)
        XCTAssertEqual(removed.map { $0.replacingOccurrences(of: "  =  ", with: " = ") }, added)
        XCTAssertEqual(CLIHarness.text(path), untidy, "-d changes no file")
        let clean = CLIHarness.run(["fmt", "--diff", directory.write("b.rules", tidy)])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.out, "")
    }

    func testUsageErrors() {
        let path = directory.write("a.rules", tidy)
        let both = CLIHarness.run(["fmt", "--check", "-w", path])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.err.hasPrefix("error: `--check`, `-d` and `-w` cannot be used together"), both.err)
        XCTAssertEqual(CLIHarness.run(["fmt", "-d", "--check", path]).status, 64)
        XCTAssertTrue(both.err.contains("USAGE: targeting fmt"), both.err)
        XCTAssertEqual(CLIHarness.run(["fmt", "--frobnicate", path]).status, 64)

        let help = CLIHarness.run(["fmt", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("USAGE: targeting fmt [--check | -d | -w] [PATH…]"), help.out)
        XCTAssertTrue(CLIHarness.run(["--help"]).out.contains("  fmt "), "listed among the subcommands")
    }

    func testShippedRulesAreCanonical() {
        let result = CLIHarness.run(["fmt", "--check", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(result.status, 0, "not canonical (run `targeting fmt -w Rules`): \(result.out)\(result.err)")
    }
}
