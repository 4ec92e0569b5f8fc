/// The stages of a query after its source `t0`, each adding columns that may use the columns
/// of the stages before.
///
/// Spark SQL: each stage is a common table expression, `SELECT *` of the one it follows plus its
/// columns; a `UNION ALL` may branch the chain (`previous` set back to an earlier stage).
///
/// PostgreSQL: each stage is `SELECT <what later stages use>, <its columns> FROM <the stage
/// before> OFFSET 0`. `OFFSET 0` keeps the planner from inlining a stage's expressions into
/// every use, so each column is computed once per profile; nothing is materialised, and a
/// stage passes on only the columns a later stage or the final `SELECT` names.
struct SQLChain {
    /// A stage: its name, the stage it follows, and its columns with their comments.
    struct Stage {
        let name: String
        let after: String
        let columns: [(name: String, expression: String)]
        let comments: [String?]

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
    var previous = "t0"

    init(source: String, sourceColumns: [String]) {
        self.source = source
        self.sourceColumns = sourceColumns
    }

    /// Adds `t<N>` after `previous`: `columns`, each under its comment.
    mutating func add(_ columns: [(name: String, expression: String)], comments: [String?] = []) {
        let name = "t\(stages.count + 1)"
        stages.append(Stage(name: name, after: previous, columns: columns, comments: comments))
        previous = name
    }

    /// Spark SQL: the `WITH` list of `t0` and every stage.
    var commonTableExpressions: String {
        "WITH\nt0 AS (\n\(source)\n),\n" + stages.map { "\($0.name) AS (\n  SELECT *,\n\($0.list)\n  FROM \($0.after)\n)" }.joined(separator: ",\n") + "\n"
    }

    /// PostgreSQL: the `WITH` list of `t0` and the stages up to `previous`, in order (the chain
    /// must not branch), each ending in `OFFSET 0`; `uses` is the text after the list (the final
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
