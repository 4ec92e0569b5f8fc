import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

final class EvaluatorTests: XCTestCase {
    // MARK: - Helpers

    static let declarations = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    attribute interests: set of ["sports", "music", "travel"]
    attribute weekly_hours: number
    attribute reminders: bool
    attribute goal_date: date
    attribute sdk_version: version
    attribute nickname: string
    attribute school: string
    attribute tags: set

    """

    /// Unix ms of an RFC 3339 timestamp or a date.
    static func ms(_ text: String) -> Int64 {
        guard let value = Timestamp.parse(text) else { preconditionFailure("bad timestamp \(text)") }
        return value
    }

    static let now = ms("2026-11-29T12:00:00Z")

    /// A profile with id `u1` and the given custom attributes (the inside of the JSON object).
    static func custom(_ members: String) -> String { #"{"id":"u1","custom_attributes":{"# + members + "}}" }

    private func profile(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> Profile {
        switch ProfileReader.read(Array(json.utf8)) {
        case .success(let profile): return profile
        case .failure(let error):
            XCTFail("profile rejected: \(error.message)", file: file, line: line)
            return Profile()
        }
    }

    /// Rules that must load without errors.
    private func load(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> LoadedRules {
        let loaded = LoadedRules(sources: [SourceFile(path: "e.rules", text: text)])
        let errors = loaded.diagnostics.filter(\.isError)
        XCTAssertEqual(errors, [], describe(errors), file: file, line: line)
        return loaded
    }

    /// Whether `segment s = <condition>` (with `declarations`) matches the profile.
    private func matches(_ condition: String, _ json: String, now: Int64 = EvaluatorTests.now,
                         file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let loaded = load(EvaluatorTests.declarations + "segment s = " + condition + "\n", file: file, line: line)
        let program = loaded.program!
        guard let index = program.segments.firstIndex(where: { $0.name == "s" }) else {
            XCTFail("segment `s` was not compiled", file: file, line: line)
            return false
        }
        var evaluator = Evaluator(program: program, profile: profile(json, file: file, line: line), now: now)
        return evaluator.segmentMatches(index)
    }

    /// Checks each (condition, profile JSON, expected) case.
    private func check(_ cases: [(String, String, Bool)], now: Int64 = EvaluatorTests.now,
                       file: StaticString = #filePath, line: UInt = #line) {
        for (condition, json, expected) in cases {
            XCTAssertEqual(matches(condition, json, now: now, file: file, line: line), expected,
                           "\(condition) on \(json)", file: file, line: line)
        }
    }

    private func resolve(_ loaded: LoadedRules, _ placement: String, _ json: String, now: Int64 = EvaluatorTests.now,
                         file: StaticString = #filePath, line: UInt = #line) -> Result<Decision, ResolveError> {
        let program = loaded.program!
        guard let index = program.placementIndex(named: placement) else {
            XCTFail("no placement \(placement)", file: file, line: line)
            return .failure(.unknownPlacement(placement, suggestion: nil))
        }
        let profile = profile(json, file: file, line: line)
        var evaluator = Evaluator(program: program, profile: profile, now: now)
        return evaluator.resolve(placement: index, profileID: profile.id)
    }

    private func decision(_ loaded: LoadedRules, _ placement: String, _ json: String, now: Int64 = EvaluatorTests.now,
                          file: StaticString = #filePath, line: UInt = #line) -> Decision? {
        switch resolve(loaded, placement, json, now: now, file: file, line: line) {
        case .success(let decision): return decision
        case .failure(let error):
            XCTFail("resolve failed: \(error.message)", file: file, line: line)
            return nil
        }
    }

    // MARK: - Operators

    func testEqualityOperators() {
        let pro = Self.custom(#""experience":"pro","weekly_hours":10,"reminders":1,"sdk_version":"4.2.0","goal_date":1796083199000"#)
        check([
            (#"experience == "pro""#, pro, true),
            (#"experience == "amateur""#, pro, false),
            (#"experience != "amateur""#, pro, true),
            (#"experience != "pro""#, pro, false),
            ("weekly_hours == 10", pro, true),
            ("weekly_hours == 10.5", pro, false),
            ("weekly_hours != 9", pro, true),
            ("weekly_hours != 10", pro, false),
            ("reminders == true", pro, true),
            ("reminders == false", pro, false),
            ("reminders != false", pro, true),
            ("reminders != true", pro, false),
            ("reminders == false", Self.custom(#""reminders":0"#), true),
            (#"sdk_version == "4.2""#, pro, true),
            (#"sdk_version != "4.2.1""#, pro, true),
            (#"sdk_version == "4.2.1""#, pro, false),
            ("goal_date == 2026-11-30T23:59:59Z", pro, true),
            ("goal_date != 2026-11-30T23:59:59Z", pro, false),
            ("goal_date == 2026-11-30", pro, false),
        ])
    }

    func testOrderingOperators() {
        let ten = Self.custom(#""weekly_hours":10"#)
        check([
            ("weekly_hours < 11", ten, true),
            ("weekly_hours < 10", ten, false),
            ("weekly_hours <= 10", ten, true),
            ("weekly_hours <= 9.99", ten, false),
            ("weekly_hours > 9", ten, true),
            ("weekly_hours > 10", ten, false),
            ("weekly_hours >= 10", ten, true),
            ("weekly_hours >= 11", ten, false),
            ("weekly_hours > -3.5", ten, true),
            ("weekly_hours between 10 and 12", ten, true),
            ("weekly_hours between 5 and 10", ten, true),
            ("weekly_hours between 10 and 10", ten, true),
            ("weekly_hours between 10.5 and 12", ten, false),
            ("weekly_hours between -5 and 9", ten, false),
        ])
    }

    func testListOperators() {
        let json = Self.custom(#""experience":"amateur","weekly_hours":3,"sdk_version":"4.2.0""#)
        check([
            (#"experience in ["pro", "amateur"]"#, json, true),
            (#"experience in ["pro", "beginner"]"#, json, false),
            (#"experience not in ["pro", "beginner",]"#, json, true),
            (#"experience not in ["amateur"]"#, json, false),
            ("weekly_hours in [1, 2, 3]", json, true),
            ("weekly_hours in [1, 2]", json, false),
            ("weekly_hours not in [1, 2]", json, true),
            ("weekly_hours not in [3]", json, false),
            (#"sdk_version in ["4.1", "4.2"]"#, json, true),
            (#"sdk_version in ["4.1", "v4.3"]"#, json, false),
            (#"sdk_version not in ["4.1"]"#, json, true),
            (#"sdk_version not in ["v4.2.0"]"#, json, false),
        ])
    }

    func testTextOperators() {
        let json = Self.custom(#""nickname":"jane doe""#)
        check([
            (#"nickname contains "e d""#, json, true),
            (#"nickname contains "john""#, json, false),
            (#"nickname contains "jane doe""#, json, true),
            (#"nickname starts with "jane""#, json, true),
            (#"nickname starts with "doe""#, json, false),
            (#"nickname ends with "doe""#, json, true),
            (#"nickname ends with "jane""#, json, false),
            (#"nickname ends with "xjane doe""#, json, false),
            (#"nickname starts with "Jane""#, json, false),
            (#"nickname starts with "Jane" ignoring case"#, json, true),
        ])
    }

    func testPresenceOperators() {
        check([
            ("nickname is set", Self.custom(#""nickname":"x""#), true),
            ("nickname is set", Self.custom(""), false),
            ("nickname is not set", Self.custom(""), true),
            ("nickname is not set", Self.custom(#""nickname":"x""#), false),
            ("profile.country is set", #"{"country":"US"}"#, true),
            ("profile.country is set", #"{"country":null}"#, false),
            ("profile.country is not set", #"{"country":null}"#, true),
            ("profile.country is not set", "{}", true),
        ])
    }

    func testNowAsSubject() {
        let window = "now between 2026-11-27 and 2026-11-30T23:59:59Z"
        check([(window, "{}", true)], now: Self.ms("2026-11-29T12:00:00Z"))
        check([(window, "{}", true)], now: Self.ms("2026-11-30T23:59:59Z"))
        check([(window, "{}", true)], now: Self.ms("2026-11-27T00:00:00Z"))
        check([(window, "{}", false)], now: Self.ms("2026-12-01T00:00:00Z"))
        check([(window, "{}", false)], now: Self.ms("2026-11-26T23:59:59.999Z"))
        check([("now >= 2026-11-29T12:00:00Z", "{}", true), ("now > 2026-11-29T12:00:00Z", "{}", false)])
    }

    // MARK: - Two-valued semantics

    func testMissingAttributeMakesEveryComparisonFalse() {
        let empty = Self.custom("")
        check([
            (#"experience == "pro""#, empty, false),
            (#"experience != "pro""#, empty, false),
            (#"experience in ["pro"]"#, empty, false),
            (#"experience not in ["pro"]"#, empty, false),
            (#"nickname contains "a""#, empty, false),
            (#"interests has "sports""#, empty, false),
            (#"interests has none ["sports"]"#, empty, false),
            (#"interests has any ["sports"]"#, empty, false),
            ("weekly_hours < 5", empty, false),
            ("weekly_hours >= 5", empty, false),
            ("weekly_hours between 0 and 100", empty, false),
            ("reminders == false", empty, false),
            ("reminders != true", empty, false),
            (#"sdk_version < "9""#, empty, false),
            ("goal_date < now", empty, false),
            (#"profile.country != "US""#, "{}", false),
            (#"profile.country not in ["US"]"#, "{}", false),
            (#"profile.access_levels has none ["premium"]"#, "{}", false),
            ("profile.age < 200", "{}", false),
            ("profile.days_since_install >= 0", "{}", false),
        ])
    }

    func testNotOfAFalseComparisonIsTrue() {
        let empty = Self.custom("")
        check([
            (#"not experience == "pro""#, empty, true),
            (#"not experience != "pro""#, empty, true),
            (#"not experience not in ["pro"]"#, empty, true),
            (#"not interests has none ["sports"]"#, empty, true),
            ("not weekly_hours < 5", empty, true),
            ("not (weekly_hours < 5 or weekly_hours >= 5)", empty, true),
            ("not not weekly_hours < 5", empty, false),
            (#"not experience == "pro""#, Self.custom(#""experience":"pro""#), false),
        ])
    }

    func testMistypedStoredValuesMakeComparisonsFalseButAreSet() {
        let numberForString = Self.custom(#""nickname":5"#)
        let textForBool = Self.custom(#""reminders":"true""#)
        let twoForBool = Self.custom(#""reminders":2"#)
        let textForDate = Self.custom(#""goal_date":"2026-01-01""#)
        let textForNumber = Self.custom(#""weekly_hours":"10""#)
        let numberForVersion = Self.custom(#""sdk_version":4"#)
        let numberForSet = Self.custom(#""interests":1"#)
        check([
            (#"nickname == "5""#, numberForString, false),
            (#"nickname != "5""#, numberForString, false),
            (#"nickname != "x""#, numberForString, false),
            (#"nickname contains "5""#, numberForString, false),
            (#"nickname not in ["x"]"#, numberForString, false),
            ("nickname is set", numberForString, true),
            ("nickname is not set", numberForString, false),
            (#"not nickname == "5""#, numberForString, true),

            ("reminders == true", textForBool, false),
            ("reminders == false", textForBool, false),
            ("reminders != true", textForBool, false),
            ("reminders != false", textForBool, false),
            ("reminders is set", textForBool, true),
            ("reminders == true", twoForBool, false),
            ("reminders == false", twoForBool, false),
            ("reminders != false", twoForBool, false),
            ("reminders is set", twoForBool, true),

            ("goal_date > 2020-01-01", textForDate, false),
            ("goal_date < 2030-01-01", textForDate, false),
            ("goal_date != 2026-01-01", textForDate, false),
            ("goal_date is set", textForDate, true),

            ("weekly_hours == 10", textForNumber, false),
            ("weekly_hours != 10", textForNumber, false),
            ("weekly_hours > 1", textForNumber, false),
            ("weekly_hours is set", textForNumber, true),

            (#"sdk_version == "4""#, numberForVersion, false),
            (#"sdk_version >= "1""#, numberForVersion, false),
            ("sdk_version is set", numberForVersion, true),

            (#"interests has none ["sports"]"#, numberForSet, false),
            ("interests is set", numberForSet, true),
        ])
    }

    func testMistypedBuiltinFieldsAreNotRejected() {
        check([
            (#"profile.country != "US""#, #"{"country":5}"#, false),
            (#"profile.country == "5""#, #"{"country":5}"#, false),
            ("profile.country is set", #"{"country":5}"#, true),
            (#"profile.access_levels has none ["premium"]"#, #"{"access_levels":"premium"}"#, false),
            (#"profile.access_levels has "premium""#, #"{"access_levels":"premium"}"#, false),
            (#"profile.access_levels has "premium""#, #"{"access_levels":["premium", 3]}"#, false),
            ("profile.total_revenue_usd > 0", #"{"total_revenue_usd":"12.5"}"#, false),
            ("profile.total_revenue_usd > 0", #"{"total_revenue_usd":12.5}"#, true),
            ("profile.created_at < now", #"{"created_at":"yesterday"}"#, false),
            ("profile.created_at >= now", #"{"created_at":"yesterday"}"#, false),
            ("profile.created_at is set", #"{"created_at":"yesterday"}"#, true),
            ("profile.age >= 0", #"{"birthday":"1990-13-01"}"#, false),
            ("profile.age < 0", #"{"birthday":"1990-13-01"}"#, false),
            ("profile.days_since_install >= 0", #"{"installed_at":12345}"#, false),
            (#"profile.app_version >= "1""#, #"{"app_version":4}"#, false),
            (#"profile.app_version < "9""#, #"{"app_version":4}"#, false),
        ])
    }

    func testDerivedFieldsAreNeverReadFromTheProfile() {
        check([
            ("profile.age == 40", #"{"age":40}"#, false),
            ("profile.age is set", #"{"age":40}"#, false),
            ("profile.age == 36", #"{"age":40,"birthday":"1990-01-01"}"#, true),
            ("profile.days_since_install == 3", #"{"days_since_install":3}"#, false),
        ])
    }

    func testUndeclaredAttributesUseTheInferredType() {
        let cases: [(String, String, Bool)] = [
            ("level == 3", Self.custom(#""level":3"#), true),
            ("level == 3", Self.custom(#""level":"3""#), false),
            ("level != 3", Self.custom(#""level":"3""#), false),
            (#"answer == "yes""#, Self.custom(#""answer":"yes""#), true),
            (#"answer == "1""#, Self.custom(#""answer":1"#), false),
            ("flag == true", Self.custom(#""flag":true"#), true),
            ("flag == true", Self.custom(#""flag":"true""#), false),
            ("when > 2026-01-01", Self.custom(#""when":1795996800000"#), true),
            ("when > 2026-01-01", Self.custom(#""when":"2026-02-01""#), false),
            (#"hobbies has "chess""#, Self.custom(#""hobbies":"go,chess""#), true),
            (#"hobbies has "chess""#, Self.custom(#""hobbies":["chess"]"#), true),
            ("anything is set", Self.custom(#""anything":12"#), true),
            ("anything is set", Self.custom(#""anything":"x""#), true),
        ]
        for (condition, json, expected) in cases {
            let loaded = LoadedRules(sources: [SourceFile(path: "u.rules", text: "segment s = \(condition)\n")])
            XCTAssertFalse(loaded.hasErrors, describe(loaded.diagnostics))
            let program = loaded.program!
            var evaluator = Evaluator(program: program, profile: profile(json), now: Self.now)
            XCTAssertEqual(evaluator.segmentMatches(0), expected, "\(condition) on \(json)")
        }
    }

    func testLongSegmentChainsEvaluate() {
        let count = 20_000
        var text = "audience top = s0\nplacement p { top -> flow \"deep\" }\n"
        for index in 0..<(count - 1) { text += "segment s\(index) = s\(index + 1)\n" }
        text += "segment s\(count - 1) = profile.country == \"US\"\n"
        let loaded = load(text)
        XCTAssertEqual(decision(loaded, "p", #"{"country":"US"}"#)?.outcome, .flow("deep"))
        XCTAssertNil(decision(loaded, "p", #"{"country":"FR"}"#)?.outcome)
    }

    // MARK: - Versions

    func testVersionsCompareBySemVerPrecedence() {
        func version(_ stored: String) -> String { #"{"app_version":""# + stored + #""}"# }
        check([
            (#"profile.app_version >= "4.2.0""#, version("4.10.0"), true),
            (#"profile.app_version < "4.10""#, version("4.9.9"), true),
            (#"profile.app_version == "4.2.0""#, version("v4.2"), true),
            (#"profile.app_version == "4""#, version("4.0.0"), true),
            (#"profile.app_version == "v4.2.0""#, version("4.2.0+build.7"), true),
            (#"profile.app_version < "4.2.0""#, version("4.2.0-beta"), true),
            (#"profile.app_version >= "4.2.0""#, version("4.2.0-beta"), false),
            (#"profile.app_version > "4.1.99""#, version("4.2.0-beta"), true),
            (#"profile.app_version < "4.2.0-beta""#, version("4.2.0-alpha"), true),
            (#"profile.app_version < "1.0.0-alpha.beta""#, version("1.0.0-alpha.1"), true),
            (#"profile.app_version < "1.0.0-beta.11""#, version("1.0.0-beta.2"), true),
            (#"profile.app_version < "1.0.0-rc.1""#, version("1.0.0-beta.11"), true),
            (#"profile.app_version between "4.0" and "5.0""#, version("4.9.1"), true),
            (#"profile.app_version between "4.0" and "5.0""#, version("5.0.1"), false),
            (#"profile.app_version > "99999999999999999999.0""#, version("100000000000000000000.0"), true),
        ])
    }

    func testUnparsableVersionsMakeComparisonsFalse() {
        for stored in ["4.2.0.1", "V4", "", "01.2", "4.x", "latest", " 4.2"] {
            let json = #"{"app_version":""# + stored + #""}"#
            for condition in [#"profile.app_version >= "0""#, #"profile.app_version < "999""#,
                              #"profile.app_version == "4.2""#, #"profile.app_version != "4.2""#,
                              #"profile.app_version in ["4.2"]"#, #"profile.app_version not in ["4.2"]"#] {
                XCTAssertFalse(matches(condition, json), "\(condition) on \(stored.debugDescription)")
            }
            XCTAssertTrue(matches("profile.app_version is set", json), stored.debugDescription)
        }
        check([(#"sdk_version >= "1""#, Self.custom(#""sdk_version":"1.0.0.0""#), false)])
    }

    // MARK: - Dates

    func testDatesRelativeToNow() {
        check([
            ("profile.installed_at >= now - 7d", #"{"installed_at":"2026-11-26T12:00:00Z"}"#, true),
            ("profile.installed_at >= now - 7d", #"{"installed_at":"2026-11-22T12:00:00Z"}"#, true),
            ("profile.installed_at >= now - 7d", #"{"installed_at":"2026-11-22T11:59:59.999Z"}"#, false),
            ("profile.installed_at >= now-7d", #"{"installed_at":"2026-11-21T12:00:00Z"}"#, false),
            ("profile.subscription_expires_at < now+12h", #"{"subscription_expires_at":"2026-11-29T23:59:59Z"}"#, true),
            ("profile.subscription_expires_at < now + 12h", #"{"subscription_expires_at":"2026-11-30T00:00:00Z"}"#, false),
            ("profile.last_seen_at > now - 30m", #"{"last_seen_at":"2026-11-29T11:45:00Z"}"#, true),
            ("profile.last_seen_at > now - 10s", #"{"last_seen_at":"2026-11-29T11:45:00Z"}"#, false),
            ("profile.installed_at between now - 7d and now", #"{"installed_at":"2026-11-29T12:00:00Z"}"#, true),
            ("goal_date > now", Self.custom(#""goal_date":1796083199000"#), true),
            ("goal_date > now + 2d", Self.custom(#""goal_date":1796083199000"#), false),
        ])
    }

    func testRelativeInstantsUpToThe64BitLimitCompareAsNumbers() {
        // 106751991167d is the largest whole number of days within 2^63 - 1 ms; `now +` it lies
        // past the end of Int64 and must still be later than every stored instant.
        let far = "106751991167d"
        let installed = #"{"installed_at":"2026-11-26T12:00:00Z"}"#
        let goal = Self.custom(#""goal_date":1796083199000"#)
        check([
            ("profile.installed_at > now - \(far)", installed, true),
            ("profile.installed_at < now + \(far)", installed, true),
            ("profile.installed_at >= now + \(far)", installed, false),
            ("profile.installed_at between now - \(far) and now + \(far)", installed, true),
            ("goal_date < now + \(far)", goal, true),
            ("goal_date != now + \(far)", goal, true),
            ("goal_date == now + \(far)", goal, false),
            ("now between now - \(far) and now + \(far)", "{}", true),
            ("now < now + 2562047788015h", "{}", true),
            ("now > now - 153722867280912m", "{}", true),
            ("now < now + 9223372036854775s", "{}", true),
        ])
        // Before 1970 `now - far` passes the other end of Int64.
        check([("now > now - \(far)", "{}", true), ("profile.installed_at > now - \(far)", installed, true)],
              now: Self.ms("1900-01-01"))
        // The flat code decides the same way.
        let loaded = load(Self.declarations + """
        segment s = goal_date < now + \(far) and profile.installed_at > now - \(far)
        audience a = s
        placement p {
          a -> flow "far"
        }
        """)
        let program = loaded.program!
        let profile = profile(#"{"installed_at":"2026-11-26T12:00:00Z","custom_attributes":{"goal_date":1796083199000}}"#)
        XCTAssertEqual(try? program.decide(placement: 0, for: profile, now: Self.now).get().outcome, .flow("far"))
        XCTAssertEqual(decision(loaded, "p", #"{"installed_at":"2026-11-26T12:00:00Z","custom_attributes":{"goal_date":1796083199000}}"#)?.outcome, .flow("far"))
    }

    func testFixedTimestampsWithOffsetsAndFractions() {
        check([
            ("profile.created_at == 2026-11-30T18:29:59Z", #"{"created_at":"2026-11-30T23:59:59+05:30"}"#, true),
            ("profile.created_at == 2026-11-30T23:59:59+05:30", #"{"created_at":"2026-11-30T18:29:59Z"}"#, true),
            ("profile.created_at == 2026-12-01T02:00:00Z", #"{"created_at":"2026-11-30T18:00:00-08:00"}"#, true),
            ("profile.created_at == 2026-01-01T00:00:00.123Z", #"{"created_at":"2026-01-01T00:00:00.123456Z"}"#, true),
            ("profile.created_at == 2026-01-01T00:00:00.123456789Z", #"{"created_at":"2026-01-01T00:00:00.123Z"}"#, true),
            ("profile.created_at > 2026-01-01T00:00:00Z", #"{"created_at":"2026-01-01T00:00:00.001Z"}"#, true),
            ("profile.created_at < 2026-01-02", #"{"created_at":"2026-01-01T23:59:59Z"}"#, true),
            ("profile.created_at >= 2026-01-02", #"{"created_at":"2026-01-01T23:59:59Z"}"#, false),
            ("profile.birthday == 1990-06-15", #"{"birthday":"1990-06-15"}"#, true),
            ("goal_date == 2026-11-30", Self.custom(#""goal_date":1795996800000"#), true),
            ("goal_date < 2026-11-30", Self.custom(#""goal_date":1795996799999"#), true),
        ])
    }

    func testNulEscapeNamesAValueHoldingUPlus0000() {
        check([
            (#"nickname == "a\u{0}b""#, Self.custom(#""nickname":"a\u0000b""#), true),
            (#"nickname == "a\u{0}b""#, Self.custom(#""nickname":"ab""#), false),
            (#"nickname contains "\u{0}""#, Self.custom(#""nickname":"a\u0000b""#), true),
            (#"nickname in ["\u{0}", "x"]"#, Self.custom(#""nickname":"\u0000""#), true),
            (#"tags has "\u{0}""#, Self.custom(#""tags":["a","\u0000"]"#), true),
        ])
    }

    // MARK: - Derived fields

    func testAgeCountsWholeYearsToTheUTCDateOfNow() {
        let birthday = #"{"birthday":"1990-06-15"}"#
        check([("profile.age == 35", birthday, true)], now: Self.ms("2026-06-14T23:59:59Z"))
        check([("profile.age == 36", birthday, true)], now: Self.ms("2026-06-15T00:00:00Z"))
        // 23:30 in New York on 14 June is already 15 June in UTC.
        check([("profile.age == 36", birthday, true)], now: Self.ms("2026-06-14T23:30:00-05:00"))
        check([("profile.age >= 18", birthday, true), ("profile.age < 18", birthday, false)])
    }

    func testAgeOfA29FebruaryBirthdayCountsFrom1March() {
        let leapling = #"{"birthday":"2000-02-29"}"#
        check([("profile.age == 25", leapling, true)], now: Self.ms("2026-02-28T23:59:59Z"))
        check([("profile.age == 26", leapling, true)], now: Self.ms("2026-03-01T00:00:00Z"))
        check([("profile.age == 27", leapling, true)], now: Self.ms("2028-02-28T12:00:00Z"))
        check([("profile.age == 28", leapling, true)], now: Self.ms("2028-02-29T00:00:00Z"))
        check([("profile.age == 0", leapling, true)], now: Self.ms("2000-02-29T00:00:00Z"))
    }

    func testDaysSinceInstallIsTheFloorOfElapsedDays() {
        let installed = #"{"installed_at":"2026-11-22T12:00:00Z"}"#
        check([("profile.days_since_install == 6", installed, true)], now: Self.ms("2026-11-29T11:59:59Z"))
        check([("profile.days_since_install == 7", installed, true)], now: Self.ms("2026-11-29T12:00:00Z"))
        check([("profile.days_since_install <= 7", installed, true)], now: Self.ms("2026-11-30T11:59:59Z"))
        check([("profile.days_since_install <= 7", installed, false)], now: Self.ms("2026-11-30T12:00:00Z"))
        check([("profile.days_since_install == 0", installed, true)], now: Self.ms("2026-11-22T12:00:00Z"))
        // In the future: negative, rounded down.
        check([("profile.days_since_install == -1", #"{"installed_at":"2026-11-29T13:00:00Z"}"#, true)])
        check([("profile.days_since_install == -2", #"{"installed_at":"2026-12-01T00:00:00Z"}"#, true)])
    }

    func testDerivedFieldsAreSetOnlyWhenComputable() {
        let uncomputable = ["{}", #"{"birthday":null}"#, #"{"birthday":"garbage"}"#, #"{"birthday":19900101}"#,
                            #"{"birthday":"2025-02-30"}"#, #"{"birthday":true}"#, #"{"birthday":["1990-01-01"]}"#]
        for json in uncomputable {
            check([
                ("profile.age is set", json, false),
                ("profile.age is not set", json, true),
                ("profile.age >= 0", json, false),
                ("profile.age < 0", json, false),
                ("profile.age != 30", json, false),
                ("profile.age in [30, 31]", json, false),
                ("not profile.age >= 0", json, true),
            ])
        }
        for json in ["{}", #"{"installed_at":null}"#, #"{"installed_at":"garbage"}"#, #"{"installed_at":1767225600000}"#,
                     #"{"installed_at":"2025-02-30T00:00:00Z"}"#, #"{"installed_at":false}"#] {
            check([
                ("profile.days_since_install is set", json, false),
                ("profile.days_since_install is not set", json, true),
                ("profile.days_since_install >= 0", json, false),
                ("profile.days_since_install < 0", json, false),
            ])
        }
        // The stored source is still set, fitting or not.
        check([
            ("profile.birthday is set", #"{"birthday":"garbage"}"#, true),
            ("profile.birthday is set and profile.age is not set", #"{"birthday":"2025-02-30"}"#, true),
            ("profile.age is set", #"{"birthday":"1990-06-15"}"#, true),
            ("profile.age is not set", #"{"birthday":"1990-06-15"}"#, false),
            ("profile.days_since_install is set", #"{"installed_at":"2026-11-22T12:00:00Z"}"#, true),
        ])
    }

    func testDatesStoredAsFractionalMillisecondsAreFloored() {
        let half = Self.custom(#""goal_date":1767225600000.5"#)
        let justBefore = Self.custom(#""goal_date":1767225599999.9"#)
        check([
            ("goal_date == 2026-01-01", half, true),
            ("goal_date >= 2026-01-01", half, true),
            ("goal_date > 2026-01-01", half, false),
            ("goal_date == 2026-01-01", justBefore, false),
            ("goal_date < 2026-01-01", justBefore, true),
            ("goal_date == 2025-12-31T23:59:59.999Z", justBefore, true),
            ("goal_date == 1969-12-31T23:59:59.999Z", Self.custom(#""goal_date":-0.5"#), true),
        ])
    }

    // MARK: - Case

    func testIgnoringCaseUsesUnicodeLowercase() {
        let ecole = Self.custom(#""school":"\u00C9COLE""#)
        check([
            (#"school == "\u{E9}cole" ignoring case"#, ecole, true),
            (#"school == "\u{E9}cole""#, ecole, false),
            (#"school == "\u{C9}cole" ignoring case"#, ecole, true),
            (#"school != "\u{E9}cole" ignoring case"#, ecole, false),
            (#"school starts with "\u{E9}c" ignoring case"#, ecole, true),
            (#"school ends with "OLE" ignoring case"#, ecole, true),
            (#"school contains "\u{C9}co" ignoring case"#, ecole, true),
            (#"school in ["lyc\u{E9}e", "\u{E9}cole"] ignoring case"#, ecole, true),
            (#"school not in ["\u{E9}COLE"] ignoring case"#, ecole, false),
            (#"school == "\u{E9}cole" ignoring case"#, Self.custom(#""school":"Stra\u00DFe""#), false),
            (#"school == "strasse" ignoring case"#, Self.custom(#""school":"STRASSE""#), true),
            (#"school == "Stra\u{DF}e" ignoring case"#, Self.custom(#""school":"STRASSE""#), false),
        ])
        check([(#"experience == "PRO" ignoring case"#, Self.custom(#""experience":"pro""#), true)])
    }

    func testIgnoringCaseAppliesFinalSigma() {
        let word = Self.custom(#""nickname":"\u039F\u0394\u039F\u03A3""#)  // ΟΔΟΣ
        check([
            (#"nickname == "οδος" ignoring case"#, word, true),
            (#"nickname == "οδοσ" ignoring case"#, word, false),
            (#"nickname == "ΟΔΟΣ" ignoring case"#, word, true),
            (#"nickname != "οδος" ignoring case"#, word, false),
            (#"nickname in ["οδος"] ignoring case"#, word, true),
            (#"nickname not in ["Οδος"] ignoring case"#, word, false),
            (#"nickname ends with "ος" ignoring case"#, word, true),
            (#"nickname ends with "οσ" ignoring case"#, word, false),
            (#"nickname contains "δος" ignoring case"#, word, true),
            (#"nickname starts with "οδος" ignoring case"#, Self.custom(#""nickname":"ΟΔΟΣ ΚΑΙ""#), true),
            (#"nickname == "ας." ignoring case"#, Self.custom(#""nickname":"ΑΣ.""#), true),
            (#"nickname == "σ" ignoring case"#, Self.custom(#""nickname":"Σ""#), true),
            (#"nickname == "ς" ignoring case"#, Self.custom(#""nickname":"Σ""#), false),
            (#"nickname == "ασα" ignoring case"#, Self.custom(#""nickname":"ΑΣΑ""#), true),
            // Exact comparisons are untouched.
            (#"nickname == "οδος""#, word, false),
        ])
        // Each member of a set is lowercased on its own.
        let tags = Self.custom(#""tags":["ΟΔΟΣ","ΑΣΑ"]"#)
        check([
            (#"tags has "οδος" ignoring case"#, tags, true),
            (#"tags has "οδοσ" ignoring case"#, tags, false),
            (#"tags has any ["x", "οδος"] ignoring case"#, tags, true),
            (#"tags has all ["οδος", "ασα"] ignoring case"#, tags, true),
            (#"tags has none ["οδος"] ignoring case"#, tags, false),
            (#"tags has "οδος" ignoring case"#, Self.custom(#""tags":"ΟΔΟΣ,ΑΣΑ""#), true),
        ])
    }

    // MARK: - Sets

    func testHasOperatorsOnACustomSet() {
        for json in [Self.custom(#""interests":"sports,music""#), Self.custom(#""interests":["sports","music"]"#)] {
            check([
                (#"interests has "sports""#, json, true),
                (#"interests has "travel""#, json, false),
                (#"interests has any ["travel", "music"]"#, json, true),
                (#"interests has any ["travel"]"#, json, false),
                (#"interests has all ["music", "sports"]"#, json, true),
                (#"interests has all ["sports", "travel"]"#, json, false),
                (#"interests has none ["travel"]"#, json, true),
                (#"interests has none ["travel", "music"]"#, json, false),
                (#"interests has "SPORTS" ignoring case"#, json, true),
                (#"interests has all ["Music", "SPORTS"] ignoring case"#, json, true),
                (#"interests has none ["MUSIC"] ignoring case"#, json, false),
                (#"interests has none ["MUSIC"]"#.replacingOccurrences(of: "MUSIC", with: "music"), json, false),
            ])
        }
    }

    func testAStoredSetIsSplitOnCommasWithoutTrimming() {
        let spaced = Self.custom(#""tags":"sports, music""#)
        check([
            (#"tags has "music""#, spaced, false),
            (#"tags has " music""#, spaced, true),
            (#"tags has "sports""#, spaced, true),
            (#"tags has "sports, music""#, spaced, false),
            (#"tags has "a""#, Self.custom(#""tags":"a""#), true),
        ])
    }

    func testACustomArrayIsTrimmedAfterJoining() {
        let spaced = Self.custom(#""interests":[" music","sports"]"#)
        check([
            (#"interests has "music""#, spaced, true),
            (#"interests has "sports""#, spaced, true),
            (#"interests has all ["music", "sports"]"#, spaced, true),
            (#"tags has "a ""#, Self.custom(#""tags":["a "," b "]"#), true),
            (#"tags has " b""#, Self.custom(#""tags":["a "," b "]"#), true),
            (#"nickname == "music,sports""#, Self.custom(#""nickname":[" music","sports\n"]"#), true),
            ("tags is set", Self.custom(#""tags":["  ", " "]"#), true),
            ("tags is set", Self.custom(#""tags":["  "]"#), false),
        ])
    }

    func testHasOperatorsOnAccessLevels() {
        let premium = #"{"access_levels":["premium","pro"]}"#
        let none = #"{"access_levels":[]}"#
        check([
            (#"profile.access_levels has "premium""#, premium, true),
            (#"profile.access_levels has "gold""#, premium, false),
            (#"profile.access_levels has any ["gold", "pro"]"#, premium, true),
            (#"profile.access_levels has all ["pro", "premium"]"#, premium, true),
            (#"profile.access_levels has all ["pro", "gold"]"#, premium, false),
            (#"profile.access_levels has none ["gold"]"#, premium, true),
            (#"profile.access_levels has none ["pro"]"#, premium, false),
            (#"profile.access_levels has "premium""#, none, false),
            (#"profile.access_levels has any ["premium"]"#, none, false),
            (#"profile.access_levels has all ["premium"]"#, none, false),
            (#"profile.access_levels has none ["premium"]"#, none, true),
            ("profile.access_levels is set", none, true),
            (#"profile.access_levels has none ["premium"]"#, #"{"access_levels":null}"#, false),
        ])
    }

    // MARK: - Placements

    private let placementRules = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    segment pros = experience == "pro"
    segment adults = profile.age >= 18
    segment answered = experience is set
    audience pro_adults = pros and adults
    audience experienced = answered
    audience kids = not adults
    placement onboarding {
      pro_adults  -> flow "f_pro"
      experienced -> flow "f_experienced"
      kids        -> nothing
      everyone    -> flow "f_default"
    }
    placement paywall_only {
      pro_adults -> paywall "pw_pro"
    }
    """

    func testFirstMatchingRowWins() {
        let loaded = load(placementRules)
        let proAdult = #"{"id":"u1","birthday":"1990-01-01","custom_attributes":{"experience":"pro"}}"#
        let proKid = #"{"id":"u2","birthday":"2015-01-01","custom_attributes":{"experience":"pro"}}"#
        let amateurAdult = #"{"id":"u3","birthday":"1990-01-01","custom_attributes":{"experience":"amateur"}}"#

        let first = decision(loaded, "onboarding", proAdult)
        XCTAssertEqual(first?.audience, "pro_adults")
        XCTAssertEqual(first?.row, 0)
        XCTAssertEqual(first?.outcome, .flow("f_pro"))
        XCTAssertEqual(first?.profileID, "u1")
        XCTAssertNil(first?.split)

        // A kid who answered matches `experienced` (row 1) and `kids` (row 2): row 1 decides.
        let second = decision(loaded, "onboarding", proKid)
        XCTAssertEqual(second?.audience, "experienced")
        XCTAssertEqual(second?.row, 1)
        XCTAssertEqual(second?.outcome, .flow("f_experienced"))

        XCTAssertEqual(decision(loaded, "onboarding", amateurAdult)?.outcome, .flow("f_experienced"))
    }

    func testEveryoneAndNothingRows() {
        let loaded = load(placementRules)
        let adult = decision(loaded, "onboarding", #"{"id":"u4","birthday":"1990-01-01"}"#)
        XCTAssertEqual(adult?.audience, "everyone")
        XCTAssertEqual(adult?.row, 3)
        XCTAssertEqual(adult?.outcome, .flow("f_default"))
        XCTAssertEqual(adult?.json["audience"], .string("everyone"))

        // No birthday: `adults` is false, so `not adults` is true.
        let kid = decision(loaded, "onboarding", #"{"id":"u5"}"#)
        XCTAssertEqual(kid?.audience, "kids")
        XCTAssertEqual(kid?.outcome, .nothing)
        XCTAssertEqual(kid?.json, .object([
            JSONMember(key: "profile_id", value: .string("u5")),
            JSONMember(key: "placement", value: .string("onboarding")),
            JSONMember(key: "audience", value: .string("kids")),
            JSONMember(key: "kind", value: .null),
            JSONMember(key: "id", value: .null),
            JSONMember(key: "split", value: .null),
        ]))
    }

    func testNoMatchingRowGivesNoAudience() {
        let loaded = load(placementRules)
        let none = decision(loaded, "paywall_only", #"{"birthday":"1990-01-01"}"#)
        XCTAssertNil(none?.audience)
        XCTAssertNil(none?.outcome)
        XCTAssertNil(none?.row)
        XCTAssertNil(none?.profileID)
        XCTAssertEqual(none?.json, .object([
            JSONMember(key: "profile_id", value: .null),
            JSONMember(key: "placement", value: .string("paywall_only")),
            JSONMember(key: "audience", value: .null),
            JSONMember(key: "kind", value: .null),
            JSONMember(key: "id", value: .null),
            JSONMember(key: "split", value: .null),
        ]))
        let match = decision(loaded, "paywall_only", #"{"birthday":"1990-01-01","custom_attributes":{"experience":"pro"}}"#)
        XCTAssertEqual(match?.outcome, .paywall("pw_pro"))
        XCTAssertEqual(match?.json["kind"], .string("paywall"))
        XCTAssertEqual(match?.json["id"], .string("pw_pro"))
    }

    func testSegmentAndAudienceResultsAgree() {
        let loaded = load(placementRules)
        let program = loaded.program!
        var evaluator = Evaluator(program: program, profile: profile(#"{"birthday":"1990-01-01","custom_attributes":{"experience":"pro"}}"#),
                                  now: Self.now)
        let names = program.segments.map(\.name)
        XCTAssertEqual(names, ["pros", "adults", "answered"])
        XCTAssertEqual((0..<3).map { evaluator.segmentMatches($0) }, [true, true, true])
        let audiences = program.audiences.map(\.name)
        XCTAssertEqual(audiences, ["pro_adults", "experienced", "kids"])
        XCTAssertEqual((0..<3).map { evaluator.audienceMatches($0) }, [true, true, false])
    }

    // MARK: - Splits

    private let welcomeRules = """
    placement welcome {
      everyone -> split "welcome_test_v1" {
        60% -> flow "flow_welcome_a"
        30% -> flow "flow_welcome_b"
        10% -> nothing
      }
    }
    """

    func testWelcomeSplitMatchesAdaptysAlgorithm() {
        let expected: [Outcome] = [.flow("flow_welcome_a"), .flow("flow_welcome_b"), .flow("flow_welcome_b"), .flow("flow_welcome_b"),
                                   .flow("flow_welcome_a"), .flow("flow_welcome_a"), .flow("flow_welcome_a"), .nothing,
                                   .flow("flow_welcome_b"), .flow("flow_welcome_a"), .flow("flow_welcome_a"), .flow("flow_welcome_a")]
        // Declaration order of the variants does not matter: they are sorted by weight.
        let reordered = welcomeRules.replacingOccurrences(of: """
            60% -> flow "flow_welcome_a"
            30% -> flow "flow_welcome_b"
            10% -> nothing
        """, with: """
            10% -> nothing
            60% -> flow "flow_welcome_a"
            30% -> flow "flow_welcome_b"
        """)
        XCTAssertNotEqual(reordered, welcomeRules)
        for rules in [welcomeRules, reordered] {
            let loaded = load(rules)
            let outcomes = (0..<12).map { decision(loaded, "welcome", #"{"id":"user-\#($0)"}"#)?.outcome }
            XCTAssertEqual(outcomes, expected)
            let first = decision(loaded, "welcome", #"{"id":"user-7"}"#)
            XCTAssertEqual(first?.split, "welcome_test_v1")
            XCTAssertEqual(first?.audience, "everyone")
            XCTAssertEqual(first?.json["split"], .string("welcome_test_v1"))
        }
    }

    func testSplitTiesAreBrokenByDestinationID() {
        // Equal weights: "flow_a" sorts before "flow_b" whatever the order written.
        for rules in [
            #"placement p { everyone -> split "tie" { 50% -> flow "flow_b" 50% -> flow "flow_a" } }"#,
            #"placement p { everyone -> split "tie" { 50% -> flow "flow_a" 50% -> flow "flow_b" } }"#,
        ] {
            let loaded = load(rules)
            for id in ["alice", "bob", "carol", "dave"] {
                let bucket = SplitDraw.bucket(splitID: "tie", profileID: id)
                let expected: Outcome = bucket < 50 ? .flow("flow_a") : .flow("flow_b")
                XCTAssertEqual(decision(loaded, "p", #"{"id":""# + id + #""}"#)?.outcome, expected, "\(id) bucket \(bucket)")
            }
        }
    }

    func testNothingSortsFirstAmongEqualWeights() {
        let loaded = load(#"placement p { everyone -> split "hold" { 50% -> flow "a" 50% -> nothing } }"#)
        for id in ["alice", "bob", "carol", "dave", "erin"] {
            let bucket = SplitDraw.bucket(splitID: "hold", profileID: id)
            XCTAssertEqual(decision(loaded, "p", #"{"id":""# + id + #""}"#)?.outcome, bucket < 50 ? .nothing : .flow("a"), "\(id) bucket \(bucket)")
        }
    }

    func testAProfileWithoutIDCannotBeSplit() {
        let loaded = load(welcomeRules)
        switch resolve(loaded, "welcome", #"{"birthday":"1990-01-01"}"#) {
        case .success(let decision): XCTFail("expected an error, got \(decision)")
        case .failure(let error):
            XCTAssertTrue(error.message.contains("id"), error.message)
            XCTAssertTrue(error.message.contains("welcome_test_v1"), error.message)
        }
        // A non-string id is no id.
        if case .success = resolve(loaded, "welcome", #"{"id":42}"#) { XCTFail("a numeric id must not be split") }
    }

    func testAProfileWithoutIDResolvesWhenNoSplitDecides() {
        let loaded = load("""
        segment adults = profile.age >= 18
        audience grown_ups = adults
        placement p {
          grown_ups -> flow "f_adult"
          everyone -> split "s" { 50% -> flow "a" 50% -> flow "b" }
        }
        """)
        let adult = decision(loaded, "p", #"{"birthday":"1990-01-01"}"#)
        XCTAssertEqual(adult?.outcome, .flow("f_adult"))
        XCTAssertNil(adult?.profileID)
        if case .success = resolve(loaded, "p", #"{"birthday":"2020-01-01"}"#) { XCTFail("the split row must fail without an id") }
    }

    // MARK: - Profiles

    private func rejection(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch ProfileReader.read(Array(json.utf8)) {
        case .success:
            XCTFail("expected \(json.prefix(120)) to be rejected", file: file, line: line)
            return nil
        case .failure(let error):
            return error.message
        }
    }

    private func attributes(_ count: Int) -> String {
        (0..<count).map { #""k\#($0)":"v""# }.joined(separator: ",")
    }

    func testProfileRejections() throws {
        XCTAssertNotNil(try XCTUnwrap(rejection(#"{"custom_attributes":{\#(attributes(31))}}"#)).range(of: "31"))
        let long = String(repeating: "x", count: 51)
        XCTAssertTrue(rejection(#"{"custom_attributes":{"bio":"\#(long)"}}"#)?.contains("`bio`") ?? false)
        XCTAssertTrue(rejection(#"{"custom_attributes":{"bio":"  \#(long)  "}}"#)?.contains("50") ?? false)
        XCTAssertTrue(rejection(#"{"custom_attributes":{"tags":["\#(String(repeating: "a", count: 25))","\#(String(repeating: "b", count: 25))"]}}"#) != nil)
        for key in ["bad key", "", "   ", "é", String(repeating: "k", count: 31), "a/b"] {
            let message = rejection(#"{"custom_attributes":{""# + key + #"":"v"}}"#)
            XCTAssertTrue(message?.contains("invalid") ?? false, "\(key.debugDescription): \(message ?? "accepted")")
        }
        XCTAssertTrue(rejection(#"{"custom_attributes":{" level":"a","level ":"b"}}"#)?.contains("`level`") ?? false)
        XCTAssertNotNil(rejection(#"{"custom_attributes":{"score":1e999}}"#))
        XCTAssertNotNil(rejection(#"{"custom_attributes":{"score":-1e400}}"#))
        XCTAssertNotNil(rejection(#"{"id":"a","id":"b"}"#))
        XCTAssertNotNil(rejection(#"{"custom_attributes":{"a":1,"a":2}}"#))
        XCTAssertNotNil(rejection(#"{"custom_attributes":{"a":{"b":1}}}"#))
        XCTAssertNotNil(rejection(#"{"custom_attributes":{"a":[1,2]}}"#))
        XCTAssertNotNil(rejection(#"{"custom_attributes":"x"}"#))
        XCTAssertNotNil(rejection(#"[1,2]"#))
        XCTAssertNotNil(rejection(#"{"id":"a""#))
    }

    func testNonFiniteNumberIsRejected() {
        let value = JSONValue.object([JSONMember(key: "custom_attributes", value: .object([
            JSONMember(key: "score", value: .number(.infinity)),
        ]))])
        guard case .failure(let error) = ProfileReader.read(value) else { return XCTFail("an infinite number must be rejected") }
        XCTAssertTrue(error.message.contains("`score`"), error.message)
        XCTAssertTrue(error.message.contains("finite"), error.message)
        if case .success = ProfileReader.read(JSONValue.object([JSONMember(key: "custom_attributes", value: .object([
            JSONMember(key: "score", value: .number(.nan)),
        ]))])) { XCTFail("NaN must be rejected") }
    }

    func testProfileAcceptedForms() {
        let read = profile("""
        {"id":"u1","custom_attributes":{
          "on": true, "off": false,
          "interests": ["sports", "music"],
          "  level  ": "  pro  ",
          "gone": "", "blank": "   ", "nothing": null,
          "hours": 3.5,
          "max": "\(String(repeating: "m", count: 50))"
        }}
        """)
        XCTAssertEqual(read.customAttributes["on"], .number(1))
        XCTAssertEqual(read.customAttributes["off"], .number(0))
        XCTAssertEqual(read.customAttributes["interests"], .string("sports,music"))
        XCTAssertEqual(read.customAttributes["level"], .string("pro"))
        XCTAssertEqual(read.customAttributes["hours"], .number(3.5))
        XCTAssertEqual(read.customAttributes["max"], .string(String(repeating: "m", count: 50)))
        XCTAssertNil(read.customAttributes["gone"])
        XCTAssertNil(read.customAttributes["blank"])
        XCTAssertNil(read.customAttributes["nothing"])
        XCTAssertEqual(read.customKeys, ["on", "off", "interests", "level", "hours", "max"])
        XCTAssertEqual(read.id, "u1")

        XCTAssertEqual(profile(#"{"custom_attributes":{\#(attributes(30))}}"#).customKeys.count, 30)
        let padded = profile(#"{"custom_attributes":{"bio":"   \#(String(repeating: "b", count: 50))\t"}}"#)
        XCTAssertEqual(padded.customAttributes["bio"], .string(String(repeating: "b", count: 50)))
        XCTAssertEqual(profile(#"{"custom_attributes":{}}"#), profile("{}"))
        XCTAssertEqual(profile(#"{"custom_attributes":null}"#), profile("{}"))
        // Unknown top-level fields are kept, and ignored by evaluation.
        let extra = profile(#"{"id":"u9","plan":{"tier":"gold"},"country":"US"}"#)
        XCTAssertEqual(extra["plan"], .object([JSONMember(key: "tier", value: .string("gold"))]))
        XCTAssertEqual(extra["country"], .string("US"))
    }

    func testAcceptedFormsEvaluateAsTheirDeclaredTypes() {
        check([
            ("reminders == true", Self.custom(#""reminders":true"#), true),
            ("reminders == false", Self.custom(#""reminders":false"#), true),
            (#"interests has all ["sports", "music"]"#, Self.custom(#""interests":["sports","music"]"#), true),
            (#"experience == "pro""#, Self.custom(#"" experience ":" pro ""#), true),
            ("experience is set", Self.custom(#""experience":"  ""#), false),
        ])
    }
}
