import Foundation
import Targeting
import TargetingBase
import TargetingProfiles

/// The event file of the `reconcile` row: for each of `profiles` users a `profile_updated` line
/// and two quiz answers, then `count` `placement_shown` lines over them at rising instants,
/// each what the shipped rules decide for the user then, history included (one in a hundred is
/// made to show another destination, so the report has mismatches to list).
enum ShownLines {
    static let start: Int64 = 1_795_824_000_000  // 2026-11-28T00:00:00Z
    static let placements = ["onboarding_followup", "main_paywall"]

    static func lines(count: Int, profiles: Int, rules: RuleSet, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        var lines: [String] = []
        var users: [Profile] = []
        lines.reserveCapacity(count + profiles * 3)
        for index in 0..<profiles {
            let id = "u\(index)"
            let country = Workload.countries.randomElement(using: &random)!
            let version = Workload.versions.randomElement(using: &random)!
            let experience = Workload.experiences.randomElement(using: &random)!
            let hours = Int.random(in: 0...20, using: &random)
            let installed = Timestamp.format(start - Int64.random(in: 0..<(10 * 86_400_000), using: &random) / 1000 * 1000)
            let customer = index % 3 == 0 ? "" : #""customer_user_id":"c\#(index)","#
            let fields = #"\#(customer)"app_version":"\#(version)","country":"\#(country)","installed_at":"\#(installed)""#
            lines.append(#"{"profile_id":"\#(id)","name":"profile_updated","fields":{\#(fields)}}"#)
            lines.append(#"{"profile_id":"\#(id)","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["\#(experience)"]}"#)
            lines.append(#"{"profile_id":"\#(id)","name":"flow_user_input","instanceId":"scr_quiz","element_id":"hours","element_type":"number_input","value":"\#(hours)"}"#)
            let json = #"{"id":"\#(id)",\#(fields),"custom_attributes":{"experience":"\#(experience)","weekly_hours":\#(hours)}}"#
            users.append(try! Profile(jsonData: Data(json.utf8)))
        }
        var at = start
        while lines.count < count + profiles * 3 {
            at += 500
            let user = Int.random(in: 0..<profiles, using: &random)
            let placement = placements[Int.random(in: 0..<placements.count, using: &random)]
            let decision = try! rules.resolve(placement, for: users[user], at: Date(timeIntervalSince1970: Double(at) / 1000))
            guard let outcome = decision.outcome, let kind = outcome.kind, var id = outcome.id else { continue }
            if lines.count % 100 == 0 { id += "_other" }
            // What reconcile replays: the line goes to the user's history, as shown.
            users[user].recordShown(placement, at: at)
            var line = #"{"profile_id":"u\#(user)","name":"placement_shown","placement":"\#(placement)","kind":"\#(kind)","id":"\#(id)""#
            if let experiment = decision.experiment, let variant = decision.variant {
                line += #","experiment":"\#(experiment)","variant":"\#(variant)""#
                users[user].recordAssignment(experiment, variant: variant, at: at)
            }
            line += #","held_out":\#(decision.heldOut),"at":"\#(Timestamp.format(at))"}"#
            lines.append(line)
        }
        return lines
    }
}
