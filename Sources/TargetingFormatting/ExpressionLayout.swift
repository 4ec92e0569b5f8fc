import TargetingBase
import TargetingSyntax

/// Lays out `segment NAME = EXPR` and `audience NAME = EXPR`: on one line when it fits in
/// `ExpressionLayout.width` columns, else broken at `or` and `and`.
///
/// A broken chain of `or` (or of `and`) puts each operand on its own line, all at one
/// indentation, each after the first led by its operator (`or b`). At the top of a declaration
/// the chain starts on the line after `NAME =`, indented two spaces. An operand that still does
/// not fit is broken the same way one level deeper: a parenthesised one keeps `(` at the end of
/// its first line (`or (`, `and not (`), its contents on the lines below indented two more
/// spaces and `)` alone on the last line at the operand's indentation; an `and` chain that is an
/// operand of an `or` chain without parentheses keeps its first operand on the operand's line
/// and indents its other operands two more spaces. An operand with no `or` or `and` inside (a
/// comparison, however long) stays on one line.
///
/// Every line covers the tokens it prints, so the comments of a broken expression stay beside
/// the operand they were written next to.
struct ExpressionLayout {
    /// The widest line, in characters, that an expression is written on without breaking it.
    static let width = 100
    /// The extra indentation of each nested level.
    static let step = 2

    /// Prints names, literals and expressions on one line.
    let printer: CodePrinter
    /// The tokens of the file, for the place of each operator and parenthesis.
    let tokens: TokenTable

    /// What a line holds before the expression it starts: a keyword, an operator, `not `.
    private struct Lead {
        /// The text before the expression.
        var text: String
        /// The first token of that text; nil when there is no text.
        var start: SourceRange?

        /// No text before the expression.
        static let none = Lead(text: "", start: nil)
    }

    /// The lines of a declaration `head expression` (`head` ends with `=`), which spans `range`
    /// and is written at indentation zero.
    func declaration(head: String, expression: Expression, range: SourceRange) -> [LayoutLine] {
        let lead = Lead(text: head + " ", start: range)
        guard isChain(expression), !fits(expression, indent: 0, lead: lead) else {
            return lines(expression, indent: 0, lead: lead)
        }
        let equals = tokens.token(before: expression.range)?.range ?? range
        return [LayoutLine(indent: 0, text: head, from: range, to: equals, role: .opener)]
            + block(expression, indent: Self.step)
    }

    /// Whether `expression` is a chain of `or` or of `and`.
    private func isChain(_ expression: Expression) -> Bool {
        switch expression {
        case .or, .and: true
        case .not, .group, .reference, .comparison, .prerequisite: false
        }
    }

    /// Whether `lead` and `expression` on one line at `indent` fit in the width.
    private func fits(_ expression: Expression, indent: Int, lead: Lead) -> Bool {
        indent + lead.text.count + printer.expression(expression).count <= Self.width
    }

    /// Whether breaking `expression` can shorten its first line: it has an `or` or an `and`
    /// outside any comparison.
    private func canBreak(_ expression: Expression) -> Bool {
        switch expression {
        case .or, .and: true
        case .not(let inner, _), .group(let inner, _): canBreak(inner)
        case .reference, .comparison, .prerequisite: false
        }
    }

    /// The lines of `expression` written after `lead` at `indent`: one line when it fits or
    /// cannot break, else broken as the type's summary describes.
    private func lines(_ expression: Expression, indent: Int, lead: Lead) -> [LayoutLine] {
        let start = lead.start ?? expression.range
        guard !fits(expression, indent: indent, lead: lead), canBreak(expression) else {
            return [LayoutLine(indent: indent, text: lead.text + printer.expression(expression), from: start, to: expression.range)]
        }
        switch expression {
        case .or(let items, _):
            return chain(items, keyword: "or", indent: indent, lead: lead, others: indent + Self.step)
        case .and(let items, _):
            return chain(items, keyword: "and", indent: indent, lead: lead, others: indent + Self.step)
        case .not(let inner, _):
            return lines(inner, indent: indent, lead: Lead(text: lead.text + "not ", start: start))
        case .group(let inner, let range):
            let open = tokens.token(startingAt: range)?.range ?? range
            let close = tokens.token(endingAt: range)?.range ?? range
            return [LayoutLine(indent: indent, text: lead.text + "(", from: start, to: open, role: .opener)]
                + block(inner, indent: indent + Self.step)
                + [LayoutLine(indent: indent, text: ")", range: close, role: .closer)]
        case .reference, .comparison, .prerequisite:
            // `canBreak` is false for these; they were written above.
            return [LayoutLine(indent: indent, text: lead.text + printer.expression(expression), from: start, to: expression.range)]
        }
    }

    /// The lines of `expression` on lines of its own at `indent`, below `NAME =` or inside
    /// parentheses that did not fit on one line: a chain puts each operand on a line of its own,
    /// all at `indent`.
    private func block(_ expression: Expression, indent: Int) -> [LayoutLine] {
        switch expression {
        case .or(let items, _):
            return chain(items, keyword: "or", indent: indent, lead: .none, others: indent)
        case .and(let items, _):
            return chain(items, keyword: "and", indent: indent, lead: .none, others: indent)
        case .not, .group, .reference, .comparison, .prerequisite:
            return lines(expression, indent: indent, lead: .none)
        }
    }

    /// The operands of a chain joined by `keyword`, one a line: the first after `lead` at
    /// `indent`, the others led by `keyword` at `others`.
    private func chain(_ items: [Expression], keyword: String, indent: Int, lead: Lead, others: Int) -> [LayoutLine] {
        guard let first = items.first else { return [] }
        var result = lines(first, indent: indent, lead: lead)
        for item in items.dropFirst() {
            let operatorToken = tokens.token(before: item.range)?.range ?? item.range
            result += lines(item, indent: others, lead: Lead(text: keyword + " ", start: operatorToken))
        }
        return result
    }
}
