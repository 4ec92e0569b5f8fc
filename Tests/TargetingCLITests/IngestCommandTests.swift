import Foundation
import TargetingTestSupport
import XCTest

/// `targeting ingest` in-process (event streams through the input handler).
final class IngestCommandTests: TemporaryDirectoryTestCase {

    private var onboarding: String { CLIHarness.example("events/onboarding.jsonl") }

    private func ingest(_ events: [String], store: String, _ extra: [String] = []) -> CLIResult {
        CLIHarness.run(["ingest"] + events + ["--store", store, "--rules", CLIHarness.rulesPath] + extra)
    }

    /// The store's profiles by id, each written with sorted keys.
    private func profiles(in store: String, file: StaticString = #filePath, line: UInt = #line) -> [String: String] {
        var result: [String: String] = [:]
        for text in CLIResult.lines(CLIHarness.text(store)) where !text.isEmpty {
            guard case .string(let id)? = CLIHarness.member(text, "id") else {
                XCTFail("store line without id: \(text)", file: file, line: line)
                continue
            }
            XCTAssertNil(result[id], "two lines for `\(id)`", file: file, line: line)
            result[id] = CLIHarness.canonical(text, file: file, line: line)
        }
        return result
    }

    private func event(_ profile: String, _ element: String, _ type: String, screen: String = "scr_quiz", _ payload: String) -> String {
        "{\"profile_id\":\"\(profile)\",\"name\":\"flow_user_input\",\"instanceId\":\"\(screen)\",\"isBackendEvent\":false,\"isCustomerEvent\":true,\"element_id\":\"\(element)\",\"element_type\":\"\(type)\",\(payload)}"
    }

    // MARK: The example stream
    //
    // Examples/events/onboarding.jsonl, through Rules/onboarding.rules with --time-zone UTC:
    // - jane (lines 1-13): email; name "  Jane " -> "Jane"; birthday 645408000000 -> 1990-06-15;
    //   password ignored; experience amateur then pro; interests sports,music then sports;
    //   reminders true -> 1; hours "12" -> 12; session closed.
    // - omar (14-22): name "Omar" then "   " (removed); experience beginner; interests travel,
    //   then [] (removed), then sports,sports,food -> "sports,food"; reminders false -> 0;
    //   goal_date (undeclared, date_time_picker) -> 1798761600000 ms; session closed.
    // - li (23-30): email; experience "semi_pro" (kept, warning); hours "4.5"; then rejected lines:
    //   26 toggle value 1, 27 birthday as a string, 28 not JSON, 29 no `name`, 30 hours "four".
    //   No flow_did_disappear: the session stays open.

    private let expectedJane = #"{"id":"jane","email":"jane@example.com","first_name":"Jane","birthday":"1990-06-15","custom_attributes":{"experience":"pro","interests":"sports","reminders":1,"weekly_hours":12}}"#
    private let expectedOmar = #"{"id":"omar","custom_attributes":{"experience":"beginner","interests":"sports,food","reminders":0,"goal_date":1798761600000}}"#
    private let expectedLi = #"{"id":"li","email":"li@example.com","custom_attributes":{"experience":"semi_pro","weekly_hours":4.5}}"#

    func testOnboardingStreamIntoANewStore() {
        let store = directory.file("profiles.jsonl")
        let result = ingest([onboarding], store: store, ["--time-zone", "UTC"])
        XCTAssertEqual(result.status, 2, "the example stream has malformed lines on purpose")

        let errors = result.errLines.filter { $0.contains(": error:") }
        let numbers = errors.compactMap { line -> Int? in
            guard line.hasPrefix(onboarding + ":") else { return nil }
            return Int(line.dropFirst(onboarding.count + 1).prefix { $0.isNumber })
        }
        XCTAssertEqual(numbers, [26, 27, 28, 29, 30], result.err)
        XCTAssertTrue(result.err.contains("\(onboarding):24: warning:"), result.err)
        XCTAssertTrue(result.err.contains("semi_pro"), result.err)

        let stored = profiles(in: store)
        XCTAssertEqual(stored.keys.sorted(), ["jane", "li", "omar"])
        XCTAssertEqual(stored["jane"], CLIHarness.canonical(expectedJane))
        XCTAssertEqual(stored["omar"], CLIHarness.canonical(expectedOmar))
        XCTAssertEqual(stored["li"], CLIHarness.canonical(expectedLi))
        // Profiles are stored in the order they first appeared.
        XCTAssertEqual(CLIResult.lines(CLIHarness.text(store)).compactMap { CLIHarness.member($0, "id")?.stringValue }, ["jane", "omar", "li"])
    }

    func testOnboardingStreamSummaryCounts() {
        let store = directory.file("profiles.jsonl")
        let result = ingest([onboarding], store: store, ["--format", "json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.outLines.count, 1, result.out)
        let summary = result.outLines.first ?? ""
        XCTAssertEqual(CLIHarness.member(summary, "events"), .number(30))
        XCTAssertEqual(CLIHarness.member(summary, "applied"), .number(20))
        XCTAssertEqual(CLIHarness.member(summary, "rejected"), .number(5))
        XCTAssertEqual(CLIHarness.member(summary, "warnings"), .number(1))
        XCTAssertEqual(CLIHarness.member(summary, "profiles_created"), .number(3))
        XCTAssertEqual(CLIHarness.member(summary, "sessions_closed"), .number(2))
        XCTAssertEqual(CLIHarness.member(summary, "sessions_open"), .array([.string("li")]))
        let ignored = CLIHarness.member(summary, "ignored")?.objectMembers ?? []
        XCTAssertEqual(ignored.compactMap(\.value.numberValue).reduce(0, +), 3, "two screen views and one password field")
    }

    func testOnboardingStreamTextSummary() {
        let store = directory.file("profiles.jsonl")
        let result = ingest([onboarding], store: store)
        XCTAssertEqual(result.status, 2)
        for expected in ["events read: 30", "inputs applied: 20", "ignored: 3", "rejected: 5", "warnings: 1",
                         "3 created", "sessions: 2 closed, 1 still open (li)", store] {
            XCTAssertTrue(result.out.contains(expected), "`\(expected)` missing from:\n\(result.out)")
        }
    }

    func testBirthdayFollowsTimeZoneOption() {
        let store = directory.file("profiles.jsonl")
        // 645408000000 is 1990-06-15T00:00Z: still the 14th in Los Angeles (UTC-7 that summer).
        _ = ingest([onboarding], store: store, ["--time-zone", "America/Los_Angeles"])
        XCTAssertEqual(profiles(in: store)["jane"].flatMap { CLIHarness.member($0, "birthday") }, .string("1990-06-14"))

        let unknown = ingest([onboarding], store: directory.file("other.jsonl"), ["--time-zone", "Mars/Olympus_Mons"])
        XCTAssertEqual(unknown.status, 64)
    }

    func testIngestingTheSameStreamTwiceChangesNothingMore() {
        let store = directory.file("profiles.jsonl")
        _ = ingest([onboarding], store: store)
        let first = profiles(in: store)
        let bytes = CLIHarness.bytes(store)
        let again = ingest([onboarding], store: store, ["--format", "json"])
        XCTAssertEqual(profiles(in: store), first)
        XCTAssertEqual(CLIHarness.bytes(store), bytes, "the store is byte for byte the same")
        XCTAssertEqual(CLIHarness.member(again.out, "profiles_updated"), .number(0), again.out)
        XCTAssertEqual(CLIHarness.member(again.out, "profiles_created"), .number(0), again.out)
        XCTAssertEqual(CLIHarness.member(again.out, "profiles_unchanged"), .number(3), again.out)
        let text = ingest([onboarding], store: store)
        XCTAssertTrue(text.out.contains("profiles: 0 updated, 0 created, 3 unchanged\n"), text.out)
    }

    func testOnlyProfilesWhoseLineChangedCountAsUpdated() {
        // Written by hand (spaces, key order): a line whose profile ends as it was keeps its bytes.
        let storeText = """
        { "custom_attributes": {"experience": "pro"}, "id": "same" }
        {"id":"reverted","custom_attributes":{"experience":"beginner"}}
        {"id":"changed","custom_attributes":{"experience":"beginner"}}
        {"id":"untouched"}

        """
        let store = directory.write("store.jsonl", storeText)
        let events = directory.write("events.jsonl", [
            event("same", "experience", "single_choice", #""item_ids":["pro"]"#),
            event("reverted", "experience", "single_choice", #""item_ids":["pro"]"#),
            event("reverted", "experience", "single_choice", #""item_ids":["beginner"]"#),
            event("changed", "experience", "single_choice", #""item_ids":["pro"]"#),
            event("fresh", "experience", "single_choice", #""item_ids":["pro"]"#),
        ].joined(separator: "\n") + "\n")
        let result = ingest([events], store: store, ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(CLIHarness.member(result.out, "profiles_updated"), .number(1), result.out)
        XCTAssertEqual(CLIHarness.member(result.out, "profiles_created"), .number(1), result.out)
        XCTAssertEqual(CLIHarness.member(result.out, "profiles_unchanged"), .number(2), result.out)
        let lines = CLIResult.lines(CLIHarness.text(store))
        XCTAssertEqual(lines.count, 5, CLIHarness.text(store))
        XCTAssertEqual(Array(lines.prefix(2)), Array(CLIResult.lines(storeText).prefix(2)), "unchanged profiles keep their bytes")
        XCTAssertEqual(lines[3], #"{"id":"untouched"}"#)
        XCTAssertEqual(CLIHarness.canonical(lines[2]), CLIHarness.canonical(#"{"id":"changed","custom_attributes":{"experience":"pro"}}"#))
    }

    // MARK: The store

    func testAbsentStoreIsCreated() {
        let store = directory.file("fresh.jsonl")
        let events = directory.write("events.jsonl", event("u1", "experience", "single_choice", #""item_ids":["pro"]"#) + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(profiles(in: directory.file("fresh.jsonl")), ["u1": CLIHarness.canonical(#"{"id":"u1","custom_attributes":{"experience":"pro"}}"#)])
    }

    func testAbsentStoreIsCreatedEvenWhenNothingApplies() {
        let store = directory.file("empty.jsonl")
        let events = directory.write("events.jsonl", #"{"profile_id":"u1","name":"flow_screen_showed","instanceId":"scr_quiz"}"# + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store))
        XCTAssertEqual(CLIHarness.text(store).trimmingCharacters(in: .whitespacesAndNewlines), "")
    }

    func testUnknownFieldsSurvive() {
        let store = directory.write("profiles.jsonl", [
            #"{"id":"jane","vip_note":"keep me","custom_attributes":{}}"#,
            #"{ "id" : "untouched",  "nested" : {"a" : [1, 2.50, true]} }"#,
        ].joined(separator: "\n") + "\n")
        let events = directory.write("events.jsonl", event("jane", "reminders", "toggle", #""value":true"#) + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 0, result.err)

        let lines = CLIResult.lines(CLIHarness.text(store))
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(CLIHarness.canonical(lines[0]), CLIHarness.canonical(#"{"id":"jane","vip_note":"keep me","custom_attributes":{"reminders":1}}"#))
        // A profile the stream did not touch is kept byte for byte.
        XCTAssertEqual(lines[1], #"{ "id" : "untouched",  "nested" : {"a" : [1, 2.50, true]} }"#)

        // And the unknown field survives a second rewrite.
        let more = directory.write("more.jsonl", event("jane", "experience", "single_choice", #""item_ids":["amateur"]"#) + "\n")
        XCTAssertEqual(ingest([more], store: store).status, 0)
        XCTAssertEqual(CLIHarness.member(CLIResult.lines(CLIHarness.text(store))[0], "vip_note"), .string("keep me"))
    }

    func testArraysAreStoredJoinedThenTrimmed() {
        // 51 characters joined, 49 once trimmed: not corrupt.
        let long = #"[" "# + String(repeating: "a", count: 24) + #"",""# + String(repeating: "b", count: 24) + #" "]"#
        let store = directory.write("profiles.jsonl", #"{"id":"jane","custom_attributes":{"interests":[" music","sports"],"long":"# + long + "}}\n")
        let events = directory.write("events.jsonl", event("jane", "hobbies", "multi_choice", #""item_ids":[" chess","go\u3000"]"#) + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        let expected = #"{"id":"jane","custom_attributes":{"interests":"music,sports","long":""# + String(repeating: "a", count: 24) + ","
            + String(repeating: "b", count: 24) + #"","hobbies":"chess,go"}}"#
        XCTAssertEqual(profiles(in: store)["jane"], CLIHarness.canonical(expected))
    }

    func testCorruptStoreLineStopsIngestAndLeavesTheFileUnchanged() {
        let original = Array((#"{"id":"a","custom_attributes":{"experience":"pro"}}"# + "\n" + #"{"id":"b","#  + "\n" + #"{"id":"c"}"# + "\n").utf8)
        let store = directory.write("profiles.jsonl", bytes: original)
        let events = directory.write("events.jsonl", event("a", "experience", "single_choice", #""item_ids":["beginner"]"#) + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(store):2"), result.err)
        XCTAssertEqual(CLIHarness.bytes(store), original)
        XCTAssertEqual(directory.entries().filter { $0.contains(".tmp") }, [], "no temporary file left behind")
    }

    func testStoreLineBreakingAdaptyLimitsIsCorrupt() {
        let original = Array(("{\"id\":\"a\",\"custom_attributes\":{\"bio\":\"\(String(repeating: "x", count: 51))\"}}\n").utf8)
        let store = directory.write("profiles.jsonl", bytes: original)
        let events = directory.write("events.jsonl", event("b", "experience", "single_choice", #""item_ids":["pro"]"#) + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(store):1"), result.err)
        XCTAssertEqual(CLIHarness.bytes(store), original)
    }

    func testEmptyAndAbsentCustomAttributesAreTheSame() {
        let store = directory.write("profiles.jsonl", [
            #"{"id":"with_empty","custom_attributes":{}}"#,
            #"{"id":"without"}"#,
            #"{"id":"with_null","custom_attributes":null}"#,
        ].joined(separator: "\n") + "\n")
        let lines = ["with_empty", "without", "with_null"].map { event($0, "experience", "single_choice", #""item_ids":["pro"]"#) }
        let events = directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        let stored = profiles(in: store)
        for id in ["with_empty", "without", "with_null"] {
            XCTAssertEqual(stored[id], CLIHarness.canonical("{\"id\":\"\(id)\",\"custom_attributes\":{\"experience\":\"pro\"}}"))
        }

        // Resolving them gives the same answer too.
        let plain = directory.write("plain.jsonl", #"{"id":"x","custom_attributes":{}}"# + "\n" + #"{"id":"x"}"# + "\n")
        let resolved = CLIHarness.run(["resolve", "--all", "--rules", CLIHarness.rulesPath, "--now", "2026-11-29T12:00:00Z",
                                       "--profiles", plain, "--format", "json"])
        XCTAssertEqual(resolved.status, 0, resolved.err)
        XCTAssertEqual(resolved.outLines.count, 6)
        XCTAssertEqual(Array(resolved.outLines[0..<3]), Array(resolved.outLines[3..<6]))
    }

    func testClearingAnswersRemovesThemFromTheStore() {
        let store = directory.write("profiles.jsonl", #"{"id":"u","first_name":"Omar","custom_attributes":{"interests":"travel","experience":"pro"}}"# + "\n")
        let events = directory.write("events.jsonl", [
            event("u", "name", "text_input", screen: "scr_registration", #""value":"  ""#),
            event("u", "interests", "multi_choice", #""item_ids":[],"item_titles":[]"#),
            event("u", "experience", "single_choice", #""item_ids":[]"#),
        ].joined(separator: "\n") + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 0, result.err)
        let stored = profiles(in: store)["u"] ?? ""
        XCTAssertNil(CLIHarness.member(stored, "first_name"), stored)
        let custom = CLIHarness.member(stored, "custom_attributes")
        XCTAssertTrue(custom == nil || custom == .object([]), stored)
    }

    func testAttributeLimitsAtIngest() {
        let thirty = (1...30).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let store = directory.write("profiles.jsonl", "{\"id\":\"full\",\"custom_attributes\":{\(thirty)}}\n")
        let events = directory.write("events.jsonl", [
            event("full", "extra", "text_input", #""value":"one too many""#),                       // 1: 31st attribute
            event("full", "k1", "text_input", #""value":"replaced""#),                               // 2: fine
            event("new", "bio", "text_input", "\"value\":\"\(String(repeating: "y", count: 51))\""), // 3: 51 characters
            event("new", "bio", "text_input", "\"value\":\"\(String(repeating: "y", count: 50))\""), // 4: fine
        ].joined(separator: "\n") + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(events):1:"), result.err)
        XCTAssertTrue(result.err.contains("\(events):3:"), result.err)
        XCTAssertFalse(result.err.contains("\(events):2:"), result.err)
        XCTAssertFalse(result.err.contains("\(events):4:"), result.err)
        let stored = profiles(in: store)
        XCTAssertEqual(stored["full"].flatMap { CLIHarness.member($0, "custom_attributes") }?.objectMembers?.count, 30)
        XCTAssertEqual(stored["full"].flatMap { CLIHarness.member($0, "custom_attributes")?["k1"] }, .string("replaced"))
        XCTAssertNil(stored["full"].flatMap { CLIHarness.member($0, "custom_attributes")?["extra"] })
        XCTAssertEqual(stored["new"].flatMap { CLIHarness.member($0, "custom_attributes")?["bio"] }, .string(String(repeating: "y", count: 50)))
    }

    func testSeveralEventFilesInOrder() {
        let store = directory.file("profiles.jsonl")
        let first = directory.write("a.jsonl", event("u", "experience", "single_choice", #""item_ids":["beginner"]"#) + "\n")
        let second = directory.write("b.jsonl", event("u", "experience", "single_choice", #""item_ids":["pro"]"#) + "\n")
        XCTAssertEqual(ingest([first, second], store: store).status, 0)
        XCTAssertEqual(profiles(in: store)["u"].flatMap { CLIHarness.member($0, "custom_attributes")?["experience"] }, .string("pro"))
    }

    func testMissingEventFileExitsTwoAndLeavesTheStoreAlone() {
        let original = Array((#"{"id":"a"}"# + "\n").utf8)
        let store = directory.write("profiles.jsonl", bytes: original)
        let result = ingest([directory.file("absent.jsonl")], store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("absent.jsonl"), result.err)
        XCTAssertEqual(CLIHarness.bytes(store), original)
    }

    func testEventWithoutProfileIDIsRejected() {
        let store = directory.file("profiles.jsonl")
        let events = directory.write("events.jsonl", [
            #"{"name":"flow_user_input","element_id":"email","element_type":"email_input","value":"a@b.c"}"#,
            #"{"profile_id":7,"name":"flow_user_input","element_id":"email","element_type":"email_input","value":"a@b.c"}"#,
            #"["not","an","object"]"#,
        ].joined(separator: "\n") + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        for number in 1...3 { XCTAssertTrue(result.err.contains("\(events):\(number):"), result.err) }
        XCTAssertEqual(profiles(in: store), [:])
    }

    /// profiles: a value that breaks the storage rules "is rejected with a message that names the
    /// profile, the key and the rule".
    func testLimitRejectionNamesTheProfileTheKeyAndTheRule() {
        let thirty = (1...30).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let store = directory.write("profiles.jsonl", "{\"id\":\"full_profile\",\"custom_attributes\":{\(thirty)}}\n")
        let events = directory.write("events.jsonl", [
            event("full_profile", "extra", "text_input", #""value":"one too many""#),
            event("other_profile", "bio", "text_input", "\"value\":\"\(String(repeating: "y", count: 51))\""),
        ].joined(separator: "\n") + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        let first = result.errLines.first { $0.hasPrefix("\(events):1:") } ?? ""
        XCTAssertTrue(first.contains("full_profile"), "the profile is not named: \(first)")
        XCTAssertTrue(first.contains("extra"), first)
        XCTAssertTrue(first.contains("30"), first)
        let second = result.errLines.first { $0.hasPrefix("\(events):2:") } ?? ""
        XCTAssertTrue(second.contains("other_profile"), "the profile is not named: \(second)")
        XCTAssertTrue(second.contains("bio"), second)
        XCTAssertTrue(second.contains("50"), second)
    }

    func testRulesWithErrorsExitTwoAndLeaveTheStoreAlone() {
        directory.write("rules/bad.rules", "audience a = nope\n")
        let original = Array((#"{"id":"a"}"# + "\n").utf8)
        let store = directory.write("profiles.jsonl", bytes: original)
        let events = directory.write("events.jsonl", event("a", "note", "text_input", #""value":"x""#) + "\n")
        let result = CLIHarness.run(["ingest", events, "--store", store, "--rules", directory.file("rules")])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("bad.rules:1:14: error:"), result.err)
        XCTAssertEqual(CLIHarness.bytes(store), original)

        let missing = CLIHarness.run(["ingest", events, "--store", store, "--rules", directory.file("no-rules")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(CLIHarness.bytes(store), original)
    }

    func testStoreWithTwoProfilesOfOneIDIsCorrupt() {
        let original = Array((#"{"id":"a"}"# + "\n" + #"{"id":"b"}"# + "\n" + #"{"id":"a","x":1}"# + "\n").utf8)
        let store = directory.write("profiles.jsonl", bytes: original)
        let events = directory.write("events.jsonl", event("b", "note", "text_input", #""value":"x""#) + "\n")
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(store):3"), result.err)
        XCTAssertEqual(CLIHarness.bytes(store), original)
    }

    func testEventFileWithBOMAndCRLF() {
        let store = directory.file("profiles.jsonl")
        let lines = [
            event("u", "experience", "single_choice", #""item_ids":["pro"]"#),
            "",
            event("u", "reminders", "toggle", #""value":true"#),
            "not json",
        ]
        let events = directory.write("events.jsonl", bytes: [0xEF, 0xBB, 0xBF] + Array(lines.joined(separator: "\r\n").utf8) + Array("\r\n".utf8))
        let result = ingest([events], store: store)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(events):4:"), "CRLF counts as one line break: \(result.err)")
        XCTAssertEqual(result.errLines.count, 1, result.err)
        XCTAssertEqual(profiles(in: store)["u"], CLIHarness.canonical(#"{"id":"u","custom_attributes":{"experience":"pro","reminders":1}}"#))
    }

    func testHelpAndUsage() {
        let help = CLIHarness.run(["ingest", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("OVERVIEW:"))
        XCTAssertTrue(help.out.contains("USAGE: targeting ingest"))
        XCTAssertTrue(help.out.contains("--time-zone"))
        XCTAssertTrue(help.out.contains("--no-rules"), help.out)
        XCTAssertEqual(CLIHarness.run(["ingest", "--store", directory.file("s.jsonl")]).status, 64)
    }

    func testARejectedAnswerNeitherCreatesNorRewritesAProfile() {
        let storeText = "{ \"id\" : \"kept\", \"custom_attributes\" : {\"a\": 1} }\n"
        let store = directory.write("store.jsonl", storeText)
        let events = directory.write("events.jsonl", """
        {"profile_id":"kept","name":"flow_user_input","element_id":"push","element_type":"toggle","value":1}
        {"profile_id":"newcomer","name":"flow_user_input","element_id":"push","element_type":"toggle","value":1}

        """)
        let rules = directory.write("rules/main.rules", "")
        let result = CLIHarness.run(["ingest", events, "--store", store, "--rules", rules])
        XCTAssertEqual(result.status, 2, result.err)
        XCTAssertTrue(result.err.contains("events.jsonl:1: error: profile `kept`:"), result.err)
        XCTAssertTrue(result.err.contains("events.jsonl:2: error: profile `newcomer`:"), result.err)
        XCTAssertEqual(CLIHarness.text(store), storeText)
    }
    // MARK: Without a rule set

    func testWithoutRulesDirectoryIngestIsAnErrorNamingTheWayOut() {
        let events = directory.write("e.jsonl", event("a", "goal", "text_input", #""value":"x""#) + "\n")
        let store = directory.file("s.jsonl")
        let result = CLIHarness.run(["ingest", events, "--store", store], currentDirectory: directory.path)
        XCTAssertEqual(result.status, 2, result.err)
        XCTAssertTrue(result.err.contains("error:"), result.err)
        XCTAssertTrue(result.err.contains("`Rules`"), result.err)
        XCTAssertTrue(result.err.contains("--rules DIR"), result.err)
        XCTAssertTrue(result.err.contains("--no-rules"), result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store), "nothing was stored")
    }

    func testNoRulesStoresAnswersUnderTheirElementIDs() {
        let events = directory.write("e.jsonl", event("a", "birthday", "date_picker", #""value":1228132800000"#) + "\n")
        let store = directory.file("s.jsonl")
        let result = CLIHarness.run(["ingest", events, "--store", store, "--no-rules"], currentDirectory: directory.path)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(profiles(in: store), ["a": CLIHarness.canonical(#"{"id":"a","custom_attributes":{"birthday":1228132800000}}"#)])
        let both = CLIHarness.run(["ingest", events, "--store", store, "--no-rules", "--rules", CLIHarness.rulesPath])
        XCTAssertEqual(both.status, 64, both.err)
        XCTAssertTrue(both.err.contains("--no-rules"), both.err)
    }

    func testResolveWithoutRulesDirectoryNamesTheRulesOption() {
        let profile = directory.write("p.json", #"{"id":"u1"}"#)
        for arguments in [["resolve", "onboarding_followup", "--profile", profile], ["sql", "onboarding_followup", "--dialect", "postgres"]] {
            let result = CLIHarness.run(arguments, currentDirectory: directory.path)
            XCTAssertEqual(result.status, 2, result.err)
            XCTAssertTrue(result.err.contains("cannot read `Rules`"), result.err)
            XCTAssertTrue(result.err.contains("--rules DIR"), result.err)
        }
    }

    // MARK: The lock file

    func testNoLockFileIsLeftBehind() {
        let store = directory.file("store.jsonl")
        let events = directory.write("events.jsonl", event("u1", "experience", "single_choice", #""item_ids":["pro"]"#) + "\n")
        XCTAssertEqual(ingest([events], store: store).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + ".lock"), "\(directory.entries())")
        // Also after a run that fails once it holds the lock (a corrupt store).
        let corrupt = directory.write("corrupt.jsonl", "{\n")
        XCTAssertEqual(ingest([events], store: corrupt).status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: corrupt + ".lock"), "\(directory.entries())")
        // A lock file already there (left by a killed run) is taken and removed.
        _ = directory.write("store.jsonl.lock", "")
        XCTAssertEqual(ingest([events], store: store).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + ".lock"), "\(directory.entries())")
    }

    func testConcurrentIngestsLoseNoUpdateAndLeaveNoLockFile() {
        let store = directory.file("store.jsonl")
        let writers = 6
        let perWriter = 40
        var files: [String] = []
        for writer in 0..<writers {
            let lines = (0..<perWriter).map { index in
                event("shared\(index)", "w\(writer)", "text_input", "\"value\":\"v\(writer)-\(index)\"")
            }
            files.append(directory.write("w\(writer).jsonl", lines.joined(separator: "\n") + "\n"))
        }
        let rules = directory.write("rules/main.rules", "")
        let statuses = LockedStatuses()
        let eventFiles = files
        DispatchQueue.concurrentPerform(iterations: writers * 3) { run in
            let result = CLIHarness.run(["ingest", eventFiles[run % writers], "--store", store, "--rules", rules])
            statuses.add(result.status)
        }
        XCTAssertEqual(statuses.all.sorted(), Array(repeating: 0, count: writers * 3))
        let stored = profiles(in: store)
        XCTAssertEqual(stored.count, perWriter)
        for index in 0..<perWriter {
            for writer in 0..<writers {
                XCTAssertTrue(stored["shared\(index)"]?.contains("\"w\(writer)\":\"v\(writer)-\(index)\"") ?? false,
                              "an update of writer \(writer) to shared\(index) was lost: \(stored["shared\(index)"] ?? "none")")
            }
        }
        XCTAssertEqual(directory.entries().filter { $0.hasPrefix("store") || $0.hasPrefix(".store") }, ["store.jsonl"])
    }

    func testARejectedLineOpensNoSession() {
        // Each profile's only line after its flow disappeared is rejected (a mistyped toggle, a
        // value over 50 characters, a line without `element_id`); a valid line still opens one.
        let events = directory.write("events.jsonl", [
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"reminders","element_type":"toggle","value":true}"#,
            #"{"profile_id":"u1","name":"flow_did_disappear"}"#,
            #"{"profile_id":"u1","name":"flow_user_input","element_id":"reminders","element_type":"toggle","value":1}"#,
            #"{"profile_id":"u2","name":"flow_did_disappear"}"#,
            #"{"profile_id":"u2","name":"flow_user_input","element_id":"nickname","element_type":"text_input","value":"\#(String(repeating: "x", count: 51))"}"#,
            #"{"profile_id":"u3","name":"flow_user_input","element_type":"text_input","value":"x"}"#,
            #"{"profile_id":"u4","name":"flow_user_input","element_id":"nickname","element_type":"text_input","value":"ok"}"#,
        ].joined(separator: "\n") + "\n")
        let store = directory.file("profiles.jsonl")
        let first = ingest([events], store: store, ["--format", "json"])
        XCTAssertEqual(first.status, 2, first.err)
        XCTAssertEqual(first.errLines.filter { $0.contains("error:") }.count, 3, first.err)
        let summary = first.outLines.first ?? ""
        XCTAssertEqual(CLIHarness.member(summary, "rejected"), .number(3))
        XCTAssertEqual(CLIHarness.member(summary, "sessions_closed"), .number(1))
        XCTAssertEqual(CLIHarness.member(summary, "sessions_open"), .array([.string("u4")]))
        // The rejected line made no profile for u3, whose only line it was.
        XCTAssertEqual(profiles(in: store).keys.sorted(), ["u1", "u4"])

        // The same for profiles already in the store (their sessions are tracked by position).
        let again = ingest([events], store: store, ["--format", "json"])
        XCTAssertEqual(CLIHarness.member(again.outLines.first ?? "", "sessions_open"), .array([.string("u4")]))
    }
}

/// Exit statuses gathered from several threads.
private final class LockedStatuses: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int32] = []

    func add(_ status: Int32) { lock.withLock { statuses.append(status) } }
    var all: [Int32] { lock.withLock { statuses } }
}
