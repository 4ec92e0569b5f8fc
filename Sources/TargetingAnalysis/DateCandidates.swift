import TargetingBase
import TargetingEngine

/// Instants that stand for every class of instants a set of date comparisons can tell apart.
///
/// At a fixed `now`, every date operand (`2026-11-27`, `now - 7d`) is a point in milliseconds,
/// and comparisons have one truth value on each point and on each open interval between
/// neighbouring points. Derived fields add their own points: the birthdays where `age` steps
/// and the install times where `days_since_install` steps.
enum DateCandidates {
    static let msPerDay: Int64 = 86_400_000

    /// The date operands of `kinds`, as points at `now`.
    static func points(_ kinds: [CompiledTest.Kind], now: Int64) -> [Int64] {
        var found: [Int64] = []
        for kind in kinds {
            switch kind {
            case .date(let test): found += test.literals.map { $0.at(now) }
            // Presence, and tests of strings, numbers, booleans, versions and sets: no instant.
            case .presence, .text, .number, .bool, .version, .members: continue
            }
        }
        return found
    }

    /// The operands of `kinds` split into fixed instants and offsets from `now`.
    static func operands(_ kinds: [CompiledTest.Kind]) -> (fixed: [Int64], relative: [Int64]) {
        var fixed: [Int64] = []
        var relative: [Int64] = []
        func add(_ operand: DateOperand) {
            switch operand {
            case .fixed(let ms): fixed.append(ms)
            case .relative(let offset): relative.append(offset)
            }
        }
        for kind in kinds {
            switch kind {
            case .date(let test): test.literals.forEach(add)
            // Presence, and tests of strings, numbers, booleans, versions and sets: no instant.
            case .presence, .text, .number, .bool, .version, .members: continue
            }
        }
        return (fixed, relative)
    }

    /// Each point, one millisecond either side, and nicer values first: a day either side and
    /// the middle of each gap (on a midnight where one fits). `fallback` when there are no points.
    ///
    /// Values are kept within ±8·10¹⁵ ms (about ±250,000 years). A point beyond that window
    /// (`now - 20000000000d`) is moved to its edge first: every value inside the window lies on
    /// the same side of it either way, so the candidates still stand for every class.
    static func instants(around points: [Int64], fallback: Int64) -> [Int64] {
        let limit: Int64 = 8_000_000_000_000_000
        let sorted = Array(Set(points.map { min(max($0, -limit), limit) })).sorted()
        guard let first = sorted.first, let last = sorted.last else { return [fallback] }
        var result = sorted
        result.append(first &- msPerDay)
        for (low, high) in zip(sorted, sorted.dropFirst()) {
            let middle = low / 2 + high / 2
            let midnight = middle &- Timestamp.floorMod(middle, msPerDay)
            if low < midnight, midnight < high { result.append(midnight) } else if low < middle, middle < high { result.append(middle) }
        }
        result.append(last &+ msPerDay)
        for point in sorted { result += [point &- 1, point &+ 1] }
        return result.filter { $0 > -limit && $0 < limit }
    }

    /// Birthdays (midnights) where `age` steps between the whole numbers `ages` at `now`: around
    /// each anniversary, a few days either side so leap days cannot hide a step.
    static func ageSteps(ages: [Int], now: Int64) -> [Int64] {
        let today = Timestamp.civilDate(ms: now)
        var result: [Int64] = []
        for age in ages {
            let year = today.year - age
            guard (0...9999).contains(year) else { continue }
            let day = min(today.day, CivilDate.daysInMonth(year: year, month: today.month))
            let anniversary = CivilDate(year: year, month: today.month, day: day).daysSinceEpoch
            for shift in -2...2 { result.append(Int64(anniversary + shift) * msPerDay) }
        }
        return result
    }

    /// Install times where `days_since_install` steps between the whole numbers `days` at `now`.
    static func daySteps(days: [Int], now: Int64) -> [Int64] {
        days.map { now &- Int64($0) * msPerDay }
    }

    /// A date as a built-in field holds it: `YYYY-MM-DD` for a midnight, else RFC 3339 UTC.
    static func text(_ ms: Int64) -> String {
        Timestamp.floorMod(ms, msPerDay) == 0 ? Timestamp.formatDate(ms) : Timestamp.format(ms)
    }
}
