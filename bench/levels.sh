#!/usr/bin/env bash
# The ladder of the engine's playing levels (docs/benchmarks.md, "Levels"):
# each level against the next, and each against Debian's fairymax, in
# chess. A level plays by its own depth and time (UCI option `Level`), so
# its clock is generous and never decides; fairymax plays at 10+0.1.
# One game at a time. Reports and PGNs go to bench/matches/levels/.
#
#   bench/levels.sh [GAMES_PER_PAIR] [GAMES_AGAINST_FAIRYMAX]
set -euo pipefail
cd "$(dirname "$0")/.."
pair_games=${1:-20}
fmax_games=${2:-12}
# PARITY names a frozen copy of the binary, so that building while the
# matches run does not change the engine under test.
parity=${PARITY:-target/release/parity}
[ -n "${PARITY:-}" ] || cargo build --release -q -p parity
out=bench/matches/levels
mkdir -p "$out"
adjudicate=(--resign moves=4,score=1000 --draw movenumber=60,moves=8,score=5)
level() { echo "name=level$1,cmd=$parity,arg=uci,option.Level=$1,option.Hash=16,tc=600+10"; }
fmax="name=fairymax,cmd=/usr/games/fairymax,arg=crates/arena/tests/data/fmax-parity.ini,proto=xboard,tc=10+0.1"
run() {
    local name=$1; shift
    { date -u +"started %Y-%m-%d %H:%M UTC"; echo "$parity match $*";
      "$parity" match "$@" --pgn "$out/$name.pgn" --quiet;
      date -u +"ended %Y-%m-%d %H:%M UTC"; } > "$out/$name.txt" 2>&1
    tail -n 4 "$out/$name.txt"
}
for n in 1 2 3 4 5 6 7; do
    run "level$n-vs-level$((n + 1))" --variant chess --engine "$(level "$n")" \
        --engine "$(level $((n + 1)))" --games "$pair_games" --seed "$n" --time-margin 1000 \
        "${adjudicate[@]}"
done
for n in 1 2 3 4 5 6 7 8; do
    run "level$n-vs-fairymax" --variant chess --engine "$(level "$n")" --engine "$fmax" \
        --games "$fmax_games" --seed $((10 + n)) --time-margin 1000 "${adjudicate[@]}"
done
