import TargetingBase
import TargetingProfiles

/// Why each row of a placement matched or not, and what was decided (`resolve --explain`).
///
/// Its `description` is the text of `resolve --explain`.
public struct Explanation: Hashable, Sendable {
    /// One row of the placement.
    public struct Row: Hashable, Sendable {
        /// The audience name (`everyone` for that row).
        public package(set) var audience: String
        /// The destination as written.
        public package(set) var destination: String
        /// Whether the audience matched.
        public package(set) var matched: Bool
        /// Whether this row decided.
        public package(set) var decided: Bool
        /// For a row that did not match: the first condition that failed.
        public package(set) var failure: Failure?
        /// For a row that did not match, every comparison that kept it from matching: each
        /// failing term of an `or` (nested ones included), the first failing term of an `and`.
        /// `failure` is the first of them.
        package var failures: [Failure] = []
        /// For a row that matched: the comparisons that made each `or` on the way hold (its first
        /// term that held, nested ones included); empty when no `or` was needed.
        package var held: [Failure] = []
        /// Where the row is written.
        package var range: SourceRange
        /// For a split or experiment row whose audience matched: the draw, e.g. `bucket 37 of
        /// "pricing_q4-c1" -> discount`, or why the profile does not enter; for a row a held-out
        /// profile skips, that it was skipped.
        public package(set) var draw: String? = nil
        /// Whether the row is an `always` row (it applies to held-out profiles, too).
        public package(set) var always = false
    }

    /// The condition that kept a row from matching.
    public struct Failure: Hashable, Sendable {
        /// The segment the failing comparison belongs to.
        public package(set) var segment: String
        /// The attribute (`profile.age`, `experience`, `now`).
        public package(set) var attribute: String
        /// The actual value as text, or "missing".
        public package(set) var actual: String
        /// The comparison as written.
        public package(set) var comparison: String
        /// The comparison's actual truth value (false, or true where the row needed it false).
        public package(set) var holds: Bool
        /// Where the comparison is written.
        package var range: SourceRange
        /// When the segment is used negated (`not dedicated`): that text, whose truth is the
        /// opposite of the segment's.
        package var negation: String?
        /// The truth of `negation`.
        package var negationHolds = false
    }

    /// Every row in order.
    public package(set) var rows: [Row]
    /// What was decided.
    public package(set) var decision: Decision
    /// The holdout's draw, when the rule set has a holdout covering this placement:
    /// `holdout q4_holdout: bucket 3 of "q4_holdout-u1" < 5%, held out`.
    public package(set) var holdout: String? = nil
}

extension Program {
    /// Resolves placement `index` for `profile` at `now` (Unix ms) and explains the decision:
    /// what `resolve --explain` prints.
    package func explain(placement index: Int, for profile: Profile, now: Int64) -> Result<Explanation, ResolveError> {
        var evaluator = Evaluator(program: self, profile: profile, now: now)
        switch evaluator.resolve(placement: index, profileID: profile.id) {
        case .failure(let error): return .failure(error)
        case .success(let decision): return .success(evaluator.explain(decision, profile: profile))
        }
    }
}

extension Evaluator {
    /// Explains how `decision` (resolved for this profile) came about, row by row.
    package mutating func explain(_ decision: Decision, profile: Profile) -> Explanation {
        let index = program.placementIndex(named: decision.placement)!
        let decidedRow = decision.row
        let placement = program.placements[index]
        var rows: [Explanation.Row] = []
        let heldOut = decision.heldOut
        for (rowIndex, row) in placement.rows.enumerated() {
            var matched = true
            var reasons: [Explanation.Failure] = []
            var skipped = false, keyAbsent = false
            var outsideLayer: String?
            for rowGuard in row.guards {
                switch rowGuard {
                case .notHeldOut:
                    skipped = heldOut
                case .layer(let share):
                    if !skipped, outsideLayer == nil { outsideLayer = describeLayer(share, experiment: row.split?.id ?? "", profileID: decision.profileID) }
                case .assignment:
                    break  // the decision says whether an assignment took the row
                case .audience(let audience):
                    matched = audienceMatches(audience)
                    reasons = self.reasons(program.audiences[audience].condition, expected: true, segment: program.audiences[audience].name, profile: profile)
                case .key(let slot):
                    keyAbsent = drawInput(.slot(slot), profileID: decision.profileID) == .absent
                }
            }
            var draw: String?
            if skipped {
                draw = "skipped: held out by \(program.holdout?.name ?? "")"
            } else if matched, let outsideLayer {
                draw = outsideLayer
            } else if rowIndex == decidedRow, decision.isSticky, let plan = row.split {
                draw = describeSticky(plan)
            } else if matched, let plan = row.split, rowIndex == decidedRow || keyAbsent {
                draw = describeDraw(plan, profileID: decision.profileID)
            }
            var explained = Explanation.Row(audience: row.source.audience.name, destination: row.source.destination.description,
                                            matched: matched, decided: rowIndex == decidedRow, failure: matched ? nil : reasons.first,
                                            range: row.source.range, draw: draw, always: row.source.always != nil)
            if matched { explained.held = reasons } else { explained.failures = reasons }
            rows.append(explained)
        }
        var explanation = Explanation(rows: rows, decision: decision)
        if let holdout = program.holdout, placement.isCoveredByHoldout {
            explanation.holdout = "holdout \(holdout.name) \(holdout.weight)%: " + describeHoldout(holdout, profileID: decision.profileID)
        }
        return explanation
    }

    /// A split's or experiment's draw for this profile, as `--explain` shows it.
    func describeDraw(_ plan: SplitPlan, profileID: String?) -> String {
        let keyName = keyName(plan.key)
        switch drawInput(plan.key, profileID: profileID) {
        case .value(let value):
            let step = plan.step(forKeyValue: value)
            let bucket = SplitDraw.bucket(splitID: plan.id, profileID: value)
            let chosen = plan.steps[step].variant ?? Outcome(plan.steps[step].destination)?.description ?? "nothing"
            let on = plan.key == .profileID ? "" : " on \(keyName) \(JSONWriter.write(.string(value)))"
            return "bucket \(bucket)\(on) -> \(chosen)"
        case .absent:
            return "does not enter: no \(keyTarget(plan.key).bareName)"
        case .missingProfileID:
            return "cannot draw: no id"
        }
    }

    /// Why a profile does not enter an experiment of a layer, as `--explain` shows it
    /// (`outside price_2025's share of layer paywall_tests (r = 57)`); nil when it enters.
    func describeLayer(_ share: LayerGuard, experiment: String, profileID: String?) -> String? {
        let layer = program.layers[share.layer]
        guard let bucket = layer.bucket(drawInput(layer.key, profileID: profileID)) else {
            return "does not enter: no \(keyTarget(layer.key).bareName) for layer \(layer.name)"
        }
        return share.buckets.contains(bucket) ? nil : "outside \(experiment)'s share of layer \(layer.name) (r = \(bucket))"
    }

    /// The assignment that decided a sticky experiment's row, as `--explain` shows it:
    /// `sticky: assigned discount at 2026-11-20T09:00:00Z (sticky 90d)`.
    func describeSticky(_ plan: SplitPlan) -> String {
        guard let assignment = history?.assignment(of: plan.id), let sticky = plan.sticky else { return "sticky" }
        return "sticky: assigned \(assignment.variant) at \(Timestamp.format(assignment.at)) (sticky \(SubjectTarget.durationText(sticky)))"
    }

    /// The holdout's draw for this profile, as `--explain` shows it.
    func describeHoldout(_ holdout: HoldoutPlan, profileID: String?) -> String {
        switch drawInput(holdout.key, profileID: profileID) {
        case .value(let value):
            let bucket = SplitDraw.bucket(splitID: holdout.name, profileID: value)
            let on = holdout.key == .profileID ? "" : " on \(keyName(holdout.key)) \(JSONWriter.write(.string(value)))"
            return "bucket \(bucket)\(on)" + (bucket < holdout.weight ? " < \(holdout.weight), held out" : ", not held out")
        case .absent, .missingProfileID:
            return "not drawn: no \(keyTarget(holdout.key).bareName), not held out"
        }
    }

    /// How a key is written in rules: `profile.id`, `profile.customer_user_id`, `account`.
    func keyName(_ key: DrawKey) -> String { keyTarget(key).written }

    /// The attribute a key reads: `profile.id`, or a slot's attribute.
    func keyTarget(_ key: DrawKey) -> SubjectTarget {
        switch key {
        case .profileID: .builtin("id")
        case .slot(let slot): program.slots[slot].target
        }
    }

    /// The most comparisons `reasons` gives for one condition: enough for any hand-written
    /// rule, and a bound for a generated one whose segments repeat each other.
    static let reasonLimit = 32

    /// The comparisons that settle `condition`'s value, in rule order: when it differs from
    /// `expected`, every one that made it differ (each failing term of an `or`, and of an `and`
    /// the first failing term); when it is `expected`, the comparisons by which each `or` on the
    /// way held (its first term that held). Under `not`, `and` and `or` trade places. Referenced
    /// segments are followed, each once; a comparison reached twice is given once; at most
    /// `reasonLimit`.
    ///
    /// Walks with a stack of its own, not recursion, so a long chain of segments (`s2 = s1`,
    /// `s3 = s2`, …) cannot exhaust the call stack.
    package mutating func reasons(_ condition: Condition, expected: Bool, segment: String, profile: Profile) -> [Explanation.Failure] {
        struct Pending {
            var condition: Condition
            var expected: Bool
            var segment: String
            /// The innermost `not SEGMENT` on the path, which names a comparison's negation.
            var negation: (text: String, holds: Bool)?
            /// Whether an `or` chose this term because it held (so its comparisons explain a match).
            var chosen: Bool
        }
        let differs = evaluate(condition) != expected
        var stack = [Pending(condition: condition, expected: expected, segment: segment, negation: nil, chosen: false)]
        var found: [Explanation.Failure] = []
        var seen = Set<SourceRange>()
        // A segment walked once is not walked again in the same way: rules whose segments
        // refer to each other twice (`s2 = s1 or s1`, …) would otherwise take exponential time.
        struct Visit: Hashable {
            var segment: Int
            var expected: Bool
            var chosen: Bool
        }
        var walked = Set<Visit>()
        while var pending = stack.popLast(), found.count < Evaluator.reasonLimit {
            switch pending.condition {
            case .and(let items), .or(let items):
                var isOr = false
                if case .or = pending.condition { isOr = true }
                // An `or` needed true (an `and` needed false) holds by any one term.
                let anyTerm = isOr == pending.expected
                let next: [Condition]
                if differs {
                    // Every term differs under an any-term node; under the other, the first that does.
                    next = anyTerm ? items : items.first { evaluate($0) != pending.expected }.map { [$0] } ?? []
                } else if anyTerm {
                    next = items.first { evaluate($0) == pending.expected }.map { [$0] } ?? []
                    pending.chosen = true
                } else {
                    next = items
                }
                for item in next.reversed() {
                    var child = pending
                    child.condition = item
                    stack.append(child)
                }
            case .not(let inner):
                if case .segment(let index) = inner {
                    pending.negation = ("not " + program.segments[index].name, !pending.expected)
                }
                pending.condition = inner
                pending.expected.toggle()
                stack.append(pending)
            case .segment(let index):
                guard walked.insert(Visit(segment: index, expected: pending.expected, chosen: pending.chosen)).inserted else { continue }
                pending.segment = program.segments[index].name
                pending.condition = program.segments[index].condition
                stack.append(pending)
            case .test(let test):
                let holds = run(test)
                guard differs ? holds != pending.expected : pending.chosen, seen.insert(test.source.range).inserted else { continue }
                found.append(comparison(test, holds: holds, segment: pending.segment, negation: pending.negation, profile: profile))
            case .prerequisite(let index):
                let test = program.prerequisites[index]
                let holds = decided[test.placement].satisfies(test)
                guard differs ? holds != pending.expected : pending.chosen, seen.insert(test.source.range).inserted else { continue }
                found.append(prerequisite(test, holds: holds, segment: pending.segment, negation: pending.negation))
            }
        }
        return found
    }

    /// A comparison as `--explain` names it: its segment, attribute, actual value and truth.
    func comparison(_ test: CompiledTest, holds: Bool, segment: String, negation: (text: String, holds: Bool)?, profile: Profile) -> Explanation.Failure {
        let source = test.source
        let attribute: String
        switch source.subject {
        case .now: attribute = "now"
        case .attribute(let reference): attribute = reference.displayName
        }
        var failure = Explanation.Failure(segment: segment, attribute: attribute, actual: actualText(test, profile: profile),
                                          comparison: source.text(), holds: holds, range: source.range)
        if let negation {
            failure.negation = negation.text
            failure.negationHolds = negation.holds
        }
        return failure
    }

    /// A prerequisite as `--explain` names it: the placement, what it decided, and the truth.
    func prerequisite(_ test: PrerequisiteTest, holds: Bool, segment: String, negation: (text: String, holds: Bool)?) -> Explanation.Failure {
        let actual: String
        switch decided[test.placement] {
        case .unknown, .failed:
            actual = "undecided (a draw on `profile.id` without one)"
        case .chosen(let choice):
            let decision = program.flat.decision(placement: test.placement, choice: choice, profileID: profileID)
            actual = choice.row.map { decision.outcomeText + " by row \($0 + 1)" } ?? "no match"
        }
        var failure = Explanation.Failure(segment: segment, attribute: "placement " + test.source.placement.text, actual: actual,
                                          comparison: test.source.text, holds: holds, range: test.source.range)
        if let negation {
            failure.negation = negation.text
            failure.negationHolds = negation.holds
        }
        return failure
    }

    /// The actual value a test saw, as text: "missing", the value, or the raw value with "(not a …)".
    func actualText(_ test: CompiledTest, profile: Profile) -> String {
        let value = value(of: test)
        switch value {
        case .missing:
            // A derived field whose source is present but not a date is not set; say why.
            if case .builtin(let field) = program.slots[test.slot].target, let derived = BuiltinField.derivation(of: field),
               let source = profile[derived.source] {
                return "missing (`\(derived.source)` is \(JSONWriter.write(source)), not a valid date)"
            }
            return "missing"
        case .string(let text): return JSONWriter.write(.string(text))
        case .number(let number): return JSONWriter.write(.number(number))
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let ms): return Timestamp.format(ms)
        case .version(let version): return JSONWriter.write(.string(version.description))
        case .set(let members): return "[" + members.map { JSONWriter.write(.string($0)) }.joined(separator: ", ") + "]"
        case .mistyped:
            let slot = program.slots[test.slot]
            let raw: JSONValue?
            switch slot.target {
            case .custom(let key): raw = profile.customAttributes[key]?.json
            case .builtin(let field):
                raw = profile[BuiltinField.storedField(of: field)]
            case .shownCount, .lastShown:
                raw = nil  // read from the history, never mistyped
            }
            let type = slot.type?.rawValue ?? "value"
            return (raw.map(JSONWriter.write) ?? "?") + " (not a valid \(type))"
        }
    }
}
