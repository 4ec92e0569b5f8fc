import Foundation
import Targeting
import TargetingAnalysis
import TargetingBase
import TargetingEngine
import TargetingImpact
import TargetingProfiles
import TargetingSQL

/// `targeting diff OLD NEW --profiles FILE`: who would see something else after a rule change.
enum DiffCommand: Command {
    static let name = "diff"
    static let overview = "Show how a rule change moves profiles between destinations"
    static let usage = "diff OLD NEW (--profiles FILE | --prove | --sql postgres|spark|duckdb|clickhouse [--table NAME] [--column NAME] [--layout json|columns]) [--placement P] [--by row|destination] [--no-jit] [--fail-on-change] [--now TIME] [--format text|json|markdown]"
    static var discussion: String { """
    ARGUMENTS:
      OLD                         The rules before the change (a directory or a .rules file)
      NEW                         The rules after the change

    Streams the profile corpus (JSON Lines) once, resolving every placement (or --placement)
    under both rule sets, and reports per placement how many profiles change, a from -> to
    table with counts and example profile ids, each one's size before and after, and
    placements added or removed. --by row (the default) tells decisions apart by audience,
    destination, split or experiment variant and holdout, as `resolve --summary` does, so a
    move between a split's `nothing` and a `nothing` row shows; --by destination merges every
    row, variant and holdout that gives one destination and counts only changes of destination.
    With --sql, prints one query instead that evaluates both rule sets over the table where
    the profiles live and returns the from -> to table (a placement added or removed has a
    row per destination, with NULL for the side that lacks it), with these columns:
    \(sqlColumnsHelp)
    --no-jit (PostgreSQL) puts `SET jit = off;` before the query. --layout columns reads a typed table, as
    `sql --layout columns` does, with the columns of both rule sets.
    With --prove, answers over every profile the two rule sets can tell apart at --now
    instead of a corpus: each placement is `equivalent` (no profile changes destination),
    `changed` (every kind of move, each with a witness profile that `resolve` sends from ->
    to under OLD and NEW, checked before it is printed), `added`, `removed`, or `undecided`
    when the search's budget ran out (what was left open is listed). A split variant counts
    as its destination; renamed audiences and segments change nothing. JSON: {"now",
    "placements":[{"placement","status","transitions":[{"from","to","witness"}]}]}, with
    `from`/`to` {"kind","id"} (both null for nothing) or null for no match, and
    "unsettled":[{"from","to","reason"}] on an undecided placement. An experiment's variant
    and the holdout count as well: a move between two variants, or into or out of the
    holdout, is a change; with experiments or a holdout in either rule set each move also
    has "from_experiment", "from_variant", "from_held_out" and the same for `to`.
    --format markdown (with --profiles or --prove) prints the answer for a pull request or a
    job summary: a table of the placements first, then each changed placement's moves with
    their counts (or, with --prove, the moves), example ids, sizes and witness profiles folded
    in <details>; one line when nothing moves; never more than 1 MiB (the folded parts, then
    moves, are left out past it, and it says so).
    Exit status: 0, or 1 with --fail-on-change when anything changed; 2 on load errors or
    rejected profile lines; 3 with --prove when some placement is undecided.
    """ }
    static let options = [
        CommonOptions.now,
        ReportFormat.option,
        CommonOptions.jobs,
        OptionSpec(names: ["--profiles"], takesValue: true, valueName: "FILE", help: "The profile corpus (JSON Lines; `-` = standard input)"),
        OptionSpec(names: ["--prove"], takesValue: false, valueName: "", help: "Decide over every profile the rules can tell apart, with witnesses, instead of a corpus"),
        OptionSpec(names: ["--placement"], takesValue: true, valueName: "P", help: "Only this placement"),
        OptionSpec(names: ["--by"], takesValue: true, valueName: "VIEW", help: "row (audience, destination and variant; default) or destination"),
        OptionSpec(names: ["--fail-on-change"], takesValue: false, valueName: "", help: "Exit 1 when any decision changed (as --by tells them apart)"),
        OptionSpec(names: ["--examples"], takesValue: true, valueName: "N", help: "Example profile ids per transition (default: 3)"),
        OptionSpec(names: ["--sql"], takesValue: true, valueName: "DIALECT", help: "Print the impact as one query (postgres, spark, duckdb or clickhouse) instead"),
        OptionSpec(names: ["--table"], takesValue: true, valueName: "NAME", help: "With --sql: the source table (default: profiles)"),
        OptionSpec(names: ["--column"], takesValue: true, valueName: "NAME", help: "With --sql: the profile JSON column (default: profile)"),
        SqlCommand.noJITOption,
        SqlCommand.layoutOption,
    ]

    /// The columns `--sql` returns in each case, from the compiler's own list: each case's
    /// label (`  by row:`), then its columns on indented lines.
    static var sqlColumnsHelp: String {
        func line(_ label: String, _ columns: [String]) -> String {
            var lines = ["  \(label):"], current = "   "
            for (index, column) in columns.enumerated() {
                let item = " " + column + (index < columns.count - 1 ? "," : "")
                if current.count + item.count > 90 {
                    lines.append(current)
                    current = "   "
                }
                current += item
            }
            return (lines + [current]).joined(separator: "\n")
        }
        return [
            line("by row", SQLCompiler.diffColumns(byRow: true, experiments: false, sticky: false)),
            line("by row, with experiments or a holdout in either rule set",
                 SQLCompiler.diffColumns(byRow: true, experiments: true, sticky: false)),
            line("by destination", SQLCompiler.diffColumns(byRow: false, experiments: false, sticky: false)),
            line("with a sticky experiment in either rule set, last",
                 Array(SQLCompiler.diffColumns(byRow: false, experiments: false, sticky: true)
                    .dropFirst(SQLCompiler.diffColumns(byRow: false, experiments: false, sticky: false).count))),
        ].joined(separator: "\n")
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try ReportFormat.from(arguments)
        let now = try CommandSupport.nowNoted(arguments, io: io)
        guard arguments.positionals.count == 2 else { throw UsageError(message: "expected OLD and NEW rule paths") }
        var view = ImpactReport.View.row
        if let name = arguments.value("--by") {
            guard let parsed = ImpactReport.View(rawValue: name) else { throw UsageError(message: "unknown --by `\(name)`; use `row` or `destination`") }
            view = parsed
        }
        let prove = arguments.has("--prove")
        if prove {
            for option in ["--profiles", "--sql", "--by", "--examples", "--table", "--column", "--layout", "--no-jit"] where arguments.has(option) {
                throw UsageError(message: "--prove decides over every profile; it takes no \(option)")
            }
        }
        var dialect: SQLDialect?
        if arguments.has("--no-jit"), arguments.value("--sql") == nil { throw UsageError(message: "--no-jit needs --sql postgres") }
        if arguments.has("--layout"), arguments.value("--sql") == nil { throw UsageError(message: "--layout needs --sql (it names how the table holds the profiles)") }
        if let name = arguments.value("--sql") {
            guard let parsed = SQLDialect(rawValue: name) else { throw UsageError(message: "unknown dialect `\(name)`; use `postgres`, `spark`, `duckdb` or `clickhouse`") }
            guard !arguments.has("--profiles") else { throw UsageError(message: "give --profiles or --sql, not both") }
            for option in ["--fail-on-change", "--examples", "--format"] where arguments.has(option) {
                throw UsageError(message: "\(option) needs --profiles (with --sql the query prints the changes)")
            }
            _ = try SqlCommand.noJIT(arguments, dialect: parsed)
            dialect = parsed
        }
        let corpus = arguments.value("--profiles") ?? ""
        guard prove || arguments.has("--sql") || arguments.has("--profiles") else { throw UsageError(message: "missing --profiles FILE (or --prove, or --sql DIALECT)") }
        var examples = 3
        if let text = arguments.value("--examples") {
            guard let number = Int(text), number >= 0 else { throw UsageError(message: "invalid --examples `\(text)`") }
            examples = number
        }
        var programs: [Program] = []
        var sources: [[SourceFile]] = []
        for path in arguments.positionals {
            switch LoadedRules.load(path: path) {
            case .failure(let error):
                io.report(error)
                return ExitStatus.inputError
            case .success(let loaded):
                guard let program = loaded.program else {
                    CommandSupport.printDiagnostics(loaded, io: io)
                    io.err(DiagnosticRenderer.summary(loaded.diagnostics) + "\n")
                    return ExitStatus.inputError
                }
                programs.append(program)
                sources.append(loaded.sources)
            }
        }
        let (old, new) = (programs[0], programs[1])
        var pairing = PlacementPairing(old: old.placements.map(\.name), new: new.placements.map(\.name))
        if let only = arguments.value("--placement") {
            guard pairing.all.contains(only) else {
                io.report(.placementInNeither(only))
                return ExitStatus.inputError
            }
            pairing = pairing.only(only)
        }
        if prove {
            let proof = ChangeProof.prove(old: old, new: new, now: now, placement: arguments.value("--placement"))
            switch format {
            case .text: io.out(proof.text)
            case .json: io.out(JSONWriter.write(proof.json) + "\n")
            case .markdown: io.out(DiffMarkdown.render(proof))
            }
            if proof.hasUndecided { return ExitStatus.undecided }
            return arguments.has("--fail-on-change") && proof.hasChange ? ExitStatus.no : ExitStatus.success
        }
        if let dialect {
            let (table, column) = try SqlCommand.source(arguments)
            let layout = try SqlCommand.layout(arguments)
            let query: String
            do {
                query = try SQLCompiler.diff(old: old, new: new, placements: pairing.shared, removed: pairing.removed, added: pairing.added,
                                             now: now, dialect: dialect, table: table, column: column, layout: layout, byRow: view == .row)
            } catch {
                io.report(SqlCommand.diagnostic(error, noPlacement: "neither rule set has a placement"))
                return ExitStatus.inputError
            }
            let jit = arguments.has("--no-jit") ? SQLCompiler.jitOff : ""
            io.out(SQLCompiler.header(now: now, dialect: dialect, rules: arguments.positionals[0] + " -> " + arguments.positionals[1]) + jit + query + "\n")
            return ExitStatus.success
        }
        var report = ImpactReport(pairing, examplesPerTransition: examples, view: view)
        report.reportsExperiments = old.reportsExperiments || new.reportsExperiments
        report.stickyExperiments = old.stickyExperiments.union(new.stickyExperiments)
        let shared = pairing.shared.map { ($0, old.placementIndex(named: $0)!, new.placementIndex(named: $0)!) }
        let removed = pairing.removed.map { ($0, old.placementIndex(named: $0)!) }
        let added = pairing.added.map { ($0, new.placementIndex(named: $0)!) }
        // The attributes the new rules read, and whether any profile of the corpus has each.
        // (A history subject is not an attribute: a profile without history has its count, 0.)
        var attributes: [(target: AttributeTarget, slot: Slot, seen: Bool)] = []
        for slot in new.slots {
            guard let target = slot.target.attribute, !attributes.contains(where: { $0.target == target }) else { continue }
            attributes.append((target, slot, false))
        }
        guard var reader = CommandSupport.lines(of: corpus, io: io) else {
            io.report(.cannotRead(corpus))
            return ExitStatus.inputError
        }
        let jobs = try CommandSupport.jobs(arguments)
        var comparison = DiffCorpus(old: old, new: new, now: now, shared: shared, removed: removed, added: added, attributes: attributes.map(\.slot))
        comparison.compileForThread = { [sources] in
            guard let old = LoadedRules(sources: sources[0]).program, let new = LoadedRules(sources: sources[1]).program else { return nil }
            return (old, new)
        }
        var rejected = 0
        let (merged, seen) = comparison.run(&reader, jobs: jobs, report: report) { diagnostic in
            io.report(diagnostic)
            rejected += 1
        }
        report = merged
        for index in seen { attributes[index].seen = true }
        let absent = attributes.filter { !$0.seen }.map { target -> String in
            switch target.target {
            case .custom(let key): key
            case .builtin: target.target.written
            }
        }
        printReport(report, now: now, absentAttributes: absent, format: format, io: io)
        if rejected > 0 { return ExitStatus.inputError }
        return arguments.has("--fail-on-change") && report.hasChanges ? ExitStatus.no : ExitStatus.success
    }

    /// A decision in JSON, or null for no match: in the row view `{"audience","kind","id","split"}`
    /// (as `resolve --format json` names them), with `"experiment","variant","held_out"` when
    /// `experiments` (a rule set has experiments or a holdout), in the destination view
    /// `{"kind","id"}`; `kind` and `id` are null for `nothing`.
    static func json(_ shown: ImpactReport.Shown, experiments: Bool = false) -> JSONValue {
        guard shown.matched else { return .null }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let destination = [JSONMember(key: "kind", value: text(shown.kind)), JSONMember(key: "id", value: text(shown.id))]
        guard shown.view == .row else { return .object(destination) }
        var members = [JSONMember(key: "audience", value: text(shown.audience))] + destination + [JSONMember(key: "split", value: text(shown.split))]
        if experiments {
            members += [JSONMember(key: "experiment", value: text(shown.experiment)), JSONMember(key: "variant", value: text(shown.variant)),
                        JSONMember(key: "held_out", value: .bool(shown.heldOut))]
        }
        return .object(members)
    }

    /// `sticky_before` and `sticky_after`, how many of an entry's or a move's profiles a sticky
    /// experiment's recorded assignment kept under each rule set: on every entry and move when
    /// either rule set has a sticky experiment, else none.
    static func stickyMembers(_ report: ImpactReport, before: Int, after: Int) -> [JSONMember] {
        guard !report.stickyExperiments.isEmpty else { return [] }
        return [JSONMember(key: "sticky_before", value: .number(Double(before))), JSONMember(key: "sticky_after", value: .number(Double(after)))]
    }

    /// An entry's size as `resolve --summary` prints it: `2535 (50.7%, 485 sticky)` for an entry
    /// of a sticky experiment, `2535 (50.7%)` for any other.
    static func sizeText(_ report: ImpactReport, _ shown: ImpactReport.Shown, _ count: Int, of total: Int, sticky: Int) -> String {
        CommandSupport.sizeText(count, of: total, sticky: report.canStick(shown) ? sticky : nil)
    }

    /// After a move's count, for a move into or out of a sticky experiment's entry: how many of
    /// its profiles a recorded assignment kept, ` (30 sticky before, 12 after)`.
    static func stickyNote(_ report: ImpactReport, _ transition: ImpactReport.Transition) -> String {
        guard report.canStick(transition.from) || report.canStick(transition.to) else { return "" }
        return " (\(transition.stickyBefore) sticky before, \(transition.stickyAfter) after)"
    }

    static func printReport(_ report: ImpactReport, now: Int64, absentAttributes: [String], format: ReportFormat, io: CommandIO) {
        let instant = Timestamp.format(now)
        switch format {
        case .markdown:
            io.out(DiffMarkdown.render(report, now: now, absentAttributes: absentAttributes))
        case .json:
            let placements = report.placements.map { impact in
                JSONValue.object([
                    JSONMember(key: "placement", value: .string(impact.name)),
                    JSONMember(key: "status", value: .string(impact.status.rawValue)),
                    JSONMember(key: "profiles", value: .number(Double(impact.profiles))),
                    JSONMember(key: "changed", value: .number(Double(impact.changed))),
                    JSONMember(key: "transitions", value: .array(impact.transitions.map { transition in
                        .object([
                            JSONMember(key: "from", value: json(transition.from, experiments: report.reportsExperiments)),
                            JSONMember(key: "to", value: json(transition.to, experiments: report.reportsExperiments)),
                            JSONMember(key: "count", value: .number(Double(transition.count))),
                            JSONMember(key: "examples", value: .array(transition.examples.map(JSONValue.string))),
                        ] + stickyMembers(report, before: transition.stickyBefore, after: transition.stickyAfter))
                    })),
                    JSONMember(key: "sizes", value: .array(impact.sizes.map { size in
                        .object([
                            JSONMember(key: "destination", value: json(size.shown, experiments: report.reportsExperiments)),
                            JSONMember(key: "before", value: .number(Double(size.before))),
                            JSONMember(key: "after", value: .number(Double(size.after))),
                            JSONMember(key: "share_before", value: .number(CommandSupport.share(size.before, of: impact.profiles))),
                            JSONMember(key: "share_after", value: .number(CommandSupport.share(size.after, of: impact.profiles))),
                        ] + stickyMembers(report, before: size.stickyBefore, after: size.stickyAfter))
                    })),
                ])
            }
            io.out(JSONWriter.write(.object([
                JSONMember(key: "now", value: .string(instant)),
                JSONMember(key: "changed", value: .bool(report.hasChanges)),
                JSONMember(key: "placements", value: .array(placements)),
                JSONMember(key: "absent_attributes", value: .array(absentAttributes.map(JSONValue.string))),
            ])) + "\n")
        case .text:
            io.out("now: \(instant)\n")
            for impact in report.placements {
                let sizes = impact.sizes.map { size -> String in
                    let (count, sticky) = impact.status == .added ? (size.after, size.stickyAfter) : (size.before, size.stickyBefore)
                    return "\(size.shown.description) " + sizeText(report, size.shown, count, of: impact.profiles, sticky: sticky)
                }.joined(separator: ", ")
                switch impact.status {
                case .added: io.out("placement \(impact.name): added (\(impact.profiles) profiles: \(sizes))\n")
                case .removed: io.out("placement \(impact.name): removed (\(impact.profiles) profiles: \(sizes))\n")
                case .unchanged: io.out("placement \(impact.name): no change (\(impact.profiles) profiles)\n")
                case .changed:
                    let what = report.view == .row ? "audience, destination or variant" : "destination"
                    io.out("placement \(impact.name): \(impact.changed) of \(impact.profiles) profiles (\(CommandSupport.percent(impact.changed, of: impact.profiles))) change \(what)\n")
                    let width = impact.transitions.map { $0.from.description.count + $0.to.description.count + 4 }.max() ?? 0
                    for transition in impact.transitions {
                        let arrow = "\(transition.from.description) -> \(transition.to.description)"
                        let pad = String(repeating: " ", count: max(1, width - arrow.count + 2))
                        let examples = transition.examples.isEmpty ? "" : "  e.g. " + transition.examples.joined(separator: ", ")
                        io.out("  \(arrow)\(pad)\(transition.count)\(stickyNote(report, transition))\(examples)\n")
                    }
                    for size in impact.sizes {
                        let before = sizeText(report, size.shown, size.before, of: impact.profiles, sticky: size.stickyBefore)
                        let after = sizeText(report, size.shown, size.after, of: impact.profiles, sticky: size.stickyAfter)
                        io.out("  \(size.shown.description): \(before) before, \(after) after\n")
                    }
                }
            }
            for attribute in absentAttributes {
                io.out("note: no profile in the corpus has `\(attribute)`, so the rules that read it are not exercised\n")
            }
        }
    }

}
