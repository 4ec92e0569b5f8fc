import TargetingEngine

extension SQLCompiler {
    /// The impact of a rule change as one query over the table: both rule sets decide each
    /// profile, and the rows are the from → to table of `targeting diff` for the placements both
    /// have — `placement, from_kind, from_id, from_matched, to_kind, to_id, to_matched, profiles,
    /// examples` (up to three profile ids, the smallest) — for the profiles whose destination
    /// changes. A destination is `kind`/`id` (both null for `nothing`); `matched` is false for
    /// no match.
    ///
    /// A placement only the old rules have (`removed`) or only the new ones (`added`) has one
    /// row per destination it gives, sized as `targeting diff` sizes it: the missing side's
    /// `kind`, `id` and `matched` are NULL.
    ///
    /// Each side is grouped by the profile value first (a profile decides the same way wherever
    /// it appears), so identical profiles are counted once per copy and never multiplied by the join.
    package static func diff(old: Program, new: Program, placements: [String], removed: [String] = [], added: [String] = [],
                             now: Int64, dialect: SQLDialect, table: String = "profiles", column: String = "profile") -> String {
        func side(_ program: Program, _ names: [String]) -> String {
            union(names.map {
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
        func examples(_ alias: String) -> String {
            dialect == .postgres
                ? "(array_agg(\(alias).profile_id ORDER BY \(alias).profile_id) FILTER (WHERE \(alias).profile_id IS NOT NULL))[1:3]"
                : "slice(array_sort(collect_set(\(alias).profile_id)), 1, 3)"
        }
        let none = "CAST(NULL AS \(dialect.textType))", unknown = "CAST(NULL AS BOOLEAN)"
        let columns = ["placement", "from_kind", "from_id", "from_matched", "to_kind", "to_id", "to_matched", "profiles", "examples"]
        func named(_ values: [String]) -> String {
            zip(values, columns).map { value, name in value.hasSuffix(".\(name)") ? value : "\(value) AS \(name)" }.joined(separator: ", ")
        }
        var sides: [String] = []
        var selects: [String] = []
        if !placements.isEmpty {
            sides.append("old_decisions AS (\n\(grouped(side(old, placements)))\n)")
            sides.append("new_decisions AS (\n\(grouped(side(new, placements)))\n)")
            selects.append("""
            SELECT o.placement, o.kind AS from_kind, o.id AS from_id, o.matched AS from_matched,
              n.kind AS to_kind, n.id AS to_id, n.matched AS to_matched, SUM(o.copies) AS profiles,
              \(examples("o")) AS examples
            FROM old_decisions AS o
            JOIN new_decisions AS n ON o.profile = n.profile AND o.placement = n.placement
            WHERE NOT (o.kind IS NOT DISTINCT FROM n.kind AND o.id IS NOT DISTINCT FROM n.id AND o.matched = n.matched)
            GROUP BY o.placement, o.kind, o.id, o.matched, n.kind, n.id, n.matched

            """)
        }
        if !removed.isEmpty {
            sides.append("removed_decisions AS (\n\(grouped(side(old, removed)))\n)")
            selects.append("""
            SELECT \(named(["r.placement", "r.kind", "r.id", "r.matched", none, none, unknown, "SUM(r.copies)", examples("r")]))
            FROM removed_decisions AS r
            GROUP BY r.placement, r.kind, r.id, r.matched

            """)
        }
        if !added.isEmpty {
            sides.append("added_decisions AS (\n\(grouped(side(new, added)))\n)")
            selects.append("""
            SELECT \(named(["a.placement", none, none, unknown, "a.kind", "a.id", "a.matched", "SUM(a.copies)", examples("a")]))
            FROM added_decisions AS a
            GROUP BY a.placement, a.kind, a.id, a.matched

            """)
        }
        guard !selects.isEmpty else { return "" }
        let body = selects.count == 1 ? selects[0] : "SELECT * FROM (\n" + selects.joined(separator: "UNION ALL\n") + ") AS impact\n"
        return "WITH\n" + sides.joined(separator: ",\n") + "\n" + body + "ORDER BY placement, profiles DESC, from_kind, from_id, to_kind, to_id\n"
    }
}
