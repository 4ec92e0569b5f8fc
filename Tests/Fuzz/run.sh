#!/usr/bin/env bash
# Builds the libFuzzer targets of Tests/Fuzz and runs each for SECONDS (default 60).
#
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]     e.g. Tests/Fuzz/run.sh 600 engine formatter
#
# The targets exist only with TARGETING_FUZZ=1 (see Package.swift) and are built in release
# mode with -sanitize=fuzzer,address into .build/fuzz, linked with lld (gold fails on
# libFuzzer's objects). Each run starts from a scratch copy of Tests/Fuzz/Corpus/<target>, so
# the repository's corpus never grows; crash, leak, timeout and OOM inputs are kept in the
# scratch directory (printed at the end). Exits non-zero when any target reports one.
set -euo pipefail

seconds="${1:-60}"
shift || true
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
all=(rules rules-grammar formatter tests profile events engine prove pattern http-request)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

swiftc_path="$(command -v swiftc)"
lld="$(dirname "$(readlink -f "$swiftc_path")")/ld.lld"
[ -x "$lld" ] || lld="$(command -v ld.lld)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/targeting-fuzz.XXXXXX")"
toolset="$scratch/toolset.json"
printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$toolset"

cd "$root"
for target in "${targets[@]}"; do
    echo "== building fuzz-$target"
    if ! TARGETING_FUZZ=1 swift build -c release --build-path .build/fuzz --toolset "$toolset" \
        -Xswiftc -sanitize=fuzzer,address --product "fuzz-$target" > "$scratch/build-$target.log" 2>&1; then
        grep -E 'error' "$scratch/build-$target.log" >&2 || tail -20 "$scratch/build-$target.log" >&2
        echo "error: fuzz-$target did not build" >&2
        exit 1
    fi
done

status=0
summary=()
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    cp -R "$here/Corpus/$target/." "$corpus/" 2>/dev/null || true
    log="$scratch/$target.log"
    echo "== fuzz-$target for ${seconds}s (log $log)"
    set +e
    # The Swift runtime's own crash reporter would wait on every crash; libFuzzer reports them.
    SWIFT_BACKTRACE=enable=no TARGETING_FUZZ_RULES="$root/Rules" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
        ".build/fuzz/release/fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 \
        -rss_limit_mb=2048 -max_len=8192 -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1
    code=$?
    set -e
    runs="$(grep -a 'stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)"
    speed="$(grep -a 'stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)"
    found="$(ls "$artifacts" 2>/dev/null | wc -l)"
    if [ "$code" -ne 0 ] || [ "$found" -ne 0 ] || grep -aqE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY: ' "$log"; then
        status=1
        summary+=("$(printf '%-14s FAILED (exit %s)  executions %s  exec/s %s  artifacts: %s' "$target" "$code" "${runs:-?}" "${speed:-?}" "$(ls "$artifacts" | tr '\n' ' ')")")
        grep -aE 'ERROR:|SUMMARY:|Fatal error|fatalError' "$log" | head -5 || true
    else
        summary+=("$(printf '%-14s ok  executions %s  exec/s %s  corpus %s' "$target" "${runs:-?}" "${speed:-?}" "$(ls "$corpus" | wc -l)")")
    fi
done

echo "== results (scratch: $scratch)"
printf '%s\n' "${summary[@]}"
exit $status
