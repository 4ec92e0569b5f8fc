#!/usr/bin/env python3
"""Audience sizing of one rule set on PostgreSQL, DuckDB, ClickHouse (chDB) and Spark: the
query `targeting sql --all --summary` generates against the query an analyst writes by hand
(`Benchmarks/handwritten/`), over the same profiles as one JSON column and as the typed table
of `--layout columns`, and `targeting resolve --all --summary` over the same profiles as JSON
Lines.

Generates COUNT clean profiles from a fixed seed, writes them as JSON Lines, turns them into
the typed table's rows with `targeting export --layout columns`, loads both tables into each
engine asked for (PostgreSQL through psql, DuckDB and chDB from their Python packages, each on
one core; Spark from PySpark, local[2], the typed rows written as Parquet and read back), and
prints one line per measurement:

    ENGINE LAYOUT QUERY SECONDS CHECK

SECONDS is the best of three runs of the query alone (the load excluded): psql's `\\timing`
on PostgreSQL, the wall clock around `execute(...).fetchall()` on DuckDB, around
`query(...)` on chDB, around `sql(...).collect()` on Spark (planning included; a few queries
over each table warm the new JVM after the load, and the first of the three runs also compiles
the query's code), around the whole process for `resolve` (`resolve - jobs1`, the reference of
the one-core engines, and with Spark `resolve - jobs2`, the reference of local[2]).
CHECK is `same` when the query's counts equal `resolve --summary`'s for every entry some
profile takes, `DIFFERENT` otherwise. An engine that is not there prints `ENGINE - skipped 0 -`.

    warehouse_summary.py TARGETING RULES NOW COUNT [PSQL] [--engines postgres,duckdb,clickhouse,spark]

PSQL is the command that runs psql (default `runuser -u postgres -- psql`). ENGINES are the
engines to run, in that order (default: PostgreSQL, and each of the others whose Python module
imports; DuckDB and chDB, and PySpark, may live in different environments). The hand-written
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


class ClickHouse:
    def __init__(self):
        from chdb import session
        self.session = session.Session()
        self.query("SET max_threads = 1")
        self.query("SET session_timezone = 'UTC'")

    def query(self, text):
        """The rows of `text` as dicts."""
        result = self.session.query(text, "JSONEachRow")
        if result.has_error():
            raise RuntimeError(result.error_message())
        return [json.loads(line) for line in result.bytes().decode("utf-8").splitlines() if line.strip()]

    def load(self, json_file, typed_file, create):
        self.query("DROP TABLE IF EXISTS bench_json")
        self.query("DROP TABLE IF EXISTS bench_columns")
        self.query("CREATE TABLE bench_json (profile String) ENGINE = MergeTree ORDER BY tuple()")
        self.query("INSERT INTO bench_json SELECT line FROM file(%s, 'LineAsString')" % quoted(json_file))
        # The typed rows as the README loads them.
        self.query(create.strip().rstrip(";"))
        self.query("INSERT INTO bench_columns SELECT * FROM file(%s, 'JSONEachRow') SETTINGS date_time_input_format = 'best_effort'"
                   % quoted(typed_file))

    def time(self, query):
        """(the query's rows as dicts, its best seconds of RUNS)."""
        best, rows = None, None
        for _ in range(RUNS):
            start = time.perf_counter()
            fetched = self.query(query)
            seconds = time.perf_counter() - start
            rows = rows or fetched
            best = seconds if best is None else min(best, seconds)
        return rows, best

    def drop(self):
        for table in ("bench_json", "bench_columns"):
            try:
                self.query("DROP TABLE IF EXISTS " + table)
            except RuntimeError:
                pass


class Spark:
    def __init__(self):
        from pyspark.sql import SparkSession
        self.spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                      .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2")
                      .config("spark.sql.codegen.hugeMethodLimit", "8000").config("spark.sql.session.timeZone", "UTC")
                      .getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")

    def load(self, json_file, typed_file, columns, work):
        self.spark.read.text(json_file).withColumnRenamed("value", "profile").createOrReplaceTempView("bench_json")
        # The typed rows read with the schema of `sql --schema`, kept as Parquet as a warehouse keeps them.
        parquet = os.path.join(work, "bench_columns.parquet")
        schema = ", ".join("%s %s" % (name, kind) for name, kind in columns)
        self.spark.read.schema(schema).json(typed_file).write.mode("overwrite").parquet(parquet)
        self.spark.read.parquet(parquet).createOrReplaceTempView("bench_columns")
        # A new JVM runs slowly until it has compiled Spark's own code: a few queries of the same
        # steps (scan, aggregate, exchange, window, sort) over each table first, so the query
        # timed first is not the only one paying for it.
        for _ in range(2):
            for table in ("bench_columns", "bench_json"):
                self.spark.sql("SELECT k, count(*) AS n, sum(count(*)) OVER () AS total FROM (SELECT pmod(hash(*), 7) AS k FROM %s) "
                               "GROUP BY k ORDER BY k" % table).collect()

    def time(self, query):
        """(the query's rows as dicts, its best seconds of RUNS, each planned and run)."""
        best, rows = None, None
        for _ in range(RUNS):
            start = time.perf_counter()
            fetched = self.spark.sql(query).collect()
            seconds = time.perf_counter() - start
            rows = rows or [row.asDict() for row in fetched]
            best = seconds if best is None else min(best, seconds)
        return rows, best

    def drop(self):
        self.spark.stop()


def quoted(text):
    return "'" + text.replace("'", "''") + "'"


ENGINES = ("postgres", "duckdb", "clickhouse", "spark")


def options():
    """(binary, rules, now, count, psql command, engines asked for or None)."""
    given, engines = sys.argv[1:], None
    for index, argument in enumerate(given):
        if argument == "--engines" and index + 1 < len(given):
            engines = given[index + 1]
            given = given[:index] + given[index + 2:]
            break
        if argument.startswith("--engines="):
            engines = argument.split("=", 1)[1]
            given = given[:index] + given[index + 1:]
            break
    if len(given) not in (4, 5):
        sys.exit("usage: warehouse_summary.py TARGETING RULES NOW COUNT [PSQL] [--engines %s]" % ",".join(ENGINES))
    if engines is not None:
        engines = [name.strip() for name in engines.split(",") if name.strip()]
        unknown = [name for name in engines if name not in ENGINES]
        if unknown:
            sys.exit("error: unknown engine %s (one of %s)" % (", ".join(unknown), ", ".join(ENGINES)))
    command = given[4] if len(given) > 4 else "runuser -u postgres -- psql"
    return given[0], given[1], given[2], int(given[3]), command, engines


def importable(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def main():
    binary, rules, now, count, command, engines = options()
    modules = {"duckdb": "duckdb", "clickhouse": "chdb", "spark": "pyspark"}
    if engines is None:
        engines = [engine for engine in ENGINES if engine not in modules or importable(modules[engine])]
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)
        json_file, typed_file = os.path.join(work, "profiles.jsonl"), os.path.join(work, "typed.jsonl")
        with open(json_file, "w", encoding="utf-8") as handle:
            handle.write("\n".join(profiles(count)) + "\n")
        with open(typed_file, "w", encoding="utf-8") as handle:
            handle.write(run([binary, "export", "--layout", "columns", "--rules", rules, "--profiles", json_file]))
        for name in (json_file, typed_file):
            os.chmod(name, 0o644)

        # The reference: resolve's entries, and the wall clock of the whole process, on one core
        # (the reference of PostgreSQL, DuckDB and chDB) and on two (of Spark's local[2]).
        def resolve(jobs):
            arguments = [binary, "resolve", "--all", "--summary", "--format", "json", "--rules", rules, "--now", now,
                         "--profiles", json_file, "--jobs", str(jobs)]
            best = None
            for _ in range(RUNS):
                start = time.perf_counter()
                summary = run(arguments)
                seconds = time.perf_counter() - start
                best = seconds if best is None else min(best, seconds)
            return summary, best

        summary, seconds = resolve(1)
        entries = [json.loads(line) for line in summary.splitlines() if line.strip()]
        by_entry = lambda row: tuple(row.get(part) for part in PARTS)  # noqa: E731
        by_audience = lambda row: row["audience"]  # noqa: E731
        expected_entries, expected_audiences = {}, {}
        for entry in entries:
            if entry["profiles"]:
                expected_entries[by_entry(entry)] = entry["profiles"]
                expected_audiences[entry["audience"]] = expected_audiences.get(entry["audience"], 0) + entry["profiles"]
        report("resolve", "-", "jobs1", seconds, "-")
        if "spark" in engines:
            summary, seconds = resolve(2)
            report("resolve", "-", "jobs2", seconds,
                   verdict([json.loads(line) for line in summary.splitlines() if line.strip()], expected_entries, by_entry))

        for engine in engines:
            try:
                if engine == "postgres":
                    database = Postgres(command, work)
                    if not database.available():
                        report(engine, "-", "skipped", 0, "-")
                        continue
                elif engine == "duckdb":
                    database = DuckDB()
                elif engine == "clickhouse":
                    database = ClickHouse()
                else:
                    database = Spark()
            except Exception as error:  # the module or, for Spark, Java is not there
                if not isinstance(error, ImportError):
                    print("error: %s: %s" % (engine, str(error).strip()[:2000]), file=sys.stderr, flush=True)
                report(engine, "-", "skipped", 0, "-")
                continue
            try:
                create, columns = schema(binary, rules, engine, now)
                if engine == "postgres":
                    database.load(json_file, typed_file, create)
                elif engine == "duckdb":
                    database.load(json_file, typed_file, columns)
                elif engine == "clickhouse":
                    database.load(json_file, typed_file, create)
                else:
                    database.load(json_file, typed_file, columns, work)
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
            except Exception as error:  # a query the engine rejects: the other engines still run
                print("error: %s: %s" % (engine, str(error).strip()[:2000]), file=sys.stderr, flush=True)
                report(engine, "-", "failed", 0, "-")
            finally:
                if engine in ("postgres", "clickhouse", "spark"):
                    database.drop()


if __name__ == "__main__":
    main()
