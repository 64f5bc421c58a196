#!/usr/bin/env bash
# Time per move and search effort of the mixed player, from the engine logs
# that bench/sim-matches.sh writes (--log of `parity match`): for each log,
# the moves searched, mean nodes per move (independent of load), mean and
# 95th-percentile time per move (the engine's
# own `info depth 2 ... time T`), nodes per second, and the share of inner
# nodes settled without a linear program (`info string stats`).
#
#   bench/sim-stats.sh [LOG...]      # default: /tmp/sim-logs/*.log
set -euo pipefail
logs=("${@:-/tmp/sim-logs/*.log}")
printf '%-32s %7s %11s %9s %9s %10s %12s %8s %8s %10s\n' log moves nodes/move mean_ms p95_ms nodes/s matrix_nodes bounds saddle without_lp
for f in ${logs[@]}; do
    # The 95th percentile of the times, by sorting them (mawk has no asort).
    p95=$(awk '$2 ~ /:mixed$/ && $3 == "<" && $5 == "depth" && $6 == "2" { for (i = 5; i < NF; i++) if ($i == "time") print $(i+1) }' "$f" |
          sort -n | awk '{ t[NR] = $1 } END { i = int(NR * 0.95); print (i > 0 ? t[i] : 0) }')
    awk -v p95="$p95" -v name="$(basename "$f" .log)" '
        $2 ~ /:mixed$/ && $3 == "<" && $4 == "info" && $5 == "depth" && $6 == "2" {
            for (i = 5; i < NF; i++) { if ($i == "time") t = $(i+1); if ($i == "nodes") n = $(i+1) }
            moves++; total_t += t; total_n += n
        }
        $2 ~ /:mixed$/ && $3 == "<" && $5 == "string" && $6 == "stats" {
            for (i = 7; i < NF; i++) {
                if ($i == "matrix-nodes") m += $(i+1)
                if ($i == "settled-by-bounds") b += $(i+1)
                if ($i == "settled-by-saddle") s += $(i+1)
                if ($i == "lp-nodes") l += $(i+1)
            }
        }
        END {
            if (moves == 0) { printf "%-32s no searches\n", name; exit }
            d = m > 0 ? m : 1
            printf "%-32s %7d %11.0f %9.1f %9d %10.0f %12d %8.3f %8.3f %10.3f\n", name, moves, total_n / moves, total_t / moves, p95,
                total_n * 1000 / (total_t > 0 ? total_t : 1), m, b / d, s / d, 1 - l / d
        }' "$f"
done
