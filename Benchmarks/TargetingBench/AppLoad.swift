import Foundation
import Targeting
import TargetingBase

/// An app's load of a rules directory: `RuleSet(contentsOf:)` (read, parse, check, compile),
/// against reading and parsing the same files alone, in one run.
enum AppLoad {
    /// Loads per second of `body`, repeated for about `seconds`; the best of three rounds.
    static func rate(seconds: Double = 0.5, _ body: () -> Void) -> Double {
        var best = 0.0
        for _ in 0..<3 {
            var count = 0
            let elapsed = InProcess.time {
                let start = DispatchTime.now().uptimeNanoseconds
                repeat {
                    body()
                    count += 1
                } while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds
            }
            best = max(best, Double(count) / elapsed)
        }
        return best
    }

    static func run(rulesDirectory: String) {
        let url = URL(fileURLWithPath: rulesDirectory)
        var sink = 0
        let loads = rate {
            guard let rules = try? RuleSet(contentsOf: url) else { exit(2) }
            sink &+= rules.placements.count
        }
        let parses = rate {
            guard case .success(let paths) = SourceLoader.files(at: rulesDirectory, extension: "rules") else { exit(2) }
            for path in paths {
                guard case .success(let bytes) = SourceLoader.read(path) else { exit(2) }
                sink &+= LoadedRules.parse(SourceFile(path: path, bytes: bytes)).diagnostics.count
            }
        }
        func microseconds(_ rate: Double) -> String { String(format: "%.0f µs", 1e6 / rate) }
        print("| in process: app load, `RuleSet(contentsOf:)` of `\(rulesDirectory)/` | \(microseconds(loads)) per load | reading and parsing the files alone: \(microseconds(parses)) | \(String(format: "%.2f×", loads / parses)) |")
        if sink == 42 { print("") }
    }
}
