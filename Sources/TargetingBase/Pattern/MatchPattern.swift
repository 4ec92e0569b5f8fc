/// The pattern of one `matches` comparison, parsed and compiled once: what evaluation, the
/// explanation, SQL and the analysis read.
///
/// Two patterns are equal when they are written the same and agree on `ignoring case`.
package struct MatchPattern: Hashable, Sendable, CustomStringConvertible {
    /// The text between the slashes, as written.
    package let source: String
    /// Whether the value is lowercased before matching (and the pattern was, when parsed).
    package let ignoringCase: Bool
    /// The pattern's structure (lowercased under `ignoring case`).
    package let node: PatternNode
    /// The compiled automaton.
    package let automaton: PatternAutomaton

    /// Parses and compiles `source`; the error says where it is not a pattern.
    package static func compile(_ source: String, ignoringCase: Bool) -> Result<MatchPattern, PatternSyntaxError> {
        PatternParser.parse(source, ignoringCase: ignoringCase).map { MatchPattern(source: source, ignoringCase: ignoringCase, node: $0) }
    }

    /// A pattern that matches no value, for a comparison whose pattern did not compile.
    package static func nothing(written: String, ignoringCase: Bool) -> MatchPattern {
        MatchPattern(source: written, ignoringCase: ignoringCase, node: .set(ScalarSet()))
    }

    private init(source: String, ignoringCase: Bool, node: PatternNode) {
        self.source = source
        self.ignoringCase = ignoringCase
        self.node = node
        automaton = PatternAutomaton(node)
    }

    /// Whether `value` (already trimmed, as `==` reads it) matches the whole pattern, after
    /// lowercasing under `ignoring case`.
    package func matches(_ value: String) -> Bool {
        automaton.matches(ignoringCase ? CaseFolding.lowercase(value) : value)
    }

    /// `/source/`, as written in the rules.
    package var description: String { "/" + source + "/" }

    package static func == (lhs: MatchPattern, rhs: MatchPattern) -> Bool {
        lhs.source == rhs.source && lhs.ignoringCase == rhs.ignoringCase
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(ignoringCase)
    }
}
