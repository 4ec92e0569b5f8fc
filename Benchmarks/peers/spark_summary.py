#!/usr/bin/env python3
"""Audience sizing on Spark (local[2]): `targeting sql --all --summary --dialect spark` over a
JSON Lines file loaded as a string column. Prints the query's seconds (planning and running,
the session start excluded) and checks the counts against `resolve --all --summary`.

    spark_summary.py TARGETING RULES NOW PROFILES.jsonl
"""

import json
import subprocess
import sys
import time

from pyspark.sql import SparkSession


def main():
    binary, rules, now, path = sys.argv[1:5]
    query = subprocess.run([binary, "sql", "--all", "--summary", "--dialect", "spark", "--rules", rules, "--now", now],
                           capture_output=True, text=True, check=True).stdout
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.read.text(path).withColumnRenamed("value", "profile").createOrReplaceTempView("profiles")
    start = time.monotonic()
    rows = spark.sql(query).collect()
    seconds = time.monotonic() - start
    spark.stop()
    listed = subprocess.run([binary, "resolve", "--all", "--summary", "--format", "json", "--rules", rules, "--now", now,
                             "--profiles", path], capture_output=True, text=True).stdout
    # An entry is told apart by its experiment, variant and held_out too, where the rules have them.
    columns = ["placement", "audience", "kind", "id", "split", "experiment", "variant", "held_out"]
    expected = {}
    for line in listed.splitlines():
        row = json.loads(line)  # every entry, 0 where no profile takes it, as the query lists them
        expected[tuple(row.get(column) for column in columns)] = row["profiles"]
    actual = {tuple(row.asDict().get(column) for column in columns): row["profiles"] for row in rows}
    print("%.2f %s" % (seconds, "same counts" if actual == expected else "COUNTS DIFFER"))


if __name__ == "__main__":
    main()
