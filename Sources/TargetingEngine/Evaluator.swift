import TargetingBase
import TargetingProfiles

/// Evaluates compiled conditions for one profile at one instant.
///
/// Slots are read from the profile once, on creation; segment results are remembered, so each
/// segment is evaluated at most once per profile.
package struct Evaluator {
    let program: Program
    /// The instant of evaluation (Unix ms).
    package let now: Int64
    /// The profile's slot values.
    package let values: [SlotValue]
    /// What the profile was shown, for sticky experiments.
    package let history: ProfileHistory?
    /// The profile's id, which draws on `profile.id` read.
    package let profileID: String?
    var segmentResults: [Bool?]
    /// Per placement: its decision, once a prerequisite asked about it.
    var decided: [PlacementMemo]

    /// Prepares evaluation of `profile` at `now` (Unix ms).
    package init(program: Program, profile: Profile, now: Int64) {
        self.program = program
        self.now = now
        self.values = program.slots.map { $0.read(from: profile, now: now) }
        self.history = profile.history
        self.profileID = profile.id
        self.segmentResults = Array(repeating: nil, count: program.segments.count)
        self.decided = Array(repeating: .unknown, count: program.prerequisites.isEmpty ? 0 : program.placements.count)
    }

    /// Decides each of `placements` not decided yet, in order (each after those it depends
    /// on), so the prerequisites asking about them can be read.
    mutating func settle(_ placements: [Int]) {
        for placement in placements where decided[placement].isUnknown {
            decided[placement] = PlacementMemo(choose(placement: placement, profileID: profileID))
        }
    }

    /// Whether prerequisite `index` holds: its placement is decided (once) for this profile.
    package mutating func prerequisiteHolds(_ index: Int) -> Bool {
        let test = program.prerequisites[index]
        settle(program.placementDependencies[test.placement] + [test.placement])
        return decided[test.placement].satisfies(test)
    }

    /// Whether the audience at `index` matches.
    package mutating func audienceMatches(_ index: Int) -> Bool {
        let audience = program.audiences[index]
        if !audience.placementOrder.isEmpty { settle(audience.placementOrder) }
        for segment in audience.segmentOrder where segmentResults[segment] == nil {
            segmentResults[segment] = evaluate(program.segments[segment].condition)
        }
        return evaluate(audience.condition)
    }

    /// Whether the segment at `index` matches.
    package mutating func segmentMatches(_ index: Int) -> Bool {
        if let known = segmentResults[index] { return known }
        let order = program.dependencyOrder(of: program.ruleSet.segments[index].expression) + [index]
        if !program.prerequisites.isEmpty { settle(program.placementsNeeded(bySegments: order)) }
        for segment in order where segmentResults[segment] == nil {
            segmentResults[segment] = evaluate(program.segments[segment].condition)
        }
        return segmentResults[index] ?? false
    }

    /// Evaluates a condition whose segments are already known.
    func evaluate(_ condition: Condition) -> Bool {
        switch condition {
        case .and(let items):
            for item in items where !evaluate(item) { return false }
            return true
        case .or(let items):
            for item in items where evaluate(item) { return true }
            return false
        case .not(let inner):
            return !evaluate(inner)
        case .segment(let index):
            return segmentResults[index] ?? false
        case .test(let test):
            return run(test)
        case .prerequisite(let index):
            let test = program.prerequisites[index]
            return decided[test.placement].satisfies(test)
        }
    }

    /// The value a test looks at.
    func value(of test: CompiledTest) -> SlotValue {
        test.slot < 0 ? .date(now) : values[test.slot]
    }

    /// Runs one comparison with the two-valued semantics (README, *Segments and audiences*).
    func run(_ test: CompiledTest) -> Bool {
        test.holds(value(of: test), now: now)
    }

    /// The outcome of a test on a value before negation: for `is set`, whether the value is
    /// present (fitting or not); for every other test, nil when the value is missing or does
    /// not fit its type.
    package static func compare(_ value: SlotValue, _ kind: CompiledTest.Kind, now: Int64) -> Bool? {
        switch kind {
        case .presence:
            return value.isPresent
        case .text(let test, let fold):
            guard case .string(let text) = value else { return nil }
            return test.holds(text, fold: fold)
        case .number(let test):
            guard case .number(let number) = value else { return nil }
            return test.holds(number)
        case .bool(let literal):
            guard case .bool(let flag) = value else { return nil }
            return flag == literal
        case .date(let test):
            guard case .date(let ms) = value else { return nil }
            return test.holds(ms, now: now)
        case .version(let test):
            guard case .version(let version) = value else { return nil }
            return test.holds(version)
        case .members(let test, let fold):
            guard case .set(let members) = value else { return nil }
            return test.holds(members, fold: fold)
        }
    }
}
