import TargetingAnalysis
import TargetingBase
import TargetingEngine

/// `targeting overlap PLACEMENT`: which audiences of a placement compete for the same profiles,
/// and which rows some profile reaches, over every profile the rules can tell apart, each
/// answer proved or shown by a verified example profile.
enum OverlapCommand: Command {
    static let name = "overlap"
    static let overview = "Show which audiences of a placement overlap and which rows some profile reaches"
    static let usage = "overlap PLACEMENT [--rules PATH] [--now TIME] [--format text|json]"
    static let discussion = """
    ARGUMENTS:
      PLACEMENT                   A placement from the rules

    Answers about every profile, not a sample. For each pair of audiences the placement's rows
    use (not `everyone`): whether some profile matches both, with such a profile. For each
    row: whether some profile reaches it (its audience matches and no row above does, so a
    row covered by the union of the rows above is unreachable), with a profile that `resolve`
    sends to it. A row drawing on a key other than `profile.id` takes only profiles with a
    string value for it, and profiles the holdout holds out reach only `always` rows and `everyone`. Every
    example is checked by the evaluator before it is printed; a "no" is a search over every
    profile the rules can tell apart at --now. An answer the search could not settle within
    its budget is printed as undecided, never as a "no".

    With --format json: {"placement","now","pairs":[{"a","b","overlap","witness"}],
    "rows":[{"row","audience","reachable","witness"}]}; `overlap` and `reachable` are null
    when undecided, `witness` a profile object or null.
    Exit status: 0, 2 for an unknown placement or rules with errors, 3 when some answer is
    undecided.
    """
    static let options = [CommonOptions.rules, CommonOptions.now, CommonOptions.format]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try OutputFormat.from(arguments)
        guard arguments.positionals.count == 1 else { throw UsageError(message: "give exactly one placement") }
        let now = try CommandSupport.nowNoted(arguments, io: io)
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        let program = rules.program
        let name = arguments.positionals[0]
        guard let index = CommandSupport.placementIndex(named: name, in: program, io: io) else { return ExitStatus.inputError }
        let report = OverlapReport.analyze(program, placement: index, now: now)
        switch format {
        case .json: io.out(JSONWriter.write(report.json) + "\n")
        case .text: io.out(report.text)
        }
        return report.hasUndecided ? ExitStatus.undecided : ExitStatus.success
    }
}

extension OverlapReport {
    /// The JSON object of `overlap --format json`.
    var json: JSONValue {
        func answer(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }
        return .object([
            JSONMember(key: "placement", value: .string(placement)),
            JSONMember(key: "now", value: .string(Timestamp.format(now))),
            JSONMember(key: "pairs", value: .array(pairs.map { pair in
                .object([
                    JSONMember(key: "a", value: .string(pair.a)),
                    JSONMember(key: "b", value: .string(pair.b)),
                    JSONMember(key: "overlap", value: answer(pair.overlap)),
                    JSONMember(key: "witness", value: pair.witness ?? .null),
                ])
            })),
            JSONMember(key: "rows", value: .array(rows.map { row in
                .object([
                    JSONMember(key: "row", value: .number(Double(row.row))),
                    JSONMember(key: "audience", value: .string(row.audience)),
                    JSONMember(key: "reachable", value: answer(row.reachable)),
                    JSONMember(key: "witness", value: row.witness ?? .null),
                ])
            })),
        ])
    }

    /// The text form: a matrix of the pairs (`yes`, `no`, `?` for undecided), the witnesses of
    /// the pairs that overlap, then one line per row.
    var text: String {
        var out = "placement \(placement) at \(Timestamp.format(now))\n"
        var names: [String] = []
        for pair in pairs {
            for name in [pair.a, pair.b] where !names.contains(name) { names.append(name) }
        }
        if names.isEmpty, let only = rows.first(where: { $0.audience != "everyone" }) { names = [only.audience] }
        if names.count >= 2 {
            out += "\noverlap (does some profile match both?):\n"
            let labels = names.indices.map { String($0 + 1) }
            let nameWidth = names.map(\.count).max() ?? 0
            let cellWidth = max(3, labels.map(\.count).max() ?? 0)
            func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
            out += ("  " + pad("", labels.last!.count + 1 + nameWidth) + "  " + labels.dropFirst().map { pad($0, cellWidth) }.joined(separator: " ")).trimmingTrailingSpaces() + "\n"
            for (row, name) in names.enumerated().dropLast() {
                var cells: [String] = []
                for column in 1..<names.count {
                    guard column > row else { cells.append(pad("", cellWidth)); continue }
                    let pair = pairs.first { $0.a == name && $0.b == names[column] || $0.b == name && $0.a == names[column] }
                    let mark = pair.map { $0.overlap.map { $0 ? "yes" : "no" } ?? "?" } ?? "-"
                    cells.append(pad(mark, cellWidth))
                }
                let line = "  " + pad(labels[row], labels.last!.count) + " " + pad(name, nameWidth) + "  " + cells.joined(separator: " ")
                out += line.trimmingTrailingSpaces() + "\n"
            }
            out += "  " + pad(labels.last!, labels.last!.count) + " " + names.last! + "\n"
            let overlapping = pairs.filter { $0.overlap == true }
            if !overlapping.isEmpty {
                out += "\nprofiles in both:\n"
                for pair in overlapping {
                    out += "  \(pair.a) & \(pair.b): " + (pair.witness.map(JSONWriter.write) ?? "") + "\n"
                }
            }
            let undecided = pairs.filter { $0.overlap == nil }
            for pair in undecided { out += "  \(pair.a) & \(pair.b): undecided (the search ran out of budget)\n" }
        }
        out += "\nrows (does some profile reach the row?):\n"
        for row in rows {
            var verdict: String
            switch row.reachable {
            case true?: verdict = "reachable, e.g. " + (row.witness.map(JSONWriter.write) ?? "")
            case false?:
                verdict = "unreachable: every profile it matches is taken by the rows above, or it matches none"
                var also: [String] = []
                if let key = row.key { also.append("a profile without a string `\(key)` does not enter it") }
                if let holdout, !row.appliesWhenHeldOut {
                    let alwaysRows = rows.contains { $0.appliesWhenHeldOut && $0.audience != "everyone" }
                    also.append("the profiles `\(holdout)` holds out see only " + (alwaysRows ? "`always` rows and `everyone`" : "`everyone`"))
                }
                if !also.isEmpty { verdict += " (" + also.joined(separator: "; ") + ")" }
            case nil: verdict = "undecided (the search ran out of budget)"
            }
            let always = row.appliesWhenHeldOut && row.audience != "everyone" ? "always " : ""
            out += "  \(row.row). \(always)\(row.audience) -> \(row.destination): \(verdict)\n"
        }
        return out
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
