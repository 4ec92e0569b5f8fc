/// Placements named by a history subject: one (`p0`) or a list (`[p0, p2]`), without repeats.
package struct PlacementGroup {
    /// Indices of the placements, in the order written.
    package var indices: [Int]
    /// Whether a single placement is written as a list of one.
    package var bracketed: Bool

    /// How rules write it.
    package var text: String {
        let names = indices.map { "p\($0)" }
        return names.count == 1 && !bracketed ? names[0] : "[" + names.joined(separator: ", ") + "]"
    }
}

/// What a prerequisite accepts from the placement it asks about.
package enum Outcome: Equatable {
    /// `flow "ID"`, or `nothing` for nil.
    case destination(String?)
    /// `no match`.
    case noMatch
    /// `eN.VARIANT`: experiment and variant by index.
    case variant(experiment: Int, variant: Int)
}

/// A generated prerequisite, `placement pN -> OUTCOME` or `placement pN -> [OUTCOME, …]`.
/// Its outcomes are picks among those the placement can give, read from the placement's rows
/// when written or evaluated, so a rule set whose rows change still names only outcomes they give.
package struct Prerequisite {
    /// The placement asked about.
    package var placement: Int
    /// Indices into `World.outcomes(of:)`, taken modulo its length.
    package var picks: [Int]
    /// Whether the outcomes are written as a list (always when there are several).
    package var bracketed: Bool
}

/// A generated layer: `layer lN [by KEY] { W% eN … }`.
package struct Layer {
    package var name: String
    package var key: WorldKey
    /// The experiments with their shares, in the order written.
    package var members: [(weight: Int, experiment: Int)]
}

extension World {
    /// Everything placement `index` can give, as the checker reads it from the rows: each
    /// destination its rows, split arms and variant arms show, each variant of each experiment
    /// its rows use, and `no match` unless an `everyone` row takes every profile that reaches it.
    package func outcomes(of index: Int) -> [Outcome] {
        var destinations: [Outcome] = []
        var variants: [Outcome] = []
        func add(_ outcome: Outcome, to list: inout [Outcome]) { if !list.contains(outcome) { list.append(outcome) } }
        var canMiss = true
        var seenEveryone = false
        for row in placements[index].rows {
            switch row.destination {
            case .nothing: add(.destination(nil), to: &destinations)
            case .flow(let id): add(.destination(id), to: &destinations)
            case .split(_, let arms, _): for arm in arms { add(.destination(arm.flow), to: &destinations) }
            case .experiment(let experiment, let arms):
                for arm in arms { add(.destination(arm), to: &destinations) }
                for variant in experiments[experiment].variants.indices { add(.variant(experiment: experiment, variant: variant), to: &variants) }
            }
            guard row.audience == nil, !seenEveryone else { continue }
            seenEveryone = true
            switch row.destination {
            case .nothing, .flow: canMiss = false
            case .split(_, _, let key): canMiss = !key.isID
            case .experiment(let experiment, _): canMiss = layer(of: experiment) != nil || !experiments[experiment].key.isID
            }
        }
        return destinations + variants + (canMiss ? [.noMatch] : [])
    }

    /// The distinct outcomes a prerequisite accepts, in the order picked.
    package func outcomes(_ prerequisite: Prerequisite) -> [Outcome] {
        let given = outcomes(of: prerequisite.placement)
        var chosen: [Outcome] = []
        for pick in prerequisite.picks where !chosen.contains(given[pick % given.count]) { chosen.append(given[pick % given.count]) }
        return chosen
    }

    /// How rules write an outcome.
    package func text(_ outcome: Outcome) -> String {
        switch outcome {
        case .destination(let id): return id.map { "flow \"\($0)\"" } ?? "nothing"
        case .noMatch: return "no match"
        case .variant(let experiment, let variant): return experiments[experiment].name + "." + experiments[experiment].variants[variant].name
        }
    }

    /// How rules write a prerequisite.
    package func text(_ prerequisite: Prerequisite) -> String {
        let items = outcomes(prerequisite).map { text($0) }
        let written = items.count == 1 && !prerequisite.bracketed ? items[0] : "[" + items.joined(separator: ", ") + "]"
        return "placement p\(prerequisite.placement) -> " + written
    }

    /// The layer holding experiment `index`, if any.
    package func layer(of experiment: Int) -> Layer? {
        layers.first { $0.members.contains { $0.experiment == experiment } }
    }

    /// The highest placement an expression asks about through prerequisites, directly or
    /// through the segments it names; -1 for none. A placement may use an audience only when
    /// this is below its own index, so no placement depends on itself.
    package func latestPrerequisite(_ expression: Expression) -> Int {
        switch expression {
        case .comparison: return -1
        case .prerequisite(let prerequisite): return prerequisite.placement
        case .segment(let index): return latestPrerequisite(segments[index])
        case .not(let inner), .group(let inner): return latestPrerequisite(inner)
        case .and(let a, let b), .or(let a, let b): return max(latestPrerequisite(a), latestPrerequisite(b))
        }
    }

    /// The audiences the rows of placement `index` may use without closing a cycle.
    package func audiences(usableIn index: Int) -> [Int] {
        audiences.indices.filter { latestPrerequisite(audiences[$0]) < index }
    }

    /// A prerequisite on one of `placements` placements: one outcome, or a list of one to three.
    package static func prerequisite(_ choices: inout FuzzChoices, placements: Int) -> Prerequisite {
        let placement = choices.below(placements)
        let bracketed = choices.chance(35)
        let picks = (0..<(bracketed ? choices.within(1...3) : 1)).map { _ in choices.below(64) }
        return Prerequisite(placement: placement, picks: picks, bracketed: bracketed)
    }

    /// One or two layers over some of the experiments: each experiment in one layer at most,
    /// whole shares adding up to 100 or less (a gap enters no experiment).
    package static func randomLayers(_ choices: inout FuzzChoices, experiments: Int) -> [Layer] {
        var free = Array(0..<experiments)
        var layers: [Layer] = []
        for number in 0..<choices.within(1...2) where !free.isEmpty {
            var members: [(weight: Int, experiment: Int)] = []
            var left = 100
            for _ in 0..<choices.within(1...free.count) where left > 0 {
                let experiment = free.remove(at: choices.below(free.count))
                let weight = choices.chance(25) ? left : choices.within(1...min(left, 70))
                members.append((weight, experiment))
                left -= weight
            }
            layers.append(Layer(name: "l\(number)", key: drawKey(&choices), members: members))
        }
        return layers
    }

    /// The text of the layers, one declaration each.
    package var layersText: [String] {
        layers.flatMap { layer in
            ["layer \(layer.name)\(layer.key.text) {"] + layer.members.map { "  \($0.weight)% \(experiments[$0.experiment].name)" } + ["}"]
        }
    }
}

extension WorldKey {
    /// Whether the key is `profile.id`.
    package var isID: Bool {
        switch self {
        case .id: return true
        case .attribute: return false
        }
    }
}
