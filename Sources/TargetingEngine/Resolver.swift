import TargetingSyntax

extension Evaluator {
    /// Resolves placement `index`: the first row whose audience matches decides.
    package mutating func resolve(placement index: Int, profileID: String?) -> Result<Decision, ResolveError> {
        let placement = program.placements[index]
        var decision = Decision(placement: placement.name, profileID: profileID)
        for (rowIndex, row) in placement.rows.enumerated() {
            if let audience = row.audience, !audienceMatches(audience) { continue }
            decision.row = rowIndex
            decision.audience = row.source.audience.name
            switch Evaluator.outcome(of: row.source.destination, split: row.split, profileID: profileID) {
            case .failure(let error): return .failure(error)
            case .success(let (outcome, split)):
                decision.outcome = outcome
                decision.split = split
            }
            return .success(decision)
        }
        return .success(decision)
    }

    /// The outcome of a row's destination; a split draws its variant from the row's prepared plan.
    static func outcome(of destination: Destination, split: SplitPlan?, profileID: String?) -> Result<(Outcome, String?), ResolveError> {
        switch destination {
        case .flow(let id, _): return .success((.flow(id), nil))
        case .paywall(let id, _): return .success((.paywall(id), nil))
        case .nothing: return .success((.nothing, nil))
        case .split(let source):
            guard let profileID else {
                return .failure(.splitNeedsProfileID(split: source.id))
            }
            let plan = split ?? SplitPlan(source)
            switch plan.destination(forProfileID: profileID) {
            case .flow(let id, _): return .success((.flow(id), plan.id))
            case .paywall(let id, _): return .success((.paywall(id), plan.id))
            default: return .success((.nothing, plan.id))
            }
        }
    }
}

extension Decision {
    init(placement: String, profileID: String?) {
        self.init(placement: placement, profileID: profileID, row: nil, audience: nil, outcome: nil, split: nil)
    }
}
