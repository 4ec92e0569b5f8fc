import Foundation
import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingProfiles

/// the input handler and its edge cases, driven with the payloads of the
/// SDK documentation (`params` as the analytics callback delivers them: Swift Bool, Int,
/// String, [String]).
final class FlowInputHandlerTests: XCTestCase {
    static let rulesText = """
    attribute experience: string one of ["beginner", "amateur", "pro"]
    attribute interests: set of ["sports", "music", "travel", "food"]
    attribute reminders: bool
    attribute weekly_hours: number
    attribute goal_date: date
    attribute nickname: string

    input email -> profile.email
    input name -> profile.first_name
    input birthday -> profile.birthday
    input scr_quiz/experience -> experience
    input scr_quiz/interests -> interests
    input scr_quiz/reminders -> reminders
    input scr_quiz/hours -> weekly_hours
    input hours -> hours_elsewhere
    input scr_quiz/goal -> goal_date
    input scr_quiz/notify -> nickname
    input "scr 1"/"fav sport" -> fav_sport
    """

    static let utc = TimeZone(identifier: "UTC")!

    private func makeHandler(timeZone: TimeZone = FlowInputHandlerTests.utc, file: StaticString = #filePath, line: UInt = #line) -> FlowInputHandler {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: FlowInputHandlerTests.rulesText)])
        XCTAssertFalse(loaded.hasErrors, "test rules have errors: \(loaded.diagnostics.map(\.message))", file: file, line: line)
        return FlowInputHandler(mapping: InputMapping(loaded.program!.ruleSet), timeZone: timeZone)
    }

    /// A `flow_user_input` payload as the SDK sends it (see the documentation's event examples).
    private func input(_ elementID: String, _ elementType: String, screen: String? = "scr_quiz",
                       value: (any Sendable)? = nil, itemIDs: [String]? = nil, itemTitles: [String]? = nil) -> [String: any Sendable] {
        var params: [String: any Sendable] = [
            "name": "flow_user_input",
            "isBackendEvent": false,
            "isCustomerEvent": true,
            "element_id": elementID,
            "element_type": elementType,
        ]
        if let screen { params["instanceId"] = screen }
        if let value { params["value"] = value }
        if let itemIDs { params["item_ids"] = itemIDs }
        if let itemTitles { params["item_titles"] = itemTitles }
        return params
    }

    @discardableResult
    private func send(_ handler: FlowInputHandler, _ params: [String: any Sendable]) -> EventOutcome {
        handler.handle(name: "flow_user_input", params: params)
    }

    /// The answer of an outcome, failing the test when it is not an answer.
    private func answer(_ outcome: EventOutcome, file: StaticString = #filePath, line: UInt = #line) -> (answer: Answer, warnings: [String])? {
        guard case .answer(let answer, let warnings) = outcome else {
            XCTFail("expected an answer, got \(outcome)", file: file, line: line)
            return nil
        }
        return (answer, warnings)
    }

    /// The stored value of an answer (nil = removed), failing the test when the event was not an answer.
    private func value(_ outcome: EventOutcome, file: StaticString = #filePath, line: UInt = #line) -> JSONValue?? {
        guard let result = answer(outcome, file: file, line: line) else { return .none }
        return .some(result.answer.value)
    }

    /// The rejection reason, failing the test when the event was not rejected.
    private func rejection(_ outcome: EventOutcome, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .rejected(let reason) = outcome else {
            XCTFail("expected a rejection, got \(outcome)", file: file, line: line)
            return ""
        }
        XCTAssertFalse(reason.isEmpty, "a rejection must give a reason", file: file, line: line)
        return reason
    }

    private func assertIgnored(_ outcome: EventOutcome, file: StaticString = #filePath, line: UInt = #line) {
        guard case .ignored = outcome else {
            XCTFail("expected the event to be ignored, got \(outcome)", file: file, line: line)
            return
        }
    }

    // MARK: Rule 1: only flow_user_input carries input

    func testScreenShowedIsCountedAndIgnored() {
        let handler = makeHandler()
        let shown: [String: any Sendable] = [
            "name": "flow_screen_showed", "instanceId": "scr_registration", "screen_order": 0,
            "is_last_screen": false, "isBackendEvent": false, "isCustomerEvent": true,
        ]
        assertIgnored(handler.handle(name: "flow_screen_showed", params: shown))
        // Another event name is ignored even when it looks like an input.
        var lookalike = input("email", "email_input", screen: "scr_registration", value: "jane@example.com")
        lookalike["name"] = "paywall_showed"
        assertIgnored(handler.handle(name: "paywall_showed", params: lookalike))

        XCTAssertEqual(handler.eventCounts.ignored, [.otherEvent("flow_screen_showed"): 1, .otherEvent("paywall_showed"): 1])
        XCTAssertEqual(handler.eventCounts.total, 2)
        XCTAssertEqual(handler.flowDidDisappear().answers, [])
    }

    func testDocumentedEmailPayload() {
        let handler = makeHandler()
        // The documentation's JSON payload, verbatim.
        let params: [String: any Sendable] = [
            "name": "flow_user_input",
            "instanceId": "scr_registration",
            "isBackendEvent": false,
            "isCustomerEvent": true,
            "element_id": "email",
            "element_type": "email_input",
            "value": "jane@example.com",
        ]
        guard let result = answer(handler.handle(name: "flow_user_input", params: params)) else { return }
        XCTAssertEqual(result.answer.target, .builtin("email"))
        XCTAssertEqual(result.answer.value, .string("jane@example.com"))
        XCTAssertEqual(result.answer.screen, "scr_registration")
        XCTAssertEqual(result.answer.element, "email")
        XCTAssertEqual(result.warnings, [])
    }

    // MARK: Rule 2: required fields

    func testMissingOrMistypedRequiredFieldsAreRejectedWithAReason() {
        let handler = makeHandler()
        var params = input("email", "email_input", value: "jane@example.com")

        params.removeValue(forKey: "element_id")
        XCTAssertTrue(rejection(send(handler, params)).contains("element_id"))

        params["element_id"] = 42
        XCTAssertTrue(rejection(send(handler, params)).contains("element_id"))

        params["element_id"] = ""
        XCTAssertTrue(rejection(send(handler, params)).contains("element_id"))

        params["element_id"] = "email"
        params.removeValue(forKey: "element_type")
        XCTAssertTrue(rejection(send(handler, params)).contains("element_type"))

        params["element_type"] = true
        XCTAssertTrue(rejection(send(handler, params)).contains("element_type"))

        params["element_type"] = "email_input"
        params["instanceId"] = 7
        XCTAssertTrue(rejection(send(handler, params)).contains("instanceId"))

        XCTAssertEqual(handler.eventCounts.rejected, 6)
        XCTAssertEqual(handler.flowDidDisappear().answers, [])
    }

    func testInstanceIDIsOptional() {
        let handler = makeHandler()
        guard let result = answer(send(handler, input("email", "email_input", screen: nil, value: "jane@example.com"))) else { return }
        XCTAssertNil(result.answer.screen)
        XCTAssertEqual(result.answer.target, .builtin("email"))
    }

    // MARK: Rule 3: text inputs

    func testTextIsTrimmed() {
        let handler = makeHandler()
        guard let result = answer(send(handler, input("name", "text_input", screen: "scr_registration", value: "  Jane \n"))) else { return }
        XCTAssertEqual(result.answer.target, .builtin("first_name"))
        XCTAssertEqual(result.answer.value, .string("Jane"))
        XCTAssertEqual(value(send(handler, input("phone", "phone_input", value: " +1 555 0100 "))), .some(.string("+1 555 0100")))
    }

    func testWhitespaceOnlyTextRemoves() {
        let handler = makeHandler()
        XCTAssertEqual(value(send(handler, input("name", "text_input", screen: "scr_registration", value: "   "))), .some(nil))
        XCTAssertEqual(value(send(handler, input("nickname_free", "text_input", value: ""))), .some(nil))

        // Clearing an input mapped to a built-in field removes that field.
        var profile = Profile()
        profile.setField("first_name", .string("Omar"))
        profile.setCustom("nickname_free", .string("o"))
        let rejections = profile.apply(handler.flowDidDisappear())
        XCTAssertEqual(rejections, [])
        XCTAssertNil(profile["first_name"])
        XCTAssertNil(profile.customAttributes["nickname_free"])
    }

    func testTextInputNeedsAStringValue() {
        let handler = makeHandler()
        XCTAssertTrue(rejection(send(handler, input("email", "email_input", value: 42))).contains("value"))
        XCTAssertTrue(rejection(send(handler, input("email", "email_input", value: true))).contains("value"))
        XCTAssertTrue(rejection(send(handler, input("email", "email_input"))).contains("value"))
    }

    // MARK: number_input

    func testNumberInputParsesText() {
        let handler = makeHandler()
        let cases: [(String, Double)] = [("3", 3), (" 4.5 ", 4.5), ("1e3", 1000), ("+2", 2), ("-0.25", -0.25), ("2E-2", 0.02)]
        for (text, expected) in cases {
            XCTAssertEqual(value(send(handler, input("hours", "number_input", value: text))), .some(.number(expected)), "`\(text)`")
        }
    }

    func testNumberInputRejectsUnparsableAndNonFiniteText() {
        let handler = makeHandler()
        for text in ["four", "1,5", "0x10", "NaN", "nan", "inf", "Infinity", "1e999", "-1e999", ".5", "5.", "1 000", "١٢"] {
            let reason = rejection(send(handler, input("hours", "number_input", value: text)))
            XCTAssertTrue(reason.contains("hours"), "`\(text)`: \(reason)")
        }
        XCTAssertEqual(handler.flowDidDisappear().answers, [])
    }

    func testNumberInputAcceptsAJSONNumber() {
        let handler = makeHandler()
        XCTAssertEqual(value(send(handler, input("hours", "number_input", value: 7))), .some(.number(7)))
        XCTAssertEqual(value(send(handler, input("hours", "number_input", value: 2.5))), .some(.number(2.5)))
        _ = rejection(send(handler, input("hours", "number_input", value: true)))
    }

    func testEmptyNumberInputRemoves() {
        let handler = makeHandler()
        XCTAssertEqual(value(send(handler, input("hours", "number_input", value: " "))), .some(nil))
    }

    // MARK: pickers

    func testPickerTakesIntegerMilliseconds() {
        let handler = makeHandler()
        // A date picker into a declared `date` attribute stores Unix milliseconds.
        guard let result = answer(send(handler, input("goal", "date_picker", value: 1_798_761_600_000))) else { return }
        XCTAssertEqual(result.answer.target, .custom("goal_date"))
        XCTAssertEqual(result.answer.value, .number(1_798_761_600_000))
        // Undeclared: a number of milliseconds too.
        XCTAssertEqual(value(send(handler, input("alarm", "time_picker", value: Int64(645_408_000_000)))), .some(.number(645_408_000_000)))
        XCTAssertEqual(value(send(handler, input("meeting", "date_time_picker", value: 1_798_761_600_000))), .some(.number(1_798_761_600_000)))
    }

    func testPickerRejectsFractionsStringsAndBooleans() {
        let handler = makeHandler()
        XCTAssertTrue(rejection(send(handler, input("goal", "date_picker", value: 645_408_000_000.5))).contains("milliseconds"))
        XCTAssertTrue(rejection(send(handler, input("goal", "date_picker", value: "1990-06-15"))).contains("milliseconds"))
        XCTAssertTrue(rejection(send(handler, input("goal", "date_picker", value: "645408000000"))).contains("milliseconds"))
        XCTAssertTrue(rejection(send(handler, input("goal", "date_picker", value: true))).contains("milliseconds"))
        XCTAssertTrue(rejection(send(handler, input("goal", "time_picker"))).contains("milliseconds"))
        XCTAssertEqual(handler.flowDidDisappear().answers, [])
    }

    /// The SDK's own birthday example: 645408000000 is 1990-06-15T00:00:00Z.
    func testBirthdayPickerBecomesADate() {
        let handler = makeHandler()
        guard let result = answer(send(handler, input("birthday", "date_picker", screen: "scr_registration", value: 645_408_000_000))) else { return }
        XCTAssertEqual(result.answer.target, .builtin("birthday"))
        XCTAssertEqual(result.answer.value, .string("1990-06-15"))
    }

    private func birthday(_ ms: Int, in zone: String) -> JSONValue? {
        let handler = makeHandler(timeZone: TimeZone(identifier: zone)!)
        guard case .answer(let answer, _) = send(handler, input("birthday", "date_picker", screen: "scr_registration", value: ms)) else {
            XCTFail("birthday picker was not an answer in \(zone)")
            return nil
        }
        return answer.value
    }

    /// Offsets checked with Python's zoneinfo: Kiritimati is UTC+14 since 1995, Los Angeles is UTC-8 in March 2000.
    func testBirthdayDateFollowsTheHandlersTimeZoneAroundMidnight() {
        // 2000-03-10T23:30:00Z
        XCTAssertEqual(birthday(952_731_000_000, in: "UTC"), .string("2000-03-10"))
        XCTAssertEqual(birthday(952_731_000_000, in: "Pacific/Kiritimati"), .string("2000-03-11"))
        XCTAssertEqual(birthday(952_731_000_000, in: "America/Los_Angeles"), .string("2000-03-10"))
        // 2000-03-11T00:30:00Z
        XCTAssertEqual(birthday(952_734_600_000, in: "UTC"), .string("2000-03-11"))
        XCTAssertEqual(birthday(952_734_600_000, in: "Pacific/Kiritimati"), .string("2000-03-11"))
        XCTAssertEqual(birthday(952_734_600_000, in: "America/Los_Angeles"), .string("2000-03-10"))
        // 2000-03-11T10:30:00Z is already 12 March on Kiritimati.
        XCTAssertEqual(birthday(952_770_600_000, in: "Pacific/Kiritimati"), .string("2000-03-12"))
        XCTAssertEqual(birthday(952_770_600_000, in: "America/Los_Angeles"), .string("2000-03-11"))
    }

    /// The zone's offset at that instant counts, not today's: in 1990 Kiritimati was UTC-10
    /// and Los Angeles was on daylight time (UTC-7).
    func testBirthdayDateUsesTheOffsetInForceAtThatInstant() {
        XCTAssertEqual(birthday(645_408_000_000, in: "UTC"), .string("1990-06-15"))
        XCTAssertEqual(birthday(645_408_000_000, in: "Pacific/Kiritimati"), .string("1990-06-14"))
        XCTAssertEqual(birthday(645_408_000_000, in: "America/Los_Angeles"), .string("1990-06-14"))
        // Local midnight of 1990-06-15 in Los Angeles (07:00Z) is the 15th there.
        XCTAssertEqual(birthday(645_433_200_000, in: "America/Los_Angeles"), .string("1990-06-15"))
    }

    /// Before 1970 the milliseconds are negative; Kiritimati was UTC-10:40 then.
    func testBirthdayBeforeTheEpoch() {
        // 1960-01-01T00:00:00Z
        XCTAssertEqual(birthday(-315_619_200_000, in: "UTC"), .string("1960-01-01"))
        XCTAssertEqual(birthday(-315_619_200_000, in: "America/Los_Angeles"), .string("1959-12-31"))
        XCTAssertEqual(birthday(-315_619_200_000, in: "Pacific/Kiritimati"), .string("1959-12-31"))
    }

    // MARK: choices

    func testSingleChoiceTakesTheFirstIDNeverTheTitle() {
        let handler = makeHandler()
        guard let result = answer(send(handler, input("experience", "single_choice", itemIDs: ["pro"], itemTitles: ["I train professionally"]))) else { return }
        XCTAssertEqual(result.answer.target, .custom("experience"))
        XCTAssertEqual(result.answer.value, .string("pro"))
        XCTAssertEqual(result.warnings, [])
        XCTAssertEqual(value(send(handler, input("experience", "single_choice", itemIDs: ["amateur", "pro"], itemTitles: ["Pro", "Amateur"]))),
                       .some(.string("amateur")))
        // Titles alone are not an answer.
        _ = rejection(send(handler, input("experience", "single_choice", itemTitles: ["Pro"])))
    }

    func testSingleChoiceWithEmptyArrayRemoves() {
        let handler = makeHandler()
        XCTAssertEqual(value(send(handler, input("experience", "single_choice", itemIDs: [], itemTitles: []))), .some(nil))
    }

    func testMultiChoiceKeepsOrderAndDropsRepeats() {
        let handler = makeHandler()
        guard let result = answer(send(handler, input("interests", "multi_choice", itemIDs: ["sports", "music"], itemTitles: ["Sports", "Music"]))) else { return }
        XCTAssertEqual(result.answer.target, .custom("interests"))
        XCTAssertEqual(result.answer.value, .string("sports,music"))
        XCTAssertEqual(value(send(handler, input("interests", "multi_choice", itemIDs: ["music", "sports"]))), .some(.string("music,sports")))
        XCTAssertEqual(value(send(handler, input("interests", "multi_choice", itemIDs: ["sports", "sports", "food", "sports"]))), .some(.string("sports,food")))
    }

    func testMultiChoiceIDContainingACommaCannotBeStored() {
        let handler = makeHandler()
        let reason = rejection(send(handler, input("hobbies", "multi_choice", itemIDs: ["rock,pop", "jazz"])))
        XCTAssertTrue(reason.contains("rock,pop"), reason)
    }

    func testDeselectingTheLastOptionRemoves() {
        let handler = makeHandler()
        send(handler, input("interests", "multi_choice", itemIDs: ["travel"], itemTitles: ["Travel"]))
        XCTAssertEqual(value(send(handler, input("interests", "multi_choice", itemIDs: [], itemTitles: []))), .some(nil))
        let answers = handler.flowDidDisappear().answers
        XCTAssertEqual(answers.count, 1)
        XCTAssertEqual(answers.first?.value, nil)

        var profile = Profile()
        profile.setCustom("interests", .string("travel"))
        profile.apply(AnswerSet(answers: answers, warnings: []))
        XCTAssertNil(profile.customAttributes["interests"])
    }

    // MARK: toggle

    func testToggleTakesABooleanNotANumber() {
        let handler = makeHandler()
        guard let on = answer(send(handler, input("reminders", "toggle", value: true))) else { return }
        XCTAssertEqual(on.answer.target, .custom("reminders"))
        XCTAssertEqual(on.answer.value, .number(1))
        XCTAssertEqual(value(send(handler, input("reminders", "toggle", value: false))), .some(.number(0)))
        XCTAssertTrue(rejection(send(handler, input("reminders", "toggle", value: 1))).contains("boolean"))
        XCTAssertTrue(rejection(send(handler, input("reminders", "toggle", value: 0))).contains("boolean"))
        XCTAssertTrue(rejection(send(handler, input("reminders", "toggle", value: "true"))).contains("boolean"))
        // The last accepted value is false.
        XCTAssertEqual(handler.flowDidDisappear().answers.map(\.value), [.number(0)])
    }

    func testBooleanNSNumberIsABooleanAndIntegerNSNumberIsNot() {
        let handler = makeHandler()
        XCTAssertEqual(value(send(handler, input("reminders", "toggle", value: NSNumber(value: true)))), .some(.number(1)))
        _ = rejection(send(handler, input("reminders", "toggle", value: NSNumber(value: 1))))
    }

    // MARK: ignored element types

    func testPasswordProductAndUnknownTypesAreIgnored() {
        let handler = makeHandler()
        assertIgnored(send(handler, input("password", "password_input", screen: "scr_registration", value: "hunter2")))
        assertIgnored(send(handler, input("plan", "product_selection", value: "premium_yearly")))
        assertIgnored(send(handler, input("tabs", "tab_switch", value: 1)))
        assertIgnored(send(handler, input("gizmo", "hologram_input", value: "x")))
        let answers = handler.flowDidDisappear()
        XCTAssertEqual(answers.answers, [])
        XCTAssertFalse(answers.answers.contains { $0.element == "password" })
    }

    // MARK: Rule 5: last value wins

    func testLastValueWinsPerScreenAndElement() {
        let handler = makeHandler()
        send(handler, input("experience", "single_choice", itemIDs: ["amateur"], itemTitles: ["I play on weekends"]))
        send(handler, input("experience", "single_choice", itemIDs: ["pro"], itemTitles: ["I train professionally"]))
        let answers = handler.flowDidDisappear().answers
        XCTAssertEqual(answers.count, 1)
        XCTAssertEqual(answers.first?.value, .string("pro"))
    }

    func testSameElementOnTwoScreensIsTwoAnswersAndTheLaterEventWins() {
        let handler = makeHandler()
        send(handler, input("note", "text_input", screen: "scr_a", value: "first"))
        send(handler, input("note", "text_input", screen: "scr_b", value: "second"))
        send(handler, input("note", "text_input", screen: "scr_a", value: "third"))
        let answers = handler.flowDidDisappear().answers
        XCTAssertEqual(answers.map(\.screen), ["scr_b", "scr_a"])
        XCTAssertEqual(answers.map(\.value), [.string("second"), .string("third")])
        var profile = Profile()
        profile.apply(AnswerSet(answers: answers, warnings: []))
        XCTAssertEqual(profile.customAttributes["note"], .string("third"))
    }

    // MARK: Rule 6: where answers go

    func testScreenQualifiedInputWinsOverUnqualified() {
        let handler = makeHandler()
        XCTAssertEqual(answer(send(handler, input("hours", "number_input", screen: "scr_quiz", value: "12")))?.answer.target, .custom("weekly_hours"))
        XCTAssertEqual(answer(send(handler, input("hours", "number_input", screen: "scr_other", value: "3")))?.answer.target, .custom("hours_elsewhere"))
        XCTAssertEqual(answer(send(handler, input("hours", "number_input", screen: nil, value: "4")))?.answer.target, .custom("hours_elsewhere"))
    }

    func testUndeclaredElementBecomesCustomAttributeNamedByElementID() {
        let handler = makeHandler()
        guard let result = answer(send(handler, input("favourite-color.v2", "text_input", value: "teal"))) else { return }
        XCTAssertEqual(result.answer.target, .custom("favourite-color.v2"))
        XCTAssertEqual(result.answer.value, .string("teal"))
        // A qualified input only applies on its own screen.
        XCTAssertEqual(answer(send(handler, input("experience", "single_choice", screen: "scr_other", itemIDs: ["anything"])))?.answer.target,
                       .custom("experience"))
    }

    func testInvalidElementIDKeyIsRejectedWithAHintToDeclareAnInput() {
        let handler = makeHandler()
        for elementID in ["fav sport", "größe", String(repeating: "k", count: 31), "a/b"] {
            let reason = rejection(send(handler, input(elementID, "text_input", value: "x")))
            XCTAssertTrue(reason.contains("`input"), "`\(elementID)`: \(reason)")
        }
        // Declared with string literals, the same element id is fine.
        XCTAssertEqual(answer(send(handler, input("fav sport", "single_choice", screen: "scr 1", itemIDs: ["tennis"])))?.answer.target,
                       .custom("fav_sport"))
        // A 30-character key is valid.
        XCTAssertNotNil(answer(send(handler, input(String(repeating: "k", count: 30), "text_input", value: "x"))))
    }

    // MARK: Rule 7: Adapty's limits

    func testValueOverFiftyCharactersIsRejected() {
        let handler = makeHandler()
        let fifty = String(repeating: "a", count: 50)
        XCTAssertEqual(value(send(handler, input("bio", "text_input", value: "  " + fifty + " "))), .some(.string(fifty)))
        XCTAssertTrue(rejection(send(handler, input("bio", "text_input", value: fifty + "b"))).contains("50"))
        // Characters, not bytes.
        XCTAssertNotNil(answer(send(handler, input("bio", "text_input", value: String(repeating: "é", count: 50)))))
        _ = rejection(send(handler, input("bio", "text_input", value: String(repeating: "é", count: 51))))
        XCTAssertEqual(handler.flowDidDisappear().answers.map(\.value), [.string(String(repeating: "é", count: 50))])
    }

    func testSetWhoseJoinedTextIsOverFiftyCharactersIsRejected() {
        let handler = makeHandler()
        // Four ids of 9 characters and three commas: 39 characters.
        let ids = (1...4).map { "option_\($0)0" }
        XCTAssertEqual((ids + ["abcdefghij"]).joined(separator: ",").count, 50)
        XCTAssertEqual(value(send(handler, input("hobbies", "multi_choice", itemIDs: ids + ["abcdefghij"]))),
                       .some(.string("option_10,option_20,option_30,option_40,abcdefghij")))

        XCTAssertEqual((ids + ["abcdefghijk"]).joined(separator: ",").count, 51)
        let reason = rejection(send(handler, input("hobbies", "multi_choice", itemIDs: ids + ["abcdefghijk"])))
        XCTAssertTrue(reason.contains("50"), reason)
        // Each id is short; only the stored (joined) text is too long.
        XCTAssertTrue(rejection(send(handler, input("interests", "multi_choice", itemIDs: ["sports", "music", "travel", "food", "sports2", "music2", "travel2", "food2"]))).contains("50"))
        // The rejected events did not replace the accepted answer.
        XCTAssertEqual(handler.flowDidDisappear().answers.map(\.value), [.string("option_10,option_20,option_30,option_40,abcdefghij")])
    }

    func testThirtyFirstAttributeIsRejectedOnApplyOthersKept() {
        var profile = Profile()
        for index in 1...29 { profile.setCustom("k\(index)", .number(Double(index))) }

        let handler = makeHandler()
        send(handler, input("new_one", "text_input", value: "kept"))
        send(handler, input("new_two", "text_input", value: "too many"))
        send(handler, input("k1", "text_input", value: "updated"))
        let rejections = profile.apply(handler.flowDidDisappear())

        XCTAssertEqual(rejections.count, 1)
        XCTAssertEqual(rejections.first?.answer.element, "new_two")
        XCTAssertTrue(rejections.first?.message.contains("30") ?? false, rejections.first?.message ?? "")
        XCTAssertEqual(profile.customKeys.count, 30)
        XCTAssertEqual(profile.customAttributes["new_one"], .string("kept"))
        XCTAssertNil(profile.customAttributes["new_two"])
        XCTAssertEqual(profile.customAttributes["k1"], .string("updated"))
    }

    func testThirtyOneAnswersOnAnEmptyProfileKeepThirty() {
        let handler = makeHandler()
        for index in 1...31 { send(handler, input("answer_\(index)", "text_input", value: "v\(index)")) }
        var profile = Profile()
        let rejections = profile.apply(handler.flowDidDisappear())
        XCTAssertEqual(rejections.map(\.answer.element), ["answer_31"])
        XCTAssertEqual(profile.customKeys, (1...30).map { "answer_\($0)" })
    }

    func testValueOutsideDeclaredOneOfIsKeptWithAWarning() {
        let handler = makeHandler()
        guard let single = answer(send(handler, input("experience", "single_choice", itemIDs: ["semi_pro"], itemTitles: ["Semi-pro"]))) else { return }
        XCTAssertEqual(single.answer.value, .string("semi_pro"))
        XCTAssertEqual(single.warnings.count, 1)
        XCTAssertTrue(single.warnings[0].contains("semi_pro"), single.warnings[0])

        guard let multi = answer(send(handler, input("interests", "multi_choice", itemIDs: ["sports", "chess"]))) else { return }
        XCTAssertEqual(multi.answer.value, .string("sports,chess"))
        XCTAssertEqual(multi.warnings.count, 1)
        XCTAssertTrue(multi.warnings[0].contains("chess"), multi.warnings[0])

        let set = handler.flowDidDisappear()
        XCTAssertEqual(set.answers.count, 2)
        XCTAssertEqual(set.warnings.count, 2)
    }

    func testElementTypeThatDoesNotFitTheDeclaredTypeIsRejectedNamingBoth() {
        let handler = makeHandler()
        let toggleToString = rejection(send(handler, input("notify", "toggle", value: true)))
        XCTAssertTrue(toggleToString.contains("toggle") && toggleToString.contains("string"), toggleToString)

        let numberToString = rejection(send(handler, input("experience", "number_input", value: "3")))
        XCTAssertTrue(numberToString.contains("number_input") && numberToString.contains("string"), numberToString)

        let textToBool = rejection(send(handler, input("reminders", "text_input", value: "yes")))
        XCTAssertTrue(textToBool.contains("text_input") && textToBool.contains("bool"), textToBool)

        let textToBirthday = rejection(send(handler, input("birthday", "text_input", screen: "scr_registration", value: "1990-06-15")))
        XCTAssertTrue(textToBirthday.contains("text_input") && textToBirthday.contains("date"), textToBirthday)

        let singleToSet = rejection(send(handler, input("interests", "single_choice", itemIDs: ["sports"])))
        XCTAssertTrue(singleToSet.contains("single_choice") && singleToSet.contains("set"), singleToSet)

        XCTAssertEqual(handler.flowDidDisappear().answers, [])
    }

    // MARK: Rule 8: the answer set

    func testFlowDidDisappearReturnsEverythingAndResets() {
        let handler = makeHandler()
        handler.handle(name: "flow_screen_showed", params: ["name": "flow_screen_showed", "instanceId": "scr_registration"])
        send(handler, input("email", "email_input", screen: "scr_registration", value: "jane@example.com"))
        send(handler, input("name", "text_input", screen: "scr_registration", value: "  Jane "))
        send(handler, input("birthday", "date_picker", screen: "scr_registration", value: 645_408_000_000))
        send(handler, input("password", "password_input", screen: "scr_registration", value: "hunter2"))
        send(handler, input("experience", "single_choice", itemIDs: ["pro"], itemTitles: ["I train professionally"]))
        send(handler, input("interests", "multi_choice", itemIDs: ["sports", "music"], itemTitles: ["Sports", "Music"]))
        send(handler, input("reminders", "toggle", value: true))
        send(handler, input("hours", "number_input", value: "12"))

        XCTAssertEqual(handler.pendingAnswers.answers.count, 7)
        let set = handler.flowDidDisappear()
        XCTAssertEqual(set.answers.map(\.element), ["email", "name", "birthday", "experience", "interests", "reminders", "hours"])
        XCTAssertEqual(set.warnings, [])

        var profile = Profile()
        profile.setField("id", .string("jane"))
        XCTAssertEqual(profile.apply(set), [])
        XCTAssertEqual(profile["email"], .string("jane@example.com"))
        XCTAssertEqual(profile["first_name"], .string("Jane"))
        XCTAssertEqual(profile["birthday"], .string("1990-06-15"))
        XCTAssertEqual(profile.customAttributes["experience"], .string("pro"))
        XCTAssertEqual(profile.customAttributes["interests"], .string("sports,music"))
        XCTAssertEqual(profile.customAttributes["reminders"], .number(1))
        XCTAssertEqual(profile.customAttributes["weekly_hours"], .number(12))

        // Reset: nothing pending, and the next session starts empty.
        XCTAssertEqual(handler.pendingAnswers.answers, [])
        XCTAssertEqual(handler.flowDidDisappear().answers, [])
        send(handler, input("email", "email_input", screen: "scr_registration", value: "other@example.com"))
        XCTAssertEqual(handler.flowDidDisappear().answers.map(\.value), [.string("other@example.com")])
    }

    func testHandlerIsUsableFromManyThreads() {
        let handler = makeHandler()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            handler.handle(name: "flow_user_input", params: [
                "name": "flow_user_input", "instanceId": "scr_quiz",
                "element_id": "field_\(index % 20)", "element_type": "text_input", "value": "v\(index)",
            ])
        }
        XCTAssertEqual(handler.flowDidDisappear().answers.count, 20)
    }
}
