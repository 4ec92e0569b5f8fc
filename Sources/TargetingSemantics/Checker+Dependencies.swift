import TargetingBase
import TargetingSyntax

/// Rules that depend on rules: prerequisites (`placement P -> OUTCOME`), the cycles they can
/// close through segments and audiences, and layers of experiments.
extension Checker {
    /// Each prerequisite of a segment names a declared placement and outcomes it can give; an
    /// audience holds none.
    mutating func checkPrerequisites() {
        for audience in audienceOrder {
            for prerequisite in audience.expression.prerequisites {
                report(.prerequisiteInAudience(at: prerequisite.range))
            }
        }
        for segment in segmentOrder {
            for prerequisite in segment.expression.prerequisites { checkPrerequisite(prerequisite) }
        }
    }

    private mutating func checkPrerequisite(_ prerequisite: Prerequisite) {
        let name = prerequisite.placement
        guard let placement = placements[name.text] else {
            if isUnparsed(name.text, .placement) { return }
            if segments[name.text] != nil {
                report(.wrongKindOfName(name.text, is: "segment", expected: "placement", at: name.range))
            } else if audiences[name.text] != nil {
                report(.wrongKindOfName(name.text, is: "audience", expected: "placement", at: name.range))
            } else if experiments[name.text] != nil {
                report(.wrongKindOfName(name.text, is: "experiment", expected: "placement", at: name.range))
            } else {
                report(.unknownPlacement(name.text, suggestion: SuggestionIndex(placementOrder.map(\.name.text)).nearest(to: name.text), at: name.range))
            }
            return
        }
        let layered = Set(layerOrder.flatMap { $0.members.map(\.experiment.text) })
        let gives = PlacementOutcomes(placement) { experiment in
            // A draw on a key other than `profile.id`, or from a layer, can let a profile pass.
            layered.contains(experiment) || (self.experiments[experiment]?.key.map { $0.target != .builtin("id") } ?? false)
        }
        var listed: [String: SourceRange] = [:]
        for outcome in prerequisite.outcomes {
            let written = outcome.description
            if let first = listed[written] {
                report(.repeatedOutcome(written, first: first, at: outcome.range))
                continue
            }
            listed[written] = outcome.range
            switch outcome {
            case .destination(let destination):
                guard !gives.destinations.contains(written) else { continue }
                if case .nothing = destination {
                    report(.outcomeNeverGiven(written, placement: name.text, suggestion: nil, at: outcome.range))
                } else {
                    let suggestion = Suggestion.nearest(to: written, in: gives.destinations.filter { $0 != "nothing" })
                    report(.outcomeNeverGiven(written, placement: name.text, suggestion: suggestion, at: outcome.range))
                }
            case .noMatch:
                if !gives.canMiss { report(.placementAlwaysDecides(name.text, at: outcome.range)) }
            case .variant(let experimentName, let variant):
                guard let experiment = experiments[experimentName.text] else {
                    if isUnparsed(experimentName.text, .experiment) { continue }
                    report(.unknownExperiment(experimentName.text, suggestion: Suggestion.nearest(to: experimentName.text, in: experimentOrder.map(\.name.text)),
                                              at: experimentName.range))
                    continue
                }
                let variants = experiment.variants.map(\.name.text)
                guard variants.contains(variant.text) else {
                    report(.unknownVariant(variant.text, experiment: experimentName.text, suggestion: Suggestion.nearest(to: variant.text, in: variants),
                                           at: variant.range))
                    continue
                }
                if !gives.experiments.contains(experimentName.text) {
                    report(.experimentNotDrawn(experimentName.text, placement: name.text, at: experimentName.range))
                }
            }
        }
    }

    /// Reports each cycle that runs through a placement: its rows use an audience whose
    /// segments, directly or through other segments and placements, ask about the placement
    /// itself. Reported once per cycle, at the prerequisite that closes it, with the path.
    mutating func checkPlacementCycles() {
        let graph = DependencyGraph(placements: placementOrder, audiences: audiences, segments: segments)
        for cycle in graph.cycles() {
            report(.placementCycle(path: cycle.path, at: cycle.closing))
        }
    }

    /// `layer NAME [by KEY] { WEIGHT% EXPERIMENT … }`: 1 to 20 declared experiments, each in
    /// one layer only, with whole weights from 1 to 100 adding up to at most 100.
    mutating func checkLayers() {
        var layerOf: [String: SourceRange] = [:]
        for layer in layerOrder {
            if let key = layer.key { checkKey(key) }
            if layer.members.isEmpty || layer.members.count > Checker.maxLayerExperiments {
                report(.layerSize(layer.members.count, at: layer.name.range))
            }
            var total = 0
            var valid = true
            for member in layer.members {
                if let value = Checker.weightValue(member.weight) {
                    total += value
                } else {
                    report(.invalidWeight(member.weight.text, at: member.weight.range))
                    valid = false
                }
                let name = member.experiment
                guard experiments[name.text] != nil else {
                    if isUnparsed(name.text, .experiment) { continue }
                    report(.unknownExperiment(name.text, suggestion: Suggestion.nearest(to: name.text, in: experimentOrder.map(\.name.text)), at: name.range))
                    continue
                }
                if let first = layerOf[name.text] {
                    report(.experimentInTwoLayers(name.text, first: first, at: name.range))
                } else {
                    layerOf[name.text] = name.range
                }
            }
            if valid, total > 100 {
                report(.layerWeightsSum(total, at: layer.name.range))
            }
        }
    }

    /// The most experiments one layer holds.
    static let maxLayerExperiments = 20
}

/// What a placement can decide, read from its rows: the destinations its rows and variants
/// show, the experiments they draw, and whether a profile can pass every row.
struct PlacementOutcomes {
    /// Every destination as written (`flow "a"`, `nothing`).
    var destinations: [String] = []
    /// The experiments its rows draw.
    var experiments: Set<String> = []
    /// Whether no row is sure to take every profile: there is no `everyone` row, or it draws
    /// on a key a profile may lack, or from a layer.
    var canMiss = true

    /// Reads `placement`'s rows; `experimentCanPass` says whether a profile can pass an
    /// `everyone` row of that experiment.
    init(_ placement: PlacementDeclaration, experimentCanPass: (String) -> Bool) {
        for row in placement.rows {
            for destination in Checker.leafDestinations(row.destination) {
                switch destination {
                case .flow, .paywall, .nothing:
                    let written = destination.description
                    if !destinations.contains(written) { destinations.append(written) }
                case .split, .experiment:
                    break
                }
            }
            switch row.destination {
            case .experiment(let used): experiments.insert(used.experiment.text)
            case .flow, .paywall, .nothing, .split: break
            }
            guard case .everyone = row.audience else { continue }
            switch row.destination {
            case .flow, .paywall, .nothing: canMiss = false
            case .split(let split): canMiss = split.key.map { $0.target != .builtin("id") } ?? false
            case .experiment(let used): canMiss = experimentCanPass(used.experiment.text)
            }
        }
    }
}
