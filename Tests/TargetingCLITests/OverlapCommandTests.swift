import Foundation
import TargetingTestSupport
import XCTest
@testable import TargetingBase

/// `targeting overlap PLACEMENT`: the JSON and text forms, exit statuses, and witnesses that
/// `targeting resolve` confirms.
final class OverlapCommandTests: TemporaryDirectoryTestCase {
    private let rules = """
    attribute plan: string one of ["a", "b", "c"]
    segment on_a = plan == "a"
    segment on_b = plan == "b"
    segment on_a_or_b = plan in ["a", "b"]
    audience first = on_a
    audience second = on_b
    audience either = on_a_or_b
    placement p {
      first -> flow "f1"
      second -> flow "f2"
      either -> flow "f3"
      everyone -> flow "f0"
    }

    """

    func testJSONListsEveryPairAndRowWithWitnessesThatResolveAsReported() throws {
        let path = directory.write("main.rules", rules)
        let result = CLIHarness.run(["overlap", "p", "--rules", path, "--now", "2026-11-30T12:00:00Z", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.count, 1)
        let json = try XCTUnwrap(try? JSONParser.parse(Array(result.out.utf8)).get())
        XCTAssertEqual(json.objectMembers?.map(\.key), ["placement", "now", "pairs", "rows"])
        XCTAssertEqual(json["placement"], .string("p"))
        XCTAssertEqual(json["now"], .string("2026-11-30T12:00:00Z"))
        let pairs = try XCTUnwrap(json["pairs"]?.arrayValue)
        XCTAssertEqual(pairs.map { $0.objectMembers?.map(\.key) ?? [] }, Array(repeating: ["a", "b", "overlap", "witness"], count: 3))
        XCTAssertEqual(pairs.map { "\($0["a"]!)&\($0["b"]!)=\($0["overlap"]!)" },
                       [#""first"&"second"=false"#, #""first"&"either"=true"#, #""second"&"either"=true"#])
        XCTAssertEqual(pairs[0]["witness"], .null)
        let rows = try XCTUnwrap(json["rows"]?.arrayValue)
        XCTAssertEqual(rows.map { $0.objectMembers?.map(\.key) ?? [] }, Array(repeating: ["row", "audience", "reachable", "witness"], count: 4))
        XCTAssertEqual(rows.map { $0["reachable"] }, [.bool(true), .bool(true), .bool(false), .bool(true)])
        XCTAssertEqual(rows[2]["witness"], .null)
        let expected = ["first", "second", nil, "everyone"]
        for (row, audience) in zip(rows, expected) {
            guard let audience, let witness = row["witness"] else { continue }
            let resolved = CLIHarness.run(["resolve", "p", "--rules", path, "--profile", "-", "--now", "2026-11-30T12:00:00Z", "--format", "json"],
                                          stdin: JSONWriter.write(witness))
            XCTAssertEqual(resolved.status, 0, resolved.err)
            XCTAssertTrue(resolved.out.contains(#""audience":"\#(audience)""#), resolved.out)
        }
    }

    func testTextShowsTheMatrixAndEveryRow() {
        let path = directory.write("main.rules", rules)
        let result = CLIHarness.run(["overlap", "p", "--rules", path, "--now", "2026-11-30"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.outLines.first, "placement p at 2026-11-30T00:00:00Z")
        XCTAssertTrue(result.outLines.contains("  1 first   no  yes"), result.out)
        XCTAssertTrue(result.outLines.contains("  2 second      yes"), result.out)
        XCTAssertTrue(result.outLines.contains("  3 either"), result.out)
        XCTAssertTrue(result.out.contains("  3. either -> flow \"f3\": unreachable"), result.out)
        XCTAssertTrue(result.out.contains(#"  1. first -> flow "f1": reachable, e.g. {"id":"witness","custom_attributes":{"plan":"a"}}"#), result.out)
    }

    func testTheShippedPlacementsAreAllDecided() {
        for placement in ["onboarding_followup", "main_paywall", "coaching_paywall"] {
            let result = CLIHarness.run(["overlap", placement, "--rules", CLIHarness.rulesPath, "--now", "2026-11-29T12:00:00Z", "--format", "json"])
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertFalse(result.out.contains(#""reachable":null"#) || result.out.contains(#""overlap":null"#), result.out)
        }
    }

    func testUnknownPlacementAndUsage() {
        let path = directory.write("main.rules", rules)
        let unknown = CLIHarness.run(["overlap", "q", "--rules", path, "--now", "2026-11-30"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.err.contains("unknown placement `q`"), unknown.err)
        XCTAssertEqual(CLIHarness.run(["overlap", "--rules", path]).status, 64)
        XCTAssertEqual(CLIHarness.run(["overlap", "p", "p", "--rules", path]).status, 64)
        let broken = directory.write("broken.rules", "audience a = missing\n")
        XCTAssertEqual(CLIHarness.run(["overlap", "p", "--rules", broken, "--now", "2026-11-30"]).status, 2)
        let help = CLIHarness.run(["overlap", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("USAGE: targeting overlap PLACEMENT"), help.out)
    }

    func testAKeyedRowAndTheHoldoutInTheText() {
        let path = directory.write("k.rules", """
        segment with_cuid = profile.customer_user_id is set
        audience known = with_cuid
        experiment e by profile.customer_user_id {
          50% a
          50% b
        }
        placement p {
          known -> flow "k"
          known -> e {
            a -> flow "fa"
            b -> flow "fb"
          }
          everyone -> flow "d"
        }
        holdout h 5%

        """)
        let result = CLIHarness.run(["overlap", "p", "--rules", path, "--now", "2026-11-30T12:00:00Z"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.outLines.contains(#"  2. known -> e: unreachable: every profile it matches is taken by the rows above, or it matches none (a profile without a string `profile.customer_user_id` does not enter it; the profiles `h` holds out see only `everyone`)"#), result.out)
        XCTAssertTrue(result.outLines.contains { $0.hasPrefix(#"  3. everyone -> flow "d": reachable, e.g. {"id":"#) }, result.out)
    }
}
