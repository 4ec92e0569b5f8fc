/// The resolved type of an attribute used by the rules.
public struct AttributeType: Hashable, Sendable {
    /// The type, or nil when nothing fixes it (an undeclared attribute only tested with `is set`).
    public var type: ValueType?
    /// The allowed values (`one of`, `set of`, or a built-in enumeration).
    public var allowed: [String]?
    /// Whether an `attribute` declaration (or the built-in field table) fixed the type.
    public var isDeclared: Bool
}

/// A checked rule set: every name resolves, every comparison type-checks. Built by `Checker`.
public struct RuleSet: Sendable {
    /// The parsed files, sorted by path.
    public var files: [RuleFile]
    /// Declared custom attributes by key.
    public var attributeDeclarations: [String: AttributeDeclaration]
    /// The type of every attribute the rules use or declare.
    public var attributeTypes: [AttributeReference.Target: AttributeType]
    /// The `input` declarations in file order.
    public var inputs: [InputDeclaration]
    /// The segments in file order.
    public var segments: [NamedExpression]
    /// The audiences in file order.
    public var audiences: [NamedExpression]
    /// The placements in file order.
    public var placements: [PlacementDeclaration]

    /// The segment named `name`.
    public func segment(named name: String) -> NamedExpression? { segments.first { $0.name.text == name } }
    /// The audience named `name`.
    public func audience(named name: String) -> NamedExpression? { audiences.first { $0.name.text == name } }
    /// The placement named `name`.
    public func placement(named name: String) -> PlacementDeclaration? { placements.first { $0.name.text == name } }
}
