import TargetingBase
import Foundation

/// The `targeting` command line as a function from arguments and streams to an exit status.
package enum TargetingCLI {
    static let commands: [any Command.Type] = [CheckCommand.self, FmtCommand.self, ResolveCommand.self, IngestCommand.self, ReconcileCommand.self, DiffCommand.self, TestCommand.self, SqlCommand.self, ExportCommand.self, BucketCommand.self, OverlapCommand.self, TableCommand.self, LspCommand.self, ServeCommand.self]

    static var help: String {
        var text = """
        OVERVIEW: Targeting turns flow answers into targeting decisions: rule files map custom
        attributes to segments, segments to audiences, audiences to placements.

        USAGE: targeting <subcommand> [options]

        SUBCOMMANDS:

        """
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.overview + "\n"
        }
        text += "  " + "version".padding(toLength: 10, withPad: " ", startingAt: 0) + "Print the package version (also --version)\n"
        text += "\n  See `targeting <subcommand> --help` for each subcommand's options.\n"
        return text
    }

    /// Runs the command line; `arguments[0]` is the program name.
    package static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        defer { io.flush() }
        let rest = Array(arguments.dropFirst())
        guard let name = rest.first else {
            io.report(.usage("missing subcommand"))
            io.err("\n" + help)
            return ExitStatus.usage
        }
        if name == "-h" || name == "--help" || name == "help" {
            io.out(help)
            return ExitStatus.success
        }
        if name == "--version" || name == "version" {
            guard rest.count == 1 else {
                io.report(.usage("`\(name)` takes no arguments"))
                io.err("\nUSAGE: targeting --version\n")
                return ExitStatus.usage
            }
            io.out("targeting \(PackageVersion.text)\n")
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            let suggestion = Suggestion.nearest(to: name, in: commands.map { $0.name } + ["version"])
            io.report(.usage("unknown subcommand `\(name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")))
            io.err("\nUSAGE: targeting <subcommand> [options]\n")
            return ExitStatus.usage
        }
        let commandArguments = Array(rest.dropFirst())
        if commandArguments.contains("-h") || commandArguments.contains("--help") {
            io.out(command.help)
            return ExitStatus.success
        }
        do {
            let parsed = try ParsedArguments.parse(commandArguments, options: command.options)
            return try command.run(parsed, io: io)
        } catch let error as UsageError {
            io.report(error.diagnostic)
            io.err("\nUSAGE: targeting \(command.usage)\n")
            return ExitStatus.usage
        } catch {
            io.report(.unexpected(error))
            return ExitStatus.inputError
        }
    }
}
