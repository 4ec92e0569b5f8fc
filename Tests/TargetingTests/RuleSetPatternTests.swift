import Foundation
import Targeting
import XCTest

/// `matches` through the library API an app calls: the handle and `resolve` decide alike, the
/// explanation names the pattern, and a rule set with a bad pattern does not load.
final class RuleSetPatternTests: XCTestCase {
    static let rules = """
    attribute promo: string
    segment promo_code = promo matches /BF-\\d{4}/ ignoring case
    segment staff = profile.email matches /[a-z0-9._-]+@(corp|staff)\\.example\\.com/
    audience promo_users = promo_code
    audience team = staff
    placement offer {
      team        -> nothing
      promo_users -> paywall "pw_promo"
      everyone    -> paywall "pw_standard"
    }
    """
    static let now = Date(timeIntervalSince1970: 1_796_040_000)

    func profile(_ json: String) throws -> Profile { try Profile(jsonData: Data(json.utf8)) }

    func testTheHandleAndResolveDecideByTheWholeValue() throws {
        let rules = try RuleSet(source: Self.rules, fileName: "offer.rules")
        let offer = try rules.placement("offer")
        let cases: [(String, String?)] = [
            (#"{"id":"a","custom_attributes":{"promo":"bf-2026"}}"#, "pw_promo"),
            (#"{"id":"b","custom_attributes":{"promo":"  BF-2026 "}}"#, "pw_promo"),
            (#"{"id":"c","custom_attributes":{"promo":"bf-2026x"}}"#, "pw_standard"),
            (#"{"id":"d","custom_attributes":{"promo":"xbf-2026"}}"#, "pw_standard"),
            (#"{"id":"e","custom_attributes":{"promo":7}}"#, "pw_standard"),
            (#"{"id":"f","email":"ann@staff.example.com","custom_attributes":{"promo":"bf-2026"}}"#, nil),
            (#"{"id":"g","email":"ann@staff.example.com.evil.net"}"#, "pw_standard"),
            (#"{"id":"h","email":"Ann@staff.example.com"}"#, "pw_standard"),
        ]
        for (json, paywall) in cases {
            let given = try profile(json)
            let byName = try rules.resolve("offer", for: given, at: Self.now)
            let byHandle = try offer.resolve(for: given, at: Self.now)
            XCTAssertEqual(byName.paywallID, paywall, json)
            XCTAssertEqual(byHandle.paywallID, paywall, json)
            XCTAssertEqual(byName.outcome, byHandle.outcome, json)
        }
    }

    func testTheExplanationQuotesThePatternAsWritten() throws {
        let rules = try RuleSet(source: Self.rules, fileName: "offer.rules")
        let why = try rules.explain("offer", for: try profile(#"{"id":"u1","custom_attributes":{"promo":"bf-12"}}"#), at: Self.now)
        let failure = try XCTUnwrap(why.rows[1].failure)
        XCTAssertEqual("\(failure)", #"segment `promo_code`: promo is "bf-12", so `promo matches /BF-\d{4}/ ignoring case` is false (offer.rules:2:22)"#)
    }

    func testABadPatternStopsTheLoadWithItsPlace() {
        XCTAssertThrowsError(try RuleSet(source: "segment s = promo matches /a**/", fileName: "bad.rules")) { error in
            XCTAssertTrue("\(error)".contains("bad.rules:1:30"), "\(error)")
            XCTAssertTrue("\(error)".contains("a count cannot follow a count"), "\(error)")
        }
    }
}
