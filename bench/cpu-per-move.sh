#!/usr/bin/env bash
# CPU per move of the server process alone, old binary and new in one run,
# alternating: each SERVER binary runs `serve` on a fresh SQLite file (per-
# address limits lifted), and the LOADTEST binary (one with --clients and
# --server-pid) plays the load on it from client processes, reading the
# server's utime+stime from /proc/PID/stat around the games.
#
#   bench/cpu-per-move.sh LOADTEST_BIN ROUNDS SERVER_BIN... -- [loadtest flags]
#   e.g. bench/cpu-per-move.sh target/release/parity 2 /work/bin/parity-98ae2c1 \
#          target/release/parity -- --games 1000 --rate 1000 --turns 20 --clients 2
set -euo pipefail
loadtest=$1 rounds=$2
shift 2
servers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do servers+=("$1"); shift; done
[ $# -gt 0 ] && shift
flags=("$@")
lifted=(--games-per-minute 100000000 --actions-per-second 100000000
        --max-connections 1000000 --max-connections-per-ip 1000000)
for round in $(seq "$rounds"); do
  for server in "${servers[@]}"; do
    dir=$(mktemp -d)
    out="$dir/serve.out"
    (ulimit -n "$(ulimit -Hn)"; exec "$server" serve --db "$dir/load.sqlite" \
        --addr 127.0.0.1:0 "${lifted[@]}" >"$out" 2>"$dir/serve.err") &
    pid=$!
    for _ in $(seq 100); do grep -q "http://" "$out" 2>/dev/null && break; sleep 0.1; done
    url=$(grep -o "http://[0-9.:]*" "$out" | head -1)
    echo "== round $round, server $server (pid $pid, $url), $(date -u +%H:%M:%S) UTC"
    "$loadtest" loadtest --server "$url" --server-pid "$pid" "${flags[@]}" || true
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
  done
done
