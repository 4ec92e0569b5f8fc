/// Instants for `now` that stand for every moment the rules can tell apart.
///
/// A comparison of `now` with a fixed date steps at that date. A field compared with both fixed
/// dates and `now ± d` changes which vectors it can produce when `now ± d` crosses a fixed date;
/// likewise `age` against fixed birthdays and `days_since_install` against fixed install times.
/// Every such moment, one millisecond either side, and a fixed reference instant are the
/// candidates; between neighbouring candidates nothing the rules see changes.
enum ClockCandidates {
    /// The instant used when the rules do not care: 2026-01-01T00:00:00Z.
    static let reference: Int64 = 1_767_225_600_000

    /// Most candidates; beyond it the list is cut and marked incomplete.
    static let limit = 400

    /// The candidates (the reference first) and whether they cover every moment.
    static func instants(_ graph: ConditionGraph) -> (instants: [Int64], isComplete: Bool) {
        var points: [Int64] = []
        for id in graph.clockAtoms {
            points += DateCandidates.operands([graph.atoms[id].test.kind]).fixed
        }
        for variable in graph.variables {
            let atoms = variable.atoms.map { graph.atoms[$0] }
            let derived = atoms.filter {
                if case .builtin(let field)? = $0.slot?.target { return field == "age" || field == "days_since_install" }
                return false
            }
            let (fixed, relative) = DateCandidates.operands(atoms.map(\.test.kind))
            for date in fixed {
                for offset in relative { points.append(date &- offset) }
            }
            guard !derived.isEmpty else { continue }
            let wholes = NumberCandidates.wholeNumbers(around: NumberCandidates.literals(derived.map(\.test.kind)))
            for date in fixed {
                if variable.field == .builtin("birthday") {
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
        var result = [reference]
        var seen: Set<Int64> = [reference]
        for point in Set(points).sorted() {
            for instant in [point &- 1, point, point &+ 1] where instant >= earliest && instant < latest && seen.insert(instant).inserted {
                result.append(instant)
            }
        }
        if result.count > limit { return (Array(result.prefix(limit)), false) }
        return (result, true)
    }
}
