import TargetingBase
import TargetingEngine

/// Findings of the command line itself: usage, arguments, the profile store. Rendered by the
/// one `DiagnosticRenderer`, like every other diagnostic.
extension Diagnostic {
    /// A command line that does not fit the command's usage.
    static func usage(_ message: String) -> Diagnostic {
        Diagnostic(.error, .usage, message, at: .unknown(""), place: .none)
    }

    /// A placement named on the command line that the rules do not declare.
    static func unknownPlacementArgument(_ error: ResolveError) -> Diagnostic {
        Diagnostic(.error, .unknownPlacement, error.message, at: .unknown(""), place: .none)
    }

    /// `diff --placement NAME` where neither rule set declares NAME.
    static func placementInNeither(_ name: String) -> Diagnostic {
        Diagnostic(.error, .unknownPlacement, "unknown placement `\(name)` in both rule sets", at: .unknown(""), place: .none)
    }

    /// `resolve --store FILE --id ID` where the store holds no such profile.
    static func noProfile(id: String, in path: String) -> Diagnostic {
        Diagnostic(.error, .noSuchProfile, "no profile with id `\(id)` in `\(path)`", at: .unknown(path), place: .none)
    }

    /// `reconcile --explain ID` where no line of the events creates the profile.
    static func noProfileInEvents(id: String) -> Diagnostic {
        Diagnostic(.error, .noSuchProfile, "no profile with id `\(id)` in the events", at: .unknown(""),
                   help: "`--explain` follows a profile that a line of the event files names", place: .none)
    }

    /// `ingest` with neither `--rules`, a `Rules` directory, nor `--no-rules`.
    static func noRulesForIngest() -> Diagnostic {
        Diagnostic(.error, .noRules, "no `Rules` directory here and no --rules given, so no `input` declarations would apply",
                   at: .unknown("Rules"), help: "name the rule set with `--rules DIR`, or pass `--no-rules` to store every answer under its element id",
                   place: .none)
    }

    /// A command that reads `Rules` by default, run where that directory cannot be read.
    static func defaultRulesUnreadable(_ error: Diagnostic) -> Diagnostic {
        var diagnostic = error
        diagnostic.help = "without --rules the rule set is read from `Rules` in the working directory; name another with `--rules DIR`"
        return diagnostic
    }

    /// A file `fmt` could not format for a reason other than a syntax error.
    static func cannotFormat(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.error, .format, "cannot format `\(path)`: \(reason)", at: .unknown(path), place: .none)
    }

    /// `test` found no `.tests` files where it looked.
    static func noTestsFiles(in roots: [String]) -> Diagnostic {
        Diagnostic(.warning, .noTests, "no .tests files in " + roots.map { "`\($0)`" }.joined(separator: ", "), at: .unknown(""), place: .none)
    }

    /// A test run with nothing to run: no test in the files, or none matching `--run`.
    static func noTestsRun(filter: String?, in roots: [String]) -> Diagnostic {
        let message = filter.map { "no test name contains `\($0)` (--run)" }
            ?? "no tests to run in " + roots.map { "`\($0)`" }.joined(separator: ", ")
        return Diagnostic(.error, .noTests, message, at: .unknown(""), place: .none)
    }

    /// `--profile FILE` given a JSON Lines file: a second profile starts on `line` (the way
    /// out is in the message, as a line diagnostic has no `help` line).
    static func secondProfileInFile(file: String, line: Int) -> Diagnostic {
        Diagnostic(.error, .badFile, "a second JSON value starts on this line, but --profile reads one profile; "
                   + "for a JSON Lines file (one profile per line) use `--profiles \(file)`", at: .line(line, of: file), place: .line)
    }

    /// A query asked for over no placement at all.
    static func noPlacementToCompile(_ why: String) -> Diagnostic {
        Diagnostic(.error, .noPlacement, why + ", so there is nothing to compile", at: .unknown(""), place: .none)
    }

    /// Two custom attributes the rules read that would share one typed column.
    static func columnClash(_ name: String, keys: [String]) -> Diagnostic {
        Diagnostic(.error, .columnClash, "custom attributes " + keys.map { "`\($0)`" }.joined(separator: " and ")
                   + " would both be the typed column `\(name)`; rename one of them in the rules", at: .unknown(""), place: .none)
    }

    /// A split id on the command line that no rule declares.
    static func unknownSplit(_ id: String, suggestion: String?) -> Diagnostic {
        Diagnostic(.error, .unknownSplit, "unknown split `\(id)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? ""), at: .unknown(""), place: .none)
    }

    /// A failure no other diagnostic describes.
    static func unexpected(_ error: any Error) -> Diagnostic {
        Diagnostic(.error, .internal, "\(error)", at: .unknown(""), place: .none)
    }
}

/// A command line that does not fit the command's usage; carries its coded diagnostic.
struct UsageError: Error {
    let diagnostic: Diagnostic

    init(message: String) { diagnostic = .usage(message) }
}
