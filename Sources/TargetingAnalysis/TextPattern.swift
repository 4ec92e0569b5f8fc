import TargetingBase
import TargetingEngine

/// A `contains`, `starts with` or `ends with` comparison on a string, by its literal.
struct TextPattern: Hashable {
    /// Which test.
    enum Kind: Hashable { case contains, startsWith, endsWith }

    var kind: Kind
    /// The literal's UTF-8 bytes (lowercased under `ignoring case`, as compiled).
    var literal: [UInt8]
    /// Whether the test compares lowercased text.
    var fold: Bool

    /// The pattern of a compiled test, or nil for other tests.
    init?(_ kind: CompiledTest.Kind) {
        guard case .text(let test, let fold) = kind else { return nil }
        switch test {
        case .contains(let text): self.init(kind: .contains, literal: Array(text.utf8), fold: fold)
        case .startsWith(let text): self.init(kind: .startsWith, literal: Array(text.utf8), fold: fold)
        case .endsWith(let text): self.init(kind: .endsWith, literal: Array(text.utf8), fold: fold)
        case .matches, .equals, .isIn: return nil
        }
    }

    init(kind: Kind, literal: [UInt8], fold: Bool) {
        self.kind = kind
        self.literal = literal
        self.fold = fold
    }

    /// The literal as text.
    var text: String { String(decoding: literal, as: UTF8.self) }

    /// Whether the pattern holds for `bytes`, which are already lowercased when `fold` is set.
    func holds(_ bytes: [UInt8]) -> Bool {
        switch kind {
        case .startsWith: ByteText.hasPrefix(bytes, literal)
        case .endsWith: ByteText.hasSuffix(bytes, literal)
        case .contains: ByteText.contains(bytes, literal)
        }
    }
}

/// Facts any single string obeys about its pattern tests: a test with an empty literal always
/// holds; a longer `starts with` implies a shorter one it begins with, and two `starts with`
/// neither of which begins the other cannot both hold (likewise for `ends with`); any test
/// implies `contains` of a part of its literal. Only tests on the same text (both with or
/// both without `ignoring case`) are related.
struct TextPatternRules {
    let patterns: [TextPattern]
    /// `implies[i]`: patterns that hold whenever pattern `i` holds.
    private var implies: [[Int]]
    /// `excludes[i]`: patterns that cannot hold together with pattern `i`.
    private var excludes: [[Int]]

    init(_ patterns: [TextPattern]) {
        self.patterns = patterns
        implies = Array(repeating: [], count: patterns.count)
        excludes = Array(repeating: [], count: patterns.count)
        for (i, a) in patterns.enumerated() {
            for (j, b) in patterns.enumerated() where i != j && a.fold == b.fold {
                if TextPatternRules.implies(a, b) { implies[i].append(j) }
                if TextPatternRules.excludes(a, b) { excludes[i].append(j) }
            }
        }
    }

    /// Whether `a` holding means `b` holds.
    static func implies(_ a: TextPattern, _ b: TextPattern) -> Bool {
        switch (a.kind, b.kind) {
        case (.startsWith, .startsWith): ByteText.hasPrefix(a.literal, b.literal)
        case (.endsWith, .endsWith): ByteText.hasSuffix(a.literal, b.literal)
        case (.startsWith, .contains), (.endsWith, .contains), (.contains, .contains): ByteText.contains(a.literal, b.literal)
        case (.startsWith, .endsWith), (.endsWith, .startsWith), (.contains, .startsWith), (.contains, .endsWith): false
        }
    }

    /// Whether `a` and `b` cannot both hold.
    static func excludes(_ a: TextPattern, _ b: TextPattern) -> Bool {
        guard a.kind == b.kind, a.kind != .contains else { return false }
        return !implies(a, b) && !implies(b, a)
    }

    /// Whether setting pattern `index` to `value` agrees with the facts of the patterns before it.
    private func agrees(_ facts: [Bool], _ index: Int, _ value: Bool) -> Bool {
        if patterns[index].literal.isEmpty, !value { return false }
        for other in implies[index] where other < index && value && !facts[other] { return false }
        for other in 0..<index where !value && facts[other] && implies[other].contains(index) { return false }
        for other in excludes[index] where other < index && value && facts[other] { return false }
        return true
    }

    /// Calls `body` with every assignment of truth values that agrees with the rules and with
    /// `fixed` (nil entries are free); returns false when there were more than `limit`.
    func forEachAssignment(fixed: [Bool?], limit: Int, _ body: ([Bool]) -> Void) -> Bool {
        var facts: [Bool] = []
        var count = 0
        func extend() -> Bool {
            if facts.count == patterns.count {
                count += 1
                if count > limit { return false }
                body(facts)
                return true
            }
            let index = facts.count
            for value in fixed[index].map({ [$0] }) ?? [false, true] where agrees(facts, index, value) {
                facts.append(value)
                let carryOn = extend()
                facts.removeLast()
                if !carryOn { return false }
            }
            return true
        }
        return extend()
    }
}
