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
    var segmentResults: [Bool?]

    /// Prepares evaluation of `profile` at `now` (Unix ms).
    package init(program: Program, profile: Profile, now: Int64) {
        self.program = program
        self.now = now
        self.values = program.slots.map { $0.read(from: profile, now: now) }
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

    /// Runs one comparison with the two-valued semantics of SPEC §4.4.
    func run(_ test: CompiledTest) -> Bool {
        let value = value(of: test)
        if case .isSet = test.kind { return value.isPresent != test.negated }
        guard let result = Evaluator.compare(value, test.kind, now: now) else { return false }
        return result != test.negated
    }

    /// The outcome of a test on a value, or nil when the value is missing or does not fit.
    package static func compare(_ value: SlotValue, _ kind: CompiledTest.Kind, now: Int64) -> Bool? {
        switch (kind, value) {
        case (.stringEquals(let literal, let fold), .string(let text)):
            return ByteText.equals(fold ? CaseFolding.lowercase(text) : text, literal)
        case (.stringIn(let literals, let fold), .string(let text)):
            return literals.containsExactly(fold ? CaseFolding.lowercase(text) : text)
        case (.contains(let literal, let fold), .string(let text)):
            return ByteText.contains(fold ? CaseFolding.lowercase(text) : text, literal)
        case (.startsWith(let literal, let fold), .string(let text)):
            return ByteText.hasPrefix(fold ? CaseFolding.lowercase(text) : text, literal)
        case (.endsWith(let literal, let fold), .string(let text)):
            return ByteText.hasSuffix(fold ? CaseFolding.lowercase(text) : text, literal)
        case (.numberEquals(let literal), .number(let number)):
            return number == literal
        case (.numberOrder(let ordering, let literal), .number(let number)):
            return ordering.holds(number, literal)
        case (.numberBetween(let low, let high), .number(let number)):
            return low <= number && number <= high
        case (.numberIn(let literals), .number(let number)):
            return literals.contains(number)
        case (.boolEquals(let literal), .bool(let flag)):
            return flag == literal
        case (.dateEquals(let literal), .date(let ms)):
            return ms == literal.at(now)
        case (.dateOrder(let ordering, let literal), .date(let ms)):
            return ordering.holds(ms, literal.at(now))
        case (.dateBetween(let low, let high), .date(let ms)):
            return low.at(now) <= ms && ms <= high.at(now)
        case (.versionEquals(let literal), .version(let version)):
            return version == literal
        case (.versionOrder(let ordering, let literal), .version(let version)):
            return ordering.holds(version, literal)
        case (.versionBetween(let low, let high), .version(let version)):
            return low <= version && version <= high
        case (.versionIn(let literals), .version(let version)):
            return literals.contains(version)
        case (.has(let literal, let fold), .set(let members)):
            return members.contains { ByteText.equals(fold ? CaseFolding.lowercase($0) : $0, literal) }
        case (.hasAny(let literals, let fold), .set(let members)):
            return members.contains { literals.containsExactly(fold ? CaseFolding.lowercase($0) : $0) }
        case (.hasAll(let literals, let fold), .set(let members)):
            let folded = fold ? members.map { CaseFolding.lowercase($0) } : members
            return literals.allSatisfy { literal in folded.contains { ByteText.equals($0, literal) } }
        case (.hasNone(let literals, let fold), .set(let members)):
            return !members.contains { literals.containsExactly(fold ? CaseFolding.lowercase($0) : $0) }
        default:
            return nil
        }
    }
}
