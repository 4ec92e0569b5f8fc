import TargetingBase
import TargetingEngine
import TargetingProfiles

/// `onboarding_followup` of the shipped rules written out by hand: the reference the engine is
/// measured against. It reads the same fields from the same `Profile` values, with the same
/// two-valued semantics (a missing or mistyped value makes every comparison false).
enum HandWritten {
    static func onboardingFollowup(_ profile: Profile, now: Int64) -> String? {
        var experience: String?
        if case .string(let text)? = profile.customAttributes["experience"] { experience = text }
        let pros = experience == "pro"
        let amateurs = experience == "amateur"
        let beginners = experience == "beginner"
        let answeredQuiz = profile.customAttributes["experience"] != nil
        var adults = false
        if case .string(let text)? = profile["birthday"], let ms = Timestamp.parse(text) {
            adults = Timestamp.age(birthday: Timestamp.civilDate(ms: ms), nowMs: now) >= 18
        }
        var sporty = false
        if case .string(let text)? = profile.customAttributes["interests"] {
            sporty = text.split(separator: ",", omittingEmptySubsequences: false).contains("sports")
        }
        var wantsReminders = false
        if case .number(let number)? = profile.customAttributes["reminders"] { wantsReminders = number == 1 }
        var dedicated = false
        if case .number(let number)? = profile.customAttributes["weekly_hours"] { dedicated = number >= 10 }
        var customerUserID: String?
        if case .string(let text)? = profile["customer_user_id"] { customerUserID = text }

        // `q4_holdout` (5 % of signed-in users) sees only the `everyone` row.
        if let customerUserID, SplitDraw.bucket(splitID: "q4_holdout", profileID: customerUserID) < 5 { return "flow_default" }
        if pros && adults { return "flow_pro_v2" }
        if amateurs && (dedicated || wantsReminders) {
            // `pricing_q4`: 50 % control, 50 % discount (equal weights: by name, control first).
            guard let customerUserID else { return "flow_amateur_plan" }
            return SplitDraw.bucket(splitID: "pricing_q4", profileID: customerUserID) < 50 ? "flow_amateur_plan" : "flow_amateur_plan_discount"
        }
        if amateurs && !dedicated { return "flow_amateur_casual" }
        if beginners && sporty {
            guard let id = profile.id else { return nil }
            let bucket = SplitDraw.bucket(splitID: "sporty_beginners_v1", profileID: id)
            return bucket < 10 ? "" : bucket < 50 ? "flow_sport_start_b" : "flow_sport_start_a"
        }
        if beginners { return "flow_beginner" }
        if !answeredQuiz { return "flow_quiz_reminder" }
        return "flow_default"
    }
}
