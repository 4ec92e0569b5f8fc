import Foundation
import XCTest
import TargetingTestSupport
@testable import Targeting
@testable import TargetingAnalysis
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles
import TargetingSyntax

/// `table`: every combination in exactly one row, and each row's destinations exactly those
/// some profile with the combination reaches.
final class DecisionTableTests: XCTestCase {
    static let now: Int64 = 1_796_040_000_000  // 2026-11-30T12:00:00Z

    static let rules = """
    attribute goal: string one of ["lose", "gain", "keep"]
    attribute reminders: bool
    attribute interests: set of ["run", "swim"]
    segment losing = goal == "lose"
    segment gaining = goal == "gain"
    segment adults = profile.age >= 18
    segment nudged = reminders == true
    segment runners = interests has "run"
    audience adult_losers = losing and adults
    audience losers = losing
    audience gainers = gaining and nudged
    audience runners_only = runners
    placement p {
      adult_losers -> flow "f_adult_lose"
      losers -> flow "f_lose"
      gainers -> split "g" {
        50% -> flow "f_gain_a"
        50% -> flow "f_gain_b"
      }
      runners_only -> flow "f_run"
      everyone -> flow "f_default"
    }
    """

    private func table(by names: [String]? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> (DecisionTable, Program) {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: Self.rules)])
        let program = try XCTUnwrap(loaded.program, describe(loaded.diagnostics), file: file, line: line)
        let table = try DecisionTable.build(program, placement: 0, by: names, now: Self.now).get()
        return (table, program)
    }

    private func text(_ seen: [Outcome?]) -> [String] { seen.map { $0.map(\.description) ?? "no match" } }

    func testDefaultAttributesAreTheDeclaredOneOfsAndBoolsRead() throws {
        let (table, _) = try table()
        XCTAssertEqual(table.by.map(\.name), ["goal", "reminders"])
        XCTAssertEqual(table.combinations, 12)
        // Every combination lies in exactly one row.
        var covered = 0
        for row in table.rows { covered += row.when.reduce(1) { $0 * $1.count } }
        XCTAssertEqual(covered, 12)
        let lose = try XCTUnwrap(table.rows.first { $0.when[0] == [.string("lose")] })
        XCTAssertEqual(lose.when[1].count, 3, "reminders does not matter to losers")
        XCTAssertEqual(text(lose.destinations), [#"flow "f_adult_lose""#, #"flow "f_lose""#])
        XCTAssertEqual(lose.dependsOn.map(\.testName), ["profile.age >= 18"])
        let nudgedGainers = try XCTUnwrap(table.rows.first { $0.when == [[.string("gain")], [.bool(true)]] })
        XCTAssertEqual(text(nudgedGainers.destinations), [#"flow "f_gain_a""#, #"flow "f_gain_b""#])
        XCTAssertEqual(nudgedGainers.dependsOn, [.split("g")])
        // Gainers without reminders fall to the runners' row or the default.
        let others = table.rows.filter { $0.when[0] != [.string("lose")] && $0.when != [[.string("gain")], [.bool(true)]] }
        XCTAssertTrue(others.allSatisfy { text($0.destinations) == [#"flow "f_run""#, #"flow "f_default""#] }, "\(others)")
        XCTAssertTrue(others.allSatisfy { $0.dependsOn.map(\.testName) == [#"interests has "run""#] }, "\(others)")
        XCTAssertFalse(table.hasUndecided)
    }

    func testASetAttributeTakesEverySubset() throws {
        let (table, _) = try table(by: ["interests"])
        XCTAssertEqual(table.combinations, 5)  // [], [run], [swim], [run, swim], not set
        let withRun = try XCTUnwrap(table.rows.first { $0.when[0].contains(.array([.string("run")])) })
        XCTAssertEqual(Set(withRun.when[0]), [.array([.string("run")]), .array([.string("run"), .string("swim")])])
        XCTAssertFalse(withRun.destinations.contains(.flow("f_default")))
    }

    /// Random profiles of each combination reach only the destinations its row lists.
    func testRandomProfilesReachOnlyListedDestinations() throws {
        let (table, program) = try table()
        var random = ChangeProofRandomTests.Generator(state: 7)
        var reached: Set<String> = []
        for index in 0..<20_000 {
            let goal = random.pick([nil, "lose", "gain", "keep"])
            let reminders = random.pick([nil, true, false])
            var custom: [String] = []
            if let goal { custom.append("\"goal\":\"\(goal)\"") }
            if let reminders { custom.append("\"reminders\":\(reminders)") }
            if random.below(2) == 0 { custom.append("\"interests\":\"\(random.pick(["run", "swim", "run,swim"]))\"") }
            let birthday = random.pick(["", ",\"birthday\":\"2000-01-01\"", ",\"birthday\":\"2015-01-01\""])
            let profile = try Profile(jsonData: Data("{\"id\":\"u\(index)\"\(birthday),\"custom_attributes\":{\(custom.joined(separator: ","))}}".utf8))
            let outcome = try program.decide(placement: 0, for: profile, now: Self.now).get().outcome
            let key: [JSONValue?] = [goal.map(JSONValue.string), reminders.map(JSONValue.bool)]
            let row = try XCTUnwrap(table.rows.first { row in zip(row.when, key).allSatisfy { $0.contains($1) } })
            XCTAssertTrue(row.destinations.contains(outcome), "\(key): \(String(describing: outcome)) is not in \(row.destinations)")
            reached.insert("\(key)|\(String(describing: outcome))")
        }
        // And every listed destination was reached by some random profile.
        var listed = 0
        for row in table.rows { listed += row.when.reduce(1) { $0 * $1.count } * row.destinations.count }
        XCTAssertEqual(reached.count, listed)
    }

    func testDeclaredValuesNoProfileCanHoldAreLeftOut() throws {
        let long = String(repeating: "x", count: 51)
        let rules = """
        attribute plan: string one of ["basic", "\(long)"]
        segment basic = plan == "basic"
        audience basics = basic
        placement p {
          basics -> flow "f_basic"
          everyone -> flow "f_default"
        }
        """
        let program = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "main.rules", text: rules)]).program)
        let table = try DecisionTable.build(program, placement: 0, by: nil, now: Self.now).get()
        XCTAssertEqual(table.by.first?.domain, [.string("basic"), nil])
        XCTAssertEqual(table.rows.map { text($0.destinations) }, [[#"flow "f_basic""#], [#"flow "f_default""#]])
    }

    func testAttributesThatCannotBeTabulated() throws {
        let loaded = LoadedRules(sources: [SourceFile(path: "main.rules", text: Self.rules)])
        let program = try XCTUnwrap(loaded.program)
        let expected: [(String, DecisionTableError)] = [("weekly", .notRead("weekly")), ("profile.age", .notFinite("profile.age", type: .number))]
        for (name, error) in expected {
            guard case .failure(let found) = DecisionTable.build(program, placement: 0, by: [name], now: Self.now) else {
                XCTFail("\(name) was tabulated"); continue
            }
            XCTAssertEqual(found, error)
        }
        let many = DecisionTable.build(program, placement: 0, by: ["goal", "reminders", "interests", "goal", "goal", "goal", "goal", "interests"], now: Self.now)
        guard case .failure(let found) = many else { return XCTFail("a table of 76,800 combinations was built") }
        XCTAssertEqual(found, .tooManyCombinations(4 * 3 * 5 * 4 * 4 * 4 * 4 * 5, limit: 4096))
    }

    /// Equal comparisons in two segments are one dependency, and equal answers one group.
    func testAComparisonWrittenTwiceIsOneDependency() throws {
        let rules = """
        attribute plan: string one of ["basic", "pro"]
        segment basic = plan == "basic"
        segment adults = profile.age >= 18
        segment grown = profile.age >= 18
        audience adult_basics = basic and adults
        audience grown_ups = grown
        placement p {
          adult_basics -> flow "f_basic"
          grown_ups -> flow "f_grown"
          everyone -> flow "f_default"
        }
        """
        let program = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "main.rules", text: rules)]).program)
        let table = try DecisionTable.build(program, placement: 0, by: ["plan"], now: Self.now).get()
        XCTAssertEqual(table.rows.map { $0.when[0] }, [[.string("basic")], [.string("pro"), nil]])
        XCTAssertEqual(table.rows.map { $0.dependsOn.map(\.testName) }, [["profile.age >= 18"], ["profile.age >= 18"]])
    }

    /// The holdout decides for held-out profiles even where what they see is also reached
    /// another way (here by minors).
    func testTheHoldoutIsADependencyWhereItsDestinationIsAlsoReachedWithoutIt() throws {
        let rules = """
        attribute plan: string one of ["basic", "pro"]
        segment pros = plan == "pro"
        segment adults = profile.age >= 18
        audience adult_pros = pros and adults
        placement p {
          adult_pros -> flow "f_pro"
          everyone -> flow "f_default"
        }
        holdout h 5% by profile.customer_user_id
        """
        let program = try XCTUnwrap(LoadedRules(sources: [SourceFile(path: "main.rules", text: rules)]).program)
        let table = try DecisionTable.build(program, placement: 0, by: ["plan"], now: Self.now).get()
        let pro = try XCTUnwrap(table.rows.first { $0.when[0] == [.string("pro")] })
        XCTAssertEqual(text(pro.destinations), [#"flow "f_pro""#, #"flow "f_default""#])
        XCTAssertEqual(pro.dependsOn.map(\.testName), ["profile.age >= 18", "holdout h"])
        let others = try XCTUnwrap(table.rows.first { $0.when[0] == [.string("basic"), nil] })
        XCTAssertEqual(text(others.destinations), [#"flow "f_default""#])
        XCTAssertEqual(others.dependsOn, [])
    }
}

extension DecisionTable.Dependency {
    /// The dependency as the tests name it: a comparison as written, else its kind and name.
    var testName: String {
        switch self {
        case .comparison(let comparison): comparison.text()
        case .key(.builtin(let field)): "key profile.\(field)"
        case .key(.custom(let key)): "key \(key)"
        case .key(.shownCount(let placements, _)), .key(.lastShown(let placements)): "key \(placements.joined(separator: ", "))"
        case .split(let id): "split \(id)"
        case .experiment(let name): "experiment \(name)"
        case .holdout(let name): "holdout \(name)"
        case .layer(let name): "layer \(name)"
        case .assignment(let name): "assignment \(name)"
        }
    }
}
