#!/usr/bin/env python3
"""Times the mixed player (depth 2 turns) and naive-sequential (our
turn-based search, 4 plies) on the same positions, one search at a time:
positions sampled from the mixed player's `position`/`go` commands in a
match log (bench/sim-matches.sh writes them to /tmp/sim-logs).

    bench/sim-time.py BINARY LOG VARIANT N
"""
import subprocess, sys, time, statistics
binary, log, variant, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
pairs, last = [], None
for line in open(log):
    parts = line.split(None, 3)
    if len(parts) < 4 or not parts[1].endswith(":mixed") or parts[2] != ">": continue
    cmd = parts[3].strip()
    if cmd.startswith("position"): last = cmd
    elif cmd.startswith("go") and last: pairs.append((last, cmd)); last = None
step = max(1, len(pairs) // n)
sample = pairs[::step][:n]
def engine(strategy):
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    def until(prefix):
        while True:
            l = p.stdout.readline()
            if not l: raise SystemExit("engine died")
            if l.startswith(prefix): return l
    send("uci"); until("uciok")
    send(f"setoption name UCI_Variant value {variant}")
    if strategy: send(f"setoption name Strategy value {strategy}")
    send("isready"); until("readyok")
    return p, send, until
times = {}
for name, strategy in [("mixed", None), ("naive-sequential", "naive-sequential")]:
    p, send, until = engine(strategy)
    ts = []
    for pos, go in sample:
        send("ucinewgame"); send(pos); send("isready"); until("readyok")
        t = time.perf_counter(); send(go); until("bestmove"); ts.append((time.perf_counter() - t) * 1000)
    send("quit"); p.wait()
    times[name] = ts
m, s = statistics.mean(times["mixed"]), statistics.mean(times["naive-sequential"])
q = lambda xs: sorted(xs)[int(len(xs) * 0.95) - 1]
print(f"{variant}: {len(sample)} positions; mixed mean {m:.1f} ms (p95 {q(times['mixed']):.0f}); "
      f"naive-sequential mean {s:.1f} ms (p95 {q(times['naive-sequential']):.0f}); ratio {m/s:.2f}")
