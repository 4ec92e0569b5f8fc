/// The stages of a query after its source `t0`, each adding columns that may use the columns
/// of the stages before.
///
/// Spark SQL: each stage is a common table expression, `SELECT *` of the one it follows plus its
/// columns.
///
/// PostgreSQL: each stage is `SELECT <what later stages use>, <its columns> FROM <the stage
/// before> OFFSET 0`. `OFFSET 0` keeps the planner from inlining a stage's expressions into
/// every use, so each column is computed once per profile; nothing is materialised, and a
/// stage passes on only the columns a later stage or the final `SELECT` names.
///
/// A column goes into the first stage after every column it uses, so a query has as many
/// stages as its longest chain of columns using columns, however its columns were grouped
/// when added: every stage costs each engine a pass over the row.
struct SQLChain {
    /// A stage: its name, the stage it follows, and its columns with their comments.
    struct Stage {
        let name: String
        let after: String
        var columns: [(name: String, expression: String)] = []
        var comments: [String?] = []

        /// The column list, each column under its comment.
        var list: String {
            columns.enumerated().map { index, column in
                let comment = index < comments.count ? comments[index].map { "    -- \($0)\n" } ?? "" : ""
                return comment + "    \(column.expression) AS \(column.name)"
            }.joined(separator: ",\n")
        }
    }

    /// `t0`'s query and its columns.
    let source: String
    let sourceColumns: [String]
    private(set) var stages: [Stage] = []
    /// Each column's stage number (0 for `t0`'s).
    private var depths: [String: Int]

    /// The last stage, which has every column.
    var previous: String { stages.last?.name ?? "t0" }

    init(source: String, sourceColumns: [String]) {
        self.source = source
        self.sourceColumns = sourceColumns
        depths = Dictionary(sourceColumns.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Adds `columns`, each under its comment, each to the first stage after the columns it
    /// uses (a new stage after the last when that is the last).
    mutating func add(_ columns: [(name: String, expression: String)], comments: [String?] = []) {
        for (index, column) in columns.enumerated() {
            let depth = (SQLChain.names(in: [column.expression]).compactMap { depths[$0] }.max() ?? 0) + 1
            while stages.count < depth {
                stages.append(Stage(name: "t\(stages.count + 1)", after: previous))
            }
            stages[depth - 1].columns.append(column)
            stages[depth - 1].comments.append(index < comments.count ? comments[index] : nil)
            depths[column.name] = depth
        }
    }

    /// Spark SQL: the `WITH` list of `t0` and every stage.
    var commonTableExpressions: String {
        "WITH\nt0 AS (\n\(source)\n),\n" + stages.map { "\($0.name) AS (\n  SELECT *,\n\($0.list)\n  FROM \($0.after)\n)" }.joined(separator: ",\n") + "\n"
    }

    /// PostgreSQL: the `WITH` list of `t0` and the stages, in order, each ending in `OFFSET 0`; `uses` is the text after the list (the final
    /// `SELECT` and what follows), whose names each stage passes on. Each is referenced once, so
    /// PostgreSQL (12 and later) plans it as a subquery of the next, not a materialised table.
    func postgresCommonTableExpressions(using uses: [String]) -> String {
        // Backwards, keeping the live names: those named after the stage and defined before it.
        var order: [String: Int] = [:]
        for (position, name) in (sourceColumns + stages.flatMap { $0.columns.map(\.name) }).enumerated() { order[name] = position }
        var live = SQLChain.names(in: uses).filter { order[$0] != nil }
        var carried: [[String]] = Array(repeating: [], count: stages.count)
        for index in stages.indices.reversed() {
            live.subtract(stages[index].columns.map(\.name))
            carried[index] = live.sorted { order[$0]! < order[$1]! }
            live.formUnion(SQLChain.names(in: stages[index].columns.map(\.expression)).filter { order[$0] != nil })
        }
        let listed = zip(stages, carried).map { stage, passed in
            "\(stage.name) AS (\n  SELECT\n" + passed.map { "    \($0),\n" }.joined() + "\(stage.list)\n  FROM \(stage.after)\n  OFFSET 0\n)"
        }
        return "WITH\nt0 AS (\n\(source)\n  OFFSET 0\n)" + listed.map { ",\n" + $0 }.joined() + "\n"
    }

    /// The words of `texts` that could name a column (letters, digits and `_`, not starting
    /// with a digit), outside string literals. A name that only looks like a column is harmless:
    /// it passes on a column no one reads.
    static func names(in texts: [String]) -> Set<String> {
        var names: Set<String> = []
        for text in texts {
            var word = String.UnicodeScalarView()
            var inString = false
            func flush() {
                if let first = word.first, !("0"..."9").contains(first) { names.insert(String(word)) }
                word.removeAll()
            }
            for scalar in text.unicodeScalars {
                if inString {
                    if scalar == "'" { inString = false }
                } else if scalar == "'" {
                    flush()
                    inString = true
                } else if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                    word.append(scalar)
                } else {
                    flush()
                }
            }
            flush()
        }
        return names
    }
}
