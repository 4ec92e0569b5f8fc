import TargetingBase

/// What a generated profile's `history` means, as the README defines it: per placement the
/// distinct instants it was shown at (ascending, the latest 100), per experiment the first
/// assignment listed. Built from the generator's own numbers, never by reading the JSON.
package struct SampleHistory {
    /// Placement name to its kept instants, ascending.
    package var shown: [String: [Int64]] = [:]
    /// Experiment name to the variant and instant of its assignment.
    package var assigned: [String: (variant: String, at: Int64)] = [:]

    package init() {}

    /// Keeps `instants` (in any order, repeats allowed) for `placement` as a profile keeps them.
    package mutating func list(_ placement: String, _ instants: [Int64]) {
        shown[placement] = Array(Array(Set(instants)).sorted().suffix(100))
    }

    /// How many kept instants of `placement` lie in `(now − window, now]`, or all of them.
    package func count(_ placement: String, window: Int64?, now: Int64) -> Int {
        let instants = shown[placement] ?? []
        guard let window else { return instants.count }
        return instants.filter { $0 > now - window && $0 <= now }.count
    }

    /// The latest kept instant of `placement`.
    package func last(_ placement: String) -> Int64? { shown[placement]?.max() }
}

extension World {
    /// A duration as rules write it, and its length.
    package struct Duration {
        package var milliseconds: Int64
        package var text: String
    }

    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Windows of `shown P in D`: one minute to 400 days, in every unit.
    package static let windows: [Duration] = [
        Duration(milliseconds: minute, text: "1m"), Duration(milliseconds: minute, text: "60s"),
        Duration(milliseconds: 30 * minute, text: "30m"), Duration(milliseconds: 12 * hour, text: "12h"),
        Duration(milliseconds: day, text: "1d"), Duration(milliseconds: 7 * day, text: "7d"),
        Duration(milliseconds: 30 * day, text: "30d"), Duration(milliseconds: 400 * day, text: "400d"),
        Duration(milliseconds: 400 * day, text: "9600h"),
    ]

    /// Durations of `sticky D`: one day to 400 days.
    package static let stickyDurations: [Duration] = [
        Duration(milliseconds: day, text: "1d"), Duration(milliseconds: day, text: "24h"),
        Duration(milliseconds: day, text: "1440m"), Duration(milliseconds: 7 * day, text: "7d"),
        Duration(milliseconds: 90 * day, text: "90d"), Duration(milliseconds: 400 * day, text: "400d"),
    ]

    /// An instant near `now` that a window or a sticky duration may just take or just miss:
    /// `now` itself, a millisecond either side, `now − D` and a millisecond either side of it,
    /// an hour or a day in the future, long ago.
    static func instant(near now: Int64, _ choices: inout FuzzChoices) -> Int64 {
        let durations = (windows + stickyDurations).map(\.milliseconds)
        switch choices.below(6) {
        case 0: return now + Int64(choices.pick([0, -1, 1]))
        case 1, 2: return now - choices.pick(durations) + Int64(choices.pick([0, -1, 1]))
        case 3: return now + choices.pick([hour, day, 1])
        case 4: return now - choices.pick([minute / 2, 2 * hour, 3 * day, 45 * day, 500 * day])
        default: return now - Int64(choices.below(10_000)) * minute
        }
    }

    /// A random `history` for a profile evaluated at `now` (nil: none, or sometimes `null`),
    /// and what it means: placements of these rules and one they do not declare, lists empty,
    /// repeating, unordered or full (100 instants); assignments live, expired or in the future,
    /// of variants the experiment has or not.
    func history(now: Int64, _ choices: inout FuzzChoices) -> (json: JSONValue?, meaning: SampleHistory) {
        var meaning = SampleHistory()
        switch choices.below(10) {
        case 0, 1: return (nil, meaning)
        case 2: return (.null, meaning)
        default: break
        }
        var shown: [JSONMember] = []
        for placement in placements.map(\.name) + ["zz"] where choices.chance(55) {
            var instants: [Int64]
            switch choices.below(8) {
            case 0: instants = []
            case 1:
                // A full list: one showing per step back from near now.
                let step = choices.pick([World.minute, World.hour, World.day, 7 * World.day])
                let start = World.instant(near: now, &choices)
                instants = (0..<100).map { start - Int64($0) * step }
            default:
                instants = (0..<choices.within(1...6)).map { _ in World.instant(near: now, &choices) }
                if choices.chance(30), let first = instants.first { instants.append(first) }
            }
            switch choices.below(3) {
            case 0: instants.sort()
            case 1: instants.sort(by: >)
            default: break
            }
            meaning.list(placement, instants)
            shown.append(JSONMember(key: placement, value: .array(instants.map { .string(Civil.text(ms: $0, &choices)) })))
        }
        var assigned: [JSONMember] = []
        for experiment in experiments.map(Optional.some) + [nil] where choices.chance(55) {
            let name = experiment?.name ?? "zz"
            var variant = "vz"
            if choices.chance(85) { variant = experiment.map { choices.pick($0.variants).name } ?? "va" }
            let at: Int64
            if let sticky = experiment?.sticky, choices.chance(60) {
                at = now - sticky.milliseconds + Int64(choices.pick([0, 1, -1, 2 * 3_600_000]))
            } else {
                at = World.instant(near: now, &choices)
            }
            meaning.assigned[name] = (variant, at)
            assigned.append(JSONMember(key: name, value: .object([
                JSONMember(key: "variant", value: .string(variant)),
                JSONMember(key: "at", value: .string(Civil.text(ms: at, &choices))),
            ])))
        }
        var members: [JSONMember] = []
        if !shown.isEmpty || choices.chance(20) { members.append(JSONMember(key: "shown", value: .object(shown))) }
        if !assigned.isEmpty || choices.chance(20) { members.append(JSONMember(key: "assigned", value: .object(assigned))) }
        if choices.chance(30) { members.reverse() }
        return (.object(members), meaning)
    }
}

extension Civil {
    /// The calendar date of a day number from 1970-01-01 (the inverse of `days`).
    package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `ms` as RFC 3339 text: in UTC (`Z`) or at a zone offset, with milliseconds when it has
    /// any, in upper or lower case.
    package static func text(ms: Int64, _ choices: inout FuzzChoices) -> String {
        let offset = choices.pick([0, 0, 0, 120, -330, 840])
        let local = ms + Int64(offset) * 60_000
        let day: Int64 = 86_400_000
        let days = local >= 0 ? local / day : -((-local + day - 1) / day)
        let within = local - days * day
        let date = date(days: Int(days))
        let seconds = Int(within / 1_000), millis = Int(within % 1_000)
        let instant = Instant(year: date.year, month: date.month, day: date.day, hour: seconds / 3_600, minute: seconds / 60 % 60, second: seconds % 60)
        var text = instant.dateText + (choices.chance(10) ? "t" : "T") + instant.two(instant.hour) + ":" + instant.two(instant.minute) + ":" + instant.two(instant.second)
        if millis != 0 { text += "." + String(String(millis + 1_000).dropFirst()) }
        if offset == 0 { return text + (choices.chance(10) ? "z" : "Z") }
        let sign = offset < 0 ? "-" : "+"
        return text + sign + instant.two(abs(offset) / 60) + ":" + instant.two(abs(offset) % 60)
    }
}
