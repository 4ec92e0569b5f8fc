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
        case .shownCount(let placement, let window):
            let history = SQLHistoryReader(dialect: dialect, now: now)
            // No history is a count of 0, never a missing value.
            stages.add(SQLStage.view, "\(c)v", history.count(SQLSlotReader.instantsColumn(placement, in: placements), window: window))
            stages.add(SQLStage.view, "\(c)p", "TRUE")
            return
        case .lastShown(let placement):
            let history = SQLHistoryReader(dialect: dialect, now: now)
            stages.add(SQLStage.view, "\(c)v", history.last(SQLSlotReader.instantsColumn(placement, in: placements)))
            stages.add(SQLStage.derived, "\(c)p", "(\(c)v IS NOT NULL)")
            return
        case .custom(let key):
            if let schema { readColumn(.custom(key), of: schema, prefix: c, set: false, presence: true, into: &stages) } else { readCustom(key, prefix: c, into: &stages) }
        case .builtin(let field):
            if let derived = BuiltinField.derivation(of: field) {
                readStored(derived.source, prefix: c, set: false, presence: false, into: &stages)
                readDate(text: "\(c)s", prefix: c, column: "\(c)ms", into: &stages)
                // Set exactly when computable: the source is a date that parses.
                stages.add(SQLStage.derived, "\(c)p", "\(c)dv")
                switch derived.rule {
                case .wholeYears:
                    readAge(prefix: c, into: &stages)
                case .wholeDays:
                    let days = dialect.floorDivide("\(now) - \(c)ms", Timestamp.msPerDay)
                    stages.add(SQLStage.derived, "\(c)v", "CASE WHEN \(c)ms IS NOT NULL THEN \(dialect.doubleCast(days)) END")
                }
                addFold(.number, prefix: c, folded: false, into: &stages)
                return
            }
            let viewType = slot.type ?? BuiltinField.all[field]?.type ?? .string
            readStored(field, prefix: c, set: viewType == .set, presence: true, into: &stages)
            switch viewType {
            case .string: stages.add(SQLStage.view, "\(c)v", "\(c)s")
            case .number: stages.add(SQLStage.view, "\(c)v", "\(c)n")
            case .date: readDate(text: "\(c)s", prefix: c, column: "\(c)v", into: &stages)
            case .version: readVersion(text: "\(c)s", prefix: c, into: &stages)
            case .set: stages.add(SQLStage.view, "\(c)v", "\(c)a")
            case .bool: stages.add(SQLStage.view, "\(c)v", "CAST(NULL AS BOOLEAN)")
            }
            addFold(viewType, prefix: c, folded: folded, into: &stages)
            return
        }
        switch type {
        case .string, nil: stages.add(SQLStage.view, "\(c)v", "\(c)s")
        case .number: stages.add(SQLStage.view, "\(c)v", "\(c)n")
        case .bool: stages.add(SQLStage.view, "\(c)v", "CASE WHEN \(c)n = 1 THEN TRUE WHEN \(c)n = 0 THEN FALSE END")
        case .date:
            stages.add(SQLStage.view, "\(c)v", "CASE WHEN abs(\(c)n) < 9.0e15 THEN CAST(floor(\(c)n) AS BIGINT) END")
        case .version: readVersion(text: "\(c)s", prefix: c, into: &stages)
        case .set: stages.add(SQLStage.view, "\(c)v", "CASE WHEN \(c)s IS NOT NULL THEN \(dialect.splitOnComma("\(c)s")) END")
        }
        addFold(type, prefix: c, folded: folded, into: &stages)
    }

    private func addFold(_ type: ValueType?, prefix c: String, folded: Bool, into stages: inout SQLStages) {
        guard folded else { return }
        if type == .set {
            stages.add(SQLStage.folded, "\(c)f", "CASE WHEN \(c)v IS NOT NULL THEN \(dialect.lowercaseAll("\(c)v")) END")
        } else {
            stages.add(SQLStage.folded, "\(c)f", dialect.lowercase("\(c)v"))
        }
    }

    /// Built-in field `field`, from the JSON profile or from its typed column.
    private func readStored(_ field: String, prefix c: String, set: Bool, presence: Bool, into stages: inout SQLStages) {
        if let schema {
            readColumn(.builtin(field), of: schema, prefix: c, set: set, presence: presence, into: &stages)
        } else {
            readBuiltin(field, prefix: c, set: set, presence: presence, into: &stages)
        }
    }

    /// From the typed column of `target` (`--layout columns`): the columns the JSON readers give
    /// from the same value, `_s`, `_n` (and `_a` for a set, `_p` unless `presence` is false).
    /// A custom attribute's text is trimmed and empty text is not set; a bool is 1 or 0; `NaN`
    /// is not set. A built-in field is present whenever its column is not NULL.
    private func readColumn(_ target: AttributeTarget, of schema: SQLTableSchema, prefix c: String, set: Bool, presence: Bool,
                            into stages: inout SQLStages) {
        let custom: Bool
        if case .custom = target { custom = true } else { custom = false }
        let value: String, kind: SQLTableSchema.Kind
        if target == .builtin("id") {
            (value, kind) = ("profile_id", .text)
        } else if let (index, column) = schema.column(for: target) {
            (value, kind) = (SQLTableSchema.alias(index), column.kind)
        } else {
            (value, kind) = ("CAST(NULL AS \(dialect.textType))", .text)
        }
        let noText = "CAST(NULL AS \(dialect.textType))", noNumber = dialect.doubleCast("NULL")
        let text: String, number: String
        switch kind {
        case .text:
            text = custom ? "nullif(\(dialect.trim(value)), '')" : value
            number = noNumber
        case .number:
            text = noText
            number = "nullif(\(value), \(dialect.doubleCast("'NaN'")))"
        case .bool:
            text = noText
            number = "CASE WHEN \(value) THEN \(dialect.doubleCast("1")) WHEN NOT \(value) THEN \(dialect.doubleCast("0")) END"
        }
        stages.add(SQLStage.stored, "\(c)s", text)
        stages.add(SQLStage.stored, "\(c)n", number)
        if set {
            let array = kind == .text ? "CASE WHEN \(value) = '' THEN \(dialect.emptyTextArray) ELSE \(dialect.splitOnComma(value)) END" : "CAST(NULL AS \(dialect.textArrayType))"
            stages.add(SQLStage.stored, "\(c)a", "CASE WHEN \(value) IS NOT NULL THEN \(array) END")
        }
        if custom {
            stages.add(SQLStage.view, "\(c)p", "(\(c)s IS NOT NULL OR \(c)n IS NOT NULL)")
        } else if presence {
            stages.add(SQLStage.stored, "\(c)p", "(\(kind == .number ? number : value) IS NOT NULL)")
        }
    }

    /// `_t` (JSON type name, NULL when absent or null), `_x` (text of a string or number),
    /// `_a` (an array of strings), then `_p` (unless `presence` is false), `_s`, `_n`.
    private func readBuiltin(_ field: String, prefix c: String, set: Bool, presence: Bool = true, into stages: inout SQLStages) {
        // PostgreSQL looks the member up once, then reads it as it is typed; Spark SQL reads
        // the parsed profile's field.
        let member: SQLExpression
        switch dialect {
        case .postgres:
            stages.add(SQLStage.locate, "\(c)j", dialect.sql(.profileMember(field)))
            member = .column("\(c)j")
        case .spark:
            member = .profileMember(field)
        }
        stages.add(SQLStage.raw, "\(c)t", dialect.sql(.jsonType(member)))
        stages.add(SQLStage.raw, "\(c)x", dialect.sql(.jsonScalarText(member)))
        if set {
            let value = dialect.sql(member)
            switch dialect {
            case .postgres:
                stages.add(SQLStage.raw, "\(c)a", "CASE WHEN jsonb_typeof(\(value)) = 'array' AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(\(value)) AS e(v) WHERE jsonb_typeof(e.v) <> 'string') THEN ARRAY(SELECT jsonb_array_elements_text(\(value))) END")
            case .spark:
                let e = SQLExpression.column("e")
                stages.add(SQLStage.rawTyped, "\(c)r", "CASE WHEN \(c)t = 'array' THEN from_json(\(value), 'ARRAY<STRING>') END")
                stages.add(SQLStage.text, "\(c)a", "CASE WHEN forall(\(c)r, e -> \(dialect.sql(.jsonIsString(e)))) THEN transform(\(c)r, e -> \(dialect.sql(.jsonStringText(e)))) END")
            }
        }
        if presence { stages.add(SQLStage.stored, "\(c)p", "(\(c)t IS NOT NULL)") }
        stages.add(SQLStage.stored, "\(c)s", "CASE WHEN \(c)t = 'string' THEN \(c)x END")
        stages.add(SQLStage.stored, "\(c)n", "CASE WHEN \(c)t = 'number' THEN \(dialect.textToDouble("\(c)x")) END")
    }

    /// PostgreSQL: the column of `t0` holding the custom attributes with their keys trimmed
    /// (NULL when `custom_attributes` is not an object).
    static let postgresCustomAttributes = "ca"

    /// The member whose trimmed key is `key`: `_t` and `_x` as for built-in fields (an array
    /// already joined with commas), then the stored string `_s` (trimmed) or number `_n`.
    private func readCustom(_ key: String, prefix c: String, into stages: inout SQLStages) {
        switch dialect {
        case .postgres:
            stages.add(SQLStage.locate, "\(c)j", "\(SQLSlotReader.postgresCustomAttributes) -> \(dialect.string(key))")
            let j = "\(c)j"
            stages.add(SQLStage.raw, "\(c)t", "nullif(jsonb_typeof(\(j)), 'null')")
            stages.add(SQLStage.raw, "\(c)x", "CASE WHEN jsonb_typeof(\(j)) IN ('string', 'number', 'boolean') THEN \(j) #>> '{}' "
                + "WHEN jsonb_typeof(\(j)) = 'array' THEN (SELECT string_agg(u.e, ',' ORDER BY u.i) FROM jsonb_array_elements_text(\(j)) WITH ORDINALITY AS u(e, i)) END")
        case .spark:
            let map = SparkParse.customAttributes
            let trimmedKey = dialect.sql(.compare(.trim(.jsonStringText(.column("k"))), .equal, .string(key)))
            stages.add(SQLStage.raw, "\(c)k", "try_element_at(filter(map_keys(\(map)), k -> \(trimmedKey)), 1)")
            stages.add(SQLStage.rawTyped, "\(c)x0", "CASE WHEN \(c)k IS NOT NULL THEN element_at(\(map), \(c)k) END")
            let value = SQLExpression.column("\(c)x0")
            stages.add(SQLStage.text, "\(c)t", dialect.sql(.jsonType(value)))
            let array = "from_json(\(c)x0, 'ARRAY<STRING>')"
            stages.add(SQLStage.text, "\(c)x", "CASE WHEN left(\(c)x0, 1) = '[' THEN array_join(transform(\(array), e -> \(dialect.sql(.jsonStringText(.column("e"))))), ',') "
                + "ELSE \(dialect.sql(.jsonScalarText(value))) END")
        }
        // A string is trimmed; so is an array, once joined.
        stages.add(SQLStage.stored, "\(c)s", "CASE WHEN \(c)t IN ('string', 'array') THEN nullif(\(dialect.trim("\(c)x")), '') END")
        stages.add(SQLStage.stored, "\(c)n", "CASE WHEN \(c)t = 'number' THEN \(dialect.textToDouble("\(c)x")) WHEN \(c)t = 'boolean' THEN CASE WHEN \(c)x = 'true' THEN 1 ELSE 0 END END")
        stages.add(SQLStage.view, "\(c)p", "(\(c)s IS NOT NULL OR \(c)n IS NOT NULL)")
    }
}
