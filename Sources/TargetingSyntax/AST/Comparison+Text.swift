extension AttributeReference {
    /// The reference as written in rules: `key`, `` `any-key` ``, `profile.field`, or a
    /// history subject with single spaces (`shown main_paywall in 7d`).
    package var sourceText: String {
        switch (target, spelling) {
        case (.builtin, _), (.custom, .bare): target.written
        case (.custom(let key), _): "`" + key + "`"
        case (.shownCount, _), (.lastShown, _): displayName
        }
    }
}

extension Comparison {
    /// The comparison on one line with single spaces, literals as written:
    /// `subject op operands [ignoring case]`. `subject` replaces the subject's spelling.
    package func text(subject: String? = nil) -> String {
        var text: String
        switch self.subject {
        case .now: text = subject ?? "now"
        case .attribute(let reference): text = subject ?? reference.sourceText
        }
        text += " " + op.rawValue
        switch op.arity {
        case .none:
            break
        case .one, .pattern:
            if let operand = operands.first { text += " " + operand.text }
        case .two:
            if operands.count == 2 { text += " " + operands[0].text + " \(ComparisonOperator.boundsJoiner.rawValue) " + operands[1].text }
        case .list:
            if let list { text += " [" + list.items.map(\.text).joined(separator: ", ") + "]" }
        }
        if ignoringCase { text += " ignoring case" }
        return text
    }
}
