#!/usr/bin/env bash
# Real-client tests of `targeting serve`: the OpenFeature SDK, curl, wrk, hostile sockets, SIGTERM.
#
#   Tests/Serve/run.sh --bin .build/debug/targeting [--load-bin .build/release/targeting]
#
# --load-bin (default: --bin) is the binary the wrk load and SIGTERM runs start. Installs what is
# missing: wrk and curl with apt-get, and a venv at .build/serve-venv with the OpenFeature SDK
# and its OFREP provider. Each script starts its own servers on free ports and stops them.
# Exits non-zero at the first failing script.
set -euo pipefail

bin=""
load_bin=""
while (($# > 0)); do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --load-bin) load_bin="$2"; shift 2 ;;
        *) echo "usage: Tests/Serve/run.sh --bin PATH_TO_TARGETING [--load-bin PATH]" >&2; exit 2 ;;
    esac
done
if [[ -z "$bin" ]]; then
    echo "usage: Tests/Serve/run.sh --bin PATH_TO_TARGETING [--load-bin PATH]" >&2
    exit 2
fi
# Relative paths are taken from the caller's directory.
absolute() { if [[ "$1" == /* ]]; then echo "$1"; else echo "$PWD/$1"; fi; }
bin="$(absolute "$bin")"
load_bin="$(absolute "${load_bin:-$bin}")"
for binary in "$bin" "$load_bin"; do
    if [[ ! -x "$binary" ]]; then
        echo "Tests/Serve/run.sh: no targeting binary at $binary" >&2
        exit 2
    fi
done
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if ((${#missing[@]} > 0)); then
    echo "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi

venv=.build/serve-venv
if ! "$venv/bin/python" -c "import openfeature.contrib.provider.ofrep" >/dev/null 2>&1; then
    mkdir -p .build
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "openfeature-sdk>=0.8,<1" "openfeature-provider-ofrep>=0.3,<1"
fi

# The hostile clients open 2,000 connections; the server started from here inherits the limit.
hard="$(ulimit -Hn)"
if [[ "$hard" == unlimited ]] || ((hard > 8192)); then want=8192; else want="$hard"; fi
if (($(ulimit -Sn) < want)); then ulimit -Sn "$want"; fi

export PYTHONDONTWRITEBYTECODE=1
started=$SECONDS
summary=()
run() {
    local name="$1" script="$2" binary="$3"
    local t0=$SECONDS
    echo "== $name"
    if ! "$venv/bin/python" "Tests/Serve/$script" --bin "$binary"; then
        summary+=("FAIL $name ($((SECONDS - t0))s)")
        printf '%s\n' "${summary[@]}"
        echo "Tests/Serve: FAILED ($name)"
        exit 1
    fi
    summary+=("ok   $name ($((SECONDS - t0))s)")
}
run "OpenFeature SDK (OFREP provider)" openfeature_client.py "$bin"
run "every route and status through curl" curl_routes.py "$bin"
run "wrk load, steady and while the rules change" load.py "$load_bin"
run "hostile clients" hostile.py "$bin"
run "SIGTERM and SIGINT under load" sigterm.py "$load_bin"

echo "targeting serve client tests ($((SECONDS - started))s):"
printf '  %s\n' "${summary[@]}"
echo "all passed"
