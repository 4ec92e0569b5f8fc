import TargetingEngine
import TargetingSyntax
import TargetingProfiles

/// Compiles a placement into one SQL `SELECT` (SPEC §7).
///
/// The query reads a table `profiles` with one column `profile` holding SPEC §2 profile objects
/// (`jsonb` in PostgreSQL, a JSON string in Spark SQL) and returns, for every row, the columns
/// of `targeting resolve --format json`: `profile_id, placement, audience, kind, id, split`.
/// It is compiled from the `Program` — its slots, its segments in dependency order and its
/// compiled tests — and reads every slot as `Slot.read` does (SQL columns `s<N>_…`), evaluates
/// segments as `g<N>` and audiences as `a<N>`, then picks the first matching row.
///
/// A profile whose deciding row is a split but which has no string `id` cannot be split:
/// `resolve` rejects its line, while a query cannot reject a row, so for such a profile the
/// query's `kind`, `id` and `split` are meaningless (`split` holds the split id, `kind` and
/// `id` the last variant in draw order). Callers that need exact agreement filter these
/// profiles out (the agreement test does).
///
/// Custom-attribute values read by Spark SQL are typed by the first character of the value in
/// the parsed text (see `SparkParse`).
package struct SQLCompiler {
    /// The query for placement `placement` at time `now` (Unix ms), or an empty string when the
    /// program has no such placement.
    /// `table` and `column` name the source (default `profiles` and `profile`).
    /// With `includeProfile`, each row also carries the `profile` it was computed from.
    package static func compile(placement: String, program: Program, now: Int64, dialect: SQLDialect,
                                table: String = "profiles", column: String = "profile", includeProfile: Bool = false) -> String {
        guard let index = program.placementIndex(named: placement) else { return "" }
        return SQLCompiler(program: program, now: now, dialect: dialect, sourceTable: table, sourceColumn: column,
                           includeProfile: includeProfile).compile(program.placements[index])
    }

    let program: Program
    let now: Int64
    let dialect: SQLDialect
    var sourceTable = "profiles"
    var sourceColumn = "profile"
    var includeProfile = false

    /// Column names for segments and audiences: `seg_NAME`, `aud_NAME` (characters other than
    /// letters, digits and `_` become `_`; a name equal to an earlier one ignoring case — as
    /// both engines compare identifiers — gets the declaration's number appended).
    static func columnNames(prefix: String, _ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.enumerated().map { index, name in
            let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "_": scalar
                default: "_"
                }
            }))
            var column = prefix + cleaned
            if !used.insert(column.lowercased()).inserted {
                column += "_\(index + 1)"
                used.insert(column.lowercased())
            }
            return column
        }
    }

    /// Where a declaration is written and what it says, for a comment above its column.
    static func origin(_ declaration: NamedExpression) -> String {
        let file = declaration.range.file.split(separator: "/").last.map(String.init) ?? declaration.range.file
        let text = "\(file):\(declaration.range.start.line) \(declaration.name.text) = \(declaration.expression.text)"
        // One line, and nothing that could end the comment early.
        return text.replacingNewlines
    }

    func compile(_ placement: Program.Placement) -> String {
        let audiences = placement.rows.compactMap(\.audience)
        var segments: [Int] = []
        var seen: Set<Int> = []
        for audience in audiences {
            for segment in program.audiences[audience].segmentOrder where seen.insert(segment).inserted {
                segments.append(segment)
            }
        }
        // Segment levels: a segment comes one level after every segment it uses.
        var level: [Int: Int] = [:]
        for segment in segments {
            let uses = program.children(segment).compactMap { level[$0] }
            level[segment] = (uses.max() ?? 0) + 1
        }
        // Slots the tests read, and whether any test folds case.
        var slots: [Int: Bool] = [:]
        func collect(_ condition: Condition) {
            switch condition {
            case .and(let items), .or(let items): items.forEach(collect)
            case .not(let inner): collect(inner)
            case .segment: break
            case .test(let test):
                guard test.slot >= 0 else { return }
                slots[test.slot] = (slots[test.slot] ?? false) || test.kind.folds
            }
        }
        for segment in segments { collect(program.segments[segment].condition) }

        var stages = SQLStages()
        let reader = SQLSlotReader(dialect: dialect, now: now)
        for slot in slots.keys.sorted() {
            reader.read(program.slots[slot], index: slot, folded: slots[slot] ?? false, into: &stages)
        }
        let segmentColumns = SQLCompiler.columnNames(prefix: "seg_", program.ruleSet.segments.map(\.name.text))
        let audienceColumns = SQLCompiler.columnNames(prefix: "aud_", program.ruleSet.audiences.map(\.name.text))
        let conditions = SQLConditionCompiler(dialect: dialect, now: now, segmentColumn: { segmentColumns[$0] })

        var ctes: [String] = []
        var previous = "t0"
        // PostgreSQL would otherwise inline each stage into the next, repeating expressions.
        let materialized = dialect == .postgres ? " MATERIALIZED" : ""
        let source = sourceTable == "profiles" && sourceColumn == "profile" ? "profiles" : "(SELECT \(sourceColumn) AS profile FROM \(sourceTable)) AS source"
        switch dialect {
        case .postgres:
            let profileID = "CASE WHEN jsonb_typeof(profile -> 'id') = 'string' THEN profile ->> 'id' END"
            ctes.append("t0 AS\(materialized) (\n  SELECT profile, \(profileID) AS profile_id\n  FROM \(source)\n)")
        case .spark:
            // The profile is parsed once, with exactly the top-level fields the query reads.
            var fields = ["id"]
            for slot in slots.keys.sorted() {
                let field: String
                switch program.slots[slot].target {
                case .custom: field = "custom_attributes"
                case .builtin(let name): field = BuiltinField.derivation(of: name)?.source ?? name
                }
                if !fields.contains(field) { fields.append(field) }
            }
            let id = SparkParse.field("id")
            var columns = ["profile", SparkParse.profile, "CASE WHEN \(SparkParse.isString(id)) THEN \(SparkParse.unmarked(id)) END AS profile_id"]
            if fields.contains("custom_attributes") { columns.append("\(SparkParse.customAttributesMap) AS \(SparkParse.customAttributes)") }
            ctes.append("t0 AS (\n  SELECT \(columns.joined(separator: ",\n    "))\n  FROM (SELECT profile, \(SparkParse.parsed("profile", fields: fields, dialect: dialect)) AS \(SparkParse.profile) FROM \(source)) AS parsed\n)")
        }
        func addCTE(_ columns: [(name: String, expression: String)], comments: [String?] = []) {
            let name = "t\(ctes.count)"
            let list = columns.enumerated().map { index, column in
                let comment = index < comments.count ? comments[index].map { "    -- \($0)\n" } ?? "" : ""
                return comment + "    \(column.expression) AS \(column.name)"
            }.joined(separator: ",\n")
            ctes.append("\(name) AS\(materialized) (\n  SELECT *,\n\(list)\n  FROM \(previous)\n)")
            previous = name
        }
        for stage in stages.ordered { addCTE(stage) }
        // Grouped in one pass (in `segments` order within a level): a chain of segments has as
        // many levels as segments.
        var atLevel: [Int: [Int]] = [:]
        for segment in segments { atLevel[level[segment] ?? 0, default: []].append(segment) }
        for depth in atLevel.keys.sorted() {
            let atDepth = atLevel[depth] ?? []
            addCTE(atDepth.map { (name: segmentColumns[$0], expression: conditions.compile(program.segments[$0].condition)) },
                   comments: atDepth.map { SQLCompiler.origin(program.ruleSet.segments[$0]) })
        }
        let used = Set(audiences).sorted()
        if !used.isEmpty {
            addCTE(used.map { (name: audienceColumns[$0], expression: conditions.compile(program.audiences[$0].condition)) },
                   comments: used.map { SQLCompiler.origin(program.ruleSet.audiences[$0]) })
        }

        // The deciding row, then the bucket of each split row.
        var rowCases: [String] = []
        for (number, row) in placement.rows.enumerated() {
            rowCases.append("WHEN \(row.audience.map { audienceColumns[$0] } ?? "TRUE") THEN \(number)")
        }
        let decided = rowCases.isEmpty ? "CAST(NULL AS INT)" : "CASE " + rowCases.joined(separator: " ") + " END"
        var decidedColumns: [(name: String, expression: String)] = [(name: "r", expression: decided)]
        for (number, row) in placement.rows.enumerated() {
            if let split = row.split {
                decidedColumns.append((name: "b\(number)", expression: "CASE WHEN r = \(number) THEN \(split.sqlBucket(profileID: "profile_id", dialect: dialect)) END"))
            }
        }
        addCTE([decidedColumns[0]])
        if decidedColumns.count > 1 { addCTE(Array(decidedColumns.dropFirst())) }

        let null = "CAST(NULL AS \(dialect.textType))"
        func column(_ value: (Int, Program.Row) -> String) -> String {
            let cases = placement.rows.enumerated().map { "WHEN r = \($0.offset) THEN \(value($0.offset, $0.element))" }
            return cases.isEmpty ? null : "CASE " + cases.joined(separator: " ") + " END"
        }
        func kind(_ destination: Destination) -> String {
            switch destination {
            case .flow: "'flow'"
            case .paywall: "'paywall'"
            case .nothing, .split, .experiment: null
            }
        }
        func id(_ destination: Destination) -> String {
            switch destination {
            case .flow(let id, _), .paywall(let id, _): dialect.string(id)
            case .nothing, .split, .experiment: null
            }
        }
        func pick(_ number: Int, _ row: Program.Row, _ value: (Destination) -> String) -> String {
            guard let split = row.split else { return value(row.source.destination) }
            return split.sqlChoose(bucket: "b\(number)", value)
        }
        let audience = column { dialect.string($1.source.audience.name) }
        let kindColumn = column { pick($0, $1, kind) }
        let idColumn = column { pick($0, $1, id) }
        let splitColumn = column { _, row in row.split.map { dialect.string($0.id) } ?? null }
        let select = """
        SELECT\(includeProfile ? "\n  profile," : "")
          profile_id,
          \(dialect.string(placement.name)) AS placement,
          \(audience) AS audience,
          \(kindColumn) AS kind,
          \(idColumn) AS id,
          \(splitColumn) AS split
        FROM \(previous)
        """
        return "WITH\n" + ctes.joined(separator: ",\n") + "\n" + select + "\n"
    }
}

extension CompiledTest.Kind {
    /// Whether the test compares lowercase mappings (`ignoring case`).
    var folds: Bool {
        switch self {
        case .stringEquals(_, let fold), .stringIn(_, let fold), .contains(_, let fold), .startsWith(_, let fold),
             .endsWith(_, let fold), .has(_, let fold), .hasAny(_, let fold), .hasAll(_, let fold), .hasNone(_, let fold):
            fold
        default:
            false
        }
    }
}

extension String {
    /// The text with line breaks as spaces and `*/` broken up, safe inside any SQL comment; a
    /// final backslash gets a space after it (in Spark SQL a backslash right before the line
    /// break continues a `--` comment onto the next line).
    package var replacingNewlines: String {
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar = " "
        for scalar in unicodeScalars {
            let kept: Unicode.Scalar = scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar
            if previous == "*", kept == "/" { scalars.append(" ") }
            scalars.append(kept)
            previous = kept
        }
        if previous == "\\" { scalars.append(" ") }
        return String(scalars)
    }
}
