import Foundation
import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// Checks parsed `.tests` files against a rule set: names in `expect`, `given` values against
/// declared and built-in types, custom attribute keys, input files, duplicate test names, and
/// tests that depend on the clock without pinning `now`.
package struct TestChecker {
    var diagnostics: [Diagnostic] = []
    let ruleSet: CheckedRules
    let fileExists: (String) -> Bool
    /// Reads a `given events` file to report lines that are not events; nil: not read.
    let readEvents: ((String) -> [UInt8]?)?
    let usesClock: Bool
    var testNames: [String: SourceRange] = [:]
    /// The `given events` files already read (each is reported once, at its first use).
    var eventFilesRead: Set<String> = []

    /// Checks `files` (in the order given) and returns every diagnostic, sorted.
    ///
    /// `fileExists` answers whether a `given events`/`given profile` file can be read (by
    /// default, through the file system). `readEvents`, when given, reads a `given events`
    /// file (nil when it cannot be read), and the lines that are not events are reported once
    /// per file, as `targeting test` skips them.
    package static func check(_ files: [TestFile], ruleSet: CheckedRules,
                             fileExists: (String) -> Bool = { FileManager.default.isReadableFile(atPath: $0) },
                             readEvents: ((String) -> [UInt8]?)? = nil) -> [Diagnostic] {
        withoutActuallyEscaping(fileExists) { fileExists in
            var checker = TestChecker(ruleSet: ruleSet, fileExists: fileExists, readEvents: readEvents, usesClock: TestChecker.usesClock(ruleSet))
            for file in files {
                for test in file.tests { checker.check(test, in: file.source.path) }
            }
            return Diagnostic.sorted(checker.diagnostics)
        }
    }

    init(ruleSet: CheckedRules, fileExists: @escaping (String) -> Bool, readEvents: ((String) -> [UInt8]?)?, usesClock: Bool) {
        self.ruleSet = ruleSet
        self.fileExists = fileExists
        self.readEvents = readEvents
        self.usesClock = usesClock
    }

    mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// Whether any segment compares `now`, `profile.age` or `profile.days_since_install`, counts
    /// showings in a window, or uses a `now ± d` operand.
    static func usesClock(_ ruleSet: CheckedRules) -> Bool {
        for comparison in ruleSet.segments.flatMap(\.expression.comparisons) {
            switch comparison.subject {
            case .now: return true
            case .attribute(let reference):
                if case .builtin(let field) = reference.target, BuiltinField.all[field]?.isDerived == true { return true }
                // A window of showings ends at now.
                if case .shownCount(_, _?) = reference.target { return true }
            }
            if comparison.literals.contains(where: { if case .now = $0.value { true } else { false } }) { return true }
        }
        return false
    }

    mutating func check(_ test: TestDeclaration, in path: String) {
        if let first = testNames[test.name] {
            report(.duplicateTestName(test.name, first: first, at: test.nameRange))
        } else {
            testNames[test.name] = test.nameRange
        }
        for (index, now) in test.nows.enumerated() {
            if index > 0 { report(.duplicateNow(first: test.nows[0].range, at: now.range)) }
            if case .date(nil) = now.value { report(.invalidDate(now.text, at: now.range)) }
        }
        if test.nows.isEmpty, usesClock { report(.clockDependentTest(test.name, at: test.nameRange)) }
        for given in test.givens {
            switch given {
            case .assignments(let lines, _):
                for line in lines {
                    switch line {
                    case .attribute(let assignment): check(assignment)
                    case .shown(let shown): check(shown)
                    case .assigned(let assigned): check(assigned)
                    }
                }
            case .events(let file, _):
                let resolved = file.resolved(relativeTo: path)
                if !fileExists(resolved) {
                    report(.missingTestInput(file.path, resolved: resolved, at: file.range))
                } else if let readEvents, eventFilesRead.insert(resolved).inserted, let bytes = readEvents(resolved) {
                    let broken = EventFile(bytes: bytes).broken
                    if !broken.isEmpty { report(.skippedEventLines(file.path, lines: broken, at: file.range)) }
                }
            case .profile(let file, _):
                let resolved = file.resolved(relativeTo: path)
                if !fileExists(resolved) { report(.missingTestInput(file.path, resolved: resolved, at: file.range)) }
            }
        }
        if test.expectations.isEmpty { report(.testWithoutExpectations(test.name, at: test.nameRange)) }
        for expectation in test.expectations { check(expectation) }
    }

    // MARK: - Expectations

    mutating func check(_ expectation: Expectation) {
        let name = expectation.name
        switch expectation {
        case .placement(_, let expected, _):
            guard let placement = ruleSet.placement(named: name.text) else {
                if ruleSet.audience(named: name.text) != nil {
                    report(.notAPlacement(name.text, is: "audience", at: name.range))
                } else if ruleSet.segment(named: name.text) != nil {
                    report(.notAPlacement(name.text, is: "segment", at: name.range))
                } else {
                    let suggestion = Suggestion.nearest(to: name.text, in: ruleSet.placements.map(\.name.text))
                    report(.unknownPlacement(name.text, suggestion: suggestion, at: name.range))
                }
                return
            }
            if case .destination(let destination) = expected.outcome { check(destination, of: placement) }
            if let audience = expected.audience {
                let names = placement.rows.map(\.audience.name)
                if !names.contains(audience.text) {
                    report(.audienceNotInPlacement(audience.text, placement: name.text,
                                                   suggestion: Suggestion.nearest(to: audience.text, in: names), at: audience.range))
                }
            }
            if let variant = expected.variant { check(variant, in: placement) }
        case .heldOut(_, let words, _):
            if ruleSet.holdout == nil { report(.noHoldout(at: words)) }
        case .membership:
            if ruleSet.audience(named: name.text) != nil || ruleSet.segment(named: name.text) != nil { return }
            if ruleSet.placement(named: name.text) != nil {
                report(.placementMembership(name.text, at: name.range))
                return
            }
            let candidates = ruleSet.audiences.map(\.name.text) + ruleSet.segments.map(\.name.text)
            report(.unknownMember(name.text, suggestion: Suggestion.nearest(to: name.text, in: candidates), at: name.range))
        }
    }

    /// `shown PLACEMENT at TIME`: a declared placement and a valid instant.
    mutating func check(_ shown: GivenShown) {
        let name = shown.placement
        if ruleSet.placement(named: name.text) == nil {
            let suggestion = Suggestion.nearest(to: name.text, in: ruleSet.placements.map(\.name.text))
            report(.unknownPlacement(name.text, suggestion: suggestion, at: name.range))
        }
        if case .date(nil) = shown.at.value { report(.invalidDate(shown.at.text, at: shown.at.range)) }
    }

    /// `assigned EXPERIMENT VARIANT at TIME`: a declared experiment, one of its variants, and a valid instant.
    mutating func check(_ assigned: GivenAssigned) {
        let name = assigned.experiment
        if let experiment = ruleSet.experiment(named: name.text) {
            let variants = experiment.variants.map(\.name.text)
            if !variants.contains(assigned.variant.text) {
                report(.unknownVariant(assigned.variant.text, experiment: name.text,
                                       suggestion: Suggestion.nearest(to: assigned.variant.text, in: variants), at: assigned.variant.range))
            }
        } else {
            let suggestion = Suggestion.nearest(to: name.text, in: ruleSet.experiments.map(\.name.text))
            report(.unknownExperiment(name.text, suggestion: suggestion, at: name.range))
        }
        if case .date(nil) = assigned.at.value { report(.invalidDate(assigned.at.text, at: assigned.at.range)) }
    }

    /// `from EXPERIMENT.VARIANT`: an experiment a row of the placement uses, and one of its variants.
    mutating func check(_ expected: PlacementExpectation.Variant, in placement: PlacementDeclaration) {
        let name = expected.experiment
        guard let experiment = ruleSet.experiment(named: name.text) else {
            let suggestion = Suggestion.nearest(to: name.text, in: ruleSet.experiments.map(\.name.text))
            report(.unknownExperiment(name.text, suggestion: suggestion, at: name.range))
            return
        }
        let used = placement.rows.contains { row in
            if case .experiment(let used) = row.destination { return used.experiment.text == name.text }
            return false
        }
        if !used {
            report(.experimentNotInPlacement(name.text, placement: placement.name.text, at: name.range))
            return
        }
        let variants = experiment.variants.map(\.name.text)
        if !variants.contains(expected.variant.text) {
            report(.unknownVariant(expected.variant.text, experiment: name.text,
                                   suggestion: Suggestion.nearest(to: expected.variant.text, in: variants), at: expected.variant.range))
        }
    }

    /// An expected flow or paywall must be of the placement's kind and one it can show.
    mutating func check(_ expected: Destination, of placement: PlacementDeclaration) {
        let wanted: (kind: String, id: String)
        switch expected {
        case .flow(let id, _): wanted = ("flow", id)
        case .paywall(let id, _): wanted = ("paywall", id)
        case .nothing, .split, .experiment: return
        }
        var shown: [(kind: String, id: String)] = []
        for row in placement.rows {
            switch row.destination {
            case let other: shown += other.shown.compactMap(TestChecker.shown)
            }
        }
        if let kind = shown.first?.kind, kind != wanted.kind {
            report(.destinationKindMismatch(placement: placement.name.text, shows: kind, expected: wanted.kind, at: expected.range))
            return
        }
        let ids = shown.map(\.id)
        if !ids.contains(wanted.id) {
            report(.unknownDestination(kind: wanted.kind, id: wanted.id, placement: placement.name.text,
                                       suggestion: Suggestion.nearest(to: wanted.id, in: ids), at: expected.range))
        }
    }

    static func shown(_ destination: Destination) -> (kind: String, id: String)? {
        switch destination {
        case .flow(let id, _): ("flow", id)
        case .paywall(let id, _): ("paywall", id)
        case .nothing, .split, .experiment: nil
        }
    }

    // MARK: - Given values

    mutating func check(_ assignment: GivenAssignment) {
        let target = assignment.target
        switch target.target {
        case .builtin(let field):
            guard let builtin = BuiltinField.all[field] else {
                let suggestion = Suggestion.nearest(to: field, in: BuiltinField.all.keys.sorted()).map { AttributeTarget.builtin($0).written }
                report(.unknownProfileField(target.displayName, suggestion: suggestion, at: target.range))
                return
            }
            if let derived = builtin.derived {
                report(.derivedField(target.displayName, from: AttributeTarget.builtin(derived.source).written, at: target.range))
                return
            }
            check(assignment.value, name: target.displayName, type: builtin.type, allowed: builtin.allowed, isCustom: false)
        case .custom(let key):
            guard AdaptyLimits.isValidKey(key) else {
                report(.invalidKey(key, at: target.range))
                return
            }
            if ruleSet.attributeTypes[.custom(key)] == nil {
                let known = ruleSet.attributeTypes.keys.compactMap { target -> String? in
                    if case .custom(let name) = target { return name }
                    return nil
                }
                report(.givenAttributeUnused(key, suggestion: Suggestion.nearest(to: key, in: known.sorted()), at: target.range))
            }
            let declared = ruleSet.attributeTypes[.custom(key)].flatMap { $0.isDeclared ? $0 : nil }
            check(assignment.value, name: key, type: declared?.type, allowed: declared?.allowed, isCustom: true)
        case .shownCount, .lastShown:
            // `shown … at TIME` is its own given line; an assignment names an attribute.
            report(.invalidKey(target.displayName, at: target.range))
        }
    }

    /// Checks a value against the attribute's type (nil: undeclared, any storable value).
    mutating func check(_ value: GivenValue, name: String, type: ValueType?, allowed: [String]?, isCustom: Bool) {
        switch value {
        case .literal(let literal):
            if case .date(nil) = literal.value {
                report(.invalidDate(literal.text, at: literal.range))
                return
            }
            if let type {
                guard TestChecker.literalFits(literal, type) else {
                    if type == .version, case .string(let text) = literal.value {
                        report(.invalidVersion(text, at: literal.range))
                    } else if type == .set {
                        report(.givenTypeMismatch(name: name, type: type, found: "a \(literal.kindName)", at: literal.range))
                    } else {
                        report(.literalTypeMismatch(name: name, type: type, literal: literal, allowed: allowed))
                    }
                    return
                }
            }
            guard case .string(let raw) = literal.value else { return }
            let text = AdaptyLimits.trimmed(raw)
            if isCustom, AdaptyLimits.length(text) > AdaptyLimits.maxValueLength {
                report(.givenValueTooLong(name: name, length: AdaptyLimits.length(text), at: literal.range))
            }
            if let allowed, !text.isEmpty, !allowed.contains(text) {
                report(.givenValueNotListed(text, name: name, allowed: allowed, at: literal.range))
            }
        case .list(let list):
            if let type, type != .set {
                report(.givenTypeMismatch(name: name, type: type, found: "a list", at: list.range))
                return
            }
            var members: [String] = []
            for item in list.items {
                guard case .string(let member) = item.value else {
                    report(.literalTypeMismatch(name: name, type: .set, literal: item, allowed: allowed))
                    continue
                }
                if isCustom, member.contains(",") { report(.commaInSetValue(member, at: item.range)) }
                if let allowed, !allowed.contains(member) {
                    report(.givenValueNotListed(member, name: name, allowed: allowed, at: item.range))
                }
                members.append(member)
            }
            let joined = AdaptyLimits.trimmed(members.joined(separator: ","))
            if isCustom, AdaptyLimits.length(joined) > AdaptyLimits.maxValueLength {
                report(.givenValueTooLong(name: name, length: AdaptyLimits.length(joined), at: list.range))
            }
        }
    }

    static func literalFits(_ literal: Literal, _ type: ValueType) -> Bool {
        switch literal.value {
        case .string(let text): type == .string || (type == .version && SemanticVersion(parsing: text) != nil)
        case .number: type == .number
        case .bool: type == .bool
        case .date, .now: type == .date
        case .pattern: false
        }
    }
}
