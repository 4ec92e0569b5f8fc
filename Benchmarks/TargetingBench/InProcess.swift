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

    /// The second shape (`SecondShape`): answers checked equal, then both timed; returns a sink.
    static func secondShape(count: Int) -> Int {
        let rules = try! RuleSet(source: SecondShape.rules, fileName: "coach.rules")
        let coach = try! rules.placement("coach_paywall")
        let profiles = SecondShape.profileLines(count: count, seed: 20_261_202).map { try! Profile(jsonData: Data($0.utf8)) }
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        var mismatches = 0
        for profile in profiles where try! coach.resolve(for: profile, at: now).paywallID != SecondShape.coachPaywall(profile, now: nowMs) {
            mismatches += 1
        }
        guard mismatches == 0 else {
            print("in-process: \(mismatches) of \(count) coach_paywall answers differ from the hand-written function")
            exit(1)
        }
        var sink = 0
        var engineSeconds = Double.infinity
        var handSeconds = Double.infinity
        for _ in 0..<3 {
            engineSeconds = min(engineSeconds, time {
                for profile in profiles {
                    if let decision = try? coach.resolve(for: profile, at: now) { sink &+= decision.row ?? 0 }
                }
            })
            handSeconds = min(handSeconds, time {
                for profile in profiles { sink &+= SecondShape.coachPaywall(profile, now: nowMs).utf8.count }
            })
        }
        print("| in process: `placement.resolve` (6 rows: one of, set, between, bool, age, country, platform) | \(rate(count, engineSeconds)) | hand-written Swift: \(rate(count, handSeconds)) | \(String(format: "%.2f×", handSeconds / engineSeconds)) |")
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
        let profiles = Workload.profileLines(count: count, seed: 20_261_201).map { try! Profile(jsonData: Data($0.utf8)) }
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)

        // Answers first: both must agree on every profile.
        var mismatches = 0
        for profile in profiles {
            let engine = try! rules.resolve("onboarding_followup", for: profile, at: now)
            let expected = HandWritten.onboardingFollowup(profile, now: nowMs)
            let got: String? = engine.outcome == .nothing ? "" : engine.flowID
            if got != expected { mismatches += 1 }
        }
        guard mismatches == 0 else {
            print("in-process: \(mismatches) of \(count) answers differ from the hand-written function")
            exit(1)
        }

        var sink = 0
        let followUp = try! rules.placement("onboarding_followup")
        var engineSeconds = Double.infinity
        var handSeconds = Double.infinity
        for _ in 0..<3 {
            engineSeconds = min(engineSeconds, time {
                for profile in profiles {
                    if let decision = try? followUp.resolve(for: profile, at: now) { sink &+= decision.row ?? 0 }
                }
            })
            handSeconds = min(handSeconds, time {
                for profile in profiles { sink &+= HandWritten.onboardingFollowup(profile, now: nowMs)?.utf8.count ?? 0 }
            })
        }
        print("| in process: `placement.resolve` (onboarding_followup) | \(rate(count, engineSeconds)) | hand-written Swift: \(rate(count, handSeconds)) | \(String(format: "%.2f×", handSeconds / engineSeconds)) |")
        sink &+= secondShape(count: count)

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
