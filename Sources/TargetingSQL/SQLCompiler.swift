import TargetingBase
import TargetingEngine
import TargetingSyntax
import TargetingProfiles

/// Compiles placements into one SQL `SELECT`.
///
/// The query reads a table `profiles` with one column `profile` holding profile objects
/// (`jsonb` in PostgreSQL, a JSON string in Spark SQL) and returns, for every row and placement,
/// the columns of `targeting resolve --format json`: `profile_id, placement, audience, kind, id,
/// split`, then `experiment, variant, held_out` when the rule set has experiments or a holdout.
/// It is compiled from the `Program` — its slots, its segments in dependency order and its
/// compiled tests — and reads every slot as `Slot.read` does (SQL columns `s<N>_…`), evaluates
/// segments as `seg_NAME` and audiences as `aud_NAME`, then picks the first matching row.
///
/// What does not depend on the placement is computed once per profile, in common table
/// expressions that every placement's chain starts from: the profile id, the value of each
/// `by KEY` (`k<N>_v`, read as `Slot.read` reads a string), the holdout's draw (`in_holdout`)
/// and each experiment's bucket (`exp_NAME`, NULL when the profile has no value for the key),
/// so that `--all` draws each experiment once per profile for all its placements.
///
/// A row keyed on an attribute other than `profile.id` matches only a profile with a string
/// value for the key (later rows decide for the others); in a placement the holdout covers, a
/// held-out profile skips every row but its `always` rows and `everyone`.
///
/// A profile whose deciding row is a split or an experiment keyed on `profile.id` but which has
/// no string `id` cannot be drawn: `resolve` rejects its line, while a query cannot reject a row,
/// so for such a profile the query's `kind`, `id`, `split`, `experiment` and `variant` are
/// meaningless (the last variant in draw order). Callers that need exact agreement filter these
/// profiles out (the agreement test does).
///
/// Custom-attribute values read by Spark SQL are typed by the first character of the value in
/// the parsed text (see `SparkParse`).
package struct SQLCompiler {
    /// The query for placement `placement` at time `now` (Unix ms).
    /// `table` and `column` name the source (default `profiles` and `profile`); with `schema`,
    /// the table is the typed table of `--layout columns` instead, and `column` is not used.
    /// With `includeProfile`, each row also carries the `profile` it was computed from (in the
    /// typed layout, the text of a row of its columns, equal for equal rows).
    ///
    /// - Throws: `SQLCompileError.unknownPlacement` when the program has no such placement.
    package static func compile(placement: String, program: Program, now: Int64, dialect: SQLDialect,
                                table: SQLIdentifier = .profiles, column: SQLIdentifier = .profile, schema: SQLTableSchema? = nil,
                                includeProfile: Bool = false) throws(SQLCompileError) -> String {
        try compile(placements: [placement], program: program, now: now, dialect: dialect, table: table, column: column,
                    schema: schema, includeProfile: includeProfile)
    }

    /// The query for the placements named `placements`, in that order, as one statement whose
    /// rows are each placement's rows one after the other (`sql --all`).
    /// `experimentColumns` adds `experiment`, `variant` and `held_out` (default: when the rule
    /// set reports them, as `resolve --format json` does); `stickyColumn` adds `sticky`
    /// (default: with those, when the rule set has a sticky experiment).
    ///
    /// - Throws: `SQLCompileError.unknownPlacement` for the first name that is not a placement
    ///   of the program, `.noPlacement` when none is given.
    package static func compile(placements: [String], program: Program, now: Int64, dialect: SQLDialect,
                                table: SQLIdentifier = .profiles, column: SQLIdentifier = .profile, schema: SQLTableSchema? = nil,
                                includeProfile: Bool = false, experimentColumns: Bool? = nil,
                                stickyColumn: Bool? = nil) throws(SQLCompileError) -> String {
        let indices = try placementIndices(placements, in: program)
        var compiler = SQLCompiler(program: program, now: now, dialect: dialect, sourceTable: table, sourceColumn: column,
                                   includeProfile: includeProfile)
        compiler.experimentColumns = experimentColumns ?? program.reportsExperiments
        compiler.stickyColumn = stickyColumn ?? (compiler.experimentColumns && !program.stickyExperiments.isEmpty)
        compiler.schema = schema
        return compiler.compile(indices.map { program.placements[$0] })
    }

    /// The indices of the placements named `names`, in that order.
    ///
    /// - Throws: `SQLCompileError.unknownPlacement` for the first name that is not a placement
    ///   of the program, `.noPlacement` when `names` is empty.
    static func placementIndices(_ names: [String], in program: Program) throws(SQLCompileError) -> [Int] {
        guard !names.isEmpty else { throw .noPlacement }
        var indices: [Int] = []
        for name in names {
            guard let index = program.placementIndex(named: name) else {
                throw .unknownPlacement(name, suggestion: Suggestion.nearest(to: name, in: program.placements.map(\.name)))
            }
            indices.append(index)
        }
        return indices
    }

    let program: Program
    let now: Int64
    let dialect: SQLDialect
    var sourceTable = SQLIdentifier.profiles
    var sourceColumn = SQLIdentifier.profile
    var includeProfile = false
    var experimentColumns = false
    /// Whether the rows also say whether a sticky experiment's recorded assignment decided
    /// (`sticky`, after `held_out`): when the rules have a sticky experiment.
    var stickyColumn = false
    /// The typed table read instead of JSON profiles (`--layout columns`), if any.
    var schema: SQLTableSchema? = nil
    /// The program's placements by name, numbering the columns of their shown instants.
    var placementNumbers: [String: Int] {
        Dictionary(program.placements.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads the slots from the layout compiled for.
    var reader: SQLSlotReader { SQLSlotReader(dialect: dialect, now: now, schema: schema, placements: placementNumbers) }

    /// The column prefix of the shared reading of key slot `index`: `k<N>_`.
    static func keyPrefix(_ index: Int) -> String { "k\(index)_" }

    /// The shared column saying whether the holdout holds the profile out.
    static let holdoutColumn = "in_holdout"

    /// Column names for segments and audiences: `seg_NAME`, `aud_NAME` (characters other than
    /// letters, digits and `_` become `_`; a name equal to an earlier one ignoring case — as
    /// both engines compare identifiers — gets the declaration's number appended).
    static func columnNames(prefix: String, _ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.enumerated().map { index, name in
            var column = prefix + SQLIdentifier.wordCharacters(name)
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

    /// What placements need: their segments (dependencies first) with their levels, the
    /// audiences their rows use, and the slots their tests read with whether a test folds case.
    struct PlacementNeeds {
        var segments: [Int] = []
        var level: [Int: Int] = [:]
        var slots: [Int: Bool] = [:]
        var audiences: [Int] = []
    }

    /// The segments, audiences and slots the audiences of `placements` need.
    func needs(_ placements: [Program.Placement]) -> PlacementNeeds {
        var needs = PlacementNeeds()
        var seen: Set<Int> = []
        needs.audiences = Set(placements.flatMap { $0.rows.compactMap(\.audience) }).sorted()
        for audience in placements.flatMap({ $0.rows.compactMap(\.audience) }) {
            for segment in program.audiences[audience].segmentOrder where seen.insert(segment).inserted {
                needs.segments.append(segment)
            }
        }
        // Segment levels: a segment comes one level after every segment it uses.
        for segment in needs.segments {
            let uses = program.children(segment).compactMap { needs.level[$0] }
            needs.level[segment] = (uses.max() ?? 0) + 1
        }
        func collect(_ condition: Condition) {
            switch condition {
            case .and(let items), .or(let items): items.forEach(collect)
            case .not(let inner): collect(inner)
            case .segment, .prerequisite: break
            case .test(let test):
                guard test.slot >= 0 else { return }
                needs.slots[test.slot] = (needs.slots[test.slot] ?? false) || test.kind.folds
            }
        }
        for segment in needs.segments { collect(program.segments[segment].condition) }
        return needs
    }

    /// The shared columns, then the placements' decisions, every placement decided in one
    /// chain (each slot, segment and audience once) and each profile given one row per
    /// placement by a cross join with the placements' numbers.
    func compile(_ placements: [Program.Placement]) -> String {
        var started = chain(for: placements)
        return compileInOnePass(placements, shared: started.shared, into: &started.chain)
    }

    /// The chain every query of `placements` starts with: its source, reading the slots the
    /// placements and their draws need, and the shared draws.
    func chain(for requested: [Program.Placement]) -> (chain: SQLChain, shared: SQLSharedDraws) {
        let placements = withDependencies(requested)
        let shared = SQLSharedDraws(program: program, placements: placements)
        var read: [Int] = []
        for slot in needs(placements).slots.keys.sorted() + shared.keySlots where !read.contains(slot) { read.append(slot) }
        // The history is read once per profile, for caps and for sticky experiments alike.
        let history = shared.readsHistory || read.contains { !program.slots[$0].target.historyPlacements.isEmpty }
        var chain = SQLChain(source: source(reading: read, history: history), sourceColumns: sourceColumns(reading: read, history: history))
        // A typed table's query is written as one pass (`SQLChain.inlining`); its `t0` only renames.
        chain.inlining = schema != nil
        chain.sourceIsFenced = schema == nil
        chain.backslashEscapes = dialect.backslashEscapes
        shared.addColumns(to: &chain, reader: reader)
        return (chain, shared)
    }

    /// `placements` with the placements their prerequisites ask about, each once, those first.
    func withDependencies(_ placements: [Program.Placement]) -> [Program.Placement] {
        guard !program.prerequisites.isEmpty else { return placements }
        var decided: [Int] = []
        for index in placements.compactMap({ program.placementIndex(named: $0.name) }) {
            for needed in program.placementDependencies[index] + [index] where !decided.contains(needed) { decided.append(needed) }
        }
        return decided.map { program.placements[$0] }
    }

    /// `t0`'s query: the profile and its id (in Spark SQL also the parsed profile with the
    /// top-level fields that the slots `slots` read), and with `history` the profile's history
    /// (`SQLHistoryReader.column`).
    func source(reading slots: [Int], history: Bool) -> String {
        if let schema { return source(of: schema, history: history) }
        let historyReader = SQLHistoryReader(dialect: dialect, now: now)
        let historyColumn = history ? ",\n    \(historyReader.fromProfile) AS \(SQLHistoryReader.column)" : ""
        let source = sourceTable == .profiles && sourceColumn == .profile ? "profiles" : "(SELECT \(sourceColumn) AS profile FROM \(sourceTable)) AS source"
        switch dialect {
        case .postgres:
            let profileID = "CASE WHEN jsonb_typeof(profile -> 'id') = 'string' THEN profile ->> 'id' END"
            guard reads(custom: slots) else { return "  SELECT profile, \(profileID) AS profile_id\(historyColumn)\n  FROM \(source)" }
            // The custom attributes with their keys trimmed, once per profile: the object itself
            // when no key needs trimming (the common case), so each attribute is one lookup.
            // Two keys equal once trimmed make a profile `resolve` rejects; either is kept.
            // Whether a key may need trimming is told from the object's text first, one match
            // per profile (`SQLDialect.postgresUntrimmedKey`); only then are the keys read.
            let trimmed = SQLDialect.postgres.sql(.trim(.column("e.key")))
            let custom = "CASE WHEN jsonb_typeof(o) = 'object' THEN CASE WHEN CAST(o AS TEXT) !~ \(SQLDialect.postgresUntrimmedKey) "
                + "OR NOT EXISTS (SELECT 1 FROM jsonb_each(o) AS e WHERE \(trimmed) <> e.key) "
                + "THEN o ELSE (SELECT jsonb_object_agg(\(trimmed), e.value) FROM jsonb_each(o) AS e) END END"
            return "  SELECT profile, \(profileID) AS profile_id,\n    \(custom) AS \(SQLSlotReader.postgresCustomAttributes)\(historyColumn)\n"
                + "  FROM (SELECT profile, profile -> 'custom_attributes' AS o FROM \(source)) AS unread"
        case .clickhouse:
            // A member is its raw JSON text. The custom attributes are a map from each trimmed
            // key to its value's text, made once per profile, so each is one lookup.
            let id = SQLExpression.profileMember("id")
            let profileID = dialect.sql(.caseWhen(subject: nil, [.init(.jsonIsString(id), .jsonStringText(id))], otherwise: nil))
            guard reads(custom: slots) else { return "  SELECT profile, \(profileID) AS profile_id\(historyColumn)\n  FROM \(source)" }
            let trimmed = dialect.sql(.trim(.column("kv.1")))
            let pairs = "JSONExtractKeysAndValuesRaw(ifNull(o, ''))"
            let custom = "CASE WHEN JSONType(o) = 'Object' THEN mapFromArrays(arrayMap(kv -> \(trimmed), \(pairs)), "
                + "arrayMap(kv -> kv.2, \(pairs))) ELSE CAST(map() AS Map(String, String)) END"
            return "  SELECT profile, \(profileID) AS profile_id,\n    \(custom) AS \(SQLSlotReader.postgresCustomAttributes)\(historyColumn)\n"
                + "  FROM (SELECT profile, \(dialect.sql(.profileMember("custom_attributes"))) AS o FROM \(source)) AS unread"
        case .duckdb:
            let id = SQLExpression.profileMember("id")
            let profileID = dialect.sql(.caseWhen(subject: nil, [.init(.jsonIsString(id), .jsonStringText(id))], otherwise: nil))
            guard reads(custom: slots) else { return "  SELECT profile, \(profileID) AS profile_id\(historyColumn)\n  FROM \(source)" }
            // As in PostgreSQL: the object itself when no key needs trimming, else rebuilt with
            // its keys trimmed. DuckDB keeps JSON as written: one match on the object's text
            // (`SQLDialect.duckdbUntrimmedKey`) rules out most objects; only then are the keys read.
            let trimmed = dialect.sql(.trim(.column("k")))
            let member = "json_extract(o, '$.\"' || replace(replace(k, '\\', '\\\\'), '\"', '\\\"') || '\"')"
            let custom = "CASE WHEN json_type(o) = 'OBJECT' THEN CASE WHEN NOT regexp_matches(CAST(o AS VARCHAR), \(dialect.string(SQLDialect.duckdbUntrimmedKey))) "
                + "OR len(list_filter(json_keys(o), lambda k: \(trimmed) <> k)) = 0 "
                + "THEN o ELSE (SELECT json_group_object(\(trimmed), \(member)) FROM (SELECT unnest(json_keys(o)) AS k)) END END"
            return "  SELECT profile, \(profileID) AS profile_id,\n    \(custom) AS \(SQLSlotReader.postgresCustomAttributes)\(historyColumn)\n"
                + "  FROM (SELECT profile, profile -> 'custom_attributes' AS o FROM \(source)) AS unread"
        case .spark:
            // The profile is parsed once, with exactly the top-level fields the query reads.
            var fields = history ? ["id", "history"] : ["id"]
            for slot in slots {
                let field: String
                switch program.slots[slot].target {
                case .custom: field = "custom_attributes"
                case .builtin(let name): field = BuiltinField.derivation(of: name)?.source ?? name
                case .shownCount, .lastShown: continue  // read from `history`
                }
                if !fields.contains(field) { fields.append(field) }
            }
            let id = SQLExpression.profileMember("id")
            let profileID = dialect.sql(.caseWhen(subject: nil, [.init(.jsonIsString(id), .jsonStringText(id))], otherwise: nil))
            var columns = ["profile", SparkParse.profile, "\(profileID) AS profile_id"]
            if fields.contains("custom_attributes") { columns.append("\(SparkParse.customAttributesMap) AS \(SparkParse.customAttributes)") }
            if history { columns.append("\(historyReader.fromProfile) AS \(SQLHistoryReader.column)") }
            return "  SELECT \(columns.joined(separator: ",\n    "))\n  FROM (SELECT profile, \(SparkParse.parsed("profile", fields: fields)) AS \(SparkParse.profile) FROM \(source)) AS parsed"
        }
    }

    /// `t0` of the typed layout: the id, each column of `schema` under its alias (`col<N>`),
    /// with `history` the history read from its column, and with `includeProfile` the row as text.
    func source(of schema: SQLTableSchema, history: Bool) -> String {
        var names = ["id"] + schema.columns.map { SQLTableSchema.identifier($0.name, dialect) }
        var columns = ["id AS profile_id"] + zip(names.dropFirst(), schema.columns.indices).map { "\($0) AS \(SQLTableSchema.alias($1))" }
        if history { columns.append("\(SQLHistoryReader(dialect: dialect, now: now).fromTypedColumn) AS \(SQLHistoryReader.column)") }
        if schema.readsHistory { names.append(SQLHistoryReader.typedColumn) }
        if includeProfile {
            columns.insert("\(dialect.sql(.rowText(names.map(SQLExpression.column)))) AS profile", at: 0)
        }
        return "  SELECT \(columns.joined(separator: ",\n    "))\n  FROM \(sourceTable)"
    }

    /// Whether any of `slots` is a custom attribute.
    func reads(custom slots: [Int]) -> Bool {
        slots.contains { if case .custom = program.slots[$0].target { true } else { false } }
    }

    /// The columns of `t0` (`source(reading:history:)`).
    func sourceColumns(reading slots: [Int], history: Bool) -> [String] {
        let historyColumn = history ? [SQLHistoryReader.column] : []
        if let schema { return (includeProfile ? ["profile"] : []) + ["profile_id"] + schema.columns.indices.map(SQLTableSchema.alias) + historyColumn }
        switch dialect {
        case .postgres, .duckdb, .clickhouse: return ["profile", "profile_id"] + (reads(custom: slots) ? [SQLSlotReader.postgresCustomAttributes] : []) + historyColumn
        case .spark: return ["profile", SparkParse.profile, "profile_id"] + (reads(custom: slots) ? [SparkParse.customAttributes] : []) + historyColumn
        }
    }

    /// The columns a decision fills: `placement`, `audience`, `kind`, `id`, `split`, then
    /// `experiment`, `variant` and `held_out` when reported.
    var outputColumns: [String] {
        ["placement", "audience", "kind", "id", "split"] + (experimentColumns ? ["experiment", "variant", "held_out"] : [])
            + (stickyColumn ? ["sticky"] : [])
    }

    /// Every placement decided in one chain: the slots, segments and audiences any of them
    /// needs, then each placement's decision (`r`, `b<row>`; with several placements
    /// `p<N>_r`, `p<N>_b<row>`); returns the query, in which
    /// a `VALUES` list of the placements' numbers gives each profile one row per placement,
    /// in the order given, when there are several.
    func compileInOnePass(_ placements: [Program.Placement], shared: SQLSharedDraws, into chain: inout SQLChain) -> String {
        let names = outputColumns
        var columns = ["profile_id"]
        if includeProfile { columns.insert("profile", at: 0) }
        let single = placements.count == 1
        let values = addDecisions(placements, prefix: { single ? "" : "p\($0)_" }, shared: shared, into: &chain).enumerated().map {
            [.string(placements[$0.offset].name)] + outputValues($0.element)
        }
        var decided = ""
        if single {
            columns += zip(values[0], names).map { "\(dialect.sql($0)) AS \($1)" }
        } else {
            // One row per placement and profile; each value is the placement's own expression,
            // picked by the placement's number, so a row computes only its placement's values.
            columns += names.enumerated().map { index, name in
                let cases = values.enumerated().map { number, value in SQLExpression.When(.integer(Int64(number)), value[index]) }
                return dialect.sql(.caseWhen(subject: .column("decided.placement_number"), cases, otherwise: nil)) + " AS \(name)"
            }
            decided = "CROSS JOIN \(dialect.valuesTable(placements.indices.map { [String($0)] }, alias: "decided", columns: ["placement_number"]))\n"
        }
        return query(chain) { "SELECT\n" + columns.map { "  " + $0 }.joined(separator: ",\n") + "\nFROM \($0)\n" + decided }
    }

    /// Adds what the placements need (`addConditions`), then each placement's deciding columns
    /// (`addDecision`, placement `N` named by `prefix(N)`): the placements' rows side by side,
    /// then their buckets, as many stages for twenty placements as for one.
    ///
    /// A placement whose segments ask about other placements (`placement P -> …`) is decided
    /// after them: the placements they depend on are decided in the same chain (each once,
    /// named `q<N>_`, N its number in the rules, unless it is itself one of `placements`), in
    /// rounds: the placements without prerequisites, then those depending only on decided ones,
    /// and so on; after each round, each prerequisite on its placements becomes a column
    /// (`pre<N>`) that the later rounds' segments read.
    func addDecisions(_ placements: [Program.Placement], prefix: (Int) -> String, shared: SQLSharedDraws,
                      into chain: inout SQLChain) -> [SQLDecidingColumns] {
        let requested = placements.compactMap { program.placementIndex(named: $0.name) }
        let decided = withDependencies(placements).compactMap { program.placementIndex(named: $0.name) }
        var round: [Int: Int] = [:]
        for index in decided {
            round[index] = program.placementDependencies[index].map { (round[$0] ?? 0) + 1 }.max() ?? 0
        }
        let all = needs(decided.map { program.placements[$0] })
        let twoValued = SQLConditionCompiler.twoValuedSegments(from: all.audiences.map { program.audiences[$0].condition },
                                                               segments: { program.segments[$0].condition })
        // The prerequisites some segment reads, by the placement they ask about.
        var prerequisitesRead: [Int: [Int]] = [:]
        for segment in all.segments {
            program.segments[segment].condition.forEachPrerequisite { index in
                let placement = program.prerequisites[index].placement
                if !(prerequisitesRead[placement]?.contains(index) ?? false) { prerequisitesRead[placement, default: []].append(index) }
            }
        }
        var added = SQLAdded()
        var columns: [Int: SQLDecidingColumns] = [:]
        let rounds = Set(round.values).sorted()
        for number in rounds {
            let here = decided.filter { round[$0] == number }
            // A slot is read once, in the first round that needs it, with its lowercase view
            // when any round's test folds case.
            var roundNeeds = needs(here.map { program.placements[$0] })
            for slot in roundNeeds.slots.keys { roundNeeds.slots[slot] = all.slots[slot] ?? false }
            addConditions(roundNeeds, twoValued: twoValued, added: &added, into: &chain)
            var stages = SQLStages()
            for index in here {
                let name = requested.firstIndex(of: index).map(prefix) ?? "q\(index)_"
                columns[index] = addDecision(program.placements[index], prefix: name, shared: shared, into: &stages)
            }
            for stage in stages.ordered { chain.add(stage) }
            guard number != rounds.last else { continue }
            var read: [(name: String, expression: String)] = []
            var comments: [String?] = []
            for index in here {
                guard let deciding = columns[index] else { continue }
                for prerequisite in prerequisitesRead[index] ?? [] {
                    read.append((name: SQLConditionCompiler.prerequisiteColumn(prerequisite),
                                 expression: dialect.sql(self.prerequisite(program.prerequisites[prerequisite], deciding: deciding))))
                    comments.append(program.prerequisites[prerequisite].source.text.replacingNewlines)
                }
            }
            if !read.isEmpty { chain.add(read, comments: comments) }
        }
        return requested.compactMap { columns[$0] }
    }

    /// Whether the placement `deciding` decides gives one of `test`'s outcomes: false where
    /// deciding fails (its row draws on `profile.id` and the profile has none, and no
    /// assignment decides), as the evaluators answer.
    func prerequisite(_ test: PrerequisiteTest, deciding: SQLDecidingColumns) -> SQLExpression {
        let accepted = deciding.perChoice { .bool(test.holds($0)) }
        let failing = deciding.placement.rows.enumerated().compactMap { number, row -> SQLExpression? in
            guard let plan = row.split, plan.key == .profileID else { return nil }
            var terms: [SQLExpression] = [deciding.isRow(number), .isNull(.column("profile_id"), negated: false)]
            if let stuck = deciding.stuck(row) { terms.append(.not(.coalesce([stuck, .bool(false)]))) }
            return .parenthesized(.and(terms))
        }
        guard !failing.isEmpty else { return accepted }
        return .caseWhen(subject: nil, [.init(.coalesce([.or(failing), .bool(false)]), .bool(false))], otherwise: accepted)
    }

    /// The statement: `chain`'s common table expressions, then `select` (given the name of the
    /// last of them).
    func query(_ chain: SQLChain, select: (String) -> String) -> String {
        switch dialect {
        case .postgres: chain.carryingCommonTableExpressions(fence: "OFFSET 0", select: select)
        case .spark: chain.commonTableExpressions(select: select)
        case .duckdb: chain.carryingCommonTableExpressions(fence: nil, materialized: schema == nil, select: select)
        case .clickhouse:
            // ClickHouse's short-circuit evaluation of `CASE` over the many steps that read a
            // JSON profile takes memory without bound (a gigabyte for 250 rows), and so it does
            // over the nested `CASE`s of a placement decided for a prerequisite; every
            // expression of the query is safe to evaluate on every row (none raises), so those
            // queries turn it off.
            chain.carryingCommonTableExpressions(fence: nil, select: select)
                + (schema == nil || !program.prerequisites.isEmpty ? "SETTINGS short_circuit_function_evaluation = 'disable'\n" : "")
        }
    }

    /// Adds the slots the placements' tests read, their segments level by level and their
    /// audiences to `chain`, leaving out what an earlier round `added`. `twoValued` are the
    /// segments whose columns must never be NULL.
    func addConditions(_ needs: PlacementNeeds, twoValued: Set<Int>, added: inout SQLAdded, into chain: inout SQLChain) {
        var stages = SQLStages()
        let slots = needs.slots.keys.sorted().filter { added.slots.insert($0).inserted }
        // Each placement's shown instants once, for every cap on it.
        var shownPlacements: [String] = []
        for slot in slots {
            for placement in program.slots[slot].target.historyPlacements where added.shown.insert(placement).inserted { shownPlacements.append(placement) }
        }
        let history = SQLHistoryReader(dialect: dialect, now: now)
        for placement in shownPlacements {
            stages.add(SQLStage.raw, SQLSlotReader.instantsColumn(placement, in: placementNumbers), history.instants(of: placement))
        }
        for slot in slots {
            reader.read(program.slots[slot], index: slot, folded: needs.slots[slot] ?? false, into: &stages)
        }
        let segmentColumns = SQLCompiler.columnNames(prefix: "seg_", program.ruleSet.segments.map(\.name.text))
        let audienceColumns = SQLCompiler.columnNames(prefix: "aud_", program.ruleSet.audiences.map(\.name.text))
        var conditions = SQLConditionCompiler(dialect: dialect, now: now, segmentColumn: { segmentColumns[$0] })
        let reader = self.reader
        conditions.form = { reader.form(of: program.slots[$0]) }

        for stage in stages.ordered { chain.add(stage) }
        // Grouped in one pass (in `segments` order within a level): a chain of segments has as
        // many levels as segments.
        var atLevel: [Int: [Int]] = [:]
        for segment in needs.segments where added.segments.insert(segment).inserted { atLevel[needs.level[segment] ?? 0, default: []].append(segment) }
        for depth in atLevel.keys.sorted() {
            let atDepth = atLevel[depth] ?? []
            chain.add(atDepth.map { (name: segmentColumns[$0], expression: conditions.compile(program.segments[$0].condition, deciding: !twoValued.contains($0))) },
                      comments: atDepth.map { SQLCompiler.origin(program.ruleSet.segments[$0]) })
        }
        let audiences = needs.audiences.filter { added.audiences.insert($0).inserted }
        if !audiences.isEmpty {
            chain.add(audiences.map { (name: audienceColumns[$0], expression: conditions.compile(program.audiences[$0].condition, deciding: true)) },
                      comments: audiences.map { SQLCompiler.origin(program.ruleSet.audiences[$0]) })
        }
    }

    /// Adds `placement`'s deciding row (`<prefix>r`, stage 0) and its split buckets
    /// (`<prefix>b<row>`, stage 1) to `stages`; returns those columns.
    func addDecision(_ placement: Program.Placement, prefix: String, shared: SQLSharedDraws, into stages: inout SQLStages) -> SQLDecidingColumns {
        let audienceColumns = SQLCompiler.columnNames(prefix: "aud_", program.ruleSet.audiences.map(\.name.text))
        var deciding = SQLDecidingColumns(placement: placement, prefix: prefix, shared: shared)
        // The deciding row: the first whose guards (`DecisionPlan`) all hold: its audience
        // matches, the holdout does not hold the profile out of it, and the profile has a value
        // for its draw's key; a sticky experiment's row decides, whatever its audience and key,
        // for a profile whose assignment sticks and that the holdout does not hold out. Then
        // the bucket of each split row; an experiment row's bucket is the shared one.
        var rowCases: [SQLExpression.When] = []
        for (number, row) in placement.rows.enumerated() {
            var terms: [SQLExpression] = []
            var gate: SQLExpression?
            var layer: SQLExpression?
            var stuck: SQLExpression?
            for rowGuard in row.guards {
                switch rowGuard {
                case .notHeldOut: gate = .not(.column(SQLCompiler.holdoutColumn))
                case .layer(let share):
                    // NULL (no value for the layer's key) enters no experiment of the layer.
                    let bucket = SQLExpression.column(shared.layerColumn(program.layers[share.layer].name))
                    layer = .coalesce([.parenthesized(.and([.compare(bucket, .greaterOrEqual, .integer(Int64(share.buckets.lowerBound))),
                                                              .compare(bucket, .less, .integer(Int64(share.buckets.upperBound)))])), .bool(false)])
                case .assignment: stuck = deciding.stuck(row)
                case .audience(let audience): terms.append(.column(audienceColumns[audience]))
                case .key(let slot): terms.append(.isNull(.column(DrawKey.slot(slot).sqlValue), negated: true))
                }
            }
            if let stuck {
                terms = (gate.map { [$0] } ?? []) + (layer.map { [$0] } ?? []) + [.parenthesized(.or([stuck, .parenthesized(.and(terms))]))]
            } else {
                if let layer { terms.insert(layer, at: 0) }
                if let gate { terms.insert(gate, at: min(1, terms.count)) }
            }
            rowCases.append(.init(.and(terms), .integer(Int64(number))))
        }
        deciding.rowConditions = rowCases.map(\.condition)
        stages.add(0, deciding.rowColumn, dialect.sql(rowCases.isEmpty ? .cast(.null, .int) : .caseWhen(subject: nil, rowCases, otherwise: nil)))
        for (number, row) in placement.rows.enumerated() {
            if let split = row.split, !split.isExperiment {
                let bucket = split.bucket(keyValue: .column(split.key.sqlValue))
                stages.add(1, deciding.splitBucket(number), dialect.sql(.caseWhen(subject: nil, [.init(deciding.isRow(number), bucket)], otherwise: nil)))
            }
        }
        return deciding
    }

    /// The values of `outputColumns` but `placement` for the placement `deciding` decides.
    func outputValues(_ deciding: SQLDecidingColumns) -> [SQLExpression] {
        let null = SQLExpression.cast(.null, .text)
        func kind(_ destination: Destination) -> SQLExpression {
            switch destination {
            case .flow: .string("flow")
            case .paywall: .string("paywall")
            case .nothing, .split, .experiment: null
            }
        }
        func id(_ destination: Destination) -> SQLExpression {
            switch destination {
            case .flow(let id, _), .paywall(let id, _): .string(id)
            case .nothing, .split, .experiment: null
            }
        }
        func pick(_ number: Int, _ row: Program.Row, _ value: (Destination) -> SQLExpression) -> SQLExpression {
            guard let plan = row.split else { return value(row.source.destination) }
            return plan.sqlChoose(bucket: deciding.bucket(number, plan)) { value(plan.steps[$0].destination) }
        }
        var values = [
            deciding.perRow(null: null) { .string($1.source.audience.name) },
            deciding.perRow(null: null) { pick($0, $1, kind) },
            deciding.perRow(null: null) { pick($0, $1, id) },
            deciding.perRow(null: null) { _, row in row.split.flatMap { $0.isExperiment ? nil : .string($0.id) } ?? null },
        ]
        if experimentColumns {
            let experiment = deciding.perRow(null: null) { _, row in row.split.flatMap { $0.isExperiment ? .string($0.id) : nil } ?? null }
            let variant = deciding.perRow(null: null) { number, row in
                guard let plan = row.split, plan.isExperiment else { return null }
                return plan.sqlChoose(bucket: deciding.bucket(number, plan)) { plan.steps[$0].variant.map(SQLExpression.string) ?? null }
            }
            values += [experiment, variant, deciding.heldOutIsDrawn ? .column(SQLCompiler.holdoutColumn) : .bool(false)]
        }
        if stickyColumn {
            values.append(deciding.stuckDecision ?? .bool(false))
        }
        return values
    }
}

extension CompiledTest.Kind {
    /// Whether the test compares lowercase mappings (`ignoring case`).
    var folds: Bool {
        switch self {
        case .text(_, let fold), .members(_, let fold): fold
        case .presence, .number, .bool, .date, .version: false
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

/// What the rounds of a query have added to its chain so far (`SQLCompiler.addDecisions`):
/// each slot, placement's shown instants, segment and audience is added once.
struct SQLAdded {
    var slots: Set<Int> = []
    var shown: Set<String> = []
    var segments: Set<Int> = []
    var audiences: Set<Int> = []
}
