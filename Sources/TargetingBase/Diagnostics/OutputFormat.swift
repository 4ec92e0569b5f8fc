/// How decisions and summaries are printed: text for people, or one JSON object per line.
package enum OutputFormat: String, Sendable {
    case text, json
}
