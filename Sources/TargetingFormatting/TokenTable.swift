import TargetingBase
import TargetingSyntax

/// The tokens of a file, found by where they start and end.
///
/// The syntax tree keeps decoded values (a flow id, a test name); the formatter writes the
/// source spelling, which it reads from the token at the node's place.
struct TokenTable {
    /// The tokens in file order (so both their starts and their ends increase).
    private let tokens: [Token]

    /// Lexes `file` again.
    init(_ file: SourceFile) {
        tokens = Lexer.lex(file).tokens.filter { $0.kind != .endOfFile }
    }

    /// The index of the first token whose `key` offset is at least `offset`.
    private func firstIndex(_ offset: Int, by key: (Token) -> Int) -> Int {
        var low = 0
        var high = tokens.count
        while low < high {
            let mid = (low + high) / 2
            if key(tokens[mid]) < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func index(startingAt offset: Int) -> Int? {
        let index = firstIndex(offset) { $0.range.start.offset }
        return index < tokens.count && tokens[index].range.start.offset == offset ? index : nil
    }

    /// The token that starts where `range` starts.
    func token(startingAt range: SourceRange) -> Token? {
        index(startingAt: range.start.offset).map { tokens[$0] }
    }

    /// The token that ends where `range` ends.
    func token(endingAt range: SourceRange) -> Token? {
        let index = firstIndex(range.end.offset) { $0.range.end.offset }
        return index < tokens.count && tokens[index].range.end.offset == range.end.offset ? tokens[index] : nil
    }

    /// The token right after the one that starts where `range` starts.
    func token(after range: SourceRange) -> Token? {
        guard let index = index(startingAt: range.start.offset), index + 1 < tokens.count else { return nil }
        return tokens[index + 1]
    }

    /// The token right before the one that starts where `range` starts.
    func token(before range: SourceRange) -> Token? {
        guard let index = index(startingAt: range.start.offset), index > 0 else { return nil }
        return tokens[index - 1]
    }

    /// The source text of the token that starts where `range` starts, else `fallback`.
    func spelling(at range: SourceRange, or fallback: @autoclosure () -> String) -> String {
        token(startingAt: range)?.text ?? fallback()
    }
}
