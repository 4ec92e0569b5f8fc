import TargetingBase

/// A date or an RFC 3339 instant taken apart in SQL (each part an integer expression), and its
/// Unix milliseconds computed from the parts with integer arithmetic only, as `Timestamp.parse`
/// computes them: NULL for a text that did not match or names an impossible date or time.
struct SQLInstantParts {
    var year: String
    var month: String
    var day: String
    var hour: String
    var minute: String
    var second: String
    /// The fraction's first three digits, as milliseconds.
    var millis: String
    /// 1, or -1 for a negative offset.
    var offsetSign: String
    var offsetHour: String
    var offsetMinute: String
    /// Whether the text had the shape at all.
    var matched: String

    /// Whether the text matched and every part is in range: month 1-12, a day of that month,
    /// hour 0-23, minute and second 0-59, offset hours 0-23 and minutes 0-59.
    func valid(_ dialect: SQLDialect) -> String {
        let daysInMonth = "CASE WHEN \(month) IN (1, 3, 5, 7, 8, 10, 12) THEN 31 WHEN \(month) IN (4, 6, 9, 11) THEN 30 WHEN \(month) = 2 THEN CASE WHEN \(leapYear) THEN 29 ELSE 28 END ELSE 0 END"
        return "\(matched) AND \(month) BETWEEN 1 AND 12 AND \(day) BETWEEN 1 AND \(daysInMonth) AND \(hour) <= 23 AND \(minute) <= 59 AND \(second) <= 59 AND \(offsetHour) <= 23 AND \(offsetMinute) <= 59"
    }

    /// Unix milliseconds, NULL unless `valid`.
    ///
    /// Days are counted from 1 January of year 0 of the proleptic Gregorian calendar, with the
    /// year moved on by 400 (one whole cycle of leap years, so the same years are leap) to keep
    /// every division of a non-negative number: 365 a year, a leap day for each leap year before
    /// it, the days before the month (`(367 × month − 362) / 12` counts February as 30 days, so
    /// months after it give back 2, or 1 in a leap year), and the day. 1970-01-01 is day 865,625.
    func milliseconds(_ dialect: SQLDialect) -> String {
        let shifted = "(\(year) + 400)"
        func quotient(_ add: Int, _ divisor: Int) -> String { dialect.divide("\(shifted) + \(add)", "\(divisor)") }
        let beforeYear = "365 * \(shifted) + \(quotient(3, 4)) - \(quotient(99, 100)) + \(quotient(399, 400))"
        let beforeMonth = "\(dialect.divide("367 * \(month) - 362", "12")) + CASE WHEN \(month) <= 2 THEN 0 WHEN \(leapYear) THEN -1 ELSE -2 END"
        let days = "(\(beforeYear) + \(beforeMonth) + \(day) - 1 - 865625)"
        let seconds = "(\(hour) * 3600 + \(minute) * 60 + \(second) - \(offsetSign) * (\(offsetHour) * 60 + \(offsetMinute)) * 60)"
        return "CASE WHEN \(valid(dialect)) THEN \(days) * 86400000 + \(seconds) * 1000 + \(millis) END"
    }

    /// Whether `year` is a leap year.
    private var leapYear: String { "(\(year) % 4 = 0 AND (\(year) % 100 <> 0 OR \(year) % 400 = 0))" }
}

extension SQLInstantParts {
    /// What `ProfileHistory.instant` accepts, as a regular expression: date, time of day and
    /// zone (`Z` or `±HH:MM`), with an optional fraction of any length; `T` and `Z` in either case.
    static func instantPattern(_ dialect: SQLDialect) -> String {
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.][0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})" + dialect.endAnchor
    }

    /// The parts of the text `text`, read by position: only meaningful for a text that matches
    /// `instantPattern` (the caller tests it first, so no cast ever meets a non-digit).
    static func positional(_ text: String, dialect: SQLDialect) -> SQLInstantParts {
        func number(_ start: Int, _ length: Int) -> String { dialect.bigint("substr(\(text), \(start), \(length))") }
        let utc = "right(\(text), 1) IN ('Z', 'z')"
        // The fraction runs from position 21 to the zone: 1 character (`Z`) or 6 (`+05:30`).
        let digits = "length(\(text)) - 20 - CASE WHEN \(utc) THEN 1 ELSE 6 END"
        let millis = "CASE WHEN substr(\(text), 20, 1) = '.' THEN \(dialect.bigint("rpad(substr(\(text), 21, least(3, \(digits))), 3, '0')")) ELSE 0 END"
        let offset = "right(\(text), 5)"
        return SQLInstantParts(
            year: number(1, 4), month: number(6, 2), day: number(9, 2), hour: number(12, 2), minute: number(15, 2), second: number(18, 2),
            millis: millis,
            offsetSign: "CASE WHEN NOT \(utc) AND substr(right(\(text), 6), 1, 1) = '-' THEN -1 ELSE 1 END",
            offsetHour: "CASE WHEN \(utc) THEN 0 ELSE \(dialect.bigint("substr(\(offset), 1, 2)")) END",
            offsetMinute: "CASE WHEN \(utc) THEN 0 ELSE \(dialect.bigint("substr(\(offset), 4, 2)")) END",
            matched: "TRUE")
    }

    /// The same parts named `<prefix>y`, `<prefix>mo`, …: the columns a query selects them as.
    static func columns(prefix p: String) -> SQLInstantParts {
        SQLInstantParts(year: p + "y", month: p + "mo", day: p + "d", hour: p + "h", minute: p + "mi", second: p + "se", millis: p + "fr",
                        offsetSign: p + "sg", offsetHour: p + "oh", offsetMinute: p + "om", matched: p + "ok")
    }

    /// Each part with the name `columns(prefix:)` gives it: (name, expression) pairs.
    func named(prefix: String) -> [(name: String, expression: String)] {
        let names = SQLInstantParts.columns(prefix: prefix)
        return [(names.year, year), (names.month, month), (names.day, day), (names.hour, hour), (names.minute, minute),
                (names.second, second), (names.millis, millis), (names.offsetSign, offsetSign), (names.offsetHour, offsetHour),
                (names.offsetMinute, offsetMinute), (names.matched, matched)]
    }
}
