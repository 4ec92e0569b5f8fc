import TargetingSyntax

/// A compiled prerequisite, `placement P -> OUTCOME`: which of P's choices it accepts.
package struct PrerequisiteTest: Hashable, Sendable {
    /// The placement asked about.
    package let placement: Int
    /// Per row of the placement: whether each of its decisions is accepted (one entry for a
    /// fixed destination, one per variant for a draw).
    package let accepts: [[Bool]]
    /// Whether no match is accepted.
    package let acceptsNoMatch: Bool
    /// The prerequisite as written.
    package let source: Prerequisite

    /// Compiles `source` against the decision plan of the placement it names.
    package init(_ source: Prerequisite, placement index: Int, plan: DecisionPlan) {
        placement = index
        self.source = source
        func accepted(_ destination: Destination, experiment: String?, variant: String?) -> Bool {
            source.outcomes.contains { outcome in
                switch outcome {
                case .destination(let wanted): PrerequisiteTest.same(wanted, destination)
                case .noMatch: false
                case .variant(let wantedExperiment, let wantedVariant): wantedExperiment.text == experiment && wantedVariant.text == variant
                }
            }
        }
        accepts = plan.rows.map { row in
            switch row.action {
            case .show(let destination): [accepted(destination, experiment: nil, variant: nil)]
            case .draw(let split):
                split.steps.map { accepted($0.destination, experiment: split.isExperiment ? split.id : nil, variant: $0.variant) }
            }
        }
        acceptsNoMatch = source.outcomes.contains { if case .noMatch = $0 { true } else { false } }
    }

    /// Whether the placement's `choice` is one of the outcomes.
    @inline(__always)
    package func holds(_ choice: Choice) -> Bool {
        guard let row = choice.row else { return acceptsNoMatch }
        return accepts[row][choice.step ?? 0]
    }

    /// Whether two fixed destinations show the same (`flow`, `paywall` or `nothing`, by id).
    static func same(_ a: Destination, _ b: Destination) -> Bool {
        switch (a, b) {
        case (.flow(let x, _), .flow(let y, _)), (.paywall(let x, _), .paywall(let y, _)): x == y
        case (.nothing, .nothing): true
        case (.flow, _), (.paywall, _), (.nothing, _), (.split, _), (.experiment, _): false
        }
    }
}

/// What one evaluation knows of a placement a prerequisite asks about.
package enum PlacementMemo: Sendable {
    /// Not decided yet.
    case unknown
    /// Deciding failed (a draw on `profile.id` without one): every prerequisite on it is false.
    case failed
    /// Decided.
    case chosen(Choice)

    init(_ result: Result<Choice, ResolveError>) {
        switch result {
        case .success(let choice): self = .chosen(choice)
        case .failure: self = .failed
        }
    }

    /// Whether the placement has not been decided yet.
    var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }

    /// Whether `test` holds: the decision is one of its outcomes (false when deciding failed).
    func satisfies(_ test: PrerequisiteTest) -> Bool {
        guard case .chosen(let choice) = self else { return false }
        return test.holds(choice)
    }
}
