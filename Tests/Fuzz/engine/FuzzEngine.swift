import Foundation
import Targeting
import TargetingBase
import TargetingEngine
import TargetingFuzzSupport

/// Differential check of the compiled engine: random valid rule sets and random profiles built
/// from the fuzzer's choices, decided by `Program` (the flat code, `Program.decide`) and by the
/// tree `Evaluator`, and by a deliberately simple reference written from the README's rules (two-valued comparisons, splits, the edge cases,
/// caps over the profile's history of one placement or several, sticky experiments, prerequisites on other placements' decisions, layers)
/// (`Reference`). Segments, audiences and placement decisions must all agree.
@main
enum FuzzEngine {
    static func main() {
        FuzzDriver.run { data, size in
            FuzzEngine.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    static func check(_ bytes: [UInt8]) {
        var choices = FuzzChoices(bytes)
        let world = World.generate(&choices)
        let text = world.rulesText
        let loaded = LoadedRules(sources: [SourceFile(path: "fuzz.rules", text: text)])
        guard let program = loaded.program else {
            let errors = loaded.diagnostics.filter(\.isError).map { "\($0.line):\($0.column): \($0.message)" }
            fuzzFailure("generated rules do not check:\n\(errors.joined(separator: "\n"))\n--- rules ---\n\(text)")
        }
        for _ in 0..<3 {
            let sample = world.profile(&choices)
            guard case .success(let profile) = ProfileReader.read(Array(sample.json.utf8)) else {
                fuzzFailure("a generated profile does not read: \(sample.json)")
            }
            let reference = Reference(world: world, sample: sample)
            var evaluator = Evaluator(program: program, profile: profile, now: sample.now)
            func context() -> String { "--- rules ---\n\(text)\n--- profile ---\n\(sample.json)\n--- now \(sample.now)" }
            for (index, segment) in program.segments.enumerated() {
                guard let mine = world.segmentNames.firstIndex(of: segment.name) else { continue }
                let engine = evaluator.segmentMatches(index)
                let expected = reference.segment(mine)
                if engine != expected { fuzzFailure("segment `\(segment.name)`: engine \(engine), reference \(expected)\n\(context())") }
            }
            for (index, audience) in program.audiences.enumerated() {
                guard let mine = world.audienceNames.firstIndex(of: audience.name) else { continue }
                let engine = evaluator.audienceMatches(index)
                let expected = reference.audience(mine)
                if engine != expected { fuzzFailure("audience `\(audience.name)`: engine \(engine), reference \(expected)\n\(context())") }
            }
            for (mine, placement) in world.placements.enumerated() {
                guard let index = program.placementIndex(named: placement.name) else { fuzzFailure("placement `\(placement.name)` missing") }
                var expected = reference.decide(mine)
                if reference.heldOut(mine), expected != "error" { expected += " held-out" }
                let flat = describe(program.decide(placement: index, for: profile, now: sample.now))
                var tree = Evaluator(program: program, profile: profile, now: sample.now)
                let walked = describe(tree.resolve(placement: index, profileID: profile.id))
                if flat != expected || walked != expected {
                    fuzzFailure("placement `\(placement.name)`: engine \(flat), evaluator \(walked), reference \(expected)\n\(context())")
                }
            }
        }
    }

    static func describe(_ result: Result<Decision, ResolveError>) -> String {
        switch result {
        case .failure: return "error"
        case .success(let decision):
            let variant = decision.experiment.map { "\($0).\(decision.variant ?? "?")" } ?? "-"
            return "\(decision.audience ?? "-") \(decision.outcome?.description ?? "no match") \(decision.split ?? "-") \(variant) -" + (decision.isSticky ? " sticky" : "") + (decision.heldOut ? " held-out" : "")
        }
    }
}
