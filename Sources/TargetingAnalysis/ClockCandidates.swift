import TargetingBase
import TargetingProfiles

/// Instants for `now` that stand for every moment the rules can tell apart.
///
/// A comparison of `now` with a fixed date steps at that date. A field compared with both fixed
/// dates and `now ± d` changes which vectors it can produce when `now ± d` crosses a fixed date;
/// likewise `age` against fixed birthdays and `days_since_install` against fixed install times.
/// Between two neighbouring such moments the order of all those points stays the same and only
/// the gaps between them change; the middle of the stretch has the widest gaps, so it allows
/// every value any other instant of the stretch allows (a gap of one millisecond holds no
/// value strictly inside it). The candidates are a fixed reference instant, every moment, the
/// middle of every stretch (every instant of a short one), and a day beyond either end.
enum ClockCandidates {
    /// The instant used when the rules do not care: 2026-01-01T00:00:00Z.
    static let reference: Int64 = 1_767_225_600_000

    /// Most candidates; beyond it the list is cut and marked incomplete.
    static let limit = 400

    /// The candidates (the reference first), whether they cover every moment, and the variables
    /// whose options change between candidates in more than a shift (those that added moments).
    /// Any other variable looks the same at every instant.
    static func instants(_ graph: ConditionGraph) -> (instants: [Int64], isComplete: Bool, coupled: Set<Int>) {
        var points: [Int64] = []
        var coupled: Set<Int> = []
        for id in graph.clockAtoms {
            points += DateCandidates.operands([graph.atoms[id].test.kind]).fixed
        }
        for (index, variable) in graph.variables.enumerated() {
            let before = points.count
            defer { if points.count > before { coupled.insert(index) } }
            let atoms = variable.atoms.map { graph.atoms[$0] }
            let derived = atoms.filter {
                if case .builtin(let field)? = $0.slot?.target { return BuiltinField.derivation(of: field) != nil }
                return false
            }
            var (fixed, relative) = DateCandidates.operands(atoms.map(\.test.kind))
            if case .history = variable.field {
                // A history's zones start at `now` and at `now − D` for each window: a fixed
                // date crossing one changes which lists a `last shown` comparison can tell apart.
                relative.append(0)
                for atom in atoms {
                    if case .shownCount(_, let window?)? = atom.slot?.target { relative.append(-window) }
                }
            }
            for date in fixed {
                for offset in relative { points.append(date &- offset) }
            }
            guard !derived.isEmpty else { continue }
            let wholes = NumberCandidates.wholeNumbers(around: NumberCandidates.literals(derived.map(\.test.kind)))
            for date in fixed {
                if case .builtin(let field) = variable.field, BuiltinField.derivations(from: field).contains(.wholeYears) {
                    let birthday = Timestamp.civilDate(ms: date)
                    for age in wholes {
                        let year = birthday.year + age
                        guard (0...9999).contains(year) else { continue }
                        let day = min(birthday.day, CivilDate.daysInMonth(year: year, month: birthday.month))
                        let anniversary = CivilDate(year: year, month: birthday.month, day: day).daysSinceEpoch
                        for shift in -2...2 { points.append(Int64(anniversary + shift) * DateCandidates.msPerDay) }
                    }
                } else {
                    for days in wholes { points.append(date &+ Int64(days) * DateCandidates.msPerDay) }
                }
            }
        }
        let earliest = Int64(CivilDate(year: 0, month: 1, day: 1).daysSinceEpoch) * DateCandidates.msPerDay
        let latest = Int64(CivilDate(year: 10000, month: 1, day: 1).daysSinceEpoch) * DateCandidates.msPerDay
        let sorted = Set(points.filter { $0 >= earliest && $0 < latest }).sorted()
        var candidates: [Int64] = []
        if let first = sorted.first, let last = sorted.last {
            candidates = [first - DateCandidates.msPerDay, last + DateCandidates.msPerDay]
            for (point, next) in zip(sorted, sorted.dropFirst()) {
                candidates.append(point)
                if next - point <= 8 {
                    candidates += (point + 1)..<next
                } else {
                    candidates.append(point + (next - point) / 2)
                }
            }
            candidates.append(last)
        }
        var result = [reference]
        var seen: Set<Int64> = [reference]
        for instant in candidates where instant >= earliest && instant < latest && seen.insert(instant).inserted {
            result.append(instant)
        }
        if result.count > limit { return (Array(result.prefix(limit)), false, coupled) }
        return (result, true, coupled)
    }
}
