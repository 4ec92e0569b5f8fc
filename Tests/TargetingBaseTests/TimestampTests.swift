import XCTest
@testable import TargetingBase

final class TimestampTests: XCTestCase {
    private let day: Int64 = 86_400_000

    // MARK: - Parsing

    func testEpoch() {
        XCTAssertEqual(Timestamp.parse("1970-01-01"), 0)
        XCTAssertEqual(Timestamp.parse("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(Timestamp.parseDate("1970-01-01"), 0)
        XCTAssertEqual(Timestamp.format(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.formatDate(0), "1970-01-01")
        XCTAssertEqual(CivilDate(daysSinceEpoch: 0), CivilDate(year: 1970, month: 1, day: 1))
        XCTAssertEqual(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch, 0)
    }

    func testKnownInstants() {
        // Expected values computed with Python's datetime (timestamp() * 1000).
        XCTAssertEqual(Timestamp.parse("2026-11-29T12:00:00Z"), 1_795_953_600_000)
        XCTAssertEqual(Timestamp.parse("1990-06-15"), 645_408_000_000)
        XCTAssertEqual(Timestamp.parse("1900-01-01T00:00:00Z"), -2_208_988_800_000)
        XCTAssertEqual(Timestamp.parse("1600-03-01"), -11_670_912_000_000)
        XCTAssertEqual(Timestamp.parse("0000-01-01T00:00:00Z"), -62_167_219_200_000)
        XCTAssertEqual(Timestamp.parse("9999-12-31T23:59:59.999Z"), 253_402_300_799_999)
        XCTAssertEqual(Timestamp.parse("1969-12-31T23:59:59.999Z"), -1)
    }

    func testLeapDays() {
        XCTAssertEqual(Timestamp.parse("2024-02-29"), 1_709_164_800_000)
        XCTAssertEqual(Timestamp.parse("2000-02-29T00:00:00Z"), 951_782_400_000)
        XCTAssertNil(Timestamp.parse("2023-02-29"))
        XCTAssertNil(Timestamp.parse("1900-02-29"))
        XCTAssertNil(Timestamp.parseDate("2023-02-29"))
        XCTAssertNil(Timestamp.parse("2024-02-30"))
        XCTAssertNotNil(Timestamp.parse("0000-02-29"))  // year 0 is divisible by 400
        XCTAssertTrue(CivilDate.isLeapYear(2024))
        XCTAssertTrue(CivilDate.isLeapYear(2000))
        XCTAssertFalse(CivilDate.isLeapYear(1900))
        XCTAssertFalse(CivilDate.isLeapYear(2023))
        XCTAssertEqual(Timestamp.parse("2024-03-01")! - Timestamp.parse("2024-02-28")!, 2 * day)
        XCTAssertEqual(Timestamp.parse("2023-03-01")! - Timestamp.parse("2023-02-28")!, day)
    }

    func testOffsets() {
        XCTAssertEqual(Timestamp.parse("2026-11-30T23:59:59+02:00"), 1_796_075_999_000)
        XCTAssertEqual(Timestamp.parse("2026-11-30T23:59:59+02:00"), Timestamp.parse("2026-11-30T21:59:59Z"))
        XCTAssertEqual(Timestamp.parse("2026-11-29T00:00:00-05:30"), 1_795_930_200_000)
        XCTAssertEqual(Timestamp.parse("2026-11-29T00:00:00-05:30"), Timestamp.parse("2026-11-29T05:30:00Z"))
        XCTAssertEqual(Timestamp.parse("2026-11-29T00:00:00+00:00"), Timestamp.parse("2026-11-29T00:00:00Z"))
        XCTAssertEqual(Timestamp.parse("2026-11-29T00:00:00-00:00"), Timestamp.parse("2026-11-29"))
        XCTAssertEqual(Timestamp.parse("2026-01-01T00:30:00+23:59"), Timestamp.parse("2025-12-31T00:31:00Z"))
        XCTAssertNil(Timestamp.parse("2026-11-29T00:00:00+24:00"))
        XCTAssertNil(Timestamp.parse("2026-11-29T00:00:00+02:60"))
        XCTAssertNil(Timestamp.parse("2026-11-29T00:00:00+0200"))
        XCTAssertNil(Timestamp.parse("2026-11-29T00:00:00+2:00"))
        XCTAssertNil(Timestamp.parse("2026-11-29T00:00:00+02"))
    }

    func testLowercaseSeparators() {
        XCTAssertEqual(Timestamp.parse("2026-11-29t12:00:00z"), 1_795_953_600_000)
        XCTAssertEqual(Timestamp.parse("2026-11-29t12:00:00+01:00"), 1_795_950_000_000)
    }

    func testFractions() {
        let base: Int64 = 1_795_953_600_000  // 2026-11-29T12:00:00Z
        let cases: [(String, Int64)] = [
            ("5", 500), ("25", 250), ("250", 250), ("2509", 250), ("12345", 123),
            ("999999", 999), ("0000001", 0), ("12345678", 123), ("987654321", 987),
            ("000", 0), ("001", 1), ("1", 100),
        ]
        for (fraction, millis) in cases {
            XCTAssertEqual(Timestamp.parse("2026-11-29T12:00:00.\(fraction)Z"), base + millis, fraction)
        }
        XCTAssertEqual(Timestamp.parse("2026-11-29T14:00:00.75+02:00"), base + 750)
        // Truncation (not rounding) also holds before 1970.
        XCTAssertEqual(Timestamp.parse("1969-12-31T23:59:59.9999Z"), -1)
        XCTAssertNil(Timestamp.parse("2026-11-29T12:00:00.Z"))
        XCTAssertNil(Timestamp.parse("2026-11-29T12:00:00.5"))
        XCTAssertNil(Timestamp.parse("2026-11-29T12:00:00,5Z"))
    }

    func testInvalidInputs() {
        let invalid = [
            "", "2026", "2026-11", "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-31", "2026-04-31",
            "2026-11-30T24:00:00Z", "2026-11-30T23:60:00Z", "2026-11-30T23:59:60Z",
            "2026-11-30T12:00:00", "2026-11-30T12:00Z", "2026-11-30 12:00:00Z", "2026-11-30T12:00:00ZZ",
            "2026-11-30T12:00:00Z ", "2026-11-30x", "2026-11-30T", " 2026-11-30", "2026-1-01", "2026-01-1",
            "26-01-01", "+2026-01-01", "-2026-01-01", "12026-01-01", "2026/11/30", "2026-11-30T1:00:00Z",
            "2026-11-30T12:00:00.5Zjunk", "2026-11-30T12:00:00+02:00junk", "\u{FF12}026-11-30",
            "2026-11-30T12:00:00.\u{FF15}Z",
        ]
        for text in invalid {
            XCTAssertNil(Timestamp.parse(text), "\"\(text)\" should not parse")
        }
    }

    func testParseDateAcceptsOnlyDates() {
        XCTAssertEqual(Timestamp.parseDate("2026-11-29"), 1_795_910_400_000)
        XCTAssertNil(Timestamp.parseDate("2026-11-29T00:00:00Z"))
        XCTAssertNil(Timestamp.parseDate("2026-11-31"))
        XCTAssertNil(Timestamp.parseDate("2026-1-01"))
        XCTAssertEqual(CivilDate(parsing: "2024-02-29"), CivilDate(year: 2024, month: 2, day: 29))
        XCTAssertNil(CivilDate(parsing: "2023-02-29"))
    }

    // MARK: - Formatting

    func testFormat() {
        XCTAssertEqual(Timestamp.format(1_795_953_600_000), "2026-11-29T12:00:00Z")
        XCTAssertEqual(Timestamp.format(1_795_953_600_250), "2026-11-29T12:00:00.250Z")
        XCTAssertEqual(Timestamp.format(1_795_953_600_007), "2026-11-29T12:00:00.007Z")
        XCTAssertEqual(Timestamp.format(-1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp.format(-2_208_988_800_000), "1900-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.format(-62_167_219_200_000), "0000-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.format(253_402_300_799_999), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp.formatDate(1_795_953_600_000), "2026-11-29")
        XCTAssertEqual(Timestamp.formatDate(-1), "1969-12-31")
        XCTAssertEqual(Timestamp.formatDate(645_408_000_000), "1990-06-15")
    }

    func testFormatRoundTrips() {
        let texts = [
            "1970-01-01T00:00:00Z", "2026-11-29T12:00:00Z", "2026-11-29T12:00:00.250Z", "2024-02-29T23:59:59.999Z",
            "2000-02-29T00:00:00.001Z", "1969-12-31T23:59:59Z", "1900-03-01T06:07:08.090Z", "0001-01-01T00:00:00Z",
            "0000-02-29T12:34:56Z", "9999-12-31T23:59:59Z",
        ]
        for text in texts {
            guard let ms = Timestamp.parse(text) else {
                XCTFail("\(text) should parse")
                continue
            }
            XCTAssertEqual(Timestamp.format(ms), text)
        }
        // Arbitrary instants, including ones before 1970, survive format -> parse.
        var ms: Int64 = -62_167_219_200_000
        while ms < 253_402_300_799_999 {
            XCTAssertEqual(Timestamp.parse(Timestamp.format(ms)), ms, "\(ms)")
            ms += 987_654_321_987
        }
    }

    func testCivilDateConversionBothWays() {
        XCTAssertEqual(CivilDate(daysSinceEpoch: -1), CivilDate(year: 1969, month: 12, day: 31))
        XCTAssertEqual(CivilDate(daysSinceEpoch: 11_016), CivilDate(year: 2000, month: 2, day: 29))
        XCTAssertEqual(CivilDate(year: 2000, month: 3, day: 1).daysSinceEpoch, 11_017)
        XCTAssertEqual(CivilDate(year: 1, month: 1, day: 1).daysSinceEpoch, -719_162)
        XCTAssertEqual(CivilDate(year: 0, month: 1, day: 1).daysSinceEpoch, -719_528)
        // Consecutive day numbers give consecutive, valid dates across several 400-year eras.
        var previous = CivilDate(daysSinceEpoch: -800_000)
        XCTAssertEqual(previous.daysSinceEpoch, -800_000)
        for days in stride(from: -799_999, through: 800_000, by: 1) {
            let date = CivilDate(daysSinceEpoch: days)
            XCTAssertTrue(date.isValid)
            XCTAssertLessThan(previous, date)
            if date.daysSinceEpoch != days {
                XCTFail("round trip failed at \(days)")
                break
            }
            previous = date
        }
    }

    func testCivilDateDescriptionAndOrder() {
        XCTAssertEqual(CivilDate(year: 2026, month: 3, day: 7).description, "2026-03-07")
        XCTAssertEqual(CivilDate(year: 33, month: 12, day: 1).description, "0033-12-01")
        XCTAssertLessThan(CivilDate(year: 2026, month: 1, day: 31), CivilDate(year: 2026, month: 2, day: 1))
        XCTAssertLessThan(CivilDate(year: 2025, month: 12, day: 31), CivilDate(year: 2026, month: 1, day: 1))
        XCTAssertFalse(CivilDate(year: 2026, month: 13, day: 1).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 11, day: 31).isValid)
    }

    func testCivilDateWithOffset() {
        let instant = Timestamp.parse("2026-11-30T23:30:00Z")!
        XCTAssertEqual(Timestamp.civilDate(ms: instant), CivilDate(year: 2026, month: 11, day: 30))
        XCTAssertEqual(Timestamp.civilDate(ms: instant, offsetSeconds: 3_600), CivilDate(year: 2026, month: 12, day: 1))
        XCTAssertEqual(Timestamp.civilDate(ms: instant, offsetSeconds: -86_400), CivilDate(year: 2026, month: 11, day: 29))
        let early = Timestamp.parse("2027-01-01T00:30:00Z")!
        XCTAssertEqual(Timestamp.civilDate(ms: early, offsetSeconds: -3_600), CivilDate(year: 2026, month: 12, day: 31))
        XCTAssertEqual(Timestamp.civilDate(ms: -1), CivilDate(year: 1969, month: 12, day: 31))
        XCTAssertEqual(Timestamp.civilDate(ms: 645_408_000_000), CivilDate(year: 1990, month: 6, day: 15))
        XCTAssertEqual(Timestamp.civilDate(ms: 645_408_000_000 - 1), CivilDate(year: 1990, month: 6, day: 14))
    }

    // MARK: - Age and day counts

    func testAge() {
        let now = Timestamp.parse("2026-11-29T12:00:00Z")!
        XCTAssertEqual(Timestamp.age(birthday: CivilDate(year: 1990, month: 6, day: 15), nowMs: now), 36)
        XCTAssertEqual(Timestamp.age(birthday: CivilDate(year: 1990, month: 12, day: 15), nowMs: now), 35)

        let born = CivilDate(year: 2008, month: 11, day: 29)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2026-11-29T00:00:00Z")!), 18)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2026-11-28T23:59:00Z")!), 17)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2026-11-28T23:59:59.999Z")!), 17)
        // The UTC date counts, not the local one: 2026-11-29T01:00+02:00 is still 28 November in UTC.
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2026-11-29T01:00:00+02:00")!), 17)
    }

    func testLeapDayBirthday() {
        let born = CivilDate(year: 2008, month: 2, day: 29)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2026-02-28")!), 17)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2026-03-01")!), 18)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2028-02-28")!), 19)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2028-02-29")!), 20)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("2008-02-29")!), 0)
    }

    func testAgeIsNegativeForFutureBirthday() {
        let now = Timestamp.parse("2026-11-29")!
        XCTAssertEqual(Timestamp.age(birthday: CivilDate(year: 2026, month: 11, day: 29), nowMs: now), 0)
        XCTAssertEqual(Timestamp.age(birthday: CivilDate(year: 2026, month: 11, day: 30), nowMs: now), -1)
        XCTAssertLessThan(Timestamp.age(birthday: CivilDate(year: 2030, month: 1, day: 1), nowMs: now), 0)
    }

    func testAgeBeforeEpoch() {
        let born = CivilDate(year: 1950, month: 1, day: 1)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("1960-01-01")!), 10)
        XCTAssertEqual(Timestamp.age(birthday: born, nowMs: Timestamp.parse("1959-12-31T23:59:59Z")!), 9)
    }

    func testDaysBetween() {
        let installed = Timestamp.parse("2026-11-01T10:00:00Z")!
        XCTAssertEqual(Timestamp.daysBetween(fromMs: installed, toMs: installed), 0)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: installed, toMs: installed + day - 1), 0)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: installed, toMs: installed + day), 1)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: installed, toMs: Timestamp.parse("2026-11-29T09:59:59Z")!), 27)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: installed, toMs: Timestamp.parse("2026-11-29T10:00:00Z")!), 28)
    }

    func testDaysBetweenFloorsNegatives() {
        let now = Timestamp.parse("2026-11-29T12:00:00Z")!
        XCTAssertEqual(Timestamp.daysBetween(fromMs: now + 1, toMs: now), -1)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: now + day, toMs: now), -1)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: now + day + 1, toMs: now), -2)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: 1, toMs: -1), -1)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: -day - 1, toMs: 0), 1)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: -1, toMs: 0), 0)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: 0, toMs: -day), -1)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: 0, toMs: -day - 1), -2)
    }

    func testDaysBetweenExtremesDoNotOverflow() {
        // Expected values computed with Python: (b - a) // 86400000 on unbounded integers.
        XCTAssertEqual(Timestamp.daysBetween(fromMs: Int64.min, toMs: Int64.max), 213_503_982_334)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: Int64.max, toMs: Int64.min), -213_503_982_335)
        XCTAssertEqual(Timestamp.daysBetween(fromMs: 0, toMs: Int64.max), 106_751_991_167)
    }

    func testLargeRangeAgreesWithPlainArithmetic() {
        // For moderate values, the split computation equals floor((to - from) / day).
        let samples: [Int64] = [-3 * day - 5, -day, -1, 0, 1, day - 1, day, 5 * day + 17, 1_795_953_600_000]
        for from in samples {
            for to in samples {
                let difference = to - from
                let expected = difference >= 0 ? difference / day : -((-difference + day - 1) / day)
                XCTAssertEqual(Timestamp.daysBetween(fromMs: from, toMs: to), Int(expected), "\(from) -> \(to)")
            }
        }
    }

    func testFormattingAndCivilDateAtInt64Limits() {
        // Must not trap; the exact text is of no practical interest beyond being well formed.
        XCTAssertTrue(Timestamp.format(Int64.max).hasSuffix(".807Z"))
        XCTAssertTrue(Timestamp.format(Int64.min).hasSuffix(".192Z"))
        XCTAssertTrue(Timestamp.civilDate(ms: Int64.min).isValid)
        XCTAssertTrue(Timestamp.civilDate(ms: Int64.max, offsetSeconds: 86_400).isValid)
    }

    func testFloorDivisionAndModulo() {
        XCTAssertEqual(Timestamp.floorDiv(-1, 10), -1)
        XCTAssertEqual(Timestamp.floorDiv(-10, 10), -1)
        XCTAssertEqual(Timestamp.floorDiv(-11, 10), -2)
        XCTAssertEqual(Timestamp.floorDiv(9, 10), 0)
        XCTAssertEqual(Timestamp.floorMod(-1, 10), 9)
        XCTAssertEqual(Timestamp.floorMod(-10, 10), 0)
        XCTAssertEqual(Timestamp.floorMod(Int64.min, 86_400_000), 60_424_192)  // Python: -2**63 % 86400000
    }

    func testTheWholeSecondsFormReadsAsTheGeneralParserReadsIt() {
        func whole(_ text: String) -> Int64? {
            var text = text
            return text.withUTF8 { Timestamp.parseWholeSecondsUTC($0) }
        }
        var state: UInt64 = 20_261_205
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Whole seconds from 0000-01-01 to the end of 9999.
            let seconds = Int64(state >> 24) % 315_537_897_600 - 62_167_219_200
            let text = Timestamp.format(seconds * 1_000)
            XCTAssertEqual(whole(text), seconds * 1_000, text)
            XCTAssertEqual(whole(text), Timestamp.parse(text), text)
        }
        // Valid in another form, or not valid: left to the general parser.
        for text in ["2026-12-01T10:00:00.5Z", "2026-12-01t10:00:00Z", "2026-12-01T10:00:00z", "2026-12-01T10:00:00+00:00",
                     "2026-02-29T10:00:00Z", "2026-13-01T10:00:00Z", "2026-12-00T10:00:00Z", "2026-12-01T24:00:00Z",
                     "2026-12-01T10:60:00Z", "2026-12-01T10:00:60Z", "2026-12-01 10:00:00Z", "2026-1a-01T10:00:00Z",
                     "2026-12-01T10:00:0\u{0}Z", "2026-12-01"] {
            XCTAssertNil(whole(text), text)
        }
        XCTAssertEqual(whole("2024-02-29T23:59:59Z"), Timestamp.parse("2024-02-29T23:59:59Z"))
        XCTAssertEqual(whole("0000-01-01T00:00:00Z"), Timestamp.parse("0000-01-01T00:00:00Z"))
    }
}
