import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingProfiles
@testable import TargetingSyntax
@testable import TargetingTesting

/// `.tests` files: parsing, checking, running, coverage.
final class TestRunnerTests: XCTestCase {
    /// Rules with one placement of every kind of row; `clock` adds a segment that reads `profile.age`.
    static func rules(clock: Bool = false) -> String {
        """
        attribute level: string one of ["low", "high"]
        attribute tags: set of ["a", "b", "c"]
        attribute flag: bool
        attribute due: date
        attribute score: number
        input scr/level_pick -> level

        segment high = level == "high"
        segment tagged = tags has "a"
        segment flagged = flag == true
        segment due_soon = due < 2027-01-01
        segment scored = score >= 10
        audience highs = high
        audience tagged_users = tagged
        audience flagged_users = flagged and not due_soon
        audience scorers = scored
        placement home {
          highs -> flow "f_high"
          tagged_users -> split "s1" {
            50% -> flow "f_a"
            50% -> flow "f_b"
          }
          flagged_users -> nothing
          scorers -> flow "f_score"
          everyone -> flow "f_default"
        }
        placement shop {
          highs -> paywall "p_high"
        }

        """ + (clock ? "segment adult = profile.age >= 18\naudience adults = adult\nplacement grown { adults -> flow \"f_adult\" }\n" : "")
    }

    static let now = Timestamp.parse("2026-11-29T12:00:00Z")!

    func loadRules(clock: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> LoadedRules {
        let loaded = LoadedRules(sources: [SourceFile(path: "r.rules", text: TestRunnerTests.rules(clock: clock))])
        XCTAssertFalse(loaded.hasErrors, describe(loaded.diagnostics), file: file, line: line)
        return loaded
    }

    /// Loads tests text against the rules; `files` are the only paths that exist.
    func loadTests(_ text: String, path: String = "dir/t.tests", clock: Bool = false, files: [String: String] = [:]) -> (LoadedRules, LoadedTests) {
        let rules = loadRules(clock: clock)
        let tests = LoadedTests(sources: [SourceFile(path: path, text: text)], ruleSet: rules.program!.ruleSet, fileExists: { files[$0] != nil })
        return (rules, tests)
    }

    /// Runs tests text with in-memory input files (path → text).
    func run(_ text: String, path: String = "dir/t.tests", clock: Bool = false, files: [String: String] = [:],
             file: StaticString = #filePath, line: UInt = #line) -> [TestResult] {
        let (rules, tests) = loadTests(text, path: path, clock: clock, files: files)
        XCTAssertFalse(tests.hasErrors, describe(tests.diagnostics), file: file, line: line)
        let runner = TestRunner(program: rules.program!, defaultNow: TestRunnerTests.now, readFile: { path in
            guard let text = files[path] else { return .failure(Diagnostic.unreadable("cannot read `\(path)`")) }
            return .success(Array(text.utf8))
        })
        return runner.run(tests.files)
    }

    func failures(_ result: TestResult, file: StaticString = #filePath, line: UInt = #line) -> [TestFailure] {
        guard case .failed(let failures) = result.status else {
            XCTFail("expected a failure, got \(result.status)", file: file, line: line)
            return []
        }
        return failures
    }

    // MARK: - Parsing

    func testParsesEveryKindOfLine() {
        let text = """
        # a comment
        test "everything" {
          now 2026-11-29T12:00:00Z
          given {
            profile.id = "u1"
            `odd-key` = 3
            tags = ["a", "b",]
            flag = true
            due = now - 2d
          }
          given events "events.jsonl"
          given profile "p.json"
          expect home -> flow "f_high"
          expect shop -> nothing
          expect highs
          expect not tagged
        }
        """
        let (file, diagnostics) = Parser.parseTests(SourceFile(path: "t.tests", text: text))
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(file.comments.count, 1)
        XCTAssertEqual(file.tests.count, 1)
        let test = file.tests[0]
        XCTAssertEqual(test.name, "everything")
        XCTAssertEqual(test.range.start.line, 2)
        XCTAssertEqual(test.now, TestRunnerTests.now)
        XCTAssertEqual(test.givens.count, 3)
        guard case .assignments(let lines, _) = test.givens[0] else { return XCTFail("expected assignments") }
        let assignments = lines.compactMap(\.attribute)
        XCTAssertEqual(assignments.map(\.target.target), [.builtin("id"), .custom("odd-key"), .custom("tags"), .custom("flag"), .custom("due")])
        guard case .list(let list) = assignments[2].value else { return XCTFail("expected a list") }
        XCTAssertEqual(list.items.map(\.text), ["\"a\"", "\"b\""])
        guard case .literal(let due) = assignments[4].value, case .now(let offset) = due.value else { return XCTFail("expected now - 2d") }
        XCTAssertEqual(offset, -2 * 86_400_000)
        guard case .events(let events, _) = test.givens[1], case .profile(let profile, _) = test.givens[2] else { return XCTFail("expected files") }
        XCTAssertEqual(events.path, "events.jsonl")
        XCTAssertEqual(profile.path, "p.json")
        XCTAssertEqual(test.expectations.map(\.description), ["home -> flow \"f_high\"", "shop -> nothing", "highs", "not tagged"])
    }

    func testSyntaxErrorRecoversAtNextTest() {
        let source = MarkedSource("""
        test "broken" {
          given { level 1️⃣== "high" }
        }
        test "fine" {
          expect 2️⃣not home -> nothing
        }
        test "after" {
          expect highs
        }
        """)
        let (file, diagnostics) = Parser.parseTests(SourceFile(path: "t.tests", text: source.text))
        XCTAssertEqual(file.tests.map(\.name), ["after"])
        XCTAssertEqual(diagnostics.count, 2, describe(diagnostics))
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "expected `=` after `level`, found `==`",
                         at: source.position("1️⃣"), path: "t.tests")
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "`expect not` applies to audiences",
                         at: source.position("2️⃣"), path: "t.tests")
    }

    func testUnclosedTestDoesNotSwallowTheNextOne() {
        let source = MarkedSource("""
        test "unclosed" {
          expect highs
        1️⃣test "next" {
          expect highs
        }
        """)
        let (file, diagnostics) = Parser.parseTests(SourceFile(path: "t.tests", text: source.text))
        XCTAssertEqual(file.tests.map(\.name), ["next"])
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "expected `now`, `given`, `expect` or `}`, found `test`",
                         at: source.position("1️⃣"), path: "t.tests")
    }

    func testTopLevelGarbageAndBadNow() {
        let source = MarkedSource("""
        1️⃣segment x = y
        test "t" {
          now 2️⃣"today"
        }
        """)
        let (_, diagnostics) = Parser.parseTests(SourceFile(path: "t.tests", text: source.text))
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "expected `test`, found `segment`",
                         at: source.position("1️⃣"), path: "t.tests")
        assertDiagnostic(in: diagnostics, severity: .error, code: "syntax", messageContains: "a date or timestamp after `now`",
                         at: source.position("2️⃣"), path: "t.tests")
    }

    // MARK: - Checking

    func assertTestDiagnostic(_ marked: String, severity: Severity = .error, code: String, messageContains: String,
                              help: String? = nil, clock: Bool = false, files: [String: String] = [:],
                              file: StaticString = #filePath, line: UInt = #line) {
        let source = MarkedSource(marked)
        let (_, tests) = loadTests(source.text, path: "dir/t.tests", clock: clock, files: files)
        let found = assertDiagnostic(in: tests.diagnostics, severity: severity, code: code, messageContains: messageContains,
                                     at: source.position("1️⃣", file: file, line: line), path: "dir/t.tests", file: file, line: line)
        if let help, let found { XCTAssertEqual(found.help, help, file: file, line: line) }
    }

    func testUnknownNamesInExpectWithSuggestions() {
        assertTestDiagnostic("test \"t\" {\n  expect 1️⃣hme -> nothing\n}", code: "unknown-placement",
                             messageContains: "unknown placement `hme`", help: "did you mean `home`?")
        assertTestDiagnostic("test \"t\" {\n  expect not 1️⃣hihgs\n}", code: "unknown-name",
                             messageContains: "unknown audience or segment `hihgs`", help: "did you mean `highs`?")
        assertTestDiagnostic("test \"t\" {\n  expect 1️⃣home\n}", code: "wrong-kind", messageContains: "`home` is a placement")
        assertTestDiagnostic("test \"t\" {\n  expect 1️⃣high -> nothing\n}", code: "wrong-kind", messageContains: "`high` is a segment, not a placement")
    }

    func testExpectedDestinationMustBeOneThePlacementShows() {
        assertTestDiagnostic("test \"t\" {\n  expect home -> 1️⃣paywall \"f_high\"\n}", code: "mixed-destinations",
                             messageContains: "placement `home` shows flows, not paywalls")
        assertTestDiagnostic("test \"t\" {\n  expect home -> 1️⃣flow \"f_hgih\"\n}", code: "unknown-destination",
                             messageContains: "placement `home` never shows flow `f_hgih`", help: "did you mean `f_high`?")
    }

    func testGivenValuesAreTypeChecked() {
        assertTestDiagnostic("test \"t\" {\n  given { score = 1️⃣\"ten\" }\n  expect highs\n}", code: "type-mismatch",
                             messageContains: "`score` is a `number`, but `\"ten\"` is a string")
        assertTestDiagnostic("test \"t\" {\n  given { flag = 1️⃣1 }\n  expect highs\n}", code: "type-mismatch",
                             messageContains: "`flag` is a `bool`, but `1` is a number")
        assertTestDiagnostic("test \"t\" {\n  given { tags = 1️⃣\"a\" }\n  expect highs\n}", code: "type-mismatch",
                             messageContains: "`tags` is a `set`, but the value is a string")
        assertTestDiagnostic("test \"t\" {\n  given { tags = [\"a\", 1️⃣2] }\n  expect highs\n}", code: "type-mismatch",
                             messageContains: "`tags` is a `set`, but `2` is a number")
        assertTestDiagnostic("test \"t\" {\n  given { score = 1️⃣[\"a\"] }\n  expect highs\n}", code: "type-mismatch",
                             messageContains: "`score` is a `number`, but the value is a list")
        assertTestDiagnostic("test \"t\" {\n  given { profile.birthday = 1️⃣\"1990-01-01\" }\n  expect highs\n}", code: "type-mismatch",
                             messageContains: "`profile.birthday` is a `date`")
        assertTestDiagnostic("test \"t\" {\n  given { profile.app_version = 1️⃣\"4.2.0.1\" }\n  expect highs\n}", code: "invalid-version",
                             messageContains: "invalid version `4.2.0.1`")
        assertTestDiagnostic("test \"t\" {\n  given { due = 1️⃣2026-02-30 }\n  expect highs\n}", code: "invalid-date",
                             messageContains: "invalid date `2026-02-30`")
        assertTestDiagnostic("test \"t\" {\n  given { level = 1️⃣\"medium\" }\n  expect highs\n}", severity: .warning, code: "value-not-allowed",
                             messageContains: "`medium` is not one of the values of `level`")
        assertTestDiagnostic("test \"t\" {\n  given { undeclared = 1️⃣\"\(String(repeating: "x", count: 51))\" }\n  expect highs\n}",
                             code: "value-too-long", messageContains: "51 characters long")
    }

    func testGivenNamesAreChecked() {
        assertTestDiagnostic("test \"t\" {\n  given { 1️⃣profile.contry = \"US\" }\n  expect highs\n}", code: "unknown-field",
                             messageContains: "unknown profile field `profile.contry`", help: "did you mean `profile.country`?")
        assertTestDiagnostic("test \"t\" {\n  given { 1️⃣profile.days_since_install = 3 }\n  expect highs\n}", code: "derived-field",
                             messageContains: "`profile.days_since_install` is derived")
        assertTestDiagnostic("test \"t\" {\n  given { 1️⃣`two words` = 1 }\n  expect highs\n}", code: "invalid-key",
                             messageContains: "invalid custom attribute key `two words`")
    }

    func testMissingInputFilesPointAtThePath() {
        assertTestDiagnostic("test \"t\" {\n  given events 1️⃣\"../events.jsonl\"\n  expect highs\n}", code: "missing-file",
                             messageContains: "cannot read `../events.jsonl`", help: "paths are relative to the tests file; looked for `dir/../events.jsonl`")
        assertTestDiagnostic("test \"t\" {\n  given profile 1️⃣\"p.json\"\n  expect highs\n}", code: "missing-file",
                             messageContains: "cannot read `p.json`")
        let (_, tests) = loadTests("test \"t\" {\n  given profile \"p.json\"\n  expect highs\n}", files: ["dir/p.json": "{}"])
        XCTAssertEqual(tests.diagnostics, [], describe(tests.diagnostics))
    }

    func testDuplicateTestNamesAndNow() {
        assertTestDiagnostic("test \"t\" {\n  expect highs\n}\ntest 1️⃣\"t\" {\n  expect highs\n}", code: "duplicate-test",
                             messageContains: "test `t` is already declared", help: "first declared at dir/t.tests:1:6")
        assertTestDiagnostic("test \"t\" {\n  now 2026-01-01\n  now 1️⃣2026-01-02\n  expect highs\n}", code: "duplicate-now",
                             messageContains: "`now` is already set")
        assertTestDiagnostic("test \"t\" {\n  now 1️⃣2026-13-01\n  expect highs\n}", code: "invalid-date", messageContains: "invalid date `2026-13-01`")
    }

    func testClockWarningOnlyWhenRulesUseTheClock() {
        assertTestDiagnostic("test 1️⃣\"t\" {\n  expect highs\n}", severity: .warning, code: "unpinned-now",
                             messageContains: "test depends on the clock without pinning `now`", clock: true)
        let (_, pinned) = loadTests("test \"t\" {\n  now 2026-01-01\n  expect highs\n}", clock: true)
        XCTAssertEqual(pinned.diagnostics, [], describe(pinned.diagnostics))
        let (_, clockless) = loadTests("test \"t\" {\n  expect highs\n}", clock: false)
        XCTAssertEqual(clockless.diagnostics, [], describe(clockless.diagnostics))
    }

    func testTestWithoutExpectationsWarns() {
        assertTestDiagnostic("test 1️⃣\"t\" {\n  given { level = \"high\" }\n}", severity: .warning, code: "no-expect",
                             messageContains: "test `t` has no `expect`")
    }

    // MARK: - Running

    func testPassingTest() {
        let results = run("""
        test "high" {
          given { level = "high" }
          expect home -> flow "f_high"
          expect shop -> paywall "p_high"
          expect highs
          expect not tagged
        }
        """)
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(results[0].status, .passed)
        XCTAssertEqual(results[0].name, "high")
    }

    func testFailingTestReportsEachFailingExpect() {
        let source = MarkedSource("""
        test "wrong" {
          given { level = "low" }
          1️⃣expect home -> flow "f_high"
          expect home -> flow "f_default"
          2️⃣expect highs
          3️⃣expect shop -> paywall "p_high"
        }
        """)
        let results = run(source.text)
        let found = failures(results[0])
        XCTAssertEqual(found.count, 3)
        XCTAssertEqual(found[0].range.start.line, source.position("1️⃣").line)
        XCTAssertEqual(found[0].range.start.column, source.position("1️⃣").column)
        XCTAssertEqual(found[0].expected, "home -> flow \"f_high\"")
        XCTAssertEqual(found[0].actual, "flow \"f_default\"")
        XCTAssertEqual(found[0].audience, "everyone")
        XCTAssertEqual(found[0].message, "expected home -> flow \"f_high\", got flow \"f_default\" (audience `everyone`)")
        XCTAssertEqual(found[1].range.start.line, source.position("2️⃣").line)
        XCTAssertEqual(found[1].message, "expected highs, got not highs")
        XCTAssertEqual(found[1].reason, "segment `high`: level is \"low\", so `level == \"high\"` is false")
        XCTAssertEqual(found[2].range.start.line, source.position("3️⃣").line)
        XCTAssertEqual(found[2].message, "expected shop -> paywall \"p_high\", got nothing (no audience matched)")
    }

    func testNothingCoversNoMatchAndNothingRows() {
        let results = run("""
        test "no match" {
          expect shop -> nothing
        }
        test "nothing row" {
          given { flag = true }
          expect home -> nothing
          expect flagged_users
        }
        """)
        XCTAssertEqual(results.map(\.status), [.passed, .passed])
    }

    func testSplitNeedsAnIDAndDrawsByIt() {
        // Split `s1` is 50% f_a, 50% f_b; sorted (equal weights, by id) f_a then f_b, so r < 50
        // picks f_a. With Python, int.from_bytes(md5(b"s1-" + id).digest()[8:], "big") % 100 is
        // 27 for `u2` (f_a) and 85 for `u1` (f_b).
        let results = run("""
        test "no id" {
          given { tags = ["a"] }
          expect home -> flow "f_a"
        }
        test "u2 draws f_a" {
          given {
            profile.id = "u2"
            tags = ["a"]
          }
          expect home -> flow "f_a"
        }
        test "u1 draws f_b" {
          given {
            profile.id = "u1"
            tags = ["a"]
          }
          expect home -> flow "f_a"
        }
        """)
        guard case .error(let error) = results[0].status else { return XCTFail("expected an error, got \(results[0].status)") }
        XCTAssertEqual(error.message, "profile has no `id`, so split `s1` cannot choose a variant")
        XCTAssertEqual(error.range.start.line, 3)
        XCTAssertEqual(results[1].status, .passed)
        let failure = failures(results[2]).first
        XCTAssertEqual(failure?.message, "expected home -> flow \"f_a\", got flow \"f_b\" (audience `tagged_users`, split `s1`)")
    }

    func testGivenLinesApplyInOrder() {
        let files = [
            "dir/p.json": #"{"id":"u9","custom_attributes":{"level":"low","score":12}}"#,
        ]
        let results = run("""
        test "block then profile: the file wins" {
          given { level = "high" }
          given profile "p.json"
          expect not highs
          expect scorers
        }
        test "profile then block: the block wins" {
          given profile "p.json"
          given { level = "high" }
          expect highs
        }
        test "later lines in a block win" {
          given {
            level = "high"
            level = "low"
          }
          expect not highs
        }
        test "an empty string removes" {
          given profile "p.json"
          given { score = 3 }
          given { level = "" }
          expect not scorers
          expect home -> flow "f_default"
        }
        """, files: files)
        XCTAssertEqual(results.map(\.status), Array(repeating: TestStatus.passed, count: 4), results.map { "\($0.status)" }.joined(separator: "\n"))
    }

    func testValuesAreStoredAsAdaptyStoresThem() throws {
        let (rules, tests) = loadTests("""
        test "stored" {
          now 2026-11-29T12:00:00Z
          given {
            profile.id = "u1"
            profile.birthday = 1990-06-15
            profile.installed_at = now - 2d
            profile.access_levels = ["premium"]
            flag = true
            tags = ["a", "c"]
            due = 2026-12-01
            extra = false
          }
          expect highs
        }
        """)
        var builder = TestProfileBuilder(interpreter: FlowEventInterpreter(mapping: InputMapping(rules.program!.ruleSet), timeZone: TimeZone(identifier: "UTC")!),
                                         readFile: { _ in .failure(Diagnostic.unreadable("none")) }, testsFile: "dir/t.tests", now: TestRunnerTests.now)
        for given in tests.files[0].tests[0].givens { try builder.apply(given) }
        let profile = builder.profile
        XCTAssertEqual(profile["birthday"], .string("1990-06-15"))
        XCTAssertEqual(profile["installed_at"], .string("2026-11-27T12:00:00Z"))
        XCTAssertEqual(profile["access_levels"], .array([.string("premium")]))
        XCTAssertEqual(profile.customAttributes["flag"], .number(1))
        XCTAssertEqual(profile.customAttributes["extra"], .number(0))
        XCTAssertEqual(profile.customAttributes["tags"], .string("a,c"))
        XCTAssertEqual(profile.customAttributes["due"], .number(Double(Timestamp.parse("2026-12-01")!)))
    }

    func testEventsRunThroughTheInputHandler() {
        let events = """
        {"profile_id":"u1","name":"flow_screen_showed","instanceId":"scr","isBackendEvent":false,"isCustomerEvent":true}
        {"profile_id":"u1","name":"flow_user_input","instanceId":"scr","isBackendEvent":false,"isCustomerEvent":true,"element_id":"level_pick","element_type":"single_choice","item_ids":["high"],"item_titles":["High"]}
        {"profile_id":"u2","name":"flow_user_input","instanceId":"scr","element_id":"flag","element_type":"toggle","value":true}
        {"profile_id":"u1","name":"flow_did_disappear"}

        """
        // What `ingest` rejects for the tested profile fails its test, naming the line.
        let mistyped = #"{"profile_id":"u1","name":"flow_user_input","instanceId":"scr","element_id":"flag","element_type":"toggle","value":1}"#
        let results = run("""
        test "u1" {
          given { profile.id = "u1" }
          given events "e.jsonl"
          expect highs
          expect not flagged_users
        }
        test "u2" {
          given { profile.id = "u2" }
          given events "e.jsonl"
          expect flagged_users
          expect not highs
        }
        test "no id, several profiles" {
          given events "e.jsonl"
          expect highs
        }
        test "a rejected event fails the test" {
          given { profile.id = "u1" }
          given events "e.jsonl"
          given events "mistyped.jsonl"
          expect not flagged_users
        }
        """, files: ["dir/e.jsonl": events, "dir/mistyped.jsonl": mistyped])
        XCTAssertEqual(results[0].status, .passed)
        XCTAssertEqual(results[1].status, .passed)
        guard case .error(let error) = results[2].status else { return XCTFail("expected an error") }
        XCTAssertTrue(error.message.contains("holds events of several profiles (`u1`, `u2`)"), error.message)
        guard case .error(let rejected) = results[3].status else { return XCTFail("expected an error, got \(results[3].status)") }
        XCTAssertEqual(rejected.message, "dir/mistyped.jsonl:1: event rejected: element `flag`: `value` of a toggle must be a boolean, found number")
    }

    func testProfileUpdatedLinesSetBuiltInFieldsAndABadOneFailsTheTest() {
        let events = """
        {"profile_id":"u1","name":"profile_updated","fields":{"access_levels":["premium"],"country":"US"}}
        {"profile_id":"u1","name":"flow_user_input","instanceId":"scr","element_id":"level_pick","element_type":"single_choice","item_ids":["high"]}

        """
        let bad = #"{"profile_id":"u1","name":"profile_updated","fields":{"country":7}}"#
        let results = run("""
        test "fields from events" {
          given events "e.jsonl"
          expect highs
        }
        test "a bad field" {
          given events "bad.jsonl"
          expect not highs
        }
        """, files: ["dir/e.jsonl": events, "dir/bad.jsonl": bad])
        XCTAssertEqual(results[0].status, .passed)
        guard case .error(let error) = results[1].status else { return XCTFail("expected an error, got \(results[1].status)") }
        XCTAssertEqual(error.message, "dir/bad.jsonl:1: `country` must be a string, found number")

        let (rules, tests) = loadTests("test \"t\" {\n  given events \"e.jsonl\"\n  expect highs\n}", files: ["dir/e.jsonl": events])
        var builder = TestProfileBuilder(interpreter: FlowEventInterpreter(mapping: InputMapping(rules.program!.ruleSet), timeZone: TimeZone(identifier: "UTC")!),
                                         readFile: { _ in .success(Array(events.utf8)) }, testsFile: "dir/t.tests", now: TestRunnerTests.now)
        for given in tests.files[0].tests[0].givens { XCTAssertNoThrow(try builder.apply(given)) }
        XCTAssertEqual(builder.profile["access_levels"], .array([.string("premium")]))
        XCTAssertEqual(builder.profile["country"], .string("US"))
        XCTAssertEqual(builder.profile.id, "u1")
    }

    func testEventsOfTheOnlyProfileSetItsID() {
        let events = #"{"profile_id":"solo","name":"flow_user_input","instanceId":"scr","element_id":"level_pick","element_type":"single_choice","item_ids":["high"]}"#
        let results = run("""
        test "solo" {
          given events "e.jsonl"
          expect highs
        }
        test "another id" {
          given { profile.id = "other" }
          given events "e.jsonl"
          expect highs
        }
        test "bad line" {
          given events "bad.jsonl"
          expect highs
        }
        """, files: ["dir/e.jsonl": events, "dir/bad.jsonl": "{\"profile_id\":\"x\"}\n"])
        XCTAssertEqual(results[0].status, .passed)
        guard case .error(let other) = results[1].status, case .error(let bad) = results[2].status else { return XCTFail("expected errors") }
        XCTAssertEqual(other.message, "`e.jsonl` holds no events of profile `other`")
        XCTAssertEqual(bad.message, "dir/bad.jsonl:1: missing `name`")
        XCTAssertEqual(bad.range.start.line, 11)
        XCTAssertEqual(bad.range.start.column, 16)
    }

    /// A stream of several profiles with broken lines: 2 is not JSON, 3 has no `profile_id`,
    /// 4 is `u2`'s line without a `name`, 6 is `u3`'s line whose `name` is a number.
    static let brokenStream = """
    {"profile_id":"u1","name":"flow_user_input","instanceId":"scr","element_id":"level_pick","element_type":"single_choice","item_ids":["high"]}
    {"profile_id":"u2","name":"flow_user_inp
    {"name":"flow_user_input","instanceId":"scr","element_id":"flag","element_type":"toggle","value":true}
    {"profile_id":"u2","instanceId":"scr","element_id":"flag","element_type":"toggle","value":true}
    {"profile_id":"u2","name":"flow_user_input","instanceId":"scr","element_id":"flag","element_type":"toggle","value":true}
    {"profile_id":"u3","name":7}

    """

    func testOtherProfilesBrokenLinesAreSkippedWithANote() {
        let results = run("""
        test "u1 reads past the others' broken lines" {
          given { profile.id = "u1" }
          given events "e.jsonl"
          expect highs
          expect flagged_users
        }
        """, files: ["dir/e.jsonl": TestRunnerTests.brokenStream])
        // The run itself fails on `expect highs`, so the note is kept with the result.
        XCTAssertEqual(failures(results[0]).map(\.expected), ["flagged_users"])
        XCTAssertEqual(results[0].notes, ["`dir/e.jsonl`: skipped 4 lines that do not parse as events: 2, 3, 4, 6"])
    }

    func testABrokenLineOfTheTestedProfileFailsTheTest() {
        let results = run("""
        test "u2 has a broken line" {
          given { profile.id = "u2" }
          given events "e.jsonl"
          expect flagged_users
        }
        test "only profile" {
          given events "solo.jsonl"
          expect highs
        }
        """, files: ["dir/e.jsonl": TestRunnerTests.brokenStream,
                     "dir/solo.jsonl": "not json\n" + TestRunnerTests.brokenStream.split(separator: "\n")[0] + "\n"])
        guard case .error(let error) = results[0].status else { return XCTFail("expected an error, got \(results[0].status)") }
        XCTAssertEqual(error.message, "dir/e.jsonl:4: missing `name`")
        XCTAssertEqual(error.range.start.line, 3)
        // A line that is not JSON names no profile, so `u1` is still the only one.
        XCTAssertEqual(results[1].status, .passed)
    }

    func testCheckWarnsOnceAboutLinesThatAreNotEvents() {
        // Once per file, at its first `given events`, listing every broken line (the tested
        // profile's too: which profile a test reads is known only when it runs).
        let marked = MarkedSource("""
        test "one" {
          given { profile.id = "u2" }
          given events 1️⃣"e.jsonl"
          expect flagged_users
        }
        test "two" {
          given { profile.id = "u1" }
          given events "e.jsonl"
          expect highs
        }
        """)
        let files = ["dir/e.jsonl": TestRunnerTests.brokenStream]
        let tests = LoadedTests(sources: [SourceFile(path: "dir/t.tests", text: marked.text)], ruleSet: loadRules().program!.ruleSet,
                                fileExists: { files[$0] != nil }, readEvents: { files[$0].map { Array($0.utf8) } })
        XCTAssertEqual(tests.diagnostics.filter { $0.code == "skipped-lines" }.count, 1, describe(tests.diagnostics))
        let found = assertDiagnostic(in: tests.diagnostics, severity: .note, code: "skipped-lines",
                                     messageContains: "`e.jsonl`: skipped 4 lines that do not parse as events: 2, 3, 4, 6",
                                     at: marked.position("1️⃣"), path: "dir/t.tests")
        XCTAssertEqual(found?.help, "a line that names the tested profile in `profile_id` fails that test instead; other profiles' lines and lines without a usable `profile_id` are skipped")
        XCTAssertFalse(tests.hasErrors)
        // Without a reader (the editor), files are only checked for existence.
        let unread = LoadedTests(sources: [SourceFile(path: "dir/t.tests", text: marked.text)], ruleSet: loadRules().program!.ruleSet,
                                 fileExists: { files[$0] != nil })
        XCTAssertEqual(unread.diagnostics, [])
    }

    func testEventFileNamesTheOwnerOfBrokenLines() {
        let file = EventFile(bytes: Array(TestRunnerTests.brokenStream.utf8) + Array(("\n" + String(repeating: "x", count: EventFile.maxLineBytes + 1) + "\n").utf8))
        XCTAssertEqual(file.events.map(\.line), [1, 5])
        XCTAssertEqual(file.broken.map(\.line), [2, 3, 4, 6, 8])
        XCTAssertEqual(file.broken.map(\.profileID), [nil, nil, "u2", "u3", nil])
        XCTAssertEqual(file.broken[3].message, "`name` must be a string, found number")
        XCTAssertEqual(file.broken.last?.message, "line is longer than 1 MiB")
        XCTAssertEqual(file.profileIDs, ["u1", "u2", "u3"])
        XCTAssertEqual(file.skipped(reading: "u2").map(\.line), [2, 3, 6, 8])
        let many = EventFile(bytes: Array(String(repeating: "nope\n", count: 25).utf8))
        XCTAssertEqual(EventFile.describe(many.broken), (1...20).map(String.init).joined(separator: ", ") + ", … and 5 more")
    }

    func testUnreadableOrInvalidFileAtRunTimeIsAnError() {
        let (rules, tests) = loadTests("test \"t\" {\n  given profile \"p.json\"\n  expect highs\n}", files: ["dir/p.json": "{}"])
        let runner = TestRunner(program: rules.program!, defaultNow: TestRunnerTests.now,
                                readFile: { .failure(Diagnostic.unreadable("cannot read `\($0)`")) })
        guard case .error(let unreadable) = runner.run(tests.files)[0].status else { return XCTFail("expected an error") }
        XCTAssertEqual(unreadable.message, "cannot read `dir/p.json`")
        XCTAssertEqual(unreadable.range.start.line, 2)
        XCTAssertEqual(unreadable.range.start.column, 17)
        let invalid = run("test \"t\" {\n  given profile \"p.json\"\n  expect highs\n}", files: ["dir/p.json": "[1]"])[0]
        guard case .error(let error) = invalid.status else { return XCTFail("expected an error") }
        XCTAssertEqual(error.message, "`p.json`: a profile must be a JSON object, found array")
        XCTAssertNil(invalid.trace)
    }

    func testDefaultNowAndPinnedNow() {
        let results = run("""
        test "default now: 2026-11-29" {
          given { profile.birthday = 2008-11-30 }
          expect not adults
        }
        test "pinned now" {
          now 2026-12-01
          given { profile.birthday = 2008-11-30 }
          expect adults
        }
        """, clock: true)
        XCTAssertEqual(results.map(\.status), [.passed, .passed])
    }

    func testFilterByName() {
        let (rules, tests) = loadTests("test \"alpha one\" {\n  expect not highs\n}\ntest \"beta\" {\n  expect not highs\n}\ntest \"alpha two\" {\n  expect highs\n}")
        let runner = TestRunner(program: rules.program!, defaultNow: TestRunnerTests.now)
        XCTAssertEqual(runner.run(tests.files, filter: "alpha").map(\.name), ["alpha one", "alpha two"])
        XCTAssertEqual(runner.run(tests.files, filter: "gamma").map(\.name), [])
    }

    // MARK: - Coverage

    func testCoverageFigures() {
        let (rules, tests) = loadTests("""
        test "high" {
          given { level = "high" }
          expect home -> flow "f_high"
        }
        test "default" {
          expect home -> flow "f_default"
          expect shop -> nothing
        }
        """)
        let program = rules.program!
        let results = TestRunner(program: program, defaultNow: TestRunnerTests.now).run(tests.files)
        let coverage = TestCoverage(program: program, results: results)
        // Rows: home has 5, shop 1; covered: home rows 1 and 5. The split row's 2 variants,
        // neither reached. Segments: 5; only `high` was both true and false.
        XCTAssertEqual(coverage.items.count, 13)
        XCTAssertEqual(coverage.items.filter { $0.kind == .variant }.map(\.covered), [false, false])
        XCTAssertEqual(coverage.items.filter { $0.kind == .row && $0.covered }.map(\.name),
                       ["home row 1: highs -> flow \"f_high\"", "home row 5: everyone -> flow \"f_default\""])
        XCTAssertEqual(coverage.items.filter { $0.kind == .segment && $0.covered }.map(\.name), ["high"])
        XCTAssertEqual(coverage.items.first { $0.name == "tagged" }?.detail, "never true")
        XCTAssertEqual(coverage.coveredCount, 3)
        XCTAssertEqual(coverage.summary, "coverage: 3 of 13 (23.0%)")
        XCTAssertEqual(coverage.figures, [CoverageFigure(kind: .row, covered: 2, total: 6), CoverageFigure(kind: .segment, covered: 1, total: 5),
                                          CoverageFigure(kind: .variant, covered: 0, total: 2)])
        XCTAssertEqual(coverage.figures.map(\.permille), [333, 200, 0])
        XCTAssertEqual(CoverageThreshold(parsing: "33.3")?.failing(coverage).map(\.name), ["segments", "variants"])
        XCTAssertEqual(CoverageThreshold(parsing: "33.4")?.failing(coverage).map(\.name), ["rows", "segments", "variants"])
        XCTAssertEqual(CoverageThreshold(parsing: "0")?.failing(coverage), [])
        XCTAssertEqual(CoverageFigure(kind: .variant, covered: 0, total: 0).permille, 1000)
        XCTAssertEqual(coverage.items[0].range.start.line, 18)
    }

    func testEventLineSplitting() {
        let lines = EventLine.lines(of: Array("\u{FEFF}a\r\nb\rc\n  \n\nd".utf8))
        XCTAssertEqual(lines.map(\.number), [1, 2, 3, 6])
        XCTAssertEqual(lines.map { String(decoding: $0.bytes, as: UTF8.self) }, ["a", "b", "c", "d"])
    }

    /// Shown lines of `given events` reach the tested profile's history, as `ingest` records them.
    func testShownLinesInGivenEventsGoToTheHistory() {
        let rules = LoadedRules(sources: [SourceFile(path: "r.rules", text: """
        segment seen_twice = shown home >= 2
        audience repeaters = seen_twice
        placement home {
          repeaters -> flow "f_again"
          everyone -> flow "f_first"
        }
        """)])
        XCTAssertFalse(rules.hasErrors, describe(rules.diagnostics))
        func shown(_ at: String) -> String {
            #"{"profile_id":"u1","name":"placement_shown","placement":"home","kind":"flow","id":"f_first","at":"\#(at)"}"#
        }
        let files = ["dir/twice.jsonl": shown("2026-11-27T10:00:00Z") + "\n" + shown("2026-11-28T10:00:00Z"),
                     "dir/same.jsonl": shown("2026-11-27T10:00:00Z") + "\n" + shown("2026-11-27T10:00:00Z")]
        let tests = LoadedTests(sources: [SourceFile(path: "dir/t.tests", text: """
        test "shown twice" {
          given events "twice.jsonl"
          expect home -> flow "f_again"
        }
        test "one instant twice is one showing" {
          given events "same.jsonl"
          expect home -> flow "f_first"
        }
        """)], ruleSet: rules.program!.ruleSet, fileExists: { files[$0] != nil })
        XCTAssertFalse(tests.hasErrors, describe(tests.diagnostics))
        let runner = TestRunner(program: rules.program!, defaultNow: TestRunnerTests.now, readFile: { path in
            guard let text = files[path] else { return .failure(Diagnostic.unreadable("cannot read `\(path)`")) }
            return .success(Array(text.utf8))
        })
        XCTAssertEqual(runner.run(tests.files).map(\.status), [.passed, .passed])
    }
}
