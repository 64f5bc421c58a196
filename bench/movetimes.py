#!/usr/bin/env python3
# Think time per move per engine from a `parity match --log` file:
# from each "go" sent to the engine's next "bestmove", plus the depth reached.
import re, sys, collections, statistics
go = {}; times = collections.defaultdict(list); depth = collections.defaultdict(collections.Counter); last = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 4: continue
    t, who, arrow = float(f[0]), f[1], f[2]
    name = who.split(':')[-1]
    if arrow == '>' and f[3] == 'go': go[who] = t
    elif arrow == '<' and f[3] == 'info' and len(f) > 5 and f[4] == 'depth': last[who] = int(f[5])
    elif arrow == '<' and f[3] == 'bestmove' and who in go:
        times[name].append(1000 * (t - go.pop(who))); depth[name][last.pop(who, 0)] += 1
for name, ts in times.items():
    ts.sort()
    print(f"{name}: {len(ts)} moves, mean {statistics.mean(ts):.1f} ms, median {ts[len(ts)//2]:.1f}, "
          f"p99 {ts[int(len(ts)*0.99)]:.1f}, max {ts[-1]:.1f}; over 200 ms: {sum(x > 200 for x in ts)}; "
          f"depth reached: {dict(sorted(depth[name].items()))}")
