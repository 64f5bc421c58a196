#!/usr/bin/env bash
# Training positions for a learned evaluation (docs/engine.md, "Learned
# evaluation"): Debian's fairy-stockfish against itself at NODES nodes a
# move and 1.2 times that (at equal nodes the two games of an opening
# would be the same game twice), from random openings, one seed after another (odd seeds 8 plies,
# even seeds 4: the 8-ply ones are often lopsided); every quiet position
# with the game's result and the score fairy-stockfish gave it.
#
#   bench/net-data.sh OUT.positions [GAMES_PER_SEED] [FIRST_SEED] [LAST_SEED] [NODES] [VARIANT]
#
# Then: parity train --variant chess --positions OUT.positions --out variants/chess.net
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bench/net-data.sh OUT.positions [GAMES_PER_SEED] [FIRST_SEED] [LAST_SEED] [NODES] [VARIANT]}
games=${2:-1000}
first=${3:-101}
last=${4:-110}
nodes=${5:-4000}
variant=${6:-chess}
parity=${PARITY:-target/release/parity}
[ -n "${PARITY:-}" ] || cargo build --release -q -p parity
fsf=/usr/games/fairy-stockfish
for seed in $(seq "$first" "$last"); do
    plies=$(( seed % 2 ? 8 : 4 ))
    "$parity" match --variant "$variant" --random-openings "$plies" \
        --engine "name=fsf-a,cmd=$fsf,option.Hash=16,nodes=$nodes" \
        --engine "name=fsf-b,cmd=$fsf,option.Hash=16,nodes=$((nodes * 6 / 5))" \
        --games "$games" --concurrency 2 --seed "$seed" \
        --resign moves=4,score=800 --draw movenumber=40,moves=8,score=10 \
        --positions "$out" --quiet
done
wc -l "$out"
