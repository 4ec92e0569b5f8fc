/// A proleptic Gregorian calendar date without a time zone.
package struct CivilDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Calendar year (0 is 1 BC in the proleptic Gregorian calendar).
    package var year: Int
    /// Month of the year, 1 through 12.
    package var month: Int
    /// Day of the month, starting at 1.
    package var day: Int

    /// Creates a date from its components without validating them.
    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the date that lies `daysSinceEpoch` days after 1970-01-01 (negative for earlier dates).
    package init(daysSinceEpoch: Int) {
        // Shift the epoch to 0000-03-01 so that leap days fall at the end of each year,
        // then split into 400-year eras of 146,097 days.
        let shifted = Int64(daysSinceEpoch) + 719_468
        let era = Timestamp.floorDiv(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097                                    // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from 1 March
        let shiftedMonth = (5 * dayOfYear + 2) / 153                              // 0...11, March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: Int(year), month: Int(month), day: Int(day))
    }

    /// Parses "YYYY-MM-DD" (four-digit year); returns nil for malformed text or an impossible date.
    package init?(parsing text: String) {
        var text = text
        guard let date = text.withUTF8({ $0.count == 10 ? Timestamp.parseDatePart($0) : nil }) else {
            return nil
        }
        self = date
    }

    /// Number of days from 1970-01-01 to this date (negative for earlier dates).
    package var daysSinceEpoch: Int {
        // Count years from 1 March so that February, with its leap day, comes last.
        let y = Int64(year) - (month <= 2 ? 1 : 0)
        let era = Timestamp.floorDiv(y, 400)
        let yearOfEra = y - era * 400                                             // 0...399
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)               // 0...11, March = 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1             // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Int(era * 146_097 + dayOfEra - 719_468)
    }

    /// True when month is 1-12 and day exists in that month of that year.
    package var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDate.daysInMonth(year: year, month: month)
    }

    /// True when `year` is a Gregorian leap year.
    package static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Number of days in `month` (1-12) of `year`; 0 for a month outside 1-12.
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12:
            return 31
        case 4, 6, 9, 11:
            return 30
        case 2:
            return isLeapYear(year) ? 29 : 28
        default:
            return 0
        }
    }

    /// "YYYY-MM-DD", the year padded to at least four digits.
    package var description: String {
        let yearText = year < 0
            ? "-" + Timestamp.pad(-year, width: 4)
            : Timestamp.pad(year, width: 4)
        return "\(yearText)-\(Timestamp.pad(month, width: 2))-\(Timestamp.pad(day, width: 2))"
    }

    /// Chronological order.
    package static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// Instants as Int64 Unix milliseconds, with UTC calendar arithmetic done by hand.
package enum Timestamp {
    /// Milliseconds in one day.
    package static let msPerDay: Int64 = 86_400_000

    /// Parses "YYYY-MM-DD" (00:00 UTC) or RFC 3339 "YYYY-MM-DDTHH:MM:SS[.f+](Z|±HH:MM)" to Unix ms. Fraction: any number of digits, truncated to the millisecond. 'T' and 'Z' also accepted in lowercase. Validates month 1-12, day within the month (leap years), hour 0-23, minute 0-59, second 0-59, offset hours 0-23 minutes 0-59. Year 0000-9999. Returns nil when invalid.
    package static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse(_:)` for text given as its UTF-8 bytes.
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count >= 10, let date = parseDatePart(bytes) else {
            return nil
        }
        let midnight = Int64(date.daysSinceEpoch) * msPerDay
        if bytes.count == 10 {
            return midnight
        }

        // Time of day: "THH:MM:SS" at offsets 10...18.
        guard bytes.count >= 20,
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let hour = number(bytes, 11, 2), hour <= 23,
              let minute = number(bytes, 14, 2), minute <= 59,
              let second = number(bytes, 17, 2), second <= 59
        else {
            return nil
        }

        var index = 19
        var millis = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) {
                if index - start < 3 {
                    millis = millis * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                }
                index += 1
            }
            let digits = index - start
            guard digits > 0 else {
                return nil
            }
            for _ in digits..<max(digits, 3) {
                millis *= 10
            }
        }

        // Zone: "Z" or "±HH:MM", and nothing after it.
        guard index < bytes.count else {
            return nil
        }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else {
                return nil
            }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count,
                  bytes[index + 3] == UInt8(ascii: ":"),
                  let offsetHour = number(bytes, index + 1, 2), offsetHour <= 23,
                  let offsetMinute = number(bytes, index + 4, 2), offsetMinute <= 59
            else {
                return nil
            }
            offsetMinutes = offsetHour * 60 + offsetMinute
            if bytes[index] == UInt8(ascii: "-") {
                offsetMinutes = -offsetMinutes
            }
        default:
            return nil
        }

        let localSeconds = Int64(hour * 3_600 + minute * 60 + second)
        return midnight + (localSeconds - Int64(offsetMinutes) * 60) * 1_000 + Int64(millis)
    }

    /// Parses only "YYYY-MM-DD" to Unix ms at 00:00 UTC.
    package static func parseDate(_ text: String) -> Int64? {
        guard let date = CivilDate(parsing: text) else {
            return nil
        }
        return Int64(date.daysSinceEpoch) * msPerDay
    }

    /// Formats Unix ms as RFC 3339 UTC: "2026-11-29T12:00:00Z", or "2026-11-29T12:00:00.250Z" when ms != 0.
    package static func format(_ ms: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: Int(floorDiv(ms, msPerDay)))
        let msOfDay = floorMod(ms, msPerDay)
        let seconds = Int(msOfDay / 1_000)
        let millis = Int(msOfDay % 1_000)
        guard (0...9_999).contains(date.year) else {
            var text = "\(date)T\(pad(seconds / 3_600, width: 2)):\(pad(seconds / 60 % 60, width: 2)):\(pad(seconds % 60, width: 2))"
            if millis != 0 {
                text += "." + pad(millis, width: 3)
            }
            return text + "Z"
        }
        // Four-digit years, the common case: written digit by digit into one buffer.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func digits(_ value: Int, _ width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            digits(date.year, 4); put(UInt8(ascii: "-")); digits(date.month, 2); put(UInt8(ascii: "-")); digits(date.day, 2)
            put(UInt8(ascii: "T")); digits(seconds / 3_600, 2); put(UInt8(ascii: ":")); digits(seconds / 60 % 60, 2)
            put(UInt8(ascii: ":")); digits(seconds % 60, 2)
            if millis != 0 {
                put(UInt8(ascii: ".")); digits(millis, 3)
            }
            put(UInt8(ascii: "Z"))
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }

    /// Formats the UTC calendar date of Unix ms as "YYYY-MM-DD".
    package static func formatDate(_ ms: Int64) -> String {
        civilDate(ms: ms).description
    }

    /// Calendar date (in the time zone given as a fixed offset in seconds east of UTC, default 0) of an instant.
    package static func civilDate(ms: Int64, offsetSeconds: Int = 0) -> CivilDate {
        // Split first so that adding the offset cannot overflow near the ends of Int64.
        let shifted = floorMod(ms, msPerDay) + Int64(offsetSeconds) * 1_000
        return CivilDate(daysSinceEpoch: Int(floorDiv(ms, msPerDay) + floorDiv(shifted, msPerDay)))
    }

    /// Whole years from a birthday to the UTC calendar date of `now`. A 29 February birthday counts from 1 March in non-leap years. Negative if birthday is after now's date.
    package static func age(birthday: CivilDate, nowMs: Int64) -> Int {
        let today = civilDate(ms: nowMs)
        var anniversary = (month: birthday.month, day: birthday.day)
        if birthday.month == 2, birthday.day == 29, !CivilDate.isLeapYear(today.year) {
            anniversary = (month: 3, day: 1)
        }
        var years = today.year - birthday.year
        if (today.month, today.day) < anniversary {
            years -= 1
        }
        return years
    }

    /// floor((now - installedAt) / 24h) in whole days; negative when installedAt is in the future.
    package static func daysBetween(fromMs: Int64, toMs: Int64) -> Int {
        // Work on day numbers and in-day remainders separately to avoid overflowing toMs - fromMs.
        let wholeDays = floorDiv(toMs, msPerDay) - floorDiv(fromMs, msPerDay)
        return Int(wholeDays + (floorMod(toMs, msPerDay) < floorMod(fromMs, msPerDay) ? -1 : 0))
    }

    // MARK: - Arithmetic and scanning

    /// `ms + offset`, held at the ends of Int64 where the sum would overflow (`now + 106751991167d`).
    ///
    /// Stored instants lie far inside Int64, so an instant held at an end still compares with every
    /// one of them as the exact sum would.
    @inlinable
    package static func shifted(_ ms: Int64, by offset: Int64) -> Int64 {
        let (sum, overflow) = ms.addingReportingOverflow(offset)
        return overflow ? (offset > 0 ? .max : .min) : sum
    }

    /// Division rounding towards negative infinity.
    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Remainder of floor division: always in 0..<b for positive b.
    package static func floorMod(_ a: Int64, _ b: Int64) -> Int64 {
        let r = a % b
        return (r != 0 && (r < 0) != (b < 0)) ? r + b : r
    }

    /// `parse(utf8:)` for exactly `YYYY-MM-DDTHH:MM:SSZ`, the form `format` writes for whole
    /// seconds (as a store's histories hold them), read in one pass; nil for anything else,
    /// valid in another form or not.
    package static func parseWholeSecondsUTC(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 20, let p = bytes.baseAddress,
              p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: "T"),
              p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "Z") else { return nil }
        var notDigit: UInt8 = 0
        @inline(__always) func digits(_ start: Int, _ count: Int) -> Int {
            var value = 0
            for offset in start..<(start + count) {
                let digit = p[offset] &- UInt8(ascii: "0")
                notDigit |= digit > 9 ? 1 : 0
                value = value &* 10 &+ Int(digit)
            }
            return value
        }
        let year = digits(0, 4), month = digits(5, 2), day = digits(8, 2)
        let hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2)
        guard notDigit == 0, (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = Int64(CivilDate(year: year, month: month, day: day).daysSinceEpoch)
        return days * msPerDay + Int64(hour * 3_600 + minute * 60 + second) * 1_000
    }

    /// Parses "YYYY-MM-DD" from the first ten bytes and validates the date.
    static func parseDatePart(_ bytes: UnsafeBufferPointer<UInt8>) -> CivilDate? {
        guard bytes.count >= 10,
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes, 0, 4),
              let month = number(bytes, 5, 2),
              let day = number(bytes, 8, 2)
        else {
            return nil
        }
        let date = CivilDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// Reads exactly `count` ASCII digits at `start`; nil if any is missing or not a digit.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count, let base = bytes.baseAddress else {
            return nil
        }
        var value = 0
        for offset in 0..<count {
            let digit = base[start + offset] &- UInt8(ascii: "0")
            guard digit < 10 else {
                return nil
            }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }

    /// True for an ASCII decimal digit.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Decimal text of a non-negative number, left-padded with zeros to `width`.
    static func pad(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
