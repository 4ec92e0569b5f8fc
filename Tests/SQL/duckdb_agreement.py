#!/usr/bin/env python3
"""Agreement test: `targeting sql --dialect duckdb` on real DuckDB against `targeting resolve`.

The same generated profiles and rule sets as `agreement.py` (PostgreSQL). The profiles go into a
table `profiles` with one `JSON` column `profile` holding each JSON line unchanged, and, for
`--layout columns`, into the typed table of `targeting sql --schema --dialect duckdb` (each
profile as `typed_layout.representable` makes it one the table can hold); every placement's
query, `sql --all`, `--summary` and `diff --sql` must equal `resolve` on every profile.
DuckDB runs in this process (the `duckdb` package from PyPI), one thread, as an analyst's
laptop would.
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agreement  # noqa: E402  (the generator, `resolve` side and comparison are shared)
import typed_layout  # noqa: E402

DUCKDB_TYPES = {"text": "VARCHAR", "number": "DOUBLE", "bool": "BOOLEAN", "date": "DATE", "instant": "TIMESTAMPTZ",
                "set": "VARCHAR[]", "json": "JSON"}


def connect():
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET threads TO 1")
    connection.execute("SET TimeZone = 'UTC'")
    return connection


def load(connection, kept, columns):
    """The table `profiles`: each JSON line, or with `columns` the typed table's rows."""
    connection.execute("DROP TABLE IF EXISTS profiles")
    if columns:
        connection.execute("CREATE TABLE profiles (%s)" % ", ".join(
            "%s %s" % (typed_layout.quoted(name, "duckdb"), DUCKDB_TYPES[kind]) for name, kind in columns))
        rows = [[typed_layout.python_value(value, kind) for value, (_, kind) in zip(typed_layout.row(json.loads(line), columns), columns)]
                for line in kept]
        if rows:
            connection.executemany("INSERT INTO profiles VALUES (%s)" % ", ".join("?" * len(columns)), rows)
    else:
        connection.execute("CREATE TABLE profiles (profile JSON)")
        if kept:
            connection.executemany("INSERT INTO profiles VALUES (?)", [[line] for line in kept])


def rows(connection, query):
    """The query's rows as dicts; decimals as their text, as PostgreSQL prints them."""
    result = connection.execute(query)
    names = [column[0] for column in result.description]
    out = []
    for values in result.fetchall():
        row = dict(zip(names, values))
        if "share" in row and row["share"] is not None:
            row["share"] = "%.1f" % float(row["share"])
        out.append(row)
    return out


def main():
    parser = agreement.arguments(__doc__, random_default=4)
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    connection = connect()
    print("duckdb %s" % connection.execute("SELECT version()").fetchone()[0])
    rule_sets = args.rules or agreement.default_rule_sets()
    lines = agreement.profile_lines(args, nul=True)
    failed = 0

    def rows_of(query, kept, columns):
        load(connection, kept, columns)
        return rows(connection, query)

    layouts = ("json", "columns") if args.layout == "both" else (args.layout,)
    with tempfile.TemporaryDirectory() as workdir:
        for layout in layouts:
            args.layout = layout
            label = " (duckdb%s)" % (", columns" if layout == "columns" else "")
            for rules in agreement.random_rule_sets(args, workdir):
                failed += agreement.check_all(args, rules, lines[:args.random_count], workdir, "duckdb", rows_of, label)
            for rules in rule_sets:
                rules = os.path.abspath(rules)
                for placement in agreement.placements(args.bin, rules):
                    columns, corpus = agreement.typed(args, [rules], lines, "duckdb")
                    expected, kept, rejected = agreement.expected_rows(args, rules, placement, corpus, workdir)
                    query = agreement.query_text(args, rules, placement, "duckdb")
                    failed += agreement.compare(args, rules, placement, expected, rows_of(query, kept, columns), kept, rejected, label)
                failed += agreement.check_all(args, rules, lines, workdir, "duckdb", rows_of, " (--all)" + label)
                for corpus, empty in ((lines, ""), ([], ", no profiles")):
                    failed += agreement.check_summary(args, rules, corpus, workdir, "duckdb", rows_of, label + empty)
            for pair in agreement.DIFF_PAIRS:
                for view in agreement.DIFF_PARTS:
                    failed += agreement.check_diff(args, lines, workdir, "duckdb", rows_of, label, view=view, pair=pair)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
