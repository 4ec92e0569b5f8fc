import TargetingBase
import TargetingProfiles

/// How a slot's view holds a date, which decides how a date test is written.
enum SQLDateForm: Hashable, Sendable {
    /// Unix milliseconds, a `BIGINT` (a JSON profile's dates, parsed in the query).
    case milliseconds
    /// The engine's instant type (a typed table's instants).
    case instant
    /// The engine's calendar date, standing for its midnight UTC (a typed table's `birthday`).
    case calendarDate
}

/// How a slot's typed view `s<N>_v` holds its value.
enum SQLValueForm: Hashable, Sendable {
    /// As `Slot.read` types it: text, a double, a bool, an array of texts, a version's parts.
    case plain
    /// A date, in `form`.
    case date(SQLDateForm)
    /// A number derived from a date (`profile.age`, `profile.days_since_install`): the view is
    /// the source date, in `form`, and a test of the number is a test of that date.
    case derived(BuiltinField.Derivation, SQLDateForm)
}

/// The bounds that turn a test of a derived number into a comparison of its source date.
///
/// Both derived numbers fall as their source date grows, in whole steps, so for an integer
/// `n` the values at least `n` are exactly the source instants at most `atLeast(n)`:
/// `derived >= n ⇔ source <= atLeast(n)`, and `derived < n ⇔ source > atLeast(n)`.
struct SQLDerivedBounds {
    let rule: BuiltinField.Derivation
    let now: Int64

    /// Derived values beyond this many are outside every date a profile can hold.
    static let limit: Double = 10_000_000

    /// The latest source instant (Unix ms) whose derived value is at least `n`.
    func atLeast(_ n: Int64) -> Int64 {
        switch rule {
        case .wholeYears:
            // Born on or before the same calendar day `n` years back (the last day of February
            // in a year without 29 February, when today is that day): an age of at least `n`.
            let today = Timestamp.civilDate(ms: now)
            let year = today.year - Int(n)
            var day = today.day
            if today.month == 2, day == 29, !CivilDate.isLeapYear(year) { day = 28 }
            let last = CivilDate(year: year, month: today.month, day: day)
            return Int64(last.daysSinceEpoch + 1) * Timestamp.msPerDay - 1
        case .wholeDays:
            // floor((now − source) / 1 day) ≥ n exactly when source ≤ now − n days.
            return Timestamp.shifted(now, by: -n * Timestamp.msPerDay)
        }
    }

    /// A test of the derived number as comparisons of its source with instants, all of which
    /// must hold; nil when no value passes.
    typealias Terms = [(SQLExpression.Comparison, Int64)]?

    /// `derived >= n` as terms (`n` clamped to `limit`).
    func atLeastTerms(_ n: Double) -> [(SQLExpression.Comparison, Int64)] {
        [(.lessOrEqual, atLeast(Int64(max(-SQLDerivedBounds.limit, min(SQLDerivedBounds.limit, n)))))]
    }

    /// `derived < n` (n an integer) as terms.
    func belowTerms(_ n: Double) -> [(SQLExpression.Comparison, Int64)] {
        [(.greater, atLeast(Int64(max(-SQLDerivedBounds.limit, min(SQLDerivedBounds.limit, n)))))]
    }

    /// `derived op x`.
    func order(_ ordering: Ordering, _ x: Double) -> Terms {
        switch ordering {
        case .greaterOrEqual: atLeastTerms(x.rounded(.up))
        case .greater: atLeastTerms(x.rounded(.down) + 1)
        case .lessOrEqual: belowTerms(x.rounded(.down) + 1)
        case .less: belowTerms(x.rounded(.up))
        }
    }

    /// `derived == x`: never for a number that is not whole.
    func equals(_ x: Double) -> Terms {
        guard x == x.rounded(), abs(x) <= SQLDerivedBounds.limit else { return nil }
        return atLeastTerms(x) + belowTerms(x + 1)
    }

    /// `derived between low and high`.
    func between(_ low: Double, _ high: Double) -> Terms {
        guard low <= high else { return nil }
        return atLeastTerms(low.rounded(.up)) + belowTerms(high.rounded(.down) + 1)
    }
}

/// The instants a dialect's typed columns can hold, and dates written against them.
struct SQLDateLiterals {
    let dialect: SQLDialect

    /// A comparison of the date `value`, held in `form`, with the instant `ms`; `note` says what
    /// the instant was written as (a relative date). Always a comparison of `value` itself, so
    /// that it is NULL exactly when `value` is: an instant beyond the dates the column can hold
    /// compares with the first one it holds, `value < first` for never and `value >= first` for
    /// always.
    func compare(_ value: SQLExpression, _ comparison: SQLExpression.Comparison, _ ms: Int64, form: SQLDateForm,
                 note: String? = nil) -> SQLExpression {
        func noted(_ literal: SQLExpression) -> SQLExpression { note.map { .commented(literal, $0) } ?? literal }
        switch form {
        case .milliseconds:
            return .parenthesized(.compare(value, comparison, noted(.integer(ms))))
        case .instant:
            let range = dialect.instantRange
            if ms < range.lowerBound || ms > range.upperBound {
                return outside(value, comparison, below: ms < range.lowerBound, first: .instant(range.lowerBound))
            }
            return .parenthesized(.compare(value, comparison, noted(.instant(ms))))
        case .calendarDate:
            // A date stands for its midnight: `d < t` ⇔ d < t's day rounded up, `d <= t` ⇔ d <= its day rounded down.
            let day = Timestamp.floorDiv(ms, Timestamp.msPerDay)
            let exact = Timestamp.floorMod(ms, Timestamp.msPerDay) == 0
            let range = dialect.instantRange
            let firstDay = Timestamp.floorDiv(range.lowerBound, Timestamp.msPerDay)
            let lastDay = Timestamp.floorDiv(range.upperBound, Timestamp.msPerDay)
            let bound: Int64
            switch comparison {
            case .less, .greaterOrEqual: bound = exact ? day : day + 1
            case .lessOrEqual, .greater: bound = day
            case .equal, .notEqual:
                guard exact else {
                    return outside(value, comparison == .equal ? .equal : .notEqual, below: true, first: .calendarDate(firstDay))
                }
                bound = day
            }
            if bound < firstDay || bound > lastDay {
                return outside(value, comparison, below: bound < firstDay, first: .calendarDate(firstDay))
            }
            return .parenthesized(.compare(value, comparison, noted(.calendarDate(bound))))
        }
    }

    /// `value op t` for an instant `t` before (`below`) or after every value the column holds.
    private func outside(_ value: SQLExpression, _ comparison: SQLExpression.Comparison, below: Bool, first: SQLExpression) -> SQLExpression {
        let holds: Bool
        switch comparison {
        case .less, .lessOrEqual, .equal: holds = !below
        case .greater, .greaterOrEqual: holds = below
        case .notEqual: holds = true
        }
        if comparison == .equal { return .parenthesized(.compare(value, .less, first)) }
        return .parenthesized(.compare(value, holds ? .greaterOrEqual : .less, first))
    }
}
