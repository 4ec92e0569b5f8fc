import TargetingBase

/// `attribute NAME: TYPE [one of [..]]` or `set of [..]`.
package struct AttributeDeclaration: Hashable, Sendable {
    /// The custom attribute being declared.
    package var name: AttributeReference
    /// The declared type.
    package var type: ValueType
    /// Where the type word is.
    package var typeRange: SourceRange
    /// The allowed values of a `string one of [..]` or `set of [..]`.
    package var allowed: ListLiteral?
    /// The whole declaration.
    package var range: SourceRange
}

/// A screen or element name in an `input` declaration.
package struct ElementName: Hashable, Sendable {
    /// The name.
    package var text: String
    /// How it was spelled.
    package var spelling: NameSpelling
    /// Where it is written.
    package var range: SourceRange
}

/// `input [SCREEN/]ELEMENT -> TARGET`.
package struct InputDeclaration: Hashable, Sendable {
    /// The screen (`instanceId`), when qualified.
    package var screen: ElementName?
    /// The element (`element_id`).
    package var element: ElementName
    /// Where the answer goes.
    package var target: AttributeReference
    /// The whole declaration.
    package var range: SourceRange
}

/// `segment NAME = EXPR` or `audience NAME = EXPR`.
package struct NamedExpression: Hashable, Sendable {
    /// The declared name.
    package var name: Identifier
    /// The expression.
    package var expression: Expression
    /// The whole declaration.
    package var range: SourceRange
}

/// A destination of a placement row or split variant.
package enum Destination: Hashable, Sendable {
    /// `flow "ID"`.
    case flow(String, SourceRange)
    /// `paywall "ID"`.
    case paywall(String, SourceRange)
    /// `nothing`.
    case nothing(SourceRange)
    /// `split "ID" [by KEY] { … }`.
    case split(SplitDestination)
    /// `EXPERIMENT { VARIANT -> DESTINATION … }`.
    case experiment(ExperimentDestination)

    /// Where it is written.
    package var range: SourceRange {
        switch self {
        case .flow(_, let range), .paywall(_, let range), .nothing(let range): range
        case .split(let split): split.range
        case .experiment(let experiment): experiment.range
        }
    }

    /// The variants' destinations of a split or an experiment row, else the destination itself.
    package var shown: [Destination] {
        switch self {
        case .split(let split): split.variants.map(\.destination)
        case .experiment(let experiment): experiment.arms.map(\.destination)
        case .flow, .paywall, .nothing: [self]
        }
    }
}

extension Destination: CustomStringConvertible {
    /// As written in rules: `flow "ID"`, `paywall "ID"`, `nothing`, `split "ID"` or the experiment's name.
    package var description: String {
        switch self {
        case .flow(let id, _): "flow \"\(id)\""
        case .paywall(let id, _): "paywall \"\(id)\""
        case .nothing: "nothing"
        case .split(let split): "split \"\(split.id)\""
        case .experiment(let experiment): experiment.experiment.text
        }
    }
}

/// One variant of a split: `50% -> flow "a"`.
package struct SplitVariant: Hashable, Sendable {
    /// The weight literal (a number).
    package var weight: Literal
    /// The destination (never a split).
    package var destination: Destination
    /// The whole variant.
    package var range: SourceRange
}

/// `split "ID" { variants }`.
package struct SplitDestination: Hashable, Sendable {
    /// The split id.
    package var id: String
    /// Where the id string is.
    package var idRange: SourceRange
    /// The attribute whose value is drawn (`by KEY`); nil for the default, `profile.id`.
    package var key: AttributeReference? = nil
    /// The variants in declaration order.
    package var variants: [SplitVariant]
    /// The whole split.
    package var range: SourceRange
}

/// Who a placement row is for.
package enum RowAudience: Hashable, Sendable {
    /// `everyone`.
    case everyone(SourceRange)
    /// A named audience.
    case audience(Identifier)

    /// Where it is written.
    package var range: SourceRange {
        switch self {
        case .everyone(let range): range
        case .audience(let identifier): identifier.range
        }
    }

    /// The name as reported in results (`everyone` or the audience name).
    package var name: String {
        switch self {
        case .everyone: "everyone"
        case .audience(let identifier): identifier.text
        }
    }
}

/// One row of a placement: `[always] AUDIENCE -> DESTINATION`.
package struct PlacementRow: Hashable, Sendable {
    /// Who the row is for.
    package var audience: RowAudience
    /// What they see.
    package var destination: Destination
    /// The whole row.
    package var range: SourceRange
    /// Where the row's leading `always` is written; nil for a row without it. An `always` row
    /// applies to profiles the holdout holds out, too.
    package var always: SourceRange? = nil

    package init(audience: RowAudience, destination: Destination, range: SourceRange, always: SourceRange? = nil) {
        self.audience = audience
        self.destination = destination
        self.range = range
        self.always = always
    }

    /// The word that makes a row an `always` row. It is a word only at the start of a row and
    /// only when an audience follows it, so an audience may still be named `always`.
    package static let alwaysWord = "always"

    /// Whether a profile the holdout holds out may take this row: an `everyone` or `always` row.
    package var appliesWhenHeldOut: Bool {
        if always != nil { return true }
        if case .everyone = audience { return true }
        return false
    }
}

/// `placement NAME { rows }`.
package struct PlacementDeclaration: Hashable, Sendable {
    /// The placement name.
    package var name: Identifier
    /// The rows in priority order.
    package var rows: [PlacementRow]
    /// The whole declaration.
    package var range: SourceRange
}

/// One top-level declaration of a rules file.
package enum Declaration: Hashable, Sendable {
    case attribute(AttributeDeclaration)
    case input(InputDeclaration)
    case segment(NamedExpression)
    case audience(NamedExpression)
    case placement(PlacementDeclaration)
    case experiment(ExperimentDeclaration)
    case holdout(HoldoutDeclaration)
    case layer(LayerDeclaration)

    /// Where the declaration is written.
    package var range: SourceRange {
        switch self {
        case .attribute(let d): d.range
        case .input(let d): d.range
        case .segment(let d), .audience(let d): d.range
        case .placement(let d): d.range
        case .experiment(let d): d.range
        case .holdout(let d): d.range
        case .layer(let d): d.range
        }
    }
}

/// A parsed rules file.
package struct RuleFile: Hashable, Sendable {
    /// The source.
    package var source: SourceFile
    /// The declarations in file order.
    package var declarations: [Declaration]
    /// The comments in file order.
    package var comments: [Comment]
    /// Declarations that failed to parse after their name: the name is still declared, so
    /// later references to it raise no cascade of errors.
    package var unparsed: [UnparsedDeclaration] = []
    /// Whether the lexer or parser reported an error in this file.
    package var hasSyntaxErrors = false
}

/// The name of a declaration that failed to parse.
package struct UnparsedDeclaration: Hashable, Sendable {
    /// The kind of declaration.
    package enum Kind: Hashable, Sendable {
        case attribute, segment, audience, placement, experiment, holdout, layer
    }

    /// The kind of declaration.
    package var kind: Kind
    /// The declared name (a custom attribute key for `attribute`).
    package var name: String
    /// Where the name is written.
    package var range: SourceRange
}
