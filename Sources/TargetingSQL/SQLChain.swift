/// The columns of a query after its source `t0`, each of which may use the columns added
/// before it, rendered as stages: common table expressions each adding the columns whose
/// inputs the stages before it computed.
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
///
/// With `inlining`, a column that is used once, or is only another column's name, is not a
/// column at all: its expression is written where it is used, so that a query over a typed
/// table is one pass, as a hand-written one is, and a stage holds only what is used twice.
struct SQLChain {
    /// One stage: its name, the stage it follows, and its columns with their comments.
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
    /// Whether `t0` ends in `OFFSET 0` in PostgreSQL (not needed when it only renames columns).
    var sourceIsFenced = true
    /// Whether columns used once are written where they are used.
    var inlining = false
    /// Whether the dialect's string literals escape with a backslash (for reading names).
    var backslashEscapes = false
    /// Every column added, in order, with its comment.
    private var columns: [(name: String, expression: String, comment: String?)] = []

    init(source: String, sourceColumns: [String]) {
        self.source = source
        self.sourceColumns = sourceColumns
    }

    /// Adds `columns`, each under its comment.
    mutating func add(_ columns: [(name: String, expression: String)], comments: [String?] = []) {
        for (index, column) in columns.enumerated() {
            self.columns.append((column.name, column.expression, index < comments.count ? comments[index] : nil))
        }
    }

    /// The stages, and the final `SELECT` (`select` given the name of the last stage) with the
    /// inlined columns written into it.
    func render(select: (String) -> String) -> (stages: [Stage], select: String) {
        var kept = columns
        var written: [String: String] = [:]
        if inlining {
            // Only the columns the final `SELECT` reaches count: a column no one reads is dropped.
            var live = Set(SQLChain.words(in: select("t0"), backslashEscapes: backslashEscapes))
            for column in columns.reversed() where live.contains(column.name) {
                live.formUnion(SQLChain.words(in: column.expression, backslashEscapes: backslashEscapes))
            }
            var uses: [String: Int] = [:]
            for text in columns.filter({ live.contains($0.name) }).map(\.expression) + [select("t0")] {
                for name in SQLChain.words(in: text, backslashEscapes: backslashEscapes) { uses[name, default: 0] += 1 }
            }
            kept = []
            for column in columns where live.contains(column.name) {
                let expression = SQLChain.substitute(written, in: column.expression, backslashEscapes: backslashEscapes)
                let bare = SQLChain.isName(expression)
                if (uses[column.name] ?? 0) <= 1 || bare {
                    written[column.name] = bare ? expression : "(" + expression + ")"
                } else {
                    kept.append((column.name, expression, column.comment))
                }
            }
        }
        var stages: [Stage] = []
        var depths = Dictionary(sourceColumns.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
        for column in kept {
            let depth = (names(in: [column.expression]).compactMap { depths[$0] }.max() ?? 0) + 1
            while stages.count < depth {
                stages.append(Stage(name: "t\(stages.count + 1)", after: stages.last?.name ?? "t0"))
            }
            stages[depth - 1].columns.append((column.name, column.expression))
            stages[depth - 1].comments.append(column.comment)
            depths[column.name] = depth
        }
        let finalSelect = SQLChain.substitute(written, in: select(stages.last?.name ?? "t0"), backslashEscapes: backslashEscapes)
        return (stages, finalSelect)
    }

    /// Spark SQL: the `WITH` list of `t0` and every stage, then the final `SELECT`.
    func commonTableExpressions(select: (String) -> String) -> String {
        let (stages, finalSelect) = render(select: select)
        return "WITH\nt0 AS (\n\(source)\n)" + stages.map { ",\n\($0.name) AS (\n  SELECT *,\n\($0.list)\n  FROM \($0.after)\n)" }.joined() + "\n" + finalSelect
    }

    /// PostgreSQL and DuckDB: the `WITH` list of `t0` and the stages, in order, each passing on
    /// only the names a later stage or the final `SELECT` uses, and ending in `fence` (PostgreSQL's
    /// `OFFSET 0`), then the final `SELECT`. Each is referenced once, so PostgreSQL (12 and
    /// later) plans it as a subquery of the next, not a materialised table. With `materialized`
    /// (DuckDB) each stage is `AS MATERIALIZED`: DuckDB would otherwise write each stage's
    /// expressions into the next, and a JSON profile's chain of steps then took its planner
    /// seconds.
    func carryingCommonTableExpressions(fence: String?, materialized: Bool = false, select: (String) -> String) -> String {
        let (stages, finalSelect) = render(select: select)
        // Backwards, keeping the live names: those named after the stage and defined before it.
        var order: [String: Int] = [:]
        for (position, name) in (sourceColumns + stages.flatMap { $0.columns.map(\.name) }).enumerated() { order[name] = position }
        var live = names(in: [finalSelect]).filter { order[$0] != nil }
        var carried: [[String]] = Array(repeating: [], count: stages.count)
        for index in stages.indices.reversed() {
            live.subtract(stages[index].columns.map(\.name))
            carried[index] = live.sorted { order[$0]! < order[$1]! }
            live.formUnion(names(in: stages[index].columns.map(\.expression)).filter { order[$0] != nil })
        }
        let listed = zip(stages, carried).map { stage, passed in
            "\(stage.name) AS \(materialized ? "MATERIALIZED " : "")(\n  SELECT\n" + passed.map { "    \($0),\n" }.joined() + "\(stage.list)\n  FROM \(stage.after)" + (fence.map { "\n  " + $0 } ?? "") + "\n)"
        }
        let sourceFence = sourceIsFenced ? fence.map { "\n  " + $0 } ?? "" : ""
        return "WITH\nt0 AS (\n\(source)\(sourceFence)\n)" + listed.map { ",\n" + $0 }.joined() + "\n" + finalSelect
    }

    /// Whether `text` is one name (a column) or a number.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The words of `texts` that could name a column (letters, digits and `_`, not starting
    /// with a digit), outside string literals. A name that only looks like a column is harmless:
    /// it passes on a column no one reads.
    func names(in texts: [String]) -> Set<String> {
        Set(texts.flatMap { SQLChain.words(in: $0, backslashEscapes: backslashEscapes) })
    }

    /// Each word of `text` that could name a column, once per occurrence: not in a string
    /// literal, not a member after `.`.
    static func words(in text: String, backslashEscapes: Bool) -> [String] {
        var found: [String] = []
        scan(text, backslashEscapes: backslashEscapes) { word in
            found.append(word)
            return nil
        }
        return found
    }

    /// `text` with each word that names a column of `written` replaced by its text.
    static func substitute(_ written: [String: String], in text: String, backslashEscapes: Bool) -> String {
        if written.isEmpty { return text }
        return scan(text, backslashEscapes: backslashEscapes) { written[$0] }
    }

    /// Reads `text` word by word outside string literals (a word after `.` is a member, and
    /// skipped); returns the text with each word replaced by what `replace` gives for it.
    @discardableResult
    private static func scan(_ text: String, backslashEscapes: Bool, _ replace: (String) -> String?) -> String {
        var out = String.UnicodeScalarView()
        var word = String.UnicodeScalarView()
        var inString = false, escaped = false
        var previous: Unicode.Scalar = " "
        func flush() {
            guard !word.isEmpty else { return }
            let text = String(word)
            if let first = word.first, !("0"..."9").contains(first), previous != ".", let replacement = replace(text) {
                out.append(contentsOf: replacement.unicodeScalars)
            } else {
                out.append(contentsOf: word)
            }
            word.removeAll()
        }
        for scalar in text.unicodeScalars {
            if inString {
                out.append(scalar)
                if escaped {
                    escaped = false
                } else if backslashEscapes, scalar == "\\" {
                    escaped = true
                } else if scalar == "'" {
                    inString = false
                }
                previous = scalar
                continue
            }
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                word.append(scalar)
                continue
            }
            flush()
            previous = scalar
            out.append(scalar)
            if scalar == "'" { inString = true }
        }
        flush()
        return String(out)
    }
}
