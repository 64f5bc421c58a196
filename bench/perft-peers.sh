#!/usr/bin/env bash
# Measures bulk perft speed of `parity` beside peer engines in the same run
# and prints nodes/s and ratios. Peers: Debian's fairy-stockfish and
# stockfish (apt-get install fairy-stockfish stockfish) and, optionally, an
# upstream Fairy-Stockfish built with large boards, named by
# FAIRY_STOCKFISH_UPSTREAM (built outside this repo; nothing here builds it).
#
#   bench/perft-peers.sh [REPS]     # best of REPS runs each (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
parity=target/release/parity
cargo build --release -q -p parity
ini=$(cd .. && pwd)/shared/reference/perft/fairy-stockfish-variants.ini
fsd=${FAIRY_STOCKFISH_DEBIAN:-/usr/games/fairy-stockfish}
sf=${STOCKFISH:-/usr/games/stockfish}
fsu=${FAIRY_STOCKFISH_UPSTREAM:-}

now() { date +%s.%N; }

# uci_time ENGINE SETUP DEPTH -> prints "nodes seconds" (wall time less the
# engine's start-up, measured as the same script at depth 1).
uci_time() {
    local engine=$1 setup=$2 depth=$3 t0 t1 out nodes s0 s1
    s0=$(now); printf '%b\ngo perft 1\nquit\n' "$setup" | "$engine" >/dev/null; s1=$(now)
    t0=$(now); out=$(printf '%b\ngo perft %s\nquit\n' "$setup" "$depth" | "$engine"); t1=$(now)
    nodes=$(echo "$out" | sed -n 's/^Nodes searched: //p')
    echo "$nodes $(echo "($t1 - $t0) - ($s1 - $s0)" | bc -l)"
}

# best ENGINE-COMMAND... : best (lowest) time of $reps runs
best_uci() {
    local best="" line
    for _ in $(seq "$reps"); do
        line=$(uci_time "$@")
        if [ -z "$best" ] || (( $(echo "${line#* } < ${best#* }" | bc -l) )); then best=$line; fi
    done
    echo "$best"
}

best_parity() {
    local best="" out nodes secs
    for _ in $(seq "$reps"); do
        out=$("$parity" perft "$@")
        nodes=$(echo "$out" | sed -n 's/^nodes //p'); secs=$(echo "$out" | sed -n 's/^time \([0-9.]*\) s/\1/p')
        if [ -z "$best" ] || (( $(echo "$secs < ${best#* }" | bc -l) )); then best="$nodes $secs"; fi
    done
    echo "$best"
}

nps() { echo "${1% *} / ${1#* }" | bc -l | xargs printf '%.1f'; }
mnps() { echo "$(nps "$1") / 1000000" | bc -l | xargs printf '%.1f'; }

row() { # label parity-result peer-name peer-result
    local r; r=$(echo "$(nps "$2") / $(nps "$4")" | bc -l | xargs printf '%.2f')
    printf '| %s | %s Mnps (%s nodes) | %s | %s Mnps (%s nodes) | %sx |\n' "$1" "$(mnps "$2")" "${2% *}" "$3" "$(mnps "$4")" "${4% *}" "$r"
    [ "${2% *}" = "${4% *}" ] || echo "| $1: NODE COUNTS DIFFER |"
}

start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
kiwi='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
tutti='enbakqsr/pppppppp/8/8/8/8/PPPPPPPP/ENBAKQSR w KQkq - 0 1'
p12='rnbfcqkcfbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBFCQKCFBNR w - - 0 1'

echo "date: $(date -u +%Y-%m-%dT%H:%MZ), best of $reps, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "| case | parity | peer | peer speed | parity/peer |"
echo "|---|---|---|---|---|"
p=$(best_parity chess 6)
row "chess start, depth 6" "$p" "fairy-stockfish 11.1 (Debian)" "$(best_uci "$fsd" "uci\nsetoption name UCI_Variant value chess\nposition fen $start" 6)"
row "chess start, depth 6" "$p" "stockfish 15.1 (Debian)" "$(best_uci "$sf" "uci\nposition fen $start" 6)"
p=$(best_parity chess 5 --fen "$kiwi")
row "Kiwipete, depth 5" "$p" "fairy-stockfish 11.1 (Debian)" "$(best_uci "$fsd" "uci\nsetoption name UCI_Variant value chess\nposition fen $kiwi" 5)"
row "Kiwipete, depth 5" "$p" "stockfish 15.1 (Debian)" "$(best_uci "$sf" "uci\nposition fen $kiwi" 5)"
if [ -n "$fsu" ]; then
    row "tutti-frutti start, depth 5" "$(best_parity tutti-frutti 5)" "Fairy-Stockfish upstream, large boards" \
        "$(best_uci "$fsu" "uci\nsetoption name VariantPath value $ini\nsetoption name UCI_Variant value tuttifrutti\nposition fen $tutti" 5)"
    row "parity12 start (no castling rights), depth 5" "$(best_parity parity12 5 --fen "$p12")" "Fairy-Stockfish upstream, large boards" \
        "$(best_uci "$fsu" "uci\nsetoption name VariantPath value $ini\nsetoption name UCI_Variant value pacey12x8\nposition fen $p12" 5)"
else
    echo "(FAIRY_STOCKFISH_UPSTREAM not set: tutti-frutti and parity12 rows skipped)"
fi
