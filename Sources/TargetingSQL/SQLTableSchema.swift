import TargetingBase
import TargetingEngine
import TargetingProfiles

/// The typed table of `--layout columns`: `id`, then one column per built-in field the rules
/// read, named as in the profile JSON (`country`, `birthday` for `profile.age`, …), then one
/// column `ca_<key>` per custom attribute they read, then, when the rules read a profile's
/// history (caps or sticky experiments), one text column `history` holding its JSON
/// (`{"shown": …, "assigned": …}`, NULL for none).
///
/// A column's type follows what the rules read it as: a number (a custom date is stored as a
/// number of milliseconds, as in a profile) is `DOUBLE PRECISION` in PostgreSQL and `DOUBLE` in
/// Spark SQL, a bool `BOOLEAN`, anything else text (a set as its comma-joined text, as a profile
/// stores it; a date or version as its text). A custom attribute that rules read both as text
/// and as a number or bool is text. NULL means not set.
///
/// A value means what the same value means in a JSON profile: a custom attribute's text is
/// trimmed, and empty text is not set; a built-in field's text is read as it is; `NaN` in a
/// number column is not set.
package struct SQLTableSchema: Hashable, Sendable {
    /// What a column holds.
    package enum Kind: Hashable, Sendable {
        case text, number, bool

        /// The column type in `dialect`.
        func type(_ dialect: SQLDialect) -> String {
            switch self {
            case .text: dialect.typeName(.text)
            case .number: dialect.typeName(.double)
            case .bool: dialect.typeName(.boolean)
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
    package init(programs: [Program]) {
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
        columns = builtins.map { field in
            let type = BuiltinField.all[field]?.type ?? .string
            return Column(target: .builtin(field), name: field, kind: type == .number ? .number : type == .bool ? .bool : .text)
        } + customOrder.map { key in
            Column(target: .custom(key), name: "ca_" + key, kind: customKinds[key] ?? .text)
        }
    }

    /// How a custom attribute read as `type` is stored: numbers, dates (milliseconds) and bools
    /// as numbers in a profile; nil for a presence test, which fits any column.
    static func customKind(_ type: ValueType?) -> Kind? {
        switch type {
        case .number, .date: .number
        case .bool: .bool
        case .string, .version, .set: .text
        case nil: nil
        }
    }

    /// One column for two reads: a bool read as a number is 1 or 0; text with anything is text.
    static func merge(_ first: Kind, _ second: Kind) -> Kind {
        if first == second { return first }
        return first == .text || second == .text ? .text : .number
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

    /// The `CREATE TABLE` statement for the table `table` in `dialect`.
    package func createTable(_ table: SQLIdentifier, dialect: SQLDialect) -> String {
        let lines = ["  id \(dialect.typeName(.text))"] + columns.map { "  \(SQLTableSchema.identifier($0.name, dialect)) \($0.kind.type(dialect))" }
            + (readsHistory ? ["  \(SQLHistoryReader.typedColumn) \(dialect.typeName(.text))"] : [])
        return "CREATE TABLE \(table) (\n" + lines.joined(separator: ",\n") + "\n);\n"
    }
}
