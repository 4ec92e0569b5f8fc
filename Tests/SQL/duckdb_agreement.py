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


def export_check(args, connection, lines, workdir):
    """`targeting export --layout columns` of the shipped rules' profiles, loaded with the
    README's statement (`read_json` with the columns of `sql --schema`): the table must equal
    the typed rows of `typed_layout` (an independent reading of the contract), and
    `sql --check-table` must count no breach; a table with one breach per checked column must
    count each. Returns the number of failures."""
    rules = os.path.join(agreement.ROOT, "Rules")
    columns = typed_layout.schema(args.bin, [rules], "duckdb", agreement.NOW)
    kept = typed_layout.representable(lines, columns)
    source = os.path.join(workdir, "export-in.jsonl")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write("\n".join(kept) + "\n")
    exported = agreement.run([args.bin, "export", "--layout", "columns", "--rules", rules, "--profiles", source])
    if exported.returncode != 0:
        print("export failed: " + exported.stderr[:2000])
        return 1
    target = os.path.join(workdir, "export-out.jsonl")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(exported.stdout)
    types = ", ".join("%s: '%s'" % (typed_layout.sql_string(name), DUCKDB_TYPES[kind]) for name, kind in columns)
    connection.execute("DROP TABLE IF EXISTS profiles")
    connection.execute("CREATE TABLE profiles AS SELECT * FROM read_json(%s, columns = {%s}, format = 'newline_delimited')"
                       % (typed_layout.sql_string(target), types))
    loaded = connection.execute("SELECT * FROM profiles").fetchall()
    wanted = [tuple(typed_layout.python_value(value, kind) for value, (_, kind) in zip(typed_layout.row(json.loads(line), columns), columns))
              for line in kept]
    failed = 0
    for number, (got, want) in enumerate(zip(loaded, wanted)):
        # The history is written as the rules read it (each instant in one form, unreadable
        # ones dropped): the queries over it are what the agreement checks.
        differing = [(name, a, b) for (name, kind), a, b in zip(columns, got, want) if kind != "json" and a != b]
        if differing:
            failed += 1
            if failed <= args.show:
                print("export differs on line %d: %s\n  profile: %s" % (number + 1, differing, kept[number]))
    if len(loaded) != len(wanted):
        failed += 1
        print("export wrote %d rows for %d profiles" % (len(loaded), len(wanted)))
    check = agreement.run([args.bin, "sql", "--check-table", "--dialect", "duckdb", "--rules", rules])
    counts = rows(connection, check.stdout)[0]
    breaches = {name: count for name, count in counts.items() if name != "profiles" and count}
    if breaches or counts["profiles"] != len(kept):
        failed += 1
        print("check-table of the exported table: %s" % counts)
    # One row breaking each checked column, and one keeping to the contract.
    connection.execute("DELETE FROM profiles")
    names = [name for name, _ in columns]
    broken = {"number": float("nan"), "text": " padded ", "set": ["a", None], "json": "[1]"}
    for name, kind in columns:
        if name in counts and name != "profiles":
            values = [None] * len(columns)
            values[names.index(name)] = broken[kind]
            connection.execute("INSERT INTO profiles VALUES (%s)" % ", ".join("?" * len(columns)), values)
    connection.execute("INSERT INTO profiles (id) VALUES ('fine')")
    counts = rows(connection, check.stdout)[0]
    if any(count != 1 for name, count in counts.items() if name != "profiles") or counts["profiles"] != len(counts):
        failed += 1
        print("check-table of a table breaking each column once: %s" % counts)
    print("export of %d profiles, loaded with read_json: %d failed; check-table: %s" % (len(kept), failed, sorted(counts)))
    return failed


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
    parser = agreement.arguments(__doc__, random_default=2)
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
        if "columns" in layouts:
            failed += export_check(args, connection, lines, workdir)
        for layout in layouts:
            args.layout = layout
            label = " (duckdb%s)" % (", columns" if layout == "columns" else "")
            failed += agreement.check_layout(args, rule_sets, lines, workdir, "duckdb", rows_of, label)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
