import TargetingBase
import TargetingProfiles

/// How each engine writes an expression tree: every spelling that differs between engines is
/// a switch over the dialect here, and nowhere else.
extension SQLDialect {
    /// `expression` as this engine's SQL text.
    func sql(_ expression: SQLExpression) -> String {
        switch expression {
        case .column(let name):
            return name
        case .string(let text):
            return string(text)
        case .number(let value):
            let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
            return "CAST('\(text)' AS \(typeName(.double)))"
        case .integer(let value):
            return String(value)
        case .bool(let value):
            return value ? "TRUE" : "FALSE"
        case .null:
            return "NULL"
        case .instant(let ms):
            return instantLiteral(ms)
        case .calendarDate(let days):
            return dateLiteral(days)
        case .cast(let value, let type):
            return "CAST(\(sql(value)) AS \(typeName(type)))"
        case .parenthesized(let inner):
            return "(" + sql(inner) + ")"
        case .and(let items):
            return items.isEmpty ? "TRUE" : items.map(sql).joined(separator: " AND ")
        case .or(let items):
            return items.isEmpty ? "FALSE" : items.map(sql).joined(separator: " OR ")
        case .not(let inner):
            return "NOT " + sql(inner)
        case .compare(let left, let comparison, let right):
            return "\(sql(left)) \(comparison.rawValue) \(sql(right))"
        case .isIn(let value, let list):
            return "\(sql(value)) IN (" + list.map(sql).joined(separator: ", ") + ")"
        case .isNull(let value, let negated):
            return sql(value) + (negated ? " IS NOT NULL" : " IS NULL")
        case .arithmetic(let left, let operation, let right):
            return "\(sql(left)) \(operation.rawValue) \(sql(right))"
        case .between(let value, let low, let high):
            return "\(sql(value)) BETWEEN \(sql(low)) AND \(sql(high))"
        case .coalesce(let items):
            return "coalesce(" + items.map(sql).joined(separator: ", ") + ")"
        case .caseWhen(let subject, let whens, let otherwise):
            let head = subject.map { "CASE \(sql($0)) " } ?? "CASE "
            let branches = whens.map { "WHEN \(sql($0.condition)) THEN \(sql($0.result)) " }.joined()
            return head + branches + (otherwise.map { "ELSE \(sql($0)) " } ?? "") + "END"
        case .call(let name, let arguments):
            return name + "(" + arguments.map(sql).joined(separator: ", ") + ")"
        case .commented(let value, let note):
            return "\(sql(value)) /* \(note) */"
        case .raw(let text):
            return text

        case .contains(let text, let fragment):
            switch self {
            case .postgres: return "(strpos(\(sql(text)), \(sql(fragment))) > 0)"
            case .spark: return "(instr(\(sql(text)), \(sql(fragment))) > 0)"
            case .duckdb: return "(strpos(\(sql(text)), \(sql(fragment))) > 0)"
            case .clickhouse: return "(position(\(sql(text)), \(sql(fragment))) > 0)"
            }
        case .arrayContains(let array, let value):
            switch self {
            case .postgres: return "(\(sql(value)) = ANY(\(sql(array))))"
            case .spark: return "array_contains(\(sql(array)), \(sql(value)))"
            case .duckdb: return "list_contains(\(sql(array)), \(sql(value)))"
            case .clickhouse: return "has(\(sql(array)), \(sql(value)))"
            }
        case .overlaps(let array, let values):
            switch self {
            case .postgres: return "(\(sql(array)) && \(sql(.textArray(values))))"
            case .spark: return "arrays_overlap(\(sql(array)), \(sql(.textArray(values))))"
            case .duckdb: return "list_has_any(\(sql(array)), \(sql(.textArray(values))))"
            case .clickhouse: return "hasAny(\(sql(array)), \(sql(.textArray(values))))"
            }
        case .containsAll(let array, let values):
            switch self {
            case .postgres: return "(\(sql(array)) @> \(sql(.textArray(values))))"
            case .spark: return sql(.parenthesized(.and(values.map { .arrayContains(array, $0) })))
            case .duckdb: return "list_has_all(\(sql(array)), \(sql(.textArray(values))))"
            case .clickhouse: return "hasAll(\(sql(array)), \(sql(.textArray(values))))"
            }
        case .prefix(let text, let count):
            switch self {
            case .postgres, .spark, .duckdb: return "left(\(sql(text)), \(count))"
            case .clickhouse: return "leftUTF8(\(sql(text)), \(count))"
            }
        case .suffix(let text, let count):
            switch self {
            case .postgres, .spark, .duckdb: return "right(\(sql(text)), \(count))"
            case .clickhouse: return "rightUTF8(\(sql(text)), \(count))"
            }
        case .matches(let text, let pattern):
            switch self {
            case .postgres: return "(\(sql(text)) ~ \(sql(pattern)))"
            case .spark: return "(\(sql(text)) RLIKE \(sql(pattern)))"
            case .duckdb: return "regexp_full_match(\(sql(text)), \(sql(pattern)))"
            case .clickhouse: return "match(\(sql(text)), \(sql(pattern)))"
            }
        case .isDigits(let text):
            return sql(.matches(text, .string("^[0-9]+" + endAnchor)))
        case .groups(let text, let pattern, let count):
            let text = sql(text)
            switch self {
            case .postgres:
                return "regexp_match(\(text), \(string(pattern)))"
            case .spark:
                // Two passes: `RLIKE`, then one `regexp_replace` writing every group, `|` between them.
                let written = (1...count).map { "$\($0)" }.joined(separator: "|")
                return "CASE WHEN \(text) RLIKE \(string(pattern)) "
                    + "THEN transform(split(regexp_replace(\(text), \(string(pattern)), '\(written)'), '[|]', -1), g -> nullif(g, '')) END"
            case .duckdb:
                // One match: the groups as a struct, then each (empty for no group) as a list.
                let names = (1...count).map { "'g\($0)'" }.joined(separator: ", ")
                let groups = (1...count).map { "nullif(m.g\($0), '')" }.joined(separator: ", ")
                return "CASE WHEN regexp_full_match(\(text), \(string(pattern))) "
                    + "THEN list_transform([regexp_extract(\(text), \(string(pattern)), [\(names)])], lambda m: [\(groups)])[1] END"
            case .clickhouse:
                // No match is an empty array (ClickHouse has no NULL array; see `groupsMatched`).
                return "arrayMap(g -> nullIf(g, ''), extractGroups(\(text), \(string(pattern))))"
            }
        case .notDistinct(let left, let right):
            switch self {
            case .postgres, .spark, .duckdb: return "\(sql(left)) IS NOT DISTINCT FROM \(sql(right))"
            case .clickhouse: return "coalesce(\(sql(left)) = \(sql(right)), isNull(\(sql(left))) AND isNull(\(sql(right))))"
            }
        case .groupsMatched(let groups):
            switch self {
            case .postgres, .spark, .duckdb: return sql(.isNull(groups, negated: true))
            case .clickhouse: return "notEmpty(\(sql(groups)))"
            }
        case .nullArray:
            switch self {
            case .postgres, .spark, .duckdb: return sql(.cast(.null, .textArray))
            case .clickhouse: return sql(.cast(.textArray([]), .textArray))
            }
        case .setIsPresent(let set):
            switch self {
            case .postgres, .spark, .duckdb: return sql(.isNull(set, negated: true))
            case .clickhouse: return "notEmpty(\(sql(set)))"
            }
        case .bytes(let text):
            switch self {
            case .postgres: return "(\(sql(text)) COLLATE \"C\")"
            case .spark, .duckdb, .clickhouse: return sql(text)
            }
        case .lowercase(let text):
            let text = sql(text)
            switch self {
            case .postgres:
                return "CASE WHEN octet_length(\(text)) = length(\(text)) THEN lower(\(text) COLLATE \"C\") COLLATE \"default\" "
                    + "ELSE lower(\(text) COLLATE \"und-x-icu\") COLLATE \"default\" END"
            case .spark:
                return "lower(\(text))"
            case .duckdb:
                // DuckDB maps each character alone: U+0130 maps to two characters, and a final
                // capital sigma to ς (`CaseFolding.lowercase`), only where the text has them.
                return "CASE WHEN regexp_matches(\(text), '[\\x{130}\\x{3A3}]') THEN \(SQLDialect.duckdbSpecialLowercase(text)) ELSE lower(\(text)) END"
            case .clickhouse:
                // ICU's full mapping, final sigma included.
                return "lowerUTF8(\(text))"
            }
        case .lowercaseAll(let array):
            switch self {
            case .postgres: return "ARRAY(SELECT \(sql(.lowercase(.column("u.e")))) FROM unnest(\(sql(array))) AS u(e))"
            case .spark: return "transform(\(sql(array)), e -> \(sql(.lowercase(.column("e")))))"
            case .duckdb: return "list_transform(\(sql(array)), lambda e: \(sql(.lowercase(.column("e")))))"
            case .clickhouse: return "arrayMap(e -> \(sql(.lowercase(.column("e")))), \(sql(array)))"
            }
        case .trim(let text):
            switch self {
            case .postgres:
                return "btrim(\(sql(text)), \(SQLDialect.postgresWhiteSpace))"
            case .spark:
                let set = AdaptyLimits.whiteSpace.map { "\\u" + SQLDialect.hex4($0) }.joined()
                return "trim(BOTH '\(set)' FROM \(sql(text)))"
            case .duckdb:
                return "trim(\(sql(text)), \(SQLDialect.duckdbWhiteSpace))"
            case .clickhouse:
                let set = AdaptyLimits.whiteSpace.map { regexCodePoint($0) }.joined()
                return "replaceRegexpAll(\(sql(text)), \(string("^[\(set)]+|[\(set)]+$")), '')"
            }
        case .count(let array):
            switch self {
            case .postgres: return "cardinality(\(sql(array)))"
            case .spark: return "size(\(sql(array)))"
            case .duckdb: return "len(\(sql(array)))"
            case .clickhouse: return "length(\(sql(array)))"
            }
        case .hasNullElement(let array):
            switch self {
            case .postgres: return "(array_position(\(sql(array)), NULL) IS NOT NULL)"
            case .spark: return "exists(\(sql(array)), e -> e IS NULL)"
            case .duckdb: return "(len(list_filter(\(sql(array)), lambda e: e IS NULL)) > 0)"
            case .clickhouse: return "arrayExists(e -> isNull(e), \(sql(array)))"
            }
        case .joinWithCommas(let array):
            switch self {
            case .postgres, .duckdb: return "array_to_string(\(sql(array)), ',')"
            case .clickhouse: return "arrayStringConcat(\(sql(array)), ',')"
            case .spark: return "array_join(\(sql(array)), ',')"
            }
        case .isNotFinite(let value):
            let value = sql(value)
            switch self {
            case .postgres: return "(\(value) IN (CAST('NaN' AS DOUBLE PRECISION), CAST('Infinity' AS DOUBLE PRECISION), CAST('-Infinity' AS DOUBLE PRECISION)))"
            case .spark: return "(isnan(\(value)) OR abs(\(value)) = CAST('Infinity' AS DOUBLE))"
            case .duckdb: return "(NOT isfinite(\(value)))"
            case .clickhouse: return "(NOT isFinite(\(value)))"
            }
        case .element(let array, let index):
            switch self {
            case .postgres: return "(\(sql(array)))[\(index)]"
            case .spark: return "try_element_at(\(sql(array)), \(index))"
            case .duckdb, .clickhouse: return "(\(sql(array)))[\(index)]"
            }
        case .textArray(let items):
            let list = items.map(sql).joined(separator: ", ")
            switch self {
            case .postgres: return "ARRAY[\(list)]"
            case .spark: return "array(\(list))"
            case .duckdb, .clickhouse: return "[\(list)]"
            }
        case .splitOnComma(let text):
            switch self {
            case .postgres: return "string_to_array(\(sql(text)), ',')"
            case .spark: return "split(\(sql(text)), ',', -1)"
            case .duckdb: return "string_split(\(sql(text)), ',')"
            case .clickhouse: return "splitByChar(',', \(sql(text)))"
            }
        case .splitOnDot(let text):
            switch self {
            case .postgres: return "string_to_array(\(sql(text)), '.')"
            case .spark: return "split(\(sql(text)), '[.]', -1)"
            case .duckdb: return "string_split(\(sql(text)), '.')"
            case .clickhouse: return "splitByChar('.', \(sql(text)))"
            }
        case .divide(let dividend, let divisor):
            switch self {
            case .postgres: return "(\(sql(dividend))) / \(sql(divisor))"
            case .spark: return "(\(sql(dividend))) div \(sql(divisor))"
            case .duckdb: return "(\(sql(dividend))) // \(sql(divisor))"
            case .clickhouse: return "intDiv(\(sql(dividend)), \(sql(divisor)))"
            }
        case .concat(let parts):
            switch self {
            case .postgres, .duckdb: return "(" + parts.map(sql).joined(separator: " || ") + ")"
            case .spark, .clickhouse: return "concat(" + parts.map(sql).joined(separator: ", ") + ")"
            }
        case .textToDouble(let text):
            let text = sql(text)
            switch self {
            case .postgres:
                let numeric = "CAST(\(text) AS NUMERIC)"
                return "CASE WHEN abs(\(numeric)) > 1.7976931348623157e308 THEN CAST(sign(\(numeric)) AS DOUBLE PRECISION) * CAST('Infinity' AS DOUBLE PRECISION) "
                    + "WHEN abs(\(numeric)) < 2.2250738585072014e-308 THEN CAST(0 AS DOUBLE PRECISION) "
                    + "ELSE CAST(\(numeric) AS DOUBLE PRECISION) END"
            case .spark:
                return "CAST(\(text) AS DOUBLE)"
            case .duckdb:
                return "TRY_CAST(\(text) AS DOUBLE)"
            case .clickhouse:
                return "toFloat64OrNull(\(text))"
            }
        case .hash(let key):
            switch self {
            case .postgres: return "CAST(CAST(('x' || right(md5(\(sql(key))), 16)) AS BIT(64)) AS BIGINT)"
            case .spark, .duckdb: return "md5(\(sql(key)))"
            case .clickhouse: return "MD5(\(sql(key)))"
            }
        case .bucket(let hash):
            let hash = sql(hash)
            switch self {
            case .postgres:
                // The signed number is the unsigned one less 2^64 when negative, and 2^64 mod 100 = 16.
                return "((((\(hash)) % 100) + CASE WHEN \(hash) < 0 THEN 116 ELSE 100 END) % 100)"
            case .spark:
                // From the two halves of the last 16 hex digits, so that it needs no decimal.
                func half(_ start: Int) -> String { "CAST(conv(substr(\(hash), \(start), 8), 16, 10) AS BIGINT)" }
                // (high * 2^32 + low) mod 100, with 2^32 mod 100 = 96.
                return "((((\(half(17))) % 100) * 96 + ((\(half(25))) % 100)) % 100)"
            case .duckdb:
                return "CAST(CAST('0x' || right(\(hash), 16) AS UBIGINT) % 100 AS INTEGER)"
            case .clickhouse:
                // The 16 bytes of the MD5: the last 8, read big-endian.
                return "toInt32(reinterpretAsUInt64(reverse(substring(\(hash), 9, 8))) % 100)"
            }
        case .rowText(let columns):
            let list = columns.map(sql).joined(separator: ", ")
            switch self {
            case .postgres: return "CAST(ROW(\(list)) AS TEXT)"
            case .spark: return "to_json(struct(\(list)))"
            case .duckdb: return "CAST(json_array(\(list)) AS VARCHAR)"
            case .clickhouse: return "toJSONString(tuple(\(list)))"
            }
        case .smallest(let count, let column):
            let column = sql(column)
            switch self {
            case .postgres: return "(array_agg(\(column) ORDER BY \(column)) FILTER (WHERE \(column) IS NOT NULL))[1:\(count)]"
            case .spark: return "slice(array_sort(collect_set(\(column))), 1, \(count))"
            case .duckdb: return "(array_agg(\(column) ORDER BY \(column)) FILTER (WHERE \(column) IS NOT NULL))[1:\(count)]"
            case .clickhouse: return "arraySlice(arraySort(groupUniqArray(\(column))), 1, \(count))"
            }
        case .profileMember(let name):
            switch self {
            case .postgres, .duckdb: return "profile -> \(string(name))"
            case .clickhouse: return "nullIf(JSONExtractRaw(profile, \(string(name))), '')"
            case .spark: return "\(SparkParse.profile).`\(SparkParse.mark)\(name)`"
            }
        case .jsonMember(let value, let path):
            switch self {
            case .postgres:
                return sql(value) + path.map { " -> " + string($0) }.joined()
            case .duckdb:
                // Each key quoted in the path: `->` would read a key starting with `$` as a path.
                let quoted = path.map { ".\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
                return "json_extract(\(sql(value)), \(string("$" + quoted.joined())))"
            case .clickhouse:
                // A member is its raw JSON text, NULL when absent.
                return "nullIf(JSONExtractRaw(\(sql(value)), \(path.map(string).joined(separator: ", "))), '')"
            case .spark:
                // Keys carry the mark; the names of placements and experiments are letters, digits and `_`.
                return "get_json_object(\(sql(value)), \(string("$" + path.map { ".\(SparkParse.mark)\($0)" }.joined())))"
            }
        case .jsonType(let member):
            let text = sql(member)
            switch self {
            case .postgres:
                return "nullif(jsonb_typeof(\(text)), 'null')"
            case .spark:
                return "CASE WHEN \(text) IS NULL THEN NULL WHEN \(sql(.jsonIsString(member))) THEN 'string' WHEN \(text) IN ('true', 'false') THEN 'boolean' "
                    + "WHEN left(\(text), 1) = '[' THEN 'array' WHEN left(\(text), 1) = '{' THEN 'object' ELSE 'number' END"
            case .duckdb:
                return "CASE json_type(\(text)) WHEN 'VARCHAR' THEN 'string' WHEN 'BOOLEAN' THEN 'boolean' WHEN 'ARRAY' THEN 'array' "
                    + "WHEN 'OBJECT' THEN 'object' WHEN 'NULL' THEN NULL WHEN 'BIGINT' THEN 'number' WHEN 'UBIGINT' THEN 'number' "
                    + "WHEN 'DOUBLE' THEN 'number' WHEN 'HUGEINT' THEN 'number' END"
            case .clickhouse:
                return "CASE JSONType(\(text)) WHEN 'String' THEN 'string' WHEN 'Bool' THEN 'boolean' WHEN 'Array' THEN 'array' "
                    + "WHEN 'Object' THEN 'object' WHEN 'Int64' THEN 'number' WHEN 'UInt64' THEN 'number' WHEN 'Double' THEN 'number' END"
            }
        case .jsonIsString(let member):
            switch self {
            case .postgres: return "jsonb_typeof(\(sql(member))) = 'string'"
            case .spark: return "(left(\(sql(member)), 1) = '\(SparkParse.mark)')"
            case .duckdb: return "json_type(\(sql(member))) = 'VARCHAR'"
            case .clickhouse: return "JSONType(\(sql(member))) = 'String'"
            }
        case .jsonIsObject(let member):
            switch self {
            case .postgres: return "jsonb_typeof(\(sql(member))) = 'object'"
            case .spark: return "left(\(sql(member)), 1) = '{'"
            case .duckdb: return "json_type(\(sql(member))) = 'OBJECT'"
            case .clickhouse: return "JSONType(\(sql(member))) = 'Object'"
            }
        case .jsonStringText(let member):
            switch self {
            case .postgres: return "\(sql(member)) #>> '{}'"
            case .spark: return "substr(\(sql(member)), 2)"
            case .duckdb: return "(\(sql(member))) ->> '$'"
            case .clickhouse: return "JSONExtractString(\(sql(member)))"
            }
        case .jsonScalarText(let member):
            let text = sql(member)
            switch self {
            case .postgres:
                return "CASE WHEN jsonb_typeof(\(text)) IN ('string', 'number') THEN \(text) #>> '{}' END"
            case .spark:
                return "CASE WHEN \(sql(.jsonIsString(member))) THEN \(sql(.jsonStringText(member))) WHEN left(\(text), 1) IN ('[', '{') THEN NULL ELSE \(text) END"
            case .duckdb:
                return "CASE WHEN json_type(\(text)) IN ('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE', 'HUGEINT') THEN (\(text)) ->> '$' END"
            case .clickhouse:
                return "CASE WHEN JSONType(\(text)) = 'String' THEN JSONExtractString(\(text)) WHEN JSONType(\(text)) IN ('Int64', 'UInt64', 'Double') THEN \(text) END"
            }
        case .jsonFromText(let text):
            switch self {
            case .postgres: return "CAST(\(sql(text)) AS JSONB)"
            case .spark: return "regexp_replace(\(sql(text)), \(string(SparkParse.stringToken)), \(string("\"\(SparkParse.mark)$1\"")))"
            case .duckdb: return "CAST(\(sql(text)) AS JSON)"
            case .clickhouse: return sql(text)
            }
        case .shownInstants(let list):
            return shownInstants(sql(list))
        case .countWithin(let array, let after, let upTo):
            let array = sql(array)
            switch self {
            case .postgres:
                return "CASE WHEN cardinality(\(array)) = 0 THEN 0 ELSE "
                    + "(SELECT count(*) FROM unnest(\(array)) AS u(ms) WHERE u.ms > \(after) AND u.ms <= \(upTo)) END"
            case .spark:
                return "size(filter(\(array), m -> m > \(after) AND m <= \(upTo)))"
            case .duckdb:
                return "len(list_filter(\(array), lambda m: m > \(after) AND m <= \(upTo)))"
            case .clickhouse:
                return "length(arrayFilter(m -> m > \(after) AND m <= \(upTo), \(array)))"
            }
        case .arrayMax(let array):
            let array = sql(array)
            switch self {
            case .postgres: return "CASE WHEN cardinality(\(array)) > 0 THEN (SELECT max(u.ms) FROM unnest(\(array)) AS u(ms)) END"
            case .spark: return "array_max(\(array))"
            case .duckdb: return "list_max(\(array))"
            case .clickhouse: return "if(empty(\(array)), NULL, arrayMax(\(array)))"
            }
        }
    }

    /// `shownInstants` of the JSON array `list`: each element that has an instant's shape taken
    /// apart by position (`SQLInstantParts`), then its milliseconds; those that name no
    /// instant (NULL) dropped, the rest made distinct.
    private func shownInstants(_ list: String) -> String {
        let pattern = string(SQLInstantParts.instantPattern(self))
        switch self {
        case .postgres:
            let parts = SQLInstantParts.positional(.column("e.t")).named(prefix: "x_")
                .map { "\(sql($0.expression)) AS \($0.name)" }.joined(separator: ", ")
            let ms = sql(SQLInstantParts.columns(prefix: "x_").milliseconds)
            let elements = "jsonb_array_elements_text(\(list)) AS e(t)"
            // A profile without the list (most of them) skips the subquery: CASE evaluates one branch.
            return "CASE WHEN jsonb_typeof(\(list)) = 'array' THEN "
                + "ARRAY(SELECT DISTINCT i.ms FROM (SELECT \(ms) AS ms FROM (SELECT \(parts) FROM \(elements) WHERE e.t ~ \(pattern)) AS p) AS i "
                + "WHERE i.ms IS NOT NULL) ELSE CAST(ARRAY[] AS BIGINT[]) END"
        case .spark:
            // Each string unmarked, then taken apart when it has an instant's shape, then its milliseconds.
            let t = SQLExpression.column("t")
            let texts = "transform(from_json(\(list), 'ARRAY<STRING>'), t -> CASE WHEN \(sql(.jsonIsString(t))) THEN \(sql(.jsonStringText(t))) END)"
            let fields = SQLInstantParts.positional(.column("u")).named(prefix: "")
                .map { "'\($0.name)', \(sql($0.expression))" }.joined(separator: ", ")
            let parts = "transform(\(texts), u -> CASE WHEN u RLIKE \(pattern) THEN named_struct(\(fields)) END)"
            let ms = sql(SQLInstantParts.columns(prefix: "x.").milliseconds)
            let all = "filter(transform(\(parts), x -> \(ms)), m -> m IS NOT NULL)"
            return "coalesce(array_distinct(\(all)), CAST(array() AS ARRAY<BIGINT>))"
        case .duckdb:
            // As in Spark SQL, with lists and lambdas.
            let t = SQLExpression.column("t")
            let texts = "list_transform(json_extract(\(list), '$[*]'), lambda t: CASE WHEN \(sql(.jsonIsString(t))) THEN \(sql(.jsonStringText(t))) END)"
            let fields = SQLInstantParts.positional(.column("u")).named(prefix: "")
                .map { "\($0.name) := \(sql($0.expression))" }.joined(separator: ", ")
            let parts = "list_transform(\(texts), lambda u: CASE WHEN regexp_full_match(u, \(pattern)) THEN struct_pack(\(fields)) END)"
            let ms = sql(SQLInstantParts.columns(prefix: "x.").milliseconds)
            let all = "list_filter(list_transform(\(parts), lambda x: \(ms)), lambda m: m IS NOT NULL)"
            return "CASE WHEN json_type(\(list)) = 'ARRAY' THEN list_distinct(\(all)) ELSE CAST([] AS BIGINT[]) END"
        case .clickhouse:
            let texts = "arrayMap(t -> JSONExtractString(t), arrayFilter(t -> JSONType(t) = 'String', JSONExtractArrayRaw(coalesce(\(list), '[]'))))"
            let ms = sql(SQLInstantParts.positional(.column("u")).milliseconds)
            return "arrayDistinct(arrayFilter(m -> isNotNull(m), arrayMap(u -> CASE WHEN match(u, \(pattern)) THEN \(ms) END, \(texts))))"
        }
    }

    /// The name of a column type.
    func typeName(_ type: SQLExpression.ValueType) -> String {
        switch type {
        case .text:
            switch self {
            case .postgres: "TEXT"
            case .spark: "STRING"
            case .duckdb: "VARCHAR"
            case .clickhouse: "Nullable(String)"
            }
        case .double:
            switch self {
            case .postgres: "DOUBLE PRECISION"
            case .spark, .duckdb: "DOUBLE"
            case .clickhouse: "Nullable(Float64)"
            }
        case .textArray:
            switch self {
            case .postgres: "TEXT[]"
            case .spark: "ARRAY<STRING>"
            case .duckdb: "VARCHAR[]"
            case .clickhouse: "Array(String)"
            }
        case .bigint:
            switch self {
            case .postgres, .spark, .duckdb: "BIGINT"
            case .clickhouse: "Nullable(Int64)"
            }
        case .int:
            switch self {
            case .postgres, .spark: "INT"
            case .duckdb: "INTEGER"
            case .clickhouse: "Nullable(Int32)"
            }
        case .boolean:
            switch self {
            case .postgres, .spark, .duckdb: "BOOLEAN"
            case .clickhouse: "Nullable(Bool)"
            }
        case .date:
            switch self {
            case .postgres, .spark, .duckdb: "DATE"
            case .clickhouse: "Nullable(Date32)"
            }
        case .timestamp:
            switch self {
            case .postgres, .duckdb: "TIMESTAMPTZ"
            case .spark: "TIMESTAMP"
            case .clickhouse: "Nullable(DateTime64(3, 'UTC'))"
            }
        case .json:
            switch self {
            case .postgres: "JSONB"
            case .spark: "STRING"
            case .duckdb: "JSON"
            case .clickhouse: "Nullable(String)"
            }
        }
    }

    /// The type of a table column holding values of `type`, NULL standing for not set.
    func columnTypeName(_ type: SQLExpression.ValueType) -> String {
        switch self {
        case .postgres, .spark, .duckdb, .clickhouse: typeName(type)
        }
    }

    /// What follows a `CREATE TABLE`'s column list.
    var tableEngineClause: String {
        switch self {
        case .postgres, .spark, .duckdb: ""
        case .clickhouse: " ENGINE = MergeTree ORDER BY tuple()"
        }
    }

    /// The instants (Unix ms) the engine's instant and date types hold: years 1 to 9999.
    var instantRange: ClosedRange<Int64> {
        switch self {
        case .postgres, .spark, .duckdb: SQLTableSchema.instantRange
        case .clickhouse: -2_208_988_800_000 ... 10_413_791_999_999  // 1900-01-01 to 2299-12-31
        }
    }

    /// An instant literal, UTC.
    private func instantLiteral(_ ms: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: Int(Timestamp.floorDiv(ms, Timestamp.msPerDay)))
        let inDay = Timestamp.floorMod(ms, Timestamp.msPerDay)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time = "\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))"
        switch self {
        case .postgres, .duckdb: return "TIMESTAMPTZ '\(date) \(time)+00'"
        case .spark: return "timestamp_millis(\(ms))"
        case .clickhouse: return "toDateTime64('\(date) \(time)', 3, 'UTC')"
        }
    }

    /// A calendar date literal.
    private func dateLiteral(_ days: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: Int(days))
        switch self {
        case .postgres, .spark, .duckdb: return "DATE '\(date)'"
        case .clickhouse: return "toDate32('\(date)')"
        }
    }

    /// A string literal; quotes (and for Spark SQL, backslashes) are escaped.
    ///
    /// PostgreSQL text cannot hold U+0000, so no stored value equals, contains or holds a
    /// literal with one: it is written as a NULL string, which every comparison (each wrapped in
    /// `coalesce(…, FALSE)`) takes as false. DuckDB text can: its literal is joined with `chr(0)`.
    package func string(_ text: String) -> String {
        switch self {
        case .postgres:
            if text.unicodeScalars.contains("\u{0}") { return sql(.cast(.null, .text)) }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .duckdb:
            // DuckDB text holds U+0000, which a literal cannot: `chr(0)` stands for it.
            let parts = text.split(separator: "\u{0}", omittingEmptySubsequences: false)
                .map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " || chr(0) || ") + ")"
        case .clickhouse:
            var out = "'"
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": out += "\\\\"
                case "'": out += "\\'"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        out += "\\x" + String(SQLDialect.hex4(scalar.value).suffix(2))
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "'"
        case .spark:
            var out = "'"
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": out += "\\\\"
                case "'": out += "\\'"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        out += "\\u" + SQLDialect.hex4(scalar.value)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "'"
        }
    }

    /// Whether a string literal can hold `text` (PostgreSQL's text cannot hold U+0000).
    func canWrite(_ text: String) -> Bool {
        switch self {
        case .postgres: !text.unicodeScalars.contains("\u{0}")
        case .spark, .duckdb, .clickhouse: true
        }
    }

    /// Whether an array can be NULL (ClickHouse's cannot).
    var hasNullArrays: Bool {
        switch self {
        case .postgres, .spark, .duckdb: true
        case .clickhouse: false
        }
    }

    /// Whether a backslash escapes the next character in a string literal.
    var backslashEscapes: Bool {
        switch self {
        case .postgres, .duckdb: false
        case .spark, .clickhouse: true
        }
    }

    /// The end-of-text anchor of a regular expression (Java's `$` also matches before a final line break).
    var endAnchor: String {
        switch self {
        case .postgres, .duckdb, .clickhouse: "$"
        case .spark: "\\z"
        }
    }

    /// A code point in a regular expression, inside a class too: `\uXXXX` or `\UXXXXXXXX` in
    /// PostgreSQL, `\x{…}` in Java.
    func regexCodePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        switch self {
        case .postgres:
            return value <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
        case .spark, .duckdb, .clickhouse:
            return "\\x{" + hex + "}"
        }
    }

    /// The character that quotes an identifier (doubled inside it).
    var identifierQuote: String {
        switch self {
        case .postgres, .duckdb: "\""
        case .spark, .clickhouse: "`"
        }
    }
}
