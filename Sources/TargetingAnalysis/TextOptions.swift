/// The options of a string field.
///
/// Concrete strings: the literals, case variants of `ignoring case` literals, pattern literals
/// and a few unrelated strings, then strings built to meet combinations of pattern tests.
/// Every string is (1) equal to an exact literal, whose string is offered itself, (2) equal to
/// none but lowercasing to an `ignoring case` literal, which fixes every case-insensitive test
/// and leaves the exact pattern tests, or (3) neither, which leaves every pattern test. Cases
/// (2) and (3) are offered as abstract vectors over the pattern tests, limited only by
/// `TextPatternRules`, so the options cover every string.
///
/// A field with a `matches` comparison, or one whose literals' options cannot claim to cover
/// every string, is decided by automata instead where they can (`fillExactly`): one concrete
/// string per vector its comparisons can have, found by exploring them together.
enum TextOptions {
    /// Most pattern assignments enumerated per field before giving up on completeness.
    static let assignmentLimit = 512

    /// Offers the options of a string field whose comparisons are `builder.tests`; `allowed`
    /// values are tried before unrelated ones.
    static func fill(_ builder: inout OptionTableBuilder, allowed: [String]) {
        if hasPattern(builder), fillExactly(&builder, allowed: allowed) { return }
        // Without a pattern the literals' options usually cover every string; when they
        // cannot say so, the automata may.
        var sampled = builder
        fillFromLiterals(&sampled, allowed: allowed)
        if sampled.isComplete || hasPattern(builder) || !fillExactly(&builder, allowed: allowed) { builder = sampled }
    }

    /// The options of the literals and of the pattern facts (see the type's summary).
    static func fillFromLiterals(_ builder: inout OptionTableBuilder, allowed: [String]) {
        let tests = builder.tests.map(\.test)
        var exact: [[UInt8]] = []
        var folded: [[UInt8]] = []
        var patterns: [TextPattern] = []
        for test in tests {
            switch test.kind {
            case .text(let text, let fold):
                switch text {
                case .equals, .isIn:
                    for literal in text.literals { fold ? folded.append(Array(literal.utf8)) : exact.append(Array(literal.utf8)) }
                case .matches:
                    // A pattern the automata could not decide (see `fillExactly`): the table cannot
                    // claim to be complete.
                    builder.isComplete = false
                case .contains, .startsWith, .endsWith:
                    if let pattern = TextPattern(test.kind), !patterns.contains(pattern) { patterns.append(pattern) }
                }
            case .presence:
                break
            case .number, .bool, .date, .version, .members:
                // Not a test of a string (the checker rejects it): the options are not modelled
                // for it, so the table cannot claim to be complete.
                builder.isComplete = false
            }
        }
        var classes: [[UInt8]] = []
        for text in folded where !classes.contains(text) { classes.append(text) }

        for text in exact { builder.offer(string(text)) }
        for text in classes {
            for variant in CaseVariants.of(String(decoding: text, as: UTF8.self)) { builder.offer(.json(.string(variant))) }
        }
        // An empty pattern holds for every string; its literal, "", is no example worth showing.
        for pattern in patterns where !pattern.literal.isEmpty {
            builder.offer(string(pattern.literal))
            if pattern.fold { builder.offer(.json(.string(pattern.text.uppercased()))) }
        }
        for value in allowed + fillers { builder.offer(.json(.string(value))) }

        let rules = TextPatternRules(patterns)
        let patternOfTest = tests.map { TextPattern($0.kind).flatMap { patterns.firstIndex(of: $0) } }
        let classesOfTest = tests.map { test -> [[UInt8]] in
            switch test.kind {
            case .text(let text, let fold):
                switch text {
                case .equals, .isIn: return fold ? text.literals.map { Array($0.utf8) } : []
                case .contains, .startsWith, .endsWith, .matches: return []
                }
            case .presence, .number, .bool, .date, .version, .members: return []
            }
        }
        func vector(_ foldClass: [UInt8]?, _ facts: [Bool]) -> [Bool] {
            tests.indices.map { index in
                let raw: Bool
                if let pattern = patternOfTest[index] {
                    raw = facts[pattern]
                } else {
                    switch tests[index].kind {
                    case .presence:
                        raw = true
                    case .text(.equals, _), .text(.isIn, _):
                        raw = foldClass.map { classesOfTest[index].contains($0) } ?? false
                    case .text(.contains, _), .text(.startsWith, _), .text(.endsWith, _):
                        // Every pattern has its index (`patternOfTest`).
                        raw = false
                    case .text(.matches, _), .number, .bool, .date, .version, .members:
                        // On a string the engine finds it false, negated or not (the table is incomplete).
                        return false
                    }
                }
                return raw != tests[index].negated
            }
        }

        // Case (3): no literal matches, every pattern test free.
        var budget = assignmentLimit
        let free = rules.forEachAssignment(fixed: patterns.map { _ in nil }, limit: budget) { facts in
            budget -= 1
            let target = vector(nil, facts)
            if builder.has(target) { return }
            for candidate in realizations(patterns, facts) {
                builder.offer(.json(.string(candidate)))
                if builder.has(target) { return }
            }
            builder.offerAbstract(target)
        }
        if !free { builder.isComplete = false }

        // Case (2): lowercases to an `ignoring case` literal, exact pattern tests free.
        for text in classes where builder.isComplete {
            let fixed: [Bool?] = patterns.map { $0.fold ? $0.holds(text) : nil }
            let within = rules.forEachAssignment(fixed: fixed, limit: budget) { facts in
                budget -= 1
                builder.offerAbstract(vector(text, facts))
            }
            if !within { builder.isComplete = false }
        }
    }

    /// Strings unrelated to any literal, tried in order.
    static let fillers = ["other", "x", "other-value", "zz9"]

    package static func string(_ bytes: [UInt8]) -> ExampleValue { .json(.string(String(decoding: bytes, as: UTF8.self))) }

    /// Strings likely to meet the pattern facts: the longest required prefix, the required
    /// parts, the longest required suffix, joined directly or with a separator, in the case of
    /// the literals and then in upper case for the case-insensitive ones.
    static func realizations(_ patterns: [TextPattern], _ facts: [Bool]) -> [String] {
        let holding = patterns.indices.filter { facts[$0] }.map { patterns[$0] }
        var result: [String] = []
        for upper in holding.contains(where: \.fold) ? [false, true] : [false] {
            func text(_ pattern: TextPattern) -> String { upper && pattern.fold ? pattern.text.uppercased() : pattern.text }
            let prefix = holding.filter { $0.kind == .startsWith }.max { $0.literal.count < $1.literal.count }.map(text) ?? ""
            let suffix = holding.filter { $0.kind == .endsWith }.max { $0.literal.count < $1.literal.count }.map(text) ?? ""
            let parts = holding.filter { $0.kind == .contains }.map(text)
            result.append(([prefix] + parts + [suffix]).joined())
            result.append(([prefix] + parts + [suffix]).joined(separator: "x"))
        }
        return result.filter { !$0.isEmpty }
    }
}
