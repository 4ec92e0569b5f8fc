/// How Spark SQL reads a profile: its JSON text is parsed once, into a struct of the top-level
/// fields the query reads, and every value is then taken from that struct (`SQLDialect.sql`
/// spells each step: `jsonFromText`, `profileMember`, `jsonType` and the like).
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
    static func parsed(_ column: String, fields: [String]) -> String {
        let schema = fields.map { "`\(mark)\($0)` STRING" }.joined(separator: ", ")
        return SQLDialect.spark.sql(.call("from_json", [.jsonFromText(.column(column)), .string(schema)]))
    }

    /// The name of the column holding the parsed profile.
    static let profile = "pj"

    /// The name of the column holding the custom attributes as a map of marked keys to texts.
    static let customAttributes = "ca"

    /// The custom-attributes map, read from the parsed profile.
    static var customAttributesMap: String {
        let text = SQLExpression.profileMember("custom_attributes")
        let map = SQLExpression.call("from_json", [text, .string("MAP<STRING, STRING>")])
        return SQLDialect.spark.sql(.caseWhen(subject: nil, [.init(.jsonIsObject(text), map)], otherwise: nil))
    }
}
