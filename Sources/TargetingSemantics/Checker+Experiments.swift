import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// The rules of experiments across placements: experiment rows, `by KEY` and the holdout.
extension Checker {
    /// Each experiment's variants and key, and the holdout's weight, key and `except` list.
    mutating func checkExperiments() {
        for experiment in experimentOrder {
            checkWeights(experiment.variants.map(\.weight), of: "experiment", at: experiment.name.range)
            var seen: [String: SourceRange] = [:]
            for variant in experiment.variants {
                if let first = seen[variant.name.text] {
                    report(.duplicateVariantName(variant.name.text, experiment: experiment.name.text, first: first, at: variant.name.range))
                } else {
                    seen[variant.name.text] = variant.name.range
                }
            }
            if let key = experiment.key { checkKey(key) }
            checkSticky(experiment)
        }
        guard let holdout else { return }
        if Checker.weightValue(holdout.weight) == nil {
            report(.invalidHoldoutWeight(holdout.weight.text, at: holdout.weight.range))
        }
        if let key = holdout.key { checkKey(key) }
        let placementNames = SuggestionIndex(placementOrder.map(\.name.text))
        var listed: [String: SourceRange] = [:]
        for name in holdout.excepted {
            if let first = listed[name.text] {
                report(.duplicateExceptedPlacement(name.text, first: first, at: name.range))
                continue
            }
            listed[name.text] = name.range
            if placements[name.text] != nil || isUnparsed(name.text, .placement) { continue }
            report(.unknownPlacement(name.text, suggestion: placementNames.nearest(to: name.text), at: name.range))
        }
    }

    /// A row's `EXPERIMENT { … }`: a declared experiment, each of its variants exactly once.
    mutating func checkExperimentRow(_ row: ExperimentDestination) {
        let name = row.experiment
        guard let experiment = experiments[name.text] else {
            if isUnparsed(name.text, .experiment) { return }
            if segments[name.text] != nil {
                report(.wrongKindOfName(name.text, is: "segment", expected: "experiment", at: name.range))
            } else if audiences[name.text] != nil {
                report(.wrongKindOfName(name.text, is: "audience", expected: "experiment", at: name.range))
            } else if placements[name.text] != nil {
                report(.wrongKindOfName(name.text, is: "placement", expected: "experiment", at: name.range))
            } else {
                report(.unknownExperiment(name.text, suggestion: Suggestion.nearest(to: name.text, in: experimentOrder.map(\.name.text)), at: name.range))
            }
            return
        }
        let variantNames = experiment.variants.map(\.name.text)
        var given: [String: SourceRange] = [:]
        for arm in row.arms {
            let variant = arm.variant.text
            guard variantNames.contains(variant) else {
                let untaken = variantNames.filter { given[$0] == nil }
                let suggestion = Suggestion.nearest(to: variant, in: untaken) ?? Suggestion.nearest(to: variant, in: variantNames)
                report(.unknownVariant(variant, experiment: name.text, suggestion: suggestion, at: arm.variant.range))
                continue
            }
            if let first = given[variant] {
                report(.repeatedVariant(variant, first: first, at: arm.variant.range))
            } else {
                given[variant] = arm.variant.range
            }
        }
        let missing = variantNames.filter { given[$0] == nil }
        if !missing.isEmpty { report(.missingVariants(missing, experiment: name.text, at: name.range)) }
    }

    /// `by KEY`: `profile.id`, `profile.customer_user_id`, or a custom attribute of type string.
    /// An undeclared custom key is warned about, as every undeclared attribute is, and read as a
    /// string.
    mutating func checkKey(_ key: AttributeReference) {
        switch key.target {
        case .shownCount, .lastShown:
            report(.invalidDrawKey(key.displayName, type: nil, at: key.range))
        case .builtin(let field):
            guard let builtin = BuiltinField.all[field] else {
                report(.unknownProfileField(key.displayName, suggestion: Suggestion.nearest(to: field, in: BuiltinField.all.keys.sorted()).map { AttributeTarget.builtin($0).written }, at: key.range))
                return
            }
            if field != "id", field != "customer_user_id" {
                report(.invalidDrawKey(key.displayName, type: builtin.type == .string ? nil : builtin.type, at: key.range))
            }
        case .custom(let name):
            guard AdaptyLimits.isValidKey(name) else {
                report(.invalidKey(name, at: key.range))
                return
            }
            if isUnparsed(name, .attribute) { return }
            if let known = attributeTypes[key.target], let type = known.type {
                if type != .string { report(.invalidDrawKey(key.displayName, type: type, at: key.range)) }
                return
            }
            if attributeTypes[key.target] == nil {
                report(.undeclaredAttribute(name, at: key.range))
            }
            attributeTypes[key.target] = AttributeType(type: .string, allowed: nil, isDeclared: false)
        }
    }

    /// "a" or "an" for a type name.
    static func article(_ word: String) -> String { "aeiou".contains(word.first ?? "x") ? "an" : "a" }
}
