import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

final class AnalyzerTests: XCTestCase {
    // MARK: - Helpers

    private static let header = """
        attribute experience: string one of ["beginner", "amateur", "pro"]
        attribute weekly_hours: number
        attribute reminders: bool
        attribute interests: set of ["sports", "music", "travel"]
        attribute goal_date: date
        attribute sdk_version: version

        segment pros      = experience == "pro"
        segment amateurs  = experience == "amateur"
        segment beginners = experience == "beginner"
        segment adults    = profile.age >= 18

        """

    /// The analysis warnings of `rules` (the header prepended), after checking there are no errors.
    private func warnings(_ rules: String, header: Bool = true, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        let found = diagnostics((header ? AnalyzerTests.header : "") + rules)
        XCTAssertFalse(found.contains { $0.isError }, "unexpected errors:\n\(describe(found))", file: file, line: line)
        return found.filter { $0.code == "unreachable-row" || $0.code == "placement-falls-through" }
    }

    private func unreachable(_ rules: String, header: Bool = true, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        warnings(rules, header: header, file: file, line: line).filter { $0.code == "unreachable-row" }
    }

    private func fallThrough(_ rules: String, header: Bool = true, file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        let found = warnings(rules, header: header, file: file, line: line).filter { $0.code == "placement-falls-through" }
        XCTAssertLessThanOrEqual(found.count, 1, file: file, line: line)
        return found.first
    }

    /// Asserts the marked rules (header prepended) give exactly the analysis warnings listed, each at its marker.
    private func assertWarnings(_ marked: String, _ expected: [(marker: String, code: String, message: String)],
                                file: StaticString = #filePath, line: UInt = #line) {
        let source = MarkedSource(AnalyzerTests.header + marked)
        let found = diagnostics(source.text).filter { $0.code == "unreachable-row" || $0.code == "placement-falls-through" }
        XCTAssertEqual(found.count, expected.count, "got:\n\(describe(found))", file: file, line: line)
        for item in expected {
            assertDiagnostic(in: found, severity: .warning, code: item.code, messageContains: item.message,
                             at: source.position(item.marker, file: file, line: line), file: file, line: line)
        }
    }

    /// The example profile JSON of a fall-through warning.
    private func example(_ diagnostic: Diagnostic?, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard let message = diagnostic?.message, let range = message.range(of: ", e.g. ") else {
            XCTFail("no fall-through warning", file: file, line: line)
            return nil
        }
        return String(message[range.upperBound...])
    }

    // MARK: - Unreachable rows

    func testRowAfterCoveringAudienceIsUnreachable() {
        assertWarnings("""
            audience all_users = pros or not pros
            audience casuals = beginners or amateurs
            placement p {
              all_users -> flow "a"
              1️⃣casuals -> flow "b"
            }
            """, [("1️⃣", "unreachable-row", "row `casuals` can never decide: every profile it matches is taken by the rows above")])
    }

    func testUnreachableMessageNamesTheCoveringRow() {
        let found = unreachable("""
            audience all_users = pros or not pros
            audience casuals = beginners or amateurs
            placement p {
              all_users -> flow "a"
              casuals -> flow "b"
            }
            """)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.help, "every profile it matches is matched first by `all_users`")
    }

    func testSameAudienceTwice() {
        assertWarnings("""
            audience pro_users = pros
            audience casuals = beginners or amateurs
            placement p {
              pro_users -> flow "a"
              casuals -> flow "b"
              1️⃣pro_users -> flow "c"
              everyone -> flow "d"
            }
            """, [("1️⃣", "unreachable-row", "row `pro_users` can never decide")])
    }

    func testNarrowerAudienceAfterBroaderOne() {
        assertWarnings("""
            audience casuals = beginners or amateurs
            audience beginner_users = beginners
            placement 2️⃣p {
              casuals -> flow "a"
              1️⃣beginner_users -> flow "b"
            }
            """, [("1️⃣", "unreachable-row", "row `beginner_users` can never decide"),
                  ("2️⃣", "placement-falls-through", "some profiles match no row of `p`, e.g. {}")])
    }

    func testConjunctionAfterOneOfItsParts() {
        let found = unreachable("""
            audience pro_users = pros
            audience pros_and_adults = pros and adults
            placement p {
              pro_users -> flow "a"
              pros_and_adults -> flow "b"
              everyone -> flow "c"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `pros_and_adults` can never decide: every profile it matches is taken by the rows above"])
        XCTAssertEqual(found.first?.help, "every profile it matches is matched first by `pro_users`")
    }

    func testRowCoveredByTwoRowsTogether() {
        let found = unreachable("""
            audience beginner_users = beginners
            audience amateur_users = amateurs
            audience casuals = beginners or amateurs
            placement p {
              beginner_users -> flow "a"
              amateur_users -> flow "b"
              casuals -> flow "c"
            }
            """)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.help, "every profile it matches is matched first by `beginner_users` or `amateur_users`")
    }

    func testContradictoryAudienceMatchesNoProfile() {
        assertWarnings("""
            segment impossible_seg = experience == "pro" and experience == "beginner"
            audience impossible = impossible_seg
            placement p {
              1️⃣impossible -> flow "a"
              everyone -> flow "b"
            }
            """, [("1️⃣", "unreachable-row", "row `impossible` can never decide: no profile matches audience `impossible`")])
    }

    func testContradictoryNumberRange() {
        let found = unreachable("""
            segment odd = weekly_hours > 10 and weekly_hours < 5
            audience odd_users = odd
            placement p {
              odd_users -> flow "a"
            }
            """)
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.message.contains("no profile matches") ?? false)
    }

    func testDisjointRowsAreReachable() {
        XCTAssertEqual(unreachable("""
            audience pro_users = pros
            audience amateur_users = amateurs
            audience beginner_users = beginners
            placement p {
              pro_users -> flow "a"
              amateur_users -> flow "b"
              beginner_users -> flow "c"
              everyone -> flow "d"
            }
            """).map(\.message), [])
    }

    func testRowReachableOnlyBetweenTwoLiterals() {
        // Only 5 < weekly_hours < 10 reaches `mid_users`.
        XCTAssertEqual(unreachable("""
            segment low = weekly_hours <= 5
            segment high = weekly_hours >= 10
            segment positive = weekly_hours > 0
            audience low_users = low
            audience high_users = high
            audience mid_users = positive
            placement p {
              low_users -> flow "a"
              high_users -> flow "b"
              mid_users -> flow "c"
            }
            """).map(\.message), [])
    }

    func testRowBetweenLiteralsWithNothingLeftIsUnreachable() {
        let found = unreachable("""
            segment low = weekly_hours < 5
            segment high = weekly_hours > 5
            segment exactly = weekly_hours == 5
            segment positive = weekly_hours > 0 and weekly_hours < 100
            audience low_users = low
            audience high_users = high
            audience exact_users = exactly
            audience mid_users = positive
            placement p {
              low_users -> flow "a"
              high_users -> flow "b"
              exact_users -> flow "c"
              mid_users -> flow "d"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `mid_users` can never decide: every profile it matches is taken by the rows above"])
        XCTAssertEqual(found.first?.help, "every profile it matches is matched first by `low_users`, `high_users` or `exact_users`")
    }

    func testRowReachableOnlyBetweenTwoAdjacentWholeNumbersIsNot() {
        // `age` is a whole number: nothing lies strictly between 17 and 18.
        let found = unreachable("""
            segment minors = profile.age <= 17
            segment known_age = profile.age is set and profile.age > 0
            audience adult_users = adults
            audience minor_users = minors
            audience aged = known_age
            placement p {
              adult_users -> flow "a"
              minor_users -> flow "b"
              aged -> flow "c"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `aged` can never decide: every profile it matches is taken by the rows above"])
    }

    func testRowReachableThroughMissingValue() {
        // `!=` is false for a missing value, so `not pros` still matches profiles without `experience`.
        XCTAssertEqual(unreachable("""
            segment not_pro = experience != "pro"
            segment other = not pros
            audience not_pro_users = not_pro
            audience others = other
            placement p {
              not_pro_users -> flow "a"
              others -> flow "b"
            }
            """).map(\.message), [])
    }

    func testRowReachableThroughMistypedValue() {
        // `is set` holds for a value of the wrong type, which every other comparison rejects.
        XCTAssertEqual(unreachable("""
            segment hours_known = weekly_hours >= 0 or weekly_hours < 0
            segment hours_present = weekly_hours is set
            audience known = hours_known
            audience present = hours_present
            placement p {
              known -> flow "a"
              present -> flow "b"
            }
            """).map(\.message), [])
    }

    func testEveryoneAfterExhaustiveRows() {
        let found = unreachable("""
            segment has_experience = experience is set
            segment no_experience = not experience is set
            audience present = has_experience
            audience without = no_experience
            placement p {
              present -> flow "a"
              without -> flow "b"
              everyone -> flow "c"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `everyone` can never decide: every profile it matches is taken by the rows above"])
    }

    func testVersionRanges() {
        let found = unreachable("""
            segment old_sdk = sdk_version < "4.2.0"
            segment new_sdk = sdk_version >= "4.2.0"
            segment mid_sdk = sdk_version between "4.2.0" and "5.0.0"
            segment any_sdk = sdk_version >= "1.0.0"
            segment exact_sdk = sdk_version == "4.2"
            audience old_users = old_sdk
            audience new_users = new_sdk
            audience mid_users = mid_sdk
            audience any_users = any_sdk
            audience exact_users = exact_sdk
            placement p {
              old_users -> flow "a"
              mid_users -> flow "b"
              exact_users -> flow "c"
              new_users -> flow "d"
              any_users -> flow "e"
            }
            """)
        XCTAssertEqual(found.map(\.message), [
            "row `exact_users` can never decide: every profile it matches is taken by the rows above",
            "row `any_users` can never decide: every profile it matches is taken by the rows above",
        ])
    }

    func testVersionGapBetweenPreReleaseAndRelease() {
        // 5.0.0-beta lies between 4.9.9 and 5.0.0.
        XCTAssertEqual(unreachable("""
            segment up_to_49 = profile.app_version <= "4.9.9"
            segment from_5 = profile.app_version >= "5.0.0"
            segment known = profile.app_version > "1.0.0"
            audience a = up_to_49
            audience b = from_5
            audience c = known
            placement p {
              a -> flow "a"
              b -> flow "b"
              c -> flow "c"
            }
            """).map(\.message), [])
    }

    func testDateRanges() {
        let found = unreachable("""
            segment before = goal_date < 2026-01-01
            segment after = goal_date >= 2026-01-01
            segment late = goal_date > 2026-06-01
            segment new_install = profile.installed_at >= now - 7d
            segment very_new = profile.installed_at >= now - 1d
            audience before_users = before
            audience after_users = after
            audience late_users = late
            audience new_users = new_install
            audience very_new_users = very_new
            placement p {
              before_users -> flow "a"
              after_users -> flow "b"
              late_users -> flow "c"
            }
            placement q {
              new_users -> flow "a"
              very_new_users -> flow "b"
            }
            """)
        XCTAssertEqual(found.map(\.message), [
            "row `late_users` can never decide: every profile it matches is taken by the rows above",
            "row `very_new_users` can never decide: every profile it matches is taken by the rows above",
        ])
    }

    func testClockWindowRowIsReachable() {
        // The rows only apply at some times; the analysis must not fix `now`.
        XCTAssertEqual(unreachable("""
            segment black_friday = now between 2026-11-27 and 2026-11-30T23:59:59Z
            segment after_sale = now > 2026-12-01
            audience bf = black_friday
            audience later = after_sale
            placement p {
              bf -> flow "a"
              later -> flow "b"
              everyone -> flow "c"
            }
            """).map(\.message), [])
    }

    func testClockWindowsThatCannotOverlap() {
        let found = unreachable("""
            segment black_friday = now between 2026-11-27 and 2026-11-30T23:59:59Z
            segment cyber_monday = now between 2026-11-28 and 2026-11-29 and now between 2026-11-27 and 2026-11-30T23:59:59Z
            audience bf = black_friday
            audience cm = cyber_monday
            placement p {
              bf -> flow "a"
              cm -> flow "b"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `cm` can never decide: every profile it matches is taken by the rows above"])
    }

    func testRelativeDateAgainstFixedDateDependsOnTheClock() {
        // Installed in the last week and before 2026-03-01: possible, but only at some times.
        XCTAssertEqual(unreachable("""
            segment recent = profile.installed_at >= now - 7d
            segment early = profile.installed_at < 2026-03-01
            segment recent_early = recent and early
            audience late_recent = recent
            audience both = recent_early
            placement p {
              both -> flow "a"
              late_recent -> flow "b"
            }
            """).map(\.message), [])
    }

    func testAgeAgainstBirthday() {
        let found = unreachable("""
            segment born_early = profile.birthday < 1950-01-01
            segment young = profile.age < 18
            segment old_and_young = born_early and young
            audience impossible_now = old_and_young
            placement p {
              impossible_now -> flow "a"
            }
            """)
        // Before 1968 someone born before 1950 was under 18, so the row can decide at some `now`.
        XCTAssertEqual(found.map(\.message), [])
    }

    func testDerivedFieldIsNotSetForAnUnparsableSource() throws {
        // A birthday that is present but not a date leaves `profile.age` not set.
        XCTAssertEqual(unreachable("""
            segment age_unknown = profile.birthday is set and profile.age is not set
            segment days_unknown = profile.installed_at is set and not profile.days_since_install is set
            audience unknown = age_unknown
            audience never_counted = days_unknown
            placement p {
              unknown -> flow "a"
              never_counted -> flow "b"
            }
            """).map(\.message), [])
        // A birthday that is not a date is set while `age` is not, so a row after `age is set` can still decide.
        assertWarnings("""
            segment aged = profile.age is set
            segment born = profile.birthday is set
            audience aged_users = aged
            audience born_users = born
            placement p {
              aged_users -> flow "a"
              born_users -> flow "b"
              everyone -> flow "c"
            }
            """, [])
        let warning = fallThrough("""
            segment aged = profile.age is set
            segment unborn = not profile.birthday is set
            audience aged_users = aged
            audience unborn_users = unborn
            placement p {
              aged_users -> flow "a"
              unborn_users -> flow "b"
            }
            """)
        let json = try XCTUnwrap(example(warning))
        let profile = try XCTUnwrap(try? ProfileReader.read(Array(json.utf8)).get())
        XCTAssertNotNil(profile["birthday"], json)
        XCTAssertNil(profile["birthday"]?.stringValue.flatMap(Timestamp.parse), json)
    }

    func testSets() {
        let found = unreachable("""
            segment sporty = interests has "sports"
            segment sporty_music = interests has all ["sports", "music"]
            segment any_hobby = interests has any ["sports", "music", "travel"]
            segment no_sports = interests has none ["sports"]
            segment known = interests is set
            audience s = sporty
            audience sm = sporty_music
            audience h = any_hobby
            audience ns = no_sports
            audience k = known
            placement p {
              s -> flow "a"
              sm -> flow "b"
              h -> flow "c"
              ns -> flow "d"
              k -> flow "e"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `sm` can never decide: every profile it matches is taken by the rows above"])
        // `k` stays reachable: a stored number is present but is no set.
    }

    func testSetsIgnoringCase() {
        // In `q`, a set holding "Vip" (or "VIP" and nothing else matching exactly) still reaches `a`.
        assertWarnings("""
            attribute tags: set
            segment exact = tags has "VIP"
            segment any_case = tags has "vip" ignoring case
            audience e = exact
            audience a = any_case
            placement 2️⃣p {
              a -> flow "a"
              1️⃣e -> flow "b"
            }
            placement 3️⃣q {
              e -> flow "a"
              a -> flow "b"
            }
            """, [("1️⃣", "unreachable-row", "row `e` can never decide"),
                  ("2️⃣", "placement-falls-through", "e.g. {}"),
                  ("3️⃣", "placement-falls-through", "e.g. {}")])
    }

    func testIgnoringCaseAppliesFinalSigma() {
        let found = unreachable("""
            attribute nickname: string
            attribute tags: set
            segment exact = nickname == "ΟΔΟΣ"
            segment any_case = nickname == "οδος" ignoring case
            segment medial = nickname == "οδοσ" ignoring case
            segment tag_exact = tags has "ΑΣ"
            segment tag_any_case = tags has "ας" ignoring case
            audience e = exact
            audience a = any_case
            audience m = medial
            audience te = tag_exact
            audience ta = tag_any_case
            placement p {
              a -> flow "a"
              e -> flow "b"
              m -> flow "c"
            }
            placement q {
              ta -> flow "a"
              te -> flow "b"
            }
            """)
        // "ΟΔΟΣ" lowercases to "οδος", so `a` takes every profile of `e`; only "οδοσ" itself
        // lowercases to "οδοσ", and `a` does not take it. Set members fold the same way.
        XCTAssertEqual(found.map(\.message), [
            "row `e` can never decide: every profile it matches is taken by the rows above",
            "row `te` can never decide: every profile it matches is taken by the rows above",
        ])
    }

    func testIgnoringCase() {
        let found = unreachable("""
            attribute nickname: string
            segment exact = nickname == "Bob"
            segment any_case = nickname == "bob" ignoring case
            segment lower = nickname == "bob"
            audience e = exact
            audience a = any_case
            audience l = lower
            placement p {
              a -> flow "a"
              e -> flow "b"
              l -> flow "c"
            }
            placement q {
              e -> flow "a"
              l -> flow "b"
              a -> flow "c"
            }
            """)
        // In `p` both exact spellings come after the case-insensitive row; in `q`, "BOB" still reaches `a`.
        XCTAssertEqual(found.map(\.message), [
            "row `e` can never decide: every profile it matches is taken by the rows above",
            "row `l` can never decide: every profile it matches is taken by the rows above",
        ])
    }

    func testTextPatterns() {
        let found = unreachable("""
            attribute email: string
            segment gmail = email ends with "@gmail.com"
            segment at = email contains "@"
            segment mail = email ends with "mail.com"
            audience g = gmail
            audience a = at
            audience m = mail
            placement p {
              m -> flow "a"
              g -> flow "b"
            }
            placement q {
              g -> flow "a"
              a -> flow "b"
              m -> flow "c"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `g` can never decide: every profile it matches is taken by the rows above"])
    }

    func testBooleans() {
        let found = unreachable("""
            segment on = reminders == true
            segment off = reminders == false
            segment set_ = reminders is set
            audience on_users = on
            audience off_users = off
            audience set_users = set_
            placement p {
              on_users -> flow "a"
              off_users -> flow "b"
              set_users -> flow "c"
            }
            """)
        // A stored 2 is set but neither true nor false.
        XCTAssertEqual(found.map(\.message), [])
    }

    func testUndeclaredAttributeOnlyTestedForPresence() {
        let found = unreachable("""
            segment has_flag = flag is set
            segment no_flag = flag is not set
            audience present = has_flag
            audience without = no_flag
            placement p {
              present -> flow "a"
              without -> flow "b"
              everyone -> flow "c"
            }
            """)
        XCTAssertEqual(found.map(\.message), ["row `everyone` can never decide: every profile it matches is taken by the rows above"])
    }

    // MARK: - Falling through

    func testPlacementWithoutEveryoneFallsThrough() {
        let marked = """
            audience pro_users = pros
            placement 1️⃣p {
              pro_users -> flow "a"
            }
            """
        let source = MarkedSource(AnalyzerTests.header + marked)
        let found = diagnostics(source.text)
        let warning = assertDiagnostic(in: found, severity: .warning, code: "placement-falls-through",
                                       messageContains: "some profiles match no row of `p`, e.g. {}", at: source.position())
        XCTAssertEqual(warning?.message, "some profiles match no row of `p`, e.g. {}")
        XCTAssertEqual(warning?.help, "add an `everyone` row to decide for them")
    }

    func testNotInIsFalseForMissingValues() {
        let warning = fallThrough("""
            segment listed = experience in ["pro", "amateur"]
            segment unlisted = experience not in ["pro", "amateur"]
            audience l = listed
            audience u = unlisted
            placement p {
              l -> flow "a"
              u -> flow "b"
            }
            """)
        XCTAssertEqual(example(warning), "{}")
    }

    func testExampleProfileWithBuiltinField() {
        let warning = fallThrough("""
            segment ios = profile.platform == "ios"
            segment no_platform = not profile.platform is set
            audience ios_users = ios
            audience unknown_platform = no_platform
            placement p {
              ios_users -> flow "a"
              unknown_platform -> flow "b"
            }
            """)
        XCTAssertEqual(example(warning), #"{"platform":"ipados"}"#)
    }

    func testNoPlacementsNoWarnings() {
        XCTAssertEqual(warnings("""
            audience pro_users = pros
            audience also_pros = pros
            """).map(\.message), [])
    }

    func testEveryoneAloneIsFine() {
        XCTAssertEqual(warnings("""
            placement p {
              everyone -> flow "a"
            }
            """).map(\.message), [])
    }

    func testPlacementWithEveryoneDoesNotFallThrough() {
        XCTAssertNil(fallThrough("""
            audience pro_users = pros
            placement p {
              pro_users -> flow "a"
              everyone -> flow "b"
            }
            """))
    }

    func testExhaustiveRowsDoNotFallThrough() {
        XCTAssertNil(fallThrough("""
            segment known = experience is set
            segment unknown = not experience is set
            audience k = known
            audience u = unknown
            placement p {
              k -> flow "a"
              u -> flow "b"
            }
            """))
    }

    func testComplementaryComparisonsStillFallThroughOnMissing() {
        let warning = fallThrough("""
            segment big = weekly_hours > 5
            segment small = weekly_hours <= 5
            audience b = big
            audience s = small
            placement p {
              b -> flow "a"
              s -> flow "b"
            }
            """)
        XCTAssertEqual(example(warning), "{}")
    }

    func testExampleProfileShowsTheValuesNeeded() {
        let warning = fallThrough("""
            segment big = weekly_hours > 5
            segment small = weekly_hours <= 5
            segment none_ = not weekly_hours is set
            audience b = big
            audience s = small
            audience n = none_
            placement p {
              b -> flow "a"
              s -> flow "b"
              n -> flow "c"
            }
            """)
        XCTAssertEqual(example(warning), #"{"custom_attributes":{"weekly_hours":"x"}}"#)
    }

    func testExampleProfileWithStringAndBuiltin() {
        let warning = fallThrough("""
            segment not_pro = not pros
            segment ios = profile.platform == "ios"
            audience non_pros = not_pro
            audience ios_users = ios
            placement p {
              non_pros -> flow "a"
              ios_users -> flow "b"
            }
            """)
        XCTAssertEqual(example(warning), #"{"custom_attributes":{"experience":"pro"}}"#)
    }

    func testExampleProfileWithAge() throws {
        let warning = fallThrough("""
            segment no_age = not profile.birthday is set
            audience adult_users = adults
            audience unknown_age = no_age
            placement p {
              adult_users -> flow "a"
              unknown_age -> flow "b"
            }
            """)
        let json = try XCTUnwrap(example(warning))
        XCTAssertTrue(json.hasPrefix(#"{"birthday":""#), json)
        XCTAssertEqual(warning?.help, "with `now` at 2026-01-01T00:00:00Z; add an `everyone` row to decide for them")
        // The example must really fall through at that instant.
        let profile = try XCTUnwrap(try? ProfileReader.read(Array(json.utf8)).get())
        let birthday = try XCTUnwrap(profile["birthday"]?.stringValue.flatMap(Timestamp.parse))
        XCTAssertLessThan(Timestamp.age(birthday: Timestamp.civilDate(ms: birthday), nowMs: 1_767_225_600_000), 18)
    }

    func testExampleProfileWithSetAndVersion() throws {
        let warning = fallThrough("""
            segment sporty = interests has "sports"
            segment no_interests = not interests is set
            segment old = sdk_version < "2.0.0"
            segment no_sdk = not sdk_version is set
            audience s = sporty
            audience n = no_interests
            audience o = old
            audience ns = no_sdk
            placement p {
              s -> flow "a"
              n -> flow "b"
              o -> flow "c"
              ns -> flow "d"
            }
            """)
        let json = try XCTUnwrap(example(warning))
        let profile = try XCTUnwrap(try? ProfileReader.read(Array(json.utf8)).get())
        XCTAssertNotNil(profile.customAttributes["interests"], json)
        XCTAssertNotNil(profile.customAttributes["sdk_version"], json)
    }

    func testFallThroughOutsideAClockWindow() {
        let warning = fallThrough("""
            segment black_friday = now between 2026-11-27 and 2026-11-30T23:59:59Z
            audience bf = black_friday
            placement p {
              bf -> flow "a"
            }
            """)
        XCTAssertEqual(example(warning), "{}")
        XCTAssertEqual(warning?.help, "with `now` at 2026-01-01T00:00:00Z; add an `everyone` row to decide for them")
    }

    func testFallThroughWithTextPatterns() throws {
        let warning = fallThrough("""
            attribute email: string
            segment gmail = email ends with "@gmail.com"
            segment other_mail = email contains "@" and not email ends with "@gmail.com"
            segment no_at = email is set and not email contains "@"
            segment no_email = not email is set
            audience g = gmail
            audience o = other_mail
            audience n = no_at
            placement p {
              g -> flow "a"
              o -> flow "b"
              n -> flow "c"
            }
            """)
        XCTAssertEqual(example(warning), "{}")
    }

    // MARK: - Agreement with the evaluator

    /// A small deterministic pseudo-random generator.
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    /// Random rules over a few attributes; for every row reported as unreachable, many profiles
    /// built from the literals and their neighbours (missing and mistyped values included) at
    /// several instants must all be decided elsewhere by the real evaluator.
    func testUnreachableRowsAgreeWithTheEvaluatorOnRandomRules() {
        let nows = ["2025-06-01", "2025-12-30T12:00:00Z", "2025-12-31T23:00:00Z", "2026-01-01", "2026-01-01T00:30:00Z", "2026-03-01", "2026-07-01"]
            .map { Timestamp.parse($0)! }
        var checked = 0
        for seed in 0..<150 {
            var random = Random(state: UInt64(seed) &* 2_654_435_761 &+ 1)
            let focus = [random.next(11), random.next(11)]
            func comparison() -> String {
                switch random.pick(focus) {
                case 0: return "s \(random.pick(["==", "!=", "contains", "starts with", "ends with"])) \"\(random.pick(["a", "A", "ab", "b", "ba", "Ab"]))\""
                    + (random.next(3) == 0 ? " ignoring case" : "")
                case 1: return "n \(random.pick(["==", "!=", "<", "<=", ">", ">="])) \(random.pick(["1", "2", "2.5", "10"]))"
                case 2: return "b == \(random.next(2) == 0)"
                case 3: return "d \(random.pick(["==", "<", ">=", ">"])) \(random.pick(["2026-01-01", "2026-01-02T00:00:00Z", "now - 1d", "now", "now + 2h"]))"
                case 4: return "v \(random.pick(["==", "<", ">=", "!="])) \(random.pick(["\"1.0.0\"", "\"1.0.1\"", "\"2.0.0-beta\"", "\"2\""]))"
                case 5:
                    let op = random.pick(["has", "has any", "has all", "has none"])
                    let literal = random.pick(["\"x\"", "\"y\"", "\"X\""])
                    return "t \(op) " + (op == "has" ? literal : "[\(literal)]") + (random.next(3) == 0 ? " ignoring case" : "")
                case 6: return random.pick(["s", "n", "b", "d", "v", "t"]) + random.pick([" is set", " is not set"])
                case 7: return "now \(random.pick(["<", ">="])) \(random.pick(["2026-01-01", "2026-06-01"]))"
                case 8: return "profile.birthday \(random.pick(["<", ">=", "=="])) \(random.pick(["2008-01-01", "2007-12-31", "1996-01-01T12:00:00Z"]))"
                case 9: return "profile.age \(random.pick(["<", ">=", "=="])) \(random.pick(["17", "18", "29", "30"]))"
                default:
                    return random.next(2) == 0
                        ? "profile.installed_at \(random.pick(["<", ">=", "=="])) \(random.pick(["2025-12-25", "2025-12-31T23:00:00Z", "now - 3d"]))"
                        : "profile.days_since_install \(random.pick(["<", ">=", "=="])) \(random.pick(["0", "3", "7", "2.5"]))"
                }
            }
            var text = "attribute s: string\nattribute n: number\nattribute b: bool\nattribute d: date\nattribute v: version\nattribute t: set\n"
            for index in 0..<6 {
                let parts = (0..<(1 + random.next(2))).map { _ in (random.next(3) == 0 ? "not " : "") + comparison() }
                text += "segment g\(index) = " + parts.joined(separator: random.pick([" and ", " or "])) + "\n"
            }
            for index in 0..<5 {
                let parts = (0..<(1 + random.next(2))).map { _ in (random.next(3) == 0 ? "not " : "") + "g\(random.next(6))" }
                text += "audience a\(index) = " + parts.joined(separator: random.pick([" and ", " or "])) + "\n"
            }
            text += "placement p {\n" + (0..<(2 + random.next(4))).map { _ in "  a\(random.next(5)) -> flow \"f\"\n" }.joined()
                + (random.next(2) == 0 ? "  everyone -> flow \"e\"\n" : "") + "}\n"
            let loaded = LoadedRules(sources: [SourceFile(path: "random.rules", text: text)])
            guard !loaded.hasErrors else { continue }
            let flagged = Set(Analyzer.analyze(loaded.program!).filter { $0.code == "unreachable-row" }.map(\.range))
            guard !flagged.isEmpty else { continue }
            let program = loaded.program!
            let rows = program.placements[0].rows
            for trial in 0..<400 {
                var pick = Random(state: UInt64(trial) &* 7_919 &+ UInt64(seed))
                let now = pick.pick(nows)
                var custom: [JSONMember] = []
                func add(_ key: String, _ value: JSONValue?) { if let value { custom.append(JSONMember(key: key, value: value)) } }
                add("s", pick.pick([nil, .string("a"), .string("A"), .string("ab"), .string("Ab"), .string("AB"), .string("ba"), .string("b"), .string("zz"), .string("aba"), .number(1)]))
                add("n", pick.pick([nil, .number(0), .number(1), .number(1.5), .number(2), .number(2.5), .number(3), .number(10), .number(11), .string("x")]))
                add("b", pick.pick([nil, .bool(true), .bool(false), .number(2)]))
                add("v", pick.pick([nil, .string("0.5.0"), .string("1.0.0"), .string("1.0.1-0"), .string("1.0.1"), .string("2.0.0-alpha"), .string("2.0.0-beta.0"), .string("2.0.0"), .string("3.0.0"), .string("x")]))
                add("t", pick.pick([nil, .array([.string("x")]), .array([.string("y")]), .array([.string("X")]), .array([.string("x"), .string("y")]), .array([.string("o")]), .number(3)]))
                let offsets: [Int64] = [0, -1, 1, -86_400_000, -86_400_001, -86_399_999, 7_200_000, 7_200_001]
                let fixed = [Timestamp.parse("2026-01-01")!, Timestamp.parse("2026-01-02")!]
                if pick.next(4) > 0 { add("d", .number(Double(pick.next(2) == 0 ? now + pick.pick(offsets) : pick.pick(fixed) + Int64(pick.next(3) - 1)))) }
                var members: [JSONMember] = []
                let installs: [JSONValue?] = [nil, .string("2025-12-25"), .string("2025-12-24T23:59:59.999Z"), .string("2025-12-31T23:00:00Z"),
                                              .string(Timestamp.format(now - 3 * 86_400_000)), .string(Timestamp.format(now - 3 * 86_400_000 + 1)),
                                              .string(Timestamp.format(now - 60_000)), .string(Timestamp.format(now + 60_000)), .bool(true)]
                if let install = pick.pick(installs) { members.append(JSONMember(key: "installed_at", value: install)) }
                if pick.next(3) == 0 {
                    members.append(JSONMember(key: "birthday", value: .string(pick.pick(["2008-01-01", "2007-12-31", "2008-01-02", "1996-01-01", "1995-12-31"]))))
                } else if let age = pick.pick([nil, 16, 17, 18, 19, 29, 30, 31]) {
                    let today = Timestamp.civilDate(ms: now)
                    let birthday = CivilDate(year: today.year - age, month: today.month, day: min(today.day, 28))
                    members.append(JSONMember(key: "birthday", value: .string(birthday.description)))
                }
                if !custom.isEmpty { members.append(JSONMember(key: "custom_attributes", value: .object(custom))) }
                guard case .success(let profile) = ProfileReader.read(.object(members)) else { continue }
                var evaluator = Evaluator(program: program, profile: profile, now: now)
                guard case .success(let decision) = evaluator.resolve(placement: 0, profileID: "u1"), let row = decision.row else { continue }
                checked += 1
                XCTAssertFalse(flagged.contains(rows[row].source.audience.range),
                               "row \(row) is reported unreachable but \(JSONWriter.write(.object(members))) reaches it at \(Timestamp.format(now)):\n\(text)")
            }
        }
        XCTAssertGreaterThan(checked, 1_000)
    }

    // MARK: - Scale

    /// 1,000 segments over 40 attributes, 10 audiences of 100 segments each, and placements over them.
    private static func bigRules() -> String {
        var text = ""
        for index in 0..<1_000 {
            let attribute = "attr\(index % 40)"
            switch index % 4 {
            case 0: text += "segment s\(index) = \(attribute) == \"v\(index)\"\n"
            case 1: text += "segment s\(index) = \(attribute) != \"v\(index)\" and s\(index - 1)\n"
            case 2: text += "segment s\(index) = \(attribute) starts with \"p\(index)\" or s\(index - 2)\n"
            default: text += "segment s\(index) = not s\(index - 1) and \(attribute) is set\n"
            }
        }
        for audience in 0..<10 {
            let members = (0..<100).map { "s\(audience * 100 + $0)" }
            text += "audience a\(audience) = " + members.joined(separator: audience % 2 == 0 ? " or " : " and ") + "\n"
        }
        let rows = (0..<10).map { "  a\($0) -> flow \"f\($0)\"\n" }.joined()
        text += "placement with_default {\n\(rows)  everyone -> flow \"default\"\n}\n"
        text += "placement without_default {\n\(rows)}\n"
        text += "placement repeated {\n\(rows)\(rows)}\n"
        return text
    }

    func testBigRuleSetIsFast() throws {
        let loaded = LoadedRules(sources: [SourceFile(path: "big.rules", text: AnalyzerTests.bigRules())])
        XCTAssertFalse(loaded.hasErrors, describe(loaded.diagnostics.filter(\.isError)))
        let found = Analyzer.analyze(loaded.program!)
        // The second copy of each row in `repeated` can never decide.
        let repeated = found.filter { $0.code == "unreachable-row" && $0.range.start.line > 1_020 }
        XCTAssertGreaterThanOrEqual(repeated.count, 1)
    }

    func testHardQuestionsGiveUpWithinTheBudget() {
        // Random three-literal clauses over 50 booleans: hard for any search, so the budget must stop it.
        var state: UInt64 = 77
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var text = (0..<50).map { "attribute b\($0): bool\n" }.joined()
        for index in 0..<1_000 {
            text += "segment s\(index) = " + (0..<3).map { _ in "b\(random(50)) == \(random(2) == 0)" }.joined(separator: " or ") + "\n"
        }
        for audience in 0..<10 {
            text += "audience a\(audience) = " + (0..<100).map { _ in "s\(random(1_000))" }.joined(separator: " and ") + "\n"
        }
        let rows = (0..<10).map { "  a\($0) -> flow \"f\($0)\"\n" }.joined()
        text += "placement p {\n\(rows)}\nplacement q {\n\(rows)  everyone -> flow \"d\"\n}\n"
        let loaded = LoadedRules(sources: [SourceFile(path: "hard.rules", text: text)])
        XCTAssertFalse(loaded.hasErrors)
        let program = loaded.program!
        // The budget, not the clock, stops the search: each question gives up within its share
        // of work (overshooting by at most one propagation over the graph), and a question it
        // gives up on is answered `unknown`, never `impossible`.
        var search = ProfileSearch(graph: ConditionGraph(program))
        let nodes = program.placements[0].rows.compactMap { $0.audience.map { search.graph.audienceNodes[$0] } }
        var answers: [String] = []
        for (position, node) in nodes.enumerated() {
            let goals = [Goal(node: node, value: true)] + nodes[..<position].map { Goal(node: $0, value: false) }
            switch search.solve(goals, concreteOnly: false) {
            case .found: answers.append("found")
            case .impossible: answers.append("impossible")
            case .unknown: answers.append("unknown")
            }
            XCTAssertGreaterThan(search.workLeft, -4 * search.graph.nodes.count, "question \(position) overran the budget")
        }
        XCTAssertTrue(answers.contains("unknown"), "the hard questions should exhaust the budget: \(answers)")
        XCTAssertLessThanOrEqual(search.workLeft, 0)
        // The whole analysis ends too, and claims nothing it could not settle.
        let warnings = Analyzer.analyze(program).filter { $0.code == "unreachable-row" }
        XCTAssertTrue(warnings.isEmpty, describe(warnings))
    }

    func testDateOperandsFarOutsideTheCalendarStillHaveCandidates() {
        // `now - 20000000000d` lies far before any date a profile holds, `now + 106751991167d`
        // far after: every stored date is on one side, so the first two rows are reachable.
        let found = unreachable("""
        segment far = goal_date > now - 20000000000d
        segment near = goal_date < now + 106751991167d
        segment beyond = goal_date > now + 106751991167d
        audience a_far = far
        audience a_near = near
        audience a_beyond = beyond
        placement p {
          a_far -> flow "x"
          everyone -> flow "d"
        }
        placement q {
          a_near -> flow "x"
          everyone -> flow "d"
        }
        placement r {
          a_beyond -> flow "x"
          everyone -> flow "d"
        }
        """)
        XCTAssertEqual(found.map(\.message), ["row `a_beyond` can never decide: no profile matches audience `a_beyond`"])
    }

    func testDeepSegmentChain() {
        var text = "segment c0 = x0 >= 0\n"
        for index in 1..<3_000 { text += "segment c\(index) = c\(index - 1) and x\(index % 50) >= \(index % 7)\n" }
        text += "audience deep = c2999\naudience deep_again = c2999 and c10\n"
        text += "placement p {\n  deep -> flow \"a\"\n  deep_again -> flow \"b\"\n}\n"
        let loaded = LoadedRules(sources: [SourceFile(path: "deep.rules", text: text)])
        XCTAssertFalse(loaded.hasErrors, describe(loaded.diagnostics.filter(\.isError)))
        let found = Analyzer.analyze(loaded.program!)
        XCTAssertEqual(found.filter { $0.code == "unreachable-row" }.map(\.message),
                       ["row `deep_again` can never decide: every profile it matches is taken by the rows above"])
        XCTAssertEqual(found.filter { $0.code == "placement-falls-through" }.count, 1)
    }
}
