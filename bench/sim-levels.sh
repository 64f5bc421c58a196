#!/usr/bin/env bash
# The ladder of the engine's playing levels in a simultaneous variant
# (docs/benchmarks.md, "Levels"): each level against the next, and each
# against the greedy player (`Strategy greedy`: the best one-turn payoff
# against the best answer), a fixed reference. A level plays by its own
# depth and time, so its clock is generous and never decides. One game at
# a time. Reports and PGNs go to bench/matches/sim-levels/.
#
#   bench/sim-levels.sh [GAMES_PER_PAIR] [GAMES_AGAINST_GREEDY] [VARIANT]
set -euo pipefail
cd "$(dirname "$0")/.."
pair_games=${1:-30}
greedy_games=${2:-12}
variant=${3:-parity}
# PARITY names a frozen copy of the binary, so that building while the
# matches run does not change the engine under test.
parity=${PARITY:-target/release/parity}
[ -n "${PARITY:-}" ] || cargo build --release -q -p parity
out=bench/matches/sim-levels
mkdir -p "$out"
level() { echo "name=level$1,cmd=$parity,arg=uci,option.Level=$1,option.Hash=16,tc=600+10"; }
greedy="name=greedy,cmd=$parity,arg=uci,option.Strategy=greedy,option.Hash=16,tc=600+10"
run() {
    local name=$1; shift
    { date -u +"started %Y-%m-%d %H:%M UTC"; echo "$parity match $*";
      "$parity" match "$@" --pgn "$out/$name.pgn" --quiet;
      date -u +"ended %Y-%m-%d %H:%M UTC"; } > "$out/$name.txt" 2>&1
    tail -n 4 "$out/$name.txt"
}
for n in 1 2 3 4 5 6 7; do
    run "$variant-level$n-vs-level$((n + 1))" --variant "$variant" --engine "$(level "$n")" \
        --engine "$(level $((n + 1)))" --games "$pair_games" --seed "$n" --time-margin 1000
done
for n in 1 2 3 4 5 6 7 8; do
    run "$variant-level$n-vs-greedy" --variant "$variant" --engine "$(level "$n")" \
        --engine "$greedy" --games "$greedy_games" --seed $((10 + n)) --time-margin 1000
done
