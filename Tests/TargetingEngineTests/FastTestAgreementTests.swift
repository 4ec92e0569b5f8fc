import Foundation
import XCTest
@testable import Targeting
@testable import TargetingBase
@testable import TargetingEngine
@testable import TargetingProfiles
import TargetingSyntax
import TargetingTestSupport

/// The flat path's plain tests (`FastTest`) give the general path's answer
/// (`Evaluator.compare` through `CompiledTest.outcome`) for every kind of test, on slots of every
/// type, negated or not, over edge values: absent, null and mistyped values, ±0, huge and tiny
/// doubles, integers near 2^53, empty text, case folding with non-ASCII letters, pre-release and
/// build versions, dates at the epoch and far in the future, `now`-relative dates, sets with and
/// without the element, patterns.
final class FastTestAgreementTests: XCTestCase {
    static let nows: [Int64] = [0, 1_796_040_000_000]

    // MARK: Every kind

    /// The kinds of `CompiledTest.Kind`, by name.
    enum KindName: CaseIterable {
        case stringEquals, stringIn, contains, startsWith, endsWith, matches, numberEquals, numberOrder, numberBetween, numberIn,
             boolEquals, dateEquals, dateOrder, dateBetween, versionEquals, versionOrder, versionBetween, versionIn, has, hasAny,
             hasAll, hasNone, presence
    }

    /// The name of `kind`'s test (no `default:`, so a new test does not compile until named).
    static func name(_ kind: CompiledTest.Kind) -> KindName {
        switch kind {
        case .text(let test, _):
            switch test {
            case .equals: .stringEquals
            case .isIn: .stringIn
            case .contains: .contains
            case .startsWith: .startsWith
            case .endsWith: .endsWith
            case .matches: .matches
            }
        case .number(let test):
            switch test {
            case .equals: .numberEquals
            case .order: .numberOrder
            case .between: .numberBetween
            case .isIn: .numberIn
            }
        case .bool: .boolEquals
        case .date(let test):
            switch test {
            case .equals: .dateEquals
            case .order: .dateOrder
            case .between: .dateBetween
            }
        case .version(let test):
            switch test {
            case .equals: .versionEquals
            case .order: .versionOrder
            case .between: .versionBetween
            case .isIn: .versionIn
            }
        case .members(let test, _):
            switch test {
            case .has: .has
            case .hasAny: .hasAny
            case .hasAll: .hasAll
            case .hasNone: .hasNone
            }
        case .presence: .presence
        }
    }

    static let orderings: [Ordering] = [.less, .lessOrEqual, .greater, .greaterOrEqual]
    /// Text literals: empty, ASCII, precomposed and decomposed accents, letters whose lowercase
    /// differs outside ASCII (Ä, Σ/ς, ß, İ, the titlecase ǅ).
    static let texts = ["", "pro", "Pro", "\u{E9}", "e\u{301}", "\u{C4}\u{D6}\u{DC}", "\u{3A3}\u{3C3}\u{3C2}", "stra\u{DF}e", "\u{130}stanbul",
                        "\u{1C5}", "x", "c5"]
    /// 70 literals: ids past 64 leave the literal mask, so the general form takes over.
    static let wide = (0..<70).map { "c\($0)" }
    static let numbers: [Double] = [0, -0.0, 1, -1, 0.1, 2, 1e308, -1e308, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 9_007_199_254_740_992, 9_007_199_254_740_991,
                                    9_007_199_254_740_994, -9_007_199_254_740_992, 1_796_040_000_000]
    static let day: Int64 = 86_400_000
    static let instants: [DateOperand] = [.fixed(0), .fixed(-1), .fixed(253_402_300_799_999), .fixed(1_796_040_000_000), .relative(0),
                                          .relative(-7 * day), .relative(day), .relative(Int64.max), .relative(Int64.min)]
    static let versions = ["0.0.0", "1.2.3", "1.2.3-beta", "1.2.3-beta.2", "1.2.3+build.7", "1.2.3-rc.1+build", "2.0.0", "1048576.0.0",
                           "1.1048576.0"].map { SemanticVersion(parsing: $0)! }
    static let patterns = ["a+b", "pro", "[\u{E9}\u{C9}].*", ".*\u{3C3}", "x?", "\\d+(\\.\\d)*"]

    /// Examples of the kind named `name` (each with edge literals; folded literals lowercased as
    /// the compiler folds them). No `default:`: a new kind needs its examples here.
    static func examples(_ name: KindName) -> [CompiledTest.Kind] {
        func lowered(_ text: String, _ fold: Bool) -> String { fold ? CaseFolding.lowercase(text) : text }
        func set(_ items: [String], _ fold: Bool) -> ExactStringSet { ExactStringSet(items.map { lowered($0, fold) }) }
        let folds = [false, true]
        let lists = [[], ["pro"], ["pro", "\u{E9}", "x"], ["Pro", "e\u{301}", "\u{C4}\u{D6}\u{DC}", ""], wide]
        switch name {
        case .stringEquals: return folds.flatMap { fold in texts.map { .text(.equals(lowered($0, fold)), fold: fold) } }
        case .stringIn: return folds.flatMap { fold in lists.map { .text(.isIn(set($0, fold)), fold: fold) } }
        case .contains: return folds.flatMap { fold in texts.map { .text(.contains(lowered($0, fold)), fold: fold) } }
        case .startsWith: return folds.flatMap { fold in texts.map { .text(.startsWith(lowered($0, fold)), fold: fold) } }
        case .endsWith: return folds.flatMap { fold in texts.map { .text(.endsWith(lowered($0, fold)), fold: fold) } }
        case .matches:
            return folds.flatMap { fold in
                patterns.map { source -> CompiledTest.Kind in
                    switch MatchPattern.compile(source, ignoringCase: fold) {
                    case .success(let pattern): return .text(.matches(pattern), fold: pattern.ignoringCase)
                    case .failure(let error): fatalError("`\(source)`: \(error.message)")
                    }
                }
            }
        case .numberEquals: return numbers.map { .number(.equals($0)) }
        case .numberOrder: return orderings.flatMap { ordering in numbers.map { .number(.order(ordering, $0)) } }
        case .numberBetween:
            return [(-0.0, 0), (0, -0.0), (1, 9_007_199_254_740_992), (-1e308, 1e308), (Double.leastNonzeroMagnitude, 1), (2, 1), (0.1, 0.1)].map { .number(.between($0.0, $0.1)) }
        case .numberIn: return [[], [0], [-0.0, 1, 9_007_199_254_740_991], [1e308, Double.leastNonzeroMagnitude, 0.1]].map { .number(.isIn(Set($0))) }
        case .boolEquals: return [.bool(true), .bool(false)]
        case .dateEquals: return instants.map { .date(.equals($0)) }
        case .dateOrder: return orderings.flatMap { ordering in instants.map { .date(.order(ordering, $0)) } }
        case .dateBetween:
            let bounds: [(DateOperand, DateOperand)] = [(.fixed(0), .relative(0)), (.relative(-7 * day), .relative(day)),
                                                        (.fixed(0), .fixed(253_402_300_799_999)), (.relative(Int64.min), .relative(Int64.max)),
                                                        (.relative(day), .relative(0))]
            return bounds.map { .date(.between($0.0, $0.1)) }
        case .versionEquals: return versions.map { .version(.equals($0)) }
        case .versionOrder: return orderings.flatMap { ordering in versions.map { .version(.order(ordering, $0)) } }
        case .versionBetween:
            return [(0, 6), (2, 1), (1, 4), (3, 8), (6, 6)].map { .version(.between(versions[$0.0], versions[$0.1])) }
        case .versionIn: return [[], [1], [2, 4], [7, 0, 5]].map { .version(.isIn(Set($0.map { versions[$0] }))) }
        case .has: return folds.flatMap { fold in texts.map { .members(.has(lowered($0, fold)), fold: fold) } }
        case .hasAny: return folds.flatMap { fold in lists.map { .members(.hasAny(set($0, fold)), fold: fold) } }
        case .hasAll: return folds.flatMap { fold in lists.map { .members(.hasAll(set($0, fold)), fold: fold) } }
        case .hasNone: return folds.flatMap { fold in lists.map { .members(.hasNone(set($0, fold)), fold: fold) } }
        case .presence: return [.presence]
        }
    }

    // MARK: Edge values

    /// JSON values of every kind, for a custom attribute (strings and numbers are stored; the
    /// reader refuses the rest, and those profiles are left out) and for a built-in field.
    static let jsonValues: [String] = {
        var values = ["null", "\"\"", "true", "false", "[]", "[\"x\"]", "[\"x\",\"pro\"]", "[\"\u{E9}\"]", "[1]", "{\"o\":1}"]
        values += texts.map { "\"\($0)\"" }
        values += ["PRO", "p\u{D8}", "\u{C9}", "E\u{301}", "\u{3C3}\u{3C3}\u{3C3}", "\u{3A3}\u{3A3}\u{3A3}", "STRASSE", "i\u{307}stanbul",
                   "\u{1C6}", "X", "x,pro", "pro,x", "x,,pro", "\u{E9},x", "e\u{301},x", "c69", "C5", "a+b", "aab", "12.5.1",
                   "ab\u{3C2}"].map { "\"\($0)\"" }
        values += ["1.2.3", "v1.2.3", "01.2.3", "1.2.3-beta", "1.2.3-BETA", "1.2.3-beta.2", "1.2.3+build.7", "1.2.3+other", "2.0.0",
                   "1048576.0.0", "1.1048576.0", "0.0.0", "1.2"].map { "\"\($0)\"" }
        values += ["1970-01-01", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z", "2026-11-30T00:00:00Z",
                   "2026-02-30", "not a date"].map { "\"\($0)\"" }
        values += ["0", "-0.0", "1", "-1", "0.1", "2", "1e308", "-1e308", "5e-324", "-5e-324", "9007199254740992", "9007199254740993",
                   "9007199254740994", "-9007199254740992", "1796040000000", "1796040000001", "253402300799999", "1.5", "9.1e15"]
        return values
    }()

    /// The slot targets and types: a custom attribute and a built-in field, each read as every
    /// type (and as no type, as an attribute only tested for presence is).
    static let slots: [Slot] = [nil, ValueType.string, .number, .bool, .date, .version, .set].flatMap { type in
        [Slot(target: .custom("a"), type: type), Slot(target: .builtin("edge"), type: type)]
    }

    /// One profile per JSON value and slot target (absent included), skipping those the reader refuses.
    static func profiles(for target: AttributeReference.Target) -> [Profile] {
        let members: [String]
        switch target {
        case .custom: members = [""] + jsonValues.map { "\"custom_attributes\":{\"a\":\($0)}" }
        case .builtin, .shownCount, .lastShown: members = [""] + jsonValues.map { "\"edge\":\($0)" }
        }
        return members.compactMap { member in try? ProfileReader.read(Array("{\"id\":\"p\"\(member.isEmpty ? "" : ",")\(member)}".utf8)).get() }
    }

    // MARK: The agreement

    func testEveryKindIsListedWithExamplesOfItsOwn() {
        for name in KindName.allCases {
            let examples = FastTestAgreementTests.examples(name)
            XCTAssertFalse(examples.isEmpty, "\(name)")
            for kind in examples { XCTAssertEqual(FastTestAgreementTests.name(kind), name, "\(kind)") }
        }
    }

    /// The flat path's answer for one test, as `FlatRun.test` reaches it: the plain test when it
    /// has a plain form and can tell, the general one on the full value otherwise.
    func flat(_ test: FastTest, _ kind: CompiledTest.Kind, plain: FastValue, full: SlotValue, now: Int64) -> Bool {
        if test.op != .general, let result = test.holds(plain, now: now) { return result }
        return CompiledTest.outcome(kind, negated: test.negated, on: full, now: now)
    }

    func testPlainTestsAgreeWithTheGeneralOnEveryKindSlotTypeAndEdgeValue() {
        var compared = 0
        var plainAnswers = 0
        var profilesBySlot: [Int: [Profile]] = [:]
        for (index, slot) in FastTestAgreementTests.slots.enumerated() {
            profilesBySlot[index] = FastTestAgreementTests.profiles(for: slot.target)
        }
        XCTAssertGreaterThan(profilesBySlot.values.map(\.count).min() ?? 0, 60)
        var kinds: [KindName: Int] = [:]
        for name in KindName.allCases {
            for kind in FastTestAgreementTests.examples(name) {
                for negated in [false, true] {
                    var builder = LiteralTable.Builder()
                    let test = FastTest(slot: 0, kind: kind, negated: negated, table: &builder)
                    var table = builder.table
                    for now in FastTestAgreementTests.nows {
                        // `now` itself (the subject of `now < …`).
                        let nowAnswer = CompiledTest.outcome(kind, negated: negated, on: .date(now), now: now)
                        XCTAssertEqual(flat(test, kind, plain: FastValue(now: now), full: .date(now), now: now), nowAnswer, "now: \(kind) negated \(negated)")
                        for (index, slot) in FastTestAgreementTests.slots.enumerated() {
                            var slot = slot
                            for var profile in profilesBySlot[index]! {
                                let full = slot.read(from: profile, now: now)
                                let expected = CompiledTest.outcome(kind, negated: negated, on: full, now: now)
                                // Both plain forms: read in place (`Slot.readPlain`) and from the full value.
                                let inPlace = withUnsafePointer(to: &slot) { slot in
                                    withUnsafePointer(to: &profile) { profile in
                                        withUnsafePointer(to: &table) { Slot.readPlain(slot, from: profile, now: now, table: $0) }
                                    }
                                }
                                let fromFull = withUnsafePointer(to: &table) { FastValue(full, table: $0) }
                                let answers = (flat(test, kind, plain: inPlace, full: full, now: now), flat(test, kind, plain: fromFull, full: full, now: now))
                                if answers != (expected, expected) {
                                    XCTFail("""
                                        \(kind) negated \(negated) on \(slot.target) as \(String(describing: slot.type)) = \(full) at \(now): \
                                        general \(expected), plain read in place \(answers.0), plain from the full value \(answers.1)
                                        """)
                                }
                                if test.op != .general, test.holds(inPlace, now: now) != nil { plainAnswers += 1 }
                                compared += 1
                            }
                        }
                    }
                }
                kinds[name, default: 0] += 1
            }
        }
        XCTAssertEqual(Set(kinds.keys), Set(KindName.allCases))
        // The plain forms did answer (most comparisons are not handed to the general path).
        XCTAssertGreaterThan(plainAnswers, compared / 2)
        print("FastTestAgreementTests: \(kinds.values.reduce(0, +)) tests of \(kinds.count) kinds × 2 negations × \(FastTestAgreementTests.slots.count) slots × \(FastTestAgreementTests.jsonValues.count + 1) values × \(FastTestAgreementTests.nows.count) instants: \(compared) comparisons, \(plainAnswers) answered by the plain form")
    }

    // MARK: Through compiled rules

    /// Comparisons of every operator on every type, with edge literals, as rules compile them.
    static let comparisons: [String] = {
        let wideList = "[" + wide.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        return [
            "s == \"Pro\"", "s != \"Pro\"", "s == \"pro\" ignoring case", "s == \"\u{C9}\" ignoring case", "s != \"\u{3A3}\u{3A3}\" ignoring case",
            "s == \"e\u{301}\"", "s in [\"pro\", \"\u{E9}\", \"x\"]", "s not in [\"pro\", \"x\"]", "s in [\"PRO\", \"\u{C4}\"] ignoring case",
            "s in \(wideList)", "s not in \(wideList)", "s contains \"r\"", "s contains \"\u{C4}\" ignoring case", "s starts with \"p\"",
            "s ends with \"\u{DF}e\" ignoring case", "s matches /a+b/", "s matches /[\u{E9}\u{C9}].*/ ignoring case", "s is set",
            "n == 0", "n == -0", "n != 1", "n < 9007199254740993", "n <= 0.1", "n > -1", "n >= 1796040000000", "n between -0 and 0",
            "n between 1 and 9007199254740992", "n in [0, 1, 2]", "n not in [0.1]", "n is not set",
            "b == true", "b != false", "b is set",
            "d == 1970-01-01", "d < now", "d <= now - 7d", "d > 9999-12-31", "d >= now + 1d", "d between 1970-01-01 and now",
            "d != 2026-11-30T00:00:00Z", "now > 2026-01-01", "now between now - 1d and now + 1d", "now is set", "now is not set",
            "v == \"1.2.3\"", "v != \"1.2.3-beta\"", "v < \"2.0.0-rc.1\"", "v >= \"1.2.3+build.7\"", "v between \"1.0.0\" and \"1.2.3\"",
            "v in [\"1.2.3\", \"1.2.3-beta.2\"]", "v not in [\"2.0.0\"]", "v > \"1048576.0.0\"",
            "t has \"x\"", "t has \"\u{C9}\" ignoring case", "t has any [\"x\", \"pro\"]", "t has all [\"x\", \"pro\"]", "t has none [\"\u{E9}\"]",
            "t has any \(wideList)", "t has all [\"PRO\"] ignoring case", "t is not set", "u is set", "u is not set",
            "profile.app_version >= \"4.2.0\"", "profile.app_version == \"1.2.3-beta\"", "profile.installed_at < now - 30d",
            "profile.birthday == 2000-02-29", "profile.age >= 18", "profile.days_since_install < 7", "profile.total_revenue_usd > 0",
            "profile.access_levels has \"premium\"", "profile.access_levels has any [\"PREMIUM\"] ignoring case", "profile.country == \"DE\"",
            "profile.country in [\"de\", \"\u{E9}\"] ignoring case", "profile.email ends with \"@x.org\"", "profile.email is not set",
        ]
    }()

    /// Profiles giving every custom attribute, then every built-in field the rules read, then both,
    /// each edge value (those the reader refuses are left out).
    static func ruleProfiles() -> [Profile] {
        let custom = ["s", "n", "b", "d", "v", "t", "u"]
        let fields = ["app_version", "installed_at", "birthday", "total_revenue_usd", "access_levels", "country", "email"]
        var lines = ["{}"]
        for value in jsonValues {
            let attributes = "\"custom_attributes\":{" + custom.map { "\"\($0)\":\(value)" }.joined(separator: ",") + "}"
            let builtins = fields.map { "\"\($0)\":\(value)" }.joined(separator: ",")
            lines += ["{\"id\":\"p\",\(attributes)}", "{\"id\":\"p\",\(builtins)}", "{\"id\":\"p\",\(attributes),\(builtins)}"]
        }
        return lines.compactMap { try? ProfileReader.read(Array($0.utf8)).get() }
    }

    /// Every test of the flat code, run by `FlatRun.test` (plain forms, literal tables shared by
    /// a slot's tests, values read on demand), gives `CompiledTest.outcome` on the slot's full value.
    func testTheFlatRunAgreesWithTheGeneralOnEveryCompiledTest() {
        let declarations = "attribute s: string\nattribute n: number\nattribute b: bool\nattribute d: date\nattribute v: version\nattribute t: set\n"
        let segments = FastTestAgreementTests.comparisons.enumerated().map { "segment c\($0.offset) = \($0.element)" }
        let program = checkedProgram(declarations + segments.joined(separator: "\n") + "\n")
        let flat: FlatCode = program.flat
        XCTAssertEqual(Set(flat.kinds.map(FastTestAgreementTests.name)), Set(KindName.allCases))
        let profiles = FastTestAgreementTests.ruleProfiles()
        XCTAssertGreaterThan(profiles.count, 150)
        var compared = 0
        for now in FastTestAgreementTests.nows {
            for profile in profiles {
                let answers = program.withRun(for: profile, now: now) { run in flat.tests.indices.map { run.test($0) } }
                for index in flat.tests.indices {
                    let slot = Int(flat.tests[index].slot)
                    let value: SlotValue = slot < 0 ? .date(now) : program.slots[slot].read(from: profile, now: now)
                    let expected = CompiledTest.outcome(flat.kinds[index], negated: flat.tests[index].negated, on: value, now: now)
                    if answers[index] != expected {
                        XCTFail("\(flat.kinds[index]) negated \(flat.tests[index].negated) on \(value) at \(now): flat \(answers[index]), general \(expected)")
                    }
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 0)
        print("FastTestAgreementTests: \(flat.tests.count) compiled tests × \(profiles.count) profiles × \(FastTestAgreementTests.nows.count) instants: \(compared) flat runs")
    }
}
