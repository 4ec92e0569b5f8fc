#!/usr/bin/env python3
"""Agreement test: `targeting sql --dialect clickhouse` on real ClickHouse (chDB, the `chdb`
package from PyPI, in this process) against `targeting resolve`.

The same generated profiles and rule sets as `agreement.py`: each JSON line in a `String`
column `profile`, and, for `--layout columns`, in the typed table of `targeting sql --schema
--dialect clickhouse` (each profile as `typed_layout.representable` makes it one ClickHouse's
table can hold: instants in years 1900 to 2299, and no empty `access_levels`, which
ClickHouse, without NULL arrays, cannot tell from an unset one). Every placement's query,
`sql --all`, `--summary` and `diff --sql` must equal `resolve` on every profile.
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agreement  # noqa: E402
import typed_layout  # noqa: E402


class Engine:
    def __init__(self, workdir):
        from chdb import session
        self.session = session.Session()
        # Text that is no UTF-8 (a wrong reading) is written with U+FFFD, and so shows as a mismatch.
        self.session.query("SET output_format_json_validate_utf8 = 1")
        self.workdir = workdir

    def query(self, text):
        result = self.session.query(text, "JSONEachRow")
        data = result.bytes().decode("utf-8", "replace")
        return [json.loads(line) for line in data.splitlines() if line.strip()]

    def load(self, kept, columns):
        """The table `profiles`: each JSON line in a `String` column `profile`, or with `columns`
        the typed rows of `kept`, loaded from JSON Lines as the README says."""
        self.session.query("DROP TABLE IF EXISTS profiles")
        if not columns:
            self.session.query("CREATE TABLE profiles (profile String) ENGINE = MergeTree ORDER BY tuple()")
            path = os.path.join(self.workdir, "lines.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("".join(line + "\n" for line in kept))
            if kept:
                self.session.query("INSERT INTO profiles SELECT line FROM file('%s', 'LineAsString')" % path)
            return
        self.session.query(schema_for(columns))
        path = os.path.join(self.workdir, "typed.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            for line in kept:
                values = typed_layout.row(json.loads(line), columns)
                row = {}
                for value, (name, kind) in zip(values, columns):
                    if value is not None and kind in ("date", "instant"):
                        value = typed_layout.iso(value, kind)
                    if value is None and kind == "set":
                        value = []
                    row[name] = value
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        if kept:
            self.session.query("INSERT INTO profiles SELECT * FROM file('%s', 'JSONEachRow') "
                               "SETTINGS date_time_input_format = 'best_effort'" % path)


CLICKHOUSE_TYPES = {"text": "Nullable(String)", "number": "Nullable(Float64)", "bool": "Nullable(Bool)", "date": "Nullable(Date32)",
                    "instant": "Nullable(DateTime64(3, 'UTC'))", "set": "Array(String)", "json": "Nullable(String)"}
def without_empty_sets(lines):
    """The lines with an empty `access_levels` removed from each profile: ClickHouse, without
    NULL arrays, reads an empty set as unset in both layouts (README)."""
    out = []
    for line in lines:
        try:
            profile = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        if isinstance(profile, dict) and profile.get("access_levels") == []:
            del profile["access_levels"]
            line = json.dumps(profile, ensure_ascii=False)
        out.append(line)
    return out


def schema_for(columns):
    return "CREATE TABLE profiles (%s) ENGINE = MergeTree ORDER BY tuple()" % ", ".join(
        "%s %s" % (typed_layout.quoted(name, "spark"), CLICKHOUSE_TYPES[kind]) for name, kind in columns)


def main():
    parser = agreement.arguments(__doc__, random_default=2)
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    rule_sets = args.rules or agreement.default_rule_sets()
    lines = without_empty_sets(agreement.profile_lines(args, nul=True))
    failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        engine = Engine(workdir)
        print("clickhouse %s" % engine.query("SELECT version() AS v")[0]["v"])

        def rows_of(query, kept, columns):
            engine.load(kept, columns)
            rows = engine.query(query)
            for row in rows:
                if row.get("share") is not None:
                    row["share"] = "%.1f" % float(row["share"])
            return rows

        for layout in ("json", "columns") if args.layout == "both" else (args.layout,):
            args.layout = layout
            typed_layout.for_clickhouse() if layout == "columns" else None
            label = " (clickhouse%s)" % (", columns" if layout == "columns" else "")
            failed += agreement.check_layout(args, rule_sets, lines, workdir, "clickhouse", rows_of, label)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
