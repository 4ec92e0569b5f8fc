/// `--format` of the commands whose report also reads well in a pull request: `diff`, `table`
/// and `reconcile`.
enum ReportFormat: String {
    case text, json, markdown

    /// The option as `--help` lists it.
    static let option = OptionSpec(names: ["--format"], takesValue: true, valueName: "FORMAT",
                                   help: "Output format: text, json or markdown (default: text)")

    /// The `--format` given (text without one).
    static func from(_ arguments: ParsedArguments) throws -> ReportFormat {
        guard let raw = arguments.value("--format") else { return .text }
        guard let format = ReportFormat(rawValue: raw) else {
            throw UsageError(message: "invalid format `\(raw)`; use `text`, `json` or `markdown`")
        }
        return format
    }
}
