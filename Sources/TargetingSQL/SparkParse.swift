/// How Spark SQL reads a profile: its JSON text is parsed once, into a struct of the top-level
/// fields the query reads, and every value is then taken from that struct.
///
/// `from_json` gives a `STRING` field the text of any JSON value, so a string `"5"` and a
/// number `5` would read the same. Before parsing, every string token of the line (keys
/// included) gets a `~` after its opening quote, so that in the parsed struct a string's
/// text, and only a string's, starts with `~`: other values print as a number, `true`,
/// `false`, `[…]` or `{…}`, and JSON `null` is NULL. Field names in the schema carry the same
/// mark (`~country`). Arrays and the custom-attributes object are parsed from their own short
/// text, their strings marked in the same way.
enum SparkParse {
    /// The mark put at the start of every string.
    static let mark = "~"

    /// One JSON string token: `"`, then runs of plain characters and escapes, then `"`
    /// (possessive, so no input makes the matcher backtrack).
    static let stringToken = #""([^"\\]*+(?:\\.[^"\\]*+)*+)""#

    /// The parsed profile, from the text column `column`, with the top-level `fields`.
    static func parsed(_ column: String, fields: [String], dialect: SQLDialect) -> String {
        let schema = fields.map { "`\(mark)\($0)` STRING" }.joined(separator: ", ")
        return "from_json(\(marked(column, dialect: dialect)), \(dialect.string(schema)))"
    }

    /// The JSON text in the text column `column` with every string token marked.
    static func marked(_ column: String, dialect: SQLDialect) -> String {
        "regexp_replace(\(column), \(dialect.string(stringToken)), \(dialect.string("\"\(mark)$1\"")))"
    }

    /// The name of the column holding the parsed profile.
    static let profile = "pj"

    /// The name of the column holding the custom attributes as a map of marked keys to texts.
    static let customAttributes = "ca"

    /// The custom-attributes map, read from the parsed profile.
    static var customAttributesMap: String {
        let text = field("custom_attributes")
        return "CASE WHEN left(\(text), 1) = '{' THEN from_json(\(text), 'MAP<STRING, STRING>') END"
    }

    /// The text of top-level field `name` in the parsed profile.
    static func field(_ name: String) -> String { "\(profile).`\(mark)\(name)`" }

    /// Whether a parsed text is a string.
    static func isString(_ text: String) -> String { "(left(\(text), 1) = '\(mark)')" }

    /// A parsed string without its mark.
    static func unmarked(_ text: String) -> String { "substr(\(text), 2)" }

    /// The JSON type name of a parsed text (`string`, `number`, `boolean`, `array`, `object`),
    /// NULL when absent or `null`.
    static func type(of text: String) -> String {
        "CASE WHEN \(text) IS NULL THEN NULL WHEN \(isString(text)) THEN 'string' WHEN \(text) IN ('true', 'false') THEN 'boolean' "
            + "WHEN left(\(text), 1) = '[' THEN 'array' WHEN left(\(text), 1) = '{' THEN 'object' ELSE 'number' END"
    }

    /// The text of a parsed string (unmarked) or number, else the boolean's text; NULL for an
    /// array or an object.
    static func scalarText(_ text: String) -> String {
        "CASE WHEN \(isString(text)) THEN \(unmarked(text)) WHEN left(\(text), 1) IN ('[', '{') THEN NULL ELSE \(text) END"
    }
}
