import TargetingBase
import TargetingSyntax

/// Every place a name of the rule set is declared or used, across rules and tests files.
package struct SymbolIndex: Sendable {
    /// What a name names.
    package enum Kind: String, Hashable, Sendable {
        case segment, audience, placement, attribute, split, experiment, variant, holdout, layer
        /// `shown PLACEMENT [in DURATION]` or `last shown PLACEMENT` (the words before the
        /// placement's name, which is a placement occurrence of its own); the name is the
        /// subject as written.
        case history
    }

    /// One place a name is written. A variant's name is `EXPERIMENT.VARIANT`, so variants of
    /// different experiments stay apart.
    package struct Occurrence: Hashable, Sendable {
        /// What it names.
        package var kind: Kind
        /// The name: a segment, audience, placement, split, experiment or holdout name,
        /// `EXPERIMENT.VARIANT` for a variant, a custom attribute key, or `profile.FIELD` for a
        /// built-in field.
        package var name: String
        /// Where it is written (for an attribute, the whole reference, backticks included).
        package var range: SourceRange
        /// Whether this is the declaration.
        package var isDeclaration: Bool
        /// How an attribute was spelled (nil for other kinds).
        package var spelling: NameSpelling?

        /// The name as it is written here: a variant's own name, without its experiment's.
        package var writtenName: String {
            guard kind == .variant, let dot = name.firstIndex(of: ".") else { return name }
            return String(name[name.index(after: dot)...])
        }

        /// The experiment a variant belongs to (nil for other kinds).
        package var experiment: String? {
            guard kind == .variant, let dot = name.firstIndex(of: ".") else { return nil }
            return String(name[..<dot])
        }
    }

    /// Every occurrence, in file and source order.
    package private(set) var occurrences: [Occurrence] = []

    /// The index of parsed rules and tests files.
    package init(rules: [RuleFile], tests: [TestFile]) {
        var segments: Set<String> = [], audiences: Set<String> = []
        for file in rules {
            for declaration in file.declarations {
                if case .segment(let d) = declaration { segments.insert(d.name.text) }
                if case .audience(let d) = declaration { audiences.insert(d.name.text) }
            }
            for unparsed in file.unparsed {
                if unparsed.kind == .segment { segments.insert(unparsed.name) }
                if unparsed.kind == .audience { audiences.insert(unparsed.name) }
            }
        }
        /// A name used where a segment may stand: a segment, else an audience of that name.
        func named(_ identifier: Identifier) -> Kind {
            !segments.contains(identifier.text) && audiences.contains(identifier.text) ? .audience : .segment
        }
        for file in rules {
            for declaration in file.declarations {
                switch declaration {
                case .attribute(let d):
                    add(attribute: d.name, declaration: true)
                case .input(let d):
                    add(attribute: d.target, declaration: false)
                case .segment(let d), .audience(let d):
                    let kind: Kind = if case .segment = declaration { .segment } else { .audience }
                    occurrences.append(Occurrence(kind: kind, name: d.name.text, range: d.name.range, isDeclaration: true))
                    add(d.expression, named)
                case .placement(let d):
                    occurrences.append(Occurrence(kind: .placement, name: d.name.text, range: d.name.range, isDeclaration: true))
                    for row in d.rows {
                        if case .audience(let identifier) = row.audience {
                            occurrences.append(Occurrence(kind: .audience, name: identifier.text, range: identifier.range, isDeclaration: false))
                        }
                        add(row.destination, declaration: true)
                    }
                case .experiment(let d):
                    occurrences.append(Occurrence(kind: .experiment, name: d.name.text, range: d.name.range, isDeclaration: true))
                    if let key = d.key { add(attribute: key, declaration: false) }
                    for variant in d.variants {
                        occurrences.append(Occurrence(kind: .variant, name: d.name.text + "." + variant.name.text, range: variant.name.range, isDeclaration: true))
                    }
                case .layer(let d):
                    occurrences.append(Occurrence(kind: .layer, name: d.name.text, range: d.name.range, isDeclaration: true))
                    if let key = d.key { add(attribute: key, declaration: false) }
                    for member in d.members {
                        occurrences.append(Occurrence(kind: .experiment, name: member.experiment.text, range: member.experiment.range, isDeclaration: false))
                    }
                case .holdout(let d):
                    occurrences.append(Occurrence(kind: .holdout, name: d.name.text, range: d.name.range, isDeclaration: true))
                    if let key = d.key { add(attribute: key, declaration: false) }
                    for placement in d.excepted {
                        occurrences.append(Occurrence(kind: .placement, name: placement.text, range: placement.range, isDeclaration: false))
                    }
                }
            }
            for unparsed in file.unparsed {
                let kind: Kind = switch unparsed.kind {
                case .attribute: .attribute
                case .segment: .segment
                case .audience: .audience
                case .placement: .placement
                case .experiment: .experiment
                case .holdout: .holdout
                case .layer: .layer
                }
                occurrences.append(Occurrence(kind: kind, name: unparsed.name, range: unparsed.range, isDeclaration: true))
            }
        }
        for file in tests {
            for test in file.tests {
                for given in test.givens {
                    guard case .assignments(let lines, _) = given else { continue }
                    for line in lines {
                        switch line {
                        case .attribute(let assignment): add(attribute: assignment.target, declaration: false)
                        case .shown(let shown):
                            occurrences.append(Occurrence(kind: .placement, name: shown.placement.text, range: shown.placement.range, isDeclaration: false))
                        case .assigned(let assigned): add(experiment: assigned.experiment, variants: [assigned.variant])
                        }
                    }
                }
                for expectation in test.expectations {
                    switch expectation {
                    case .placement(let name, let expected, _):
                        occurrences.append(Occurrence(kind: .placement, name: name.text, range: name.range, isDeclaration: false))
                        if let audience = expected.audience {
                            occurrences.append(Occurrence(kind: .audience, name: audience.text, range: audience.range, isDeclaration: false))
                        }
                        if case .destination(let destination) = expected.outcome { add(destination, declaration: false) }
                        if let variant = expected.variant { add(experiment: variant.experiment, variants: [variant.variant]) }
                    case .heldOut:
                        break
                    case .membership(let name, _, _):
                        occurrences.append(Occurrence(kind: named(name), name: name.text, range: name.range, isDeclaration: false))
                    }
                }
            }
        }
        occurrences.sort { ($0.range.file, $0.range.start.offset) < ($1.range.file, $1.range.start.offset) }
    }

    private mutating func add(attribute reference: AttributeReference, declaration: Bool) {
        if let first = reference.placementNames.first {
            for placement in reference.placementNames {
                occurrences.append(Occurrence(kind: .placement, name: placement.text, range: placement.range, isDeclaration: false))
            }
            let words = SourceRange(file: reference.range.file, start: reference.range.start, end: first.range.start)
            occurrences.append(Occurrence(kind: .history, name: reference.displayName, range: words, isDeclaration: false))
            return
        }
        occurrences.append(Occurrence(kind: .attribute, name: reference.target.written, range: reference.range, isDeclaration: declaration, spelling: reference.spelling))
    }

    private mutating func add(_ expression: Expression, _ named: (Identifier) -> Kind) {
        expression.forEachLeaf { leaf in
            switch leaf {
            case .reference(let identifier):
                occurrences.append(Occurrence(kind: named(identifier), name: identifier.text, range: identifier.range, isDeclaration: false))
            case .comparison(let comparison):
                if case .attribute(let reference) = comparison.subject { add(attribute: reference, declaration: false) }
            case .prerequisite(let prerequisite):
                occurrences.append(Occurrence(kind: .placement, name: prerequisite.placement.text, range: prerequisite.placement.range, isDeclaration: false))
                for outcome in prerequisite.outcomes {
                    if case .variant(let experiment, let variant) = outcome { add(experiment: experiment, variants: [variant]) }
                }
            case .or, .and, .not, .group:
                break  // `forEachLeaf` visits leaves only
            }
        }
    }

    private mutating func add(_ destination: Destination, declaration: Bool) {
        switch destination {
        case .split(let split):
            occurrences.append(Occurrence(kind: .split, name: split.id, range: split.idRange, isDeclaration: declaration))
            if let key = split.key { add(attribute: key, declaration: false) }
        case .experiment(let row):
            add(experiment: row.experiment, variants: row.arms.map(\.variant))
        case .flow, .paywall, .nothing:
            break
        }
    }

    /// A use of an experiment and of some of its variants: a row's arms, or a test's
    /// `from EXPERIMENT.VARIANT`.
    private mutating func add(experiment: Identifier, variants: [Identifier]) {
        occurrences.append(Occurrence(kind: .experiment, name: experiment.text, range: experiment.range, isDeclaration: false))
        for variant in variants {
            occurrences.append(Occurrence(kind: .variant, name: experiment.text + "." + variant.text, range: variant.range, isDeclaration: false))
        }
    }

    /// The occurrence at byte `offset` of `file` (its range holds the offset, or ends at it).
    package func occurrence(in file: String, at offset: Int) -> Occurrence? {
        occurrences.first { $0.range.file == file && $0.range.start.offset <= offset && offset < $0.range.end.offset }
            ?? occurrences.first { $0.range.file == file && $0.range.end.offset == offset }
    }

    /// Every occurrence of a name of a kind.
    package func occurrences(of kind: Kind, named name: String) -> [Occurrence] {
        occurrences.filter { $0.kind == kind && $0.name == name }
    }

    /// The declarations of a name of a kind.
    package func declarations(of kind: Kind, named name: String) -> [Occurrence] {
        occurrences(of: kind, named: name).filter(\.isDeclaration)
    }
}
