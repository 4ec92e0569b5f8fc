import TargetingBase
import TargetingEngine
import TargetingSyntax

/// `targeting bucket SPLIT --id ID…`: where a split puts each profile id, without computing
/// MD5 by hand (SPEC §4.5's draw, the same code `resolve` uses).
enum BucketCommand: Command {
    static let name = "bucket"
    static let overview = "Show the bucket (0–99) and variant a split gives each profile id"
    static let usage = "bucket SPLIT --id ID… [--rules PATH] [--format text|json]"
    static let discussion = """
    ARGUMENTS:
      SPLIT                       A split id from the rules

    Prints one line per id: the bucket r = md5("SPLIT-ID") as SPEC §4.5 draws it, and the
    variant it chooses. With --format json each is an object
    {"split","profile_id","bucket","kind","id"} (kind and id null for `nothing`).
    Exit status: 0, or 2 for an unknown split or rules with errors.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.format,
        OptionSpec(names: ["--id"], takesValue: true, valueName: "ID", help: "A profile id (repeat for several)", repeatable: true),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try OutputFormat.from(arguments)
        guard arguments.positionals.count == 1 else { throw UsageError(message: "give exactly one split id") }
        let ids = arguments.values["--id"] ?? []
        guard !ids.isEmpty else { throw UsageError(message: "missing --id: give at least one profile id") }
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        let splitID = arguments.positionals[0]
        let splits = rules.program.placements.flatMap { $0.rows.compactMap(\.split) }
        guard let split = splits.first(where: { $0.id == splitID }) else {
            let suggestion = Suggestion.nearest(to: splitID, in: splits.map(\.id))
            io.report(.unknownSplit(splitID, suggestion: suggestion))
            return ExitStatus.inputError
        }
        for id in ids {
            let bucket = SplitDraw.bucket(splitID: split.id, profileID: id)
            let (kind, target): (String?, String?)
            switch split.destination(forBucket: bucket) {
            case .flow(let flow, _): (kind, target) = ("flow", flow)
            case .paywall(let paywall, _): (kind, target) = ("paywall", paywall)
            default: (kind, target) = (nil, nil)
            }
            switch format {
            case .json:
                func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
                io.out(JSONWriter.write(.object([
                    JSONMember(key: "split", value: .string(split.id)),
                    JSONMember(key: "profile_id", value: .string(id)),
                    JSONMember(key: "bucket", value: .number(Double(bucket))),
                    JSONMember(key: "kind", value: string(kind)),
                    JSONMember(key: "id", value: string(target)),
                ])) + "\n")
            case .text:
                let shown = kind.map { "\($0) \"\(target ?? "")\"" } ?? "nothing"
                io.out("\(id) \(split.id): bucket \(bucket) -> \(shown)\n")
            }
        }
        return ExitStatus.success
    }
}
