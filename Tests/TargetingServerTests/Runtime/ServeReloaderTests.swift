import XCTest
import Foundation
import TargetingBase
import TargetingTestSupport
@testable import TargetingServer

final class ServeReloaderTests: TemporaryDirectoryTestCase {
    let first = """
    placement home {
      everyone -> paywall "pw_one"
    }

    """
    let second = """
    placement home {
      everyone -> paywall "pw_two"
    }
    placement banner {
      everyone -> flow "flow_banner"
    }

    """

    /// The log's lines, kept for the assertions.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
        var events: [String] {
            all.compactMap { line in (try? JSONParser.parse(line).get())?["event"]?.stringValue }
        }
    }

    struct Server {
        var configuration: ServeConfiguration
        var state: ServeState
        var metrics: ServerMetrics
        var reloader: ServeReloader
        var lines: Lines
    }

    func start(store: Bool = true, token: Bool = false) throws -> Server {
        directory.write("rules/home.rules", first)
        if store { directory.write("store.jsonl", #"{"id":"u1"}"# + "\n") }
        if token { directory.write("token", "first-token\n") }
        let configuration = ServeConfiguration(rulesPath: directory.file("rules"), storePath: store ? directory.file("store.jsonl") : nil,
                                               tokenPath: token ? directory.file("token") : nil)
        let lines = Lines()
        let log = ServerLog { lines.append($0) }
        let context = try ServeReloader.initialContext(configuration, log: log).get()
        let state = ServeState(context)
        let metrics = ServerMetrics()
        return Server(configuration: configuration, state: state, metrics: metrics,
                      reloader: ServeReloader(configuration: configuration, state: state, metrics: metrics, log: log), lines: lines)
    }

    func testNewRulesReplaceTheServedVersion() throws {
        let server = try start()
        let before = server.state.context.rules
        XCTAssertEqual(before.program.placements.map(\.name), ["home"])
        XCTAssertEqual(before.version.count, 16)
        XCTAssertEqual(before.version, ServedRules.version(of: [SourceFile(path: directory.file("rules/home.rules"), text: first)], root: directory.file("rules")))

        server.reloader.check(force: false)
        XCTAssertTrue(server.state.context.rules === before, "nothing changed, nothing is read")
        XCTAssertEqual(server.metrics.reloadCount(.applied), 0)

        directory.write("rules/home.rules", second)
        server.reloader.check(force: false)
        let after = server.state.context.rules
        XCTAssertEqual(after.program.placements.map(\.name), ["home", "banner"])
        XCTAssertNotEqual(after.version, before.version)
        XCTAssertEqual(server.metrics.reloadCount(.applied), 1)
        XCTAssertTrue(server.lines.all.contains { $0.contains(#""event":"rules_applied""#) && $0.contains(#""previous":"\#(before.version)""#) })

        // A forced look at unchanged rules says so and applies nothing.
        server.reloader.check(force: true)
        XCTAssertTrue(server.state.context.rules === after)
        XCTAssertEqual(server.metrics.reloadCount(.applied), 1)
        XCTAssertEqual(server.lines.events.last(where: { $0.hasPrefix("rules") }), "rules_unchanged")
    }

    func testRulesWithErrorsAreRejectedAndTheVersionKept() throws {
        let server = try start()
        let before = server.state.context.rules
        directory.write("rules/home.rules", "placement home {\n  everyone -> paywall\n}\n")
        server.reloader.check(force: false)
        XCTAssertTrue(server.state.context.rules === before)
        XCTAssertEqual(server.metrics.reloadCount(.rejected), 1)
        XCTAssertEqual(server.metrics.reloadCount(.applied), 0)
        let rejected = server.lines.all.last { $0.contains(#""event":"rules_rejected""#) }
        XCTAssertNotNil(rejected)
        let json = rejected.flatMap { try? JSONParser.parse($0).get() }
        XCTAssertEqual(json?["rules"], .string(before.version), "the log names the version kept")
        XCTAssertFalse(json?["diagnostics"]?.arrayValue?.isEmpty ?? true)
        XCTAssertEqual(json?["level"], .string("error"))

        // Unchanged broken rules are not read again; fixed ones are applied.
        server.reloader.check(force: false)
        XCTAssertEqual(server.metrics.reloadCount(.rejected), 1)
        directory.write("rules/home.rules", second)
        server.reloader.check(force: false)
        XCTAssertEqual(server.state.context.rules.program.placements.map(\.name), ["home", "banner"])
        XCTAssertEqual(server.metrics.reloadCount(.applied), 1)
    }

    func testANewRulesFileIsPickedUp() throws {
        let server = try start()
        directory.write("rules/banner.rules", "placement banner {\n  everyone -> flow \"flow_banner\"\n}\n")
        server.reloader.check(force: false)
        XCTAssertEqual(Set(server.state.context.rules.program.placements.map(\.name)), ["home", "banner"])
    }

    func testStoreChangesArePickedUp() throws {
        let server = try start()
        XCTAssertEqual(server.state.context.store?.count, 1)
        directory.write("store.jsonl", #"{"id":"u1"}"# + "\n" + #"{"id":"u2"}"# + "\nbroken\n")
        server.reloader.check(force: false)
        XCTAssertEqual(server.state.context.store?.count, 2)
        XCTAssertEqual(server.state.context.store?.unreadableLines, [3])
        XCTAssertEqual(server.metrics.reloadCount(.storeApplied), 1)
        XCTAssertNotNil(server.state.context.store?.profile(id: "u2"))
        XCTAssertTrue(server.lines.all.contains { $0.contains(#""event":"store_applied""#) && $0.contains(#""profiles":2"#) })

        server.reloader.check(force: false)
        XCTAssertEqual(server.metrics.reloadCount(.storeApplied), 1, "an unchanged store is not read again")

        let kept = server.state.context.store
        try FileManager.default.removeItem(atPath: directory.file("store.jsonl"))
        server.reloader.check(force: false)
        XCTAssertEqual(server.metrics.reloadCount(.storeFailed), 1)
        XCTAssertTrue(server.state.context.store === kept, "a store that cannot be read leaves the previous one")
        XCTAssertTrue(server.lines.events.contains("store_rejected"))
    }

    func testTokenChangesArePickedUp() throws {
        let server = try start(store: false, token: true)
        XCTAssertEqual(server.state.context.token, Array("first-token".utf8))
        directory.write("token", "second-token-2")
        server.reloader.check(force: false)
        XCTAssertEqual(server.state.context.token, Array("second-token-2".utf8))
        directory.write("token", "two words")
        server.reloader.check(force: false)
        XCTAssertEqual(server.state.context.token, Array("second-token-2".utf8), "a bad token file keeps the token")
        XCTAssertTrue(server.lines.events.contains("token_rejected"))
    }

    func testAStartFailsOnRulesWithErrorsOrAMissingStore() {
        directory.write("rules/home.rules", "placement home {\n")
        let lines = Lines()
        let broken = ServeReloader.initialContext(ServeConfiguration(rulesPath: directory.file("rules")), log: ServerLog { lines.append($0) })
        guard case .failure = broken else { return XCTFail("rules with errors start") }
        XCTAssertTrue(lines.events.contains("rules_rejected"))
        directory.write("rules/home.rules", first)
        let noStore = ServeReloader.initialContext(ServeConfiguration(rulesPath: directory.file("rules"), storePath: directory.file("none.jsonl")),
                                                   log: ServerLog { _ in })
        guard case .failure(let error) = noStore else { return XCTFail("a missing store starts") }
        XCTAssertTrue(error.message.contains("none.jsonl"), error.message)
    }
}
