import Foundation
import TargetingEngine
import TargetingProfiles

extension RuleSet {
    /// One placement of a rule set, looked up once: its `resolve` and `explain` take no name,
    /// so an app that asks the same placement for many profiles pays for the lookup once.
    ///
    /// ```swift
    /// let followUp = try rules.placement("onboarding_followup")
    /// let decision = try followUp.resolve(for: profile)
    /// ```
    public struct Placement: Sendable {
        /// The placement's name.
        public let name: String
        let program: Program
        let index: Int

        /// What `profile` sees here at `now`, as `RuleSet.resolve(_:for:at:)` answers.
        ///
        /// - Throws: `ResolveError` when a split or an experiment keyed on `profile.id` must
        ///   draw for a profile without `id`.
        public func resolve(for profile: Profile, at now: Date = Date()) throws -> Decision {
            try program.decide(placement: index, for: profile, now: RuleSet.milliseconds(now)).get()
        }

        /// Why `profile` sees what it sees here, as `RuleSet.explain(_:for:at:)` answers.
        ///
        /// - Throws: `ResolveError`, as `resolve` does.
        public func explain(for profile: Profile, at now: Date = Date()) throws -> Explanation {
            try program.explain(placement: index, for: profile, now: RuleSet.milliseconds(now)).get()
        }
    }

    /// The placement named `name`.
    ///
    /// - Throws: `ResolveError.unknownPlacement`, naming the nearest placement.
    public func placement(_ name: String) throws -> Placement {
        Placement(name: name, program: program, index: try placementIndex(name))
    }
}

extension RuleSet.Placement: CustomStringConvertible {
    /// `placement onboarding_followup`.
    public var description: String { "placement \(name)" }
}
