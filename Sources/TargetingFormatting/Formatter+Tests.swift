import TargetingSyntax

extension Formatter {
    /// The code lines of a tests file, in source order.
    static func layout(_ file: TestFile, tokens: TokenTable) -> [LayoutLine] {
        let printer = CodePrinter(tokens: tokens)
        var lines: [LayoutLine] = []
        for test in file.tests {
            let open = tokens.token(after: test.nameRange)?.range ?? test.nameRange
            lines.append(LayoutLine(indent: 0, text: "test " + printer.string(test.name, at: test.nameRange) + " {",
                                    from: test.range, to: open, role: .opener))
            // The syntax tree keeps `now`, `given` and `expect` lines apart; write them back in source order.
            var body: [(offset: Int, lines: [LayoutLine])] = []
            for now in test.nows {
                let keyword = tokens.token(before: now.range)?.range ?? now.range
                body.append((keyword.start.offset, [LayoutLine(indent: 2, text: "now " + printer.literal(now), from: keyword, to: now.range)]))
            }
            for given in test.givens {
                body.append((given.range.start.offset, layoutGiven(given, printer: printer, tokens: tokens)))
            }
            for expectation in test.expectations {
                body.append((expectation.range.start.offset, [layoutExpectation(expectation, printer: printer)]))
            }
            for item in body.sorted(by: { $0.offset < $1.offset }) { lines.append(contentsOf: item.lines) }
            lines.append(closingBrace(of: test.range, indent: 0, tokens: tokens))
        }
        return lines
    }

    /// `given events "…"`, `given profile "…"`, or `given {` with one assignment a line and `}`.
    private static func layoutGiven(_ given: Given, printer: CodePrinter, tokens: TokenTable) -> [LayoutLine] {
        switch given {
        case .events(let path, let range):
            return [LayoutLine(indent: 2, text: "given events " + printer.string(path.path, at: path.range), range: range)]
        case .profile(let path, let range):
            return [LayoutLine(indent: 2, text: "given profile " + printer.string(path.path, at: path.range), range: range)]
        case .assignments(let assignments, let range):
            let open = tokens.token(after: range)?.range ?? range
            var lines = [LayoutLine(indent: 2, text: "given {", from: range, to: open, role: .opener)]
            for line in assignments {
                switch line {
                case .attribute(let assignment):
                    let value: String
                    switch assignment.value {
                    case .literal(let literal): value = printer.literal(literal)
                    case .list(let list): value = printer.list(list)
                    }
                    lines.append(LayoutLine(indent: 4, text: printer.reference(assignment.target) + " = " + value, range: assignment.range))
                case .shown(let shown):
                    lines.append(LayoutLine(indent: 4, text: "shown \(shown.placement.text) at " + printer.literal(shown.at), range: shown.range))
                case .assigned(let assigned):
                    let text = "assigned \(assigned.experiment.text) \(assigned.variant.text) at " + printer.literal(assigned.at)
                    lines.append(LayoutLine(indent: 4, text: text, range: assigned.range))
                }
            }
            lines.append(closingBrace(of: range, indent: 2, tokens: tokens))
            return lines
        }
    }

    /// `expect NAME -> DESTINATION`, `expect NAME`, `expect not NAME` or `expect [not] held out`.
    private static func layoutExpectation(_ expectation: Expectation, printer: CodePrinter) -> LayoutLine {
        let text: String
        switch expectation {
        case .placement(let name, let expected, _):
            let outcome: String
            switch expected.outcome {
            case .destination(let destination): outcome = printer.destination(destination)
            case .noMatch: outcome = "no match"
            }
            let variant = expected.variant.map { " from \($0.experiment.text).\($0.variant.text)" } ?? ""
            text = "expect " + name.text + " -> " + outcome + (expected.audience.map { " from " + $0.text } ?? "") + variant
        case .membership(let name, let negated, _):
            text = "expect " + (negated ? "not " : "") + name.text
        case .heldOut(let negated, _, _):
            text = "expect " + (negated ? "not " : "") + "held out"
        }
        return LayoutLine(indent: 2, text: text, range: expectation.range)
    }
}
