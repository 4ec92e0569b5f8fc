import TargetingBase

/// SemVer 2.0 precedence of a stored version (columns `s<N>_maj/_min/_pat/_pre`) against a
/// literal known at compile time, as SQL specialised to that literal.
struct SQLVersionComparison {
    let dialect: SQLDialect
    /// The column prefix, `s<N>_`.
    let prefix: String

    /// A SQL integer: -1, 0 or 1 as the stored version is below, equal to or above `literal`.
    func compare(to literal: SemanticVersion) -> String {
        var cases: [String] = []
        for (column, digits) in [("maj", literal.major), ("min", literal.minor), ("pat", literal.patch)] {
            let value = prefix + column
            cases.append("WHEN \(numberLess(value, digits)) THEN -1")
            cases.append("WHEN \(numberGreater(value, digits)) THEN 1")
        }
        let pre = prefix + "pre"
        let count = dialect.count(pre)
        if literal.preRelease.isEmpty {
            cases.append("WHEN \(count) > 0 THEN -1")
        } else {
            cases.append("WHEN \(count) = 0 THEN 1")
            for (index, identifier) in literal.preRelease.enumerated() {
                let element = dialect.element(pre, index + 1)
                cases.append("WHEN \(count) <= \(index) THEN -1")
                cases.append("WHEN \(identifierLess(element, identifier)) THEN -1")
                cases.append("WHEN \(identifierGreater(element, identifier)) THEN 1")
            }
            cases.append("WHEN \(count) > \(literal.preRelease.count) THEN 1")
        }
        return "(CASE " + cases.joined(separator: " ") + " ELSE 0 END)"
    }

    private func isNumeric(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }

    private func numeric(_ value: String) -> String {
        dialect.isDigits(value)
    }

    /// Digit strings without leading zeros: shorter is smaller, then byte order.
    private func numberLess(_ value: String, _ digits: String) -> String {
        "(length(\(value)) < \(digits.utf8.count) OR (length(\(value)) = \(digits.utf8.count) AND \(dialect.bytes(value)) < \(dialect.string(digits))))"
    }

    private func numberGreater(_ value: String, _ digits: String) -> String {
        "(length(\(value)) > \(digits.utf8.count) OR (length(\(value)) = \(digits.utf8.count) AND \(dialect.bytes(value)) > \(dialect.string(digits))))"
    }

    /// Pre-release identifiers: numeric below alphanumeric, numerics by value, others by bytes.
    private func identifierLess(_ value: String, _ literal: String) -> String {
        if isNumeric(literal) { return "(\(numeric(value)) AND \(numberLess(value, literal)))" }
        return "(\(numeric(value)) OR \(dialect.bytes(value)) < \(dialect.string(literal)))"
    }

    private func identifierGreater(_ value: String, _ literal: String) -> String {
        if isNumeric(literal) { return "(NOT \(numeric(value)) OR \(numberGreater(value, literal)))" }
        return "(NOT \(numeric(value)) AND \(dialect.bytes(value)) > \(dialect.string(literal)))"
    }
}
