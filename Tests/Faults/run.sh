#!/usr/bin/env bash
# Fault tests for `targeting ingest` over the real binary: kills, concurrent runs, a full file
# system, unwritable places, a corrupt store and a store holding history never lose or damage data.
#
#   Tests/Faults/run.sh            # after `swift build`; needs root (unshare, mount, runuser)
#
# Environment: TARGETING (the binary, default .build/debug/targeting), FAULTS_SEED (random
# seed), FAULTS_KILL_RUNS (SIGKILLs to land, default 200). Exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
binary="${TARGETING:-$root/.build/debug/targeting}"
seed="${FAULTS_SEED:-20260529}"
runs="${FAULTS_KILL_RUNS:-200}"
faults="$root/Tests/Faults/faults.py"

if [[ ! -x "$binary" ]]; then
    echo "FAIL: no binary at $binary (run swift build first)" >&2
    exit 1
fi
if [[ "$(id -u)" != 0 ]]; then
    echo "FAIL: the fault tests need root (private mount namespaces, runuser)" >&2
    exit 1
fi

scratch="$(mktemp -d /tmp/targeting-faults.XXXXXX)"
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT

started=$SECONDS
failed=()
summaries=()
for check in corrupt permissions enospc concurrent kill history; do
    if output="$(python3 "$faults" "$check" --binary "$binary" --seed "$seed" --runs "$runs" --tmp "$scratch" 2>&1)"; then
        summaries+=("ok   $output")
    else
        summaries+=("FAIL $output")
        failed+=("$check")
    fi
done

echo "targeting ingest fault tests (seed $seed, $((SECONDS - started))s):"
printf '  %s\n' "${summaries[@]}"
if ((${#failed[@]} > 0)); then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "all fault checks passed"
