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
    var segmentResults: [Bool?]

    /// Prepares evaluation of `profile` at `now` (Unix ms).
    package init(program: Program, profile: Profile, now: Int64) {
        self.program = program
        self.now = now
        self.values = program.slots.map { $0.read(from: profile, now: now) }
        self.history = profile.history
        self.segmentResults = Array(repeating: nil, count: program.segments.count)
    }

    /// Whether the audience at `index` matches.
    package mutating func audienceMatches(_ index: Int) -> Bool {
        let audience = program.audiences[index]
        for segment in audience.segmentOrder where segmentResults[segment] == nil {
            segmentResults[segment] = evaluate(program.segments[segment].condition)
        }
        return evaluate(audience.condition)
    }

    /// Whether the segment at `index` matches.
    package mutating func segmentMatches(_ index: Int) -> Bool {
        if let known = segmentResults[index] { return known }
        let order = program.dependencyOrder(of: program.ruleSet.segments[index].expression) + [index]
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
        case .stringEquals(let literal, let fold):
            guard case .string(let text) = value else { return nil }
            return ByteText.equals(fold ? CaseFolding.lowercase(text) : text, literal)
        case .stringIn(let literals, let fold):
            guard case .string(let text) = value else { return nil }
            return literals.containsExactly(fold ? CaseFolding.lowercase(text) : text)
        case .contains(let literal, let fold):
            guard case .string(let text) = value else { return nil }
            return ByteText.contains(fold ? CaseFolding.lowercase(text) : text, literal)
        case .startsWith(let literal, let fold):
            guard case .string(let text) = value else { return nil }
            return ByteText.hasPrefix(fold ? CaseFolding.lowercase(text) : text, literal)
        case .endsWith(let literal, let fold):
            guard case .string(let text) = value else { return nil }
            return ByteText.hasSuffix(fold ? CaseFolding.lowercase(text) : text, literal)
        case .matches(let pattern):
            guard case .string(let text) = value else { return nil }
            return pattern.matches(text)
        case .numberEquals(let literal):
            guard case .number(let number) = value else { return nil }
            return number == literal
        case .numberOrder(let ordering, let literal):
            guard case .number(let number) = value else { return nil }
            return ordering.holds(number, literal)
        case .numberBetween(let low, let high):
            guard case .number(let number) = value else { return nil }
            return low <= number && number <= high
        case .numberIn(let literals):
            guard case .number(let number) = value else { return nil }
            return literals.contains(number)
        case .boolEquals(let literal):
            guard case .bool(let flag) = value else { return nil }
            return flag == literal
        case .dateEquals(let literal):
            guard case .date(let ms) = value else { return nil }
            return ms == literal.at(now)
        case .dateOrder(let ordering, let literal):
            guard case .date(let ms) = value else { return nil }
            return ordering.holds(ms, literal.at(now))
        case .dateBetween(let low, let high):
            guard case .date(let ms) = value else { return nil }
            return low.at(now) <= ms && ms <= high.at(now)
        case .versionEquals(let literal):
            guard case .version(let version) = value else { return nil }
            return version == literal
        case .versionOrder(let ordering, let literal):
            guard case .version(let version) = value else { return nil }
            return ordering.holds(version, literal)
        case .versionBetween(let low, let high):
            guard case .version(let version) = value else { return nil }
            return low <= version && version <= high
        case .versionIn(let literals):
            guard case .version(let version) = value else { return nil }
            return literals.contains(version)
        case .has(let literal, let fold):
            guard case .set(let members) = value else { return nil }
            return members.contains { ByteText.equals(fold ? CaseFolding.lowercase($0) : $0, literal) }
        case .hasAny(let literals, let fold):
            guard case .set(let members) = value else { return nil }
            return members.contains { literals.containsExactly(fold ? CaseFolding.lowercase($0) : $0) }
        case .hasAll(let literals, let fold):
            guard case .set(let members) = value else { return nil }
            let folded = fold ? members.map { CaseFolding.lowercase($0) } : members
            return literals.allSatisfy { literal in folded.contains { ByteText.equals($0, literal) } }
        case .hasNone(let literals, let fold):
            guard case .set(let members) = value else { return nil }
            return !members.contains { literals.containsExactly(fold ? CaseFolding.lowercase($0) : $0) }
        case .isSet:
            return value.isPresent
        }
    }
}
