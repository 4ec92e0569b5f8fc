#!/usr/bin/env bash
# Benchmarks/run.sh: every benchmark in one run, printed as one table. Release builds; the
# workloads are generated from a fixed seed into a temporary folder (nothing large is kept).
# Rates are per core; ratios compare with a reference measured in the same run.
#
#   Benchmarks/run.sh            # the whole table (about 10 minutes on 2 cores with PostgreSQL and Spark)
#   PROFILES=200000 Benchmarks/run.sh   # a quicker, smaller run
set -euo pipefail
cd "$(dirname "$0")/.."

profiles=${PROFILES:-1000000}
events=${EVENTS:-1000000}
store_profiles=${STORE_PROFILES:-100000}
history_profiles=${HISTORY_PROFILES:-200000}
now=2026-11-29T12:00:00Z

swift build -c release --product targeting >&2
swift build -c release --product targeting-bench >&2
bin=.build/release/targeting
bench=.build/release/targeting-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# `measure CMD…`: runs CMD with stdout to $work/out; sets $seconds and $rss_mb.
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || true
  # A command that exits non-zero (reconcile with mismatches) gets a first line saying so.
  read -r seconds rss_kb < <(tail -n 1 "$work/time")
  rss_mb=$(awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }')
}
# `measure_best CMD…`: the fastest of three runs of CMD, for references that take about a second,
# where one run's noise would move a ratio by a fifth.
measure_best() {
  local best=""
  for _ in 1 2 3; do
    measure "$@"
    if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; fi
  done
  seconds=$best
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.001; printf "%.0f k/s", n / s / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a <= 0) a = 0.001; printf "%.2f×", b / a }'; }

echo "| benchmark | Targeting | reference (same run) | ratio |"
echo "|---|---|---|---|"

# (a) In process: the library API against a hand-written Swift function over the same Profile values.
"$bench" in-process Rules
# `matches` rows against `starts with`/`ends with` rows, and compiling a 1,000-character pattern.
"$bench" patterns "$profiles"

# (b) Batch: resolve --all over JSON Lines, against the specialised stdlib-Python loop on the same
# file (`json.loads` and the three placements' conditions written out as `if`s: no rule interpreter).
"$bench" profiles "$profiles" "$work/profiles.jsonl"
head -n $((profiles / 10)) "$work/profiles.jsonl" > "$work/profiles-small.jsonl"
bytes=$(wc -c < "$work/profiles.jsonl")
measure "$bin" resolve --all --profiles "$work/profiles-small.jsonl" --now "$now" --format json --jobs 1
small_rss=$rss_mb
measure "$bin" resolve --all --profiles "$work/profiles.jsonl" --now "$now" --format json --jobs 1
ours=$seconds; ours_rss=$rss_mb
cp "$work/out" "$work/ours.jsonl"
measure python3 Benchmarks/peers/stdlib_resolve.py "$work/profiles.jsonl"
python_seconds=$seconds
same=$(cmp -s "$work/out" "$work/ours.jsonl" && echo "same output" || echo "OUTPUT DIFFERS")
mbps=$(awk -v b="$bytes" -v s="$ours" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }')
echo "| batch: \`resolve --all --profiles --jobs 1\`, $profiles profiles, 3 placements | $(rate "$profiles" "$ours") ($mbps) | specialised stdlib-Python loop: $(rate "$profiles" "$python_seconds") ($same) | $(ratio "$ours" "$python_seconds") |"
cores=$(nproc)
measure "$bin" resolve --all --profiles "$work/profiles.jsonl" --now "$now" --format json --jobs "$cores"
all_cores=$seconds
cmp -s "$work/out" "$work/ours.jsonl" || echo "| batch: --jobs $cores OUTPUT DIFFERS from --jobs 1 | | | |"
echo "| batch: \`--jobs $cores\` (every core) | $(rate "$profiles" "$all_cores") | \`--jobs 1\`: $(rate "$profiles" "$ours") | $(ratio "$all_cores" "$ours") |"
echo "| batch: peak RSS at $((profiles / 10)) vs $profiles lines | $small_rss MiB vs $ours_rss MiB | — | — |"

# The six-row placement (one of, set `has any`, number `between`, bool, age, country, platform)
# against its own specialised stdlib-Python loop (`json.loads` and the `if`s), same output.
"$bench" coach-rules "$work/coach.rules"
"$bench" coach-profiles "$profiles" "$work/coach.jsonl"
measure "$bin" resolve coach_paywall --rules "$work/coach.rules" --profiles "$work/coach.jsonl" --now "$now" --format json --jobs 1
coach_ours=$seconds
cp "$work/out" "$work/coach-ours.jsonl"
measure python3 Benchmarks/peers/stdlib_coach.py "$work/coach.jsonl"
same=$(cmp -s "$work/out" "$work/coach-ours.jsonl" && echo "same output" || echo "OUTPUT DIFFERS")
echo "| batch: \`resolve coach_paywall --jobs 1\` (6 rows), $profiles profiles | $(rate "$profiles" "$coach_ours") | specialised stdlib-Python loop: $(rate "$profiles" "$seconds") ($same) | $(ratio "$coach_ours" "$seconds") |"

# History: the six-row placement with caps on five rows (`shown … in 7d < 3`, `last shown`, a
# 30-day limit, a cap on a second placement) against the same placements without caps, both over
# the same profiles, each carrying 20 shown instants per placement; and what reading those
# histories costs: the uncapped rules over the same profiles without `history`.
"$bench" capped-rules "$work/capped.rules"
"$bench" uncapped-rules "$work/uncapped.rules"
"$bench" history-profiles "$history_profiles" "$work/history.jsonl"
"$bench" coach-profiles "$history_profiles" "$work/no-history.jsonl"
measure "$bin" resolve --all --rules "$work/capped.rules" --profiles "$work/history.jsonl" --now "$now" --format json --jobs 1
capped=$seconds
measure "$bin" resolve --all --rules "$work/uncapped.rules" --profiles "$work/history.jsonl" --now "$now" --format json --jobs 1
uncapped=$seconds
measure "$bin" resolve --all --rules "$work/uncapped.rules" --profiles "$work/no-history.jsonl" --now "$now" --format json --jobs 1
echo "| batch with history: capped \`coach_paywall\` and a second placement, $history_profiles profiles with 20 shown instants per placement, \`--jobs 1\` | $(rate "$history_profiles" "$capped") | the same placements without caps, same profiles: $(rate "$history_profiles" "$uncapped") | $(ratio "$capped" "$uncapped") |"
echo "| batch with history: the placements without caps, profiles with those histories | $(rate "$history_profiles" "$uncapped") | the same profiles without \`history\`: $(rate "$history_profiles" "$seconds") | $(ratio "$uncapped" "$seconds") |"

# Prerequisites: `main_paywall`, whose first row asks `placement onboarding -> flow "onb_engaged"`
# (onboarding: five rows over the custom attributes, and `everyone`), against the same rules with
# that condition copied out by hand (onboarding's deciding row, and no row above it), over the
# batch profiles; both must print the same lines. The fastest of three each: they differ by little.
python3 Benchmarks/generate/prerequisite_rules.py prerequisite > "$work/prerequisite.rules"
python3 Benchmarks/generate/prerequisite_rules.py copied > "$work/copied.rules"
for version in prerequisite copied; do
  if ! "$bin" check "$work/$version.rules" > "$work/check-$version" 2>&1; then
    echo "Benchmarks/run.sh: the $version rules do not check:" >&2; cat "$work/check-$version" >&2; exit 1
  fi
  measure_best "$bin" resolve main_paywall --rules "$work/$version.rules" --profiles "$work/profiles.jsonl" --now "$now" --format json --jobs 1
  printf -v "${version}_seconds" %s "$seconds"
  lines=$(wc -l < "$work/out")
  if [ -s "$work/err" ] || [ "$lines" -ne "$profiles" ]; then
    echo "Benchmarks/run.sh: resolve main_paywall with the $version rules printed $lines of $profiles lines:" >&2; head -n 5 "$work/err" >&2; exit 1
  fi
  cp "$work/out" "$work/$version.jsonl"
done
if ! cmp -s "$work/prerequisite.jsonl" "$work/copied.jsonl"; then
  echo "Benchmarks/run.sh: the prerequisite and its copied conditions decide differently:" >&2
  diff "$work/prerequisite.jsonl" "$work/copied.jsonl" | head -n 10 >&2 || true
  exit 1
fi
echo "| batch: prerequisite \`placement onboarding -> flow\` in \`resolve main_paywall --jobs 1\`, $profiles profiles (target ≥ 0.80×) | $(rate "$profiles" "$prerequisite_seconds") | the condition copied out by hand: $(rate "$profiles" "$copied_seconds") (same output) | $(ratio "$prerequisite_seconds" "$copied_seconds") |"

# (e) Peers on the same file and placements: orjson, the GrowthBook SDK, JSON Logic (from PyPI
# into a local venv; skipped when PyPI cannot be reached).
venv=.build/peers-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import orjson, growthbook, json_logic" 2>/dev/null; then
  python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q orjson growthbook panzi-json-logic >&2 || true
fi
if "$venv/bin/python" -c "import orjson, growthbook, json_logic" 2>/dev/null; then
  for peer in orjson growthbook json-logic; do
    measure "$venv/bin/python" Benchmarks/peers/peers.py "$peer" "$work/profiles.jsonl"
    note=""
    [ "$peer" = orjson ] && { cmp -s "$work/out" "$work/ours.jsonl" && note=" (same output)" || note=" (OUTPUT DIFFERS)"; }
    echo "| peer: $peer loop | $(rate "$profiles" "$ours") | $peer: $(rate "$profiles" "$seconds")$note | $(ratio "$ours" "$seconds") |"
  done
else
  echo "| peers | skipped: PyPI unreachable | — | — |"
fi

# (c) Ingest: events into a store, against a minimal stdlib-Python ingest.
"$bench" profiles "$store_profiles" "$work/store.jsonl"
"$bench" events "$events" "$store_profiles" "$work/events.jsonl"
cp "$work/store.jsonl" "$work/store-python.jsonl"
cp "$work/store.jsonl" "$work/store-shown.jsonl"
measure "$bin" ingest "$work/events.jsonl" --store "$work/store.jsonl" --rules Rules
ours=$seconds; ours_rss=$rss_mb
measure python3 Benchmarks/peers/stdlib_ingest.py "$work/events.jsonl" "$work/store-python.jsonl"
echo "| ingest: $events events into a store of $store_profiles profiles | $(rate "$events" "$ours") events, $ours_rss MiB peak RSS | stdlib Python: $(rate "$events" "$seconds") | $(ratio "$ours" "$seconds") |"
# Shown lines (each touched profile gains a history) against the answer lines above.
"$bench" shown-events "$events" "$store_profiles" "$work/shown-events.jsonl"
measure "$bin" ingest "$work/shown-events.jsonl" --store "$work/store-shown.jsonl" --rules Rules
echo "| ingest: $events \`placement_shown\` lines into the same store | $(rate "$events" "$seconds") lines, $rss_mb MiB peak RSS | answer lines above: $(rate "$events" "$ours") | $(ratio "$seconds" "$ours") |"

# (h) Reconcile: 1 M shown lines (after 3 set-up lines for each of 50,000 users) replayed against
# the shipped rules, each line resolved for its profile as it stood; the reference is `ingest` of
# the same file into an empty store (the same reading and applying, without the decisions).
shown_profiles=${SHOWN_PROFILES:-50000}
"$bench" shown "$events" "$shown_profiles" "$work/shown.jsonl" Rules
shown_lines=$(wc -l < "$work/shown.jsonl")
measure "$bin" reconcile "$work/shown.jsonl" --rules Rules --format json
ours=$seconds; ours_rss=$rss_mb
mismatched=$(grep -o '"different destination":[0-9]*' "$work/out" | awk -F: '{ n += $2 } END { print n + 0 }')
rm -f "$work/shown-store.jsonl"
measure "$bin" ingest "$work/shown.jsonl" --store "$work/shown-store.jsonl" --rules Rules
echo "| reconcile: $shown_lines event lines ($events shown, $mismatched different destinations found) over $shown_profiles users | $(rate "$shown_lines" "$ours") lines, $ours_rss MiB peak RSS | \`ingest\` of the same file into an empty store: $(rate "$shown_lines" "$seconds") | $(ratio "$ours" "$seconds") |"

# (i) Serving: `targeting serve` under wrk against nginx-light answering a fixed body of the same
# size, the same wrk command in the same run; p99 at 80 % of the rate; RSS over 1,000,000
# requests (Benchmarks/serve/serve.sh; skipped without wrk and nginx).
Benchmarks/serve/serve.sh "$bin"

# (d) Check: growth with the size of the rule set.
previous=""
for segments in 2500 10000 40000; do
  "$bench" check-set "$segments" "$work/set-$segments.rules"
  measure "$bin" check "$work/set-$segments.rules"
  growth=${previous:+$(ratio "$previous" "$seconds") for 4× input}
  analysis=$(grep -q 'for the reachability analysis' "$work/err" && echo skipped || echo analysed)
  echo "| check: $segments segments ($analysis) | ${seconds} s | — | ${growth:-—} |"
  previous=$seconds
done
for terms in 25000 100000; do
  "$bench" long-or "$terms" "$work/or-$terms.rules"
  measure "$bin" check "$work/or-$terms.rules"
  analysis=$(grep -q 'for the reachability analysis' "$work/err" && echo skipped || echo analysed)
  echo "| check: one \`or\` of $terms terms ($analysis) | ${seconds} s, ${rss_mb} MB | — | — |"
done

# (f) Proofs: `diff --prove` on the shipped rules against a one-row change, and on 200 generated
# placements (500 segments, 100 audiences) against a one-row change; the reference is
# `diff --profiles` of the same pair over the shipped 10,000-profile corpus, a sample where the
# proof covers every profile.
mkdir -p "$work/prove-old" "$work/prove-new" "$work/many-old" "$work/many-new"
cp Rules/*.rules "$work/prove-old/"
cp Rules/*.rules "$work/prove-new/"
sed -i 's/premium_members *-> nothing/premium_members -> paywall "pw_standard"/' "$work/prove-new/placements.rules"
measure "$bin" diff "$work/prove-old" "$work/prove-new" --prove --now "$now"
prove_status=$(grep -c ': changed' "$work/out" || true)
ours=$seconds
measure "$bin" diff "$work/prove-old" "$work/prove-new" --profiles Examples/profiles/corpus.jsonl --now "$now"
echo "| \`diff --prove\`: shipped rules, one row changed ($prove_status placement changed) | ${ours} s | \`diff --profiles\`, 10,000 profiles: ${seconds} s | $(ratio "$ours" "$seconds") |"
"$bench" many-placements 200 "$work/many-old/rules.rules"
sed 's/flow "f0_0"/flow "f0_changed"/' "$work/many-old/rules.rules" > "$work/many-new/rules.rules"
measure "$bin" diff "$work/many-old" "$work/many-new" --prove --now "$now"
ours=$seconds; ours_rss=$rss_mb
verdicts="$(grep -c ': equivalent' "$work/out" || true) equivalent, $(grep -c ': changed' "$work/out" || true) changed"
measure "$bin" diff "$work/many-old" "$work/many-new" --profiles Examples/profiles/corpus.jsonl --now "$now"
echo "| \`diff --prove\`: 200 generated placements, one row changed ($verdicts) | ${ours} s, ${ours_rss} MB | \`diff --profiles\`, 10,000 profiles: ${seconds} s | $(ratio "$ours" "$seconds") |"

# (g) `diff --profiles` and `check` on every core and per placement: `diff` of the shipped rules
# against a change of the experiment's weights over the 1 M generated profiles, every core
# against `--jobs 1` (the same report, checked); `check` of 200 generated placements.
sed 's/50% control/30% control/; s/50% discount/70% discount/' Rules/experiments.rules > "$work/prove-new/experiments.rules"
measure "$bin" diff Rules "$work/prove-new" --profiles "$work/profiles.jsonl" --now "$now" --jobs 1
one=$seconds; cp "$work/out" "$work/diff-one"
measure "$bin" diff Rules "$work/prove-new" --profiles "$work/profiles.jsonl" --now "$now"
same=$(cmp -s "$work/out" "$work/diff-one" && echo "same report" || echo "REPORT DIFFERS")
echo "| \`diff --profiles\`, $profiles profiles, every core ($cores) | $(rate "$profiles" "$seconds") | \`--jobs 1\`: $(rate "$profiles" "$one") ($same) | $(ratio "$seconds" "$one") |"
measure "$bin" check "$work/many-old"
analysed=$(grep -c 'for the reachability analysis' "$work/err" || true)
echo "| \`check\`: 200 generated placements, analysed ($analysed skipped) | ${seconds} s | — | — |"
# `check` of 200 placements in 10 chains of 20, each placement's first row asking
# `placement PREVIOUS -> flow "…"` and a comparison, against the same placements without the
# prerequisites; the fastest of three each (the ratio, as everywhere, is the reference's seconds
# over ours).
python3 Benchmarks/generate/chained_rules.py prerequisites > "$work/chained.rules"
python3 Benchmarks/generate/chained_rules.py plain > "$work/unchained.rules"
for version in chained unchained; do
  if ! "$bin" check "$work/$version.rules" > "$work/check-$version" 2>&1; then
    echo "Benchmarks/run.sh: the $version rules do not check:" >&2; cat "$work/check-$version" >&2; exit 1
  fi
done
measure_best "$bin" check "$work/unchained.rules"
unchained=$seconds
measure_best "$bin" check "$work/chained.rules"
analysed=$(grep -c 'for the reachability analysis' "$work/err" || true)
echo "| \`check\`: 200 placements in 10 chains of 20 prerequisites, analysed ($analysed skipped) (target < 1 s) | ${seconds} s | the same placements without prerequisites: ${unchained} s | $(ratio "$seconds" "$unchained") |"

# Warehouse: audience sizing on PostgreSQL (a running server, through psql as `postgres`) and on
# Spark local[2] (PySpark 4 from PyPI into .build/spark-venv-4), over the same 200,000 profiles as
# one JSON column and as the typed table of `--layout columns`, each against `resolve --summary`
# on the same profiles per core (`--jobs 1` for PostgreSQL, which runs a query on one core;
# `--jobs 2` for local[2]); `diff --sql` against `diff --profiles --jobs 1`. Skipped without them.
warehouse_profiles=${WAREHOUSE_PROFILES:-200000}
head -n "$warehouse_profiles" "$work/profiles.jsonl" > "$work/warehouse.jsonl"
if runuser -u postgres -- psql -X -A -t -c 'SELECT 1' >/dev/null 2>&1; then
  measure_best "$bin" resolve --all --summary --profiles "$work/warehouse.jsonl" --now "$now" --jobs 1
  ours=$seconds
  measure_best "$bin" diff Rules "$work/prove-new" --profiles "$work/warehouse.jsonl" --now "$now" --jobs 1 --by destination
  diff_ours=$seconds
  python3 Benchmarks/peers/postgres_summary.py "$bin" Rules "$work/prove-new" "$now" "$work/warehouse.jsonl" > "$work/postgres" 2>&1 || true
  while read -r layout pg_seconds pg_check; do
    case $layout in
      json|columns) echo "| warehouse: PostgreSQL \`sql --all --summary --layout $layout\`, $warehouse_profiles profiles | \`resolve --summary --jobs 1\`: $(rate "$warehouse_profiles" "$ours") | PostgreSQL: $(rate "$warehouse_profiles" "$pg_seconds") ($pg_check) | $(ratio "$ours" "$pg_seconds") |" ;;
      diff) echo "| warehouse: PostgreSQL \`diff --sql\`, $warehouse_profiles profiles | \`diff --profiles --jobs 1\`: $(rate "$warehouse_profiles" "$diff_ours") | PostgreSQL: $(rate "$warehouse_profiles" "$pg_seconds") ($pg_check) | $(ratio "$diff_ours" "$pg_seconds") |" ;;
      *) echo "| warehouse: PostgreSQL failed: $layout $pg_seconds $pg_check | — | — | — |" ;;
    esac
  done < "$work/postgres"
else
  echo "| warehouse: PostgreSQL | skipped: no server reachable as \`postgres\` | — | — |"
fi
spark_venv=.build/spark-venv-4
if [ ! -x "$spark_venv/bin/python" ] || ! "$spark_venv/bin/python" -c "import pyspark" 2>/dev/null; then
  python3 -m venv "$spark_venv" >&2 && "$spark_venv/bin/pip" install -q "pyspark>=4,<5" >&2 || true
fi
if command -v java >/dev/null 2>&1 && "$spark_venv/bin/python" -c "import pyspark" 2>/dev/null; then
  measure_best "$bin" resolve --all --summary --profiles "$work/warehouse.jsonl" --now "$now" --jobs "$cores"
  ours=$seconds
  # And over every generated profile, once the session is warm: a query's fixed costs (planning,
  # compiling its generated code) weigh less the more rows it reads.
  measure_best "$bin" resolve --all --summary --profiles "$work/profiles.jsonl" --now "$now" --jobs "$cores"
  ours_large=$seconds
  for layout in json columns; do
    read -r spark_seconds plan_cold spark_warm plan_warm spark_default spark_large spark_check < <("$spark_venv/bin/python" Benchmarks/peers/spark_summary.py "$bin" Rules "$now" "$work/warehouse.jsonl" "$layout" "$work/profiles.jsonl" 2>/dev/null | tail -1)
    echo "| warehouse: Spark local[2] \`sql --all --summary --layout $layout\`, $warehouse_profiles profiles, first query of the session | \`resolve --summary --jobs $cores\`: $(rate "$warehouse_profiles" "$ours") | Spark: $(rate "$warehouse_profiles" "$spark_seconds") ($spark_check) | $(ratio "$ours" "$spark_seconds") |"
    echo "| warehouse: Spark, the same query again in the warm session | \`resolve --summary --jobs $cores\`: $(rate "$warehouse_profiles" "$ours") | Spark: $(rate "$warehouse_profiles" "$spark_warm") | $(ratio "$ours" "$spark_warm") |"
    echo "| warehouse: Spark planning of that query, --layout $layout | first in the session: ${plan_cold} s; again: ${plan_warm} s | — | — |"
    echo "| warehouse: Spark, that query in the warm session with \`hugeMethodLimit\` 8000 (the README's setting) | $(rate "$warehouse_profiles" "$spark_warm") | Spark's default limit: $(rate "$warehouse_profiles" "$spark_default") | $(ratio "$spark_warm" "$spark_default") |"
    echo "| warehouse: Spark, the same query in the warm session over $profiles profiles | \`resolve --summary --jobs $cores\`: $(rate "$profiles" "$ours_large") | Spark: $(rate "$profiles" "$spark_large") | $(ratio "$ours_large" "$spark_large") |"
  done
else
  echo "| warehouse: Spark | skipped: no Java or PyPI | — | — |"
fi

# Warehouse, against SQL written by hand: Tests/SQL/followup.rules (six rows of the shapes a team
# writes as one CASE) over $warehouse_profiles clean generated profiles, on PostgreSQL (one core,
# no JIT), on DuckDB and on ClickHouse (chDB) from PyPI (into .build/warehouse-venv, one thread
# each) and on Spark local[2] (.build/spark-venv-4, the typed table as Parquet): the query `sql
# --all --summary` generates against the one in Benchmarks/handwritten/, in each layout, and the
# generated query over the typed table against `resolve --summary` on the same profiles per core
# (`--jobs 1` for the one-core engines, `--jobs 2` for local[2]).
warehouse_venv=.build/warehouse-venv
if [ ! -x "$warehouse_venv/bin/python" ] || ! "$warehouse_venv/bin/python" -c "import duckdb, chdb" 2>/dev/null; then
  python3 -m venv "$warehouse_venv" >&2 && "$warehouse_venv/bin/pip" install -q duckdb chdb >&2 || true
fi
warehouse_python=python3
if "$warehouse_venv/bin/python" -c "import duckdb" 2>/dev/null; then warehouse_python=$warehouse_venv/bin/python; fi
"$warehouse_python" Benchmarks/peers/warehouse_summary.py "$bin" Tests/SQL/followup.rules "$now" "$warehouse_profiles" \
  --engines postgres,duckdb,clickhouse > "$work/handwritten" 2>&1 || true
# Spark in its own venv (PySpark 4, above), its log on stderr apart: only its errors are kept.
if command -v java >/dev/null 2>&1 && "$spark_venv/bin/python" -c "import pyspark" 2>/dev/null; then
  "$spark_venv/bin/python" Benchmarks/peers/warehouse_summary.py "$bin" Tests/SQL/followup.rules "$now" "$warehouse_profiles" \
    --engines spark > "$work/handwritten-spark" 2> "$work/handwritten-spark.err" || true
  grep -v '^resolve - jobs1 ' "$work/handwritten-spark" >> "$work/handwritten" || true
  grep '^error: ' "$work/handwritten-spark.err" >> "$work/handwritten" || true
else
  echo "spark - skipped 0 -" >> "$work/handwritten"
fi
# `figure ENGINE LAYOUT QUERY`: the seconds and the check of one line of warehouse_summary.py.
figure() { awk -v e="$1" -v l="$2" -v q="$3" '$1 == e && $2 == l && $3 == q { print $4, $5; exit }' "$work/handwritten"; }
read -r resolve_seconds _ < <(figure resolve - jobs1) || true
read -r resolve_two_seconds _ < <(figure resolve - jobs2) || true
if [ -z "${resolve_seconds:-}" ]; then
  echo "| warehouse: generated against hand-written SQL failed: $(head -n 1 "$work/handwritten") | — | — | — |"
else
  for engine in postgres duckdb clickhouse spark; do
    case $engine in
      postgres) engine_name="PostgreSQL (one core)"; jobs=1; reference=$resolve_seconds ;;
      duckdb) engine_name="DuckDB (one thread)"; jobs=1; reference=$resolve_seconds ;;
      clickhouse) engine_name="ClickHouse (chDB, one thread)"; jobs=1; reference=$resolve_seconds ;;
      *) engine_name="Spark local[2]"; jobs=2; reference=${resolve_two_seconds:-} ;;
    esac
    if [ -n "$(figure "$engine" - skipped)" ]; then
      echo "| warehouse: $engine_name, generated against hand-written SQL | skipped: no $engine_name | — | — |"
      continue
    fi
    read -r columns_generated columns_generated_check < <(figure "$engine" columns generated) || true
    read -r columns_written columns_written_check < <(figure "$engine" columns handwritten) || true
    read -r json_generated json_generated_check < <(figure "$engine" json generated) || true
    read -r json_written json_written_check < <(figure "$engine" json handwritten) || true
    if [ -z "$columns_generated" ] || [ -z "$columns_written" ] || [ -z "$json_generated" ] || [ -z "$json_written" ] || [ -z "$reference" ]; then
      reason=$(grep -m 1 "^error: $engine:" "$work/handwritten" || grep -v '^[a-z]* [a-z-]* [a-z0-9]* [0-9.]* ' "$work/handwritten" | head -n 1 || true)
      echo "| warehouse: $engine_name, generated against hand-written SQL failed: $reason | — | — | — |"
      continue
    fi
    echo "| warehouse: $engine_name \`sql --all --summary --layout columns\`, followup.rules, $warehouse_profiles profiles, against the hand-written query (target ≤ 1.25×) | $(rate "$warehouse_profiles" "$columns_generated") ($columns_generated_check) | hand-written: $(rate "$warehouse_profiles" "$columns_written") ($columns_written_check) | $(ratio "$columns_written" "$columns_generated") |"
    echo "| warehouse: $engine_name \`sql --all --summary --layout columns\`, followup.rules, $warehouse_profiles profiles | \`resolve --summary --jobs $jobs\`: $(rate "$warehouse_profiles" "$reference") | $engine_name: $(rate "$warehouse_profiles" "$columns_generated") ($columns_generated_check) | $(ratio "$reference" "$columns_generated") |"
    echo "| warehouse: $engine_name \`sql --all --summary --layout json\`, followup.rules, $warehouse_profiles profiles, against the hand-written query (target ≤ 2×) | $(rate "$warehouse_profiles" "$json_generated") ($json_generated_check) | hand-written: $(rate "$warehouse_profiles" "$json_written") ($json_written_check) | $(ratio "$json_written" "$json_generated") |"
  done
fi

# One resolve of one profile on the shipped rules: the whole process.
measure "$bin" resolve onboarding_followup --profile Examples/profiles/pro_adult.json --now "$now"
echo "| one \`targeting resolve\` of one profile | $(awk -v s="$seconds" 'BEGIN { printf "%.0f ms", s * 1000 }') wall | — | — |"
