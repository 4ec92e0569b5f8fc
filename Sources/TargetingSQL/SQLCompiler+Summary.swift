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
    /// (`51.3`, `0.0`), as the CLI prints it.
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
        let same = parts.map { "c.\($0) IS NOT DISTINCT FROM e.\($0)" }.joined(separator: " AND ")
        return """
        SELECT placement, \(list), profiles,
          ROUND(COALESCE(FLOOR(profiles * 1000.0 / NULLIF(SUM(profiles) OVER (PARTITION BY placement), 0)), 0) / 10, 1) AS share
        FROM (
        SELECT e.entry, e.placement, \(parts.map { "e." + $0 }.joined(separator: ", ")), COALESCE(c.profiles, 0) AS profiles
        FROM (VALUES
        \(values)
        ) AS e(entry, placement, \(list))
        LEFT JOIN (
        SELECT placement, \(list), COUNT(*) AS profiles
        FROM (
        \(query)
        ) AS decisions
        GROUP BY placement, \(list)
        ) AS c ON c.placement = e.placement AND \(same)
        ) AS counted
        ORDER BY placement, profiles DESC, entry
        """
    }
}
