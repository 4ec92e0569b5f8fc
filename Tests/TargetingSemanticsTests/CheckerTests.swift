import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingBase

final class CheckerTests: XCTestCase {
    /// Declarations most tests build on.
    private let declarations = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    attribute interests: set of ["sports", "music", "travel"]
    attribute weekly_hours: number
    attribute reminders: bool
    attribute goal_date: date
    attribute sdk_version: version
    attribute nickname: string

    """

    /// Asserts the diagnostic at the marker and that it is the only error of the file.
    @discardableResult
    private func assertOnlyError(_ marked: String, code: String, messageContains: String, marker: String = "1️⃣",
                                 file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        let found = assertDiagnostic(marked, severity: .error, code: code, messageContains: messageContains, marker: marker,
                                     file: file, line: line)
        let errors = diagnostics(MarkedSource(marked).text).filter(\.isError)
        XCTAssertEqual(errors.count, 1, "expected exactly one error:\n\(describe(errors))", file: file, line: line)
        return found
    }

    /// Asserts that `text` loads without errors.
    private func assertNoErrors(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let errors = diagnostics(text).filter(\.isError)
        XCTAssertEqual(errors, [], describe(errors), file: file, line: line)
    }

    // MARK: - Names

    func testUnknownSegmentSuggestsTheNearestName() {
        let diagnostic = assertOnlyError(declarations + """
        segment pros = experience == "pro"
        segment adults = profile.age >= 18
        audience pro_adults = 1️⃣prso and adults
        placement p { pro_adults -> flow "f" }
        """, code: "unknown-segment", messageContains: "unknown segment `prso`")
        XCTAssertEqual(diagnostic?.help, "did you mean `pros`?")
    }

    func testUnknownSegmentInASegmentAndWithoutSuggestion() {
        assertOnlyError("""
        segment pros = experience == "pro"
        segment s = pros or not 1️⃣beginers
        audience a = s
        placement p { a -> flow "f" }
        """, code: "unknown-segment", messageContains: "`beginers`")
        let far = assertOnlyError("""
        segment pros = experience == "pro"
        audience a = pros and 1️⃣zzzzzzzz
        placement p { a -> flow "f" }
        """, code: "unknown-segment", messageContains: "`zzzzzzzz`")
        XCTAssertNil(far?.help)
    }

    func testUnknownAudienceSuggestsTheNearestName() {
        let diagnostic = assertOnlyError("""
        segment pros = experience == "pro"
        audience pro_adults = pros
        placement p {
          1️⃣pro_adult -> flow "f"
          pro_adults -> flow "g"
        }
        """, code: "unknown-audience", messageContains: "unknown audience `pro_adult`")
        XCTAssertEqual(diagnostic?.help, "did you mean `pro_adults`?")
    }

    func testSegmentUsedInAPlacement() {
        assertOnlyError("""
        segment pros = experience == "pro"
        placement p { 1️⃣pros -> flow "f" }
        """, code: "wrong-kind", messageContains: "`pros` is a segment, not an audience")
    }

    func testAudienceUsedInASegmentOrAnAudience() {
        assertOnlyError("""
        segment pros = experience == "pro"
        audience a = pros
        segment s = experience is set and 1️⃣a
        audience b = s
        placement p { a -> flow "f" b -> flow "g" }
        """, code: "wrong-kind", messageContains: "`a` is an audience, not a segment")
        assertOnlyError("""
        segment pros = experience == "pro"
        audience a = pros
        audience b = not 1️⃣a
        placement p { a -> flow "f" b -> flow "g" }
        """, code: "wrong-kind", messageContains: "`a` is an audience, not a segment")
    }

    func testPlacementUsedWhereASegmentOrAudienceBelongs() {
        assertOnlyError("""
        segment pros = experience == "pro"
        audience a = pros
        placement p { a -> flow "f" }
        placement q { 1️⃣p -> flow "g" }
        """, code: "wrong-kind", messageContains: "`p` is a placement, not an audience")
        assertOnlyError("""
        segment pros = experience == "pro" or 1️⃣p
        audience a = pros
        placement p { a -> flow "f" }
        """, code: "wrong-kind", messageContains: "`p` is a placement, not a segment")
    }

    func testComparisonInAnAudience() {
        assertOnlyError("""
        segment pros = experience == "pro"
        audience a = pros and 1️⃣profile.age >= 18
        placement p { a -> flow "f" }
        """, code: "comparison-in-audience", messageContains: "segments only")
        assertOnlyError("""
        audience a = (1️⃣experience == "pro")
        placement p { a -> flow "f" }
        """, code: "comparison-in-audience", messageContains: "segments only")
    }

    func testDuplicateNameAtTheSecondDeclaration() {
        let diagnostic = assertOnlyError("""
        segment pros = experience == "pro"
        audience 1️⃣pros = pros
        """, code: "duplicate-name", messageContains: "`pros` is already declared")
        XCTAssertEqual(diagnostic?.help, "first declared at main.rules:1:9")
        assertOnlyError("""
        segment s = experience == "pro"
        audience a = s
        placement p { a -> flow "f" }
        placement 1️⃣p { a -> flow "g" }
        """, code: "duplicate-name", messageContains: "`p`")
        assertOnlyError("""
        segment s = experience == "pro"
        segment 1️⃣s = experience == "pro"
        """, code: "duplicate-name", messageContains: "`s`")
    }

    func testDuplicateNameAcrossTwoFiles() {
        let second = MarkedSource("""
        # audiences
        audience 1️⃣pros = pros
        """)
        let found = diagnostics(files: [
            (path: "a.rules", text: "segment pros = experience == \"pro\"\n"),
            (path: "b.rules", text: second.text),
        ])
        let diagnostic = assertDiagnostic(in: found, severity: .error, code: "duplicate-name", messageContains: "`pros`",
                                          at: second.position(), path: "b.rules")
        XCTAssertEqual(diagnostic?.help, "first declared at a.rules:1:9")
        XCTAssertEqual(found.filter(\.isError).count, 1, describe(found))
    }

    func testDuplicateAttributeEvenWhenIdentical() {
        let diagnostic = assertOnlyError("""
        attribute level: number
        attribute 1️⃣level: number
        segment s = level > 1
        """, code: "duplicate-attribute", messageContains: "attribute `level` is already declared")
        XCTAssertEqual(diagnostic?.help, "first declared at main.rules:1:11")
        let found = diagnostics(files: [
            (path: "a.rules", text: "attribute level: number\n"),
            (path: "b.rules", text: "attribute `level`: string\n"),
        ])
        assertDiagnostic(in: found, severity: .error, code: "duplicate-attribute", messageContains: "`level`",
                         at: MarkedSource.Position(line: 1, column: 11), path: "b.rules")
    }

    func testDuplicateInput() {
        assertOnlyError("""
        input email -> profile.email
        input 1️⃣email -> profile.email
        """, code: "duplicate-input", messageContains: "`email`")
        assertOnlyError("""
        input scr/email -> profile.email
        input 1️⃣"scr"/email -> other_email
        """, code: "duplicate-input", messageContains: "`email`")
        // The same element on another screen, or unqualified, is a different input.
        assertNoErrors("""
        input email -> profile.email
        input scr/email -> work_email
        input other/email -> home_email
        """)
    }

    func testTwoInputsWritingOneTargetIsAWarning() {
        assertDiagnostic("""
        input email -> profile.email
        input scr/mail -> 1️⃣profile.email
        """, severity: .warning, code: "shared-input-target", messageContains: "`profile.email`")
    }

    func testCycles() {
        let own = assertOnlyError("""
        segment a = experience is set and 1️⃣a
        audience x = a
        placement p { x -> flow "f" }
        """, code: "cycle", messageContains: "segment `a` depends on itself")
        XCTAssertEqual(own?.help, "cycle: `a` -> `a`")

        let two = assertOnlyError("""
        segment a = b or experience == "pro"
        segment b = not 1️⃣a
        audience x = a
        placement p { x -> flow "f" }
        """, code: "cycle", messageContains: "depends on itself")
        XCTAssertEqual(two?.help, "cycle: `a` -> `b` -> `a`")

        assertOnlyError("""
        segment a = b
        segment b = c
        segment c = (experience is set and 1️⃣a)
        audience x = a
        placement p { x -> flow "f" }
        """, code: "cycle", messageContains: "depends on itself")
    }

    func testLayeredReferencesWithoutCyclesAreFine() {
        assertNoErrors("""
        segment a = b and c
        segment b = c
        segment c = experience is set
        audience x = a or b
        placement p { x -> flow "f" }
        """)
    }

    // MARK: - Types

    func testOperatorThatDoesNotFitTheType() {
        let cases: [(String, String)] = [
            ("segment s = weekly_hours 1️⃣contains \"x\"", "operator `contains` does not apply to `weekly_hours` of type `number`"),
            ("segment s = interests 1️⃣== \"sports\"", "operator `==` does not apply to `interests` of type `set`"),
            ("segment s = experience 1️⃣> \"pro\"", "operator `>` does not apply to `experience` of type `string`"),
            ("segment s = reminders 1️⃣in [true]", "`reminders` of type `bool`"),
            ("segment s = profile.platform 1️⃣has \"ios\"", "`profile.platform` of type `string`"),
            ("segment s = goal_date 1️⃣starts with \"2026\"", "`goal_date` of type `date`"),
            ("segment s = sdk_version 1️⃣has any [\"1\"]", "`sdk_version` of type `version`"),
            ("segment s = now 1️⃣contains \"x\"", "`now` of type `date`"),
            ("segment s = profile.access_levels 1️⃣between 1 and 2", "`profile.access_levels` of type `set`"),
            ("segment s = goal_date 1️⃣in [2026-01-01]", "`goal_date` of type `date`"),
        ]
        for (text, message) in cases {
            assertOnlyError(declarations + text, code: "operator-mismatch", messageContains: message)
        }
    }

    func testIgnoringCaseOnANonStringIsAnErrorAtIgnoring() {
        assertOnlyError(declarations + "segment s = weekly_hours == 3 1️⃣ignoring case",
                        code: "operator-mismatch", messageContains: "`ignoring case` does not apply to `weekly_hours`")
        assertNoErrors(declarations + """
        segment s = nickname contains "x" ignoring case or interests has "SPORTS" ignoring case
        """)
    }

    func testLiteralThatDoesNotFitTheType() {
        let cases: [(String, String)] = [
            ("segment s = weekly_hours == 1️⃣\"ten\"", "`weekly_hours` is a `number`, but `\"ten\"` is a string"),
            ("segment s = reminders == 1️⃣1", "`reminders` is a `bool`, but `1` is a number"),
            ("segment s = goal_date > 1️⃣5", "`goal_date` is a `date`"),
            ("segment s = goal_date > 1️⃣\"2026-01-01\"", "is a string"),
            ("segment s = profile.age in [18, 1️⃣\"x\"]", "`profile.age` is a `number`"),
            ("segment s = profile.app_version == 1️⃣4", "`profile.app_version` is a `version`, but `4` is a number"),
            ("segment s = weekly_hours between 1 and 1️⃣\"5\"", "is a string"),
            ("segment s = experience == 1️⃣true", "is a boolean"),
            ("segment s = nickname == 1️⃣2026-01-01", "is a date"),
            ("segment s = now > 1️⃣5", "`now` is a `date`"),
            ("segment s = interests has 1️⃣1", "`interests` is a `set`"),
            ("segment s = profile.installed_at >= 1️⃣-7", "is a number"),
        ]
        for (text, message) in cases {
            assertOnlyError(declarations + text, code: "type-mismatch", messageContains: message)
        }
    }

    func testStringOutsideOneOf() {
        assertOnlyError(declarations + #"segment s = experience == 1️⃣"expert""#,
                        code: "value-not-allowed", messageContains: "`expert` is not one of the values of `experience`")
        assertOnlyError(declarations + #"segment s = experience == 1️⃣"PRO""#,
                        code: "value-not-allowed", messageContains: "`PRO`")
        assertOnlyError(declarations + #"segment s = experience in ["pro", 1️⃣"Expert"] ignoring case"#,
                        code: "value-not-allowed", messageContains: "`Expert`")
        assertOnlyError(declarations + #"segment s = experience != 1️⃣"pros""#,
                        code: "value-not-allowed", messageContains: "`pros`")
        assertOnlyError(#"segment s = profile.platform == 1️⃣"iOS""#,
                        code: "value-not-allowed", messageContains: "`iOS` is not one of the values of `profile.platform`")
        assertOnlyError(#"segment s = profile.gender not in ["f", 1️⃣"x"]"#,
                        code: "value-not-allowed", messageContains: "`x`")
        let suggestion = assertOnlyError(declarations + #"segment s = experience == 1️⃣"amatuer""#,
                                         code: "value-not-allowed", messageContains: "`amatuer`")
        XCTAssertEqual(suggestion?.help, "did you mean `amateur`?")
    }

    func testIgnoringCaseRelaxesTheOneOfCheck() {
        assertNoErrors(declarations + """
        segment a = experience == "PRO" ignoring case
        segment b = experience in ["Beginner", "AMATEUR"] ignoring case
        segment c = profile.platform == "iOS" ignoring case
        segment d = interests has any ["Sports", "MUSIC"] ignoring case
        segment e = experience contains "xyz"
        """)
    }

    func testIgnoringCaseOneOfCheckAppliesFinalSigma() {
        let greek = """
        attribute word: string one of ["ΟΔΟΣ", "ΑΣΑ"]
        attribute words: set of ["ΟΔΟΣ"]

        """
        assertNoErrors(greek + """
        segment a = word == "οδος" ignoring case
        segment b = word in ["Οδος", "ασα"] ignoring case
        segment c = words has "οδος" ignoring case
        """)
        assertOnlyError(greek + #"segment s = word == 1️⃣"οδοσ" ignoring case"#,
                        code: "value-not-allowed", messageContains: "`οδοσ` is not one of the values of `word`")
        assertOnlyError(greek + #"segment s = word in ["ασα", 1️⃣"ΑΣ"] ignoring case"#,
                        code: "value-not-allowed", messageContains: "`ΑΣ`")
        assertOnlyError(greek + #"segment s = words has 1️⃣"οδοσ" ignoring case"#,
                        code: "value-not-allowed", messageContains: "`οδοσ` is not one of the values of `words`")
    }

    func testHasWithAValueOutsideSetOf() {
        assertOnlyError(declarations + #"segment s = interests has 1️⃣"golf""#,
                        code: "value-not-allowed", messageContains: "`golf` is not one of the values of `interests`")
        assertOnlyError(declarations + #"segment s = interests has any ["music", 1️⃣"golf"]"#,
                        code: "value-not-allowed", messageContains: "`golf`")
        assertOnlyError(declarations + #"segment s = interests has none [1️⃣"Music"]"#,
                        code: "value-not-allowed", messageContains: "`Music`")
        assertOnlyError(declarations + #"segment s = interests has all ["music", 1️⃣"golf"] ignoring case"#,
                        code: "value-not-allowed", messageContains: "`golf`")
    }

    func testInvalidVersionLiteral() {
        let cases = [
            #"segment s = profile.app_version >= 1️⃣"4.2.0.1""#,
            #"segment s = sdk_version == 1️⃣"V4""#,
            #"segment s = profile.os_version in ["17", 1️⃣""]"#,
            #"segment s = sdk_version < 1️⃣"01.2""#,
            #"segment s = profile.app_version between "1.0" and 1️⃣"two""#,
        ]
        for text in cases {
            assertOnlyError(declarations + text, code: "invalid-version", messageContains: "invalid version")
        }
        assertNoErrors(declarations + """
        segment s = profile.app_version >= "4.2" and sdk_version < "v2.0.0-beta.1+build.5" and profile.os_version in ["17", "18.0.1"]
        """)
    }

    func testInvalidDateLiteral() {
        let cases = [
            "segment s = profile.birthday == 1️⃣2026-13-01",
            "segment s = goal_date < 1️⃣2026-02-30",
            "segment s = profile.created_at > 1️⃣2026-01-01T25:00:00Z",
            "segment s = now between 2026-01-01 and 1️⃣2026-12-32",
            "segment s = goal_date < 1️⃣2025-02-29",
        ]
        for text in cases {
            assertOnlyError(declarations + text, code: "invalid-date", messageContains: "invalid date")
        }
        assertNoErrors(declarations + "segment s = goal_date < 2028-02-29 and profile.created_at > 2026-01-01T23:59:59.999-11:30")
    }

    func testBetweenReversed() {
        let cases = [
            "segment s = weekly_hours between 1️⃣10 and 5",
            "segment s = now between 1️⃣2026-12-01 and 2026-11-01",
            #"segment s = profile.app_version between 1️⃣"5.0" and "4.9""#,
            "segment s = profile.installed_at between 1️⃣now - 1d and now - 7d",
            "segment s = weekly_hours between 1️⃣-1 and -2",
        ]
        for text in cases {
            assertOnlyError(declarations + text, code: "between-reversed", messageContains: "lower bound is greater")
        }
        assertNoErrors(declarations + """
        segment a = weekly_hours between 5 and 5
        segment b = now between 2026-11-27 and 2026-11-30T23:59:59Z
        segment c = profile.installed_at between now - 7d and now
        """)
    }

    func testEmptyList() {
        assertOnlyError(declarations + "segment s = profile.country in 1️⃣[]", code: "empty-list", messageContains: "empty list")
        assertOnlyError(declarations + "segment s = interests has any 1️⃣[]", code: "empty-list", messageContains: "empty list")
        assertOnlyError(declarations + "segment s = weekly_hours not in 1️⃣[ ]", code: "empty-list", messageContains: "empty list")
        assertOnlyError("attribute level: string one of 1️⃣[]\nsegment s = level is set",
                        code: "empty-list", messageContains: "empty list")
    }

    func testAttributeDeclarationErrors() {
        assertOnlyError("attribute 1️⃣profile.age: number", code: "builtin-declared", messageContains: "`profile.age`")
        assertOnlyError(#"attribute level: number one of 1️⃣["a"]"#, code: "one-of-not-allowed", messageContains: "`number`")
        assertOnlyError(#"attribute tags: set of ["a", 1️⃣"b,c"]"#, code: "comma-in-set-value", messageContains: "`b,c`")
        assertOnlyError(#"attribute level: string one of ["a", 1️⃣2]"#, code: "type-mismatch", messageContains: "`2`")
    }

    // MARK: - Undeclared attributes

    func testUndeclaredAttributeNearADeclaredOneSuggestsIt() {
        let source = MarkedSource(declarations + """
        segment a = 1️⃣experiense == "pro"
        segment b = 2️⃣contry == "DE"
        audience x = a or b
        placement p { x -> flow "f" }
        """)
        let found = diagnostics(source.text)
        let typo = assertDiagnostic(in: found, severity: .warning, code: "undeclared-attribute",
                                    messageContains: "attribute `experiense` is not declared", at: source.position("1️⃣"))
        XCTAssertEqual(typo?.help, "did you mean `experience`?")
        let field = assertDiagnostic(in: found, severity: .warning, code: "undeclared-attribute",
                                     messageContains: "attribute `contry` is not declared", at: source.position("2️⃣"))
        XCTAssertEqual(field?.help, "did you mean `profile.country`?")
    }

    func testADateOnlyWindowEndIsWarnedWithTheRealEnd() {
        let source = MarkedSource(declarations + """
        segment bf = now between 2026-11-27 and 1️⃣2026-11-30
        segment late = goal_date between 2026-11-27 and 2️⃣2026-11-30
        segment exact = now between 2026-11-27 and 2026-11-30T23:59:59.999Z
        audience x = bf or late or exact
        placement p { x -> flow "f" }
        """)
        let found = diagnostics(source.text)
        XCTAssertEqual(found.filter { $0.code == "window-end" }.count, 2, describe(found))
        let now = assertDiagnostic(in: found, severity: .warning, code: "window-end",
                                   messageContains: "this window ends at 2026-11-30T00:00:00Z, the first instant of 2026-11-30", at: source.position("1️⃣"))
        XCTAssertEqual(now?.help, "to take in the whole day, end at `2026-11-30T23:59:59.999Z`, or write `>= …` and `< 2026-12-01`")
        assertDiagnostic(in: found, severity: .warning, code: "window-end", messageContains: "2026-11-30T00:00:00Z", at: source.position("2️⃣"))
    }

    func testUndeclaredAttributeWarnsOncePerAttribute() {
        let source = MarkedSource("""
        segment a = 1️⃣level == "x"
        segment b = level != "y" or 2️⃣score > 3
        segment c = level is set and score < 10
        audience x = a or b or c
        placement p { x -> flow "f" }
        """)
        let found = diagnostics(source.text)
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
        let warnings = found.filter { $0.code == "undeclared-attribute" }
        XCTAssertEqual(warnings.count, 2, describe(found))
        let level = assertDiagnostic(in: found, severity: .warning, code: "undeclared-attribute",
                                     messageContains: "attribute `level` is not declared", at: source.position("1️⃣"))
        XCTAssertTrue(level?.help?.contains("declare it to get type checks") ?? false, level?.help ?? "")
        assertDiagnostic(in: found, severity: .warning, code: "undeclared-attribute",
                         messageContains: "`score`", at: source.position("2️⃣"))
    }

    func testUndeclaredAttributeHelpDeclaresTheInferredType() {
        let cases: [(String, String)] = [
            ("streak_days >= 7", "number"),
            ("remind_me == true", "bool"),
            ("joined_on < 2026-01-01", "date"),
            ("trial_end <= now + 7d", "date"),
            ("build >= \"4.2\"", "version"),
            ("hobbies has any [\"music\"]", "set"),
            ("nickname starts with \"a\"", "string"),
            ("tier in [\"pro\", \"max\"]", "string"),
            ("score in [1, 2]", "number"),
        ]
        for (comparison, type) in cases {
            let found = diagnostics("segment s = \(comparison)\naudience x = s\nplacement p { x -> flow \"f\" }")
            let key = String(comparison.prefix { $0 != " " })
            let warning = found.first { $0.code == "undeclared-attribute" }
            XCTAssertEqual(warning?.help, "declare it to get type checks, e.g. `attribute \(key): \(type)`", comparison)
        }
        // The first comparison that fixes a type decides it, even after one that does not.
        let found = diagnostics("segment s = level is set and level > 3\naudience x = s\nplacement p { x -> flow \"f\" }")
        XCTAssertEqual(found.first { $0.code == "undeclared-attribute" }?.help, "declare it to get type checks, e.g. `attribute level: number`")
        // Nothing fixes it: `string`.
        let unset = diagnostics("segment s = level is set\naudience x = s\nplacement p { x -> flow \"f\" }")
        XCTAssertEqual(unset.first { $0.code == "undeclared-attribute" }?.help, "declare it to get type checks, e.g. `attribute level: string`")
    }

    func testDeclaredAndBuiltinAttributesDoNotWarn() {
        let found = diagnostics(declarations + """
        segment a = experience == "pro" and profile.age >= 18 and weekly_hours > 1
        audience x = a
        placement p { x -> flow "f" }
        """)
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
        XCTAssertEqual(found.filter { $0.code == "undeclared-attribute" || $0.code == "unused" }, [], describe(found))
    }

    func testConflictingInferenceIsAnError() {
        assertDiagnostic("""
        segment a = level == "x"
        segment b = level == 1️⃣3
        """, severity: .error, code: "conflicting-types", messageContains: "undeclared attribute `level` is used as `number` here but as `string`")
        assertDiagnostic("""
        segment a = tags has "x"
        segment b = tags 1️⃣contains "y"
        """, severity: .error, code: "conflicting-types", messageContains: "`tags`")
        assertDiagnostic("""
        segment a = flag == true or flag in [1️⃣1, 2]
        """, severity: .error, code: "conflicting-types", messageContains: "`flag`")
        assertNoErrors("""
        segment a = level == "x" or level in ["y", "z"] or level starts with "q" or level is not set
        """)
    }

    func testOrderingAnUndeclaredAttributeByAStringIsAnError() {
        let diagnostic = assertDiagnostic("segment s = build 1️⃣>= \"4.2\"", severity: .error, code: "ordering-string",
                                          messageContains: "cannot order undeclared attribute `build` by a string")
        XCTAssertTrue(diagnostic?.help?.contains("version") ?? false)
        assertDiagnostic("segment s = build 1️⃣between \"1.0\" and \"2.0\"", severity: .error, code: "ordering-string",
                         messageContains: "`build`")
        assertDiagnostic("segment s = build 1️⃣< \"b\"", severity: .error, code: "ordering-string", messageContains: "`build`")
        // Declared `version`, the same comparison is fine.
        assertNoErrors("attribute build: version\nsegment s = build >= \"4.2\"")
    }

    // MARK: - Attribute references

    func testUnknownProfileField() {
        let diagnostic = assertOnlyError("segment s = 1️⃣profile.agee >= 18", code: "unknown-field",
                                         messageContains: "unknown profile field `profile.agee`")
        XCTAssertEqual(diagnostic?.help, "did you mean `profile.age`?")
        assertOnlyError("segment s = 1️⃣profile.favourite_colour == \"x\"", code: "unknown-field",
                        messageContains: "`profile.favourite_colour`")
        // A custom key that begins with `profile.` is written in backticks.
        let found = diagnostics("segment s = `profile.favourite_colour` == \"x\"")
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
    }

    func testInvalidCustomAttributeKey() {
        let long = String(repeating: "a", count: 31)
        assertOnlyError("segment s = 1️⃣\(long) == \"x\"", code: "invalid-key", messageContains: "invalid custom attribute key `\(long)`")
        assertOnlyError("segment s = 1️⃣`a b` == \"x\"", code: "invalid-key", messageContains: "`a b`")
        assertOnlyError("segment s = 1️⃣`é` is set", code: "invalid-key", messageContains: "`é`")
        assertOnlyError("segment s = 1️⃣`` is set", code: "invalid-key", messageContains: "``")
        assertOnlyError("attribute 1️⃣`bad key`: string", code: "invalid-key", messageContains: "`bad key`")
        assertOnlyError("input e -> 1️⃣`bad key`", code: "invalid-key", messageContains: "`bad key`")
        // 30 characters, `-`, `.`, a leading digit are all fine.
        let thirty = String(repeating: "b", count: 30)
        assertNoErrors("segment s = \(thirty) == \"x\" or `1st-answer.v2` is set")
    }

    func testInputToANonInputBuiltinField() {
        for field in ["age", "country", "installed_at", "access_levels", "id"] {
            assertOnlyError("input answer -> 1️⃣profile.\(field)", code: "invalid-input-target",
                            messageContains: "an input cannot write `profile.\(field)`")
        }
        assertNoErrors("""
        input e -> profile.email
        input f -> profile.first_name
        input l -> profile.last_name
        input p -> profile.phone_number
        input g -> profile.gender
        input b -> profile.birthday
        input c -> custom.answer
        """)
    }

    // MARK: - Placements

    private let audiences = """
    segment pros = experience == "pro"
    segment amateurs = experience == "amateur"
    audience a = pros
    audience b = amateurs

    """

    func testEveryoneNotLast() {
        assertOnlyError(audiences + """
        placement p {
          1️⃣everyone -> flow "x"
          a -> flow "y"
          b -> flow "z"
        }
        """, code: "everyone-not-last", messageContains: "`everyone` must be the last row")
    }

    func testMixedFlowsAndPaywalls() {
        let diagnostic = assertOnlyError(audiences + """
        placement p {
          a -> flow "x"
          b -> nothing
          everyone -> 1️⃣paywall "y"
        }
        """, code: "mixed-destinations", messageContains: "placement `p` shows flows, but this row shows a paywall")
        XCTAssertTrue(diagnostic?.help?.contains("main.rules:6:8") ?? false, diagnostic?.help ?? "")
        assertOnlyError(audiences + """
        placement p {
          a -> paywall "x"
          b -> split "t" {
            50% -> paywall "y"
            50% -> 1️⃣flow "z"
          }
        }
        """, code: "mixed-destinations", messageContains: "shows paywalls, but this row shows a flow")
    }

    func testSplitWeightsMustSumTo100() {
        assertOnlyError(audiences + """
        placement p {
          a -> split 1️⃣"s" {
            50% -> flow "x"
            40% -> flow "y"
          }
          b -> flow "z"
        }
        """, code: "split-weights-sum", messageContains: "split weights add up to 90%, not 100%")
        assertOnlyError(audiences + """
        placement p { a -> split 1️⃣"s" { 60% -> flow "x" 50% -> flow "y" } }
        """, code: "split-weights-sum", messageContains: "110%")
    }

    func testSplitNeedsTwoTo20Variants() {
        assertOnlyError(audiences + """
        placement p { a -> split 1️⃣"s" { 100% -> flow "x" } }
        """, code: "split-variants", messageContains: "a split has 2 to 20 variants, this one has 1")
        let many = (0..<21).map { "\($0 == 0 ? 20 : 4)% -> flow \"f\($0)\"" }.joined(separator: "\n")
        assertOnlyError(audiences + "placement p { a -> split 1️⃣\"s\" {\n\(many)\n} }",
                        code: "split-variants", messageContains: "this one has 21")
        let twenty = (0..<20).map { "5% -> flow \"f\($0)\"" }.joined(separator: "\n")
        assertNoErrors(audiences + "placement p { a -> split \"s\" {\n\(twenty)\n} b -> nothing }")
    }

    func testSplitWeightMustBeAWholeNumberFrom1To100() {
        assertDiagnostic(audiences + """
        placement p { a -> split "s" { 1️⃣0% -> flow "x" 100% -> flow "y" } }
        """, severity: .error, code: "split-weight", messageContains: "invalid weight `0%`")
        assertDiagnostic(audiences + """
        placement p { a -> split "s" { 1️⃣50.5% -> flow "x" 49.5% -> flow "y" } }
        """, severity: .error, code: "split-weight", messageContains: "invalid weight `50.5%`")
        assertDiagnostic(audiences + """
        placement p { a -> split "s" { 1️⃣101% -> flow "x" 1% -> flow "y" } }
        """, severity: .error, code: "split-weight", messageContains: "`101%`")
    }

    func testSplitWeightIsAnIntegerLiteral() {
        assertOnlyError(audiences + """
        placement p { a -> split "s" { 1️⃣50.0% -> flow "x" 50% -> flow "y" } }
        """, code: "split-weight", messageContains: "invalid weight `50.0%`")
        assertOnlyError(audiences + """
        placement p { a -> split "s" { 50% -> flow "x" 1️⃣050.00% -> flow "y" } }
        """, code: "split-weight", messageContains: "`050.00%`")
        // Leading zeros and a space before `%` are allowed.
        let fine = diagnostics(audiences + """
        placement p { a -> split "s" { 050% -> flow "x" 50 % -> flow "y" } }
        """).filter(\.isError)
        XCTAssertEqual(fine, [], describe(fine))
    }

    func testDuplicateVariantDestination() {
        assertOnlyError(audiences + """
        placement p { a -> split "s" { 50% -> flow "x" 50% -> 1️⃣flow "x" } }
        """, code: "duplicate-variant", messageContains: "two variants of the split show the same destination")
        assertOnlyError(audiences + """
        placement p { a -> split "s" { 40% -> nothing 30% -> flow "x" 30% -> 1️⃣nothing } }
        """, code: "duplicate-variant", messageContains: "same destination")
    }

    func testDuplicateSplitID() {
        let diagnostic = assertOnlyError(audiences + """
        placement p { a -> split "s" { 50% -> flow "x" 50% -> flow "y" } }
        placement q { b -> split 1️⃣"s" { 50% -> flow "x" 50% -> flow "y" } }
        """, code: "duplicate-split", messageContains: "split id `s` is already used")
        XCTAssertEqual(diagnostic?.help, "first used at main.rules:5:26")
    }

    func testEmptySplitID() {
        assertOnlyError(audiences + """
        placement p { a -> split 1️⃣"" { 50% -> flow "x" 50% -> flow "y" } }
        """, code: "empty-split-id", messageContains: "cannot be empty")
    }

    // MARK: - Unused names

    func testUnusedSegmentsAndAudiencesAreWarnings() {
        let source = MarkedSource("""
        segment 1️⃣lonely = experience == "pro"
        segment used = experience == "amateur"
        audience 2️⃣nobody = used
        audience shown = used
        placement p { shown -> flow "f" }
        """)
        let found = diagnostics(source.text)
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
        assertDiagnostic(in: found, severity: .warning, code: "unused", messageContains: "segment `lonely` is never used",
                         at: source.position("1️⃣"))
        assertDiagnostic(in: found, severity: .warning, code: "unused", messageContains: "audience `nobody` is never used",
                         at: source.position("2️⃣"))
        XCTAssertEqual(found.filter { $0.code == "unused" }.count, 2, describe(found))
    }

    // MARK: - Whole files

    /// A rule set in the style of the shipped `Rules/` directory, split over three files.
    static let shippedStyle: [(path: String, text: String)] = [
        (path: "Rules/onboarding.rules", text: """
        # What the onboarding flow asks, and where each answer is stored.
        attribute experience: string one of ["beginner", "amateur", "pro"]
        attribute interests: set of ["sports", "music", "travel", "food"]
        attribute reminders: bool
        attribute weekly_hours: number

        input email -> profile.email
        input name -> profile.first_name
        input birthday -> profile.birthday
        input scr_quiz/experience -> experience
        input scr_quiz/interests -> interests
        input scr_quiz/reminders -> reminders
        input scr_quiz/hours -> weekly_hours

        """),
        (path: "Rules/placements.rules", text: """
        audience pro_adults   = pros and adults
        audience committed_amateurs = amateurs and (dedicated or wants_reminders)
        audience casual_amateurs = amateurs and not dedicated
        audience sporty_beginners = beginners and sporty
        audience other_beginners = beginners
        audience quiz_skippers = not answered_quiz

        placement onboarding_followup {
          pro_adults         -> flow "flow_pro_v2"
          committed_amateurs -> flow "flow_amateur_plan"
          casual_amateurs    -> flow "flow_amateur_casual"
          sporty_beginners   -> split "sporty_beginners_v1" {
            50% -> flow "flow_sport_start_a"
            40% -> flow "flow_sport_start_b"
            10% -> nothing
          }
          other_beginners    -> flow "flow_beginner"
          quiz_skippers      -> flow "flow_quiz_reminder"
          everyone           -> flow "flow_default"
        }

        audience premium_members = subscribed
        audience new_us_modern = us_country and new_users and modern_app
        audience new_eu_modern = eu_country and new_users and modern_app
        audience outdated_app = not modern_app

        placement main_paywall {
          premium_members -> nothing
          outdated_app    -> paywall "pw_update_first"
          new_us_modern   -> paywall "pw_intro_us"
          new_eu_modern   -> paywall "pw_intro_eu"
          everyone        -> paywall "pw_standard"
        }

        """),
        (path: "Rules/segments.rules", text: """
        segment pros      = experience == "pro"
        segment amateurs  = experience == "amateur"
        segment beginners = experience == "beginner"
        segment answered_quiz = experience is set

        segment adults  = profile.age >= 18
        segment sporty  = interests has "sports"
        segment wants_reminders = reminders == true
        segment dedicated = weekly_hours >= 10

        segment new_users   = profile.days_since_install <= 7
        segment modern_app  = profile.app_version >= "4.2.0"
        segment eu_country  = profile.country in ["DE", "FR", "ES", "IT", "NL"]
        segment us_country  = profile.country == "US"
        segment subscribed  = profile.access_levels has "premium"
        segment black_friday_window = now between 2026-11-27 and 2026-11-30T23:59:59Z
        segment recent = profile.installed_at >= now - 7d and profile.last_seen_at > now-12h
        audience black_friday = black_friday_window and recent
        placement promo { black_friday -> paywall "pw_bf" }

        """),
    ]

    func testShippedStyleRulesHaveNoErrors() {
        let found = diagnostics(files: CheckerTests.shippedStyle)
        XCTAssertEqual(found.filter(\.isError), [], describe(found))
        XCTAssertEqual(found.filter { ["undeclared-attribute", "unused"].contains($0.code) }, [], describe(found))
    }

    func testDiagnosticsAreSortedByFileAndPosition() {
        let found = diagnostics(files: [
            (path: "b.rules", text: "segment y = 1 == 1\nsegment z = zz\n"),
            (path: "a.rules", text: "audience q = nope\nsegment w = qq\n"),
        ])
        let places = found.map { "\($0.range.file):\($0.range.start.line):\($0.range.start.column)" }
        XCTAssertFalse(found.isEmpty)
        XCTAssertEqual(places, found.sorted {
            ($0.range.file, $0.range.start.offset) < ($1.range.file, $1.range.start.offset)
        }.map { "\($0.range.file):\($0.range.start.line):\($0.range.start.column)" })
    }

    func testTextRenderingOfAnUnknownSegment() {
        let text = String(repeating: "\n", count: 11) + "audience pro_adults = prso and adults\nsegment pros = experience == \"pro\"\nsegment adults = profile.age >= 18\n"
        let source = SourceFile(path: "Rules/onboarding.rules", text: text)
        let loaded = LoadedRules(sources: [source])
        let diagnostic = try! XCTUnwrap(loaded.diagnostics.first { $0.code == "unknown-segment" })
        XCTAssertEqual(DiagnosticRenderer(files: [source]).text(diagnostic), """
        Rules/onboarding.rules:12:23: error: unknown segment `prso`
           |
        12 | audience pro_adults = prso and adults
           |                       ^~~~
           = help: did you mean `pros`?

        """)
    }
}
