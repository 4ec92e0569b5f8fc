import TargetingBase

/// One decision a prerequisite accepts: `flow "ID"`, `paywall "ID"`, `nothing`, `no match` or
/// `EXPERIMENT.VARIANT`.
package enum PrerequisiteOutcome: Hashable, Sendable {
    /// `flow "ID"`, `paywall "ID"` or `nothing` (never a split or an experiment).
    case destination(Destination)
    /// `no match`: no row of the placement took the profile.
    case noMatch(SourceRange)
    /// `EXPERIMENT.VARIANT`: a row of the experiment decided, with this variant.
    case variant(experiment: Identifier, variant: Identifier)

    /// Where it is written.
    package var range: SourceRange {
        switch self {
        case .destination(let destination): destination.range
        case .noMatch(let range): range
        case .variant(let experiment, let variant): SourceRange(file: experiment.range.file, start: experiment.range.start, end: variant.range.end)
        }
    }
}

extension PrerequisiteOutcome: CustomStringConvertible {
    /// As written in rules: `flow "ID"`, `nothing`, `no match` or `EXPERIMENT.VARIANT`.
    package var description: String {
        switch self {
        case .destination(let destination): destination.description
        case .noMatch: PrerequisiteOutcome.noMatchText
        case .variant(let experiment, let variant): experiment.text + "." + variant.text
        }
    }

    /// How `no match` is written.
    package static let noMatchText = "no match"
}

/// `placement P -> OUTCOME` or `placement P -> [OUTCOME, …]`: true when placement P, decided for
/// the same profile at the same instant with the same history, gives one of the outcomes.
package struct Prerequisite: Hashable, Sendable {
    /// The placement whose decision is asked about.
    package var placement: Identifier
    /// The outcomes accepted, in the order written.
    package var outcomes: [PrerequisiteOutcome]
    /// Whether the outcomes were written as a list in brackets.
    package var isList: Bool
    /// The whole condition, from `placement`.
    package var range: SourceRange

    package init(placement: Identifier, outcomes: [PrerequisiteOutcome], isList: Bool, range: SourceRange) {
        self.placement = placement
        self.outcomes = outcomes
        self.isList = isList
        self.range = range
    }

    /// As written in rules, with single spaces.
    package var text: String {
        let outcomes = isList ? "[" + self.outcomes.map(\.description).joined(separator: ", ") + "]" : self.outcomes.map(\.description).joined()
        return "placement " + placement.text + " -> " + outcomes
    }
}
