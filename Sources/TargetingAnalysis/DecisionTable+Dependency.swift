import TargetingSyntax

extension DecisionTable {
    /// One thing besides a row's attributes that decides between its destinations.
    package enum Dependency: Hashable, Sendable {
        /// A comparison of a reached row (or a row above it) that the row's attributes leave
        /// open: one per distinct comparison of the rules.
        case comparison(Comparison)
        /// Whether the profile has a value for the key a draw needs; the stored field.
        case key(AttributeReference.Target)
        /// The bucket of the split with this id.
        case split(String)
        /// The bucket of the experiment with this name.
        case experiment(String)
        /// The draw of the holdout with this name.
        case holdout(String)
        /// The draw of the layer with this name.
        case layer(String)
        /// The assignment recorded for the sticky experiment with this name (`history.assigned`),
        /// which takes the profile whatever the row's audience while it sticks.
        case assignment(String)
    }
}
