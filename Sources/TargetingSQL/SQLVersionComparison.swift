import TargetingBase

/// SemVer 2.0 precedence of a stored version (columns `s<N>_maj/_min/_pat/_pre`) against a
/// literal known at compile time, as SQL specialised to that literal.
struct SQLVersionComparison {
    /// The column prefix, `s<N>_`.
    let prefix: String

    /// A SQL integer: -1, 0 or 1 as the stored version is below, equal to or above `literal`.
    func compare(to literal: SemanticVersion) -> SQLExpression {
        let below = SQLExpression.integer(-1), above = SQLExpression.integer(1)
        var cases: [SQLExpression.When] = []
        for (column, digits) in [("maj", literal.major), ("min", literal.minor), ("pat", literal.patch)] {
            let value = SQLExpression.column(prefix + column)
            cases.append(.init(numberLess(value, digits), below))
            cases.append(.init(numberGreater(value, digits), above))
        }
        let pre = SQLExpression.column(prefix + "pre")
        let count = SQLExpression.count(pre)
        func identifiers(_ comparison: SQLExpression.Comparison, _ value: Int) -> SQLExpression { .compare(count, comparison, .integer(Int64(value))) }
        if literal.preRelease.isEmpty {
            cases.append(.init(identifiers(.greater, 0), below))
        } else {
            cases.append(.init(identifiers(.equal, 0), above))
            for (index, identifier) in literal.preRelease.enumerated() {
                let element = SQLExpression.element(pre, index + 1)
                cases.append(.init(identifiers(.lessOrEqual, index), below))
                cases.append(.init(identifierLess(element, identifier), below))
                cases.append(.init(identifierGreater(element, identifier), above))
            }
            cases.append(.init(identifiers(.greater, literal.preRelease.count), above))
        }
        return .parenthesized(.caseWhen(subject: nil, cases, otherwise: .integer(0)))
    }

    private func isNumeric(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }

    /// Digit strings without leading zeros: shorter is smaller, then byte order.
    private func numberLess(_ value: SQLExpression, _ digits: String) -> SQLExpression {
        numberOrder(value, digits, .less)
    }

    private func numberGreater(_ value: SQLExpression, _ digits: String) -> SQLExpression {
        numberOrder(value, digits, .greater)
    }

    /// `value` below (`.less`) or above (`.greater`) the digits `digits`: by length, then by bytes.
    private func numberOrder(_ value: SQLExpression, _ digits: String, _ order: SQLExpression.Comparison) -> SQLExpression {
        let length = SQLExpression.call("length", [value]), size = SQLExpression.integer(Int64(digits.utf8.count))
        return .parenthesized(.or([
            .compare(length, order, size),
            .parenthesized(.and([.compare(length, .equal, size), .compare(.bytes(value), order, .string(digits))])),
        ]))
    }

    /// Pre-release identifiers: numeric below alphanumeric, numerics by value, others by bytes.
    private func identifierLess(_ value: SQLExpression, _ literal: String) -> SQLExpression {
        if isNumeric(literal) { return .parenthesized(.and([.isDigits(value), numberLess(value, literal)])) }
        return .parenthesized(.or([.isDigits(value), .compare(.bytes(value), .less, .string(literal))]))
    }

    private func identifierGreater(_ value: SQLExpression, _ literal: String) -> SQLExpression {
        if isNumeric(literal) { return .parenthesized(.or([.not(.isDigits(value)), numberGreater(value, literal)])) }
        return .parenthesized(.and([.not(.isDigits(value)), .compare(.bytes(value), .greater, .string(literal))]))
    }
}
