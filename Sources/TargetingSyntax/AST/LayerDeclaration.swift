import TargetingBase

/// One experiment of a layer: `40% price_2025`.
package struct LayerMember: Hashable, Sendable {
    /// The share of the layer the experiment takes (a number literal).
    package var weight: Literal
    /// The experiment.
    package var experiment: Identifier
    /// The whole member.
    package var range: SourceRange

    /// The weight as a whole number (0 when the literal is not one; the checker reports that).
    package var weightValue: Int {
        weight.weightValue
    }
}

/// `layer NAME [by KEY] { WEIGHT% EXPERIMENT … }`: experiments that never enter one profile
/// together. A profile is drawn once per layer; each experiment takes the next range of
/// buckets, in the order written, and enters only the profiles whose bucket falls in it.
package struct LayerDeclaration: Hashable, Sendable {
    /// The layer's name (the draw's name).
    package var name: Identifier
    /// The attribute whose value is drawn; nil for the default, `profile.id`.
    package var key: AttributeReference?
    /// The experiments in the order written.
    package var members: [LayerMember]
    /// The whole declaration.
    package var range: SourceRange

    /// The word that begins a layer (a word only at the start of a declaration, so an attribute,
    /// segment or placement may still be named `layer`).
    package static let word = "layer"
}
