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
    /// With `byRow` (`diff --by row`), a decision is also told apart by its audience and split, as
    /// `resolve --summary` tells them apart, and the columns are `placement, from_audience,
    /// from_kind, from_id, from_split, from_matched, to_audience, to_kind, to_id, to_split,
    /// to_matched, profiles, examples`; the audience is null for no match. When either rule set
    /// has experiments or a holdout, the experiment, the variant and whether the
    /// profile was held out tell decisions apart too: `from_experiment, from_variant,
    /// from_held_out` follow `from_split`, and likewise for `to_`.
    ///
    /// When either rule set has a sticky experiment, two last columns `sticky_before` and
    /// `sticky_after` say how many of a row's profiles a recorded assignment kept under the old
    /// and the new rules (NULL for the side a placement lacks): a decision is told apart from
    /// another by what it shows, not by whether an assignment or a draw made it.
    /// `diffColumns` lists the columns.
    ///
    /// With `layout` `.columns`, the table is the typed table of both rule sets' columns
    /// (`SQLTableSchema(programs: [old, new])`).
    ///
    /// Each side is grouped by the profile value first (a profile decides the same way wherever
    /// it appears), so identical profiles are counted once per copy and never multiplied by the join.
    ///
    /// - Throws: `SQLCompileError.unknownPlacement` for a name the rule set it is looked up in
    ///   (old for `placements` and `removed`, new for `placements` and `added`) lacks;
    ///   `.noPlacement` when all three lists are empty.
    package static func diff(old: Program, new: Program, placements: [String], removed: [String] = [], added: [String] = [],
                             now: Int64, dialect: SQLDialect, table: SQLIdentifier = .profiles, column: SQLIdentifier = .profile,
                             layout: SQLLayout = .json, byRow: Bool = false) throws(SQLCompileError) -> String {
        let experiments = byRow && (old.reportsExperiments || new.reportsExperiments)
        let sticky = !old.stickyExperiments.isEmpty || !new.stickyExperiments.isEmpty
        // One typed table for both rule sets: the columns either reads.
        let schema = layout == .columns ? try SQLTableSchema(programs: [old, new]) : nil
        func side(_ program: Program, _ names: [String]) throws(SQLCompileError) -> String {
            try compile(placements: names, program: program, now: now, dialect: dialect, table: table, column: column,
                    schema: schema, includeProfile: true, experimentColumns: experiments,
                    stickyColumn: !program.stickyExperiments.isEmpty)
        }
        // What tells two decisions apart, in the order of the columns.
        let parts = diffParts(byRow: byRow, experiments: experiments)
        // Whether a side's decision was kept by a sticky assignment (a side without sticky
        // experiments has no such column: never).
        func grouped(_ query: String, _ program: Program) -> String {
            let list = parts.joined(separator: ", ")
            let sideHasSticky = !program.stickyExperiments.isEmpty
            let keep = sticky ? ", \(sideHasSticky ? "sticky" : "FALSE") AS sticky" : ""
            return """
            SELECT profile, placement, \(list), audience IS NOT NULL AS matched\(keep), MIN(profile_id) AS profile_id, COUNT(*) AS copies
              FROM (
            \(query)
            ) AS decided
              GROUP BY profile, placement, \(list), audience IS NOT NULL\(sideHasSticky ? ", sticky" : "")
            """
        }
        // How many of a side's profiles a sticky assignment kept, when `sticky` says so.
        func keptCount(_ sticky: String, _ alias: String) -> String {
            dialect.sql(.call("SUM", [.caseWhen(subject: nil, [.init(.column(sticky), .column("\(alias).copies"))], otherwise: .integer(0))]))
        }
        func stickyCount(_ alias: String) -> String { keptCount("\(alias).sticky", alias) }
        let noCount = dialect.sql(.cast(.null, .bigint))
        func examples(_ alias: String) -> String { dialect.sql(.smallest(3, .column("\(alias).profile_id"))) }
        let none = dialect.sql(.cast(.null, .text)), unknown = dialect.sql(.cast(.null, .boolean))
        let columns = diffColumns(byRow: byRow, experiments: experiments, sticky: sticky)
        func decision(_ alias: String) -> [String] { parts.map { "\(alias).\($0)" } + ["\(alias).matched"] }
        let absent = parts.map { $0 == "held_out" ? unknown : none } + [unknown]
        func named(_ values: [String]) -> String {
            zip(values, columns).map { value, name in value.hasSuffix(".\(name)") ? value : "\(value) AS \(name)" }.joined(separator: ", ")
        }
        var sides: [String] = []
        var selects: [String] = []
        if !placements.isEmpty {
            sides.append("old_decisions AS (\n\(grouped(try side(old, placements), old))\n)")
            sides.append("new_decisions AS (\n\(grouped(try side(new, placements), new))\n)")
            let from = parts.map { "o.\($0) AS from_\($0)" }.joined(separator: ", ")
            let to = parts.map { "n.\($0) AS to_\($0)" }.joined(separator: ", ")
            let same = parts.map { dialect.sql(.notDistinct(.column("o.\($0)"), .column("n.\($0)"))) }.joined(separator: " AND ")
            let keys = (decision("o") + decision("n")).joined(separator: ", ")
            selects.append("""
            SELECT o.placement, \(from), o.matched AS from_matched,
              \(to), n.matched AS to_matched, SUM(o.copies) AS profiles,
              \(examples("o")) AS examples\(sticky ? ",\n  \(stickyCount("o")) AS sticky_before, \(keptCount("n.sticky", "o")) AS sticky_after" : "")
            FROM old_decisions AS o
            JOIN new_decisions AS n ON o.profile = n.profile AND o.placement = n.placement
            WHERE NOT (\(same) AND o.matched = n.matched)
            GROUP BY o.placement, \(keys)

            """)
        }
        if !removed.isEmpty {
            sides.append("removed_decisions AS (\n\(grouped(try side(old, removed), old))\n)")
            let counts = sticky ? [stickyCount("r"), noCount] : []
            selects.append("""
            SELECT \(named(["r.placement"] + decision("r") + absent + ["SUM(r.copies)", examples("r")] + counts))
            FROM removed_decisions AS r
            GROUP BY r.placement, \(decision("r").joined(separator: ", "))

            """)
        }
        if !added.isEmpty {
            sides.append("added_decisions AS (\n\(grouped(try side(new, added), new))\n)")
            let counts = sticky ? [noCount, stickyCount("a")] : []
            selects.append("""
            SELECT \(named(["a.placement"] + absent + decision("a") + ["SUM(a.copies)", examples("a")] + counts))
            FROM added_decisions AS a
            GROUP BY a.placement, \(decision("a").joined(separator: ", "))

            """)
        }
        guard !selects.isEmpty else { throw .noPlacement }
        let body = selects.count == 1 ? selects[0] : "SELECT * FROM (\n" + selects.joined(separator: "UNION ALL\n") + ") AS impact\n"
        let order = (parts.map { "from_" + $0 } + parts.map { "to_" + $0 }).joined(separator: ", ")
        return "WITH\n" + sides.joined(separator: ",\n") + "\n" + body + "ORDER BY placement, profiles DESC, \(order)\n"
    }

    /// What tells two decisions apart in `diff`'s query, in the order of its columns: by row
    /// the audience, the destination and the split (and with `experiments` the experiment,
    /// the variant and the holdout); by destination the destination alone.
    static func diffParts(byRow: Bool, experiments: Bool) -> [String] {
        byRow ? ["audience", "kind", "id", "split"] + (experiments ? ["experiment", "variant", "held_out"] : []) : ["kind", "id"]
    }

    /// The columns `diff(old:new:…)` returns, in order: by row or by destination, with the
    /// experiments' columns when either rule set has experiments or a holdout (by row only), and
    /// the sticky counts when either has a sticky experiment.
    package static func diffColumns(byRow: Bool, experiments: Bool, sticky: Bool) -> [String] {
        let parts = diffParts(byRow: byRow, experiments: byRow && experiments)
        return ["placement"] + parts.map { "from_" + $0 } + ["from_matched"] + parts.map { "to_" + $0 }
            + ["to_matched", "profiles", "examples"] + (sticky ? ["sticky_before", "sticky_after"] : [])
    }
}
