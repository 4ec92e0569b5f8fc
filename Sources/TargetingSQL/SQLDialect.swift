/// The SQL engine a placement is compiled for.
package enum SQLDialect: String, Hashable, Sendable, CaseIterable {
    /// PostgreSQL: `profiles.profile` is `jsonb`; needs ICU (`und-x-icu`) and
    /// `standard_conforming_strings` on (the default).
    case postgres
    /// Spark SQL: `profiles.profile` is a JSON string, parsed once per row (see `SparkParse`).
    case spark
    /// DuckDB: `profiles.profile` is `JSON`; lists for arrays, RE2 for regular expressions.
    case duckdb
    /// ClickHouse (and chDB): the typed table only (`--layout columns`), without history;
    /// `Array(String)` for sets, RE2 for regular expressions.
    case clickhouse
}
