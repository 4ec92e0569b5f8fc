#!/usr/bin/env python3
"""Audience sizing and rule-change impact on PostgreSQL: `targeting sql --all --summary` over
the profiles as one jsonb column and as the typed table of `--layout columns`, and `targeting
diff --sql` over the jsonb table. Loads a JSON Lines file into both tables of a running server
(through psql), then prints one line per query: its seconds (psql's `\\timing` of the query
alone, the load excluded) and whether its counts equal the CLI's (`resolve --all --summary`,
`diff --profiles`).

    postgres_summary.py TARGETING RULES CHANGED_RULES NOW PROFILES.jsonl [PSQL]
"""

import collections
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "SQL"))
import typed_layout  # noqa: E402


def psql(command, script):
    """Runs `script` through psql; (its rows as JSON objects, the seconds of the last statement)."""
    result = subprocess.run(shlex.split(command) + ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-f", script],
                            capture_output=True, text=True, cwd="/")
    if result.returncode != 0:
        sys.exit("error: psql failed: " + result.stderr)
    times = [float(value) for value in re.findall(r"^Time: ([0-9.]+) ms", result.stdout, re.M)]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return rows, (times[-1] / 1000 if times else 0.0)


def main():
    binary, rules, changed, now, path = sys.argv[1:6]
    command = sys.argv[6] if len(sys.argv) > 6 else "runuser -u postgres -- psql"
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle.read().splitlines() if line.strip()]
    columns = typed_layout.schema(binary, [rules, changed], "postgres", now)
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)
        json_file, typed_file = os.path.join(work, "profiles.jsonl"), os.path.join(work, "typed.jsonl")
        with open(json_file, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        # The typed rows as `targeting export` writes them, loaded with the README's statement.
        with open(typed_file, "w", encoding="utf-8") as handle:
            subprocess.run([binary, "export", "--layout", "columns", "--rules", rules, "--profiles", json_file],
                           stdout=handle, stderr=subprocess.DEVNULL, check=False)
        for name in (json_file, typed_file):
            os.chmod(name, 0o644)
        load = os.path.join(work, "load.sql")
        with open(load, "w", encoding="utf-8") as handle:
            handle.write("DROP TABLE IF EXISTS bench_json, bench_columns;\nCREATE TABLE bench_json(profile jsonb);\n")
            handle.write("\\copy bench_json FROM '%s' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')\n" % json_file)
            handle.write(typed_layout.postgres_table(columns, "bench_columns").replace("CREATE TEMP TABLE", "CREATE TABLE"))
            handle.write("CREATE TEMP TABLE raw (doc jsonb);\n")
            handle.write("\\copy raw FROM '%s' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')\n" % typed_file)
            handle.write("INSERT INTO bench_columns SELECT r.* FROM raw, jsonb_populate_record(NULL::bench_columns, doc) AS r;\n")
            handle.write("ANALYZE bench_json;\nANALYZE bench_columns;\n")
        psql(command, load)

        summary = subprocess.run([binary, "resolve", "--all", "--summary", "--format", "json", "--rules", rules, "--now", now,
                                  "--profiles", json_file], capture_output=True, text=True, check=True).stdout
        parts = ["placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"]
        expected = {tuple(json.loads(line).get(part) for part in parts): json.loads(line)["profiles"] for line in summary.splitlines()}

        def run(arguments, name):
            query = subprocess.run([binary] + arguments + ["--now", now, "--no-jit"], capture_output=True, text=True, check=True).stdout
            script = os.path.join(work, name + ".sql")
            with open(script, "w", encoding="utf-8") as handle:
                body = query.split("SET jit = off;\n", 1)[1].rstrip()
                handle.write("SET jit = off;\n\\timing on\nSELECT row_to_json(q) FROM (\n%s\n) AS q;\n" % body)
            os.chmod(script, 0o644)
            return psql(command, script)

        for layout, table in (("json", "bench_json"), ("columns", "bench_columns")):
            rows, seconds = run(["sql", "--all", "--summary", "--dialect", "postgres", "--rules", rules, "--layout", layout,
                                 "--table", table], layout)
            actual = {tuple(row.get(part) for part in parts): row["profiles"] for row in rows}
            print("%s %.2f %s" % (layout, seconds, "same counts" if actual == expected else "COUNTS DIFFER"))

        report = json.loads(subprocess.run([binary, "diff", rules, changed, "--profiles", json_file, "--now", now, "--format", "json",
                                            "--by", "destination"], capture_output=True, text=True, check=True).stdout)
        moved = collections.Counter()
        for placement in report["placements"]:
            for transition in placement["transitions"]:
                moved[placement["placement"]] += transition["count"]
        rows, seconds = run(["diff", rules, changed, "--sql", "postgres", "--by", "destination", "--table", "bench_json"], "diff")
        sql_moved = collections.Counter()
        for row in rows:
            sql_moved[row["placement"]] += row["profiles"]
        print("diff %.2f %s" % (seconds, "same moves" if sql_moved == moved else "MOVES DIFFER"))


if __name__ == "__main__":
    main()
