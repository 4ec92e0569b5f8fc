import TargetingBase
import XCTest

final class PatternParserTests: XCTestCase {
    private func parse(_ source: String, ignoringCase: Bool = false) -> PatternNode? {
        if case .success(let node) = PatternParser.parse(source, ignoringCase: ignoringCase) { return node }
        return nil
    }

    private func failure(_ source: String, ignoringCase: Bool = false) -> PatternSyntaxError? {
        if case .failure(let error) = PatternParser.parse(source, ignoringCase: ignoringCase) { return error }
        return nil
    }

    private func matches(_ source: String, _ value: String, ignoringCase: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        switch MatchPattern.compile(source, ignoringCase: ignoringCase) {
        case .success(let pattern): return pattern.matches(value)
        case .failure(let error):
            XCTFail("`\(source)` does not compile: \(error.message)", file: file, line: line)
            return false
        }
    }

    func testLiteralsAndEscapesMeanThemselves() {
        XCTAssertEqual(parse("ab"), .sequence([.set(ScalarSet("a")), .set(ScalarSet("b"))]))
        for special in ["\\", "/", ".", "[", "]", "(", ")", "{", "}", "*", "+", "?", "|", "^", "$", "-"] {
            XCTAssertEqual(parse("\\" + special), .set(ScalarSet(Unicode.Scalar(special)!)), special)
        }
        XCTAssertEqual(parse("\\u{1F600}"), .set(ScalarSet("\u{1F600}")))
        XCTAssertEqual(parse("-"), .set(ScalarSet("-")))
        XCTAssertEqual(parse("é"), .set(ScalarSet("é")))
    }

    func testClassesDigitsWordAndDot() {
        XCTAssertEqual(parse("\\d"), .set(ScalarSet(ranges: [0x30...0x39])))
        XCTAssertEqual(parse("\\w"), .set(.wordCharacters))
        XCTAssertEqual(parse("."), .set(.all))
        XCTAssertEqual(parse("[a-c_]"), .set(ScalarSet(ranges: [0x61...0x63, 0x5F...0x5F])))
        XCTAssertEqual(parse("[-a]"), .set(ScalarSet(ranges: [0x2D...0x2D, 0x61...0x61])))
        XCTAssertEqual(parse("[a-]"), .set(ScalarSet(ranges: [0x2D...0x2D, 0x61...0x61])))
        XCTAssertEqual(parse("[\\]\\-]"), .set(ScalarSet(ranges: [0x5D...0x5D, 0x2D...0x2D])))
        XCTAssertEqual(parse("[^a]"), .set(ScalarSet("a").inverted))
        XCTAssertEqual(parse("a|b|[c-d]"), parse("[a-d]"), "alternatives of single characters are one class")
        XCTAssertEqual(parse("(a|b)*"), .repetition(.set(ScalarSet(ranges: [0x61...0x62])), min: 0, max: nil))
        XCTAssertEqual(parse("a|bc"), .alternation([.set(ScalarSet("a")), .sequence([.set(ScalarSet("b")), .set(ScalarSet("c"))])]))
    }

    func testAnchorsAtTheEndsAddNothing() {
        XCTAssertEqual(parse("^abc$"), parse("abc"))
        XCTAssertEqual(parse("^a|b$"), parse("a|b"))
        XCTAssertEqual(parse("a\\$"), .sequence([.set(ScalarSet("a")), .set(ScalarSet("$"))]))
    }

    func testCountsAndNesting() {
        XCTAssertEqual(parse("a{2,5}"), .repetition(.set(ScalarSet("a")), min: 2, max: 5))
        XCTAssertEqual(parse("a{3}"), .repetition(.set(ScalarSet("a")), min: 3, max: 3))
        XCTAssertEqual(parse("a{3,}"), .repetition(.set(ScalarSet("a")), min: 3, max: nil))
        XCTAssertNotNil(parse("(_v[0-9]+)?"), "`?` never repeats, so it may hold a `+`")
        XCTAssertNotNil(parse("(a{2,5}){3}"), "bounded counts nest")
        XCTAssertNotNil(parse("(a|)"), "an empty branch matches the empty string")
    }

    func testErrorsPointAtTheOffendingCharacter() {
        let cases: [(String, Int, String)] = [
            ("a\\s", 1, "unknown escape `\\s`"),
            ("(?i)abc", 0, "groups take no options: `(?` is not part of a pattern"),
            ("a^b", 1, "`^` is allowed only at the start of a pattern"),
            ("a$b", 1, "`$` is allowed only at the end of a pattern"),
            ("(a+)*", 4, "nested repetition: a count applied to a group that already repeats without bound"),
            ("(a|b*){2}", 6, "nested repetition: a count applied to a group that already repeats without bound"),
            ("a*?", 2, "lazy and possessive quantifiers are not part of a pattern"),
            ("a++", 2, "lazy and possessive quantifiers are not part of a pattern"),
            ("a{101}", 1, "count too large: at most 100"),
            ("a{5,2}", 1, "count out of order: 5 is more than 2"),
            ("a{,2}", 1, "malformed count"),
            ("*a", 0, "`*` with nothing to repeat"),
            ("(ab", 0, "unclosed `(`"),
            ("ab)", 2, "unmatched `)`"),
            ("a]", 1, "unmatched `]`"),
            ("[abc", 0, "unclosed `[`"),
            ("[]", 0, "empty class"),
            ("[[:alpha:]]", 1, "POSIX classes such as `[[:alpha:]]` are not part of a pattern"),
            ("[z-a]", 1, "range out of order: `z` comes after `a`"),
            ("[a-é]", 1, "a range's ends must be ASCII characters"),
            ("[a-c-e]", 4, "`-` in the middle of a class"),
            ("é\\b", 1, "unknown escape `\\b`"),
            ("\\1", 0, "unknown escape `\\1`: there are no back-references in a pattern"),
            ("\\u{D800}", 0, "`\\u{D800}` is not a Unicode scalar"),
            ("ab\\", 2, "unfinished escape: `\\` at the end of the pattern"),
            ("", 0, "empty pattern"),
        ]
        for (source, offset, message) in cases {
            guard let error = failure(source) else {
                XCTFail("`\(source)` should not parse")
                continue
            }
            XCTAssertEqual(error.scalarOffset, offset, source)
            XCTAssertEqual(error.message, message, source)
        }
        XCTAssertEqual(failure("é\\b")?.byteOffset, 2, "offsets count bytes as well as scalars")
        XCTAssertEqual(failure("a\\s")?.help, "write `[ \\t]` or the characters themselves, or compare the trimmed value")
        XCTAssertEqual(failure("(?i)abc")?.help, "write `ignoring case` after the pattern; `.` already matches line breaks")
    }

    func testLengthAndExpandedSizeAreBounded() {
        XCTAssertNotNil(parse(String(repeating: "a", count: 1_000)))
        XCTAssertEqual(failure(String(repeating: "a", count: 1_001))?.message, "pattern is 1001 characters long; at most 1000 are allowed")
        XCTAssertNotNil(parse("((a{100}){100})"))
        XCTAssertTrue(failure("(((a{100}){100}){100})")?.message.hasPrefix("pattern too large") ?? false)
    }

    func testIgnoringCaseLowercasesLiteralsAndClasses() {
        XCTAssertEqual(parse("AbC", ignoringCase: true), parse("abc"))
        XCTAssertEqual(parse("[A-Z]", ignoringCase: true), parse("[a-z]"))
        XCTAssertEqual(parse("\\w", ignoringCase: true), parse("[a-z0-9_]"))
        XCTAssertEqual(failure("[A-z]", ignoringCase: true)?.message, "range mixes upper- and lowercase letters under `ignoring case`")
        XCTAssertNotNil(parse("[A-z]"), "without ignoring case the range is fine")
        XCTAssertTrue(matches("ΟΔΟΣ", "ΟΔΟΣ", ignoringCase: true), "a final sigma matches a sigma of the pattern")
        XCTAssertTrue(matches("σ", "Σ", ignoringCase: true))
        XCTAssertTrue(matches("İ", "İ", ignoringCase: true), "a letter lowercasing to two scalars")
        XCTAssertTrue(matches("[İx]y", "İY", ignoringCase: true))
        XCTAssertTrue(matches("BF-\\d{4}", "bf-1234", ignoringCase: true))
        XCTAssertFalse(matches("BF-\\d{4}", "bf-12", ignoringCase: true))
        XCTAssertFalse(matches("BF-\\d{4}", "bf-1234"))
    }

    func testMatchingIsOfTheWholeValue() {
        XCTAssertTrue(matches("[a-z0-9._-]+@(corp|staff)\\.example\\.com", "ann.lee@corp.example.com"))
        XCTAssertFalse(matches("[a-z0-9._-]+@(corp|staff)\\.example\\.com", "ann.lee@corp.example.com.evil"))
        XCTAssertTrue(matches("(pro|plus)_(monthly|annual)(_v[0-9]+)?", "plus_annual_v12"))
        XCTAssertFalse(matches("(pro|plus)_(monthly|annual)(_v[0-9]+)?", "plus_annual_v"))
        XCTAssertTrue(matches("a.b", "a\nb"), "`.` matches a line break")
        XCTAssertTrue(matches("a.b", "a\u{1F600}b"), "`.` is one scalar")
        XCTAssertFalse(matches("a.b", "ae\u{301}b"), "a combining mark is a scalar of its own")
        XCTAssertTrue(matches("\\d+", "0123"))
        XCTAssertFalse(matches("\\d+", "٣"), "`\\d` is ASCII only")
        XCTAssertTrue(matches("(a|)b", "b"))
        XCTAssertTrue(matches("a{2,3}", "aaa"))
        XCTAssertFalse(matches("a{2,3}", "aaaa"))
        XCTAssertTrue(matches("[^a]", "é"))
    }

    func testLargeDFAFallsBackToTheNFAWithTheSameAnswers() {
        // `(a|b)*a(a|b){12}` needs 2^13 DFA states: beyond the default budget.
        guard case .success(let node) = PatternParser.parse("[ab]*a[ab]{12}", ignoringCase: false) else { return XCTFail() }
        let small = PatternAutomaton(node, stateBudget: 64)
        let large = PatternAutomaton(node, stateBudget: 100_000)
        XCTAssertNil(small.dfa)
        XCTAssertNotNil(large.dfa)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let length = Int.random(in: 0...20, using: &generator)
            let value = String((0..<length).map { _ in Bool.random(using: &generator) ? "a" : "b" as Character })
            XCTAssertEqual(small.matches(value), large.matches(value), value)
            XCTAssertEqual(small.matches(value), ReferenceMatcher.matches(node, value), value)
        }
    }

    func testAutomatonAgreesWithAReferenceMatcherOnRandomPatterns() {
        var random = SplitMix(seed: 20261204)
        let alphabet: [String] = ["a", "b", "-", "é", "\u{1F600}", "\n", "A"]
        var compiled = 0
        var matched = 0
        for _ in 0..<400 {
            let source = RandomPattern.make(&random, depth: 3)
            guard case .success(let node) = PatternParser.parse(source, ignoringCase: false) else { continue }
            compiled += 1
            let automaton = PatternAutomaton(node)
            for _ in 0..<25 {
                let length = Int(random.next() % 7)
                let value = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
                let expected = ReferenceMatcher.matches(node, value)
                if expected { matched += 1 }
                XCTAssertEqual(automaton.matches(value), expected, "/\(source)/ on \(value.debugDescription)")
            }
        }
        XCTAssertGreaterThan(compiled, 250, "most generated patterns are valid")
        XCTAssertGreaterThan(matched, 200, "the values match often enough to test acceptance")
    }
}

/// Decides a pattern by the sets of positions each node can reach: independent of the automaton.
enum ReferenceMatcher {
    static func matches(_ node: PatternNode, _ value: String) -> Bool {
        let scalars = Array(value.unicodeScalars)
        return reach(node, scalars, [0]).contains(scalars.count)
    }

    static func reach(_ node: PatternNode, _ text: [Unicode.Scalar], _ from: Set<Int>) -> Set<Int> {
        switch node {
        case .empty: return from
        case .set(let set): return Set(from.filter { $0 < text.count && set.contains(text[$0].value) }.map { $0 + 1 })
        case .sequence(let items): return items.reduce(from) { reach($1, text, $0) }
        case .alternation(let branches): return branches.reduce(into: Set<Int>()) { $0.formUnion(reach($1, text, from)) }
        case .repetition(let inner, let min, let max):
            var current = from
            for _ in 0..<min { current = reach(inner, text, current) }
            var all = current
            var count = min
            while max.map({ count < $0 }) ?? true {
                let next = reach(inner, text, current).union(all)
                count += 1
                if next == all { break }
                all = next
                current = next
            }
            return all
        }
    }
}

/// A deterministic generator, so a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random pattern text over a small alphabet, valid or not (invalid ones are skipped).
enum RandomPattern {
    static func make(_ random: inout SplitMix, depth: Int) -> String {
        let atoms = ["a", "b", "\\-", "é", ".", "[ab]", "[^a]", "[a-c]", "\\d", "\\u{1F600}", "\\u{A}"]
        var out = ""
        for _ in 0..<(1 + Int(random.next() % 3)) {
            var atom: String
            if depth > 0, random.next() % 4 == 0 {
                atom = "(" + make(&random, depth: depth - 1) + (random.next() % 2 == 0 ? "|" + make(&random, depth: depth - 1) : "") + ")"
            } else {
                atom = atoms[Int(random.next() % UInt64(atoms.count))]
            }
            switch random.next() % 7 {
            case 0: atom += "*"
            case 1: atom += "+"
            case 2: atom += "?"
            case 3: atom += "{\(random.next() % 3),\(2 + random.next() % 2)}"
            case 4: atom += "{2}"
            default: break
            }
            out += atom
        }
        return out
    }
}
