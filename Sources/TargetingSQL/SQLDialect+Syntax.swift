import TargetingProfiles

/// What an engine is called and what it offers, and the constant texts of PostgreSQL's reading
/// of custom attributes; how each engine spells an expression is `sql(_:)`.
extension SQLDialect {
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
