import TargetingEngine

import TargetingBase

extension SQLCompiler {
    /// The comment lines every printed query starts with: the instant inlined, the dialect and
    /// where the rules came from.
    package static func header(now: Int64, dialect: SQLDialect, rules: String) -> String {
        "-- now: \(Timestamp.format(now))\n-- dialect: \(dialect.rawValue)\n-- rules: \(rules.replacingNewlines)\n"
    }

    /// Several placements' queries as one: their rows one after the other.
    package static func union(_ queries: [String]) -> String {
        guard queries.count > 1 else { return queries.first ?? "" }
        return queries.enumerated().map { index, query in
            "SELECT * FROM (\n" + query + "\n) AS placement_\(index + 1)"
        }.joined(separator: "\nUNION ALL\n")
    }

    /// The per-profile rows of `query` counted inside the engine, as `resolve --summary` counts
    /// them: one row per (placement, audience, kind, id, split) with `profiles` and `share`, the
    /// percent of the placement's profiles rounded down to one decimal. Entries no profile
    /// takes have no row.
    package static func summary(of query: String) -> String {
        """
        SELECT placement, audience, kind, id, split, COUNT(*) AS profiles,
          FLOOR(COUNT(*) * 1000.0 / SUM(COUNT(*)) OVER (PARTITION BY placement)) / 10 AS share
        FROM (
        \(query)
        ) AS decisions
        GROUP BY placement, audience, kind, id, split
        ORDER BY placement, profiles DESC, audience, kind, id, split
        """
    }
}
