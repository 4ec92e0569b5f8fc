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

    /// A table of constant rows named `alias` with the columns `columns`: `(VALUES (…), …) AS
    /// alias(columns)`, or in ClickHouse, whose `VALUES` is a table function with types, one
    /// `SELECT` per row joined by `UNION ALL`.
    func valuesTable(_ rows: [[String]], alias: String, columns: [String]) -> String {
        switch self {
        case .postgres, .spark, .duckdb:
            let named = ") AS \(alias)(\(columns.joined(separator: ", ")))"
            if columns.count == 1 { return "(VALUES " + rows.map { "(" + $0[0] + ")" }.joined(separator: ", ") + named }
            return "(VALUES\n" + rows.map { "  (" + $0.joined(separator: ", ") + ")" }.joined(separator: ",\n") + "\n" + named
        case .clickhouse:
            return "(\n" + rows.map { row in "  SELECT " + zip(row, columns).map { "\($0) AS \($1)" }.joined(separator: ", ") }
                .joined(separator: "\n  UNION ALL\n") + "\n) AS \(alias)"
        }
    }

    /// The white space `AdaptyLimits.trimmed` trims, as a DuckDB text of those characters.
    static let duckdbWhiteSpace = "(" + AdaptyLimits.whiteSpace.map { "chr(\($0))" }.joined(separator: " || ") + ")"

    /// DuckDB: the lowercase mapping of `text` (SQL) for text holding U+0130 or a capital
    /// sigma, which DuckDB's `lower()` maps one character at a time: U+0130 becomes `i` and
    /// U+0307, and a capital sigma after a cased letter and before none (case-ignorable
    /// characters skipped on both sides) becomes ς, as `CaseFolding.lowercase` maps them.
    static func duckdbSpecialLowercase(_ text: String) -> String {
        let (cased, ignorable) = finalSigmaClasses
        let pattern = "([\(cased)][\(ignorable)]*)\\x{3A3}([\(ignorable)]*)($|[^\(cased)\(ignorable)])"
        return "lower(regexp_replace(replace(\(text), chr(304), 'i' || chr(775)), '\(pattern)', '\\1' || chr(962) || '\\2\\3', 'g'))"
    }

    /// The characters that are cased and not case-ignorable, and the case-ignorable ones, as
    /// the insides of two RE2 classes of code point ranges.
    static let finalSigmaClasses: (cased: String, ignorable: String) = {
        var cased: [ClosedRange<UInt32>] = [], ignorable: [ClosedRange<UInt32>] = []
        func add(_ value: UInt32, to ranges: inout [ClosedRange<UInt32>]) {
            if let last = ranges.last, last.upperBound + 1 == value {
                ranges[ranges.count - 1] = last.lowerBound...value
            } else {
                ranges.append(value...value)
            }
        }
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.properties.isCaseIgnorable {
                add(value, to: &ignorable)
            } else if scalar.properties.isCased {
                add(value, to: &cased)
            }
        }
        func written(_ ranges: [ClosedRange<UInt32>]) -> String {
            ranges.map { range in
                let low = SQLDialect.duckdb.regexCodePoint(range.lowerBound)
                return range.count == 1 ? low : low + "-" + SQLDialect.duckdb.regexCodePoint(range.upperBound)
            }.joined()
        }
        return (written(cased), written(ignorable))
    }()

    /// DuckDB: an RE2 pattern matching the JSON text of every object that has a key starting or
    /// ending with white space `AdaptyLimits.trimmed` trims, as written in the profile (DuckDB
    /// keeps JSON text as it came): white space right after a quote, white space before a
    /// quote and a colon, or a key holding an escape (which could stand for white space). It
    /// also matches some objects without such a key (a value starting with white space), whose
    /// keys are then read.
    static let duckdbUntrimmedKey: String = {
        let space = "[" + AdaptyLimits.whiteSpace.map { SQLDialect.duckdb.regexCodePoint($0) }.joined() + "]"
        return "\"(" + space + "|\\\\)|" + space + "\"[ \\t\\n\\r]*:|\\\\[^\"]*\"[ \\t\\n\\r]*:"
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
        case .duckdb: "DuckDB"
        case .clickhouse: "ClickHouse"
        }
    }

    /// Whether the engine compiles queries to machine code, a setting `--no-jit` turns off.
    package var hasJIT: Bool {
        switch self {
        case .postgres: true
        case .spark, .duckdb, .clickhouse: false
        }
    }
}
