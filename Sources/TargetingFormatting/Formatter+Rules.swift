import TargetingBase
import TargetingSyntax

extension Formatter {
    /// The code lines of a rules file, in source order.
    static func layout(_ file: RuleFile, tokens: TokenTable) -> [LayoutLine] {
        let printer = CodePrinter(tokens: tokens)
        let expressions = ExpressionLayout(printer: printer, tokens: tokens)
        var lines: [LayoutLine] = []
        for declaration in file.declarations {
            switch declaration {
            case .attribute(let attribute):
                var text = "attribute " + printer.reference(attribute.name) + ": " + attribute.type.rawValue
                if let allowed = attribute.allowed {
                    text += (attribute.type == .set ? " of " : " one of ") + printer.list(allowed)
                }
                lines.append(LayoutLine(indent: 0, text: text, range: attribute.range))
            case .input(let input):
                let screen = input.screen.map { printer.element($0) + "/" } ?? ""
                let text = "input " + screen + printer.element(input.element) + " -> " + printer.reference(input.target)
                lines.append(LayoutLine(indent: 0, text: text, range: input.range))
            case .segment(let segment):
                lines += expressions.declaration(head: "segment " + segment.name.text + " =", expression: segment.expression,
                                                 range: segment.range)
            case .audience(let audience):
                lines += expressions.declaration(head: "audience " + audience.name.text + " =", expression: audience.expression,
                                                 range: audience.range)
            case .placement(let placement):
                layoutPlacement(placement, printer: printer, tokens: tokens, into: &lines)
            case .experiment(let experiment):
                layoutExperiment(experiment, printer: printer, tokens: tokens, into: &lines)
            case .holdout(let holdout):
                var text = "holdout " + holdout.name.text + " " + holdout.weight.text + "%"
                if let key = holdout.key { text += " by " + printer.reference(key) }
                if !holdout.excepted.isEmpty { text += " except " + holdout.excepted.map(\.text).joined(separator: ", ") }
                lines.append(LayoutLine(indent: 0, text: text, range: holdout.range))
            case .layer(let layer):
                layoutLayer(layer, printer: printer, tokens: tokens, into: &lines)
            }
        }
        return lines
    }

    /// `layer NAME [by KEY] {`, one line per experiment with the weights aligned, `}`.
    private static func layoutLayer(_ layer: LayerDeclaration, printer: CodePrinter, tokens: TokenTable, into lines: inout [LayoutLine]) {
        let head = layer.key?.range ?? layer.name.range
        let open = tokens.token(after: head)?.range ?? head
        let key = layer.key.map { " by " + printer.reference($0) } ?? ""
        lines.append(LayoutLine(indent: 0, text: LayerDeclaration.word + " " + layer.name.text + key + " {", from: layer.range, to: open, role: .opener))
        let weights = layer.members.map { $0.weight.text + "%" }
        let weightWidth = weights.map(\.count).max() ?? 0
        for (member, weight) in zip(layer.members, weights) {
            let text = String(repeating: " ", count: weightWidth - weight.count) + weight + " " + member.experiment.text
            lines.append(LayoutLine(indent: 2, text: text, range: member.range))
        }
        lines.append(closingBrace(of: layer.range, indent: 0, tokens: tokens))
    }

    /// `placement NAME {`, one line per row with the arrows aligned, `}`.
    private static func layoutPlacement(_ placement: PlacementDeclaration, printer: CodePrinter, tokens: TokenTable,
                                        into lines: inout [LayoutLine]) {
        let open = tokens.token(after: placement.name.range)?.range ?? placement.name.range
        lines.append(LayoutLine(indent: 0, text: "placement " + placement.name.text + " {",
                                from: placement.range, to: open, role: .opener))
        // `always` is the row's first word; the arrows align after it.
        func lead(_ row: PlacementRow) -> String { (row.always == nil ? "" : PlacementRow.alwaysWord + " ") + row.audience.name }
        let width = placement.rows.map { lead($0).count }.max() ?? 0
        for row in placement.rows {
            let name = lead(row)
            let head = name + String(repeating: " ", count: width - name.count) + " -> "
            if case .experiment(let experiment) = row.destination {
                let armsOpen = tokens.token(after: experiment.experiment.range)?.range ?? experiment.experiment.range
                lines.append(LayoutLine(indent: 2, text: head + experiment.experiment.text + " {",
                                        from: row.range, to: armsOpen, role: .opener))
                let armWidth = experiment.arms.map { $0.variant.text.count }.max() ?? 0
                for arm in experiment.arms {
                    let name = arm.variant.text
                    let text = name + String(repeating: " ", count: armWidth - name.count) + " -> " + printer.destination(arm.destination)
                    lines.append(LayoutLine(indent: 4, text: text, range: arm.range))
                }
                lines.append(closingBrace(of: experiment.range, indent: 2, tokens: tokens))
                continue
            }
            guard case .split(let split) = row.destination else {
                lines.append(LayoutLine(indent: 2, text: head + printer.destination(row.destination), range: row.range))
                continue
            }
            let splitOpen = tokens.token(after: split.key?.range ?? split.idRange)?.range ?? split.idRange
            lines.append(LayoutLine(indent: 2, text: head + printer.destination(row.destination) + " {",
                                    from: row.range, to: splitOpen, role: .opener))
            let weights = split.variants.map { $0.weight.text + "%" }
            let weightWidth = weights.map(\.count).max() ?? 0
            for (variant, weight) in zip(split.variants, weights) {
                let text = String(repeating: " ", count: weightWidth - weight.count) + weight + " -> " + printer.destination(variant.destination)
                lines.append(LayoutLine(indent: 4, text: text, range: variant.range))
            }
            lines.append(closingBrace(of: split.range, indent: 2, tokens: tokens))
        }
        lines.append(closingBrace(of: placement.range, indent: 0, tokens: tokens))
    }

    /// `experiment NAME [by KEY] [sticky DURATION] {`, one line per variant with the weights
    /// aligned right, `}`. The duration keeps its spelling.
    private static func layoutExperiment(_ experiment: ExperimentDeclaration, printer: CodePrinter, tokens: TokenTable,
                                         into lines: inout [LayoutLine]) {
        let head = experiment.sticky?.range ?? experiment.key?.range ?? experiment.name.range
        let open = tokens.token(after: head)?.range ?? head
        let key = experiment.key.map { " by " + printer.reference($0) } ?? ""
        let sticky = experiment.sticky.map { " sticky " + $0.text } ?? ""
        lines.append(LayoutLine(indent: 0, text: "experiment " + experiment.name.text + key + sticky + " {",
                                from: experiment.range, to: open, role: .opener))
        let weights = experiment.variants.map { $0.weight.text + "%" }
        let weightWidth = weights.map(\.count).max() ?? 0
        for (variant, weight) in zip(experiment.variants, weights) {
            let text = String(repeating: " ", count: weightWidth - weight.count) + weight + " " + variant.name.text
            lines.append(LayoutLine(indent: 2, text: text, range: variant.range))
        }
        lines.append(closingBrace(of: experiment.range, indent: 0, tokens: tokens))
    }

    /// The `}` line that ends the block written at `range`.
    static func closingBrace(of range: SourceRange, indent: Int, tokens: TokenTable) -> LayoutLine {
        let brace = tokens.token(endingAt: range)?.range ?? SourceRange(file: range.file, start: range.end, end: range.end)
        return LayoutLine(indent: indent, text: "}", range: brace, role: .closer)
    }
}
