import Foundation
import Targeting
import TargetingBase
import TargetingProfiles

/// A second placement shape for the in-process row: six rows over a `one of` string, set
/// membership, a number `between`, a bool, `profile.age`, country and platform, and its
/// hand-written function over the same `Profile`s.
enum SecondShape {
    static let rules = """
    attribute goal: string one of ["lose_weight", "build_muscle", "stay_fit", "sleep_better"]
    attribute interests: set of ["sports", "music", "travel", "food"]
    attribute weekly_hours: number
    attribute reminders: bool

    segment muscle = goal == "build_muscle"
    segment wellness = goal in ["stay_fit", "sleep_better"]
    segment travellers = interests has any ["travel", "food"]
    segment regulars = weekly_hours between 3 and 10
    segment nudged = reminders == true
    segment adults = profile.age >= 18
    segment german = profile.country == "DE"
    segment android = profile.platform == "android"

    audience young_muscle = muscle and not adults
    audience german_wellness = wellness and german
    audience travelling_regulars = travellers and regulars
    audience nudged_android = nudged and android
    audience adult_regulars = adults and regulars

    placement coach_paywall {
      young_muscle        -> paywall "pw_teen_strength"
      german_wellness     -> paywall "pw_de_wellness"
      travelling_regulars -> paywall "pw_travel"
      nudged_android      -> paywall "pw_android_nudge"
      adult_regulars      -> paywall "pw_regular"
      everyone            -> paywall "pw_default"
    }

    """

    static let goals = ["lose_weight", "build_muscle", "stay_fit", "sleep_better"]

    /// Profile JSON lines for this shape.
    static func profileLines(count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            var custom: [String] = []
            if Int.random(in: 0..<10, using: &random) < 8 { custom.append(#""goal":"\#(goals.randomElement(using: &random)!)""#) }
            let picked = Workload.interests.filter { _ in Bool.random(using: &random) }
            if !picked.isEmpty { custom.append(#""interests":"\#(picked.joined(separator: ","))""#) }
            if Bool.random(using: &random) { custom.append(#""reminders":\#(Int.random(in: 0...1, using: &random))"#) }
            if Bool.random(using: &random) { custom.append(#""weekly_hours":\#(Int.random(in: 0...14, using: &random))"#) }
            let birthday = String(format: "%04d-%02d-%02d", Int.random(in: 1960...2014, using: &random), Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random))
            let country = Workload.countries.randomElement(using: &random)!
            let platform = Bool.random(using: &random) ? "ios" : "android"
            return #"{"id":"g\#(index)","birthday":"\#(birthday)","country":"\#(country)","platform":"\#(platform)","custom_attributes":{\#(custom.joined(separator: ","))}}"#
        }
    }

    /// `coach_paywall` written out by hand, with the same two-valued semantics.
    static func coachPaywall(_ profile: Profile, now: Int64) -> String {
        var goal: String?
        if case .string(let text)? = profile.customAttributes["goal"] { goal = text }
        var interests: [Substring] = []
        if case .string(let text)? = profile.customAttributes["interests"] { interests = text.split(separator: ",", omittingEmptySubsequences: false) }
        var hours: Double?
        if case .number(let number)? = profile.customAttributes["weekly_hours"] { hours = number }
        var reminders = false
        if case .number(let number)? = profile.customAttributes["reminders"] { reminders = number == 1 }
        var adults = false
        if case .string(let text)? = profile["birthday"], let ms = Timestamp.parse(text) {
            adults = Timestamp.age(birthday: Timestamp.civilDate(ms: ms), nowMs: now) >= 18
        }
        var country: String?
        if case .string(let text)? = profile["country"] { country = text }
        var platform: String?
        if case .string(let text)? = profile["platform"] { platform = text }

        let muscle = goal == "build_muscle"
        let wellness = goal == "stay_fit" || goal == "sleep_better"
        let travellers = interests.contains("travel") || interests.contains("food")
        let regulars = hours.map { $0 >= 3 && $0 <= 10 } ?? false
        if muscle && !adults { return "pw_teen_strength" }
        if wellness && country == "DE" { return "pw_de_wellness" }
        if travellers && regulars { return "pw_travel" }
        if reminders && platform == "android" { return "pw_android_nudge" }
        if adults && regulars { return "pw_regular" }
        return "pw_default"
    }
}
