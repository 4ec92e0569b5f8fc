import TargetingBase

/// A date or an RFC 3339 instant taken apart in SQL (each part an integer expression), and its
/// Unix milliseconds computed from the parts with integer arithmetic only, as `Timestamp.parse`
/// computes them: NULL for a text that did not match or names an impossible date or time.
struct SQLInstantParts {
    var year: SQLExpression
    var month: SQLExpression
    var day: SQLExpression
    var hour: SQLExpression
    var minute: SQLExpression
    var second: SQLExpression
    /// The fraction's first three digits, as milliseconds.
    var millis: SQLExpression
    /// 1, or -1 for a negative offset.
    var offsetSign: SQLExpression
    var offsetHour: SQLExpression
    var offsetMinute: SQLExpression
    /// Whether the text had the shape at all.
    var matched: SQLExpression

    /// Whether the text matched and every part is in range: month 1-12, a day of that month,
    /// hour 0-23, minute and second 0-59, offset hours 0-23 and minutes 0-59.
    var valid: SQLExpression {
        func integer(_ value: Int64) -> SQLExpression { .integer(value) }
        let daysInMonth = SQLExpression.caseWhen(subject: nil, [
            .init(.isIn(month, [1, 3, 5, 7, 8, 10, 12].map(integer)), integer(31)),
            .init(.isIn(month, [4, 6, 9, 11].map(integer)), integer(30)),
            .init(.compare(month, .equal, integer(2)), .caseWhen(subject: nil, [.init(leapYear, integer(29))], otherwise: integer(28))),
        ], otherwise: integer(0))
        return .and([
            matched, .between(month, integer(1), integer(12)), .between(day, integer(1), daysInMonth),
            .compare(hour, .lessOrEqual, integer(23)), .compare(minute, .lessOrEqual, integer(59)), .compare(second, .lessOrEqual, integer(59)),
            .compare(offsetHour, .lessOrEqual, integer(23)), .compare(offsetMinute, .lessOrEqual, integer(59)),
        ])
    }

    /// Unix milliseconds, NULL unless `valid`.
    ///
    /// Days are counted from 1 January of year 0 of the proleptic Gregorian calendar, with the
    /// year moved on by 400 (one whole cycle of leap years, so the same years are leap) to keep
    /// every division of a non-negative number: 365 a year, a leap day for each leap year before
    /// it, the days before the month (`(367 × month − 362) / 12` counts February as 30 days, so
    /// months after it give back 2, or 1 in a leap year), and the day. 1970-01-01 is day 865,625.
    var milliseconds: SQLExpression {
        func integer(_ value: Int64) -> SQLExpression { .integer(value) }
        func sum(_ first: SQLExpression, _ rest: (SQLExpression.Arithmetic, SQLExpression)...) -> SQLExpression {
            rest.reduce(first) { .arithmetic($0, $1.0, $1.1) }
        }
        let shifted = SQLExpression.parenthesized(.arithmetic(year, .plus, integer(400)))
        func quotient(_ add: Int64, _ divisor: Int64) -> SQLExpression { .divide(.arithmetic(shifted, .plus, integer(add)), integer(divisor)) }
        let beforeYear = sum(.arithmetic(integer(365), .times, shifted), (.plus, quotient(3, 4)), (.minus, quotient(99, 100)), (.plus, quotient(399, 400)))
        let february = SQLExpression.caseWhen(subject: nil, [.init(.compare(month, .lessOrEqual, integer(2)), integer(0)), .init(leapYear, integer(-1))],
                                              otherwise: integer(-2))
        let beforeMonth = SQLExpression.arithmetic(.divide(sum(.arithmetic(integer(367), .times, month), (.minus, integer(362))), integer(12)), .plus, february)
        let days = SQLExpression.parenthesized(sum(beforeYear, (.plus, beforeMonth), (.plus, day), (.minus, integer(1)), (.minus, integer(865_625))))
        let offset = SQLExpression.parenthesized(.arithmetic(.arithmetic(offsetHour, .times, integer(60)), .plus, offsetMinute))
        let seconds = SQLExpression.parenthesized(sum(.arithmetic(hour, .times, integer(3600)), (.plus, .arithmetic(minute, .times, integer(60))),
                                                      (.plus, second), (.minus, sum(offsetSign, (.times, offset), (.times, integer(60))))))
        let total = sum(.arithmetic(days, .times, integer(86_400_000)), (.plus, .arithmetic(seconds, .times, integer(1000))), (.plus, millis))
        return .caseWhen(subject: nil, [.init(valid, total)], otherwise: nil)
    }

    /// Whether `year` is a leap year.
    private var leapYear: SQLExpression { SQLInstantParts.isLeapYear(year) }

    /// Whether the year `year` is a leap year: divisible by 4, and not by 100 unless by 400.
    static func isLeapYear(_ year: SQLExpression) -> SQLExpression {
        func divides(_ divisor: Int64, _ comparison: SQLExpression.Comparison) -> SQLExpression {
            .compare(.arithmetic(year, .remainder, .integer(divisor)), comparison, .integer(0))
        }
        return .parenthesized(.and([divides(4, .equal), .parenthesized(.or([divides(100, .notEqual), divides(400, .equal)]))]))
    }
}

extension SQLInstantParts {
    /// What `ProfileHistory.instant` accepts, as a regular expression: date, time of day and
    /// zone (`Z` or `±HH:MM`), with an optional fraction of any length; `T` and `Z` in either case.
    static func instantPattern(_ dialect: SQLDialect) -> String {
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.][0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})" + dialect.endAnchor
    }

    /// The parts of the text `text`, read by position: only meaningful for a text that matches
    /// `instantPattern` (the caller tests it first, so no cast ever meets a non-digit).
    static func positional(_ text: SQLExpression) -> SQLInstantParts {
        func integer(_ value: Int64) -> SQLExpression { .integer(value) }
        func substring(_ of: SQLExpression, _ start: Int64, _ length: SQLExpression) -> SQLExpression { .call("substr", [of, integer(start), length]) }
        func number(_ start: Int64, _ length: Int64) -> SQLExpression { .cast(substring(text, start, integer(length)), .bigint) }
        let utc = SQLExpression.isIn(.suffix(text, 1), [.string("Z"), .string("z")])
        // The fraction runs from position 21 to the zone: 1 character (`Z`) or 6 (`+05:30`).
        let digits = SQLExpression.arithmetic(.arithmetic(.call("length", [text]), .minus, integer(20)), .minus,
                                              .caseWhen(subject: nil, [.init(utc, integer(1))], otherwise: integer(6)))
        let fraction = SQLExpression.call("rpad", [substring(text, 21, .call("least", [integer(3), digits])), integer(3), .string("0")])
        let millis = SQLExpression.caseWhen(subject: nil, [.init(.compare(substring(text, 20, integer(1)), .equal, .string(".")), .cast(fraction, .bigint))],
                                            otherwise: integer(0))
        let offset = SQLExpression.suffix(text, 5)
        let negative = SQLExpression.and([.not(utc), .compare(substring(.suffix(text, 6), 1, integer(1)), .equal, .string("-"))])
        return SQLInstantParts(
            year: number(1, 4), month: number(6, 2), day: number(9, 2), hour: number(12, 2), minute: number(15, 2), second: number(18, 2),
            millis: millis,
            offsetSign: .caseWhen(subject: nil, [.init(negative, integer(-1))], otherwise: integer(1)),
            offsetHour: .caseWhen(subject: nil, [.init(utc, integer(0))], otherwise: .cast(substring(offset, 1, integer(2)), .bigint)),
            offsetMinute: .caseWhen(subject: nil, [.init(utc, integer(0))], otherwise: .cast(substring(offset, 4, integer(2)), .bigint)),
            matched: .bool(true))
    }

    /// The name of each part's column after its prefix, in the order of `parts`.
    private static let suffixes = ["y", "mo", "d", "h", "mi", "se", "fr", "sg", "oh", "om", "ok"]

    /// The parts: year, month, day, hour, minute, second, milliseconds, then the offset's sign,
    /// hours and minutes, then whether the text matched.
    private var parts: [SQLExpression] {
        [year, month, day, hour, minute, second, millis, offsetSign, offsetHour, offsetMinute, matched]
    }

    /// The same parts named `<prefix>y`, `<prefix>mo`, …: the columns a query selects them as.
    static func columns(prefix p: String) -> SQLInstantParts {
        let c = suffixes.map { SQLExpression.column(p + $0) }
        return SQLInstantParts(year: c[0], month: c[1], day: c[2], hour: c[3], minute: c[4], second: c[5], millis: c[6],
                               offsetSign: c[7], offsetHour: c[8], offsetMinute: c[9], matched: c[10])
    }

    /// Each part with the name `columns(prefix:)` gives it: (name, expression) pairs.
    func named(prefix: String) -> [(name: String, expression: SQLExpression)] {
        zip(SQLInstantParts.suffixes, parts).map { (name: prefix + $0, expression: $1) }
    }
}
