import TargetingProfiles

/// Text-level forms of the printed constructs, for the parts of the compiler that still build
/// their SQL as text: each one prints the construct over text already written (`raw`), so its
/// spelling stays in `sql(_:)`.
extension SQLDialect {
    /// A number literal as a double.
    func double(_ value: Double) -> String { sql(.number(value)) }

    /// A number cast to a double.
    func doubleCast(_ value: String) -> String { sql(.cast(.raw(value), .double)) }

    /// The text type.
    var textType: String { typeName(.text) }

    /// The type of an array of text.
    var textArrayType: String { typeName(.textArray) }

    /// The type of a double.
    var doubleType: String { typeName(.double) }

    /// An empty array of text.
    var emptyTextArray: String { sql(.cast(.textArray([]), .textArray)) }

    /// Integer division of non-negative integers.
    func divide(_ a: String, _ b: String) -> String { sql(.divide(.raw(a), .raw(b))) }

    /// Division rounding towards negative infinity, by a positive constant.
    func floorDivide(_ a: String, _ b: Int64) -> String { sql(.floorDivide(.raw(a), by: b)) }

    /// The one-based element `index` of an array, or NULL past its end.
    func element(_ array: String, _ index: Int) -> String { sql(.element(.raw(array), index)) }

    /// The number of elements of an array.
    func count(_ array: String) -> String { sql(.count(.raw(array))) }

    /// Whether an array holds `value`.
    func arrayContains(_ array: String, _ value: String) -> String { sql(.arrayContains(.raw(array), .raw(value))) }

    /// Text split on a comma, empty parts kept.
    func splitOnComma(_ text: String) -> String { sql(.splitOnComma(.raw(text))) }

    /// Text split on a full stop, empty parts kept.
    func splitOnDot(_ text: String) -> String { sql(.splitOnDot(.raw(text))) }

    /// Text cast to a 64-bit integer (the text is known to be a short run of digits).
    func bigint(_ text: String) -> String { sql(.cast(.raw(text), .bigint)) }

    /// Text compared by bytes.
    func bytes(_ text: String) -> String { sql(.bytes(.raw(text))) }

    /// The lowercase mapping of `ignoring case` (`CaseFolding.lowercase`: full Unicode mapping,
    /// Final_Sigma). PostgreSQL's `lower()` applies it under an ICU collation only (the libc one
    /// of a `C.UTF-8` database maps each character alone), hence `und-x-icu`; Spark's `lower()`
    /// is Java's `toLowerCase`, which applies it. In PostgreSQL ASCII text (as many bytes as
    /// characters) takes the byte-wise `lower()` first, which maps ASCII as ICU does.
    func lowercase(_ text: String) -> String { sql(.lowercase(.raw(text))) }

    /// Lowercases every element of a text array.
    func lowercaseAll(_ array: String) -> String { sql(.lowercaseAll(.raw(array))) }

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
    func trim(_ text: String) -> String { sql(.trim(.raw(text))) }

    /// A regular-expression match: an array of the groups (NULL for a group that did not take
    /// part), or NULL when `text` does not match. Groups must never match empty text, nor text
    /// with a `|`. Spark SQL matches twice (`RLIKE`, then one `regexp_replace` that writes
    /// every group, `|` between them), not once per group.
    func match(_ text: String, _ pattern: String, groups: Int) -> String { sql(.groups(.raw(text), pattern: pattern, count: groups)) }

    /// An array of text (`element` reads NULL past its end).
    func textArray(_ items: [String]) -> String { sql(.textArray(items.map(SQLExpression.raw))) }

    /// A text number cast to a double without ever raising an error.
    func textToDouble(_ text: String) -> String { sql(.textToDouble(.raw(text))) }

    /// The split bucket: MD5 of `key`, last 8 bytes as an unsigned big-endian integer, modulo 100.
    func bucket(_ key: String) -> String { bucket(ofHash: hash(key)) }

    /// What a split bucket is worked out from, once per draw: in PostgreSQL the last 8 bytes
    /// of the MD5 of `key` as a `BIGINT` (two's complement: negative when the first bit is set),
    /// in Spark SQL the MD5 in hex.
    func hash(_ key: String) -> String { sql(.hash(.raw(key))) }

    /// The split bucket of `hash` (`hash(key)`, or a column holding it: the bucket reads it
    /// twice): the last 8 bytes of the MD5 as an unsigned number, mod 100. PostgreSQL's signed
    /// number is the unsigned one less 2^64 when negative, and 2^64 mod 100 = 16. Spark SQL works
    /// it out from the two halves of the last 16 hex digits, so that it needs no decimal.
    func bucket(ofHash hash: String) -> String { sql(.bucket(.raw(hash))) }

    /// Text concatenation.
    func concat(_ parts: [String]) -> String { sql(.concat(parts.map(SQLExpression.raw))) }

    /// The columns `names` of a row as one text, equal for equal rows.
    func rowText(_ names: [String]) -> String { sql(.rowText(names.map(SQLExpression.column))) }

    /// Whether `text` holds `fragment` (a text literal or column).
    func contains(_ text: String, _ fragment: String) -> String { sql(.contains(.raw(text), .raw(fragment))) }

    /// Whether `text` is one or more ASCII digits.
    func isDigits(_ text: String) -> String { sql(.isDigits(.raw(text))) }

    /// In a grouped query, the `count` smallest non-NULL values of the text column `column`, as an array.
    func smallest(_ count: Int, of column: String) -> String { sql(.smallest(count, .column(column))) }

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
