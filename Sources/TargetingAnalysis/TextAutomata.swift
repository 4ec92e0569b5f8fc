import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The comparisons on one string field decided exactly: one automaton per distinct language
/// (see `TextLanguage`) over one shared alphabet, run together on every string a profile can
/// hold. Comparisons under `ignoring case` read the lowercase of each letter.
enum TextAutomata {
    /// What a string gives the comparisons: their truth values (negation applied) and a
    /// shortest string that gives them.
    struct Outcome {
        /// Per comparison, in the order given, whether it holds.
        var vector: [Bool]
        /// A shortest string that gives the vector.
        var witness: String
    }

    /// Every vector of truth values of `tests` that some string stored in the field gives,
    /// each with a witness; nil when they cannot be decided this way (a comparison of another
    /// type, an automaton or product too large, or a case-insensitive pattern that tells a
    /// final sigma from a small one). `custom` fields store values trimmed, non-empty and at
    /// most `AdaptyLimits.maxValueLength` scalars long; built-in fields hold any string.
    /// `work` grows by the tuples explored.
    static func outcomes(_ tests: [CompiledTest], custom: Bool, work: inout Int) -> [Outcome]? {
        var languages: [TextLanguage] = []
        var languageOfTest: [Int?] = []
        for test in tests {
            if let language = TextLanguage(test.kind) {
                if let known = languages.firstIndex(of: language) {
                    languageOfTest.append(known)
                } else {
                    languageOfTest.append(languages.count)
                    languages.append(language)
                }
            } else if case .presence = test.kind {
                languageOfTest.append(nil)
            } else {
                return nil
            }
        }
        let whiteSpace = ScalarSet(ranges: AdaptyLimits.whiteSpace.map { $0...$0 })
        var sets = languages.flatMap(\.node.scalarSets)
        if custom { sets.append(whiteSpace) }
        // Lowercasing a capital sigma gives the final or the small form by its neighbours: a
        // case-insensitive set that holds one but not the other would need that context.
        for language in languages where language.fold {
            for set in language.node.scalarSets where set.contains(0x3C2) != set.contains(0x3C3) { return nil }
        }
        let alphabet = ScalarAlphabet(sets)
        var automata: [PatternAutomaton.DFA] = []
        for language in languages {
            guard let dfa = PatternAutomaton(language.node, alphabet: alphabet).dfa else { return nil }
            automata.append(dfa)
        }
        let letters = TextLetter.letters(alphabet, folding: languages.contains(where: \.fold))
        let product = self.product(automata, languages: languages, letters: letters, whiteSpace: custom ? whiteSpace : nil)
        guard let found = product.explore(explored: &work) else { return nil }
        return found.map { outcome in
            let vector = tests.indices.map { index in
                (languageOfTest[index].map { outcome.accepts[$0] } ?? true) != tests[index].negated
            }
            return Outcome(vector: vector, witness: outcome.witness)
        }
    }

    /// Most transitions (states times letters) of an automaton that is minimised before the
    /// product is explored.
    static let minimisingLimit = 20_000

    /// The product of `automata` over `letters`, keeping one letter of each group that every
    /// automaton (and the trimming of `whiteSpace`, when given) reads the same way, each
    /// automaton minimised when small.
    static func product(_ automata: [PatternAutomaton.DFA], languages: [TextLanguage], letters: [TextLetter],
                        whiteSpace: ScalarSet?) -> TextProduct {
        // The column of each letter: where it leads from every state of every automaton.
        var columns: [[Int32]] = letters.map { _ in [] }
        for (automaton, language) in zip(automata, languages) {
            for (number, letter) in letters.enumerated() {
                for state in 0..<automaton.stateCount {
                    var current = state
                    if language.fold {
                        for span in letter.folded where current >= 0 { current = automaton.next(current, span) }
                    } else {
                        current = automaton.next(current, letter.raw)
                    }
                    columns[number].append(Int32(current))
                }
            }
        }
        var kept: [Int] = []
        var seen: Set<[Int32]> = []
        for number in letters.indices {
            let white: Int32 = whiteSpace.map { $0.contains(letters[number].example.value) ? 1 : 0 } ?? 0
            if seen.insert(columns[number] + [white]).inserted { kept.append(number) }
        }
        var steps: [[Int32]] = []
        var accepting: [[Bool]] = []
        var offset = 0
        for automaton in automata {
            var table = [Int32](repeating: -1, count: automaton.stateCount * kept.count)
            for state in 0..<automaton.stateCount {
                for (letter, number) in kept.enumerated() { table[state * kept.count + letter] = columns[number][offset + state] }
            }
            // Refinement takes up to one pass per state: only small automata are worth it.
            if automaton.stateCount * kept.count <= minimisingLimit {
                let minimal = TextProduct.minimised(steps: table, accepting: automaton.accepting, letterCount: kept.count)
                steps.append(minimal.steps)
                accepting.append(minimal.accepting)
            } else {
                steps.append(table)
                accepting.append(automaton.accepting)
            }
            offset += automaton.stateCount
        }
        return TextProduct(steps: steps, accepting: accepting, examples: kept.map { letters[$0].example },
                           whiteSpace: whiteSpace.map { set in kept.map { set.contains(letters[$0].example.value) } },
                           maxLength: whiteSpace == nil ? nil : AdaptyLimits.maxValueLength)
    }
}
