import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// Checks parsed rule files: names, layering (segments → audiences → placements), cycles,
/// types, placements and splits. Produces a `CheckedRules` plus diagnostics; the rule set is only
/// usable when no diagnostic is an error.
package struct Checker {
    var diagnostics: [Diagnostic] = []
    let files: [RuleFile]

    var attributeDeclarations: [String: AttributeDeclaration] = [:]
    var segments: [String: NamedExpression] = [:]
    var audiences: [String: NamedExpression] = [:]
    var placements: [String: PlacementDeclaration] = [:]
    var segmentOrder: [NamedExpression] = []
    var audienceOrder: [NamedExpression] = []
    var placementOrder: [PlacementDeclaration] = []
    var experiments: [String: ExperimentDeclaration] = [:]
    var experimentOrder: [ExperimentDeclaration] = []
    var holdout: HoldoutDeclaration?
    var layerOrder: [LayerDeclaration] = []
    var inputs: [InputDeclaration] = []
    var attributeTypes: [AttributeReference.Target: AttributeType] = [:]
    var inferredFrom: [String: (ValueType, SourceRange)] = [:]
    /// Names of declarations that failed to parse, by kind: references to them are not errors.
    var unparsed: [UnparsedDeclaration.Kind: Set<String>] = [:]

    /// Checks `files` (any order) and returns every diagnostic, sorted, and the checked rule set:
    /// only when every file parsed whole and nothing is an error, so no later stage can see
    /// rules with errors.
    package static func check(_ files: [RuleFile]) -> (CheckedRules?, [Diagnostic]) {
        let sortedFiles = files.sorted { $0.source.path.utf8.lexicographicallyPrecedes($1.source.path.utf8) }
        var checker = Checker(files: sortedFiles)
        checker.collectDeclarations()
        checker.checkReferences()
        checker.checkCycles()
        checker.checkTypes()
        checker.checkPlacements()
        checker.checkExperiments()
        checker.checkLayers()
        checker.checkPrerequisites()
        checker.checkPlacementCycles()
        // A declaration that failed to parse may use any name: "never used" would be a guess.
        if checker.unparsed.isEmpty { checker.checkUnused() }
        let ruleSet = CheckedRules(files: sortedFiles, attributeDeclarations: checker.attributeDeclarations,
                              attributeTypes: checker.attributeTypes, inputs: checker.inputs,
                              segments: checker.segmentOrder, audiences: checker.audienceOrder,
                              placements: checker.placementOrder, experiments: checker.experimentOrder,
                              holdout: checker.holdout, layers: checker.layerOrder)
        let whole = !files.contains(where: \.hasSyntaxErrors) && !checker.diagnostics.contains(where: \.isError)
        return (whole ? ruleSet : nil, Diagnostic.sorted(checker.diagnostics))
    }

    init(files: [RuleFile]) { self.files = files }

    mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    // MARK: - Declarations and names

    mutating func collectDeclarations() {
        var names: [String: SourceRange] = [:]
        var inputKeys: [String: SourceRange] = [:]
        var inputTargets: [AttributeReference.Target: SourceRange] = [:]
        for file in files {
            for broken in file.unparsed {
                unparsed[broken.kind, default: []].insert(broken.name)
            }
        }
        for file in files {
            for declaration in file.declarations {
                switch declaration {
                case .attribute(let attribute):
                    collectAttribute(attribute)
                case .input(let input):
                    let key = (input.screen.map { $0.text + "\u{0}" } ?? "") + input.element.text
                    if let first = inputKeys[key] {
                        report(.duplicateInput(input.element.text, first: first, at: (input.screen ?? input.element).range))
                        continue
                    }
                    inputKeys[key] = (input.screen ?? input.element).range
                    guard checkInputTarget(input.target) else { continue }
                    if let first = inputTargets[input.target.target] {
                        report(.sharedInputTarget(input.target.displayName, first: first, at: input.target.range))
                    } else {
                        inputTargets[input.target.target] = input.target.range
                    }
                    inputs.append(input)
                case .segment(let segment):
                    guard claim(segment.name, in: &names) else { continue }
                    segments[segment.name.text] = segment
                    segmentOrder.append(segment)
                case .audience(let audience):
                    guard claim(audience.name, in: &names) else { continue }
                    audiences[audience.name.text] = audience
                    audienceOrder.append(audience)
                case .placement(let placement):
                    guard claim(placement.name, in: &names) else { continue }
                    placements[placement.name.text] = placement
                    placementOrder.append(placement)
                case .experiment(let experiment):
                    guard claim(experiment.name, in: &names) else { continue }
                    experiments[experiment.name.text] = experiment
                    experimentOrder.append(experiment)
                case .holdout(let holdout):
                    if let first = self.holdout {
                        report(.secondHoldout(first: first.name.range, at: holdout.name.range))
                        continue
                    }
                    guard claim(holdout.name, in: &names) else { continue }
                    self.holdout = holdout
                case .layer(let layer):
                    guard claim(layer.name, in: &names) else { continue }
                    layerOrder.append(layer)
                }
            }
        }
    }

    /// Records a segment, audience or placement name; reports a duplicate.
    mutating func claim(_ name: Identifier, in names: inout [String: SourceRange]) -> Bool {
        if let first = names[name.text] {
            report(.duplicateName(name.text, first: first, at: name.range))
            return false
        }
        names[name.text] = name.range
        return true
    }

    mutating func collectAttribute(_ attribute: AttributeDeclaration) {
        guard case .custom(let key) = attribute.name.target else {
            report(.builtinDeclared(attribute.name.displayName, at: attribute.name.range))
            return
        }
        guard AdaptyLimits.isValidKey(key) else {
            report(.invalidKey(key, at: attribute.name.range))
            return
        }
        if let first = attributeDeclarations[key] {
            report(.duplicateAttribute(key, first: first.name.range, at: attribute.name.range))
            return
        }
        var allowed: [String]?
        if let list = attribute.allowed {
            guard attribute.type == .string || attribute.type == .set else {
                report(.oneOfNotAllowed(attribute.type, at: list.range))
                return
            }
            if list.items.isEmpty { report(.emptyList(at: list.range)) }
            var values: [String] = []
            var firstListed: [String: SourceRange] = [:]
            for item in list.items {
                guard case .string(let value) = item.value else {
                    report(.literalTypeMismatch(name: key, type: attribute.type, literal: item))
                    continue
                }
                if let first = firstListed[value] {
                    report(.duplicateListValue(value, first: first, at: item.range))
                    continue
                }
                firstListed[value] = item.range
                if attribute.type == .set, value.contains(",") {
                    report(.commaInSetValue(value, at: item.range))
                }
                values.append(value)
            }
            allowed = values
        }
        attributeDeclarations[key] = attribute
        attributeTypes[.custom(key)] = AttributeType(type: attribute.type, allowed: allowed, isDeclared: true)
    }

    mutating func checkInputTarget(_ target: AttributeReference) -> Bool {
        switch target.target {
        case .builtin(let field):
            guard BuiltinField.inputTargets.contains(field) else {
                report(.invalidInputTarget(target.displayName, at: target.range))
                return false
            }
        case .custom(let key):
            guard AdaptyLimits.isValidKey(key) else {
                report(.invalidKey(key, at: target.range))
                return false
            }
        case .shownCount, .lastShown:
            report(.invalidInputTarget(target.displayName, at: target.range))
            return false
        }
        return true
    }
}
