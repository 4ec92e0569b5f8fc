import Foundation
import TargetingBase
import TargetingFormatting
import TargetingStore

/// `targeting fmt [--check | -d | -w] [PATH…]`: write rules and tests files in canonical form.
enum FmtCommand: Command {
    static let name = "fmt"
    static let overview = "Format rule and test files canonically, keeping comments"
    static let usage = "fmt [--check | -d | -w] [PATH…] [--rules PATH]"
    static let discussion = """
    ARGUMENTS:
      PATH                        .rules or .tests files, or directories searched for them
                                  (default: the --rules path, else Rules)

    Without --check or -w, prints the formatted text of each file on stdout (with several
    files, each after a `==> PATH <==` line). -w rewrites the files that change and lists
    them; --check lists the files that would change; -d (--diff) prints, for each of them, a
    unified diff from the file to its formatted text (`--- PATH`, `+++ PATH (formatted)`). A
    file is written only when its formatted text parses to the same rules, keeps every
    comment and formats to itself. Exit status: 0 done (with --check or -d: nothing would
    change), 1 --check or -d found files that would change, 2 syntax errors, an unreadable
    path or a file that cannot be formatted safely, 64 usage error.
    """
    static let options = [
        OptionSpec(names: ["--check"], takesValue: false, valueName: "", help: "List files that would change; exit 1 if any"),
        OptionSpec(names: ["-d", "--diff"], takesValue: false, valueName: "", help: "Print a unified diff of each file that would change; exit 1 if any"),
        OptionSpec(names: ["-w", "--write"], takesValue: false, valueName: "", help: "Rewrite files that change and list them"),
        CommonOptions.rules,
    ]

    private enum Mode { case print, check, diff, write }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let mode: Mode
        let chosen = [("--check", Mode.check), ("--diff", .diff), ("--write", .write)].filter { arguments.has($0.0) }
        guard chosen.count <= 1 else {
            throw UsageError(message: "`--check`, `-d` and `-w` cannot be used together")
        }
        mode = chosen.first?.1 ?? .print
        let roots = arguments.positionals.isEmpty ? [arguments.value("--rules") ?? "Rules"] : arguments.positionals
        var status = ExitStatus.success
        var paths: [String] = []
        for root in roots {
            switch files(at: root) {
            case .failure(let error):
                io.report(error)
                status = ExitStatus.inputError
            case .success(let found):
                paths.append(contentsOf: found.filter { !paths.contains($0) })
            }
        }
        var changed = false
        for path in paths {
            let bytes: [UInt8]
            switch SourceLoader.read(path) {
            case .failure(let error):
                io.report(error)
                status = ExitStatus.inputError
                continue
            case .success(let value):
                bytes = value
            }
            let source = SourceFile(path: path, bytes: bytes)
            let formatted: String
            switch TargetingFormatting.Formatter.format(source) {
            case .failure(.syntax(let diagnostics)):
                for diagnostic in diagnostics { io.report(diagnostic, files: [source]) }
                status = ExitStatus.inputError
                continue
            case .failure(let error):
                io.report(.cannotFormat(path, reason: error.message))
                status = ExitStatus.inputError
                continue
            case .success(let text):
                formatted = text
            }
            let output = Array(formatted.utf8)
            switch mode {
            case .print:
                if paths.count > 1 { io.out("==> \(path) <==\n") }
                io.out(formatted)
            case .check:
                if output != bytes {
                    changed = true
                    io.out(path + "\n")
                }
            case .diff:
                if output != bytes {
                    changed = true
                    io.out(UnifiedDiff().diff(String(decoding: bytes, as: UTF8.self), formatted, oldName: path, newName: path + " (formatted)"))
                }
            case .write:
                guard output != bytes else { continue }
                do {
                    try AtomicFile.replace(path, with: output)
                    io.out(path + "\n")
                } catch let error as StoreError {
                    io.report(error.diagnostic)
                    status = ExitStatus.inputError
                }
            }
        }
        if status != ExitStatus.success { return status }
        return (mode == .check || mode == .diff) && changed ? ExitStatus.no : ExitStatus.success
    }

    /// The `.rules` and `.tests` files under a directory (sorted by path), or a file itself.
    private static func files(at root: String) -> Result<[String], Diagnostic> {
        guard TestSources.isDirectory(root) else {
            return SourceLoader.files(at: root, extension: "rules")
        }
        var found: [String] = []
        for ext in ["rules", "tests"] {
            switch SourceLoader.files(at: root, extension: ext) {
            case .failure(let error): return .failure(error)
            case .success(let paths): found.append(contentsOf: paths)
            }
        }
        return .success(found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
