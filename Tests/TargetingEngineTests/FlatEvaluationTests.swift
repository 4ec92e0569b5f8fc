import Foundation
import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles

/// The flat code decides exactly as the condition tree does, on every placement of the shipped
/// rules and of the SQL stress rules (every operator on every type), over the example corpus
/// and messy generated profiles.
final class FlatEvaluationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func program(_ path: String) throws -> Program {
        let loaded = try LoadedRules.load(path: FlatEvaluationTests.root.appendingPathComponent(path).path).get()
        return try XCTUnwrap(loaded.program, loaded.diagnostics.map(\.message).joined(separator: "\n"))
    }

    func profiles() throws -> [Profile] {
        let corpus = try String(contentsOf: FlatEvaluationTests.root.appendingPathComponent("Examples/profiles/corpus.jsonl"), encoding: .utf8)
        var profiles = corpus.split(separator: "\n").prefix(4_000).compactMap { try? ProfileReader.read(Array($0.utf8)).get() }
        // Messy values: mistyped, missing, odd versions and dates.
        let messy = [#"{"id":"m1","app_version":"4.2","birthday":"2000-02-29","custom_attributes":{"experience":"pro","weekly_hours":"ten"}}"#,
                     #"{"app_version":4,"country":null,"access_levels":[],"installed_at":"not a date"}"#,
                     #"{"id":"m3","custom_attributes":{"interests":"sports,,music","reminders":2,"goal_date":1.5e12,"sdk_version":"v1.2.3-beta"}}"#,
                     #"{"id":"m4","platform":"ios","os_version":"17.0.1","last_seen_at":"2026-11-29T12:00:00.123456Z","total_revenue_usd":"9"}"#]
        profiles += messy.map { try! ProfileReader.read(Array($0.utf8)).get() }
        return profiles
    }

    func assertAgree(_ program: Program, profiles: [Profile], file: StaticString = #filePath, line: UInt = #line) {
        let nows: [Int64] = [1_796_040_000_000, 1_700_000_000_000]
        var compared = 0
        for now in nows {
            for profile in profiles {
                var evaluator = Evaluator(program: program, profile: profile, now: now)
                for index in program.placements.indices {
                    let expected = evaluator.resolve(placement: index, profileID: profile.id)
                    let got = program.decide(placement: index, for: profile, now: now)
                    XCTAssertEqual(try? got.get(), try? expected.get(), "\(program.placements[index].name) for \(profile.json)", file: file, line: line)
                    if case .failure(let a) = expected, case .failure(let b) = got { XCTAssertEqual(a, b, file: file, line: line) }
                    compared += 1
                }
                // All placements at once: the same decisions; a split that cannot choose keeps
                // the tree's deciding audience and the split id, without an outcome.
                for (index, decision) in program.decideAll(for: profile, now: now).enumerated() {
                    switch evaluator.resolve(placement: index, profileID: profile.id) {
                    case .success(let expected): XCTAssertEqual(decision, expected, file: file, line: line)
                    case .failure(let error):
                        XCTAssertEqual(error, .splitNeedsProfileID(split: decision.split ?? ""), file: file, line: line)
                        XCTAssertNil(decision.outcome, file: file, line: line)
                        let rows = program.placements[index].rows
                        let row = rows.firstIndex { row in row.audience.map { evaluator.audienceMatches($0) } ?? true }
                        XCTAssertEqual(decision.row, row, file: file, line: line)
                        XCTAssertEqual(decision.audience, row.map { rows[$0].source.audience.name }, file: file, line: line)
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 0, file: file, line: line)
    }

    func testShippedRules() throws {
        assertAgree(try program("Rules"), profiles: try profiles())
    }

    func testEveryOperatorOnEveryType() throws {
        assertAgree(try program("Tests/SQL/stress.rules"), profiles: try profiles())
    }

    func testEmptyAndOrAndNestedNot() throws {
        let loaded = LoadedRules(sources: [SourceFile(path: "n.rules", text: """
        segment a = not (x == 1 or not (y == 2 and z is set))
        segment b = a and not a or x != 1
        audience both = a or b
        audience neither = not a and not b
        placement p {
          both -> flow "f"
          neither -> flow "g"
        }
        """)])
        let program = try XCTUnwrap(loaded.program)
        let values = ["{}", #"{"custom_attributes":{"x":1}}"#, #"{"custom_attributes":{"y":2,"z":"q"}}"#, #"{"custom_attributes":{"x":2,"y":2}}"#]
        assertAgree(program, profiles: values.map { try! ProfileReader.read(Array($0.utf8)).get() })
    }
}

/// The plain test forms (interned literals, literal masks, packed versions) and the places
/// where they hand over to the general form decide as the tree does.
extension FlatEvaluationTests {
    func testInterningMasksPackedVersionsAndFallbacks() throws {
        let many = (0..<70).map { "\"c\($0)\"" }.joined(separator: ", ")
        let segments = ["composed", "decomposed", "folded", "listed", "wide", "tagged", "anyTag", "allTags", "noTags", "wideTags",
                        "newer", "exact", "window", "huge", "span", "later"]
        let loaded = LoadedRules(sources: [SourceFile(path: "f.rules", text: """
        attribute tags: set
        attribute word: string
        attribute v: version
        segment composed = word == "\u{E9}"
        segment decomposed = word == "e\u{301}"
        segment folded = word == "ABC" ignoring case
        segment listed = word in ["a", "b", "\u{E9}"]
        segment wide = word in [\(many)]
        segment tagged = tags has "x"
        segment anyTag = tags has any ["y", "e\u{301}"]
        segment allTags = tags has all ["x", "y"]
        segment noTags = tags has none ["z"]
        segment wideTags = tags has any [\(many)]
        segment newer = v >= "4.2.0"
        segment exact = v == "4.2"
        segment window = v between "1.0.0" and "2.0.0-rc.1"
        segment huge = v < "2000000.0.0"
        segment span = v between "1.0.0" and "4.2.0"
        segment later = profile.app_version > "4.2.0-beta.2"
        \(segments.map { "audience a_\($0) = \($0)\nplacement p_\($0) {\n  a_\($0) -> flow \"y\"\n  everyone -> flow \"n\"\n}" }.joined(separator: "\n"))
        placement mixed {
          a_composed -> flow "1"
          a_tagged -> flow "2"
          everyone -> flow "0"
        }
        """)])
        let program = try XCTUnwrap(loaded.program, loaded.diagnostics.map(\.message).joined(separator: "\n"))
        let words = ["\u{E9}", "e\u{301}", "abc", "ABC", "a", "b", "c3", "c69", "zz"]
        let tags = ["x", "x,y", "y,e\u{301}", "\u{E9}", "z", "c65", "c1,x", ""]
        let versions = ["4.2.0", "4.2", "4.3.0-beta", "1.5.0", "2.0.0-rc.1", "2.0.0-rc.0", "1999999.1.1", "3000000.0.0", "x", "4.2.0+build"]
        var lines: [String] = []
        for (index, word) in words.enumerated() {
            for tag in tags {
                let version = versions[(index + lines.count) % versions.count]
                lines.append(#"{"id":"u\#(lines.count)","app_version":"\#(version)","custom_attributes":{"word":"\#(word)","tags":"\#(tag)","v":"\#(version)"}}"#)
            }
        }
        lines.append(#"{"id":"n","custom_attributes":{"word":5,"v":7}}"#)
        let profiles = lines.map { try! ProfileReader.read(Array($0.utf8)).get() }
        assertAgree(program, profiles: profiles)
        // The plain forms are in use, and so are the fallbacks.
        let ops = Set(program.flat.tests.map(\.op))
        XCTAssertTrue(ops.isSuperset(of: [.stringEquals, .stringIn, .has, .hasAny, .hasAll, .hasNone, .versionOrder, .versionEquals, .versionBetween]), "\(ops)")
        XCTAssertTrue(ops.contains(.general), "the folded test and the 70-literal lists stay general")
    }
}

extension FlatEvaluationTests {
    /// Segments are evaluated on first use; a chain far deeper than the recursion limit is
    /// settled without recursion, even on a thread with a small stack.
    func testDeepSegmentChainsOnASmallStack() throws {
        var text = "segment s0 = x == 1\n"
        for index in 1..<3_000 { text += "segment s\(index) = s\(index - 1) and not (y == \(index))\n" }
        text += "segment two = x == 2\naudience a = s2999\naudience b = two or not s1500\nplacement p {\n  b -> flow \"b\"\n  a -> flow \"a\"\n  everyone -> flow \"g\"\n}\n"
        let loaded = LoadedRules(sources: [SourceFile(path: "chain.rules", text: text)])
        let program = try XCTUnwrap(loaded.program, loaded.diagnostics.map(\.message).joined(separator: "\n"))
        let lines = [#"{"id":"1","custom_attributes":{"x":1,"y":5000}}"#, #"{"id":"2","custom_attributes":{"x":1,"y":2500}}"#,
                     #"{"id":"3","custom_attributes":{"x":2}}"#, #"{"id":"4","custom_attributes":{"x":1,"y":1000}}"#]
        let profiles = lines.map { try! ProfileReader.read(Array($0.utf8)).get() }
        assertAgree(program, profiles: profiles)
        let decided = Decided()
        let thread = Thread {
            decided.outcomes = profiles.map { program.decideAll(for: $0, now: 0)[0].flowID ?? "" }
            decided.done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        decided.done.wait()
        XCTAssertEqual(decided.outcomes, ["a", "g", "b", "b"])
    }
}

private final class Decided: @unchecked Sendable {
    var outcomes: [String] = []
    let done = DispatchSemaphore(value: 0)
}

/// The JSON line written without a tree is byte for byte the tree's text.
final class DecisionJSONLineTests: XCTestCase {
    func testSameBytesAsTheTree() {
        let texts: [String?] = [nil, "u1", "", "quote \" and \\ back", "tab\tnew\nline", "é ü 😀", "\u{1}\u{1F}", "pw_x"]
        for profileID in texts {
            for audience in texts {
                for outcome in [nil, Outcome.nothing, .flow("f\"1"), .paywall("pw é")] {
                    let decision = Decision(placement: "p\u{7}", profileID: profileID, row: 0, audience: audience, outcome: outcome, split: audience)
                    XCTAssertEqual(decision.jsonLine, JSONWriter.write(decision.json))
                }
            }
        }
    }
}
