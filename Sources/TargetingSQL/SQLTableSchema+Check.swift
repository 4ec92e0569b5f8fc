extension SQLTableSchema {
    /// What breaks the table's contract in a column, as a condition on its value (NULL, unset,
    /// never breaks it); nil for a column whose every value is one the rules read as it is.
    ///
    /// A custom attribute's text must be trimmed and not empty; a number finite; a set must
    /// have no NULL member, and a custom attribute's set (its text split at commas) must join
    /// back into trimmed text that is not empty; the history must be a JSON object.
    func breach(of column: Column, _ value: SQLExpression) -> SQLExpression? {
        let custom: Bool
        switch column.target {
        case .custom: custom = true
        case .builtin: custom = false
        }
        func untrimmed(_ text: SQLExpression) -> SQLExpression {
            .or([.compare(text, .equal, .string("")), .compare(.trim(text), .notEqual, text)])
        }
        switch column.kind {
        case .text: return custom ? untrimmed(value) : nil
        case .number: return .isNotFinite(value)
        case .bool, .date, .instant: return nil
        case .set:
            let members = SQLExpression.hasNullElement(value)
            return custom ? .or([members, untrimmed(.joinWithCommas(value))]) : members
        }
    }

    /// `sql --check-table`: one row counting the table's rows (`profiles`) and, per column
    /// that can break the contract, the rows whose value does (a column named as in the table).
    package func checkQuery(_ table: SQLIdentifier, dialect: SQLDialect) -> String {
        func count(_ condition: SQLExpression) -> String {
            dialect.sql(.call("sum", [.caseWhen(subject: nil, [.init(condition, .integer(1))], otherwise: .integer(0))]))
        }
        var items = ["count(*) AS profiles"]
        for column in columns {
            let value = SQLExpression.column(SQLTableSchema.identifier(column.name, dialect))
            guard let breach = breach(of: column, value) else { continue }
            items.append("\(count(breach)) AS \(SQLTableSchema.identifier(column.name, dialect))")
        }
        if readsHistory {
            let history = SQLExpression.column(SQLHistoryReader.typedColumn)
            let notObject = SQLExpression.not(.parenthesized(.jsonIsObject(.jsonFromText(history))))
            items.append("\(count(.and([.isNull(history, negated: true), notObject]))) AS \(SQLHistoryReader.typedColumn)")
        }
        return "SELECT\n" + items.map { "  " + $0 }.joined(separator: ",\n") + "\nFROM \(table);\n"
    }
}
