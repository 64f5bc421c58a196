#!/usr/bin/env bash
# Perft and search speed of two builds of parity, measured alternately in
# one run: best of ROUNDS wall-clock seconds per perft, best nps of `bench 9`.
#   bench/compare-speed.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
old=$1 new=$2 rounds=${3:-5}
perfts=("chess 6" "tutti-frutti 5" "parity12 5" "safety-in-numbers 5" "parity 3" "move-neutral 3")
declare -A best
for _ in $(seq "$rounds"); do
    for bin in "$old" "$new"; do
        for args in "${perfts[@]}"; do
            start=$(date +%s.%N)
            # shellcheck disable=SC2086
            "$bin" perft $args > /dev/null
            t=$(echo "$(date +%s.%N) - $start" | bc)
            key="$bin|$args"
            if [ -z "${best[$key]:-}" ] || [ "$(echo "$t < ${best[$key]}" | bc)" = 1 ]; then best[$key]=$t; fi
        done
    done
done
printf '%-22s %10s %10s %7s\n' perft old new ratio
for args in "${perfts[@]}"; do
    o=${best["$old|$args"]} n=${best["$new|$args"]}
    printf '%-22s %10.3f %10.3f %7.3f\n' "$args" "$o" "$n" "$(echo "$n / $o" | bc -l)"
done
for _ in 1 2 3; do
    for bin in "$old" "$new"; do
        nps=$(printf 'bench 9\nquit\n' | "$bin" uci | awk '/Nodes\/second/ {print $NF}')
        echo "bench 9 $bin: $nps nps"
    done
done
