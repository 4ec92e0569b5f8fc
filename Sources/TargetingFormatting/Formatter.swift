import TargetingBase
import TargetingSyntax

/// Writes rules and tests files in one canonical layout, keeping every comment.
///
/// The canonical style:
/// - One declaration per line group. Where the source had one or more blank lines between two
///   lines (declarations, comments, rows, test lines) the output has exactly one; where it had
///   none there is none. No blank line follows a `{` or precedes a `}`, and none starts or ends
///   the file.
/// - `attribute NAME: TYPE`, `attribute NAME: string one of ["a", "b"]`, `attribute NAME: set of
///   [..]`, `input [SCREEN/]ELEMENT -> TARGET` each on one line, whatever lines the source
///   spread them over; so are `segment NAME = EXPR` / `audience NAME = EXPR` when they fit in
///   `ExpressionLayout.width` (100) columns. A longer one is broken at its `or`s or `and`s, one operand a line, and an
///   operand that still does not fit is broken the same way one level deeper (`ExpressionLayout`).
/// - Expressions: single spaces around operators and keywords (`x >= 18`, `a and not b`,
///   `x not in ["a"]`, `now - 7d`), parentheses kept as written but tight (`(a or b)`), lists
///   `["a", "b"]` with `, ` and no trailing comma.
/// - Literals keep their source spelling (`Literal.text`: escapes, `-3.50`, date forms), and so
///   do names: bare, `` `backticked` `` or `"string"` element names, string ids of flows,
///   paywalls, splits, tests and given files.
/// - Placements: `placement NAME {`, rows indented two spaces with the `->` of all rows of the
///   placement aligned (audience names padded), a split's variants indented four spaces with
///   their `N%` weights right-aligned, each `}` on its own line.
/// - Tests: `test "NAME" {`, body lines (`now`, `given`, `expect`, in source order) indented two
///   spaces, `given {` assignments indented four, `ATTRIBUTE = VALUE`.
/// - Comments: a comment on its own line stays on its own line before the line that follows it,
///   with that line's indentation (before a `}`, the indentation of the block's contents; at the
///   end of the file, none). A comment after code stays at the end of that code's line, after two
///   spaces. A comment inside a construct the formatter joins onto one line (an expression or
///   an operand that fits on one line, a row split over lines) moves onto its own line above that
///   line. Trailing white space is removed from comments.
/// - LF line breaks, no byte order mark, exactly one newline at the end; a file with no code and
///   no comments formats to the empty text.
///
/// Every result is checked before it is returned: the output must parse to the same syntax tree
/// (positions aside), hold the same comments in the same order, and format to itself.
package enum Formatter {
    /// Formats a `.rules` file, or a `.tests` file (chosen by the path's extension).
    ///
    /// Fails with `.syntax` when the file does not parse, and with `.unsound` when the output
    /// would not pass the soundness check; in both cases nothing should be written.
    package static func format(_ file: SourceFile) -> Result<String, FormatError> {
        let original: Parsed
        switch parse(file) {
        case .failure(let error): return .failure(error)
        case .success(let parsed): original = parsed
        }
        let output = render(original)
        if let problem = soundnessProblem(original: original, output: output) {
            return .failure(.unsound(problem))
        }
        return .success(output)
    }

    /// A parsed file of either kind, with what the soundness check compares.
    struct Parsed {
        /// The source.
        var source: SourceFile
        /// The code lines in source order.
        var lines: [LayoutLine]
        /// The comments in source order.
        var comments: [Comment]
        /// The position-free dump of the syntax tree.
        var dump: String
    }

    /// Whether a path names a tests file.
    static func isTestsFile(_ path: String) -> Bool { path.hasSuffix(".tests") }

    /// Parses `file` as rules or tests; fails when it has syntax errors.
    static func parse(_ file: SourceFile) -> Result<Parsed, FormatError> {
        let tokens = TokenTable(file)
        if isTestsFile(file.path) {
            let (parsed, diagnostics) = Parser.parseTests(file)
            if diagnostics.contains(where: \.isError) { return .failure(.syntax(Diagnostic.sorted(diagnostics))) }
            return .success(Parsed(source: file, lines: layout(parsed, tokens: tokens), comments: parsed.comments,
                                   dump: SyntaxTreeDump.tests(parsed)))
        }
        let (parsed, diagnostics) = Parser.parseRules(file)
        if diagnostics.contains(where: \.isError) { return .failure(.syntax(Diagnostic.sorted(diagnostics))) }
        return .success(Parsed(source: file, lines: layout(parsed, tokens: tokens), comments: parsed.comments,
                               dump: SyntaxTreeDump.rules(parsed)))
    }

    /// The formatted text of a parsed file.
    static func render(_ parsed: Parsed) -> String {
        assemble(parsed.lines, comments: parsed.comments, source: parsed.source)
    }
}
