import TargetingEngine
import TargetingProfiles

/// One way a placement can decide for a profile: a row (one variant of a split or experiment
/// row), or no match, with what the holdout does to the profile. Its goals (rows that must or
/// must not take the profile, keys that must be there or not) go to the search; its draws
/// (the variant's bucket, the holdout's) are checked apart and met by the witness's key values.
struct Route {
    /// How the rule set's holdout treats the profiles of a route.
    enum Holdout: Hashable {
        /// The placement is not covered, or there is no holdout.
        case uncovered
        /// The profile has no value for the holdout's key: it is not held out.
        case keyAbsent
        /// Drawn, and not held out.
        case notHeld
        /// Drawn and held out: only `always` rows and the `everyone` row can decide.
        case heldOut
    }

    /// The deciding row, nil for no match.
    var row: Int?
    /// For a row with a split or experiment: the variant's step in draw order; nil for a row
    /// without one, or for any variant.
    var step: Int?
    var holdout: Holdout
    var seen: ChangeProof.Seen
    /// Whether the row decides by the assignment its sticky experiment recorded (whatever the
    /// audience, without a draw) rather than by its audience and a draw.
    var sticky = false
    /// Rows above the deciding one, of experiments in a layer, that the profile passes by the
    /// layer (whatever their audience): drawn outside their share, or without the layer's key;
    /// the other such rows it passes by their audience and key, as any row.
    var passedByLayer: [LayerPass] = []

    /// How a route passes a row of an experiment in a layer without its audience deciding.
    struct LayerPass: Hashable {
        var row: Int
        /// Without a value for the layer's key (else drawn outside the experiment's share).
        var keyless: Bool
    }
    /// Whether the rows of experiments in a layer above the deciding one are too many to tell
    /// apart how each is passed (`maxLayeredAbove`): the route then sets no goal on them and a
    /// witness settles it.
    var layersLoose = false

    /// The most rows of layered experiments above a route's row whose ways of passing are
    /// enumerated (three each).
    static let maxLayeredAbove = 4

    /// Every way placement `index` of `program` can decide, what users see first: each row
    /// (each variant of a split or experiment row, with `variants`) and no match when the
    /// placement can miss, for profiles the holdout does not hold out (drawn and not held, or
    /// without its key); then, in a covered placement, what held-out profiles see. Routes whose draws
    /// no bucket meets (not held out by a 100 % holdout) are left out.
    static func routes(_ program: Program, placement index: Int, variants: Bool = true) -> [Route] {
        let placement = program.placements[index]
        let rows = placement.rows
        var states: [Holdout] = [.uncovered]
        if placement.isCoveredByHoldout, let holdout = program.holdout {
            // Witnesses name an id where they can (a profile without one comes last, as in
            // `ExampleProfile.witnesses`); a missing custom key makes the simpler profile.
            let drawn: [Holdout] = holdout.weight < 100 ? [.notHeld] : []
            states = holdout.key == .profileID ? drawn + [.keyAbsent] : [.keyAbsent] + drawn
        }
        // The plan's choices, each under every holdout state it can happen in: per state, the
        // rows in order (drawn variants, then those a live assignment gives), then no match.
        let canMiss = placement.canMiss
        let choices = placement.choices.filter { $0.row != nil || canMiss }
        var routes: [Route] = []
        func add(_ choice: Choice, state: Holdout) {
            let heldOutBy = state == .heldOut ? program.holdout?.name : nil
            guard let row = choice.row else {
                routes.append(Route(row: nil, step: nil, holdout: state, seen: ChangeProof.Seen(outcome: nil, heldOutBy: heldOutBy)))
                return
            }
            if let step = choice.step, let plan = rows[row].split, variants {
                let variant = plan.steps[step]
                let seen = ChangeProof.Seen(outcome: Outcome(variant.destination) ?? .nothing, experiment: plan.isExperiment ? plan.id : nil,
                                            variant: variant.variant, heldOutBy: heldOutBy)
                routes.append(Route(row: row, step: step, holdout: state, seen: seen, sticky: choice.sticky))
            } else if (choice.step ?? 0) == 0 {
                // Without variants, one route stands for every variant of a drawing row.
                routes.append(Route(row: row, step: nil, holdout: state, seen: ChangeProof.Seen(outcome: Outcome(rows[row].source.destination), heldOutBy: heldOutBy),
                                    sticky: choice.sticky))
            }
        }
        for state in states {
            for row in rows.indices {
                for choice in choices where choice.row == row && !choice.heldOut { add(choice, state: state) }
            }
            for choice in choices where choice.row == nil && !choice.heldOut { add(choice, state: state) }
        }
        for choice in choices where choice.heldOut { add(choice, state: .heldOut) }
        // A row of an experiment in a layer is passed either by its audience (as any row) or
        // by the layer's draw falling outside its share: one route per way.
        var expanded: [Route] = []
        for route in routes {
            let layered = (0..<(route.row ?? rows.count)).filter { above in
                (route.holdout != .heldOut || rows[above].admitsHeldOut) && rows[above].guards.contains { if case .layer = $0 { true } else { false } }
            }
            guard !layered.isEmpty else { expanded.append(route); continue }
            guard layered.count <= maxLayeredAbove else {
                var loose = route
                loose.layersLoose = true
                expanded.append(loose)
                continue
            }
            // Each layered row: by its audience (0), drawn outside its share (1), or keyless (2).
            var ways = Array(repeating: 0, count: layered.count)
            while true {
                var variant = route
                variant.passedByLayer = layered.indices.compactMap { ways[$0] == 0 ? nil : LayerPass(row: layered[$0], keyless: ways[$0] == 2) }
                expanded.append(variant)
                guard let next = ways.firstIndex(where: { $0 < 2 }) else { break }
                ways[next] += 1
                for earlier in 0..<next { ways[earlier] = 0 }
            }
        }
        return expanded.filter { DrawNeed.areFeasible($0.draws(program, placement: index)) }
    }

    /// The goals under which the route decides in placement `index` of program number
    /// `programIndex` of `graph`: its row takes the profile (by a recorded assignment that
    /// sticks, for a sticky route; else with no such assignment, by its audience and with a
    /// value for the row's key) and no row above it that the profile reaches does; no row for no match; the holdout's
    /// key present or absent as the route says. A held-out profile reaches only `always` rows
    /// and `everyone`.
    func goals(_ program: Program, placement index: Int, graph: ConditionGraph, programIndex: Int = 0) -> [Goal] {
        let nodes = graph.programPlacements[programIndex][index]
        let rows = program.placements[index].rows
        var goals: [Goal] = []
        // A row of an experiment in a layer that the layer's draw lets the profile pass sets no
        // goal (its draw is one of the route's needs).
        for pass in passedByLayer {
            if let key = nodes.layerKeys[pass.row] { goals.append(Goal(node: key, value: !pass.keyless)) }
        }
        for above in 0..<(row ?? rows.count) where (holdout != .heldOut || rows[above].admitsHeldOut) && !passedByLayer.contains(where: { $0.row == above })
            && !(layersLoose && rows[above].guards.contains(where: { if case .layer = $0 { true } else { false } })) {
            // A held-out profile is taken by an assignment nowhere: only by audience and draw.
            goals.append(Goal(node: holdout == .heldOut ? nodes.drawn[above] : nodes.rows[above], value: false))
        }
        if let row {
            if sticky {
                goals.append(Goal(node: step.map { nodes.stickySteps[row][$0] } ?? nodes.sticky[row] ?? nodes.rows[row], value: true))
            } else {
                if holdout != .heldOut, let any = nodes.sticky[row] { goals.append(Goal(node: any, value: false)) }
                goals.append(Goal(node: nodes.drawn[row], value: true))
                if let key = nodes.keys[row] { goals.append(Goal(node: key, value: true)) }
            }
        }
        if let key = graph.programHoldoutKeys[programIndex] {
            switch holdout {
            case .uncovered: break
            case .keyAbsent: goals.append(Goal(node: key, value: false))
            case .notHeld, .heldOut: goals.append(Goal(node: key, value: true))
            }
        }
        return goals
    }

    /// The draws the route needs in placement `index` of `program`: the variant's bucket, and
    /// the holdout's bucket below or from its weight.
    func draws(_ program: Program, placement index: Int) -> [DrawNeed] {
        var needs: [DrawNeed] = []
        if let row, let step, !sticky, let plan = program.placements[index].rows[row].split {
            needs.append(DrawNeed(name: plan.id, field: DrawNeed.field(of: plan.key, in: program), buckets: DrawNeed.buckets(of: plan, step: step)))
        }
        // An experiment in a layer takes only the profiles its share of the layer draws, by
        // an assignment too: two experiments of one layer need disjoint buckets of one draw.
        if let row {
            for rowGuard in program.placements[index].rows[row].guards {
                guard case .layer(let share) = rowGuard else { continue }
                let layer = program.layers[share.layer]
                needs.append(DrawNeed(name: layer.name, field: DrawNeed.field(of: layer.key, in: program), buckets: share.buckets))
            }
        }
        // A row above passed by the layer's draw: drawn outside its share.
        for pass in passedByLayer where !pass.keyless {
            for rowGuard in program.placements[index].rows[pass.row].guards {
                guard case .layer(let share) = rowGuard else { continue }
                let layer = program.layers[share.layer]
                needs.append(DrawNeed(name: layer.name, field: DrawNeed.field(of: layer.key, in: program), buckets: 0..<100, excluded: [share.buckets]))
            }
        }
        if let holdout = program.holdout {
            let field = DrawNeed.field(of: holdout.key, in: program)
            switch self.holdout {
            case .uncovered, .keyAbsent: break
            case .notHeld: needs.append(DrawNeed(name: holdout.name, field: field, buckets: min(holdout.weight, 100)..<100))
            case .heldOut: needs.append(DrawNeed(name: holdout.name, field: field, buckets: 0..<max(0, min(holdout.weight, 100))))
            }
        }
        return needs
    }

    /// Whether `decision` is the route's: the same row and holdout, and the same variant.
    func isTaken(by decision: Decision) -> Bool {
        guard decision.row == row, decision.heldOut == (holdout == .heldOut), decision.isSticky == sticky else { return false }
        return step == nil || ChangeProof.Seen(decision) == seen
    }
}
