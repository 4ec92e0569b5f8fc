import Foundation
import Targeting
import TargetingAnalysis
import TargetingBase
import TargetingBatch

/// Exit statuses of the command line.
enum ExitStatus {
    static let success: Int32 = 0
    static let no: Int32 = 1
    static let inputError: Int32 = 2
    /// An analysis (`overlap`) could not settle every question within its budget.
    static let undecided: Int32 = 3
    static let usage: Int32 = 64
}

/// One subcommand of `targeting`.
protocol Command: Sendable {
    /// The subcommand name.
    static var name: String { get }
    /// One-line summary.
    static var overview: String { get }
    /// The usage line after `targeting`.
    static var usage: String { get }
    /// Extra help text (positional arguments, examples).
    static var discussion: String { get }
    /// Options, without `--help`.
    static var options: [OptionSpec] { get }
    /// Runs with parsed arguments.
    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32
}

extension Command {
    static var help: String {
        var text = "OVERVIEW: \(overview)\n\nUSAGE: targeting \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOPTIONS:\n"
        for option in options + [CommonOptions.help] {
            var left = option.names.joined(separator: ", ")
            if option.takesValue { left += " <\(option.valueName)>" }
            let pad = max(2, 28 - left.count)
            text += "  \(left)\(String(repeating: " ", count: pad))\(option.help)\n"
        }
        return text
    }
}

/// Helpers shared by commands.
enum CommandSupport {
    /// Parses `--jobs N` (a whole number from 1), defaulting to the number of cores.
    static func jobs(_ arguments: ParsedArguments) throws -> Int {
        guard let text = arguments.value("--jobs") else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard let jobs = Int(text), jobs >= 1 else { throw UsageError(message: "invalid --jobs `\(text)`; give a whole number from 1") }
        return jobs
    }

    /// Parses `--now`, defaulting to the current time.
    static func now(_ arguments: ParsedArguments) throws -> Int64 {
        guard let text = arguments.value("--now") else {
            return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        }
        guard let ms = Timestamp.parse(text) else {
            throw UsageError(message: "invalid time `\(text)` for `--now`; use RFC 3339 (2026-11-29T12:00:00Z) or YYYY-MM-DD")
        }
        return ms
    }

    /// `--now`, or the current time with a note on stderr naming it (for commands whose output
    /// would otherwise hide the instant, such as `diff` and `sql`).
    static func nowNoted(_ arguments: ParsedArguments, io: CommandIO) throws -> Int64 {
        let now = try self.now(arguments)
        if arguments.value("--now") == nil {
            io.err("note: no --now given; evaluating at the current time, \(Timestamp.format(now))\n")
        }
        return now
    }

    /// A share of `total` as a percentage with one decimal, e.g. `40.0%` (rounded down).
    static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0.0%" }
        let permille = count * 1000 / total
        return "\(permille / 10).\(permille % 10)%"
    }

    /// A summary entry's size: its count and share, and, for an entry a sticky experiment's
    /// recorded assignment can decide (`sticky` given), how many of its profiles the assignment
    /// kept: `2535 (50.7%)`, `2535 (50.7%, 485 sticky)`.
    static func sizeText(_ count: Int, of total: Int, sticky: Int?) -> String {
        "\(count) (\(percent(count, of: total))" + (sticky.map { ", \($0) sticky" } ?? "") + ")"
    }

    /// The same share as a JSON number of percent, e.g. 40.
    static func share(_ count: Int, of total: Int) -> Double {
        total > 0 ? Double(count * 1000 / total) / 10 : 0
    }

    /// How messages name standard input, given as `-`.
    static let standardInputName = "<stdin>"

    /// A reader of the lines of the input file `path`, or of standard input for `-`, as it
    /// arrives; nil when the file cannot be read.
    static func lines(of path: String, io: CommandIO) -> LineChunkReader? {
        path == "-" ? LineChunkReader(stream: io.readStandardInputChunk, name: standardInputName) : LineChunkReader(path: path)
    }

    /// How messages name the input file `path`: itself, or `<stdin>` for `-`.
    static func inputName(_ path: String) -> String { path == "-" ? standardInputName : path }

    /// Checks that standard input (`-`) is named at most once among `paths`: it can be read once.
    static func readStandardInputOnce(_ paths: [String]) throws {
        if paths.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "`-` (standard input) is given twice; it can be read once") }
    }

    /// Prints rule diagnostics as text on stderr.
    static func printDiagnostics(_ loaded: LoadedRules, io: CommandIO) {
        let renderer = DiagnosticRenderer(files: loaded.sources)
        for diagnostic in loaded.diagnostics { io.err(renderer.text(diagnostic)) }
    }

    /// Whether the rules can be looked for: `--rules` was given, or the default `Rules` exists
    /// in the run's working directory.
    static func defaultRulesExist(_ arguments: ParsedArguments, io: CommandIO) -> Bool {
        arguments.value("--rules") != nil
            || FileManager.default.fileExists(atPath: URL(fileURLWithPath: io.currentDirectory).appendingPathComponent("Rules").path)
    }

    /// The index of the placement named on the command line, or nil after reporting it as
    /// unknown, with the nearest name.
    static func placementIndex(named name: String, in program: Program, io: CommandIO) -> Int? {
        switch program.placementIndex(of: name) {
        case .success(let index): return index
        case .failure(let error):
            io.report(.unknownPlacementArgument(error))
            return nil
        }
    }

    /// Loads rules for a command that needs them error-free: prints errors (and warnings) and
    /// returns nil when they have errors. The reachability analysis runs for a command that
    /// shows the rules' warnings (`analyzed`: `test`) or counts them (`--strict`), whose
    /// `warnings` then include its findings as `check` reports them.
    static func loadCheckedRules(_ arguments: ParsedArguments, io: CommandIO, analyzed: Bool = false) -> (RuleSet?, Int32) {
        guard defaultRulesExist(arguments, io: io) else {
            io.report(.defaultRulesUnreadable(.cannotRead("Rules")))
            return (nil, ExitStatus.inputError)
        }
        let path = arguments.value("--rules") ?? "Rules"
        switch LoadedRules.load(path: path) {
        case .failure(let error):
            io.report(arguments.value("--rules") == nil ? .defaultRulesUnreadable(error) : error)
            return (nil, ExitStatus.inputError)
        case .success(let read):
            let loaded = analyzed || arguments.has("--strict") ? read.analyzed(by: Analyzer.analyze) : read
            guard let rules = try? RuleSet(loaded) else {
                printDiagnostics(loaded, io: io)
                io.err(DiagnosticRenderer.summary(loaded.diagnostics) + "\n")
                return (nil, ExitStatus.inputError)
            }
            return (rules, ExitStatus.success)
        }
    }
}
