import TargetingBase
import TargetingFormatting
import TargetingSyntax

/// Hover on the pattern of `ATTR matches /PATTERN/ [ignoring case]`, or on its `matches`: an
/// example value the pattern accepts (the shortest), that it accepts none, or why the text
/// between the slashes is not a pattern.
extension LanguageServer {
    /// The hover text and range for a `matches` comparison under byte `offset`, if any.
    func patternHover(_ request: DocumentRequest, _ offset: Int) -> (String, SourceRange)? {
        guard let file = request.analysis.ruleFile(request.path) else { return nil }
        func holds(_ range: SourceRange) -> Bool { range.start.offset <= offset && offset <= range.end.offset }
        for declaration in file.declarations {
            let expression: Expression
            switch declaration {
            case .segment(let d), .audience(let d): expression = d.expression
            case .attribute, .input, .placement, .experiment, .holdout, .layer: continue
            }
            for comparison in expression.comparisons where comparison.op == .matches && holds(comparison.range) {
                guard let literal = comparison.operands.first, case .pattern(let source) = literal.value else { continue }
                let operatorEnd = comparison.operatorRange.start.offset + ComparisonOperator.matches.rawValue.utf8.count
                let onOperator = comparison.operatorRange.start.offset <= offset && offset <= operatorEnd
                guard onOperator || holds(literal.range) else { continue }
                return (LanguageServer.describePattern(source, ignoringCase: comparison.ignoringCase, written: literal.text), literal.range)
            }
        }
        return nil
    }

    /// What a pattern accepts, in words: `/…/` and an example value, "matches no value", or
    /// the reason it is not a pattern.
    static func describePattern(_ source: String, ignoringCase: Bool, written: String) -> String {
        let title = "pattern " + inlineCode(written) + (ignoringCase ? " ignoring case" : "")
        switch MatchPattern.compile(source, ignoringCase: ignoringCase) {
        case .failure(let error):
            var text = title + ": not a pattern: " + error.message
            if let help = error.help { text += "\n\nhelp: " + help }
            return text
        case .success(let pattern):
            let whole = "matches the whole value" + (ignoringCase ? ", lowercased" : "")
            if let example = pattern.shortestMatch() {
                return title + ": " + whole + "\n\ne.g. " + inlineCode(CodePrinter.quoted(example)) + " (the shortest value it accepts)"
            }
            if pattern.automaton.shortestMatch() != nil {
                return title + ": " + whole + "\n\nno example: every value it accepts changes when lowercased"
            }
            return title + ": **matches nothing**: no value is accepted"
        }
    }

    /// `text` as a Markdown code span, fenced with more backticks than it holds in a row.
    static func inlineCode(_ text: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + padding + text + padding + fence
    }
}
