import Foundation
import Targeting
import XCTest

/// `--explain` on `or`: a row that does not match names the failing comparison of every term
/// of each `or` on the way (nested ones too, and the first failing term of an `and`); a row
/// that matches names the term by which each `or` held.
final class ExplanationTermsTests: XCTestCase {
    static let rules = """
    segment cap_24h = shown main_paywall in 24h >= 2
    segment cap_7d = shown main_paywall in 7d >= 5
    segment pro = level == "pro" or (level == "mid" and hours >= 10)
    segment both = level == "mid" and hours >= 10
    audience capped = cap_24h or cap_7d
    audience pros = pro
    audience uncapped = not capped_seg
    audience not_both = not both
    segment capped_seg = cap_24h or cap_7d
    placement main_paywall {
      always capped -> nothing
      pros -> paywall "pw_pro"
      everyone -> paywall "pw_std"
    }
    placement calm {
      uncapped -> flow "calm"
      not_both -> flow "not_both"
    }
    """
    static let now = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z

    private func profile(level: String, hours: Int, shown: [String]) throws -> Profile {
        let instants = shown.map { "\"\($0)\"" }.joined(separator: ",")
        let json = #"{"id":"u1","custom_attributes":{"level":"\#(level)","hours":\#(hours)},"history":{"shown":{"main_paywall":[\#(instants)]}}}"#
        return try Profile(jsonData: Data(json.utf8))
    }

    private func comparisons(_ list: [Explanation.Failure]) -> [String] { list.map { "\($0.comparison) \($0.holds)" } }

    func testARowThatDoesNotMatchNamesEveryFailingTermOfItsOr() throws {
        let rules = try RuleSet(source: Self.rules, fileName: "caps.rules")
        let why = try rules.explain("main_paywall", for: profile(level: "mid", hours: 5, shown: ["2026-11-29T10:00:00Z", "2026-11-27T10:00:00Z"]), at: Self.now)
        XCTAssertEqual(comparisons(why.rows[0].failures), ["shown main_paywall in 24h >= 2 false", "shown main_paywall in 7d >= 5 false"])
        XCTAssertEqual(why.rows[0].failure, why.rows[0].failures.first)
        XCTAssertEqual(why.rows[0].failures.map(\.segment), ["cap_24h", "cap_7d"])
        // Nested: each term of the `or`; of the inner `and`, its failing term only.
        XCTAssertEqual(comparisons(why.rows[1].failures), ["level == \"pro\" false", "hours >= 10 false"])
        XCTAssertTrue(why.rows[2].held.isEmpty, "`everyone` needs no term")
        let text = "\(why)"
        XCTAssertTrue(text.contains("""
          1. always capped -> nothing: not matched
               segment `cap_24h`: shown main_paywall in 24h is 1, so `shown main_paywall in 24h >= 2` is false (caps.rules:1:19)
               segment `cap_7d`: shown main_paywall in 7d is 2, so `shown main_paywall in 7d >= 5` is false (caps.rules:2:18)
          2. pros
        """), text)
    }

    func testARowThatMatchesNamesTheTermThatHeld() throws {
        let rules = try RuleSet(source: Self.rules, fileName: "caps.rules")
        let shown = ["2026-11-29T10:00:00Z", "2026-11-28T10:00:00Z", "2026-11-27T10:00:00Z", "2026-11-26T10:00:00Z", "2026-11-25T10:00:00Z"]
        let why = try rules.explain("main_paywall", for: profile(level: "mid", hours: 12, shown: shown), at: Self.now)
        XCTAssertTrue(why.rows[0].decided)
        // The 24-hour cap does not hold (one showing); the 7-day one does.
        XCTAssertEqual(comparisons(why.rows[0].held), ["shown main_paywall in 7d >= 5 true"])
        XCTAssertTrue(why.rows[0].failures.isEmpty)
        XCTAssertNil(why.rows[0].failure)
        // Nested: the `or`'s second term held, by both comparisons of its `and`.
        XCTAssertEqual(comparisons(why.rows[1].held), ["level == \"mid\" true", "hours >= 10 true"])
        XCTAssertTrue("\(why)".contains("  1. always capped -> nothing: decided\n       held: segment `cap_7d`: shown main_paywall in 7d is 5, so `shown main_paywall in 7d >= 5` is true (caps.rules:2:18)\n"), "\(why)")
    }

    func testUnderNotAndAndOrTradePlaces() throws {
        let rules = try RuleSet(source: Self.rules, fileName: "caps.rules")
        // `not capped_seg` fails when one cap holds: that term is the reason, true where false was needed.
        let capped = try rules.explain("calm", for: profile(level: "mid", hours: 5, shown: ["2026-11-29T10:00:00Z", "2026-11-29T11:00:00Z"]), at: Self.now)
        XCTAssertEqual(comparisons(capped.rows[0].failures), ["shown main_paywall in 24h >= 2 true"])
        // `not both` holds because one term of the `and` fails: that term is the one that held.
        XCTAssertEqual(comparisons(capped.rows[1].held), ["hours >= 10 false"])
        // `not both` fails when both terms hold: each of them is a reason.
        let busy = try rules.explain("calm", for: profile(level: "mid", hours: 12, shown: ["2026-11-29T10:00:00Z", "2026-11-29T11:00:00Z"]), at: Self.now)
        XCTAssertEqual(comparisons(busy.rows[1].failures), ["level == \"mid\" true", "hours >= 10 true"])
    }

    func testSegmentsThatReferToEachOtherTwiceAreWalkedOnce() throws {
        var source = "segment s0 = level == \"pro\"\n"
        for index in 1...60 { source += "segment s\(index) = s\(index - 1) or s\(index - 1)\n" }
        source += "audience deep = s60\nplacement p {\n  deep -> flow \"f\"\n  everyone -> flow \"g\"\n}\n"
        let rules = try RuleSet(source: source, fileName: "deep.rules")
        let why = try rules.explain("p", for: profile(level: "mid", hours: 1, shown: []), at: Self.now)
        XCTAssertEqual(comparisons(why.rows[0].failures), ["level == \"pro\" false"])
        let held = try rules.explain("p", for: profile(level: "pro", hours: 1, shown: []), at: Self.now)
        XCTAssertEqual(comparisons(held.rows[0].held), ["level == \"pro\" true"])
    }
}
