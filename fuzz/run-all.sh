#!/usr/bin/env bash
# Runs every fuzz target for N seconds (first argument, default 600), one
# after another, on one core. Stops and exits non-zero as soon as a target
# crashes (panic, failed assertion, out-of-memory or timeout); the input is
# then in fuzz/artifacts/<target>/.
#
# Each target is restarted every $SLICE seconds (default 120): the corpus in
# fuzz/corpus/<target>/ carries over, and memory stays bounded (the
# variant_file target keeps every variant it compiles, by design of the
# registry, so one long process would grow past libFuzzer's RSS limit).
#
#   fuzz/run-all.sh            # 600 s per target
#   fuzz/run-all.sh 60         # a one-minute smoke test per target
#   SLICE=300 fuzz/run-all.sh 3600
set -euo pipefail

secs="${1:-600}"
slice="${SLICE:-120}"
toolchain="${FUZZ_TOOLCHAIN:-nightly}"
if ! [[ "$secs" =~ ^[0-9]+$ && "$slice" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [seconds per target]   (SLICE must be a positive number of seconds)" >&2
    exit 2
fi

cd "$(dirname "$0")"
mkdir -p target/logs
cargo "+$toolchain" fuzz build
summary=()
for target in $(cargo "+$toolchain" fuzz list); do
    mkdir -p "corpus/$target"
    left=$secs runs=0
    while ((left > 0)); do
        run=$((left < slice ? left : slice))
        log="target/logs/$target.log"
        echo "== $target: ${run}s, $((secs - left))s done of ${secs}s"
        status=0
        cargo "+$toolchain" fuzz run "$target" "corpus/$target" "seeds/$target" -- \
            -max_total_time="$run" -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1 || status=$?
        grep -E '^#[0-9]+[[:space:]]+DONE|^Done [0-9]+ runs|panicked at|ERROR: libFuzzer|Test unit written' "$log" || true
        if ((status != 0)); then
            echo "!! $target failed (exit $status); full log: fuzz/$log; input in fuzz/artifacts/$target/" >&2
            exit 1
        fi
        done_runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
        runs=$((runs + ${done_runs:-0}))
        left=$((left - run))
    done
    summary+=("$target: $runs runs in ${secs}s, no crash")
done
printf '%s\n' "${summary[@]}"
