import Foundation
import TargetingBase
import TargetingSemantics
import TargetingSyntax

/// The result of loading `.tests` files: parse every file, then check the tests against a rule set.
package struct LoadedTests: Sendable {
    /// The source files read.
    package var sources: [SourceFile]
    /// The parsed files, in the order given.
    package var files: [TestFile]
    /// Every diagnostic, sorted by file and position.
    package var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.isError } }

    /// Parses tests files already read and checks them against `ruleSet`; with a nil rule set
    /// (rules that have errors) they are only parsed. `readEvents` reads `given events` files so
    /// that their lines that are not events are reported (nil: not read).
    package init(sources: [SourceFile], ruleSet: CheckedRules?,
                fileExists: (String) -> Bool = { FileManager.default.isReadableFile(atPath: $0) },
                readEvents: ((String) -> [UInt8]?)? = nil) {
        self.sources = sources
        var diagnostics: [Diagnostic] = []
        var files: [TestFile] = []
        for source in sources {
            if source.bytes.count > SourceLoader.maxFileSize {
                diagnostics.append(.testsFileTooLarge(limit: SourceLoader.maxFileSize, at: source.range(0, 0)))
                continue
            }
            let (file, fileDiagnostics) = Parser.parseTests(source)
            diagnostics += fileDiagnostics
            files.append(file)
        }
        if let ruleSet, !files.isEmpty { diagnostics += TestChecker.check(files, ruleSet: ruleSet, fileExists: fileExists, readEvents: readEvents) }
        self.files = files
        self.diagnostics = Diagnostic.sorted(diagnostics)
    }

    /// Reads the `.tests` files under each of `paths` (directories, searched recursively, or
    /// files) and loads them; a file is read whatever its extension.
    /// `fileExists` is the check for `given events`/`given profile` files (`test` passes one that
    /// accepts every path: there a missing file fails its test, not the whole run). `given events`
    /// files are read from disk, so lines that are not events are reported as `test` skips them.
    package static func load(paths: [String], ruleSet: CheckedRules?,
                             fileExists: (String) -> Bool = { FileManager.default.isReadableFile(atPath: $0) }) -> Result<LoadedTests, Diagnostic> {
        var sources: [SourceFile] = []
        var seen: Set<String> = []
        for root in paths {
            switch SourceLoader.files(at: root, extension: "tests") {
            case .failure(let error): return .failure(error)
            case .success(let found):
                for path in found where seen.insert(path).inserted {
                    switch SourceLoader.read(path) {
                    case .failure(let error): return .failure(error)
                    case .success(let bytes): sources.append(SourceFile(path: path, bytes: bytes))
                    }
                }
            }
        }
        let readEvents: (String) -> [UInt8]? = { try? SourceLoader.read($0).get() }
        return .success(LoadedTests(sources: sources, ruleSet: ruleSet, fileExists: fileExists, readEvents: readEvents))
    }
}
