import TargetingBase
import TargetingFuzzSupport

/// The pattern language of `matches` under fuzzing. The first byte picks a mode:
/// - arbitrary text (up to the first NUL byte) goes to `PatternParser` and
///   `MatchPattern.compile`, which must not crash and must place an error inside the text;
/// - or a valid pattern from `PatternGrammar`, which must compile, with its meaning written
///   down by the grammar.
/// For a pattern that compiles, values built from the remaining bytes (and the pattern's own
/// shortest example) are matched by the DFA, by the NFA alone, and by `ReferenceMatcher` (a
/// memoised search over the parsed tree, and over the grammar's meaning); all must agree.
@main
enum FuzzPattern {
    static func main() {
        FuzzDriver.run { data, size in
            FuzzPattern.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    /// Scalars the values are made of, beside the pattern's own.
    static let pool: [Unicode.Scalar] = ["a", "b", "A", "B", "p", "P", "r", "o", "x", "0", "9", "_", "-", ".", ",", " ", "\n", "\t",
                                         "é", "É", "Σ", "σ", "ς", "İ", "ß", "/", "\\", "😀", "\u{0}", "\u{FFFD}", "\u{10FFFF}"]

    static func check(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let ignoringCase = mode & 1 == 1
        var choices: FuzzChoices
        let source: String
        var meaning: ReferencePattern? = nil
        if mode & 6 == 0 {
            choices = FuzzChoices(Array(bytes.dropFirst()))
            let generated = PatternGrammar(ignoringCase: ignoringCase).generate(&choices)
            source = generated.text
            meaning = generated.pattern
        } else {
            let rest = bytes.dropFirst()
            let end = rest.firstIndex(of: 0) ?? rest.endIndex
            source = String(decoding: rest[..<end], as: UTF8.self)
            choices = FuzzChoices(Array(rest[end...].dropFirst()))
        }
        let parsed = PatternParser.parse(source, ignoringCase: ignoringCase)
        let compiled = MatchPattern.compile(source, ignoringCase: ignoringCase)
        func context() -> String { "pattern /\(source)/ (\(source.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")))\(ignoringCase ? " ignoring case" : "")" }
        let pattern: MatchPattern
        switch (parsed, compiled) {
        case (.failure(let error), .failure(let again)):
            if error != again { fuzzFailure("parse and compile disagree: \(error) vs \(again)\n\(context())") }
            checkPlace(error, in: source, context())
            if meaning != nil { fuzzFailure("a grammar pattern does not compile: \(error.message)\n\(context())") }
            return
        case (.success(let node), .success(let found)):
            if node != found.node { fuzzFailure("parse and compile read different trees\n\(context())") }
            pattern = found
        default:
            fuzzFailure("parse and compile disagree on whether it is a pattern\n\(context())")
        }

        // The references, when the pattern is small enough for them.
        let fromTree = ReferencePattern(pattern.node)
        let shape = fromTree.shape
        let bounded = shape.nodes <= 600 && shape.depth <= 80 && pattern.node.expandedSize(limit: 4_000) <= 4_000
        let nfaOnly = PatternAutomaton(pattern.node, stateBudget: 1)

        var values: [String] = []
        let example = pattern.shortestMatch()
        if let example {
            if !pattern.matches(example) { fuzzFailure("the shortest example \(example.debugDescription) does not match\n\(context())") }
            values.append(example)
        }
        let own = Array(source.unicodeScalars)
        for _ in 0..<choices.within(1...8) {
            var value = String.UnicodeScalarView()
            let length = choices.chance(90) ? choices.below(10) : choices.below(31)
            for _ in 0..<length {
                if !own.isEmpty, choices.chance(50) { value.append(own[choices.below(own.count)]) } else { value.append(choices.pick(pool)) }
            }
            // Now and then the example with one change, to land near the language.
            if let example, choices.chance(20) {
                var scalars = Array(example.unicodeScalars.prefix(30))
                if !scalars.isEmpty { scalars[choices.below(scalars.count)] = choices.pick(pool) }
                value = String.UnicodeScalarView(scalars)
            }
            values.append(String(value))
        }
        for value in values {
            let folded = ignoringCase ? CaseFolding.lowercase(value) : value
            let engine = pattern.matches(value)
            let nfa = nfaOnly.matches(folded)
            if engine != nfa { fuzzFailure("DFA \(engine), NFA \(nfa) on \(value.debugDescription)\n\(context())") }
            guard bounded, folded.unicodeScalars.count <= ReferenceMatcher.maxLength else { continue }
            let tree = ReferenceMatcher.matches(fromTree, value: value, ignoringCase: ignoringCase)
            if engine != tree { fuzzFailure("automaton \(engine), reference over the tree \(tree) on \(value.debugDescription)\n\(context())") }
            if let meaning {
                let written = ReferenceMatcher.matches(meaning, value: value, ignoringCase: ignoringCase)
                if engine != written { fuzzFailure("automaton \(engine), the grammar's meaning \(written) on \(value.debugDescription)\n\(context())") }
            }
            if example == nil, engine { fuzzFailure("no example, yet \(value.debugDescription) matches\n\(context())") }
        }
    }

    /// An error must point inside the text, its byte and scalar offsets at the same place.
    static func checkPlace(_ error: PatternSyntaxError, in source: String, _ context: @autoclosure () -> String) {
        let scalars = Array(source.unicodeScalars)
        guard !error.message.isEmpty, error.byteOffset >= 0, error.byteLength >= 0, error.scalarOffset >= 0, error.scalarLength >= 0,
              error.byteOffset + error.byteLength <= source.utf8.count, error.scalarOffset + error.scalarLength <= scalars.count else {
            fuzzFailure("error outside the text: \(error)\n\(context())")
        }
        let bytesBefore = scalars[..<error.scalarOffset].reduce(0) { $0 + UTF8.width($1) }
        let bytesWithin = scalars[error.scalarOffset..<(error.scalarOffset + error.scalarLength)].reduce(0) { $0 + UTF8.width($1) }
        if bytesBefore != error.byteOffset || bytesWithin != error.byteLength {
            fuzzFailure("byte and scalar offsets disagree: \(error)\n\(context())")
        }
    }
}
