import Foundation
import Targeting
import TargetingBase
import TargetingFuzzSupport
import TargetingTesting

/// `.tests` files through the test checker and the runner, against the shipped rules (`Rules/`).
///
/// The first byte chooses: bit 0 builds the tests file from grammar choices (`RulesGrammar`),
/// else the bytes are the file. The rest is split at lines `%%`: the tests file, then the bytes
/// every `given events` file reads, then those every `given profile` file reads.
/// Nothing may crash; every diagnostic, failure and test error has a message.
@main
enum FuzzTests {
    static let rules: Program = {
        let root = ProcessInfo.processInfo.environment["TARGETING_FUZZ_RULES"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Rules").path
        guard case .success(let loaded) = LoadedRules.load(path: root), let program = loaded.program else {
            fuzzFailure("cannot load the rules at \(root)")
        }
        return program
    }()

    static func main() {
        _ = FuzzDriver.setUp { rules }
        FuzzDriver.run { data, size in
            FuzzTests.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    /// The parts of an input split at lines holding `%%`.
    static func parts(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        var parts: [[UInt8]] = [[]]
        var index = bytes.startIndex
        let marker: [UInt8] = Array("\n%%\n".utf8)
        while index < bytes.endIndex {
            if bytes[index...].starts(with: marker) && parts.count < 3 {
                parts.append([])
                index += marker.count
            } else {
                parts[parts.count - 1].append(bytes[index])
                index += 1
            }
        }
        while parts.count < 3 { parts.append([]) }
        return parts
    }

    static func check(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let split = parts(bytes.dropFirst())
        let text: [UInt8]
        if mode & 1 == 1 {
            var grammar = RulesGrammar(split[0])
            text = Array(grammar.testsText().utf8)
        } else {
            text = split[0]
        }
        let events = split[1]
        let profile = split[2]
        let source = SourceFile(path: "/fuzz/onboarding.tests", bytes: text)
        let loaded = LoadedTests(sources: [source], ruleSet: rules.ruleSet, fileExists: { _ in true })
        for diagnostic in loaded.diagnostics where diagnostic.message.isEmpty {
            fuzzFailure("a diagnostic without a message: \(diagnostic.code)")
        }
        guard !loaded.hasErrors else { return }
        let runner = TestRunner(program: rules, defaultNow: 1_795_953_600_000, readFile: { path in
            if path.hasSuffix(".jsonl") { return .success(events) }
            if path.hasSuffix(".json") { return .success(profile) }
            return .failure(.unreadable("no such file", path: path))
        })
        let results = runner.run(loaded.files)
        let count = loaded.files.reduce(0) { $0 + $1.tests.count }
        if results.count != count { fuzzFailure("\(count) tests gave \(results.count) results") }
        for result in results {
            switch result.status {
            case .passed: break
            case .failed(let failures):
                if failures.isEmpty { fuzzFailure("a failed test without failures") }
                for failure in failures where failure.message.isEmpty { fuzzFailure("a test failure without a message") }
            case .error(let error):
                if error.message.isEmpty { fuzzFailure("a test error without a message") }
            }
        }
        _ = TestCoverage(program: rules, results: results).summary
    }
}
