import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// The analyses over a profile's history: caps (`shown P [in D]`, `last shown P`) and sticky
/// experiments, with the constraints between the counts and the last instant of one list, and
/// every witness resolved by the engine.
final class HistoryAnalysisTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    /// A placement `p` whose rows are `rows`, after the segments and audiences `declarations`.
    private func rules(_ declarations: String, rows: String) -> String {
        """
        attribute plan: string one of ["free", "pro"]
        \(declarations)
        placement p {
        \(rows)
        }
        """
    }

    private func program(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Program {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: text)])
        return try XCTUnwrap(loaded.program, describe(loaded.diagnostics.filter(\.isError)), file: file, line: line)
    }

    private func analysis(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        let found = diagnostics(text)
        XCTAssertFalse(found.contains { $0.isError }, describe(found), file: file, line: line)
        return found.filter { $0.code == "unreachable-row" || $0.code == "placement-falls-through" }
    }

    private func profile(_ json: JSONValue, file: StaticString = #filePath, line: UInt = #line) throws -> Profile {
        try Profile(jsonData: Data(JSONWriter.write(json).utf8))
    }

    // MARK: - check

    func testARowBehindAWiderCapIsUnreachable() {
        // Every profile shown at most once in 30 days was shown at most twice in 7 days.
        let found = analysis(rules("""
            segment few_week = shown p in 7d <= 2
            segment few_month = shown p in 30d <= 1
            audience week = few_week
            audience month = few_month
            """, rows: "  week -> nothing\n  month -> flow \"f\"\n  everyone -> flow \"g\""))
        XCTAssertEqual(found.map(\.code), ["unreachable-row"], describe(found))
        XCTAssertTrue(found.first?.message.contains("row `month`") ?? false, describe(found))
    }

    func testTheSameCapsTheOtherWayRoundAreReachable() {
        // Shown twice this week and not more this month: the narrow cap takes it, the wide one does not.
        let found = analysis(rules("""
            segment few_week = shown p in 7d <= 2
            segment few_month = shown p in 30d <= 1
            audience week = few_week
            audience month = few_month
            """, rows: "  month -> nothing\n  week -> flow \"f\"\n  everyone -> flow \"g\""))
        XCTAssertEqual(found, [], describe(found))
    }

    func testLastShownIsSetExactlyWhenSomethingWasShown() {
        let found = analysis(rules("""
            segment never = shown p < 1
            segment unset = last shown p is not set
            audience unseen = never
            audience no_last = unset
            """, rows: "  unseen -> nothing\n  no_last -> flow \"f\"\n  everyone -> flow \"g\""))
        XCTAssertEqual(found.map(\.code), ["unreachable-row"], describe(found))
    }

    func testACountInAWindowNeedsALastShowingInIt() {
        // Shown this week, but last shown more than 8 days ago: no list does both.
        let empty = analysis(rules("""
            segment this_week = shown p in 7d >= 1
            segment long_ago = last shown p <= now - 8d
            audience both = this_week and long_ago
            """, rows: "  both -> flow \"f\"\n  everyone -> flow \"g\""))
        XCTAssertEqual(empty.map(\.code), ["unreachable-row"], describe(empty))
        XCTAssertTrue(empty.first?.message.contains("no profile matches audience `both`") ?? false, describe(empty))
        // Shown long ago but not this week is possible.
        let possible = analysis(rules("""
            segment none_this_week = shown p in 7d == 0
            segment ever = shown p >= 1
            audience old = none_this_week and ever
            """, rows: "  old -> flow \"f\"\n  everyone -> flow \"g\""))
        XCTAssertEqual(possible, [], describe(possible))
    }

    func testAFallThroughExampleCarriesAHistoryThatFallsThrough() throws {
        let text = rules("""
            segment under_cap = shown p in 7d < 3
            audience fresh = under_cap
            """, rows: "  fresh -> flow \"f\"")
        let found = analysis(text)
        XCTAssertEqual(found.map(\.code), ["placement-falls-through"], describe(found))
        let message = try XCTUnwrap(found.first?.message)
        let example = try XCTUnwrap(message.range(of: ", e.g. ").map { String(message[$0.upperBound...]) })
        XCTAssertTrue(example.contains(#""history":{"shown":{"p":["#), example)
        let program = try self.program(text)
        let now = try XCTUnwrap(found.first?.help.flatMap { help in
            help.range(of: "with `now` at ").flatMap { Timestamp.parse(String(help[$0.upperBound...].prefix { $0 != ";" })) }
        })
        let decision = try program.decide(placement: 0, for: Profile(jsonData: Data(example.utf8)), now: now).get()
        XCTAssertNil(decision.row, example)
    }

    func testAStickyRowIsReachableWhateverItsAudience() {
        let experiment = """
            segment contradiction = plan == "free" and plan == "pro"
            audience nobody = contradiction
            experiment e STICKY{
              50% x
              50% y
            }
            """
        let rows = "  nobody -> e {\n    x -> flow \"fx\"\n    y -> flow \"fy\"\n  }\n  everyone -> nothing"
        let sticky = analysis(rules(experiment.replacingOccurrences(of: "STICKY", with: "sticky 30d "), rows: rows))
        XCTAssertEqual(sticky, [], describe(sticky))
        let plain = analysis(rules(experiment.replacingOccurrences(of: "STICKY", with: ""), rows: rows))
        XCTAssertEqual(plain.map(\.code), ["unreachable-row"], describe(plain))
    }

    // MARK: - overlap

    func testOverlapOfCapsIsProvedOrShown() throws {
        let text = rules("""
            segment heavy_week = shown p in 7d >= 3
            segment light_month = shown p in 30d < 3
            segment recent = last shown p > now - 1d
            audience heavy = heavy_week
            audience light = light_month
            audience fresh = recent
            """, rows: "  heavy -> nothing\n  light -> flow \"f\"\n  fresh -> flow \"g\"\n  everyone -> flow \"h\"")
        let program = try self.program(text)
        let report = OverlapReport.analyze(program, placement: 0, now: Self.now)
        let pairs = Dictionary(uniqueKeysWithValues: report.pairs.map { ("\($0.a)&\($0.b)", $0) })
        XCTAssertEqual(pairs["heavy&light"]?.overlap, false)
        XCTAssertEqual(pairs["heavy&fresh"]?.overlap, true)
        XCTAssertEqual(pairs["light&fresh"]?.overlap, true)
        for pair in report.pairs {
            guard let witness = pair.witness else { continue }
            var evaluator = Evaluator(program: program, profile: try profile(witness), now: Self.now)
            for name in [pair.a, pair.b] {
                let index = try XCTUnwrap(program.ruleSet.audiences.firstIndex { $0.name.text == name })
                XCTAssertTrue(evaluator.audienceMatches(index), JSONWriter.write(witness))
            }
        }
        // `fresh` is reachable: heavy showings outside the last day are too old for it, and a
        // recent one with more than two this week goes to `heavy`; one shown only after `now` qualifies.
        XCTAssertEqual(report.rows.map(\.reachable), [true, true, true, true])
        for row in report.rows {
            let witness = try XCTUnwrap(row.witness)
            let decision = try program.decide(placement: 0, for: profile(witness), now: Self.now).get()
            XCTAssertEqual(decision.row, row.row - 1, JSONWriter.write(witness))
        }
    }

    // MARK: - table

    func testATableListsWhatCapsLeadToAndDependsOnThem() throws {
        let text = rules("""
            segment on_free = plan == "free"
            segment capped = shown p in 7d >= 3
            audience free = on_free
            audience done = capped
            """, rows: "  done -> nothing\n  free -> flow \"f\"\n  everyone -> flow \"g\"")
        let program = try self.program(text)
        let table = try DecisionTable.build(program, placement: 0, by: nil, now: Self.now).get()
        XCTAssertEqual(table.by.map(\.name), ["plan"])
        let byPlan = table.rows.map { row in (row.when[0].map { $0?.stringValue ?? "not set" }, row.destinations.map { $0?.description ?? "no match" }) }
        XCTAssertEqual(byPlan.map(\.0), [["free"], ["pro", "not set"]])
        XCTAssertEqual(byPlan.map(\.1), [["nothing", #"flow "f""#], ["nothing", #"flow "g""#]])
        for row in table.rows {
            XCTAssertEqual(row.dependsOn.compactMap { if case .comparison(let c) = $0 { c.text() } else { nil } }, ["shown p in 7d >= 3"])
        }
    }

    func testATableOfAStickyExperimentDependsOnTheAssignment() throws {
        let text = rules("""
            segment on_free = plan == "free"
            audience free = on_free
            experiment e sticky 90d {
              50% x
              50% y
            }
            """, rows: "  free -> e {\n    x -> flow \"fx\"\n    y -> flow \"fy\"\n  }\n  everyone -> nothing")
        let table = try DecisionTable.build(try program(text), placement: 0, by: nil, now: Self.now).get()
        let notFree = try XCTUnwrap(table.rows.first { $0.when[0].contains(nil) })
        XCTAssertEqual(notFree.destinations.map { $0?.description ?? "no match" }, [#"flow "fx""#, #"flow "fy""#, "nothing"])
        XCTAssertTrue(notFree.dependsOn.contains(.assignment("e")), "\(notFree.dependsOn)")
    }

    // MARK: - diff --prove

    private func prove(_ old: String, _ new: String) throws -> ChangeProof {
        let before = try program(old), after = try program(new)
        let proof = ChangeProof.prove(old: before, new: after, now: Self.now)
        for placement in proof.placements {
            for move in placement.transitions {
                let profile = try self.profile(move.witness)
                let from = try before.decide(placement: 0, for: profile, now: Self.now).get()
                let to = try after.decide(placement: 0, for: profile, now: Self.now).get()
                XCTAssertEqual(ChangeProof.Seen(from), move.before, JSONWriter.write(move.witness))
                XCTAssertEqual(ChangeProof.Seen(to), move.after, JSONWriter.write(move.witness))
            }
        }
        return proof
    }

    private func capRules(_ condition: String) -> String {
        rules("segment capped = \(condition)\naudience done = capped", rows: "  done -> nothing\n  everyone -> flow \"f\"")
    }

    func testCapsThatDifferOnlyInTheirWindowAreProvedDifferent() throws {
        let proof = try prove(capRules("shown p in 7d >= 3"), capRules("shown p in 8d >= 3"))
        XCTAssertEqual(proof.placements.map(\.status), [.changed])
        let witness = try XCTUnwrap(proof.placements.first?.transitions.first?.witness)
        XCTAssertTrue(JSONWriter.write(witness).contains(#""history":{"shown":{"p":["#), JSONWriter.write(witness))
    }

    func testANarrowWindowInsideAWideOneIsProvedEquivalent() throws {
        // Three this week are three this month too: the first alternative adds nothing.
        let proof = try prove(capRules("shown p in 7d >= 3 or shown p in 30d >= 3"), capRules("shown p in 30d >= 3"))
        XCTAssertEqual(proof.placements.map(\.status), [.equivalent])
    }

    func testALastShowingInTheWindowIsNotTheSameAsACountInIt() throws {
        // A showing recorded after `now` is the last one but is counted in no window.
        let proof = try prove(capRules("last shown p > now - 7d"), capRules("shown p in 7d >= 1"))
        XCTAssertEqual(proof.placements.map(\.status), [.changed])
        let moves = try XCTUnwrap(proof.placements.first?.transitions)
        XCTAssertEqual(moves.count, 1)
        let profile = try self.profile(moves[0].witness)
        let instants = profile.history?.instants(of: "p") ?? []
        XCTAssertTrue(instants.contains { $0 > Self.now }, JSONWriter.write(moves[0].witness))
        // Within `now` the two say the same.
        let bounded = try prove(capRules("last shown p > now - 7d and last shown p <= now"), capRules("shown p in 7d >= 1 and last shown p <= now"))
        XCTAssertEqual(bounded.placements.map(\.status), [.equivalent])
    }

    func testStickyDurationsAreProvedDifferentWithAnAssignment() throws {
        func sticky(_ duration: String) -> String {
            rules("""
                segment on_free = plan == "free"
                audience free = on_free
                experiment e sticky \(duration) {
                  50% x
                  50% y
                }
                """, rows: "  free -> e {\n    x -> flow \"fx\"\n    y -> flow \"fy\"\n  }\n  everyone -> nothing")
        }
        let same = try prove(sticky("30d"), sticky("30d"))
        XCTAssertEqual(same.placements.map(\.status), [.equivalent])
        let changed = try prove(sticky("90d"), sticky("30d"))
        XCTAssertEqual(changed.placements.map(\.status), [.changed])
        let witnesses = changed.placements[0].transitions.map { JSONWriter.write($0.witness) }
        XCTAssertTrue(witnesses.allSatisfy { $0.contains(#""assigned":{"e":{"variant":"#) }, "\(witnesses)")
    }

    // MARK: - Random rules against random histories

    /// A small deterministic generator (xorshift), so a failure repeats.
    private struct Dice {
        var state: UInt64
        mutating func below(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    private func randomCap(_ dice: inout Dice) -> String {
        let subject = dice.pick(["shown p in 7d", "shown p in 30d", "shown p", "last shown p"])
        if subject == "last shown p" {
            return subject + " " + dice.pick(["<=", ">", "<", ">="]) + " " + dice.pick(["now - 3d", "now - 10d", "now", "now + 1d"])
        }
        return subject + " " + dice.pick(["<", "<=", "==", "!=", ">", ">="]) + " " + dice.pick(["0", "1", "2", "3"])
    }

    private func randomCondition(_ dice: inout Dice) -> String {
        switch dice.below(3) {
        case 0: randomCap(&dice)
        case 1: "\(randomCap(&dice)) and \(randomCap(&dice))"
        default: "\(randomCap(&dice)) or not (\(randomCap(&dice)))"
        }
    }

    /// A random history of `p` around `now`: up to 6 instants from 40 days before to 2 days after.
    private func randomHistory(_ dice: inout Dice) -> JSONValue {
        let offsets = (0..<dice.below(7)).map { _ in Int64(dice.below(42 * 24) - 40 * 24) * 3_600_000 + Int64(dice.below(3) - 1) }
        guard !offsets.isEmpty else { return .object([JSONMember(key: "id", value: .string("u"))]) }
        let instants = JSONValue.array(offsets.map { .string(Timestamp.format(Self.now + $0)) })
        return .object([JSONMember(key: "id", value: .string("u")),
                        JSONMember(key: "history", value: .object([JSONMember(key: "shown", value: .object([JSONMember(key: "p", value: instants)]))]))])
    }

    func testProofsAndUnreachableRowsHoldOnRandomHistories() throws {
        var dice = Dice(state: 0x9E37_79B9_7F4A_7C15)
        var decided = 0
        for _ in 0..<40 {
            let old = capRules(randomCondition(&dice)), new = capRules(randomCondition(&dice))
            let proof = try prove(old, new)
            let before = try program(old), after = try program(new)
            var histories: [Profile] = []
            for _ in 0..<200 { histories.append(try profile(randomHistory(&dice))) }
            if proof.placements.first?.status == .equivalent {
                decided += 1
                for history in histories {
                    let first = try before.decide(placement: 0, for: history, now: Self.now).get()
                    let second = try after.decide(placement: 0, for: history, now: Self.now).get()
                    XCTAssertEqual(first.outcome, second.outcome, "proved equivalent:\n\(old)\n---\n\(new)")
                }
            }
            if proof.placements.first?.status == .changed { decided += 1 }
            // A row reported unreachable is taken by no random history.
            let text = rules("segment c1 = \(randomCondition(&dice))\nsegment c2 = \(randomCondition(&dice))\naudience a1 = c1\naudience a2 = c2",
                             rows: "  a1 -> nothing\n  a2 -> flow \"f\"\n  everyone -> flow \"g\"")
            let unreachable = analysis(text).filter { $0.code == "unreachable-row" }
            let rows = try program(text)
            for warning in unreachable {
                let row = warning.message.contains("row `a1`") ? 0 : warning.message.contains("row `a2`") ? 1 : 2
                for history in histories {
                    XCTAssertNotEqual(try rows.decide(placement: 0, for: history, now: Self.now).get().row, row, "\(warning.message)\n\(text)")
                }
            }
        }
        XCTAssertGreaterThan(decided, 30, "most random proofs are settled")
    }
}
