extension Evaluator {
    /// Resolves placement `index`: the first row whose audience matches decides.
    public mutating func resolve(placement index: Int, profileID: String?) -> Result<Decision, ResolveError> {
        let placement = program.placements[index]
        var decision = Decision(placement: placement.name, profileID: profileID)
        for (rowIndex, row) in placement.rows.enumerated() {
            if let audience = row.audience, !audienceMatches(audience) { continue }
            decision.row = rowIndex
            decision.audience = row.source.audience.name
            switch Evaluator.outcome(of: row.source.destination, profileID: profileID) {
            case .failure(let error): return .failure(error)
            case .success(let (outcome, split)):
                decision.outcome = outcome
                decision.split = split
            }
            return .success(decision)
        }
        return .success(decision)
    }

    /// The outcome of a destination, drawing a split variant by Adapty's algorithm.
    static func outcome(of destination: Destination, profileID: String?) -> Result<(Outcome, String?), ResolveError> {
        switch destination {
        case .flow(let id, _): return .success((.flow(id), nil))
        case .paywall(let id, _): return .success((.paywall(id), nil))
        case .nothing: return .success((.nothing, nil))
        case .split(let split):
            guard let profileID else {
                return .failure(ResolveError(message: "profile has no `id`, so split `\(split.id)` cannot choose a variant"))
            }
            let variants = split.variants.map { (weight: Evaluator.weight($0), sortKey: Checker.destinationKey($0.destination)) }
            let chosen = SplitDraw.chooseVariant(splitID: split.id, profileID: profileID, variants: variants)
            switch outcome(of: split.variants[chosen].destination, profileID: profileID) {
            case .success(let (outcome, _)): return .success((outcome, split.id))
            case .failure(let error): return .failure(error)
            }
        }
    }

    static func weight(_ variant: SplitVariant) -> Int {
        if case .number(let value) = variant.weight.value, value.isFinite, value >= 0, value <= 100 { return Int(value) }
        return 0
    }
}

extension Decision {
    init(placement: String, profileID: String?) {
        self.init(placement: placement, profileID: profileID, row: nil, audience: nil, outcome: nil, split: nil)
    }
}
