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
        let history = SQLExpression.profileMember("history")
        return dialect.sql(.caseWhen(subject: nil, [.init(.jsonIsObject(history), history)], otherwise: nil))
    }

    /// `hj` read from the JSON text of `--layout columns` (NULL: no history).
    var fromTypedColumn: String {
        dialect.sql(.jsonFromText(.column(SQLHistoryReader.typedColumn)))
    }

    /// The value at `path` (object keys) inside the history.
    private func member(_ path: [String]) -> SQLExpression {
        .jsonMember(.column(SQLHistoryReader.column), path)
    }

    /// The string at `path`, unmarked; NULL when absent or not a string.
    private func string(_ path: [String]) -> SQLExpression {
        let value = member(path)
        return .caseWhen(subject: nil, [.init(.jsonIsString(value), .jsonStringText(value))], otherwise: nil)
    }

    /// The instants `placement` was shown at: an array of distinct Unix milliseconds (empty when
    /// it never was).
    func instants(of placement: String) -> String {
        dialect.sql(.shownInstants(member(["shown", placement])))
    }

    /// `shown PLACEMENT [in WINDOW]` from the array `instants`: how many fall in `(now − window,
    /// now]`, or all of them; a double, as numbers are.
    func count(_ instants: String, window: Int64?) -> String {
        count([instants], window: window)
    }

    /// `shown [P1, P2, …] [in DURATION]` from the arrays `instants`, one per placement: the sum
    /// of each one's count.
    func count(_ instants: [String], window: Int64?) -> String {
        let counts = instants.map { column -> SQLExpression in
            let array = SQLExpression.column(column)
            guard let window else { return .count(array) }
            return .countWithin(array, after: now &- window, upTo: now)
        }
        let sum = counts.dropFirst().reduce(counts[0]) { .arithmetic($0, .plus, $1) }
        return dialect.sql(.cast(sum, .double))
    }

    /// `last shown PLACEMENT` from the array `instants`: the latest, NULL when there is none.
    func last(_ instants: String) -> String {
        dialect.sql(.arrayMax(.column(instants)))
    }

    /// `last shown [P1, P2, …]` from the arrays `instants`: the latest of any, NULL when there
    /// is none (written with `CASE`, as engines differ on whether `greatest` skips NULL).
    func last(_ instants: [String]) -> String {
        let lasts = instants.map { SQLExpression.arrayMax(.column($0)) }
        let latest = lasts.dropFirst().reduce(lasts[0]) { latest, next in
            .caseWhen(subject: nil, [.init(.isNull(next, negated: false), latest), .init(.isNull(latest, negated: false), next),
                                     .init(.compare(next, .greater, latest), next)], otherwise: latest)
        }
        return dialect.sql(latest)
    }

    /// The variant `experiment`'s recorded assignment names (`<prefix>v`) and when it was made
    /// (`<prefix>ms`, parsed by `reader` as `ProfileHistory.instant` parses it: an instant, not a
    /// bare date), both NULL without one.
    func addAssignment(of experiment: String, prefix c: String, reader: SQLSlotReader, into stages: inout SQLStages) {
        stages.add(SQLStage.raw, "\(c)v", dialect.sql(string(["assigned", experiment, "variant"])))
        let at = string(["assigned", experiment, "at"])
        let dated = SQLExpression.compare(.call("length", [at]), .greater, .integer(10))
        stages.add(SQLStage.raw, "\(c)s", dialect.sql(.caseWhen(subject: nil, [.init(dated, at)], otherwise: nil)))
        reader.readDate(text: "\(c)s", prefix: c, column: "\(c)ms", into: &stages)
    }
}
