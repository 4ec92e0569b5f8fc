import TargetingSyntax

/// A position-free text form of a parsed file: two files dump equal exactly when they hold the
/// same declarations (or tests), written with the same names, spellings and literals, whatever
/// their layout.
///
/// Expressions print fully parenthesised (`(a and b)`, `(not a)`, `group(a)` for source
/// parentheses); literals print their value and their source text.
package enum SyntaxTreeDump {
    /// One line per declaration.
    package static func rules(_ file: RuleFile) -> String {
        file.declarations.map(declaration).joined(separator: "\n")
    }

    /// One line per test.
    package static func tests(_ file: TestFile) -> String {
        file.tests.map(test).joined(separator: "\n")
    }

    static func declaration(_ declaration: Declaration) -> String {
        switch declaration {
        case .attribute(let attribute):
            let allowed = attribute.allowed.map { " allowed " + list($0) } ?? ""
            return "attribute \(reference(attribute.name)): \(attribute.type.rawValue)\(allowed)"
        case .input(let input):
            let screen = input.screen.map(element) ?? "-"
            return "input \(screen) / \(element(input.element)) -> \(reference(input.target))"
        case .segment(let segment):
            return "segment \(segment.name.text) = \(expression(segment.expression))"
        case .audience(let audience):
            return "audience \(audience.name.text) = \(expression(audience.expression))"
        case .placement(let placement):
            let rows = placement.rows.map { row -> String in
                let always = row.always == nil ? "" : "always "
                switch row.audience {
                case .everyone: return always + "everyone -> " + destination(row.destination)
                case .audience(let name): return always + "audience(\(name.text)) -> " + destination(row.destination)
                }
            }
            return "placement \(placement.name.text) { \(rows.joined(separator: "; ")) }"
        case .experiment(let experiment):
            let variants = experiment.variants.map { literal($0.weight) + "% " + $0.name.text }
            let sticky = experiment.sticky.map { " sticky(\(quoted($0.text)) = \($0.milliseconds)ms)" } ?? ""
            return "experiment \(experiment.name.text) by \(experiment.key.map(reference) ?? "-")\(sticky) { \(variants.joined(separator: "; ")) }"
        case .holdout(let holdout):
            let excepted = holdout.excepted.map(\.text).joined(separator: ", ")
            return "holdout \(holdout.name.text) \(literal(holdout.weight))% by \(holdout.key.map(reference) ?? "-") except [\(excepted)]"
        case .layer(let layer):
            let members = layer.members.map { "\(literal($0.weight))% \($0.experiment.text)" }.joined(separator: "; ")
            return "layer \(layer.name.text) by \(layer.key.map(reference) ?? "-") { \(members) }"
        }
    }

    static func test(_ test: TestDeclaration) -> String {
        let nows = test.nows.map(literal).joined(separator: ", ")
        let givens = test.givens.map(given).joined(separator: "; ")
        let expectations = test.expectations.map(expectation).joined(separator: "; ")
        return "test \(quoted(test.name)) { now [\(nows)] given [\(givens)] expect [\(expectations)] }"
    }

    static func given(_ given: Given) -> String {
        switch given {
        case .assignments(let assignments, _):
            let items = assignments.map { line -> String in
                switch line {
                case .attribute(let assignment):
                    switch assignment.value {
                    case .literal(let value): return reference(assignment.target) + " = " + literal(value)
                    case .list(let value): return reference(assignment.target) + " = " + list(value)
                    }
                case .shown(let shown): return "shown \(shown.placement.text) at " + literal(shown.at)
                case .assigned(let assigned): return "assigned \(assigned.experiment.text) \(assigned.variant.text) at " + literal(assigned.at)
                }
            }
            return "assign { \(items.joined(separator: ", ")) }"
        case .events(let path, _): return "events \(quoted(path.path))"
        case .profile(let path, _): return "profile \(quoted(path.path))"
        }
    }

    static func expectation(_ expectation: Expectation) -> String {
        switch expectation {
        case .placement(let name, let expected, _):
            let outcome: String
            switch expected.outcome {
            case .destination(let target): outcome = destination(target)
            case .noMatch: outcome = "no match"
            }
            return "\(name.text) -> \(outcome)" + (expected.audience.map { " from \($0.text)" } ?? "")
                + (expected.variant.map { " from variant(\($0.experiment.text), \($0.variant.text))" } ?? "")
        case .membership(let name, let negated, _): return (negated ? "not " : "") + name.text
        case .heldOut(let negated, _, _): return (negated ? "not " : "") + "held-out"

        }
    }

    static func destination(_ destination: Destination) -> String {
        switch destination {
        case .flow(let id, _): return "flow \(quoted(id))"
        case .paywall(let id, _): return "paywall \(quoted(id))"
        case .nothing: return "nothing"
        case .split(let split):
            let variants = split.variants.map { literal($0.weight) + "% -> " + self.destination($0.destination) }
            return "split \(quoted(split.id)) by \(split.key.map(reference) ?? "-") { \(variants.joined(separator: "; ")) }"
        case .experiment(let experiment):
            let arms = experiment.arms.map { $0.variant.text + " -> " + self.destination($0.destination) }
            return "experiment \(experiment.experiment.text) { \(arms.joined(separator: "; ")) }"
        }
    }

    static func expression(_ expression: Expression) -> String {
        switch expression {
        case .or(let items, _): return "(" + items.map(self.expression).joined(separator: " or ") + ")"
        case .and(let items, _): return "(" + items.map(self.expression).joined(separator: " and ") + ")"
        case .not(let inner, _): return "(not " + self.expression(inner) + ")"
        case .group(let inner, _): return "group(" + self.expression(inner) + ")"
        case .reference(let name): return name.text
        case .comparison(let comparison): return self.comparison(comparison)
        case .prerequisite(let prerequisite):
            let outcomes = prerequisite.outcomes.map { outcome -> String in
                switch outcome {
                case .destination(let shown): destination(shown)
                case .noMatch: "no_match"
                case .variant(let experiment, let variant): "variant(\(experiment.text), \(variant.text))"
                }
            }
            return "prerequisite(\(prerequisite.placement.text)" + (prerequisite.isList ? ", list" : "") + " -> " + outcomes.joined(separator: ", ") + ")"
        }
    }

    static func comparison(_ comparison: Comparison) -> String {
        var parts: [String] = []
        switch comparison.subject {
        case .now: parts.append("now")
        case .attribute(let attribute): parts.append(reference(attribute))
        }
        parts.append(comparison.op.rawValue)
        parts.append(contentsOf: comparison.operands.map(literal))
        if let items = comparison.list { parts.append(list(items)) }
        if comparison.ignoringCase { parts.append("ignoring case") }
        return "[" + parts.joined(separator: " ") + "]"
    }

    static func reference(_ reference: AttributeReference) -> String {
        let spelling: String
        switch reference.spelling {
        case .bare: spelling = "bare"
        case .backticks: spelling = "backticks"
        case .string: spelling = "string"
        }
        switch reference.target {
        case .custom(let key): return "custom(\(quoted(key)), \(spelling))"
        case .builtin(let field): return "builtin(\(quoted(field)), \(spelling))"
        case .shownCount(let placements, let window):
            return "shown(\(placements.map(quoted).joined(separator: ", "))" + (reference.window.map { ", in: \(quoted($0.text))" } ?? "")
                + (window.map { " = \($0)ms" } ?? "") + ")"
        case .lastShown(let placements): return "last_shown(\(placements.map(quoted).joined(separator: ", ")))"
        }
    }

    static func element(_ name: ElementName) -> String {
        switch name.spelling {
        case .bare: return "bare(\(quoted(name.text)))"
        case .backticks: return "backticks(\(quoted(name.text)))"
        case .string: return "string(\(quoted(name.text)))"
        }
    }

    static func list(_ list: ListLiteral) -> String {
        "[" + list.items.map(literal).joined(separator: ", ") + "]"
    }

    static func literal(_ literal: Literal) -> String {
        let value: String
        switch literal.value {
        case .string(let text): value = "string(\(quoted(text)))"
        case .number(let number): value = "number(\(number))"
        case .bool(let flag): value = "bool(\(flag))"
        case .date(let ms): value = "date(\(ms.map(String.init) ?? "invalid"))"
        case .now(let offset): value = "now(\(offset))"
        case .pattern(let source): value = "pattern(\(quoted(source)))"
        }
        return value + "@" + quoted(literal.text)
    }

    static func quoted(_ text: String) -> String { String(reflecting: text) }
}
