import Foundation
import Targeting
import TargetingBase

/// (a) In process: the library's `rules.resolve(_:for:at:)` against the hand-written function,
/// over the same in-memory profiles, in one run.
enum InProcess {
    static let now = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-29T12:00:00Z

    /// Seconds `body` takes on the monotonic clock.
    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func rate(_ count: Int, _ seconds: Double) -> String {
        String(format: "%.0f k/s", Double(count) / seconds / 1000)
    }

    /// One placement shape timed three ways over the same profiles in one run: the named call an
    /// app makes (`rules.resolve("name", for:at:)`), the handle (`placement.resolve(for:at:)`) and
    /// the hand-written function. Answers are checked equal first; returns a sink.
    static func compare(_ label: String, rules: RuleSet, placement name: String, profiles: [Profile],
                        answer: (Decision) -> String?, handWritten: (Profile, Int64) -> String?) -> Int {
        let handle = try! rules.placement(name)
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        var mismatches = 0
        for profile in profiles {
            let expected = handWritten(profile, nowMs)
            if answer(try! rules.resolve(name, for: profile, at: now)) != expected { mismatches += 1 }
            if answer(try! handle.resolve(for: profile, at: now)) != expected { mismatches += 1 }
        }
        guard mismatches == 0 else {
            print("in-process: \(mismatches) of \(profiles.count * 2) \(name) answers differ from the hand-written function")
            exit(1)
        }
        var sink = 0
        var seconds = [Double](repeating: .infinity, count: 3)  // named, handle, hand-written
        func run(_ loop: Int) {
            switch loop {
            case 0:
                for profile in profiles {
                    if let decision = try? rules.resolve(name, for: profile, at: now) { sink &+= decision.row ?? 0 }
                }
            case 1:
                for profile in profiles {
                    if let decision = try? handle.resolve(for: profile, at: now) { sink &+= decision.row ?? 0 }
                }
            default:
                for profile in profiles { sink &+= handWritten(profile, nowMs)?.utf8.count ?? 0 }
            }
        }
        // The fastest of nine rounds each; each round starts with a different loop, so that no
        // loop always runs first (on caches the one before it left).
        for round in 0..<9 {
            for offset in 0..<3 {
                let loop = (round + offset) % 3
                seconds[loop] = min(seconds[loop], time { run(loop) })
            }
        }
        let (namedSeconds, handleSeconds, handSeconds) = (seconds[0], seconds[1], seconds[2])
        let count = profiles.count
        print("| in process: `rules.resolve(\"\(name)\", for:at:)` (\(label)) | \(rate(count, namedSeconds)) | hand-written Swift: \(rate(count, handSeconds)) | \(String(format: "%.2f×", handSeconds / namedSeconds)) |")
        print("| in process: `placement.resolve` handle (\(label)) | \(rate(count, handleSeconds)) | hand-written Swift: \(rate(count, handSeconds)) | \(String(format: "%.2f×", handSeconds / handleSeconds)) |")
        return sink
    }

    static func run(rulesDirectory: String, count: Int) {
        let rules: RuleSet
        do {
            rules = try RuleSet(contentsOf: URL(fileURLWithPath: rulesDirectory))
        } catch {
            print(error)
            exit(2)
        }
        var sink = 0
        let profiles = Workload.profileLines(count: count, seed: 20_261_201).map { try! Profile(jsonData: Data($0.utf8)) }
        sink &+= compare("the shipped onboarding_followup", rules: rules, placement: "onboarding_followup", profiles: profiles,
                         answer: { $0.outcome == .nothing ? "" : $0.flowID }, handWritten: HandWritten.onboardingFollowup)
        let coach = try! RuleSet(source: SecondShape.rules, fileName: "coach.rules")
        let coachProfiles = SecondShape.profileLines(count: count, seed: 20_261_202).map { try! Profile(jsonData: Data($0.utf8)) }
        sink &+= compare("6 rows: one of, set, between, bool, age, country, platform", rules: coach, placement: "coach_paywall",
                         profiles: coachProfiles, answer: \.paywallID, handWritten: { SecondShape.coachPaywall($0, now: $1) })

        if ProcessInfo.processInfo.environment["BENCH_SKIP_LARGE"] != nil { return }
        // A generated large rule set: every placement per profile.
        let large = try! RuleSet(source: Workload.largeRules(segments: 500, audiences: 100, placements: 20, seed: 7), fileName: "large.rules")
        let some = Array(profiles.prefix(200_000))
        var largeSeconds = Double.infinity
        for _ in 0..<2 {
            largeSeconds = min(largeSeconds, time {
                for profile in some { sink &+= large.resolveAll(for: profile, at: now).count }
            })
        }
        print("| in process: `resolveAll`, 500 segments / 100 audiences / 20 placements | \(rate(some.count, largeSeconds)) profiles (\(rate(some.count * 20, largeSeconds)) decisions) | — | — |")
        if sink == 42 { print("") }
    }
}
