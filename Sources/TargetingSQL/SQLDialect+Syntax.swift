import TargetingProfiles

/// The pieces of SQL text that differ between engines; everything else is shared.
extension SQLDialect {
    /// A string literal; quotes (and for Spark SQL, backslashes) are escaped.
    ///
    /// PostgreSQL text cannot hold U+0000, so no stored value equals, contains or holds a
    /// literal with one: it is written as a NULL string, which every comparison (each wrapped in
    /// `coalesce(…, FALSE)`) takes as false.
    package func string(_ text: String) -> String {
        switch self {
        case .postgres:
            if text.unicodeScalars.contains("\u{0}") { return "CAST(NULL AS TEXT)" }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
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
                        out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16).uppercased()
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "'"
        }
    }

    /// A number literal as a double.
    func double(_ value: Double) -> String {
        let text: String
        if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            text = "\(value)"
        }
        switch self {
        case .postgres: return "CAST('\(text)' AS DOUBLE PRECISION)"
        case .spark: return "CAST('\(text)' AS DOUBLE)"
        }
    }

    /// A number cast to a double.
    func doubleCast(_ value: String) -> String {
        "CAST(\(value) AS \(doubleType))"
    }

    /// The end-of-text anchor of a regular expression (Java's `$` also matches before a final line break).
    var endAnchor: String {
        switch self {
        case .postgres: "$"
        case .spark: "\\z"
        }
    }

    /// The text type.
    var textType: String {
        switch self {
        case .postgres: "TEXT"
        case .spark: "STRING"
        }
    }

    /// The type of an array of text.
    var textArrayType: String {
        switch self {
        case .postgres: "TEXT[]"
        case .spark: "ARRAY<STRING>"
        }
    }

    /// An empty array of text.
    var emptyTextArray: String {
        switch self {
        case .postgres: "CAST(ARRAY[] AS TEXT[])"
        case .spark: "CAST(array() AS ARRAY<STRING>)"
        }
    }

    /// Integer division of non-negative integers.
    func divide(_ a: String, _ b: String) -> String {
        switch self {
        case .postgres: "(\(a)) / \(b)"
        case .spark: "(\(a)) div \(b)"
        }
    }

    /// Division rounding towards negative infinity, by a positive constant.
    func floorDivide(_ a: String, _ b: Int64) -> String {
        divide("(\(a)) - ((((\(a)) % \(b)) + \(b)) % \(b))", String(b))
    }

    /// The one-based element `index` of an array, or NULL past its end.
    func element(_ array: String, _ index: Int) -> String {
        switch self {
        case .postgres: "(\(array))[\(index)]"
        case .spark: "try_element_at(\(array), \(index))"
        }
    }

    /// The number of elements of an array.
    func count(_ array: String) -> String {
        switch self {
        case .postgres: "cardinality(\(array))"
        case .spark: "size(\(array))"
        }
    }

    /// Whether an array holds `value`.
    func arrayContains(_ array: String, _ value: String) -> String {
        switch self {
        case .postgres: "(\(value) = ANY(\(array)))"
        case .spark: "array_contains(\(array), \(value))"
        }
    }

    /// Text split on a comma, empty parts kept.
    func splitOnComma(_ text: String) -> String {
        switch self {
        case .postgres: "string_to_array(\(text), ',')"
        case .spark: "split(\(text), ',', -1)"
        }
    }

    /// Text split on a full stop, empty parts kept.
    func splitOnDot(_ text: String) -> String {
        switch self {
        case .postgres: "string_to_array(\(text), '.')"
        case .spark: "split(\(text), '[.]', -1)"
        }
    }

    /// Text cast to a 64-bit integer (the text is known to be a short run of digits).
    func bigint(_ text: String) -> String { "CAST(\(text) AS BIGINT)" }

    /// Text compared by bytes.
    func bytes(_ text: String) -> String {
        switch self {
        case .postgres: "(\(text) COLLATE \"C\")"
        case .spark: text
        }
    }

    /// The lowercase mapping of `ignoring case` (`CaseFolding.lowercase`: full Unicode mapping,
    /// Final_Sigma). PostgreSQL's `lower()` applies it under an ICU collation only (the libc one
    /// of a `C.UTF-8` database maps each character alone), hence `und-x-icu`; Spark's `lower()`
    /// is Java's `toLowerCase`, which applies it. In PostgreSQL ASCII text (as many bytes as
    /// characters) takes the byte-wise `lower()` first, which maps ASCII as ICU does.
    func lowercase(_ text: String) -> String {
        switch self {
        case .postgres:
            return "CASE WHEN octet_length(\(text)) = length(\(text)) THEN lower(\(text) COLLATE \"C\") COLLATE \"default\" "
                + "ELSE lower(\(text) COLLATE \"und-x-icu\") COLLATE \"default\" END"
        case .spark:
            return "lower(\(text))"
        }
    }

    /// Lowercases every element of a text array.
    func lowercaseAll(_ array: String) -> String {
        switch self {
        case .postgres: return "ARRAY(SELECT \(lowercase("u.e")) FROM unnest(\(array)) AS u(e))"
        case .spark: return "transform(\(array), e -> \(lowercase("e")))"
        }
    }

    /// The white space `AdaptyLimits.trimmed` trims, as one PostgreSQL escape-string literal
    /// (`E'\u0009…'`).
    static let postgresWhiteSpace = "E'" + AdaptyLimits.whiteSpace.map { "\\u" + hex4($0) }.joined() + "'"

    /// A PostgreSQL pattern that matches the text of every `jsonb` object having a key that
    /// starts or ends with white space `AdaptyLimits.trimmed` trims, and few others. The text
    /// writes each key as `"KEY": `, the white space below U+0020 escaped (`\t`, `\n`, `\f`,
    /// `\r`, `\u000b`) and the rest as it is; the pattern looks for either right inside a
    /// key's quotes. It also matches some objects without such a key (a string value starting
    /// with white space, an escaped quote before it), which are then read key by key.
    static let postgresUntrimmedKey: String = {
        let raw = AdaptyLimits.whiteSpace.filter { $0 >= 0x20 }.map { "\\u" + hex4($0) }.joined()
        let escaped = AdaptyLimits.whiteSpace.filter { $0 < 0x20 }.map { value -> String in
            switch value {
            case 0x09: "\\\\\\\\t"
            case 0x0A: "\\\\\\\\n"
            case 0x0C: "\\\\\\\\f"
            case 0x0D: "\\\\\\\\r"
            default: "\\\\\\\\u" + hex4(value).lowercased()
            }
        }
        let space = "([" + raw + "]|" + escaped.joined(separator: "|") + ")"
        return "E'\"" + space + "|" + space + "\": '"
    }()

    /// Four upper-case hex digits of a code point below 0x10000.
    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16).uppercased()
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Text trimmed of Unicode white space at both ends, as `AdaptyLimits.trimmed` trims.
    func trim(_ text: String) -> String {
        switch self {
        case .postgres:
            return "btrim(\(text), \(SQLDialect.postgresWhiteSpace))"
        case .spark:
            let set = AdaptyLimits.whiteSpace.map { "\\u" + SQLDialect.hex4($0) }.joined()
            return "trim(BOTH '\(set)' FROM \(text))"
        }
    }

    /// A regular-expression match: an array of the groups (NULL for a group that did not take
    /// part), or NULL when `text` does not match. Groups must never match empty text, nor text
    /// with a `|`. Spark SQL matches twice (`RLIKE`, then one `regexp_replace` that writes
    /// every group, `|` between them), not once per group.
    func match(_ text: String, _ pattern: String, groups: Int) -> String {
        switch self {
        case .postgres:
            return "regexp_match(\(text), \(string(pattern)))"
        case .spark:
            let written = (1...groups).map { "$\($0)" }.joined(separator: "|")
            return "CASE WHEN \(text) RLIKE \(string(pattern)) "
                + "THEN transform(split(regexp_replace(\(text), \(string(pattern)), '\(written)'), '[|]', -1), g -> nullif(g, '')) END"
        }
    }

    /// An array of text (`element` reads NULL past its end).
    func textArray(_ items: [String]) -> String {
        switch self {
        case .postgres: "ARRAY[\(items.joined(separator: ", "))]"
        case .spark: "array(\(items.joined(separator: ", ")))"
        }
    }

    /// A text number cast to a double without ever raising an error.
    func textToDouble(_ text: String) -> String {
        switch self {
        case .postgres:
            let numeric = "CAST(\(text) AS NUMERIC)"
            return "CASE WHEN abs(\(numeric)) > 1.7976931348623157e308 THEN CAST(sign(\(numeric)) AS DOUBLE PRECISION) * CAST('Infinity' AS DOUBLE PRECISION) "
                + "WHEN abs(\(numeric)) < 2.2250738585072014e-308 THEN CAST(0 AS DOUBLE PRECISION) "
                + "ELSE CAST(\(numeric) AS DOUBLE PRECISION) END"
        case .spark:
            return "CAST(\(text) AS DOUBLE)"
        }
    }

    /// The split bucket: MD5 of `key`, last 8 bytes as an unsigned big-endian integer, modulo 100.
    func bucket(_ key: String) -> String { bucket(ofHash: hash(key)) }

    /// What a split bucket is worked out from, once per draw: in PostgreSQL the last 8 bytes
    /// of the MD5 of `key` as a `BIGINT` (two's complement: negative when the first bit is set),
    /// in Spark SQL the MD5 in hex.
    func hash(_ key: String) -> String {
        switch self {
        case .postgres: "CAST(CAST(('x' || right(md5(\(key)), 16)) AS BIT(64)) AS BIGINT)"
        case .spark: "md5(\(key))"
        }
    }

    /// The split bucket of `hash` (`hash(key)`, or a column holding it: the bucket reads it
    /// twice): the last 8 bytes of the MD5 as an unsigned number, mod 100. PostgreSQL's signed
    /// number is the unsigned one less 2^64 when negative, and 2^64 mod 100 = 16. Spark SQL works
    /// it out from the two halves of the last 16 hex digits, so that it needs no decimal.
    func bucket(ofHash hash: String) -> String {
        switch self {
        case .postgres:
            return "((((\(hash)) % 100) + CASE WHEN \(hash) < 0 THEN 116 ELSE 100 END) % 100)"
        case .spark:
            func half(_ start: Int) -> String { "CAST(conv(substr(\(hash), \(start), 8), 16, 10) AS BIGINT)" }
            // (high * 2^32 + low) mod 100, with 2^32 mod 100 = 96.
            return "((((\(half(17))) % 100) * 96 + ((\(half(25))) % 100)) % 100)"
        }
    }

    /// Text concatenation.
    func concat(_ parts: [String]) -> String {
        switch self {
        case .postgres: "(" + parts.joined(separator: " || ") + ")"
        case .spark: "concat(" + parts.joined(separator: ", ") + ")"
        }
    }

    /// The type of a double.
    var doubleType: String {
        switch self {
        case .postgres: "DOUBLE PRECISION"
        case .spark: "DOUBLE"
        }
    }

    /// The character that quotes an identifier (doubled inside it).
    var identifierQuote: String {
        switch self {
        case .postgres: "\""
        case .spark: "`"
        }
    }

    /// The columns `names` of a row as one text, equal for equal rows.
    func rowText(_ names: [String]) -> String {
        switch self {
        case .postgres: "CAST(ROW(\(names.joined(separator: ", "))) AS TEXT)"
        case .spark: "to_json(struct(\(names.joined(separator: ", "))))"
        }
    }

    /// Whether `text` holds `fragment` (a text literal or column).
    func contains(_ text: String, _ fragment: String) -> String {
        switch self {
        case .postgres: "(strpos(\(text), \(fragment)) > 0)"
        case .spark: "(instr(\(text), \(fragment)) > 0)"
        }
    }

    /// Whether `text` is one or more ASCII digits.
    func isDigits(_ text: String) -> String {
        switch self {
        case .postgres: "(\(text) ~ '^[0-9]+$')"
        case .spark: "(\(text) RLIKE '^[0-9]+\\\\z')"
        }
    }

    /// In a grouped query, the `count` smallest non-NULL values of the text column `column`, as an array.
    func smallest(_ count: Int, of column: String) -> String {
        switch self {
        case .postgres: "(array_agg(\(column) ORDER BY \(column)) FILTER (WHERE \(column) IS NOT NULL))[1:\(count)]"
        case .spark: "slice(array_sort(collect_set(\(column))), 1, \(count))"
        }
    }

    /// The engine's name in messages.
    package var displayName: String {
        switch self {
        case .postgres: "PostgreSQL"
        case .spark: "Spark SQL"
        }
    }

    /// Whether the engine compiles queries to machine code, a setting `--no-jit` turns off.
    package var hasJIT: Bool {
        switch self {
        case .postgres: true
        case .spark: false
        }
    }
}
