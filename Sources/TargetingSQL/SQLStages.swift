/// Columns added to every profile row in numbered stages: a column may use the columns of
/// earlier stages. Each non-empty stage becomes one `SELECT *, …` common table expression.
struct SQLStages {
    /// Column (name, expression) pairs by stage number.
    private(set) var stages: [Int: [(name: String, expression: String)]] = [:]

    /// Adds a column at `stage`.
    mutating func add(_ stage: Int, _ name: String, _ expression: String) {
        stages[stage, default: []].append((name, expression))
    }

    /// The non-empty stages in order.
    var ordered: [[(name: String, expression: String)]] {
        stages.keys.sorted().compactMap { stages[$0] }.filter { !$0.isEmpty }
    }
}

/// Stage numbers used when reading slots.
enum SQLStage {
    static let locate = 1
    static let raw = 2
    static let rawTyped = 3
    static let text = 4
    static let stored = 5
    static let view = 6
    static let parts = 7
    static let value = 8
    static let civilDate = 9
    static let derived = 10
    static let folded = 11
}
