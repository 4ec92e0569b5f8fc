import TargetingBase
import TargetingSyntax

/// Writes the pieces of a declaration in canonical form, keeping the source spelling of
/// names and literals.
package struct CodePrinter {
    /// The tokens of the file being formatted.
    let tokens: TokenTable

    /// `experience`, `` `any-key` `` or `profile.age`, as written.
    func reference(_ reference: AttributeReference) -> String {
        // A history subject is several words: printed with single spaces, names as written.
        if !reference.placementNames.isEmpty { return reference.sourceText }
        return tokens.spelling(at: reference.range, or: reference.sourceText)
    }

    /// An input's screen or element name, as written (bare, backticked or a string).
    func element(_ name: ElementName) -> String {
        tokens.spelling(at: name.range, or: {
            switch name.spelling {
            case .bare: return name.text
            case .backticks: return "`" + name.text + "`"
            case .string: return CodePrinter.quoted(name.text)
            }
        }())
    }

    /// The string literal that starts where `range` starts, as written.
    package func string(_ value: String, at range: SourceRange) -> String {
        tokens.spelling(at: range, or: CodePrinter.quoted(value))
    }

    /// A literal as written (`now - 7d` with single spaces).
    func literal(_ literal: Literal) -> String { literal.text }

    /// `["a", "b"]`: items as written, `, ` between them, no trailing comma.
    func list(_ list: ListLiteral) -> String {
        "[" + list.items.map(literal).joined(separator: ", ") + "]"
    }

    /// `flow "ID"`, `paywall "ID"` or `nothing`; a split prints only its head, `split "ID" [by KEY]`,
    /// and an experiment row its name.
    func destination(_ destination: Destination) -> String {
        switch destination {
        case .flow(let id, let range):
            return "flow " + (tokens.token(endingAt: range)?.text ?? CodePrinter.quoted(id))
        case .paywall(let id, let range):
            return "paywall " + (tokens.token(endingAt: range)?.text ?? CodePrinter.quoted(id))
        case .nothing:
            return "nothing"
        case .split(let split):
            return "split " + string(split.id, at: split.idRange) + (split.key.map { " by " + reference($0) } ?? "")
        case .experiment(let experiment):
            return experiment.experiment.text
        }
    }

    /// An expression on one line: single spaces around `and`/`or`, `not x`, `(x)`.
    func expression(_ expression: Expression) -> String {
        switch expression {
        case .or(let items, _): return items.map(self.expression).joined(separator: " or ")
        case .and(let items, _): return items.map(self.expression).joined(separator: " and ")
        case .not(let inner, _): return "not " + self.expression(inner)
        case .group(let inner, _): return "(" + self.expression(inner) + ")"
        case .reference(let name): return name.text
        case .comparison(let comparison): return self.comparison(comparison)
        case .prerequisite(let prerequisite): return self.prerequisite(prerequisite)
        }
    }

    /// `placement P -> OUTCOME` or `placement P -> [OUTCOME, …]` with single spaces, ids as written.
    func prerequisite(_ prerequisite: Prerequisite) -> String {
        let outcomes = prerequisite.outcomes.map { outcome -> String in
            switch outcome {
            case .destination(let shown): destination(shown)
            case .noMatch, .variant: outcome.description
            }
        }
        let written = prerequisite.isList ? "[" + outcomes.joined(separator: ", ") + "]" : outcomes.joined()
        return "placement " + prerequisite.placement.text + " -> " + written
    }

    /// `subject op operands [ignoring case]` with single spaces, the subject as written.
    func comparison(_ comparison: Comparison) -> String {
        switch comparison.subject {
        case .now: comparison.text()
        case .attribute(let attribute): comparison.text(subject: reference(attribute))
        }
    }

    /// A string literal for `value`, with the language's escapes; every control character
    /// (U+0000 included) is written as an escape, never raw.
    package static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default:
                if scalar.properties.generalCategory == .control {
                    text += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}
