import TargetingBase
import TargetingSyntax

extension Checker {
    /// Warns when no listed value of a `one of` attribute satisfies the fragment of a
    /// `contains`, `starts with` or `ends with` comparison: a fragment is not a value,
    /// so it is not held to the list, but a comparison no value can make true is a mistake.
    ///
    /// Text is compared by its UTF-8 bytes, as evaluation does; with `ignoring case` both sides
    /// are lowercased first, as evaluation lowercases them (final sigma included).
    mutating func checkFragment(_ comparison: Comparison, name: String, allowed: [String]) {
        let matches: (String, String) -> Bool
        switch comparison.op {
        case .startsWith: matches = ByteText.hasPrefix
        case .endsWith: matches = ByteText.hasSuffix
        case .contains: matches = ByteText.contains
        case .matches:
            checkPatternAgainstValues(comparison, name: name, allowed: allowed)
            return
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .isIn, .isNotIn, .has, .hasAny,
             .hasAll, .hasNone, .isSet, .isNotSet:
            return
        }
        guard !allowed.isEmpty, let literal = comparison.literals.first, case .string(let fragment) = literal.value else { return }
        let fold = comparison.ignoringCase
        let part = fold ? CaseFolding.lowercase(fragment) : fragment
        let satisfied = allowed.contains { value in matches(fold ? CaseFolding.lowercase(value) : value, part) }
        if !satisfied {
            report(.fragmentNeverMatches(fragment, op: comparison.op, name: name, allowed: allowed, at: literal.range))
        }
    }

    /// Warns when no listed value of a `one of` attribute matches the pattern of `matches`.
    mutating func checkPatternAgainstValues(_ comparison: Comparison, name: String, allowed: [String]) {
        guard !allowed.isEmpty, let literal = comparison.literals.first, case .pattern(let source) = literal.value,
              case .success(let pattern) = MatchPattern.compile(source, ignoringCase: comparison.ignoringCase) else { return }
        if !allowed.contains(where: { pattern.matches($0) }) {
            report(.fragmentNeverMatches(literal.text, op: comparison.op, name: name, allowed: allowed, at: literal.range))
        }
    }

    /// Reports the first character of a `matches` pattern that is outside the pattern
    /// language, at that character.
    mutating func checkPattern(_ comparison: Comparison) {
        guard comparison.op == .matches, let literal = comparison.literals.first, case .pattern(let source) = literal.value,
              case .failure(let error) = MatchPattern.compile(source, ignoringCase: comparison.ignoringCase) else { return }
        // The pattern is on one line, one byte (the slash) after the literal's start.
        let origin = literal.range.start
        let start = SourcePosition(offset: origin.offset + 1 + error.byteOffset, line: origin.line, column: origin.column + 1 + error.scalarOffset)
        let end = SourcePosition(offset: start.offset + error.byteLength, line: origin.line, column: start.column + error.scalarLength)
        report(.invalidPattern(error.message, help: error.help, at: SourceRange(file: literal.range.file, start: start, end: end)))
    }
}
