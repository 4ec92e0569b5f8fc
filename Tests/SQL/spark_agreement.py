#!/usr/bin/env python3
"""Agreement test: `targeting sql --dialect spark` on real Spark (local[2]) against `targeting resolve`.

The same generated profiles and rule sets as `agreement.py` (PostgreSQL). The profiles go into a
view `profiles` with one string column `profile` holding each JSON line unchanged (and, for
`--layout columns`, the typed table's rows of the profiles it can hold); every placement's query
runs with `spark.sql.ansi.enabled` true and false (the typed layout: true), and every row must
equal `resolve --format json`; every rule set also runs as one `sql --all` query, `--summary`
and `diff --sql`. A generated set of twenty placements of twenty rows runs as `--all`, and its
queries and the shipped rules' `--all` are planned on their own. One Spark session for the whole
run. Prints, per placement and mode, the plan time (the optimised plan, forced before
execution) and the run time; `--max-plan-seconds` fails a query slower to plan.

Needs PySpark (`pip install pyspark`, which brings Spark) and Java 17; `.ci/run` installs both.
"""

import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agreement  # noqa: E402  (the generator, `resolve` side and comparison are shared)
import typed_layout  # noqa: E402


def main():
    parser = agreement.arguments(__doc__, random_default=2)
    parser.add_argument("--max-plan-seconds", type=float, default=0,
                        help="fail when a placement takes longer than this to plan (default: report only)")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)

    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("targeting-agreement")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print("spark %s" % spark.version)
    rule_sets = args.rules or agreement.default_rule_sets()
    lines = agreement.profile_lines(args, nul=True)
    failed = 0
    slow = []

    def load(kept, columns):
        """The view `profiles`: each JSON line, or with `columns` the typed table's rows."""
        if columns:
            rows, schema = typed_layout.spark_rows(kept, columns)
            spark.createDataFrame(rows, schema).createOrReplaceTempView("profiles")
        else:
            spark.createDataFrame([(line,) for line in kept], "profile string").createOrReplaceTempView("profiles")

    def spark_rows(query, kept, columns):
        load(kept, columns)
        return [row.asDict() for row in spark.sql(query).collect()]

    def planned(query):
        """The query planned (its optimised physical plan forced, nothing run); seconds taken."""
        start = time.monotonic()
        frame = spark.sql(query)
        frame._jdf.queryExecution().executedPlan()
        return frame, time.monotonic() - start

    def plan_check(name, command):
        """Plans the query `command` prints over an empty view; prints and checks the time."""
        query = agreement.run(command)
        if query.returncode != 0:
            sys.exit("error: %s failed: %s" % (" ".join(command), query.stderr))
        _, seconds = planned(query.stdout)
        print("plan %s: %.1f s" % (name, seconds))
        if args.max_plan_seconds and seconds > args.max_plan_seconds:
            slow.append("%s: %.1f s" % (name, seconds))

    layouts = ("json", "columns") if args.layout == "both" else (args.layout,)
    with tempfile.TemporaryDirectory() as workdir:
        import random_rules
        wide = random_rules.write_wide(workdir, args.seed)
        for layout in layouts:
            args.layout = layout
            typed_label = ", columns" if layout == "columns" else ""
            # The typed layout runs ANSI mode only: what it changes is how values are read.
            modes = ("true", "false") if layout == "json" else ("true",)
            for rules in agreement.random_rule_sets(args, workdir):
                failed += agreement.check_all(args, rules, lines[:args.random_count], workdir, "spark", spark_rows, typed_label)
            for rules in rule_sets:
                rules = os.path.abspath(rules)
                for placement in agreement.placements(args.bin, rules):
                    columns, corpus = agreement.typed(args, [rules], lines, "spark")
                    expected, kept, rejected = agreement.expected_rows(args, rules, placement, corpus, workdir)
                    load(kept, columns)
                    query = agreement.query_text(args, rules, placement, "spark")
                    for ansi in modes:
                        spark.conf.set("spark.sql.ansi.enabled", ansi)
                        frame, plan_seconds = planned(query)
                        start = time.monotonic()
                        rows = [row.asDict() for row in frame.collect()]
                        label = " (ansi %s%s, plan %.1f s, run %.1f s)" % (ansi, typed_label, plan_seconds, time.monotonic() - start)
                        failed += agreement.compare(args, rules, placement, expected, rows, kept, rejected, label)
                        if args.max_plan_seconds and plan_seconds > args.max_plan_seconds:
                            slow.append("%s %s (ansi %s%s): %.1f s" % (os.path.basename(rules), placement, ansi, typed_label, plan_seconds))
                for ansi in modes:
                    spark.conf.set("spark.sql.ansi.enabled", ansi)
                    # Every placement in one query; the placements share each profile's draws.
                    failed += agreement.check_all(args, rules, lines, workdir, "spark", spark_rows, " (--all, ansi %s%s)" % (ansi, typed_label))
                    for corpus, label in ((lines, ""), ([], ", no profiles")):
                        failed += agreement.check_summary(args, rules, corpus, workdir, "spark", spark_rows,
                                                          " (ansi %s%s%s)" % (ansi, label, typed_label))
            for ansi in modes:
                spark.conf.set("spark.sql.ansi.enabled", ansi)
                for pair in agreement.DIFF_PAIRS:
                    for view in agreement.DIFF_PARTS:
                        failed += agreement.check_diff(args, lines, workdir, "spark", spark_rows, " (ansi %s%s)" % (ansi, typed_label),
                                                       view=view, pair=pair)
            # Twenty placements of twenty rows: every placement at once, and one of them.
            spark.conf.set("spark.sql.ansi.enabled", "true")
            failed += agreement.check_all(args, wide, lines[:args.random_count], workdir, "spark", spark_rows, " (20 x 20 rows%s)" % typed_label)
            columns, _ = agreement.typed(args, [wide], [], "spark")
            load([], columns)
            flags = agreement.layout_flags(args)
            base = [args.bin, "sql", "--dialect", "spark", "--now", agreement.NOW] + flags
            plan_check("20 placements --all" + typed_label, base + ["--all", "--rules", wide])
            plan_check("20 placements --all --summary" + typed_label, base + ["--all", "--summary", "--rules", wide])
            plan_check("a 20-row placement --summary" + typed_label, base + ["p0", "--summary", "--rules", wide])
            columns, _ = agreement.typed(args, [os.path.join(agreement.ROOT, "Rules")], [], "spark")
            load([], columns)
            plan_check("Rules --all" + typed_label, base + ["--all", "--rules", os.path.join(agreement.ROOT, "Rules")])
            plan_check("Rules --all --summary" + typed_label, base + ["--all", "--summary", "--rules", os.path.join(agreement.ROOT, "Rules")])
    spark.stop()
    for line in slow:
        print("too slow to plan: " + line)
    sys.exit(1 if failed or slow else 0)


if __name__ == "__main__":
    main()
