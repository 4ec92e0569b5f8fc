import TargetingBase
import TargetingProfiles
import TargetingSyntax

extension Checker {
    /// Types every comparison of every segment (audience comparisons are already errors).
    mutating func checkTypes() {
        let comparisons = segmentOrder.flatMap(\.expression.comparisons)
        inferUndeclared(comparisons)
        for comparison in comparisons { checkComparison(comparison) }
    }

    /// Gives each undeclared custom attribute the type its first comparison that fixes one
    /// infers (`Comparison.inferredSubjectType`) and warns once that it is undeclared, with that
    /// type in the suggested declaration; a second type is an error.
    mutating func inferUndeclared(_ comparisons: [Comparison]) {
        var warned: Set<String> = []
        warned.reserveCapacity(comparisons.count)
        // Typos: the declared attributes, and the built-in fields as `profile.NAME` reads them.
        let declared = SuggestionIndex(attributeDeclarations.keys.sorted())
        let builtins = SuggestionIndex(BuiltinField.all.keys.sorted())
        attributeTypes.reserveCapacity(attributeTypes.count + comparisons.count)
        inferredFrom.reserveCapacity(comparisons.count)
        var warnings: [(key: String, suggestion: String?, range: SourceRange)] = []
        for comparison in comparisons {
            guard case .attribute(let reference) = comparison.subject, case .custom(let key) = reference.target,
                  attributeDeclarations[key] == nil, !isUnparsed(key, .attribute) else { continue }
            guard AdaptyLimits.isValidKey(key) else { continue }
            if !warned.contains(key) {
                warned.insert(key)
                let builtin = BuiltinField.all[key] != nil ? key : builtins.nearest(to: key)
                let suggestion = declared.nearest(to: key) ?? builtin.map { AttributeTarget.builtin($0).written }
                warnings.append((key, suggestion, reference.range))
                attributeTypes[.custom(key)] = AttributeType(type: nil, allowed: nil, isDeclared: false)
            }
            guard let (type, where_) = comparison.inferredSubjectType else { continue }
            if let (first, firstRange) = inferredFrom[key] {
                if first != type {
                    report(.conflictingInference(key, first: first, firstAt: firstRange, second: type, at: where_))
                }
            } else {
                inferredFrom[key] = (type, where_)
                attributeTypes[.custom(key)] = AttributeType(type: type, allowed: nil, isDeclared: false)
            }
        }
        for warning in warnings {
            report(.undeclaredAttribute(warning.key, suggestion: warning.suggestion, type: inferredFrom[warning.key]?.0 ?? .string, at: warning.range))
        }
    }

    /// The type of the subject, or nil when unknown (an error was reported or nothing fixes it).
    mutating func subjectType(_ subject: ComparisonSubject) -> AttributeType? {
        switch subject {
        case .now:
            return AttributeType(type: .date, allowed: nil, isDeclared: true)
        case .attribute(let reference):
            switch reference.target {
            case .builtin(let field):
                guard let builtin = BuiltinField.all[field] else {
                    let suggestion = Suggestion.nearest(to: field, in: BuiltinField.all.keys.sorted()).map { AttributeTarget.builtin($0).written }
                    report(.unknownProfileField(reference.displayName, suggestion: suggestion, at: reference.range))
                    return nil
                }
                return AttributeType(type: builtin.type, allowed: builtin.allowed, isDeclared: true)
            case .custom(let key):
                guard AdaptyLimits.isValidKey(key) else {
                    report(.invalidKey(key, at: reference.range))
                    return nil
                }
                return attributeTypes[.custom(key)]
            case .shownCount, .lastShown:
                return historySubjectType(reference)
            }
        }
    }

    mutating func checkComparison(_ comparison: Comparison) {
        for literal in comparison.literals {
            if case .date(nil) = literal.value { report(.invalidDate(literal.text, at: literal.range)) }
        }
        if let list = comparison.list, list.items.isEmpty { report(.emptyList(at: list.range)) }
        checkPattern(comparison)
        guard let attributeType = subjectType(comparison.subject) else { return }
        let name: String
        switch comparison.subject {
        case .now: name = "now"
        case .attribute(let reference): name = reference.displayName
        }
        guard let type = attributeType.type else { return }
        if case .attribute(let reference) = comparison.subject, case .shownCount = reference.target,
           !checkShownCount(comparison, reference) {
            return
        }
        if !attributeType.isDeclared, let (suggested, _) = comparison.inferredSubjectType, suggested != type {
            return  // already reported as conflicting inference
        }
        if case .attribute(let reference) = comparison.subject, case .custom = reference.target, !attributeType.isDeclared,
           comparison.op.isOrdering, comparison.literals.contains(where: { if case .string = $0.value { true } else { false } }) {
            report(.orderingUndeclaredString(name, at: comparison.operatorRange))
            return
        }
        guard comparison.op.applies(to: type) else {
            report(.operatorMismatch(comparison.op, name: name, type: type, at: comparison.operatorRange))
            return
        }
        if let ignoring = comparison.ignoringCaseRange, type != .string && type != .set {
            report(.ignoringCaseMismatch(name: name, type: type, at: ignoring))
        }
        var literalsFit = true
        for literal in comparison.literals where !TypedTest.fits(literal, type) {
            if type == .version, case .string(let text) = literal.value {
                report(.invalidVersion(text, at: literal.range))
            } else {
                report(.literalTypeMismatch(name: name, type: type, literal: literal, allowed: attributeType.allowed))
            }
            literalsFit = false
        }
        guard literalsFit else { return }
        if let allowed = attributeType.allowed, comparison.op.operandRole == .values {
            let folded = comparison.ignoringCase ? Set(allowed.map { CaseFolding.lowercase($0) }) : Set(allowed)
            for literal in comparison.literals {
                guard case .string(let value) = literal.value else { continue }
                let probe = comparison.ignoringCase ? CaseFolding.lowercase(value) : value
                if !folded.contains(probe) {
                    report(.valueNotAllowed(value, name: name, allowed: allowed, at: literal.range))
                }
            }
        }
        if let allowed = attributeType.allowed { checkFragment(comparison, name: name, allowed: allowed) }
        if comparison.op == .between, comparison.operands.count == 2 {
            checkBetweenOrder(comparison.operands[0], comparison.operands[1], type: type)
            if type == .date { checkWindowEnd(comparison.operands[1]) }
        }
    }

    /// A date-only upper bound of `between` is midnight at the start of that day, so the day
    /// itself is left out; the warning names the instant the window really ends.
    mutating func checkWindowEnd(_ high: Literal) {
        guard case .date(let ms?) = high.value, !high.text.contains("T"), !high.text.contains("t") else { return }
        report(.dateOnlyWindowEnd(high.text, endsAt: Timestamp.format(ms),
                                  lastInstant: Timestamp.format(ms + Timestamp.msPerDay - 1),
                                  nextDay: Timestamp.formatDate(ms + Timestamp.msPerDay), at: high.range))
    }

    mutating func checkBetweenOrder(_ low: Literal, _ high: Literal, type: ValueType) {
        let reversed: Bool
        // Bounds of different kinds (a date and `now - 7d`) are ordered only at an instant: not here.
        switch low.value {
        case .number(let a):
            guard case .number(let b) = high.value else { return }
            reversed = a > b
        case .date(let a):
            guard let a, case .date(let b?) = high.value else { return }
            reversed = a > b
        case .now(let a):
            guard case .now(let b) = high.value else { return }
            reversed = a > b
        case .string(let a):
            guard case .string(let b) = high.value, let x = SemanticVersion(parsing: a), let y = SemanticVersion(parsing: b) else { return }
            reversed = x > y
        case .bool, .pattern:
            return
        }
        if reversed { report(.betweenReversed(low: low.text, high: high.text, at: low.range)) }
    }
}
