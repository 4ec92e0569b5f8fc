#!/usr/bin/env python3
"""Audience sizing on Spark (local[2]): `targeting sql --all --summary --dialect spark` over a
JSON Lines file loaded as a string column (`json`), or over the typed table of `--layout
columns` written as Parquet (`columns`). Prints the query's seconds (planning and running, the
session start and the load excluded), the planning's seconds alone (the session's first query)
and when planned again, and whether the counts equal `resolve --all --summary`. With LARGE, a
larger file of profiles, the query also runs over it in the warm session: where a query's fixed
costs (planning, compiling the generated code) no longer dominate, as on a warehouse's tables.

    spark_summary.py TARGETING RULES NOW PROFILES.jsonl [json|columns] [LARGE.jsonl]

The session sets `spark.sql.codegen.hugeMethodLimit` to 8000, as the README's tuning advises
(above that size the JVM runs generated code interpreted), and runs the query twice: the first
in the new session, then again (planned and run) in the warm one, as every query after a
session's first is.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from pyspark.sql import SparkSession

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "SQL"))
import typed_layout  # noqa: E402


def main():
    binary, rules, now, path = sys.argv[1:5]
    layout = sys.argv[5] if len(sys.argv) > 5 else "json"
    large = sys.argv[6] if len(sys.argv) > 6 else None
    query = subprocess.run([binary, "sql", "--all", "--summary", "--dialect", "spark", "--rules", rules, "--now", now, "--layout", layout],
                           capture_output=True, text=True, check=True).stdout
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2")
             .config("spark.sql.codegen.hugeMethodLimit", "8000").config("spark.sql.session.timeZone", "UTC").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    with tempfile.TemporaryDirectory() as work:
        def load(source, name):
            """`source` as the table `profiles`: its lines, or their typed table written as Parquet."""
            if layout == "columns":
                # The typed rows as `targeting export` writes them, read with the README's statement.
                columns = typed_layout.schema(binary, [rules], "spark", now)
                schema = ", ".join("%s %s" % (typed_layout.quoted(name, "spark"), typed_layout.SPARK_TYPES[kind]) for name, kind in columns)
                exported = os.path.join(work, name + ".jsonl")
                with open(exported, "w", encoding="utf-8") as handle:
                    subprocess.run([binary, "export", "--layout", "columns", "--rules", rules, "--profiles", source],
                                   stdout=handle, stderr=subprocess.DEVNULL, check=False)
                spark.read.schema(schema).json(exported).write.parquet(os.path.join(work, name))
                spark.read.parquet(os.path.join(work, name)).createOrReplaceTempView("profiles")
            else:
                spark.read.text(source).withColumnRenamed("value", "profile").createOrReplaceTempView("profiles")

        load(path, "profiles.parquet")

        def run():
            start = time.monotonic()
            frame = spark.sql(query)
            frame._jdf.queryExecution().executedPlan()
            planned = time.monotonic()
            rows = frame.collect()
            return rows, time.monotonic() - start, planned - start

        rows, seconds, plan_cold = run()
        again, seconds_warm, plan_warm = run()
        # And with Spark's default limit, to show what the setting is worth.
        spark.conf.set("spark.sql.codegen.hugeMethodLimit", "65535")
        default, seconds_default, _ = run()
        spark.conf.set("spark.sql.codegen.hugeMethodLimit", "8000")
        seconds_large, same_large = 0.0, True
        if large:
            load(large, "large.parquet")
            rows_large, seconds_large, _ = run()
            same_large = counted(rows_large) == expected(large)
    spark.stop()
    same = counted(rows) == expected(path) and again == rows and default == rows and same_large
    print("%.2f %.2f %.2f %.2f %.2f %.2f %s" % (seconds, plan_cold, seconds_warm, plan_warm, seconds_default, seconds_large,
                                               "same counts" if same else "COUNTS DIFFER"))


# An entry is told apart by its experiment, variant and held_out too, where the rules have them.
ENTRY = ["placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"]


def counted(rows):
    """The query's profiles by entry."""
    return {tuple(row.asDict().get(column) for column in ENTRY): row["profiles"] for row in rows}


def expected(path):
    """`resolve --all --summary`'s profiles by entry, for the profiles in `path`."""
    binary, rules, now = sys.argv[1:4]
    listed = subprocess.run([binary, "resolve", "--all", "--summary", "--format", "json", "--rules", rules, "--now", now,
                             "--profiles", path], capture_output=True, text=True).stdout
    # Every entry, 0 where no profile takes it, as the query lists them.
    return {tuple(json.loads(line).get(column) for column in ENTRY): json.loads(line)["profiles"] for line in listed.splitlines()}


if __name__ == "__main__":
    main()
