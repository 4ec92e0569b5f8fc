import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The typed table of `--layout columns`: `id`, then one column per built-in field the rules
/// read, named as in the profile JSON (`country`, `birthday` for `profile.age`, …), then one
/// column `ca_<key>` per custom attribute they read (characters other than ASCII letters,
/// digits and `_` become `_`), then, when the rules read a profile's history (caps or sticky
/// experiments), one column `history` holding its JSON (`{"shown": …, "assigned": …}`).
///
/// Each column has the engine's native type for what the rules read (`Kind`), and holds each
/// value as the rules read it: a custom attribute's text trimmed and not empty, a built-in
/// field's text as stored, finite numbers, a `birthday` as its UTC calendar date, an instant
/// to the millisecond, a set as its members (an empty set stays distinct from an unset one), a
/// version as its text; a value the rules would find absent or mistyped is NULL. The query
/// reads each value as it stands (`sql --check-table` counts the rows that break this).
package struct SQLTableSchema: Hashable, Sendable {
    /// What a column holds.
    package enum Kind: String, Hashable, Sendable {
        /// Text: strings and versions (and a custom attribute read both as text and as another type).
        case text
        /// A finite number; a custom attribute read both as a number and as a bool (1 or 0) or a
        /// date (Unix ms), as a JSON profile holds it.
        case number
        case bool
        /// A calendar date: `birthday`.
        case date
        /// An instant to the millisecond: the built-in dates, and custom attributes read as dates.
        case instant
        /// A set of texts.
        case set

        /// The column type in `dialect`.
        package func type(_ dialect: SQLDialect) -> String {
            dialect.columnTypeName(valueType)
        }

        /// The type of an expression holding such a value.
        var valueType: SQLExpression.ValueType {
            switch self {
            case .text: .text
            case .number: .double
            case .bool: .boolean
            case .date: .date
            case .instant: .timestamp
            case .set: .textArray
            }
        }
    }

    /// One column: the attribute it holds, its name in the table, and its kind.
    package struct Column: Hashable, Sendable {
        package let target: AttributeTarget
        package let name: String
        package let kind: Kind
    }

    /// The columns after `id`, built-in fields first, each in order of first use.
    package let columns: [Column]
    /// Whether the table has the `history` column, after `columns`.
    package let readsHistory: Bool

    /// The columns the slots of `programs` read (for `diff`, both rule sets: one table).
    ///
    /// - Throws: `SQLCompileError.columnClash` when two custom attributes get the same column name.
    package init(programs: [Program]) throws(SQLCompileError) {
        var builtins: [String] = []
        var customKinds: [String: Kind] = [:]
        var customOrder: [String] = []
        for slot in programs.flatMap(\.slots) {
            switch slot.target {
            case .builtin(let field):
                let stored = BuiltinField.storedField(of: field)
                if stored != "id", !builtins.contains(stored) { builtins.append(stored) }
            case .custom(let key):
                if !customOrder.contains(key) { customOrder.append(key) }
                guard let kind = SQLTableSchema.customKind(slot.type) else { continue }
                customKinds[key] = customKinds[key].map { SQLTableSchema.merge($0, kind) } ?? kind
            case .shownCount, .lastShown:
                continue  // read from the `history` column
            }
        }
        readsHistory = programs.contains { $0.historyUse != nil }
        var named: [String: String] = [:]
        for key in customOrder {
            let name = SQLTableSchema.customColumnName(key)
            if let other = named[name.lowercased()] { throw .columnClash(name, keys: [other, key]) }
            named[name.lowercased()] = key
        }
        columns = builtins.map { field in
            Column(target: .builtin(field), name: field, kind: SQLTableSchema.builtinKind(field))
        } + customOrder.map { key in
            Column(target: .custom(key), name: SQLTableSchema.customColumnName(key), kind: customKinds[key] ?? .text)
        }
    }

    /// The column of custom attribute `key`: `ca_` and the key, each character other than an
    /// ASCII letter, digit or `_` made `_`.
    static func customColumnName(_ key: String) -> String {
        "ca_" + SQLIdentifier.wordCharacters(key)
    }

    /// The kind of built-in field `field` as stored.
    static func builtinKind(_ field: String) -> Kind {
        guard let builtin = BuiltinField.all[field] else { return .text }
        switch builtin.type {
        case .string, .version: return .text
        case .number: return .number
        case .bool: return .bool
        case .date: return builtin.isCalendarDate ? .date : .instant
        case .set: return .set
        }
    }

    /// How a custom attribute read as `type` is held; nil for a presence test, which fits any column.
    static func customKind(_ type: ValueType?) -> Kind? {
        switch type {
        case .number: .number
        case .date: .instant
        case .bool: .bool
        case .string, .version: .text
        case .set: .set
        case nil: nil
        }
    }

    /// One column for two reads of a custom attribute: a JSON profile holds a bool or a date as
    /// a number, so a number with either is a number; a set is a string split, so a set with
    /// text is text; any other pair is text.
    static func merge(_ first: Kind, _ second: Kind) -> Kind {
        if first == second { return first }
        let numeric: Set<Kind> = [.number, .bool, .instant]
        if numeric.contains(first), numeric.contains(second) { return .number }
        return .text
    }

    /// The column holding `target`, if the table has one.
    func column(for target: AttributeTarget) -> (index: Int, column: Column)? {
        let stored: AttributeTarget
        switch target {
        case .builtin(let field): stored = .builtin(BuiltinField.storedField(of: field))
        case .custom: stored = target
        }
        guard let index = columns.firstIndex(where: { $0.target == stored }) else { return nil }
        return (index, columns[index])
    }

    /// The name of column `index` inside a query: `col<N>`, whatever the table calls it.
    static func alias(_ index: Int) -> String { "col\(index)" }

    /// `name` as written in `dialect`: as it is when a plain lower-case identifier, else quoted.
    static func identifier(_ name: String, _ dialect: SQLDialect) -> String {
        let plain = name.unicodeScalars.first.map { !("0"..."9").contains($0) } ?? false
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        if plain { return name }
        let quote = dialect.identifierQuote
        return quote + name.replacingOccurrences(of: quote, with: quote + quote) + quote
    }

    /// Every column of the table, `id` and `history` included: (name, type in `dialect`).
    package func allColumns(_ dialect: SQLDialect) -> [(name: String, type: String)] {
        [("id", dialect.columnTypeName(.text))] + columns.map { ($0.name, $0.kind.type(dialect)) }
            + (readsHistory ? [(SQLHistoryReader.typedColumn, dialect.columnTypeName(.json))] : [])
    }

    /// The `CREATE TABLE` statement for the table `table` in `dialect`.
    package func createTable(_ table: SQLIdentifier, dialect: SQLDialect) -> String {
        let lines = allColumns(dialect).map { "  \(SQLTableSchema.identifier($0.name, dialect)) \($0.type)" }
        return "CREATE TABLE \(table) (\n" + lines.joined(separator: ",\n") + "\n)" + dialect.tableEngineClause + ";\n"
    }
}
