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

    /// The per-profile rows of `query` counted inside the engine, as `resolve --summary` counts
    /// them: one row per entry of `entries` (every decision the placements can make, see
    /// `Program.possibleDecisions`), `placement, audience, kind, id, split, profiles, share` —
    /// with `experiment, variant, held_out` after `split` when the entries report them (the rule
    /// set has experiments or a holdout) — with 0 profiles where none takes it. `share` is the
    /// percent of the placement's profiles rounded down to one decimal, as a decimal of scale 1
    /// (`51.3`, `0.0`), as the CLI prints it. A decision is counted in the entry equal to it
    /// in every column, NULLs equal (the engines group them so). Rows come in the entries'
    /// order, which is rule order, as `resolve --summary` prints them.
    package static func summary(of query: String, entries: [Decision], dialect: SQLDialect) -> String {
        let null = "CAST(NULL AS \(dialect.textType))"
        func text(_ value: String?) -> String { value.map(dialect.string) ?? null }
        let experiments = entries.contains { $0.reportsExperiments }
        let values = entries.enumerated().map { number, entry in
            var items = [String(number + 1), text(entry.placement), text(entry.audience), text(entry.outcome?.kind), text(entry.outcome?.id), text(entry.split)]
            if experiments { items += [text(entry.experiment), text(entry.variant), entry.heldOut ? "TRUE" : "FALSE"] }
            return "  (" + items.joined(separator: ", ") + ")"
        }.joined(separator: ",\n")
        let parts = ["audience", "kind", "id", "split"] + (experiments ? ["experiment", "variant", "held_out"] : [])
        let list = parts.joined(separator: ", ")
        // The entries (each counting 0) and the decisions (each 1) in one list, grouped: no
        // join, so no engine traces the decision columns back through the query to filter it.
        return """
        SELECT placement, \(list), profiles,
          ROUND(COALESCE(FLOOR(profiles * 1000.0 / NULLIF(SUM(profiles) OVER (PARTITION BY placement), 0)), 0) / 10, 1) AS share
        FROM (
        SELECT MIN(entry) AS entry, placement, \(list), SUM(taken) AS profiles
        FROM (
        SELECT entry, placement, \(list), 0 AS taken
        FROM (VALUES
        \(values)
        ) AS e(entry, placement, \(list))
        UNION ALL
        SELECT CAST(NULL AS INT) AS entry, placement, \(list), 1 AS taken
        FROM (
        \(query)
        ) AS decisions
        ) AS listed
        GROUP BY placement, \(list)
        ) AS counted
        ORDER BY entry NULLS LAST, placement
        """
    }
}
