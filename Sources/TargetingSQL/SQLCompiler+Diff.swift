import TargetingEngine

extension SQLCompiler {
    /// The impact of a rule change as one query over the table: both rule sets decide each
    /// profile, and the rows are the from → to table of `targeting diff` for the placements both
    /// have — `placement, from_kind, from_id, from_matched, to_kind, to_id, to_matched, profiles,
    /// examples` (up to three profile ids, the smallest) — for the profiles whose destination
    /// changes. A destination is `kind`/`id` (both null for `nothing`); `matched` is false for
    /// no match.
    ///
    /// Each side is grouped by the profile value first (a profile decides the same way wherever
    /// it appears), so identical profiles are counted once per copy and never multiplied by the join.
    package static func diff(old: Program, new: Program, placements: [String], now: Int64, dialect: SQLDialect,
                             table: String = "profiles", column: String = "profile") -> String {
        func side(_ program: Program) -> String {
            union(placements.map {
                compile(placement: $0, program: program, now: now, dialect: dialect, table: table, column: column, includeProfile: true)
            })
        }
        func grouped(_ query: String) -> String {
            """
            SELECT profile, placement, kind, id, audience IS NOT NULL AS matched, MIN(profile_id) AS profile_id, COUNT(*) AS copies
              FROM (
            \(query)
            ) AS decided
              GROUP BY profile, placement, kind, id, audience IS NOT NULL
            """
        }
        let examples = dialect == .postgres
            ? "(array_agg(o.profile_id ORDER BY o.profile_id) FILTER (WHERE o.profile_id IS NOT NULL))[1:3]"
            : "slice(array_sort(collect_set(o.profile_id)), 1, 3)"
        return """
        WITH
        old_decisions AS (
        \(grouped(side(old)))
        ),
        new_decisions AS (
        \(grouped(side(new)))
        )
        SELECT o.placement, o.kind AS from_kind, o.id AS from_id, o.matched AS from_matched,
          n.kind AS to_kind, n.id AS to_id, n.matched AS to_matched, SUM(o.copies) AS profiles,
          \(examples) AS examples
        FROM old_decisions AS o
        JOIN new_decisions AS n ON o.profile = n.profile AND o.placement = n.placement
        WHERE NOT (o.kind IS NOT DISTINCT FROM n.kind AND o.id IS NOT DISTINCT FROM n.id AND o.matched = n.matched)
        GROUP BY o.placement, o.kind, o.id, o.matched, n.kind, n.id, n.matched
        ORDER BY o.placement, profiles DESC, from_kind, from_id, to_kind, to_id
        """
    }
}
