import TargetingEngine

import TargetingBase

extension SQLCompiler {
    /// The comment lines every printed query starts with: the instant inlined, the dialect and
    /// where the rules came from.
    package static func header(now: Int64, dialect: SQLDialect, rules: String) -> String {
        "-- now: \(Timestamp.format(now))\n-- dialect: \(dialect.rawValue)\n-- rules: \(rules.replacingNewlines)\n"
    }

    /// The statement `--no-jit` puts before a PostgreSQL query: JIT compilation of a query this
    /// size takes longer than running it.
    package static let jitOff = "SET jit = off;\n"

    /// `sql --summary`: the placements named `placements` sized inside the engine, as `resolve
    /// --summary` sizes them: one row per entry (every decision the placements can make, see
    /// `Program.possibleDecisions`), `placement, audience, kind, id, split, profiles, share` —
    /// with `experiment, variant, held_out` after `split` when the entries report them (the rule
    /// set has experiments or a holdout) — with 0 profiles where none takes it. `share` is the
    /// percent of the placement's profiles rounded down to one decimal, as a decimal of scale 1
    /// (`51.3`, `0.0`), as the CLI prints it. Rows come in the entries' order, which is rule
    /// order, as `resolve --summary` prints them. When the rule set has a sticky experiment, a
    /// last column `sticky` says how many of each entry's profiles a recorded assignment kept
    /// (an entry is one decision, however it was made). `table`, `column` and `schema` are
    /// those of `compile(placements:…)`.
    ///
    /// Each profile is decided as `compile` decides it, but into the number of its entry per
    /// placement (`p<N>_e`, with `p<N>_s` 1 when a sticky assignment decided) rather than into
    /// text: the profiles are counted by those numbers (a few groups), the counts spread over the
    /// placements, and only then joined to the entries' text.
    ///
    /// - Throws: as `compile(placements:…)`.
    package static func summary(placements: [String], program: Program, now: Int64, dialect: SQLDialect,
                                table: SQLIdentifier = .profiles, column: SQLIdentifier = .profile,
                                schema: SQLTableSchema? = nil) throws(SQLCompileError) -> String {
        let indices = try placementIndices(placements, in: program)
        var compiler = SQLCompiler(program: program, now: now, dialect: dialect, sourceTable: table, sourceColumn: column)
        compiler.schema = schema
        let entries = indices.map { program.possibleDecisions(placement: $0) }
        return compiler.summary(indices.map { program.placements[$0] }, entries: entries, indices: indices)
    }

    /// The summary query of `placements` (the program's placements `indices`), whose entries are
    /// `entries`, one list per placement.
    func summary(_ placements: [Program.Placement], entries: [[Decision]], indices: [Int]) -> String {
        var (chain, shared) = chain(for: placements)
        let deciding = addDecisions(placements, prefix: { "p\($0)_" }, shared: shared, into: &chain)
        var numbered: [(name: String, expression: String)] = []
        var first = 1
        for (number, listed) in entries.enumerated() {
            let offset = first
            numbered.append((name: "p\(number)_e", expression: dialect.sql(deciding[number].perChoice { choice in
                let decision = program.flat.decision(placement: indices[number], choice: choice, profileID: nil)
                return listed.firstIndex { $0.sameEntry(as: decision) }.map { .integer(Int64(offset + $0)) } ?? .cast(.null, .int)
            })))
            first += listed.count
        }
        // Per placement that can be decided by a sticky assignment, whether it was (1 or 0).
        let reportsSticky = !program.stickyExperiments.isEmpty
        var stuck: [(name: String, expression: String)] = []
        var stuckColumns: [String?] = []
        for (number, columns) in deciding.enumerated() {
            guard let decided = columns.stuckDecision else {
                stuckColumns.append(nil)
                continue
            }
            stuck.append((name: "p\(number)_s", expression: dialect.sql(.caseWhen(subject: nil, [.init(decided, .integer(1))], otherwise: .integer(0)))))
            stuckColumns.append("p\(number)_s")
        }
        chain.add(numbered + stuck)
        func text(_ value: String?) -> String { dialect.sql(value.map(SQLExpression.string) ?? .cast(.null, .text)) }
        let all = entries.flatMap { $0 }
        let experiments = all.contains { $0.reportsExperiments }
        let values = all.enumerated().map { number, entry in
            var items = [String(number + 1), text(entry.placement), text(entry.audience), text(entry.outcome?.kind), text(entry.outcome?.id), text(entry.split)]
            if experiments { items += [text(entry.experiment), text(entry.variant), dialect.sql(.bool(entry.heldOut))] }
            return items
        }
        let parts = ["audience", "kind", "id", "split"] + (experiments ? ["experiment", "variant", "held_out"] : [])
        let list = parts.joined(separator: ", ")
        let columns = numbered.map(\.name)
        let grouping = columns + stuckColumns.compactMap { $0 }
        let spread = columns.enumerated().map { "WHEN \($0.offset) THEN g.\($0.element)" }.joined(separator: " ")
        let spreadStuck = stuckColumns.enumerated().map { "WHEN \($0.offset) THEN \($0.element.map { "g." + $0 } ?? "0")" }.joined(separator: " ")
        let stickyOut = reportsSticky ? ", sticky" : ""
        let select = { (last: String) in """
        SELECT placement, \(list), profiles,
          ROUND(COALESCE(FLOOR(profiles * 1000.0 / NULLIF(SUM(profiles) OVER (PARTITION BY placement), 0)), 0) / 10, 1) AS share\(stickyOut)
        FROM (
        SELECT e.entry, e.placement, \(parts.map { "e." + $0 }.joined(separator: ", ")), COALESCE(c.profiles, 0) AS profiles\(reportsSticky ? ", COALESCE(c.sticky, 0) AS sticky" : "")
        FROM \(dialect.valuesTable(values, alias: "e", columns: ["entry", "placement"] + parts))
        LEFT JOIN (
        SELECT taken.entry, SUM(taken.profiles) AS profiles\(reportsSticky ? ", SUM(CASE WHEN taken.stuck = 1 THEN taken.profiles ELSE 0 END) AS sticky" : "")
        FROM (
        SELECT CASE u.placement_number \(spread) END AS entry\(reportsSticky ? ", CASE u.placement_number \(spreadStuck) END AS stuck" : ""), g.profiles
        FROM (SELECT \(grouping.joined(separator: ", ")), COUNT(*) AS profiles FROM \(last) GROUP BY \(grouping.joined(separator: ", "))) AS g
        CROSS JOIN \(dialect.valuesTable(columns.indices.map { [String($0)] }, alias: "u", columns: ["placement_number"]))
        ) AS taken
        GROUP BY taken.entry
        ) AS c ON c.entry = e.entry
        ) AS counted
        ORDER BY entry

        """ }
        return query(chain, select: select)
    }
}
