/// Warnings that need the whole checked rule set: rows that can never decide and placements
/// that some profile falls through.
public enum Analyzer {
    /// Runs every analysis over an error-free rule set.
    public static func analyze(_ ruleSet: RuleSet) -> [Diagnostic] {
        []
    }
}
