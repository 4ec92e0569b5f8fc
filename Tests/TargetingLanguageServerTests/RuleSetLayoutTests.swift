import XCTest
@testable import TargetingLanguageServer

/// Which rule set each file of a workspace belongs to.
final class RuleSetLayoutTests: XCTestCase {
    private func sets(_ paths: [String], named: [String] = [], root: String? = "/w") -> [String: String] {
        let layout = RuleSetLayout(root: root, named: named, paths: paths)
        return Dictionary(uniqueKeysWithValues: paths.map { ($0, layout.ruleSet(of: $0)) })
    }

    func testFoldersSideBySideAreTwoRuleSets() {
        let found = sets(["/w/old-rules/a.rules", "/w/old-rules/b.rules", "/w/Rules/a.rules", "/w/Rules/b.rules", "/w/Rules/a.tests"])
        XCTAssertEqual(found, [
            "/w/old-rules/a.rules": "/w/old-rules", "/w/old-rules/b.rules": "/w/old-rules",
            "/w/Rules/a.rules": "/w/Rules", "/w/Rules/b.rules": "/w/Rules", "/w/Rules/a.tests": "/w/Rules",
        ])
        XCTAssertEqual(RuleSetLayout(root: "/w", named: [], paths: Array(found.keys)).ruleSets, ["/w/Rules", "/w/old-rules"])
    }

    func testARulesDirectoryHoldsEverythingUnderIt() {
        let found = sets(["/w/Rules/segments/a.rules", "/w/Rules/placements/b.rules", "/w/Rules/tests/t.tests", "/w/old-rules/a.rules"])
        XCTAssertEqual(found["/w/Rules/segments/a.rules"], "/w/Rules")
        XCTAssertEqual(found["/w/Rules/placements/b.rules"], "/w/Rules")
        XCTAssertEqual(found["/w/Rules/tests/t.tests"], "/w/Rules")
        XCTAssertEqual(found["/w/old-rules/a.rules"], "/w/old-rules")
    }

    func testARunOfDirectoriesHoldingRulesIsOneRuleSet() {
        let found = sets(["/w/app/targeting/main.rules", "/w/app/targeting/extra/more.rules", "/w/app/targeting/extra/checks/t.tests",
                          "/w/app/v1/main.rules", "/w/other/deep/x.rules"])
        XCTAssertEqual(found["/w/app/targeting/main.rules"], "/w/app/targeting")
        XCTAssertEqual(found["/w/app/targeting/extra/more.rules"], "/w/app/targeting")
        XCTAssertEqual(found["/w/app/targeting/extra/checks/t.tests"], "/w/app/targeting", "tests under the rules belong to them")
        XCTAssertEqual(found["/w/app/v1/main.rules"], "/w/app/v1", "`app` holds no rules itself: its folders stay apart")
        XCTAssertEqual(found["/w/other/deep/x.rules"], "/w/other/deep")
    }

    func testRulesAtTheRootMakeTheRootOneRuleSet() {
        let found = sets(["/w/a.rules", "/w/more/b.rules", "/w/a.tests"])
        XCTAssertEqual(Set(found.values), ["/w"])
    }

    func testNamedDirectoriesWinRelativeToTheRootOrAbsolute() {
        let paths = ["/w/config/v2/a.rules", "/w/config/v2/b/c.rules", "/w/config/v1/a.rules", "/w/config/a.rules", "/w/Rules/x/y.rules"]
        let found = sets(paths, named: ["config/v2/", "/w/config/v1", "Rules/x"])
        XCTAssertEqual(found["/w/config/v2/a.rules"], "/w/config/v2")
        XCTAssertEqual(found["/w/config/v2/b/c.rules"], "/w/config/v2")
        XCTAssertEqual(found["/w/config/v1/a.rules"], "/w/config/v1")
        XCTAssertEqual(found["/w/config/a.rules"], "/w/config", "outside every named directory: found as without the setting")
        XCTAssertEqual(found["/w/Rules/x/y.rules"], "/w/Rules/x", "a named directory wins over `Rules`")
    }

    func testTestsWithoutRulesAboveThemUseTheOnlyRuleSet() {
        XCTAssertEqual(sets(["/w/rules/a.rules", "/w/tests/a.tests"])["/w/tests/a.tests"], "/w/rules")
        XCTAssertEqual(sets(["/w/rules/a.rules", "/w/old/a.rules", "/w/tests/a.tests"])["/w/tests/a.tests"], "/w/tests",
                       "with two rule sets, a tests file outside both is on its own")
    }

    func testWithoutARootTheWalkGoesToTheTop() {
        let found = sets(["/tmp/x/Rules/a.rules", "/tmp/x/old/a.rules"], root: nil)
        XCTAssertEqual(found["/tmp/x/Rules/a.rules"], "/tmp/x/Rules")
        XCTAssertEqual(found["/tmp/x/old/a.rules"], "/tmp/x/old")
    }
}
