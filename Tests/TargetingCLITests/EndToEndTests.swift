#if canImport(Glibc)
import Glibc

#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TargetingTestSupport
import XCTest

/// The real `targeting` executable: events -> ingest -> store -> resolve, and the store's
/// safety when an ingest is killed or two run at once (the input handler, the edge cases "Input handler and store").
final class EndToEndTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() {
        super.setUp()
        directory = TemporaryDirectory("targeting-e2e")
    }

    override func tearDown() {
        directory.remove()
        directory = nil
        super.tearDown()
    }

    // MARK: Running the executable

    /// The `targeting` executable built next to this test bundle (any scratch path), else the
    /// package's `.build/debug/targeting`.
    static let executable: URL? = {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            candidates.append(bundle.bundleURL.appendingPathComponent("targeting"))
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("targeting"))
            if let executable = bundle.executableURL {
                candidates.append(executable.deletingLastPathComponent().appendingPathComponent("targeting"))
            }
        }
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("targeting"))
        }
        candidates.append(CLIHarness.packageRoot.appendingPathComponent(".build/debug/targeting"))
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: url.path)
        }
    }()

    private func requireExecutable(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard let url = EndToEndTests.executable else {
            XCTFail("the `targeting` executable was not found next to the test bundle; build it with `swift build --build-tests`", file: file, line: line)
            throw XCTSkip("no executable")
        }
        return url
    }

    /// A started `targeting` process whose output goes to files.
    struct Running {
        let process: Process
        let outPath: String
        let errPath: String

        func wait() -> CLIResult {
            process.waitUntilExit()
            return CLIResult(status: process.terminationStatus, out: CLIHarness.text(outPath), err: CLIHarness.text(errPath))
        }
    }

    private var runCounter = 0

    private func start(_ arguments: [String]) throws -> Running {
        let executable = try requireExecutable()
        runCounter += 1
        let outPath = directory.write("logs/\(runCounter).out", "")
        let errPath = directory.write("logs/\(runCounter).err", "")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // A working directory without `Rules` or `profiles.jsonl`: every path below is absolute.
        process.currentDirectoryURL = directory.url.appendingPathComponent("logs")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        return Running(process: process, outPath: outPath, errPath: errPath)
    }

    private func run(_ arguments: [String]) throws -> CLIResult {
        try start(arguments).wait()
    }

    // MARK: events -> ingest -> store -> resolve

    func testEventsIngestStoreResolve() throws {
        let store = directory.file("store/profiles.jsonl")
        try FileManager.default.createDirectory(atPath: directory.file("store"), withIntermediateDirectories: true)
        let events = CLIHarness.example("events/onboarding.jsonl")

        let ingested = try run(["ingest", events, "--store", store, "--rules", CLIHarness.rulesPath, "--time-zone", "UTC"])
        XCTAssertEqual(ingested.status, 2, "the example stream has malformed lines on purpose\n\(ingested.err)")
        for number in [26, 27, 28, 29, 30] {
            XCTAssertTrue(ingested.err.contains("\(events):\(number): error:"), "line \(number): \(ingested.err)")
        }
        XCTAssertTrue(ingested.out.contains("events read: 30"), ingested.out)

        let resolved = try run(["resolve", "--all", "--store", store, "--rules", CLIHarness.rulesPath,
                                "--now", "2026-11-29T12:00:00Z", "--format", "json"])
        XCTAssertEqual(resolved.status, 0, resolved.err)
        // jane: pro and 36 -> pro_adults. omar: sporty beginner; MD5 bucket of
        // "sporty_beginners_v1-omar" is 38 (Python hashlib) -> flow_sport_start_b. li: "semi_pro" matches
        // no segment -> everyone. Nobody has an app_version -> outdated_app. Nobody has a
        // customer_user_id, so none is in `pricing_q4` or `q4_holdout` (the shipped rules have both,
        // so each line carries `experiment`, `variant` and `held_out`).
        let expected = [
            #"{"profile_id":"jane","placement":"onboarding_followup","audience":"pro_adults","kind":"flow","id":"flow_pro_v2","split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"jane","placement":"main_paywall","audience":"outdated_app","kind":"paywall","id":"pw_update_first","split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"jane","placement":"coaching_paywall","audience":"coached_pros","kind":"paywall","id":"pw_coaching_7d","split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"omar","placement":"onboarding_followup","audience":"sporty_beginners","kind":"flow","id":"flow_sport_start_b","split":"sporty_beginners_v1","experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"omar","placement":"main_paywall","audience":"outdated_app","kind":"paywall","id":"pw_update_first","split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"omar","placement":"coaching_paywall","audience":"everyone","kind":null,"id":null,"split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"li","placement":"onboarding_followup","audience":"everyone","kind":"flow","id":"flow_default","split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"li","placement":"main_paywall","audience":"outdated_app","kind":"paywall","id":"pw_update_first","split":null,"experiment":null,"variant":null,"held_out":false}"#,
            #"{"profile_id":"li","placement":"coaching_paywall","audience":"everyone","kind":null,"id":null,"split":null,"experiment":null,"variant":null,"held_out":false}"#,
        ]
        XCTAssertEqual(resolved.outLines.map { CLIHarness.canonical($0) }, expected.map { CLIHarness.canonical($0) })

        let one = try run(["resolve", "onboarding_followup", "--store", store, "--id", "jane", "--rules", CLIHarness.rulesPath,
                           "--now", "2026-11-29T12:00:00Z", "--explain"])
        XCTAssertEqual(one.status, 0, one.err)
        XCTAssertTrue(one.out.contains("flow_pro_v2"), one.out)
    }

    func testBinaryExitStatuses() throws {
        XCTAssertEqual(try run(["check", CLIHarness.rulesPath]).status, 0)
        XCTAssertEqual(try run(["check", directory.file("nope")]).status, 2)
        XCTAssertEqual(try run(["check", "--nope"]).status, 64)
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("OVERVIEW:"), help.out)
    }

    /// diagnostics: nothing in any input may crash the program. A directory where a file belongs is
    /// an unreadable input: exit 2 with a message (checked on the executable, as a crash would
    /// take the test process down with it).
    func testDirectoryWhereAFileBelongsIsAnErrorNotACrash() throws {
        let folder = directory.file("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let events = directory.write("events.jsonl", #"{"profile_id":"u","name":"flow_user_input","element_id":"note","element_type":"text_input","value":"x"}"# + "\n")
        let store = directory.file("profiles.jsonl")
        let cases: [(String, [String])] = [
            ("resolve --profiles DIR", ["resolve", "--all", "--rules", CLIHarness.rulesPath, "--profiles", folder]),
            ("resolve --store DIR", ["resolve", "--all", "--rules", CLIHarness.rulesPath, "--store", folder]),
            ("resolve --profile DIR", ["resolve", "--all", "--rules", CLIHarness.rulesPath, "--profile", folder]),
            ("ingest --store DIR", ["ingest", events, "--rules", CLIHarness.rulesPath, "--store", folder]),
            ("ingest DIR", ["ingest", folder, "--rules", CLIHarness.rulesPath, "--store", store]),
        ]
        for (label, arguments) in cases {
            let running = try start(arguments)
            let result = running.wait()
            guard running.process.terminationReason == .exit else {
                XCTFail("`targeting \(label)` crashed (signal \(result.status)): \(result.err.prefix(250))")
                continue
            }
            XCTAssertEqual(result.status, 2, "\(label): \(result.err)")
            XCTAssertTrue(result.err.contains(folder), "\(label) does not name the path: \(result.err)")
        }
    }

    // MARK: A large generated stream

    /// Elements of the generated stream, all routed by Rules/onboarding.rules.
    private static let generatedElements: [(element: String, type: String)] = [
        ("experience", "single_choice"), ("interests", "multi_choice"), ("hours", "number_input"),
        ("reminders", "toggle"), ("note", "text_input"), ("email", "email_input"),
    ]

    /// Writes `lines` events for profiles `p<first>`…`p<first + count - 1>`, round-robin; returns the
    /// path. Every event sets a value (no removals), so applying a stream twice changes nothing.
    private func generateEvents(_ name: String, lines: Int, firstProfile: Int, profiles: Int, salt: Int = 0) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(lines * 140)
        let levels = ["beginner", "amateur", "pro"]
        let topics = ["sports", "music", "travel", "food"]
        for index in 0..<lines {
            let profile = firstProfile + index % profiles
            let round = index / profiles + salt
            let (element, type) = EndToEndTests.generatedElements[(profile + round) % EndToEndTests.generatedElements.count]
            let payload: String
            switch type {
            case "single_choice": payload = "\"item_ids\":[\"\(levels[(profile + round) % 3])\"]"
            case "multi_choice": payload = "\"item_ids\":[\"\(topics[round % 4])\",\"\(topics[(round + profile) % 4])\"]"
            case "number_input": payload = "\"value\":\"\((profile * 7 + round) % 40)\""
            case "toggle": payload = "\"value\":\((profile + round) % 2 == 0 ? "true" : "false")"
            case "email_input": payload = "\"value\":\"p\(profile)-\(round)@example.com\""
            default: payload = "\"value\":\"note \(round) for \(profile)\""
            }
            let line = "{\"profile_id\":\"p\(profile)\",\"name\":\"flow_user_input\",\"instanceId\":\"scr_quiz\",\"element_id\":\"\(element)\",\"element_type\":\"\(type)\",\(payload)}\n"
            output.append(contentsOf: line.utf8)
        }
        return directory.write("events/\(name)", bytes: output)
    }

    /// The store before the crash test: profiles p0…p2999 with an unknown field; the generated
    /// stream (p0…p3999) updates all of them and creates p3000…p3999.
    private func initialStore() -> [UInt8] {
        var text = ""
        for index in 0..<3000 {
            text += "{\"id\":\"p\(index)\",\"vip\":\"keep \(index)\",\"custom_attributes\":{\"experience\":\"beginner\",\"legacy\":\(index)}}\n"
        }
        return Array(text.utf8)
    }

    func testKilledIngestLeavesOldOrNewStore() throws {
        _ = try requireExecutable()
        let events = generateEvents("big.jsonl", lines: 200_000, firstProfile: 0, profiles: 4000)
        let old = initialStore()
        let arguments = { (store: String) in ["ingest", events, "--store", store, "--rules", CLIHarness.rulesPath] }

        // The complete new version, from one uninterrupted run on a copy.
        let referenceStore = directory.write("reference/profiles.jsonl", bytes: old)
        let began = Date()
        let reference = try run(arguments(referenceStore))
        let duration = Date().timeIntervalSince(began)
        XCTAssertEqual(reference.status, 0, reference.err)
        let new = CLIHarness.bytes(referenceStore)
        XCTAssertNotEqual(new, old)
        checkReference(new)

        // Twelve kills at moments spread over the whole run; eight more timed on the store being
        // written: as soon as a new file appears beside it, after 0 to 3.5 ms.
        let storeDirectory = directory.file("crash")
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        let store = storeDirectory + "/profiles.jsonl"
        let known: Set<String> = ["profiles.jsonl", "profiles.jsonl.lock"]
        var outcomes: [String] = []
        var killedWhileWriting = 0
        for iteration in 0..<20 {
            try Data(old).write(to: URL(fileURLWithPath: store))
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: storeDirectory))
            let running = try start(arguments(store))
            let label: String
            if iteration < 12 {
                let delay = 0.005 + duration * Double(iteration) / 11
                usleep(useconds_t(delay * 1_000_000))
                label = String(format: "%.3fs", delay)
            } else {
                let extra = useconds_t(iteration - 12) * 500
                var sawNewFile = false
                while running.process.isRunning {
                    let entries = Set((try? FileManager.default.contentsOfDirectory(atPath: storeDirectory)) ?? [])
                    if !entries.subtracting(before).subtracting(known).isEmpty {
                        sawNewFile = true
                        break
                    }
                    usleep(200)
                }
                usleep(extra)
                if sawNewFile, running.process.isRunning { killedWhileWriting += 1 }
                label = "write+\(extra)us"
            }
            if running.process.isRunning { kill(running.process.processIdentifier, SIGKILL) }
            running.process.waitUntilExit()

            let now = CLIHarness.bytes(store)
            let state = now == old ? "old" : now == new ? "new" : "torn"
            outcomes.append("\(label):\(state)")
            XCTAssertTrue(state != "torn", "after a kill at \(label) the store is neither the old nor the new version (\(now.count) bytes)")
            // Only the store, its lock and (after a kill) the store's own temporary files are there.
            for entry in try FileManager.default.contentsOfDirectory(atPath: storeDirectory) where !known.contains(entry) {
                XCTAssertTrue(entry.hasPrefix(".profiles.jsonl.tmp"), "unexpected file `\(entry)` after a kill at \(label)")
            }
        }
        XCTAssertTrue(outcomes.contains { $0.hasSuffix("old") }, "no kill landed before the store was replaced: \(outcomes)")

        // Whatever the kills left behind does not break the next run.
        try Data(old).write(to: URL(fileURLWithPath: store))
        let next = try run(arguments(store))
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertEqual(CLIHarness.bytes(store), new, "a full run after the kills gives the complete new version")
        // And a run on the new version (the stream only sets values) changes no profile.
        let again = try run(arguments(store))
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(canonicalProfiles(CLIHarness.bytes(store)), canonicalProfiles(new))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: storeDirectory).filter { $0.contains(".tmp") }
        print("kills after the store write began: \(killedWhileWriting); temporary files left: \(leftovers.count)")
        print("kill outcomes (run takes \(String(format: "%.2f", duration))s): \(outcomes.joined(separator: " "))")
    }

    /// Profiles by id with sorted keys.
    private func canonicalProfiles(_ bytes: [UInt8]) -> [String: String] {
        var result: [String: String] = [:]
        for line in CLIResult.lines(String(decoding: bytes, as: UTF8.self)) where !line.isEmpty {
            if let id = CLIHarness.member(line, "id")?.stringValue { result[id] = CLIHarness.canonical(line) }
        }
        return result
    }

    /// The reference run's store has every profile with the last value of each generated element.
    private func checkReference(_ bytes: [UInt8]) {
        let stored = canonicalProfiles(bytes)
        XCTAssertEqual(stored.count, 4000)
        let lines = CLIResult.lines(String(decoding: bytes, as: UTF8.self))
        XCTAssertEqual(lines.count, 4000)
        // Existing profiles keep their place and unknown fields; new ones follow in order of appearance.
        XCTAssertEqual(lines.prefix(3000).compactMap { CLIHarness.member($0, "id")?.stringValue }, (0..<3000).map { "p\($0)" })
        XCTAssertEqual(lines.dropFirst(3000).compactMap { CLIHarness.member($0, "id")?.stringValue }, (3000..<4000).map { "p\($0)" })
        for index in [0, 1, 1999, 2999] {
            XCTAssertEqual(CLIHarness.member(lines[index], "vip"), .string("keep \(index)"))
            XCTAssertEqual(CLIHarness.member(lines[index], "custom_attributes")?["legacy"], .number(Double(index)))
        }
        // 200,000 events over 4000 profiles: 50 rounds; the last round for profile p is 49.
        for profile in [0, 7, 3999] {
            let custom = CLIHarness.member(lines[profile], "custom_attributes")
            var seen: Set<String> = []
            for round in stride(from: 49, through: 0, by: -1) {
                let (element, type) = EndToEndTests.generatedElements[(profile + round) % EndToEndTests.generatedElements.count]
                guard seen.insert(element).inserted else { continue }
                switch type {
                case "single_choice":
                    XCTAssertEqual(custom?["experience"], .string(["beginner", "amateur", "pro"][(profile + round) % 3]), "p\(profile)")
                case "number_input":
                    XCTAssertEqual(custom?["weekly_hours"], .number(Double((profile * 7 + round) % 40)), "p\(profile)")
                case "toggle":
                    XCTAssertEqual(custom?["reminders"], .number((profile + round) % 2 == 0 ? 1 : 0), "p\(profile)")
                case "email_input":
                    XCTAssertEqual(CLIHarness.member(lines[profile], "email"), .string("p\(profile)-\(round)@example.com"), "p\(profile)")
                case "text_input":
                    XCTAssertEqual(custom?["note"], .string("note \(round) for \(profile)"), "p\(profile)")
                default:
                    let topics = ["sports", "music", "travel", "food"]
                    let first = topics[round % 4], second = topics[(round + profile) % 4]
                    XCTAssertEqual(custom?["interests"], .string(first == second ? first : "\(first),\(second)"), "p\(profile)")
                }
            }
        }
    }

    // MARK: Two ingests at once

    func testConcurrentIngestsAreSerialisedByTheLock() throws {
        _ = try requireExecutable()
        let storeDirectory = directory.file("shared")
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        let store = storeDirectory + "/profiles.jsonl"

        // Both streams write the same 500 profiles, to different attributes.
        func stream(_ name: String, _ key: String, lines: Int) -> String {
            var text = ""
            text.reserveCapacity(lines * 130)
            for index in 0..<lines {
                let profile = index % 500
                text += "{\"profile_id\":\"c\(profile)\",\"name\":\"flow_user_input\",\"instanceId\":\"scr_x\",\"element_id\":\"\(key)\",\"element_type\":\"text_input\",\"value\":\"\(key) \(index / 500)\"}\n"
            }
            return directory.write("events/\(name)", text)
        }
        let first = stream("first.jsonl", "from_first", lines: 100_000)
        let second = stream("second.jsonl", "from_second", lines: 100_000)

        let a = try start(["ingest", first, "--store", store, "--rules", CLIHarness.rulesPath])
        let b = try start(["ingest", second, "--store", store, "--rules", CLIHarness.rulesPath])
        let overlapped = a.process.isRunning
        let resultA = a.wait()
        let resultB = b.wait()
        XCTAssertEqual(resultA.status, 0, resultA.err)
        XCTAssertEqual(resultB.status, 0, resultB.err)

        let profiles = canonicalProfiles(CLIHarness.bytes(store))
        XCTAssertEqual(profiles.count, 500)
        for index in [0, 1, 250, 499] {
            let line = profiles["c\(index)"] ?? "{}"
            XCTAssertEqual(CLIHarness.member(line, "custom_attributes")?["from_first"], .string("from_first 199"), line)
            XCTAssertEqual(CLIHarness.member(line, "custom_attributes")?["from_second"], .string("from_second 199"), line)
        }
        let missingEither = profiles.values.filter { line in
            let custom = CLIHarness.member(line, "custom_attributes")
            return custom?["from_first"] == nil || custom?["from_second"] == nil
        }
        XCTAssertEqual(missingEither.count, 0, "one ingest overwrote the other's changes")
        XCTAssertTrue(overlapped, "the second ingest started after the first had finished; the test proves nothing")
    }
}
