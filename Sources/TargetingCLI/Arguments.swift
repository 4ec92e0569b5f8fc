import TargetingBase

/// An option a command accepts.
struct OptionSpec {
    /// Long names with dashes, e.g. ["--rules"] or ["-w", "--write"].
    let names: [String]
    /// Whether the option takes a value.
    let takesValue: Bool
    /// Value placeholder for help, e.g. "PATH".
    let valueName: String
    /// One line of help.
    let help: String
    /// Whether it may be given more than once.
    var repeatable = false
}

/// Parsed command-line arguments of one command.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// Parses `arguments` against `options`; the key of an option is its last name.
    static func parse(_ arguments: [String], options: [OptionSpec]) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                let suggestion = Suggestion.nearest(to: name, in: options.flatMap(\.names).filter { $0.hasPrefix("--") } + ["--help"])
                throw UsageError(message: "unknown option `\(name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? ""))
            }
            let key = spec.names.last!
            if spec.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(message: "option `\(name)` needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if result.values[key] != nil, !spec.repeatable {
                    throw UsageError(message: "option `\(name)` is given more than once")
                }
                result.values[key, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw UsageError(message: "option `\(name)` takes no value") }
                result.flags.insert(key)
            }
        }
        return result
    }
}

/// Options every command shares.
enum CommonOptions {
    static let rules = OptionSpec(names: ["--rules"], takesValue: true, valueName: "PATH",
                                  help: "A directory of .rules files or one .rules file (default: Rules)")
    static let now = OptionSpec(names: ["--now"], takesValue: true, valueName: "TIME",
                                help: "Evaluation time, RFC 3339 or YYYY-MM-DD (default: the current time)")
    static let format = OptionSpec(names: ["--format"], takesValue: true, valueName: "FORMAT",
                                   help: "Output format: text or json (default: text)")
    static let help = OptionSpec(names: ["-h", "--help"], takesValue: false, valueName: "", help: "Show help information")
    static let strict = OptionSpec(names: ["--strict"], takesValue: false, valueName: "",
                                   help: "Count warnings as errors: any warning exits 1 (for CI gates)")
    static let jobs = OptionSpec(names: ["--jobs"], takesValue: true, valueName: "N",
                                 help: "Threads for a batch of profiles (default: every core)")
}

extension OutputFormat {
    /// The `--format` given (text without one).
    static func from(_ arguments: ParsedArguments) throws -> OutputFormat {
        guard let raw = arguments.value("--format") else { return .text }
        guard let format = OutputFormat(rawValue: raw) else {
            throw UsageError(message: "invalid format `\(raw)`; use `text` or `json`")
        }
        return format
    }
}
