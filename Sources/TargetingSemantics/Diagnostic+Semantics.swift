import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// Errors and warnings of the checker.
extension Diagnostic {
    static func place(_ range: SourceRange) -> String { "\(range.file):\(range.start.line):\(range.start.column)" }

    static func didYouMean(_ suggestion: String?) -> String? { suggestion.map { "did you mean `\($0)`?" } }

    static func duplicateName(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateName, "`\(name)` is already declared", at: range, help: "first declared at \(place(first))")
    }

    static func duplicateAttribute(_ key: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateAttribute, "attribute `\(key)` is already declared", at: range, help: "first declared at \(place(first))")
    }

    static func duplicateInput(_ element: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateInput, "input `\(element)` is already declared", at: range, help: "first declared at \(place(first))")
    }

    static func sharedInputTarget(_ target: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .sharedInputTarget, "two inputs write `\(target)`; the later answer wins", at: range,
                   help: "the other input is declared at \(place(first))")
    }

    static func builtinDeclared(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .builtinDeclared, "built-in field `\(name)` has a fixed type and cannot be declared", at: range)
    }

    static func invalidKey(_ key: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidKey, "invalid custom attribute key `\(key)`", at: range,
                   help: "a key is 1–30 characters from `A–Z a–z 0–9 . _ -`")
    }

    static func invalidInputTarget(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidInputTarget, "an input cannot write `\(name)`", at: range,
                   help: "inputs write a custom attribute or one of " + BuiltinField.inputTargets.map { "`\(AttributeTarget.builtin($0).written)`" }.joined(separator: ", "))
    }

    static func oneOfNotAllowed(_ type: ValueType, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .oneOfNotAllowed, "a `\(type.rawValue)` attribute cannot list allowed values", at: range,
                   help: "`one of` applies to `string`, `of` to `set`")
    }

    static func emptyList(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .emptyList, "empty list", at: range)
    }

    /// A value listed twice in `one of [..]`/`set of [..]`: harmless, so a warning.
    static func duplicateListValue(_ value: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .duplicateValue, "`\(value)` is listed twice", at: range, help: "first listed at \(place(first))")
    }

    /// A `contains`/`starts with`/`ends with` fragment that none of the listed values of a
    /// `one of` attribute satisfies, so the comparison is always false.
    static func fragmentNeverMatches(_ fragment: String, op: ComparisonOperator, name: String, allowed: [String], at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .fragmentNeverMatches, "no value of `\(name)` \(op.rawValue) `\(fragment)`", at: range,
                   help: "the values are " + allowed.map { "`\($0)`" }.joined(separator: ", "))
    }

    static func invalidPattern(_ message: String, help: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidPattern, message, at: range, help: help)
    }

    static func commaInSetValue(_ value: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .commaInSetValue, "set value `\(value)` contains `,`", at: range,
                   help: "sets are stored comma-separated, so members cannot contain `,`")
    }

    static func unknownSegment(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownSegment, "unknown segment `\(name)`", at: range, help: didYouMean(suggestion))
    }

    static func unknownAudience(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownAudience, "unknown audience `\(name)`", at: range, help: didYouMean(suggestion))
    }

    static func unknownProfileField(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownField, "unknown profile field `\(name)`", at: range,
                   help: didYouMean(suggestion) ?? "a custom attribute key starting with `profile.` needs backticks")
    }

    static func wrongKindOfName(_ name: String, is actual: String, expected: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .wrongKind, "`\(name)` is \(Checker.article(actual)) \(actual), not \(Checker.article(expected)) \(expected)", at: range,
                   help: expected == "segment" ? "segment and audience expressions combine segments" : nil)
    }

    static func segmentInPlacement(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .wrongKind, "`\(name)` is a segment, not an audience", at: range,
                   help: "placement rows list audiences: declare `audience \(name)_users = \(name)`")
    }

    static func comparisonInAudience(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .comparisonInAudience, "an audience combines segments only", at: range,
                   help: "move the comparison into a segment")
    }

    static func segmentCycle(path: [String], at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .cycle, "segment `\(path[0])` depends on itself", at: range,
                   help: "cycle: " + path.map { "`\($0)`" }.joined(separator: " -> "))
    }

    static func dateOnlyWindowEnd(_ text: String, endsAt: String, lastInstant: String, nextDay: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .windowEnd, "this window ends at \(endsAt), the first instant of \(text): the rest of that day is outside it", at: range,
                   help: "to take in the whole day, end at `\(lastInstant)`, or write `>= …` and `< \(nextDay)`")
    }

    /// An undeclared attribute; `suggestion` is a declared attribute (or `profile.FIELD`) it is
    /// probably a typo of.
    /// `type` is the type its comparisons give it, shown in the declaration the help suggests.
    static func undeclaredAttribute(_ key: String, suggestion: String? = nil, type: ValueType = .string, at range: SourceRange) -> Diagnostic {
        if let suggestion {
            return Diagnostic(.warning, .undeclaredAttribute, "attribute `\(key)` is not declared", at: range,
                              help: "did you mean `\(suggestion)`?")
        }
        return Diagnostic(.warning, .undeclaredAttribute, "attribute `\(key)` is not declared", at: range,
                          help: "declare it to get type checks, e.g. `attribute \(key): \(type.rawValue)`")
    }

    static func conflictingInference(_ key: String, first: ValueType, firstAt: SourceRange, second: ValueType, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .conflictingTypes, "undeclared attribute `\(key)` is used as `\(second.rawValue)` here but as `\(first.rawValue)` at \(place(firstAt))", at: range,
                   help: "declare its type with `attribute \(key): …`")
    }

    static func orderingUndeclaredString(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .orderingString, "cannot order undeclared attribute `\(name)` by a string", at: range,
                   help: "declare it `version` (`attribute \(name): version`) to compare versions")
    }

    static func operatorMismatch(_ op: ComparisonOperator, name: String, type: ValueType, at range: SourceRange) -> Diagnostic {
        var help: String?
        if type == .set {
            switch op {
            case .equal: help = "a set holds members: use `has` (`\(name) has …`), or `has all [...]` for several"
            case .notEqual: help = "a set holds members: use `not (\(name) has …)` or `has none [...]`"
            case .isIn: help = "a set holds members: use `has any [...]`"
            case .isNotIn: help = "a set holds members: use `has none [...]`"
            case .matches: help = "a set holds members: use `has`, or compare a string attribute"
            case .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .contains, .startsWith, .endsWith, .has, .hasAny,
                 .hasAll, .hasNone, .isSet, .isNotSet: help = nil
            }
        }
        return Diagnostic(.error, .operatorMismatch, "operator `\(op.rawValue)` does not apply to `\(name)` of type `\(type.rawValue)`", at: range, help: help)
    }

    static func ignoringCaseMismatch(name: String, type: ValueType, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .operatorMismatch, "`ignoring case` does not apply to `\(name)` of type `\(type.rawValue)`", at: range,
                   help: "`ignoring case` applies to strings and sets")
    }

    /// A literal that is not of its attribute's type, with the rewrite that fits when there is
    /// one (`allowed`: the attribute's listed values, which the rewrite must be one of).
    static func literalTypeMismatch(name: String, type: ValueType, literal: Literal, allowed: [String]? = nil) -> Diagnostic {
        let rewrite = LiteralFix(literal, as: type, allowed: allowed)
        return Diagnostic(.error, .typeMismatch, "`\(name)` is a `\(type.rawValue)`, but `\(literal.text)` is a \(literal.kindName)", at: literal.range,
                          help: rewrite?.help, fix: rewrite?.fix)
    }

    static func invalidVersion(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidVersion, "invalid version `\(text)`", at: range,
                   help: "versions are `[v]MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]` (SemVer 2.0)")
    }

    static func invalidDate(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .invalidDate, "invalid date `\(text)`", at: range,
                   help: "dates are `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`")
    }

    static func valueNotAllowed(_ value: String, name: String, allowed: [String], at range: SourceRange) -> Diagnostic {
        let help = didYouMean(Suggestion.nearest(to: value, in: allowed)) ?? "allowed: " + allowed.map { "`\($0)`" }.joined(separator: ", ")
        return Diagnostic(.error, .valueNotAllowed, "`\(value)` is not one of the values of `\(name)`", at: range, help: help)
    }

    static func betweenReversed(low: String, high: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .betweenReversed, "`between \(low) and \(high)` is empty: the lower bound is greater than the upper", at: range)
    }

    /// `always` before a row that draws (a split or an experiment): a held-out profile is kept
    /// out of exactly those, so the row cannot apply to it.
    static func alwaysOnDrawingRow(_ what: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .alwaysOnDraw, "`always` cannot begin \(what) row", at: range,
                   help: "only a row leading to a flow, a paywall or `nothing` may be `always`; held-out profiles never enter splits or experiments")
    }

    /// A row leading to `nothing` above every split and experiment row of a placement the
    /// holdout covers: a held-out profile skips it and may see something the row keeps from it.
    static func heldOutSkipsNothingRow(_ audience: String, holdout: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .heldOutSkipsRow, "held-out profiles skip this row: `\(audience) -> nothing` does not apply to profiles held out by `\(holdout)`",
                   at: range, help: "write `always \(audience) -> nothing` if it must hold for them too (a business rule), or leave it as it is if the holdout may override it")
    }

    static func everyoneNotLast(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .everyoneNotLast, "`everyone` must be the last row", at: range,
                   help: "rows below `everyone` can never decide")
    }

    static func mixedDestinations(placement: String, first: String, firstAt: SourceRange, found: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .mixedDestinations, "placement `\(placement)` shows \(first)s, but this row shows a \(found)", at: range,
                   help: "one placement holds one kind of destination; the first \(first) is at \(place(firstAt))")
    }

    static func duplicateSplit(_ id: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateSplit, "split id `\(id)` is already used", at: range, help: "first used at \(place(first))")
    }

    /// `flow ""` or `paywall ""`; `kind` is `flow` or `paywall`.
    static func emptyDestinationID(_ kind: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .emptyDestinationId, "a \(kind) id cannot be empty", at: range,
                   help: "write the id of the \(kind) to show, or `nothing` to show none")
    }

    static func emptySplitID(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .emptySplitId, "a split id cannot be empty", at: range)
    }

    static func splitVariantCount(_ count: Int, of kind: String = "split", at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, kind == "experiment" ? .experimentVariants : .splitVariants, "a\(kind == "experiment" ? "n" : "") \(kind) has 2 to 20 variants, this one has \(count)", at: range)
    }

    static func invalidWeight(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .splitWeight, "invalid weight `\(text)%`", at: range, help: "a weight is an integer literal from 1 to 100, such as `50%`")
    }

    /// A split whose weights do not add up to 100; `weights` are the variants' weights, each
    /// with where it is written.
    static func splitWeightsSum(_ total: Int, of kind: String = "split", weights: [(Int, SourceRange)], at range: SourceRange) -> Diagnostic {
        let terms = weights.map { "\($0.0)% (line \($0.1.start.line))" }.joined(separator: " + ")
        let fix = total < 100 ? "add \(100 - total)%" : "remove \(total - 100)%"
        return Diagnostic(.error, kind == "experiment" ? .experimentWeightsSum : .splitWeightsSum, "\(kind) weights add up to \(total)%, not 100%", at: range,
                          help: "the weights are \(terms) = \(total)%; \(fix) to reach 100%")
    }

    static func duplicateVariant(first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateVariant, "two variants of the split show the same destination", at: range,
                   help: "the other variant is at \(place(first))")
    }

    static func secondHoldout(first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .secondHoldout, "a rule set has at most one holdout", at: range, help: "the holdout is declared at \(place(first))")
    }

    static func invalidHoldoutWeight(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .holdoutWeight, "invalid holdout weight `\(text)%`", at: range, help: "a weight is an integer literal from 1 to 100, such as `5%`")
    }

    static func unknownExperiment(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownExperiment, "unknown experiment `\(name)`", at: range, help: didYouMean(suggestion))
    }

    static func duplicateExceptedPlacement(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateExcept, "placement `\(name)` is already excepted", at: range, help: "first listed at \(place(first))")
    }

    static func duplicateVariantName(_ name: String, experiment: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateVariant, "experiment `\(experiment)` already has a variant `\(name)`", at: range, help: "first declared at \(place(first))")
    }

    static func unknownVariant(_ name: String, experiment: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .unknownVariant, "experiment `\(experiment)` has no variant `\(name)`", at: range, help: didYouMean(suggestion))
    }

    static func repeatedVariant(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateVariant, "variant `\(name)` is given twice", at: range, help: "first given at \(place(first))")
    }

    static func missingVariants(_ names: [String], experiment: String, at range: SourceRange) -> Diagnostic {
        let list = names.map { "`\($0)`" }.joined(separator: ", ")
        return Diagnostic(.error, .missingVariant, "the row does not show variant\(names.count == 1 ? "" : "s") \(list) of experiment `\(experiment)`", at: range,
                          help: "a row names every variant of the experiment once")
    }

    /// `by KEY` with a key that is not one; `type` is its type when that is what is wrong.
    static func invalidDrawKey(_ name: String, type: ValueType?, at range: SourceRange) -> Diagnostic {
        let reason = type.map { ": it is \(Checker.article($0.rawValue)) \($0.rawValue), not a string" } ?? ""
        return Diagnostic(.error, .keyType, "`\(name)` cannot be a key\(reason)", at: range,
                   help: "a key is `profile.id`, `profile.customer_user_id` or a custom attribute of type string")
    }

    static func unusedName(_ name: String, kind: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .unused, "\(kind) `\(name)` is never used", at: range)
    }

    /// The reachability analysis did not run: the rule set has more than `comparisons`
    /// comparisons or `literals` literals.
    package static func analysisSkipped(comparisons: Int, literals: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.note, .analysisSkipped, "rule set too large for the reachability analysis; unreachable rows and fall-through are not reported", at: range,
                   help: "the analysis runs for up to \(grouped(comparisons)) comparisons and \(grouped(literals)) literals")
    }

    /// `1,000,000`.
    package static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 { digits.insert(",", at: index); index -= 3 }
        return String(digits)
    }
}

// MARK: - History: caps and sticky experiments

extension Diagnostic {
    static func shownWindowOutOfRange(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .shownWindow, "window `\(text)` of `shown` is out of range", at: range,
                   help: "a window is from 1 minute to 400 days, such as `7d`, `12h` or `30m`")
    }

    static func shownCountOperator(_ op: ComparisonOperator, name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .shownOperator, "operator `\(op.rawValue)` does not apply to the count `\(name)`", at: range,
                   help: "a count of showings takes `==`, `!=`, `<`, `<=`, `>` or `>=` and a whole number")
    }

    static func shownCountOutOfRange(_ text: String, placements: Int, at range: SourceRange) -> Diagnostic {
        if placements > 1 {
            return Diagnostic(.error, .shownCount, "count `\(text)` is not a whole number from 0 to \(placements * 100)", at: range,
                              help: "each placement keeps its latest 100 showings, so a cap over \(placements) placements counts from 0 to \(placements * 100)")
        }
        return Diagnostic(.error, .shownCount, "count `\(text)` is not a whole number from 0 to 100", at: range,
                          help: "a placement keeps its latest 100 showings, so a cap counts from 0 to 100")
    }

    static func repeatedPlacement(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateName, "placement `\(name)` is already listed", at: range, help: "first listed at \(place(first))")
    }

    /// A cap whose comparison no count of showings (0 to 100) can change: always or never true.
    static func constantCap(_ name: String, op: ComparisonOperator, count: String, always: Bool, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .constantCap, "`\(name) \(op.rawValue) \(count)` is \(always ? "always" : "never") true", at: range,
                   help: "a count of showings is a whole number from 0 to 100, so this cap \(always ? "limits nothing" : "excludes every profile")")
    }

    static func stickyDurationOutOfRange(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .stickyDuration, "sticky duration `\(text)` is out of range", at: range,
                   help: "an assignment sticks from 1 day to 400 days, such as `90d`")
    }

    static func stickyExperimentUnused(_ name: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, .stickyUnused, "sticky experiment `\(name)` is used by no placement row", at: range,
                   help: "an assignment sticks only through the rows that use the experiment")
    }

    // MARK: - Rules that depend on rules

    static func prerequisiteInAudience(at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .prerequisiteInAudience, "an audience combines segments only", at: range,
                   help: "move the prerequisite into a segment")
    }

    static func repeatedOutcome(_ outcome: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .duplicateValue, "`\(outcome)` is already listed", at: range, help: "first listed at \(place(first))")
    }

    static func outcomeNeverGiven(_ outcome: String, placement: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .outcomeNeverGiven, "placement `\(placement)` never gives `\(outcome)`", at: range,
                   help: suggestion.map { "did you mean `\($0)`?" } ?? "no row of `\(placement)` shows it")
    }

    static func placementAlwaysDecides(_ placement: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .outcomeNeverGiven, "placement `\(placement)` never gives `no match`", at: range,
                   help: "its `everyone` row takes every profile the rows above it do not")
    }

    static func experimentNotDrawn(_ experiment: String, placement: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .experimentNotDrawn, "placement `\(placement)` never draws experiment `\(experiment)`", at: range,
                   help: "no row of `\(placement)` uses `\(experiment)`")
    }

    static func placementCycle(path: [String], at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .cycle, "\(path[0]) depends on itself", at: range,
                   help: "cycle: " + path.joined(separator: " -> "))
    }

    static func layerSize(_ count: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .layerSize, "a layer holds from 1 to \(Checker.maxLayerExperiments) experiments, not \(count)", at: range)
    }

    static func layerWeightsSum(_ total: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .layerWeightsSum, "the layer's shares add up to \(total)%, more than 100%", at: range,
                   help: "each experiment takes the next share of the layer's 100 buckets")
    }

    static func experimentInTwoLayers(_ experiment: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, .experimentInTwoLayers, "experiment `\(experiment)` is already in a layer", at: range,
                   help: "first placed at \(place(first)); an experiment belongs to one layer at most")
    }
}
