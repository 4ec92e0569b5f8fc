import TargetingBase
import TargetingEngine

extension TextOptions {
    /// Offers one string for every vector of truth values the field's comparisons can have on
    /// a string, found by running their automata together (`TextAutomata`), so the table is
    /// complete without sampling; the declared values go first, as readable examples. Returns
    /// false, offering nothing, when the comparisons cannot be decided this way.
    static func fillExactly(_ builder: inout OptionTableBuilder, allowed: [String]) -> Bool {
        let custom: Bool
        switch builder.field {
        case .custom: custom = true
        case .builtin: custom = false
        case .history, .assignment: return false  // histories are no strings (`HistoryOptions`)
        }
        var explored = 0
        let outcomes = TextAutomata.outcomes(builder.tests.map(\.test), custom: custom, work: &explored)
        builder.work += explored
        guard let outcomes else { return false }
        for value in allowed { builder.offer(.json(.string(value))) }
        for outcome in outcomes where !builder.has(outcome.vector) {
            builder.offer(.json(.string(outcome.witness)))
            // Evaluation has the last word: a witness that does not give its vector leaves the
            // table open rather than claiming what the automata said.
            if !builder.has(outcome.vector) { builder.isComplete = false }
        }
        return true
    }

    /// Whether some comparison of the field is a pattern, which only the automata decide.
    static func hasPattern(_ builder: OptionTableBuilder) -> Bool {
        builder.tests.contains { test in
            switch test.test.kind {
            case .text(let text, _):
                switch text {
                case .matches: true
                case .equals, .isIn, .contains, .startsWith, .endsWith: false
                }
            case .presence, .number, .bool, .date, .version, .members: false
            }
        }
    }
}
