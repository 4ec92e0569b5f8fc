import Foundation
import Targeting
import TargetingBase
import TargetingEngine
import TargetingImpact
import TargetingProfiles

/// `targeting diff OLD NEW --profiles FILE`: who would see something else after a rule change.
enum DiffCommand: Command {
    static let name = "diff"
    static let overview = "Show how a rule change moves profiles between destinations"
    static let usage = "diff OLD NEW --profiles FILE [--placement P] [--fail-on-change] [--now TIME] [--format text|json]"
    static let discussion = """
    ARGUMENTS:
      OLD                         The rules before the change (a directory or a .rules file)
      NEW                         The rules after the change

    Streams the profile corpus (JSON Lines) once, resolving every placement (or --placement)
    under both rule sets, and reports per placement how many profiles change destination, a
    from -> to table with counts and example profile ids, and placements added or removed.
    Exit status: 0, or 1 with --fail-on-change when anything changed; 2 on load errors or
    rejected profile lines.
    """
    static let options = [
        CommonOptions.now, CommonOptions.format,
        OptionSpec(names: ["--profiles"], takesValue: true, valueName: "FILE", help: "The profile corpus (JSON Lines)"),
        OptionSpec(names: ["--placement"], takesValue: true, valueName: "P", help: "Only this placement"),
        OptionSpec(names: ["--fail-on-change"], takesValue: false, valueName: "", help: "Exit 1 when any destination changed"),
        OptionSpec(names: ["--examples"], takesValue: true, valueName: "N", help: "Example profile ids per transition (default: 3)"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try OutputFormat.from(arguments)
        let now = try CommandSupport.now(arguments)
        guard arguments.positionals.count == 2 else { throw UsageError(message: "expected OLD and NEW rule paths") }
        guard let corpus = arguments.value("--profiles") else { throw UsageError(message: "missing --profiles FILE") }
        var examples = 3
        if let text = arguments.value("--examples") {
            guard let number = Int(text), number >= 0 else { throw UsageError(message: "invalid --examples `\(text)`") }
            examples = number
        }
        var programs: [Program] = []
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
            }
        }
        let (old, new) = (programs[0], programs[1])
        var oldNames = old.placements.map(\.name)
        var newNames = new.placements.map(\.name)
        if let only = arguments.value("--placement") {
            guard oldNames.contains(only) || newNames.contains(only) else {
                io.report(.placementInNeither(only))
                return ExitStatus.inputError
            }
            oldNames = oldNames.filter { $0 == only }
            newNames = newNames.filter { $0 == only }
        }
        var report = ImpactReport(oldPlacements: oldNames, newPlacements: newNames, examplesPerTransition: examples)
        let shared = oldNames.filter { newNames.contains($0) }.map { ($0, old.placementIndex(named: $0)!, new.placementIndex(named: $0)!) }

        guard var reader = JSONLinesReader(path: corpus) else {
            io.report(.unreadable("cannot read `\(corpus)`", path: corpus))
            return ExitStatus.inputError
        }
        var rejected = 0
        while let (record, read) = reader.nextProfile() {
            let profile: Profile
            switch read {
            case .failure(let rejection):
                io.report(rejection)
                rejected += 1
                continue
            case .success(let read): profile = read
            }
            var results: [(String, Decision, Decision)] = []
            var failure: ResolveError?
            switch (old.decide(placements: shared.map(\.1), for: profile, now: now), new.decide(placements: shared.map(\.2), for: profile, now: now)) {
            case (.success(let before), .success(let after)):
                for (position, (name, _, _)) in shared.enumerated() { results.append((name, before[position], after[position])) }
            case (.failure, _), (_, .failure):
                // Report the failure the placements meet first, old rules before new.
                for (_, oldIndex, newIndex) in shared {
                    if case .failure(let error) = old.decide(placement: oldIndex, for: profile, now: now) { failure = error; break }
                    if case .failure(let error) = new.decide(placement: newIndex, for: profile, now: now) { failure = error; break }
                }
            }
            if let failure {
                io.report(.unresolvable(failure, file: record.path, line: record.line))
                rejected += 1
                continue
            }
            for (name, a, b) in results { report.record(placement: name, profileID: profile.id, old: a, new: b) }
        }
        printReport(report, format: format, io: io)
        if rejected > 0 { return ExitStatus.inputError }
        return arguments.has("--fail-on-change") && report.hasChanges ? ExitStatus.no : ExitStatus.success
    }

    static func printReport(_ report: ImpactReport, format: OutputFormat, io: CommandIO) {
        switch format {
        case .json:
            let placements = report.placements.map { impact in
                JSONValue.object([
                    JSONMember(key: "placement", value: .string(impact.name)),
                    JSONMember(key: "status", value: .string(impact.status)),
                    JSONMember(key: "profiles", value: .number(Double(impact.profiles))),
                    JSONMember(key: "changed", value: .number(Double(impact.changed))),
                    JSONMember(key: "transitions", value: .array(impact.transitions.map { transition in
                        .object([
                            JSONMember(key: "from", value: .string(transition.from)),
                            JSONMember(key: "to", value: .string(transition.to)),
                            JSONMember(key: "count", value: .number(Double(transition.count))),
                            JSONMember(key: "examples", value: .array(transition.examples.map(JSONValue.string))),
                        ])
                    })),
                ])
            }
            io.out(JSONWriter.write(.object([
                JSONMember(key: "changed", value: .bool(report.hasChanges)),
                JSONMember(key: "placements", value: .array(placements)),
            ])) + "\n")
        case .text:
            for impact in report.placements {
                switch impact.status {
                case "added": io.out("placement \(impact.name): added\n")
                case "removed": io.out("placement \(impact.name): removed\n")
                case "unchanged": io.out("placement \(impact.name): no change (\(impact.profiles) profiles)\n")
                default:
                    io.out("placement \(impact.name): \(impact.changed) of \(impact.profiles) profiles change destination\n")
                    let width = impact.transitions.map { $0.from.count + $0.to.count + 4 }.max() ?? 0
                    for transition in impact.transitions {
                        let arrow = "\(transition.from) -> \(transition.to)"
                        let pad = String(repeating: " ", count: max(1, width - arrow.count + 2))
                        let examples = transition.examples.isEmpty ? "" : "  e.g. " + transition.examples.joined(separator: ", ")
                        io.out("  \(arrow)\(pad)\(transition.count)\(examples)\n")
                    }
                }
            }
        }
    }
}
