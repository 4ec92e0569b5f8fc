import TargetingAnalysis
import TargetingBase
import TargetingEngine

/// `targeting table PLACEMENT`: where each combination of finite answers leads, from the
/// rules rather than a corpus.
enum TableCommand: Command {
    static let name = "table"
    static let overview = "Show the decision table of a placement over finite answers"
    static let usage = "table PLACEMENT [--by ATTR,...] [--rules PATH] [--now TIME] [--format text|json|markdown]"
    static let discussion = """
    ARGUMENTS:
      PLACEMENT                   A placement from the rules

    For every combination of the --by attributes (default: every declared `one of` string and
    `bool` attribute the placement reads; `set of` attributes and built-in enumerations such
    as profile.platform when named), exactly the destinations some profile with those values
    can reach, over every other input (ages, dates, the split, experiment and holdout
    buckets) at --now; an attribute that keys a draw gives each value its own bucket. Each value
    domain is the declared values plus "not set"; a set's domain is every subset. Rows merge
    combinations with the same destinations, and every combination lies in exactly one row.
    Where several destinations are possible the row says what else decides: comparisons,
    `split`, `experiment` or `holdout` draws, and the `key` a draw needs.
    With --format json: {"placement","now","by":[...],"rows":[{"when":{ATTR:[values, null
    for not set]},"destinations":[{"kind","id"} or null for no match],"depends_on":[...]}]}.
    --format markdown prints a table for a pull request.
    Exit status: 0; 2 for an unknown placement or attribute, or rules with errors; 3 when a
    destination could not be settled within the search's budget.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.now,
        OptionSpec(names: ["--format"], takesValue: true, valueName: "FORMAT", help: "Output format: text, json or markdown (default: text)"),
        OptionSpec(names: ["--by"], takesValue: true, valueName: "ATTR,...", help: "The attributes to tabulate (default: declared `one of` strings and bools the placement reads)"),
    ]

    enum Format: String { case text, json, markdown }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let raw = arguments.value("--format") ?? "text"
        guard let format = Format(rawValue: raw) else { throw UsageError(message: "invalid format `\(raw)`; use `text`, `json` or `markdown`") }
        guard arguments.positionals.count == 1 else { throw UsageError(message: "give exactly one placement") }
        var names: [String]?
        if let list = arguments.value("--by") {
            names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard names?.allSatisfy({ !$0.isEmpty }) == true else { throw UsageError(message: "invalid --by `\(list)`: give attribute names separated by commas") }
        }
        let now = try CommandSupport.nowNoted(arguments, io: io)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        let program = rules.program
        let name = arguments.positionals[0]
        guard let index = CommandSupport.placementIndex(named: name, in: program, io: io) else { return ExitStatus.inputError }
        switch DecisionTable.build(program, placement: index, by: names, now: now) {
        case .failure(let error):
            io.err("error: \(error.message)\n")
            return ExitStatus.inputError
        case .success(let table):
            switch format {
            case .json: io.out(JSONWriter.write(table.json) + "\n")
            case .text: io.out(table.text)
            case .markdown: io.out(table.markdown)
            }
            return table.hasUndecided ? ExitStatus.undecided : ExitStatus.success
        }
    }
}

extension DecisionTable {
    var json: JSONValue {
        .object([
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "now", value: .string(Timestamp.format(now))),
            JSONMember(key: "by", value: .array(by.map { .string($0.name) })),
            JSONMember(key: "rows", value: .array(rows.map { row in
                var members = [
                    JSONMember(key: "when", value: .object(zip(by, row.when).map { attribute, values in
                        JSONMember(key: attribute.name, value: .array(values.map { $0 ?? .null }))
                    })),
                    JSONMember(key: "destinations", value: .array(row.destinations.map(ChangeProof.json))),
                    JSONMember(key: "depends_on", value: .array(row.dependsOn.map(JSONValue.string))),
                ]
                if !row.unsettled.isEmpty { members.append(JSONMember(key: "unsettled", value: .array(row.unsettled.map(ChangeProof.json)))) }
                return .object(members)
            })),
        ])
    }

    /// One attribute's values in a row: `any` for the whole domain, else the values joined.
    func shown(_ values: [JSONValue?], of attribute: Attribute, code: Bool) -> String {
        if values.count == attribute.domain.count, attribute.domain.count > 1 { return "any" }
        return values.map { value in
            guard let value else { return "not set" }
            let text: String
            switch value {
            case .string(let string): text = string
            case .array(let items): text = "[" + items.compactMap(\.stringValue).joined(separator: ", ") + "]"
            default: text = JSONWriter.write(value)
            }
            return code ? "`\(text)`" : text
        }.joined(separator: code ? ", " : " | ")
    }

    func destinationText(_ row: Row, code: Bool) -> String {
        var parts = row.destinations.map { ChangeProof.text($0) }.map { code ? "`\($0)`" : $0 }
        parts += row.unsettled.map { "\(code ? "`\(ChangeProof.text($0))`" : ChangeProof.text($0)) (not settled)" }
        return parts.isEmpty ? "(none settled)" : parts.joined(separator: code ? ", " : " | ")
    }

    var text: String {
        var out = "placement \(placement) at \(Timestamp.format(now)): \(combinations) combination\(combinations == 1 ? "" : "s") in \(rows.count) row\(rows.count == 1 ? "" : "s")\n"
        if by.isEmpty { out += "(no declared `one of` or `bool` attribute is read: name attributes with --by)\n" }
        let headers = by.isEmpty ? ["every profile"] : by.map(\.name)
        let cells = rows.map { row in by.isEmpty ? ["every profile"] : zip(by, row.when).map { shown($1, of: $0, code: false) } }
        let widths = headers.indices.map { column in ([headers[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0 }
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        out += (headers.indices.map { pad(headers[$0], widths[$0]) } + ["-> destinations"]).joined(separator: "  ") + "\n"
        for (row, values) in zip(rows, cells) {
            var line = (values.indices.map { pad(values[$0], widths[$0]) } + ["-> " + destinationText(row, code: false)]).joined(separator: "  ")
            if !row.dependsOn.isEmpty { line += "  (depends on " + row.dependsOn.map(Self.dependency).joined(separator: ", ") + ")" }
            out += line + "\n"
        }
        return out
    }

    /// One entry of `depends on`: a comparison in backticks; a draw (`split `s``,
    /// `experiment `e``, `holdout `h``) or a key (`key `k``) as written.
    static func dependency(_ text: String) -> String {
        ["split ", "experiment ", "holdout ", "key "].contains { text.hasPrefix($0) && text.hasSuffix("`") } ? text : "`\(text)`"
    }

    var markdown: String {
        var out = "| " + (by.map { "`\($0.name)`" } + ["destinations", "depends on"]).joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: "---|", count: by.count + 2) + "\n"
        for row in rows {
            let values = zip(by, row.when).map { shown($1, of: $0, code: true) }
            let depends = row.dependsOn.map(Self.dependency).joined(separator: ", ")
            out += "| " + (values + [destinationText(row, code: true), depends]).map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
