/// One requirement of a question: a node must come out true or false.
struct Goal: Hashable {
    var node: Int
    var value: Bool
}

/// A profile the search found: an instant and one option for each variable it had to decide.
struct Witness {
    /// Index of the instant in `ProfileSearch.instants`.
    var instant: Int
    /// The options chosen; variables not listed may be absent.
    var choices: [(variable: Int, option: Int)]
    /// Whether the goals compare `now` in a way that differs between instants; other
    /// time-dependent fields only shift with the instant.
    var usesClock: Bool
}

/// The answer to a question.
enum SearchOutcome {
    /// Some profile meets every goal.
    case found(Witness)
    /// No profile meets every goal.
    case impossible
    /// The budget ran out, or the options were not known to cover every profile.
    case unknown
}
