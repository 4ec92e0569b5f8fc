import TargetingBase

/// Reads a profile's `history` in SQL as `ProfileHistory.read` does for a profile `resolve`
/// accepts: the instants a placement was shown at (distinct Unix milliseconds) and the
/// assignment an experiment recorded.
///
/// The history is one column of the query's source, `hj`: in PostgreSQL a `jsonb` value (the
/// profile's `history`, or the `history` text column of `--layout columns` cast to `jsonb`), in
/// Spark SQL JSON text with every string marked as `SparkParse` marks it. A history that is
/// absent, `null` or of another shape reads as no history; an instant that does not parse is
/// skipped (a profile holding one is rejected by `resolve`, so no answer depends on it).
struct SQLHistoryReader {
    let dialect: SQLDialect
    let now: Int64

    /// The source column holding the history.
    static let column = "hj"

    /// The name of the typed table's column holding the history as JSON text.
    static let typedColumn = "history"

    /// `hj` read from the profile JSON (`profile` in PostgreSQL, the parsed profile in Spark SQL).
    var fromProfile: String {
        switch dialect {
        case .postgres:
            return "CASE WHEN jsonb_typeof(profile -> 'history') = 'object' THEN profile -> 'history' END"
        case .spark:
            let text = SparkParse.field("history")
            return "CASE WHEN left(\(text), 1) = '{' THEN \(text) END"
        }
    }

    /// `hj` read from the JSON text of `--layout columns` (NULL: no history).
    var fromTypedColumn: String {
        switch dialect {
        case .postgres: return "CAST(\(SQLHistoryReader.typedColumn) AS JSONB)"
        case .spark: return SparkParse.marked(SQLHistoryReader.typedColumn, dialect: dialect)
        }
    }

    /// The value at `path` (object keys) inside the history: `jsonb` in PostgreSQL, JSON text
    /// (a string's text without quotes, still marked) in Spark SQL.
    private func member(_ path: [String]) -> String {
        switch dialect {
        case .postgres:
            return SQLHistoryReader.column + path.map { " -> " + dialect.string($0) }.joined()
        case .spark:
            // Names of placements and experiments are letters, digits and `_`; keys carry the mark.
            return "get_json_object(\(SQLHistoryReader.column), \(dialect.string("$" + path.map { ".\(SparkParse.mark)\($0)" }.joined())))"
        }
    }

    /// The string at `path`, unmarked; NULL when absent or not a string.
    private func string(_ path: [String]) -> String {
        let value = member(path)
        switch dialect {
        case .postgres:
            return "CASE WHEN jsonb_typeof(\(value)) = 'string' THEN \(value) #>> '{}' END"
        case .spark:
            return "CASE WHEN \(SparkParse.isString(value)) THEN \(SparkParse.unmarked(value)) END"
        }
    }

    /// The instants `placement` was shown at: an array of distinct Unix milliseconds (empty when
    /// it never was).
    func instants(of placement: String) -> String {
        let list = member(["shown", placement])
        let pattern = dialect.string(SQLInstantParts.instantPattern(dialect))
        switch dialect {
        case .postgres:
            let parts = SQLInstantParts.positional("e.t", dialect: dialect).named(prefix: "x_")
                .map { "\($0.expression) AS \($0.name)" }.joined(separator: ", ")
            let ms = SQLInstantParts.columns(prefix: "x_").milliseconds(dialect)
            let elements = "jsonb_array_elements_text(\(list)) AS e(t)"
            // A profile without the list (most of them) skips the subquery: CASE evaluates one branch.
            return "CASE WHEN jsonb_typeof(\(list)) = 'array' THEN "
                + "ARRAY(SELECT DISTINCT i.ms FROM (SELECT \(ms) AS ms FROM (SELECT \(parts) FROM \(elements) WHERE e.t ~ \(pattern)) AS p) AS i "
                + "WHERE i.ms IS NOT NULL) ELSE CAST(ARRAY[] AS BIGINT[]) END"
        case .spark:
            // Each string unmarked, then taken apart when it has an instant's shape, then its milliseconds.
            let texts = "transform(from_json(\(list), 'ARRAY<STRING>'), t -> CASE WHEN \(SparkParse.isString("t")) THEN \(SparkParse.unmarked("t")) END)"
            let fields = SQLInstantParts.positional("u", dialect: dialect).named(prefix: "")
                .map { "'\($0.name)', \($0.expression)" }.joined(separator: ", ")
            let parts = "transform(\(texts), u -> CASE WHEN u RLIKE \(pattern) THEN named_struct(\(fields)) END)"
            let ms = SQLInstantParts.columns(prefix: "x.").milliseconds(dialect)
            let all = "filter(transform(\(parts), x -> \(ms)), m -> m IS NOT NULL)"
            return "coalesce(array_distinct(\(all)), CAST(array() AS ARRAY<BIGINT>))"
        }
    }

    /// `shown PLACEMENT [in WINDOW]` from the array `instants`: how many fall in `(now − window,
    /// now]`, or all of them; a double, as numbers are.
    func count(_ instants: String, window: Int64?) -> String {
        guard let window else { return dialect.doubleCast(dialect.count(instants)) }
        let start = now &- window
        switch dialect {
        case .postgres:
            return dialect.doubleCast("CASE WHEN cardinality(\(instants)) = 0 THEN 0 ELSE "
                + "(SELECT count(*) FROM unnest(\(instants)) AS u(ms) WHERE u.ms > \(start) AND u.ms <= \(now)) END")
        case .spark:
            return dialect.doubleCast("size(filter(\(instants), m -> m > \(start) AND m <= \(now)))")
        }
    }

    /// `last shown PLACEMENT` from the array `instants`: the latest, NULL when there is none.
    func last(_ instants: String) -> String {
        switch dialect {
        case .postgres: return "CASE WHEN cardinality(\(instants)) > 0 THEN (SELECT max(u.ms) FROM unnest(\(instants)) AS u(ms)) END"
        case .spark: return "array_max(\(instants))"
        }
    }

    /// The variant `experiment`'s recorded assignment names (`<prefix>v`) and when it was made
    /// (`<prefix>ms`, parsed by `reader` as `ProfileHistory.instant` parses it: an instant, not a
    /// bare date), both NULL without one.
    func addAssignment(of experiment: String, prefix c: String, reader: SQLSlotReader, into stages: inout SQLStages) {
        stages.add(SQLStage.raw, "\(c)v", string(["assigned", experiment, "variant"]))
        let at = string(["assigned", experiment, "at"])
        stages.add(SQLStage.raw, "\(c)s", "CASE WHEN length(\(at)) > 10 THEN \(at) END")
        reader.readDate(text: "\(c)s", prefix: c, column: "\(c)ms", into: &stages)
    }
}
