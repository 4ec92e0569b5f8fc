import Foundation
import Targeting
import TargetingAnalysis
import TargetingBase
import TargetingEngine
import TargetingFuzzSupport

/// `diff --prove` under fuzzing: two random valid rule sets over the same attributes (the
/// second usually a copy of the first with one placement regenerated), proved against each
/// other. Every witness must read as a profile and move exactly as reported under
/// both rule sets, variant and holdout included; a placement proved `equivalent` must move none
/// of a few random profiles.
@main
enum FuzzProve {
    static func main() {
        FuzzDriver.run { data, size in
            FuzzProve.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    static func program(_ world: World) -> Program {
        let text = world.rulesText
        let loaded = LoadedRules(sources: [SourceFile(path: "fuzz.rules", text: text)])
        guard let program = loaded.program else {
            let errors = loaded.diagnostics.filter(\.isError).map { "\($0.line):\($0.column): \($0.message)" }
            fuzzFailure("generated rules do not check:\n\(errors.joined(separator: "\n"))\n--- rules ---\n\(text)")
        }
        return program
    }

    static func check(_ bytes: [UInt8]) {
        var choices = FuzzChoices(bytes)
        let first = World.generate(&choices)
        var second = first
        let other = World.generate(&choices)
        if choices.below(4) == 0 {
            second = other
        } else if !first.placements.isEmpty, !other.placements.isEmpty {
            // One placement's rows from the other world, over this world's audiences.
            let index = choices.below(first.placements.count)
            var rows = other.placements[choices.below(other.placements.count)].rows
            // Audiences this world has, asking only about earlier placements (no cycle).
            let usable = first.audiences(usableIn: index)
            for row in rows.indices {
                if let audience = rows[row].audience, !usable.contains(audience) { rows[row].audience = nil }
            }
            // Split ids are unique across the rule set: the copied rows' splits get ids of their own.
            for row in rows.indices {
                if case .split(let id, let variants, let key) = rows[row].destination { rows[row].destination = .split(id: "copied_" + id, variants: variants, key: key) }
                // An experiment row names this world's experiment, with one arm per variant.
                if case .experiment(let index, let arms) = rows[row].destination {
                    if index < first.experiments.count {
                        let count = first.experiments[index].variants.count
                        rows[row].destination = .experiment(index, arms: (0..<count).map { arms[$0 % arms.count] })
                    } else {
                        rows[row].destination = .nothing
                    }
                }
            }
            if let everyone = rows.firstIndex(where: { $0.audience == nil }) { rows = Array(rows[...everyone]) }
            second.placements[index].rows = rows
        }
        let old = program(first), new = program(second)
        let sample = first.profile(&choices)
        let now = sample.now
        let proof = ChangeProof.prove(old: old, new: new, now: now)
        func context() -> String { "--- old ---\n\(first.rulesText)\n--- new ---\n\(second.rulesText)\n--- now \(now)" }
        for placement in proof.placements {
            guard let before = old.placementIndex(named: placement.name), let after = new.placementIndex(named: placement.name) else { continue }
            for move in placement.transitions {
                let text = JSONWriter.write(move.witness)
                // A witness has an `id` unless only profiles without one make the move (a holdout
                // keyed on `profile.id` holds out every profile that has one).
                guard case .success(let profile) = ProfileReader.read(move.witness) else {
                    fuzzFailure("witness does not read as a profile: \(text)\n\(context())")
                }
                // What the witness sees, variant and holdout included.
                let from = (try? old.decide(placement: before, for: profile, now: now).get()).map(ChangeProof.Seen.init)
                let to = (try? new.decide(placement: after, for: profile, now: now).get()).map(ChangeProof.Seen.init)
                if from != move.before || to != move.after || move.before == move.after {
                    fuzzFailure("placement `\(placement.name)`: witness \(text) moves \(String(describing: from)) -> \(String(describing: to)), reported \(String(describing: move.before)) -> \(String(describing: move.after))\n\(context())")
                }
            }
            guard placement.status == .equivalent else { continue }
            for _ in 0..<4 {
                let sample = first.profile(&choices)
                guard case .success(let profile) = ProfileReader.read(Array(sample.json.utf8)), profile.id != nil else { continue }
                let from = (try? old.decide(placement: before, for: profile, now: now).get()).map(ChangeProof.Seen.init)
                let to = (try? new.decide(placement: after, for: profile, now: now).get()).map(ChangeProof.Seen.init)
                if from != to {
                    fuzzFailure("placement `\(placement.name)` proved equivalent, but \(sample.json) moves \(String(describing: from)) -> \(String(describing: to))\n\(context())")
                }
            }
        }
    }
}
