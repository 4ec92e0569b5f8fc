#!/usr/bin/env python3
"""Agreement test: `targeting sql --dialect spark` on real Spark (local[2]) against `targeting resolve`.

The same generated profiles and rule sets as `agreement.py` (PostgreSQL). The profiles go into a
view `profiles` with one string column `profile` holding each JSON line unchanged; every
placement's query runs with `spark.sql.ansi.enabled` true and false, and every row must equal
`resolve --format json`; rule sets with experiments or a holdout (SPEC §11) also run as one
`sql --all` query. One Spark session for the whole run. Prints, per placement and mode,
the plan time (the optimised plan, forced before execution) and the run time.

Needs PySpark (`pip install pyspark`, which brings Spark) and Java 17; `.ci/run` installs both.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agreement  # noqa: E402  (the generator, `resolve` side and comparison are shared)


def reports_experiments(args, rules):
    """Whether `rules` has experiments or a holdout (its decisions carry `held_out`)."""
    result = agreement.run([args.bin, "resolve", "--all", "--rules", rules, "--now", agreement.NOW, "--format", "json", "--profile", "-"],
                           input="{\"id\":\"x\"}")
    return '"held_out"' in result.stdout


def main():
    parser = agreement.arguments(__doc__, random_default=2)
    parser.add_argument("--max-plan-seconds", type=float, default=0,
                        help="fail when a placement takes longer than this to plan (default: report only)")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)

    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("targeting-agreement")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "2")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print("spark %s" % spark.version)
    rule_sets = args.rules or agreement.default_rule_sets()
    lines = agreement.profile_lines(args, nul=True)
    failed = 0
    slow = []

    def spark_rows(query, kept):
        spark.createDataFrame([(line,) for line in kept], "profile string").createOrReplaceTempView("profiles")
        return [row.asDict() for row in spark.sql(query).collect()]

    with tempfile.TemporaryDirectory() as workdir:
        for rules in agreement.random_rule_sets(args, workdir):
            failed += agreement.check_all(args, rules, lines[:args.random_count], workdir, "spark", spark_rows)
        for rules in rule_sets:
            rules = os.path.abspath(rules)
            for placement in agreement.placements(args.bin, rules):
                expected, kept, rejected = agreement.expected_rows(args, rules, placement, lines, workdir)
                spark.createDataFrame([(line,) for line in kept], "profile string").createOrReplaceTempView("profiles")
                query = agreement.query_text(args, rules, placement, "spark")
                for ansi in ("true", "false"):
                    spark.conf.set("spark.sql.ansi.enabled", ansi)
                    start = time.monotonic()
                    frame = spark.sql(query)
                    frame._jdf.queryExecution().executedPlan()  # plans the query without running it
                    planned = time.monotonic()
                    rows = [row.asDict() for row in frame.collect()]
                    done = time.monotonic()
                    label = " (ansi %s, plan %.1f s, run %.1f s)" % (ansi, planned - start, done - planned)
                    failed += agreement.compare(args, rules, placement, expected, rows, kept, rejected, label)
                    if args.max_plan_seconds and planned - start > args.max_plan_seconds:
                        slow.append("%s %s (ansi %s): %.1f s" % (os.path.basename(rules), placement, ansi, planned - start))
            for ansi in ("true", "false"):
                spark.conf.set("spark.sql.ansi.enabled", ansi)
                if reports_experiments(args, rules):
                    # The placements of `--all` share each profile's draws (SPEC §11).
                    failed += agreement.check_all(args, rules, lines, workdir, "spark", spark_rows, " (--all, ansi %s)" % ansi)
                for corpus, label in ((lines, ""), ([], ", no profiles")):
                    failed += agreement.check_summary(args, rules, corpus, workdir, "spark", spark_rows, " (ansi %s%s)" % (ansi, label))
        for ansi in ("true", "false"):
            spark.conf.set("spark.sql.ansi.enabled", ansi)
            for pair in agreement.DIFF_PAIRS:
                for view in agreement.DIFF_PARTS:
                    failed += agreement.check_diff(args, lines, workdir, "spark", spark_rows, " (ansi %s)" % ansi, view=view, pair=pair)
    spark.stop()
    for line in slow:
        print("too slow to plan: " + line)
    sys.exit(1 if failed or slow else 0)


if __name__ == "__main__":
    main()
