/// The storage-independent type of an attribute (SPEC §4.2).
public enum ValueType: String, Hashable, Sendable, CaseIterable {
    case string, number, bool, date, version, set
}

/// `attribute NAME: TYPE [one of [..]]` or `set of [..]`.
public struct AttributeDeclaration: Hashable, Sendable {
    /// The custom attribute being declared.
    public var name: AttributeReference
    /// The declared type.
    public var type: ValueType
    /// Where the type word is.
    public var typeRange: SourceRange
    /// The allowed values of a `string one of [..]` or `set of [..]`.
    public var allowed: ListLiteral?
    /// The whole declaration.
    public var range: SourceRange
}

/// A screen or element name in an `input` declaration.
public struct ElementName: Hashable, Sendable {
    /// The name.
    public var text: String
    /// How it was spelled.
    public var spelling: NameSpelling
    /// Where it is written.
    public var range: SourceRange
}

/// `input [SCREEN/]ELEMENT -> TARGET`.
public struct InputDeclaration: Hashable, Sendable {
    /// The screen (`instanceId`), when qualified.
    public var screen: ElementName?
    /// The element (`element_id`).
    public var element: ElementName
    /// Where the answer goes.
    public var target: AttributeReference
    /// The whole declaration.
    public var range: SourceRange
}

/// `segment NAME = EXPR` or `audience NAME = EXPR`.
public struct NamedExpression: Hashable, Sendable {
    /// The declared name.
    public var name: Identifier
    /// The expression.
    public var expression: Expression
    /// The whole declaration.
    public var range: SourceRange
}

/// A destination of a placement row or split variant.
public enum Destination: Hashable, Sendable {
    /// `flow "ID"`.
    case flow(String, SourceRange)
    /// `paywall "ID"`.
    case paywall(String, SourceRange)
    /// `nothing`.
    case nothing(SourceRange)
    /// `split "ID" { … }`.
    case split(SplitDestination)

    /// Where it is written.
    public var range: SourceRange {
        switch self {
        case .flow(_, let range), .paywall(_, let range), .nothing(let range): range
        case .split(let split): split.range
        }
    }
}

extension Destination: CustomStringConvertible {
    /// As written in rules: `flow "ID"`, `paywall "ID"`, `nothing` or `split "ID"`.
    public var description: String {
        switch self {
        case .flow(let id, _): "flow \"\(id)\""
        case .paywall(let id, _): "paywall \"\(id)\""
        case .nothing: "nothing"
        case .split(let split): "split \"\(split.id)\""
        }
    }
}

/// One variant of a split: `50% -> flow "a"`.
public struct SplitVariant: Hashable, Sendable {
    /// The weight literal (a number).
    public var weight: Literal
    /// The destination (never a split).
    public var destination: Destination
    /// The whole variant.
    public var range: SourceRange
}

/// `split "ID" { variants }`.
public struct SplitDestination: Hashable, Sendable {
    /// The split id.
    public var id: String
    /// Where the id string is.
    public var idRange: SourceRange
    /// The variants in declaration order.
    public var variants: [SplitVariant]
    /// The whole split.
    public var range: SourceRange
}

/// Who a placement row is for.
public enum RowAudience: Hashable, Sendable {
    /// `everyone`.
    case everyone(SourceRange)
    /// A named audience.
    case audience(Identifier)

    /// Where it is written.
    public var range: SourceRange {
        switch self {
        case .everyone(let range): range
        case .audience(let identifier): identifier.range
        }
    }

    /// The name as reported in results (`everyone` or the audience name).
    public var name: String {
        switch self {
        case .everyone: "everyone"
        case .audience(let identifier): identifier.text
        }
    }
}

/// One row of a placement: `AUDIENCE -> DESTINATION`.
public struct PlacementRow: Hashable, Sendable {
    /// Who the row is for.
    public var audience: RowAudience
    /// What they see.
    public var destination: Destination
    /// The whole row.
    public var range: SourceRange
}

/// `placement NAME { rows }`.
public struct PlacementDeclaration: Hashable, Sendable {
    /// The placement name.
    public var name: Identifier
    /// The rows in priority order.
    public var rows: [PlacementRow]
    /// The whole declaration.
    public var range: SourceRange
}

/// One top-level declaration of a rules file.
public enum Declaration: Hashable, Sendable {
    case attribute(AttributeDeclaration)
    case input(InputDeclaration)
    case segment(NamedExpression)
    case audience(NamedExpression)
    case placement(PlacementDeclaration)

    /// Where the declaration is written.
    public var range: SourceRange {
        switch self {
        case .attribute(let d): d.range
        case .input(let d): d.range
        case .segment(let d), .audience(let d): d.range
        case .placement(let d): d.range
        }
    }
}

/// A parsed rules file.
public struct RuleFile: Hashable, Sendable {
    /// The source.
    public var source: SourceFile
    /// The declarations in file order.
    public var declarations: [Declaration]
    /// The comments in file order.
    public var comments: [Comment]
}
