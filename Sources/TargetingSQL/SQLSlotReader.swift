import TargetingBase
import TargetingEngine
import TargetingProfiles

/// Reads one slot of a program into SQL columns named `s<N>_…`, mirroring `Slot.read`:
/// `s<N>_p` (present: not missing) and the typed view `s<N>_v` (NULL when missing or mistyped);
/// a version has `s<N>_ok`, `s<N>_maj`, `s<N>_min`, `s<N>_pat` and `s<N>_pre` instead of `_v`.
struct SQLSlotReader {
    let dialect: SQLDialect
    let now: Int64
    /// The typed table read instead of JSON profiles (`--layout columns`), if any.
    var schema: SQLTableSchema? = nil
    /// The program's placements by name, numbering the columns of their shown instants.
    var placements: [String: Int] = [:]

    /// The column holding the instants `placement` was shown at (`SQLHistoryReader.instants`):
    /// `h<N>`, N the placement's number.
    static func instantsColumn(_ placement: String, in placements: [String: Int]) -> String {
        "h\(placements[placement] ?? -1)"
    }

    /// Adds the columns of slot `index` to `stages`; `folded` adds `s<N>_f`, the lowercase view.
    /// `prefix` names the columns instead of `s<N>_` (the shared key columns, `k<N>_`).
    func read(_ slot: Slot, index: Int, folded: Bool, prefix: String? = nil, into stages: inout SQLStages) {
        let c = prefix ?? "s\(index)_"
        let type = slot.type
        switch slot.target {
        case .shownCount(let shown, let window):
            let history = SQLHistoryReader(dialect: dialect, now: now)
            // No history is a count of 0, never a missing value.
            stages.add(SQLStage.view, "\(c)v", history.count(shown.map { SQLSlotReader.instantsColumn($0, in: placements) }, window: window))
            stages.add(SQLStage.view, "\(c)p", sql(.bool(true)))
            return
        case .lastShown(let shown):
            let history = SQLHistoryReader(dialect: dialect, now: now)
            stages.add(SQLStage.view, "\(c)v", history.last(shown.map { SQLSlotReader.instantsColumn($0, in: placements) }))
            stages.add(SQLStage.derived, "\(c)p", sql(.parenthesized(.isNull(.column("\(c)v"), negated: true))))
            return
        case .custom(let key):
            if let schema {
                readTyped(slot, .custom(key), of: schema, prefix: c, folded: folded, into: &stages)
                return
            }
            readCustom(key, prefix: c, into: &stages)
        case .builtin(let field):
            if let schema {
                readTyped(slot, .builtin(field), of: schema, prefix: c, folded: folded, into: &stages)
                return
            }
            if BuiltinField.derivation(of: field) != nil {
                // The source date, in Unix ms: a test of the derived number compares it
                // (`SQLValueForm.derived`). Set exactly when computable: a date that parses.
                let source = BuiltinField.storedField(of: field)
                readBuiltin(source, prefix: c, set: false, presence: false, into: &stages)
                readDate(text: "\(c)s", prefix: c, column: "\(c)v", into: &stages)
                stages.add(SQLStage.derived, "\(c)p", sql(.parenthesized(.isNull(.column("\(c)v"), negated: true))))
                return
            }
            let viewType = slot.type ?? BuiltinField.all[field]?.type ?? .string
            readBuiltin(field, prefix: c, set: viewType == .set, presence: true, into: &stages)
            switch viewType {
            case .string: stages.add(SQLStage.view, "\(c)v", "\(c)s")
            case .number: stages.add(SQLStage.view, "\(c)v", "\(c)n")
            case .date: readDate(text: "\(c)s", prefix: c, column: "\(c)v", into: &stages)
            case .version: readVersion(text: "\(c)s", prefix: c, into: &stages)
            case .set: stages.add(SQLStage.view, "\(c)v", "\(c)a")
            case .bool: stages.add(SQLStage.view, "\(c)v", sql(.cast(.null, .boolean)))
            }
            addFold(viewType, prefix: c, folded: folded, into: &stages)
            return
        }
        let number = SQLExpression.column("\(c)n"), text = SQLExpression.column("\(c)s")
        switch type {
        case .string, nil: stages.add(SQLStage.view, "\(c)v", "\(c)s")
        case .number: stages.add(SQLStage.view, "\(c)v", "\(c)n")
        case .bool:
            let bool = SQLExpression.caseWhen(subject: nil, [.init(.compare(number, .equal, .integer(1)), .bool(true)),
                                                             .init(.compare(number, .equal, .integer(0)), .bool(false))], otherwise: nil)
            stages.add(SQLStage.view, "\(c)v", sql(bool))
        case .date:
            // Milliseconds beyond ±9e15 are no date `Timestamp` writes.
            let inRange = SQLExpression.compare(.call("abs", [number]), .less, .raw("9.0e15"))
            stages.add(SQLStage.view, "\(c)v", sql(.caseWhen(subject: nil, [.init(inRange, .cast(.call("floor", [number]), .bigint))], otherwise: nil)))
        case .version: readVersion(text: "\(c)s", prefix: c, into: &stages)
        case .set:
            stages.add(SQLStage.view, "\(c)v", sql(.caseWhen(subject: nil, [.init(.isNull(text, negated: true), .splitOnComma(text))], otherwise: .nullArray)))
        }
        addFold(type, prefix: c, folded: folded, into: &stages)
    }

    /// `expression` as this reader's SQL text.
    func sql(_ expression: SQLExpression) -> String { dialect.sql(expression) }

    private func addFold(_ type: ValueType?, prefix c: String, folded: Bool, into stages: inout SQLStages) {
        guard folded else { return }
        let value = SQLExpression.column("\(c)v")
        if type == .set {
            stages.add(SQLStage.folded, "\(c)f", sql(.caseWhen(subject: nil, [.init(.setIsPresent(value), .lowercaseAll(value))], otherwise: .nullArray)))
        } else {
            stages.add(SQLStage.folded, "\(c)f", sql(.lowercase(value)))
        }
    }

    /// How slot `slot`'s view `s<N>_v` holds its value.
    func form(of slot: Slot) -> SQLValueForm {
        switch slot.target {
        case .shownCount: return .plain
        case .lastShown: return .date(.milliseconds)
        case .custom(let key):
            guard slot.type == .date else { return .plain }
            return .date(schema?.column(for: .custom(key)).map { SQLSlotReader.dateForm($0.column.kind) } ?? .milliseconds)
        case .builtin(let field):
            let stored = schema?.column(for: .builtin(field)).map { SQLSlotReader.dateForm($0.column.kind) } ?? .milliseconds
            if let derived = BuiltinField.derivation(of: field) { return .derived(derived.rule, stored) }
            return (slot.type ?? BuiltinField.all[field]?.type) == .date ? .date(stored) : .plain
        }
    }

    /// How a typed column of `kind` holds a date read from it.
    static func dateForm(_ kind: SQLTableSchema.Kind) -> SQLDateForm {
        switch kind {
        case .instant: .instant
        case .date: .calendarDate
        case .text, .number, .bool, .set: .milliseconds
        }
    }

    /// From the typed column of `target` (`--layout columns`), which holds each value as the
    /// rules read it: the view is the column itself where the slot reads the column's type
    /// (a derived number's view is its source date, `form(of:)`); a custom attribute read as
    /// two types is in the column of both (`SQLTableSchema.merge`), and is converted as `Slot.view`
    /// converts a JSON value. `_p` is whether the column is not NULL.
    private func readTyped(_ slot: Slot, _ target: AttributeTarget, of schema: SQLTableSchema, prefix c: String, folded: Bool,
                           into stages: inout SQLStages) {
        let name: String, kind: SQLTableSchema.Kind
        if target == .builtin("id") {
            (name, kind) = ("profile_id", .text)
        } else if let (index, column) = schema.column(for: target) {
            (name, kind) = (SQLTableSchema.alias(index), column.kind)
        } else {
            preconditionFailure("the typed table has no column for a slot it was made for")
        }
        let value = SQLExpression.column(name)
        stages.add(SQLStage.stored, "\(c)p", sql(.parenthesized(kind == .set ? .setIsPresent(value) : .isNull(value, negated: true))))
        let viewType: ValueType?
        switch target {
        case .builtin(let field):
            if BuiltinField.derivation(of: field) != nil {
                stages.add(SQLStage.stored, "\(c)v", name)
                return
            }
            viewType = slot.type ?? BuiltinField.all[field]?.type ?? .string
        case .custom:
            viewType = slot.type
        }
        guard let viewType else {
            stages.add(SQLStage.stored, "\(c)v", name)
            return
        }
        func view(_ expression: SQLExpression) { stages.add(SQLStage.stored, "\(c)v", sql(expression)) }
        switch (kind, viewType) {
        case (.text, .string), (.number, .number), (.bool, .bool), (.set, .set), (.instant, .date), (.date, .date):
            stages.add(SQLStage.stored, "\(c)v", name)
        case (.text, .version):
            readVersion(text: name, prefix: c, into: &stages)
        case (.text, .set):
            view(.caseWhen(subject: nil, [.init(.isNull(value, negated: true), .splitOnComma(value))], otherwise: .nullArray))
        case (.number, .bool):
            view(.caseWhen(subject: nil, [.init(.compare(value, .equal, .integer(1)), .bool(true)),
                                          .init(.compare(value, .equal, .integer(0)), .bool(false))], otherwise: nil))
        case (.bool, .number):
            view(.caseWhen(subject: nil, [.init(value, .cast(.integer(1), .double)), .init(.not(value), .cast(.integer(0), .double))], otherwise: nil))
        case (.number, .date):
            // Milliseconds beyond ±9e15 are no date `Timestamp` writes.
            let inRange = SQLExpression.compare(.call("abs", [value]), .less, .raw("9.0e15"))
            view(.caseWhen(subject: nil, [.init(inRange, .cast(.call("floor", [value]), .bigint))], otherwise: nil))
        case (_, .string), (_, .version): view(.cast(.null, .text))
        case (_, .number): view(.cast(.null, .double))
        case (_, .bool): view(.cast(.null, .boolean))
        case (_, .date): view(.cast(.null, .bigint))
        case (_, .set): view(.nullArray)
        }
        addFold(viewType, prefix: c, folded: folded, into: &stages)
    }

    /// A custom attribute is set when it has a string or a number: `(_s IS NOT NULL OR _n IS NOT NULL)`.
    private static func eitherIsSet(prefix c: String) -> SQLExpression {
        .parenthesized(.or([.isNull(.column("\(c)s"), negated: true), .isNull(.column("\(c)n"), negated: true)]))
    }

    /// `_t` (JSON type name, NULL when absent or null), `_x` (text of a string or number),
    /// `_a` (an array of strings), then `_p` (unless `presence` is false), `_s`, `_n`.
    private func readBuiltin(_ field: String, prefix c: String, set: Bool, presence: Bool = true, into stages: inout SQLStages) {
        // PostgreSQL looks the member up once, then reads it as it is typed; Spark SQL reads
        // the parsed profile's field.
        let member: SQLExpression
        switch dialect {
        case .postgres, .duckdb, .clickhouse:
            stages.add(SQLStage.locate, "\(c)j", sql(.profileMember(field)))
            member = .column("\(c)j")
        case .spark:
            member = .profileMember(field)
        }
        stages.add(SQLStage.raw, "\(c)t", sql(.jsonType(member)))
        stages.add(SQLStage.raw, "\(c)x", sql(.jsonScalarText(member)))
        if set {
            let value = sql(member)
            switch dialect {
            case .postgres:
                stages.add(SQLStage.raw, "\(c)a", "CASE WHEN jsonb_typeof(\(value)) = 'array' AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(\(value)) AS e(v) WHERE jsonb_typeof(e.v) <> 'string') THEN ARRAY(SELECT jsonb_array_elements_text(\(value))) END")
            case .spark:
                let e = SQLExpression.column("e")
                stages.add(SQLStage.rawTyped, "\(c)r", "CASE WHEN \(c)t = 'array' THEN from_json(\(value), 'ARRAY<STRING>') END")
                stages.add(SQLStage.text, "\(c)a", "CASE WHEN forall(\(c)r, e -> \(sql(.jsonIsString(e)))) THEN transform(\(c)r, e -> \(sql(.jsonStringText(e)))) END")
            case .duckdb:
                stages.add(SQLStage.raw, "\(c)a", "CASE WHEN json_type(\(value)) = 'ARRAY' AND len(list_filter(json_extract(\(value), '$[*]'), lambda e: json_type(e) <> 'VARCHAR')) = 0 "
                    + "THEN CAST(json_extract_string(\(value), '$[*]') AS VARCHAR[]) END")
            case .clickhouse:
                // A member is Nullable(String); arrays are read from its text, '' when absent.
                let text = "ifNull(\(value), '')"
                stages.add(SQLStage.raw, "\(c)a", "if(JSONType(\(value)) = 'Array' AND arrayAll(e -> JSONType(e) = 'String', JSONExtractArrayRaw(\(text))), "
                    + "JSONExtract(\(text), 'Array(String)'), \(sql(.nullArray)))")
            }
        }
        let type = SQLExpression.column("\(c)t"), text = SQLExpression.column("\(c)x")
        func typed(_ name: String, _ value: SQLExpression) -> SQLExpression {
            .caseWhen(subject: nil, [.init(.compare(type, .equal, .string(name)), value)], otherwise: nil)
        }
        if presence { stages.add(SQLStage.stored, "\(c)p", sql(.parenthesized(.isNull(type, negated: true)))) }
        stages.add(SQLStage.stored, "\(c)s", sql(typed("string", text)))
        stages.add(SQLStage.stored, "\(c)n", sql(typed("number", .textToDouble(text))))
    }

    /// PostgreSQL: the column of `t0` holding the custom attributes with their keys trimmed
    /// (NULL when `custom_attributes` is not an object).
    static let postgresCustomAttributes = "ca"

    /// The member whose trimmed key is `key`: `_t` and `_x` as for built-in fields (an array
    /// already joined with commas), then the stored string `_s` (trimmed) or number `_n`.
    private func readCustom(_ key: String, prefix c: String, into stages: inout SQLStages) {
        switch dialect {
        case .postgres:
            stages.add(SQLStage.locate, "\(c)j", sql(.jsonMember(.column(SQLSlotReader.postgresCustomAttributes), [key])))
            let j = "\(c)j"
            stages.add(SQLStage.raw, "\(c)t", sql(.jsonType(.column(j))))
            stages.add(SQLStage.raw, "\(c)x", "CASE WHEN jsonb_typeof(\(j)) IN ('string', 'number', 'boolean') THEN \(j) #>> '{}' "
                + "WHEN jsonb_typeof(\(j)) = 'array' THEN (SELECT string_agg(u.e, ',' ORDER BY u.i) FROM jsonb_array_elements_text(\(j)) WITH ORDINALITY AS u(e, i)) END")
        case .spark:
            let map = SparkParse.customAttributes
            let trimmedKey = sql(.compare(.trim(.jsonStringText(.column("k"))), .equal, .string(key)))
            stages.add(SQLStage.raw, "\(c)k", "try_element_at(filter(map_keys(\(map)), k -> \(trimmedKey)), 1)")
            stages.add(SQLStage.rawTyped, "\(c)x0", "CASE WHEN \(c)k IS NOT NULL THEN element_at(\(map), \(c)k) END")
            let value = SQLExpression.column("\(c)x0")
            stages.add(SQLStage.text, "\(c)t", sql(.jsonType(value)))
            let array = "from_json(\(c)x0, 'ARRAY<STRING>')"
            stages.add(SQLStage.text, "\(c)x", "CASE WHEN left(\(c)x0, 1) = '[' THEN array_join(transform(\(array), e -> \(sql(.jsonStringText(.column("e"))))), ',') "
                + "ELSE \(sql(.jsonScalarText(value))) END")
        case .clickhouse:
            stages.add(SQLStage.locate, "\(c)j", "nullIf(\(SQLSlotReader.postgresCustomAttributes)[\(sql(.string(key)))], '')")
            let j = "\(c)j"
            stages.add(SQLStage.raw, "\(c)t", sql(.jsonType(.column(j))))
            // An array's members joined, each string's text and any other member's JSON (null skipped).
            let members = "arrayMap(e -> if(JSONType(e) = 'String', JSONExtractString(e), e), arrayFilter(e -> JSONType(e) != 'Null', JSONExtractArrayRaw(ifNull(\(j), ''))))"
            stages.add(SQLStage.raw, "\(c)x", "CASE WHEN JSONType(\(j)) = 'String' THEN JSONExtractString(\(j)) "
                + "WHEN JSONType(\(j)) IN ('Int64', 'UInt64', 'Double', 'Bool') THEN \(j) WHEN JSONType(\(j)) = 'Array' THEN arrayStringConcat(\(members), ',') END")
        case .duckdb:
            stages.add(SQLStage.locate, "\(c)j", sql(.jsonMember(.column(SQLSlotReader.postgresCustomAttributes), [key])))
            let j = "\(c)j"
            stages.add(SQLStage.raw, "\(c)t", sql(.jsonType(.column(j))))
            stages.add(SQLStage.raw, "\(c)x", "CASE WHEN json_type(\(j)) IN ('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE', 'HUGEINT', 'BOOLEAN') THEN \(j) ->> '$' "
                + "WHEN json_type(\(j)) = 'ARRAY' THEN array_to_string(json_extract_string(\(j), '$[*]'), ',') END")
        }
        let type = SQLExpression.column("\(c)t"), text = SQLExpression.column("\(c)x")
        func isType(_ name: String) -> SQLExpression { .compare(type, .equal, .string(name)) }
        // A string is trimmed; so is an array, once joined.
        let trimmed = SQLExpression.call("nullif", [.trim(text), .string("")])
        stages.add(SQLStage.stored, "\(c)s", sql(.caseWhen(subject: nil, [.init(.isIn(type, [.string("string"), .string("array")]), trimmed)], otherwise: nil)))
        let bool = SQLExpression.caseWhen(subject: nil, [.init(.compare(text, .equal, .string("true")), .integer(1))], otherwise: .integer(0))
        stages.add(SQLStage.stored, "\(c)n", sql(.caseWhen(subject: nil, [.init(isType("number"), .textToDouble(text)), .init(isType("boolean"), bool)], otherwise: nil)))
        stages.add(SQLStage.view, "\(c)p", sql(SQLSlotReader.eitherIsSet(prefix: c)))
    }
}
