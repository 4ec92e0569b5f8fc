// targeting-bench: the in-process benchmark, and the generators behind Benchmarks/run.sh.
//
//     swift run -c release targeting-bench                      in-process rates (table rows)
//     swift run -c release targeting-bench app-load [DIR]       the app-load row alone
//     swift run -c release targeting-bench patterns [N]         `matches` rows against fragment rows, N profiles
//     swift run -c release targeting-bench profiles N FILE      N profile lines (seeded)
//     swift run -c release targeting-bench events N P FILE      N event lines over P profiles
//     swift run -c release targeting-bench shown N P FILE [DIR] P profiles' set-up lines, then N shown lines the rules in DIR decide
//     swift run -c release targeting-bench coach-profiles N FILE  N profile lines for the six-row placement
//     swift run -c release targeting-bench coach-rules FILE     the six-row placement `coach_paywall`
//     swift run -c release targeting-bench capped-rules FILE    the six-row placement with caps, and a second placement
//     swift run -c release targeting-bench uncapped-rules FILE  the same two placements without caps
//     swift run -c release targeting-bench history-profiles N FILE  N coach profiles, 20 shown instants per placement
//     swift run -c release targeting-bench shown-events N P FILE    N placement_shown lines over P profiles
//     swift run -c release targeting-bench check-set N FILE     a rule file of N segments
//     swift run -c release targeting-bench long-or N FILE       one segment: an `or` of N terms
//     swift run -c release targeting-bench large-rules FILE     500 segments, 100 audiences, 20 placements
//     swift run -c release targeting-bench many-placements N FILE   500 segments, 100 audiences, N placements
import Foundation
import Targeting

let arguments = CommandLine.arguments
let seed: UInt64 = 20_261_201

func write(_ lines: [String], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
}

func count(_ index: Int) -> Int {
    guard arguments.count > index, let value = Int(arguments[index].replacingOccurrences(of: "_", with: "")) else {
        FileHandle.standardError.write(Data("targeting-bench: expected a count\n".utf8))
        exit(64)
    }
    return value
}

switch arguments.dropFirst().first {
case "profiles":
    write(Workload.profileLines(count: count(2), seed: seed), to: arguments[3])
case "events":
    var random = SeededGenerator(seed: seed &+ 1)
    let profiles = count(3)
    write((0..<count(2)).map { _ in Workload.eventLine(using: &random, profiles: profiles) }, to: arguments[4])
case "shown":
    let rules = try! RuleSet(contentsOf: URL(fileURLWithPath: arguments.count > 5 ? arguments[5] : "Rules"))
    write(ShownLines.lines(count: count(2), profiles: count(3), rules: rules, seed: seed &+ 3), to: arguments[4])
case "coach-profiles":
    write(SecondShape.profileLines(count: count(2), seed: seed &+ 2), to: arguments[3])
case "coach-rules":
    write([SecondShape.rules], to: arguments[2])
case "capped-rules":
    write([HistoryShape.cappedRules], to: arguments[2])
case "uncapped-rules":
    write([HistoryShape.uncappedRules], to: arguments[2])
case "history-profiles":
    write(HistoryShape.profileLines(count: count(2), seed: seed &+ 3), to: arguments[3])
case "shown-events":
    write(HistoryShape.shownLines(count: count(2), profiles: count(3), seed: seed &+ 4), to: arguments[4])
case "check-set":
    write([Workload.checkSet(segments: count(2))], to: arguments[3])
case "long-or":
    write([Workload.longOr(terms: count(2))], to: arguments[3])
case "large-rules":
    write([Workload.largeRules(segments: 500, audiences: 100, placements: 20, seed: seed)], to: arguments[2])
case "many-placements":
    write([Workload.largeRules(segments: 500, audiences: 100, placements: count(2), seed: seed)], to: arguments[3])
case "patterns":
    Patterns.run(count: arguments.count > 2 ? count(2) : 1_000_000)
case "app-load":
    AppLoad.run(rulesDirectory: arguments.count > 2 ? arguments[2] : "Rules")
case nil, "in-process":
    AppLoad.run(rulesDirectory: arguments.count > 2 ? arguments[2] : "Rules")
    InProcess.run(rulesDirectory: arguments.count > 2 ? arguments[2] : "Rules",
                  count: Int(ProcessInfo.processInfo.environment["BENCH_COUNT"] ?? "") ?? 1_000_000)
default:
    FileHandle.standardError.write(Data("targeting-bench: unknown mode \(arguments[1])\n".utf8))
    exit(64)
}
