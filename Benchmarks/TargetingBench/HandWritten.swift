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
        var modernApp = false
        if case .string(let text)? = profile["app_version"] {
            // Plain release versions, as apps write them: MAJOR.MINOR.PATCH compared as numbers.
            var parts = (0, 0, 0), index = 0, digits = 0, valid = true
            for byte in text.utf8 {
                if byte == UInt8(ascii: "."), digits > 0, index < 2 {
                    index += 1
                    digits = 0
                } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    let digit = Int(byte - UInt8(ascii: "0"))
                    switch index {
                    case 0: parts.0 = parts.0 * 10 + digit
                    case 1: parts.1 = parts.1 * 10 + digit
                    default: parts.2 = parts.2 * 10 + digit
                    }
                    digits += 1
                } else {
                    valid = false
                }
            }
            modernApp = valid && index == 2 && digits > 0 && parts >= (4, 2, 0)
        }
        var subscribed = false
        if case .array(let levels)? = profile["access_levels"] { subscribed = levels.contains(.string("premium")) }
        var teamAccount = false
        if case .string(let text)? = profile["email"] { teamAccount = isTeamAddress(text.lowercased()) }

        // `q4_holdout` (5 % of signed-in users) sees only the `everyone` row.
        if let customerUserID, SplitDraw.bucket(splitID: "q4_holdout", profileID: customerUserID) < 5 { return "flow_default" }
        if pros && adults { return "flow_pro_v2" }
        if amateurs && (dedicated || wantsReminders) {
            // `pricing_q4` takes the amateurs on a current app who are neither subscribed nor the
            // team's own, in its 60 % share of the layer `paywall_experiments`: 50 % control,
            // 50 % discount (equal weights: by name, control first).
            guard modernApp, !subscribed, !teamAccount, let customerUserID,
                  SplitDraw.bucket(splitID: "paywall_experiments", profileID: customerUserID) < 60 else { return "flow_amateur_plan" }
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

    /// `[a-z0-9._%+-]+@(staff|qa)\.example\.com` over a lowercased address, written out.
    static func isTeamAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1] == "staff.example.com" || parts[1] == "qa.example.com" else { return false }
        return parts[0].unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._%+-".unicodeScalars.contains($0) }
    }
}
