import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The options of a profile's history: the instants one placement was shown at, and the
/// assignment of one sticky experiment.
///
/// Every `shown P [in D]` and `last shown P` reads one list of at most 100 instants, so they
/// are one variable, and its options are whole lists: the counts of nested windows can never
/// contradict each other (`shown P in 7d` ≤ `shown P in 30d` ≤ `shown P`), nor the last
/// instant the counts (`last shown P` is set exactly when `shown P` ≥ 1, and lies in the
/// smallest window that counts one).
///
/// At a fixed `now`, the windows cut time into zones: the future (after `now`), then
/// `(now − D₁, now]`, `(now − D₂, now − D₁]`, …, and everything at or before `now − Dₖ`. A
/// list is, for every count comparison, its number of instants per zone; for every `last
/// shown` comparison, where its latest instant lies. The counts are taken up to the classes
/// of the literals compared with (0 alone, 1, each literal and the number after it), which
/// every count comparison and the zone of the latest instant respect; the latest instant is
/// the top of each class of instants the date comparisons tell apart within its zone, which
/// leaves the most room below it for the other instants of that zone.
enum HistoryOptions {
    /// Offers the lists of instants standing for every class of the placement's comparisons.
    static func fillShown(_ builder: inout OptionTableBuilder, now: Int64) {
        var windows: Set<Int64> = []
        var countKinds: [CompiledTest.Kind] = []
        var dateKinds: [CompiledTest.Kind] = []
        for test in builder.tests {
            switch test.slot.target {
            case .shownCount(_, let window):
                if let window { windows.insert(window) }
                countKinds.append(test.test.kind)
            case .lastShown:
                dateKinds.append(test.test.kind)
            case .builtin, .custom:
                builder.isComplete = false  // never the case: a history variable reads history only
            }
        }
        // A count over several placements sums theirs: up to 100 each.
        let limit: Int
        if case .history(let placements) = builder.field {
            limit = ProfileHistory.maxShown * FieldKey.shownPlacements(placements).count
        } else {
            limit = ProfileHistory.maxShown
        }
        var starts: Set<Int> = [0, 1]
        for literal in NumberCandidates.literals(countKinds) {
            let whole = Int(max(-1, min(Double(limit + 1), literal.rounded(.down))))
            for value in [whole, whole + 1] where (0...limit).contains(value) { starts.insert(value) }
        }
        let counts = starts.sorted()
        let zones = HistoryZones(windows: windows.sorted(), now: now)
        let points = DateCandidates.points(dateKinds, now: now)
        // Each cumulative count (windows from the smallest, then every zone up to `now`), non-decreasing.
        var sequence: [Int] = []
        var exhausted = false
        func walk(_ depth: Int, from lowest: Int) {
            guard !exhausted else { return }
            if depth == zones.windowCount + 1 {
                let upToNow = sequence.last ?? 0
                // The total: a class start at or above, or one more in the same class (an instant after `now`).
                var totals = counts.filter { $0 >= upToNow }
                if upToNow + 1 <= limit, !totals.contains(upToNow + 1) { totals.append(upToNow + 1) }
                for total in totals where !exhausted {
                    offer(&builder, cumulative: sequence, total: total, zones: zones, points: points, exhausted: &exhausted)
                }
                return
            }
            for count in counts where count >= lowest {
                sequence.append(count)
                walk(depth + 1, from: count)
                sequence.removeLast()
                if exhausted { return }
            }
        }
        walk(0, from: 0)
    }

    /// Offers every list with these counts: per zone the difference of the cumulative counts,
    /// and `total` minus the last of them after `now`; the latest instant at each candidate
    /// of its zone.
    private static func offer(_ builder: inout OptionTableBuilder, cumulative: [Int], total: Int, zones: HistoryZones,
                              points: [Int64], exhausted: inout Bool) {
        // Zone 0 is the future; zones 1… follow back in time.
        var perZone = [total - (cumulative.last ?? 0)]
        var previous = 0
        for count in cumulative {
            perZone.append(count - previous)
            previous = count
        }
        guard let latestZone = perZone.firstIndex(where: { $0 > 0 }) else {
            if !builder.offer(.missing) { exhausted = true }
            return
        }
        var older: [Int64] = []
        for zone in perZone.indices where zone > latestZone && perZone[zone] > 0 {
            guard let top = zones.top(zone) else { continue }
            let count = Int64(perZone[zone])
            let gap = HistoryZones.gap(below: top, above: zones.bottom(zone), count: count)
            for step in 0..<count {
                let instant = top - step * gap
                guard instant > zones.bottom(zone) else { builder.isComplete = false; return }
                older.append(instant)
            }
        }
        let room = Int64(perZone[latestZone] - 1)
        for latest in zones.latestCandidates(latestZone, points: points) {
            guard latest - room > zones.bottom(latestZone) else {
                builder.isComplete = false  // no room below this instant for the zone's others
                continue
            }
            var instants = older
            let gap = HistoryZones.gap(below: latest, above: zones.bottom(latestZone), count: room + 1)
            for step in 0...room { instants.append(latest - step * gap) }
            guard instants.allSatisfy(HistoryZones.isWritable) else {
                builder.isComplete = false
                continue
            }
            let list = JSONValue.array(instants.sorted().map { .string(Timestamp.format($0)) })
            if !builder.offer(.json(list)) {
                exhausted = true
                return
            }
        }
    }

    /// Offers no assignment, then, for every variant the atoms name, an assignment at `now`
    /// (younger than any duration) and one at the start of each duration's window (just too
    /// old for it, young enough for any longer one), then a variant no experiment has.
    static func fillAssignment(_ builder: inout OptionTableBuilder, now: Int64) {
        var variants: [String] = []
        var durations: [Int64] = []
        for probe in builder.probes {
            if let variant = probe.plan.steps[probe.step].variant, !variants.contains(variant) { variants.append(variant) }
            if let sticky = probe.plan.sticky, !durations.contains(sticky) { durations.append(sticky) }
        }
        func assignment(_ variant: String, at: Int64) -> ExampleValue {
            .json(.object([JSONMember(key: "variant", value: .string(variant)), JSONMember(key: "at", value: .string(Timestamp.format(at)))]))
        }
        for variant in variants {
            for at in [now] + durations.sorted().map({ now &- $0 }) where HistoryZones.isWritable(at) {
                builder.offer(assignment(variant, at: at))
            }
        }
        var other = "other"
        while variants.contains(other) { other += "-other" }
        builder.offer(assignment(other, at: now))
        // An instant outside years 0–9999 cannot be written: such a `now` leaves the table open.
        if !HistoryZones.isWritable(now) { builder.isComplete = false }
    }
}

/// The zones a placement's windows cut time into at `now`: zone 0 after `now`, zone `i` (1…k)
/// in `(now − Dᵢ, now − Dᵢ₋₁]` (with D₀ = 0), and zone k+1 at or before `now − Dₖ`.
struct HistoryZones {
    /// The windows, ascending.
    let windows: [Int64]
    let now: Int64

    /// The first instant an RFC 3339 instant can write (0000-01-01), and the first it cannot (10000-01-01).
    static let earliest = Int64(CivilDate(year: 0, month: 1, day: 1).daysSinceEpoch) * Timestamp.msPerDay
    static let end = Int64(CivilDate(year: 10000, month: 1, day: 1).daysSinceEpoch) * Timestamp.msPerDay

    var windowCount: Int { windows.count }

    /// The spacing of `count` instants from `top` down, all after `bottom`: an hour where they
    /// fit (a readable example), else as wide as they fit, at least a millisecond.
    static func gap(below top: Int64, above bottom: Int64, count: Int64) -> Int64 {
        guard count > 1 else { return 1 }
        return max(1, min(3_600_000, (top &- bottom &- 1) / (count - 1)))
    }

    /// Whether a history can hold `instant` (it writes as an RFC 3339 instant).
    static func isWritable(_ instant: Int64) -> Bool { instant >= earliest && instant < end }

    /// The latest instant of zone `zone`; nil for the future, which has none.
    func top(_ zone: Int) -> Int64? {
        if zone == 0 { return nil }
        return zone == 1 ? now : now &- windows[zone - 2]
    }

    /// The instant just before zone `zone` (exclusive).
    func bottom(_ zone: Int) -> Int64 {
        if zone == 0 { return now }
        return zone <= windows.count ? now &- windows[zone - 1] : HistoryZones.earliest - 1
    }

    /// Candidates for the latest instant when it lies in zone `zone`: the top of every class of
    /// instants the date points tell apart inside the zone (a point and the instant before
    /// it), and the zone's own top (a day past the last point for the future).
    func latestCandidates(_ zone: Int, points: [Int64]) -> [Int64] {
        var result: [Int64] = []
        let top = self.top(zone) ?? (max(now, points.max() ?? now) &+ Timestamp.msPerDay)
        result.append(top)
        for point in points { result += [point &- 1, point] }
        let bottom = self.bottom(zone)
        return Array(Set(result.filter { $0 > bottom && $0 <= top })).sorted(by: >)
    }
}
