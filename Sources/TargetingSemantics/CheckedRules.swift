import TargetingBase
import TargetingSyntax

/// The resolved type of an attribute used by the rules.
package struct AttributeType: Hashable, Sendable {
    /// The type, or nil when nothing fixes it (an undeclared attribute only tested with `is set`).
    package var type: ValueType?
    /// The allowed values (`one of`, `set of`, or a built-in enumeration).
    package var allowed: [String]?
    /// Whether an `attribute` declaration (or the built-in field table) fixed the type.
    package var isDeclared: Bool
}

/// A checked rule set: every name resolves, every comparison type-checks. Built by `Checker`.
package struct CheckedRules: Sendable {
    /// The parsed files, sorted by path.
    package var files: [RuleFile]
    /// Declared custom attributes by key.
    package var attributeDeclarations: [String: AttributeDeclaration]
    /// The type of every attribute the rules use or declare.
    package var attributeTypes: [AttributeReference.Target: AttributeType]
    /// The `input` declarations in file order.
    package var inputs: [InputDeclaration]
    /// The segments in file order.
    package var segments: [NamedExpression]
    /// The audiences in file order.
    package var audiences: [NamedExpression]
    /// The placements in file order.
    package var placements: [PlacementDeclaration]
    /// The experiments in file order.
    package var experiments: [ExperimentDeclaration] = []
    /// The rule set's holdout, if it has one.
    package var holdout: HoldoutDeclaration? = nil
    /// The layers in file order.
    package var layers: [LayerDeclaration] = []

    /// The segment named `name`.
    package func segment(named name: String) -> NamedExpression? { segments.first { $0.name.text == name } }
    /// The audience named `name`.
    package func audience(named name: String) -> NamedExpression? { audiences.first { $0.name.text == name } }
    /// The experiment named `name`.
    package func experiment(named name: String) -> ExperimentDeclaration? { experiments.first { $0.name.text == name } }
    /// Whether the rule set uses experiments or a holdout, so decisions report them.
    package var reportsExperiments: Bool { !experiments.isEmpty || holdout != nil }
    /// The layer holding the experiment named `experiment`, with the range of buckets it takes.
    package func layer(of experiment: String) -> (layer: LayerDeclaration, buckets: Range<Int>)? {
        for layer in layers {
            var start = 0
            for member in layer.members {
                let end = start + member.weightValue
                if member.experiment.text == experiment { return (layer, start..<end) }
                start = end
            }
        }
        return nil
    }
    /// The placement named `name`.
    package func placement(named name: String) -> PlacementDeclaration? { placements.first { $0.name.text == name } }
}
