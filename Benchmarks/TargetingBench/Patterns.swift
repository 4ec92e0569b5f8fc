import Foundation
import Targeting
import TargetingBase

/// `matches` against `starts with`/`ends with`: the same placement shape, three pattern rows
/// or three fragment rows, over the same profiles (an offer code of up to 50 characters), and
/// the compile time of a 1,000-character pattern.
enum Patterns {
    static let patternRules = """
    attribute code: string
    segment annual = code matches /(pro|plus)_annual(_v[0-9]+)?/
    segment promo = code matches /BF-\\d{4}-[A-Z]{2,6}/ ignoring case
    segment partner = code matches /[a-z]+@partner\\.example\\.com/
    audience annual_buyers = annual
    audience promo_users = promo
    audience partners = partner
    placement offer {
      annual_buyers -> paywall "pw_annual"
      promo_users   -> paywall "pw_promo"
      partners      -> paywall "pw_partner"
      everyone      -> paywall "pw_standard"
    }
    """

    static let fragmentRules = """
    attribute code: string
    segment annual = code starts with "pro_annual"
    segment promo = code starts with "bf-" ignoring case
    segment partner = code ends with "@partner.example.com"
    audience annual_buyers = annual
    audience promo_users = promo
    audience partners = partner
    placement offer {
      annual_buyers -> paywall "pw_annual"
      promo_users   -> paywall "pw_promo"
      partners      -> paywall "pw_partner"
      everyone      -> paywall "pw_standard"
    }
    """

    /// Offer codes of up to 50 characters that each row's conditions sometimes accept.
    static func codes(count: Int) -> [String] {
        var random = SeededGenerator(seed: 20_261_204)
        let shapes: [(inout SeededGenerator) -> String] = [
            { r in ["pro", "plus"][Int(r.next() % 2)] + "_annual" + (r.next() % 2 == 0 ? "_v\(r.next() % 100)" : "") },
            { r in "BF-\(1000 + r.next() % 9000)-" + String(repeating: "ABCDEFGH".randomElement(using: &r)!, count: 2 + Int(r.next() % 5)) },
            { r in String(repeating: "abcdefgh".randomElement(using: &r)!, count: 1 + Int(r.next() % 20)) + "@partner.example.com" },
            { r in String((0..<(10 + Int(r.next() % 40))).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789_-".randomElement(using: &r)! }) },
        ]
        return (0..<count).map { _ in String(shapes[Int(random.next() % UInt64(shapes.count))](&random).prefix(50)) }
    }

    static func run(count: Int) {
        let profiles = codes(count: count).enumerated().map { index, code in
            try! Profile(jsonData: Data(#"{"id":"u\#(index)","custom_attributes":{"code":"\#(code)"}}"#.utf8))
        }
        func best(_ rules: String) -> (seconds: Double, hits: Int) {
            let placement = try! RuleSet(source: rules, fileName: "offer.rules").placement("offer")
            var hits = 0
            var seconds = Double.infinity
            for _ in 0..<3 {
                hits = 0
                seconds = min(seconds, InProcess.time {
                    for profile in profiles where (try? placement.resolve(for: profile, at: InProcess.now))?.paywallID != "pw_standard" {
                        hits += 1
                    }
                })
            }
            return (seconds, hits)
        }
        let matches = best(patternRules)
        let fragments = best(fragmentRules)
        print("| in process: `matches`, 3 pattern rows, \(count) profiles (codes ≤ 50 characters; \(matches.hits) matched a row) | \(InProcess.rate(count, matches.seconds)) | 3 `starts with`/`ends with` rows: \(InProcess.rate(count, fragments.seconds)) | \(String(format: "%.2f×", fragments.seconds / matches.seconds)) |")

        // A 1,000-character pattern: alternations of literals, classes and counts.
        var source = ""
        var part = 0
        while source.unicodeScalars.count < 980 {
            source += ["(ab|cd)", "[a-f0-9]{2,8}", "x?", "\\d+", "[^/]*", "é\\u{1F600}"][part % 6]
            part += 1
        }
        source = String(source.unicodeScalars.prefix(1_000).map(Character.init))
        while case .failure = MatchPattern.compile(source, ignoringCase: false) { source.removeLast() }
        var compileSeconds = Double.infinity
        var states = 0
        for _ in 0..<10 {
            compileSeconds = min(compileSeconds, InProcess.time {
                if case .success(let pattern) = MatchPattern.compile(source, ignoringCase: false) { states = pattern.automaton.dfa?.stateCount ?? -1 }
            })
        }
        print("| compile a \(source.unicodeScalars.count)-character pattern (\(states < 0 ? "NFA" : "\(states) DFA states")) | \(String(format: "%.2f ms", compileSeconds * 1000)) | — | — |")
    }
}
