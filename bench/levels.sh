#!/usr/bin/env bash
# The ladder of the engine's playing levels (docs/benchmarks.md, "Levels"):
# each level against the next, and each against a fixed reference. A level
# plays by its own depth and time (UCI option `Level`), so its clock is
# generous and never decides. One game at a time unless CONCURRENCY says
# otherwise (at most the machine's cores: a level's time is wall time).
# Reports and PGNs go to bench/matches/levels/ (chess) or
# bench/matches/sim-levels/.
#
# The reference: in chess, Debian's fairymax at 10+0.1; in a simultaneous
# variant (no other program plays them), the greedy player (`Strategy
# greedy`: the best one-turn payoff against the best answer).
#
#   bench/levels.sh [GAMES_PER_PAIR] [GAMES_AGAINST_REFERENCE] [VARIANT] [CONCURRENCY]
set -euo pipefail
cd "$(dirname "$0")/.."
pair_games=${1:-20}
reference_games=${2:-12}
variant=${3:-chess}
concurrency=${4:-1}
# PARITY names a frozen copy of the binary, so that building while the
# matches run does not change the engine under test.
parity=${PARITY:-target/release/parity}
[ -n "${PARITY:-}" ] || cargo build --release -q -p parity
level() { echo "name=level$1,cmd=$parity,arg=uci,option.Level=$1,option.Hash=16,tc=600+10"; }
case $variant in
    chess)
        reference="name=fairymax,cmd=/usr/games/fairymax,arg=crates/arena/tests/data/fmax-parity.ini,proto=xboard,tc=10+0.1"
        adjudicate=(--resign moves=4,score=1000 --draw movenumber=60,moves=8,score=5)
        out=bench/matches/levels prefix= ;;
    parity | parity-single | move-neutral)
        reference="name=greedy,cmd=$parity,arg=uci,option.Strategy=greedy,option.Hash=16,tc=600+10"
        adjudicate=()
        out=bench/matches/sim-levels prefix=$variant- ;;
    *) echo "levels.sh: no reference player for $variant" >&2; exit 2 ;;
esac
reference_name=${reference#name=}
reference_name=${reference_name%%,*}
mkdir -p "$out"
run() {
    local name=$1; shift
    { date -u +"started %Y-%m-%d %H:%M UTC"; echo "$parity match $*";
      "$parity" match "$@" --concurrency "$concurrency" --pgn "$out/$name.pgn" --quiet;
      date -u +"ended %Y-%m-%d %H:%M UTC"; } > "$out/$name.txt" 2>&1
    tail -n 4 "$out/$name.txt"
}
for n in 1 2 3 4 5 6 7; do
    run "${prefix}level$n-vs-level$((n + 1))" --variant "$variant" --engine "$(level "$n")" \
        --engine "$(level $((n + 1)))" --games "$pair_games" --seed "$n" --time-margin 1000 \
        ${adjudicate[@]+"${adjudicate[@]}"}
done
for n in 1 2 3 4 5 6 7 8; do
    run "${prefix}level$n-vs-$reference_name" --variant "$variant" --engine "$(level "$n")" \
        --engine "$reference" --games "$reference_games" --seed $((10 + n)) --time-margin 1000 \
        ${adjudicate[@]+"${adjudicate[@]}"}
done
