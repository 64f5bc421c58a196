#!/usr/bin/env bash
# The engine matches of docs/benchmarks.md: our engine against Debian's
# fairymax (chess, tutti-frutti) and fairy-stockfish (chess), 200 games
# each at 10+0.1 with resign and draw adjudication, two games at a time (only the side to move thinks, so
# two games keep two cores busy). PGNs and reports go to bench/matches/.
#
#   bench/engine-matches.sh [GAMES] [WHICH...]   # WHICH: fairymax-chess fairymax-tutti-frutti fsf-chess
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
which=("${@:-fairymax-chess fairymax-tutti-frutti fsf-chess}")
# PARITY names a frozen copy of the binary, so that building while the
# matches run does not change the engine under test.
parity=${PARITY:-target/release/parity}
[ -n "${PARITY:-}" ] || cargo build --release -q -p parity
adjudicate=(--resign moves=4,score=800 --draw movenumber=40,moves=8,score=10)
fmax="name=fairymax,cmd=/usr/games/fairymax,arg=crates/arena/tests/data/fmax-parity.ini,proto=xboard"
fsf="name=fairy-stockfish,cmd=/usr/games/fairy-stockfish,option.Hash=16"
for m in ${which[@]}; do
    case $m in
        fairymax-chess) variant=chess; peer=$fmax ;;
        fairymax-tutti-frutti) variant=tutti-frutti; peer=$fmax ;;
        fsf-chess) variant=chess; peer=$fsf ;;
        *) echo "unknown match $m" >&2; exit 2 ;;
    esac
    out=bench/matches/$m
    rm -f "$out.pgn"
    { date -u +"started %Y-%m-%d %H:%M UTC"; echo "$parity match --variant $variant --engine name=parity,option.Hash=16 --engine $peer --tc 10+0.1 --games $games --concurrency 2 --seed 1 ${adjudicate[*]} --pgn $out.pgn --quiet";
      "$parity" match --variant "$variant" --engine name=parity,option.Hash=16 --engine "$peer" \
        --tc 10+0.1 --games "$games" --concurrency 2 --seed 1 "${adjudicate[@]}" --pgn "$out.pgn" --quiet;
      date -u +"ended %Y-%m-%d %H:%M UTC"; } > "$out.txt" 2>&1
    cat "$out.txt"
done
