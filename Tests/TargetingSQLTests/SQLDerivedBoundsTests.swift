import XCTest
@testable import TargetingBase
@testable import TargetingProfiles
@testable import TargetingSQL

/// A test of `profile.age` or `profile.days_since_install` is a comparison of the source date
/// with a bound: the bounds must give exactly the values `BuiltinField.Derivation.value` gives.
final class SQLDerivedBoundsTests: XCTestCase {
    /// Instants of evaluation around the edges of the calendar: leap days, month and year ends.
    private let nows: [Int64] = ["2024-02-29T00:00:00Z", "2024-02-28T23:59:59.999Z", "2025-02-28T12:00:00Z", "2025-03-01T00:00:00Z",
                                 "2026-12-31T23:59:59.999Z", "2027-01-01T00:00:00Z", "2100-02-28T06:00:00Z", "2000-02-29T18:30:00Z"]
        .map { Timestamp.parse($0)! }

    func testAnAgeIsAtLeastNExactlyForBirthdaysUpToTheBound() {
        for now in nows {
            let bounds = SQLDerivedBounds(rule: .wholeYears, now: now)
            let today = Timestamp.civilDate(ms: now)
            // Birthdays on each day around the anniversaries of three ages, at two times of day.
            for years in [0, 17, 18, 24, 100] {
                let anniversary = CivilDate(year: today.year - years, month: today.month, day: min(today.day, 28)).daysSinceEpoch
                for day in (anniversary - 40)...(anniversary + 40) {
                    for time: Int64 in [0, Timestamp.msPerDay - 1] {
                        let source = Int64(day) * Timestamp.msPerDay + time
                        let age = BuiltinField.Derivation.wholeYears.value(sourceMs: source, nowMs: now)
                        for n in Int64(years - 2)...Int64(years + 2) {
                            XCTAssertEqual(age >= n, source <= bounds.atLeast(n),
                                           "now \(Timestamp.format(now)), born \(Timestamp.format(source)), age \(age), n \(n)")
                        }
                    }
                }
            }
        }
    }

    func testDaysSinceAnInstantAreAtLeastNExactlyForInstantsUpToTheBound() {
        for now in nows {
            let bounds = SQLDerivedBounds(rule: .wholeDays, now: now)
            for n: Int64 in [-2, -1, 0, 1, 7, 30, 365] {
                let edge = now - n * Timestamp.msPerDay
                for source in [edge - Timestamp.msPerDay, edge - 1, edge, edge + 1, edge + Timestamp.msPerDay / 2] {
                    let days = BuiltinField.Derivation.wholeDays.value(sourceMs: source, nowMs: now)
                    XCTAssertEqual(days >= n, source <= bounds.atLeast(n), "now \(now), source \(source), n \(n)")
                }
            }
        }
    }

    func testEachTestOfTheNumberIsItsBoundsOnTheSource() {
        let now = Timestamp.parse("2026-11-30T12:00:00Z")!
        let bounds = SQLDerivedBounds(rule: .wholeYears, now: now)
        let born = (1990...2030).map { Int64(CivilDate(year: $0, month: 11, day: 30).daysSinceEpoch) * Timestamp.msPerDay }
            + (1990...2030).map { Int64(CivilDate(year: $0, month: 12, day: 1).daysSinceEpoch) * Timestamp.msPerDay }
        func passes(_ terms: SQLDerivedBounds.Terms, _ source: Int64) -> Bool {
            guard let terms else { return false }
            return terms.allSatisfy { comparison, bound in
                switch comparison {
                case .lessOrEqual: source <= bound
                case .greater: source > bound
                case .less: source < bound
                case .greaterOrEqual: source >= bound
                case .equal: source == bound
                case .notEqual: source != bound
                }
            }
        }
        for source in born {
            let age = Double(BuiltinField.Derivation.wholeYears.value(sourceMs: source, nowMs: now))
            for x in [-1.5, 0, 17.5, 18, 18.2, 30, 36.9] {
                XCTAssertEqual(passes(bounds.order(.greaterOrEqual, x), source), age >= x)
                XCTAssertEqual(passes(bounds.order(.greater, x), source), age > x)
                XCTAssertEqual(passes(bounds.order(.lessOrEqual, x), source), age <= x)
                XCTAssertEqual(passes(bounds.order(.less, x), source), age < x)
                XCTAssertEqual(passes(bounds.equals(x), source), age == x, "age \(age) == \(x)")
                XCTAssertEqual(passes(bounds.between(x, x + 10), source), age >= x && age <= x + 10)
            }
        }
    }

    func testABoundBeyondTheDatesATableHoldsIsAComparisonWithTheFirstDate() {
        let literals = SQLDateLiterals(dialect: .postgres)
        let first = SQLExpression.instant(SQLDialect.postgres.instantRange.lowerBound)
        XCTAssertEqual(literals.compare(.column("v"), .lessOrEqual, Int64.max, form: .instant), .parenthesized(.compare(.column("v"), .greaterOrEqual, first)))
        XCTAssertEqual(literals.compare(.column("v"), .lessOrEqual, Int64.min, form: .instant), .parenthesized(.compare(.column("v"), .less, first)))
        XCTAssertEqual(literals.compare(.column("v"), .greater, Int64.min, form: .instant), .parenthesized(.compare(.column("v"), .greaterOrEqual, first)))
        // A date stands for its midnight: `d < noon` is `d <= that day`, `d == noon` is never.
        let noon = Timestamp.parse("2026-11-30T12:00:00Z")!
        let day = Timestamp.floorDiv(noon, Timestamp.msPerDay)
        XCTAssertEqual(literals.compare(.column("v"), .less, noon, form: .calendarDate), .parenthesized(.compare(.column("v"), .less, .calendarDate(day + 1))))
        XCTAssertEqual(literals.compare(.column("v"), .greater, noon, form: .calendarDate), .parenthesized(.compare(.column("v"), .greater, .calendarDate(day))))
        let firstDay = SQLExpression.calendarDate(Timestamp.floorDiv(SQLDialect.postgres.instantRange.lowerBound, Timestamp.msPerDay))
        XCTAssertEqual(literals.compare(.column("v"), .equal, noon, form: .calendarDate), .parenthesized(.compare(.column("v"), .less, firstDay)))
    }
}
