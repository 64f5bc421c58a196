#!/usr/bin/env bash
# The simultaneous-engine matches of docs/benchmarks.md: our mixed player
# against the four baselines in parity and move-neutral, GAMES games each
# (default 400) at a fixed depth of 2 turns per move (naive-sequential:
# 4 plies, the same horizon), random 4-turn openings played with colours
# swapped, two games at a time. Fixed depth makes the games independent
# of machine load. Reports and PGNs go to bench/matches/, engine logs to
# $LOGDIR (default /tmp/sim-logs) for bench/sim-stats.sh.
#
#   bench/sim-matches.sh [GAMES] [WHICH...]   # WHICH: VARIANT-BASELINE, e.g. parity-naive-sequential
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
shift || true
all=()
for b in naive-sequential most-likely greedy random; do
    for v in parity move-neutral; do all+=("$v-$b"); done
done
which=("${@:-${all[@]}}")
# PARITY names a frozen copy of the binary, so that building while the
# matches run does not change the engine under test.
parity=${PARITY:-target/release/parity}
[ -n "${PARITY:-}" ] || cargo build --release -q -p parity
logs=${LOGDIR:-/tmp/sim-logs}
mkdir -p "$logs"
for m in ${which[@]}; do
    case $m in
        parity-*) variant=parity; baseline=${m#parity-} ;;
        move-neutral-*) variant=move-neutral; baseline=${m#move-neutral-} ;;
        *) echo "unknown match $m" >&2; exit 2 ;;
    esac
    out=bench/matches/sim-$m
    rm -f "$out.pgn"
    args=(--variant "$variant" --engine name=mixed --engine "name=$baseline,option.Strategy=$baseline"
          --depth 2 --games "$games" --concurrency 2 --seed 1 --pgn "$out.pgn" --log "$logs/$m.log" --quiet)
    { date -u +"started %Y-%m-%d %H:%M UTC"; echo "$parity match ${args[*]}";
      "$parity" match "${args[@]}";
      date -u +"ended %Y-%m-%d %H:%M UTC"; } > "$out.txt" 2>&1
    cat "$out.txt"
done
