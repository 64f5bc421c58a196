#!/usr/bin/env bash
# Search speed of `parity uci`'s `bench` beside Debian's fairy-stockfish
# `bench` in the same run. Both print "Nodes/second"; each engine counts
# nodes its own way, so the ratio compares engines, not node definitions.
#
#   bench/engine-bench.sh [DEPTH] [REPS]   # our bench depth (default 9), best of REPS (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-9}
reps=${2:-3}
parity=target/release/parity
fs=${FAIRY_STOCKFISH_DEBIAN:-/usr/games/fairy-stockfish}
cargo build --release -q -p parity

nps_of() { sed -n 's/^Nodes\/second *: *//p'; }
best() {
    local best=0 n
    for _ in $(seq "$reps"); do
        n=$("$@" | nps_of)
        if [ "$n" -gt "$best" ]; then best=$n; fi
    done
    echo "$best"
}
ours() { printf 'bench %s\nquit\n' "$depth" | "$parity" uci; }
peer() { printf 'bench\nquit\n' | "$fs" 2>&1; }

date -u +"%Y-%m-%d %H:%M UTC"
a=$(best ours)
b=$(best peer)
echo "parity bench $depth: $a nodes/s"
echo "fairy-stockfish bench: $b nodes/s"
echo "ratio parity/fairy-stockfish: $(echo "scale=3; $a / $b" | bc -l)"
