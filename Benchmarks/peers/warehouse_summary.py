#!/usr/bin/env python3
"""Audience sizing of one rule set on PostgreSQL and DuckDB: the query `targeting sql --all
--summary` generates against the query an analyst writes by hand (`Benchmarks/handwritten/`),
over the same profiles as one JSON column and as the typed table of `--layout columns`, and
`targeting resolve --all --summary --jobs 1` over the same profiles as JSON Lines.

Generates COUNT clean profiles from a fixed seed, writes them as JSON Lines, turns them into
the typed table's rows with `targeting export --layout columns`, loads both tables into each
engine available (PostgreSQL through psql, DuckDB from its Python package, each on one core),
and prints one line per measurement:

    ENGINE LAYOUT QUERY SECONDS CHECK

SECONDS is the best of three runs of the query alone (the load excluded): psql's `\\timing`
on PostgreSQL, the wall clock around `execute(...).fetchall()` on DuckDB, around the whole
process for `resolve`. CHECK is `same` when the query's counts equal `resolve --summary`'s
for every entry some profile takes, `DIFFERENT` otherwise. An engine that is not there prints
`ENGINE - skipped 0 -`.

    warehouse_summary.py TARGETING RULES NOW COUNT [PSQL]

PSQL is the command that runs psql (default `runuser -u postgres -- psql`). The hand-written
queries are `Benchmarks/handwritten/<rules file name>.<engine>.<layout>.sql`.
"""

import datetime
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

HANDWRITTEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "handwritten")
COUNTRIES = ["US", "GB", "DE", "FR", "IN", "BR", "JP", "CA", "ES", "TR"]
PLATFORMS = ["ios", "ipados", "macos", "visionos", "android"]
EXPERIENCE = ["beginner", "amateur", "pro"]
INTERESTS = ["a", "sports", "music", "x y", "travel"]
MISSING = 0.1
RUNS = 3
PARTS = ["placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"]


def profiles(count):
    """COUNT clean profiles as JSON Lines, the same for the same COUNT; each attribute is
    missing from about a tenth of them."""
    generator = random.Random(20261129)
    first, days = datetime.date(1950, 1, 1), (datetime.date(2015, 12, 31) - datetime.date(1950, 1, 1)).days
    present = lambda: generator.random() >= MISSING  # noqa: E731
    lines = []
    for number in range(count):
        profile = {"id": "u%d" % number}
        if present():
            profile["birthday"] = (first + datetime.timedelta(days=generator.randint(0, days))).isoformat()
        if present():
            profile["country"] = generator.choice(COUNTRIES)
        if present():
            profile["platform"] = generator.choice(PLATFORMS)
        custom = {}
        if present():
            custom["experience"] = generator.choice(EXPERIENCE)
        if present():
            custom["interests"] = ",".join(generator.sample(INTERESTS, generator.randint(0, 3)))
        if present():
            custom["reminders"] = generator.random() < 0.5
        if present():
            custom["weekly_hours"] = round(generator.uniform(0, 40), 2)
        if custom:
            profile["custom_attributes"] = custom
        lines.append(json.dumps(profile, separators=(",", ":")))
    return lines


def run(arguments):
    try:
        result = subprocess.run(arguments, capture_output=True, text=True)
    except OSError as error:
        sys.exit("error: %s: %s" % (arguments[0], error))
    if result.returncode != 0:
        sys.exit("error: %s failed: %s" % (" ".join(arguments[:3]), result.stderr[:2000]))
    return result.stdout


def handwritten(rules, engine, layout):
    """The hand-written query for the rules, the engine and the layout, or None."""
    stem = os.path.splitext(os.path.basename(rules))[0]
    path = os.path.join(HANDWRITTEN, "%s.%s.%s.sql" % (stem, engine, layout))
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return handle.read().strip().rstrip(";")


def schema(binary, rules, dialect, now):
    """(CREATE TABLE bench_columns statement, [(column, type)]) of `sql --schema`."""
    text = run([binary, "sql", "--schema", "--dialect", dialect, "--rules", rules, "--now", now, "--table", "bench_columns"])
    columns = []
    for line in text.splitlines()[1:]:
        if line.startswith(")"):
            break
        match = re.fullmatch(r"\s*(\w+) (.+?),?", line)
        if not match:
            sys.exit("error: unexpected --schema line %r" % line)
        columns.append((match.group(1), match.group(2)))
    return text.strip().rstrip(";") + ";\n", columns


def verdict(rows, expected, key):
    """`same` when the rows' non-zero counts by `key` equal the expected ones."""
    actual = {}
    for row in rows:
        if row["profiles"]:
            actual[key(row)] = actual.get(key(row), 0) + int(row["profiles"])
    return "same" if actual == expected else "DIFFERENT"


def report(engine, layout, query, seconds, check):
    print("%s %s %s %s %s" % (engine, layout, query, "%.3f" % seconds if seconds else "0", check), flush=True)


class Postgres:
    def __init__(self, command, work):
        self.command, self.work, self.scripts = shlex.split(command), work, 0

    def psql(self, text):
        """Runs `text` as a psql script: (its output, the seconds of each `\\timing` line)."""
        self.scripts += 1
        path = os.path.join(self.work, "script%d.sql" % self.scripts)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(path, 0o644)
        result = subprocess.run(self.command + ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-f", path],
                                capture_output=True, text=True, cwd="/")
        if result.returncode != 0:
            raise RuntimeError("psql failed: " + result.stderr[:2000])
        return result.stdout, [float(value) / 1000 for value in re.findall(r"^Time: ([0-9.]+) ms", result.stdout, re.M)]

    def available(self):
        try:
            return self.psql("SELECT 1;\n")[0].strip() == "1"
        except (OSError, RuntimeError):
            return False

    def load(self, json_file, typed_file, create):
        copy = "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
        self.psql("DROP TABLE IF EXISTS bench_json, bench_columns;\n"
                  "CREATE TABLE bench_json(profile jsonb);\n"
                  "\\copy bench_json FROM '%s' %s\n" % (json_file, copy)
                  + create
                  + "CREATE TEMP TABLE raw (doc jsonb);\n"
                  "\\copy raw FROM '%s' %s\n" % (typed_file, copy)
                  + "INSERT INTO bench_columns SELECT r.* FROM raw, jsonb_populate_record(NULL::bench_columns, doc) AS r;\n"
                  "ANALYZE bench_json;\nANALYZE bench_columns;\n")

    def time(self, query):
        """(the query's rows as dicts, its best seconds of RUNS) on one core, without JIT."""
        body = "SELECT row_to_json(q) FROM (\n%s\n) AS q;\n\\echo ~\n" % query
        output, times = self.psql("SET jit = off;\nSET max_parallel_workers_per_gather = 0;\n\\timing on\n" + body * RUNS)
        first = output.split("~\n", 1)[0]
        if len(times) != RUNS:
            raise RuntimeError("expected %d timings, got %d" % (RUNS, len(times)))
        return [json.loads(line) for line in first.splitlines() if line.startswith("{")], min(times)

    def drop(self):
        try:
            self.psql("DROP TABLE IF EXISTS bench_json, bench_columns;\n")
        except (OSError, RuntimeError):
            pass


class DuckDB:
    def __init__(self):
        import duckdb
        self.connection = duckdb.connect()
        self.connection.execute("SET threads TO 1")
        self.connection.execute("SET TimeZone = 'UTC'")

    def load(self, json_file, typed_file, columns):
        self.connection.execute("CREATE TABLE bench_json AS SELECT json::JSON AS profile FROM read_json_objects(%s, format = 'newline_delimited')"
                                % quoted(json_file))
        types = ", ".join("%s: '%s'" % (quoted(name), kind) for name, kind in columns)
        self.connection.execute("CREATE TABLE bench_columns AS SELECT * FROM read_json(%s, columns = {%s}, format = 'newline_delimited')"
                                % (quoted(typed_file), types))

    def time(self, query):
        """(the query's rows as dicts, its best seconds of RUNS)."""
        best, rows = None, None
        for _ in range(RUNS):
            start = time.perf_counter()
            cursor = self.connection.execute(query)
            fetched = cursor.fetchall()
            seconds = time.perf_counter() - start
            names = [column[0] for column in cursor.description]
            rows = rows or [dict(zip(names, row)) for row in fetched]
            best = seconds if best is None else min(best, seconds)
        return rows, best


def quoted(text):
    return "'" + text.replace("'", "''") + "'"


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit("usage: warehouse_summary.py TARGETING RULES NOW COUNT [PSQL]")
    binary, rules, now, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    command = sys.argv[5] if len(sys.argv) > 5 else "runuser -u postgres -- psql"
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)
        json_file, typed_file = os.path.join(work, "profiles.jsonl"), os.path.join(work, "typed.jsonl")
        with open(json_file, "w", encoding="utf-8") as handle:
            handle.write("\n".join(profiles(count)) + "\n")
        with open(typed_file, "w", encoding="utf-8") as handle:
            handle.write(run([binary, "export", "--layout", "columns", "--rules", rules, "--profiles", json_file]))
        for name in (json_file, typed_file):
            os.chmod(name, 0o644)

        # The reference: resolve's entries, and the wall clock of the whole process.
        resolve = [binary, "resolve", "--all", "--summary", "--format", "json", "--rules", rules, "--now", now,
                   "--profiles", json_file, "--jobs", "1"]
        best = None
        for _ in range(RUNS):
            start = time.perf_counter()
            summary = run(resolve)
            seconds = time.perf_counter() - start
            best = seconds if best is None else min(best, seconds)
        entries = [json.loads(line) for line in summary.splitlines() if line.strip()]
        by_entry = lambda row: tuple(row.get(part) for part in PARTS)  # noqa: E731
        by_audience = lambda row: row["audience"]  # noqa: E731
        expected_entries, expected_audiences = {}, {}
        for entry in entries:
            if entry["profiles"]:
                expected_entries[by_entry(entry)] = entry["profiles"]
                expected_audiences[entry["audience"]] = expected_audiences.get(entry["audience"], 0) + entry["profiles"]
        report("resolve", "-", "jobs1", best, "-")

        for engine in ("postgres", "duckdb"):
            if engine == "postgres":
                database = Postgres(command, work)
                if not database.available():
                    report(engine, "-", "skipped", 0, "-")
                    continue
            else:
                try:
                    database = DuckDB()
                except ImportError:
                    report(engine, "-", "skipped", 0, "-")
                    continue
            try:
                create, columns = schema(binary, rules, engine, now)
                database.load(json_file, typed_file, create if engine == "postgres" else columns)
                for layout in ("columns", "json"):
                    arguments = [binary, "sql", "--all", "--summary", "--dialect", engine, "--layout", layout,
                                 "--table", "bench_" + layout, "--rules", rules, "--now", now]
                    generated = run(arguments + (["--no-jit"] if engine == "postgres" else []))
                    if engine == "postgres":
                        generated = generated.split("SET jit = off;\n", 1)[1]
                    rows, seconds = database.time(generated.strip().rstrip(";"))
                    report(engine, layout, "generated", seconds, verdict(rows, expected_entries, by_entry))
                    query = handwritten(rules, engine, layout)
                    if query is not None:
                        rows, seconds = database.time(query)
                        report(engine, layout, "handwritten", seconds, verdict(rows, expected_audiences, by_audience))
            except Exception as error:  # a query the engine rejects: the other engine still runs
                print("error: %s: %s" % (engine, str(error).strip()[:2000]), file=sys.stderr, flush=True)
                report(engine, "-", "failed", 0, "-")
            finally:
                if engine == "postgres":
                    database.drop()


if __name__ == "__main__":
    main()
