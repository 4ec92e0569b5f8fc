import Foundation
import TargetingBase

/// The history rows of `Benchmarks/run.sh`: the six-row placement of `SecondShape` with and
/// without caps, profiles that carry 20 shown instants per placement, and `placement_shown`
/// event lines for the shipped placements.
enum HistoryShape {
    /// The instant the batch rows resolve at (`now` in run.sh), in milliseconds.
    static let nowMs: Int64 = 1_795_953_600_000  // 2026-11-29T12:00:00Z

    /// `coach_paywall` with a cap on every row but the last: shown fewer than 3 times in a week,
    /// not in the last day, and a monthly limit on one row.
    static let cappedRules = SecondShape.rules
        .replacingOccurrences(of: "segment android = profile.platform == \"android\"\n", with: """
        segment android = profile.platform == "android"
        segment rested = shown coach_paywall in 7d < 3 and not last shown coach_paywall > now - 1d
        segment below_monthly = shown coach_paywall in 30d <= 12
        segment onboarded = shown coach_onboarding >= 1

        """)
        .replacingOccurrences(of: "audience young_muscle = muscle and not adults", with: "audience young_muscle = muscle and not adults and rested")
        .replacingOccurrences(of: "audience german_wellness = wellness and german", with: "audience german_wellness = wellness and german and rested")
        .replacingOccurrences(of: "audience travelling_regulars = travellers and regulars", with: "audience travelling_regulars = travellers and regulars and below_monthly")
        .replacingOccurrences(of: "audience nudged_android = nudged and android", with: "audience nudged_android = nudged and android and rested and onboarded")
        .replacingOccurrences(of: "audience adult_regulars = adults and regulars", with: "audience adult_regulars = adults and regulars and rested")
        + """

        placement coach_onboarding {
          everyone -> flow "flow_coach"
        }

        """

    /// The same placement and a second one, no caps.
    static let uncappedRules = SecondShape.rules + """

        placement coach_onboarding {
          everyone -> flow "flow_coach"
        }

        """

    /// `SecondShape`'s profile lines, each with a history of 20 instants for each of the two
    /// placements, spread over the 40 days before now.
    static func profileLines(count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return SecondShape.profileLines(count: count, seed: seed &+ 1).map { line in
            let shown = ["coach_paywall", "coach_onboarding"].map { placement in
                let instants = (0..<20).map { _ in nowMs - 1_000 * Int64.random(in: 0..<(40 * 86_400), using: &random) }.sorted()
                return #""\#(placement)":[\#(instants.map { #""\#(instant($0))""# }.joined(separator: ","))]"#
            }
            return String(line.dropLast()) + #","history":{"shown":{\#(shown.joined(separator: ","))}}}"#
        }
    }

    /// `events` lines of `placement_shown`, for the shipped placements, over `profiles` ids.
    static func shownLines(count: Int, profiles: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let id = "u\(Int.random(in: 0..<profiles, using: &random))"
            let at = instant(nowMs - 1_000 * Int64.random(in: 0..<(30 * 86_400), using: &random))
            if Bool.random(using: &random) {
                return #"{"profile_id":"\#(id)","name":"placement_shown","placement":"onboarding_followup","kind":"flow","id":"flow_pro_v2","held_out":false,"at":"\#(at)"}"#
            }
            return #"{"profile_id":"\#(id)","name":"placement_shown","placement":"main_paywall","kind":"paywall","id":"pw_standard","experiment":"pricing_q4","variant":"control","held_out":false,"at":"\#(at)"}"#
        }
    }

    /// An instant in milliseconds as RFC 3339 UTC.
    static func instant(_ ms: Int64) -> String { Timestamp.format(ms) }
}
