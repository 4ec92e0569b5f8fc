#!/usr/bin/env bash
# Benchmarks/serve/serve.sh BIN: `targeting serve` under `wrk`, against nginx (Debian's
# nginx-light) answering a fixed JSON body of the same size, with the same wrk command in the
# same run. Prints three table rows:
#   - POST /v1/resolve of a typical profile for one placement, keep-alive, 64 connections;
#   - p99 latency at about 80 % of that rate (each connection paced by wrk's `delay()`);
#   - RSS after 10,000 requests and after 1,000,000.
# SERVE_SECONDS (default 15) is the length of each rate run; SERVE_REQUESTS (default 1000000)
# the requests of the memory run.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$1
seconds=${SERVE_SECONDS:-15}
requests_total=${SERVE_REQUESTS:-1000000}
here=Benchmarks/serve
work=$(mktemp -d)
server_pid=""
nginx_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for tool in wrk nginx curl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "| serve: skipped ($tool not installed; \`apt-get install wrk nginx-light curl\`) | | | |"
    exit 0
  fi
done

# `start_server`: a server on a free port; sets $server_pid and $port.
start_server() {
  "$bin" serve --rules Rules --listen 127.0.0.1:0 2> "$work/serve.log" &
  server_pid=$!
  for _ in $(seq 1 100); do
    port=$(head -n 1 "$work/serve.log" 2>/dev/null | sed -n 's/.*"port":\([0-9]*\).*/\1/p')
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "serve did not start:" >&2
  cat "$work/serve.log" >&2
  exit 1
}
stop_server() {
  kill "$server_pid"
  wait "$server_pid" || true
  server_pid=""
}

# `run_wrk URL CONNECTIONS SECONDS PACE_MS`: sets $rps, $p99_ms, $requests and $bad (non-2xx
# answers plus socket errors).
run_wrk() {
  BODY_FILE="$work/body.json" PACE_MS="$4" wrk -t2 -c"$2" -d"$3"s --latency -s "$here/resolve.lua" "$1" > "$work/wrk.out" 2>&1 || true
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$work/wrk.out")
  requests=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
  p99_ms=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f", v }' "$work/wrk.out")
  local non2xx errors
  non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$work/wrk.out")
  errors=$(awk '/Socket errors:/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$work/wrk.out")
  bad=$(( ${non2xx:-0} + ${errors:-0} ))
}

rss_mb() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# The request: the shipped example profile `pro_adult` for `main_paywall`.
{ printf '{"profile":'; tr -d '\n' < Examples/profiles/pro_adult.json; printf ',"placements":["main_paywall"]}'; } > "$work/body.json"

start_server
answer=$(curl -s -X POST --data-binary @"$work/body.json" "http://127.0.0.1:$port/v1/resolve")
case "$answer" in *"'"*|*"\\"*) echo "the answer holds a quote nginx cannot return as is" >&2; exit 1 ;; esac
mkdir -p "$work/body"
nginx_port=$((port + 1))
while (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null; do nginx_port=$((nginx_port + 1)); done
sed -e "s|WORK|$work|g" -e "s|PORT|$nginx_port|" -e "s|BODY|$answer|" "$here/nginx.conf.template" > "$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
sleep 0.5
nginx_answer=$(curl -s -X POST --data-binary @"$work/body.json" "http://127.0.0.1:$nginx_port/")
[ "$nginx_answer" = "$answer" ] || { echo "nginx answers differently: $nginx_answer" >&2; exit 1; }

run_wrk "http://127.0.0.1:$port/v1/resolve" 64 "$seconds" 0
ours_rps=$rps; ours_p99=$p99_ms; ours_bad=$bad
run_wrk "http://127.0.0.1:$nginx_port/" 64 "$seconds" 0
nginx_rps=$rps; nginx_p99=$p99_ms
kill "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""
ratio=$(awk -v a="$ours_rps" -v b="$nginx_rps" 'BEGIN { printf "%.2f×", a / b }')
echo "| serve: \`POST /v1/resolve\`, one placement, keep-alive, \`wrk -t2 -c64\` ${seconds} s ($ours_bad errors or non-2xx; target ≥ 0.5×) | $ours_rps req/s (p99 $ours_p99 ms) | nginx-light, a fixed body of the same size ($(printf %s "$answer" | wc -c) bytes): $nginx_rps req/s (p99 $nginx_p99 ms) | $ratio |"

# About 80 % of the measured rate, on the same 64 connections: each waits `pace` ms between its
# requests. Short runs find the pause whose rate is nearest the target (wrk's pauses are whole
# milliseconds), then the measured run uses it.
target=$(awk -v r="$ours_rps" 'BEGIN { printf "%.0f", r * 0.8 }')
connections=64
pace=1
best_distance=""
for candidate in 1 2 3 4 5 6; do
  run_wrk "http://127.0.0.1:$port/v1/resolve" "$connections" 3 "$candidate"
  distance=$(awk -v r="$rps" -v t="$target" 'BEGIN { d = r - t; if (d < 0) d = -d; print d }')
  if [ -z "$best_distance" ] || awk -v a="$distance" -v b="$best_distance" 'BEGIN { exit !(a < b) }'; then
    best_distance=$distance
    pace=$candidate
  fi
done
run_wrk "http://127.0.0.1:$port/v1/resolve" "$connections" "$seconds" "$pace"
echo "| serve: p99 latency at 80 % of that rate ($target req/s asked: $connections connections, each pausing $pace ms; $rps req/s done, $bad errors or non-2xx; target < 5 ms) | p99 $p99_ms ms | — | — |"
stop_server

# Memory over 1,000,000 requests: RSS after the first 10,000 and at the end, in a new server.
start_server
BODY_FILE="$work/body.json" PACE_MS=0 LIMIT=10000 wrk -t1 -c64 -d60s -s "$here/resolve.lua" "http://127.0.0.1:$port/v1/resolve" > "$work/wrk.out" 2>&1 || true
first=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
rss_first=$(rss_mb "$server_pid")
done_requests=$first
while [ "$done_requests" -lt "$requests_total" ]; do
  run_wrk "http://127.0.0.1:$port/v1/resolve" 64 10 0
  done_requests=$((done_requests + requests))
done
rss_last=$(rss_mb "$server_pid")
growth=$(awk -v a="$rss_first" -v b="$rss_last" 'BEGIN { printf "%+.1f%%", (b - a) / a * 100 }')
echo "| serve: RSS after $first requests vs after $done_requests (target within 10 %) | $rss_first MiB → $rss_last MiB ($growth) | — | — |"
stop_server
