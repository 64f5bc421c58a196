#!/usr/bin/env python3
"""Ratings of the engine's levels from bench/levels.sh's reports: every
"Score of A vs B: W - L - D" line of bench/matches/levels/*.txt, fitted by
maximum likelihood on the Elo curve (a draw counts half a win each way),
with fairymax anchored at ANCHOR (default 2000) and a weak pull of every
rating towards the anchor (a prior worth one draw) so that a clean sweep
stays finite. Prints each player's rating and games.

    bench/levels-fit.py [DIR] [ANCHOR]
"""

import glob
import math
import re
import sys

directory = sys.argv[1] if len(sys.argv) > 1 else "bench/matches/levels"
anchor = float(sys.argv[2]) if len(sys.argv) > 2 else 2000.0
line = re.compile(r"Score of (\S+) vs (\S+): (\d+) - (\d+) - (\d+)")
results = []
for path in sorted(glob.glob(f"{directory}/*.txt")):
    for text in open(path):
        m = line.search(text)
        if m:
            a, b, w, l, d = m.group(1), m.group(2), *map(int, m.groups()[2:])
            results.append((a, b, w + d / 2, w + l + d))
players = sorted({p for r in results for p in r[:2]})
rating = {p: anchor for p in players}


def expected(ra, rb):
    return 1 / (1 + 10 ** ((rb - ra) / 400))


# Gradient ascent on the log-likelihood, fairymax held at the anchor.
for _ in range(20000):
    grad = {p: 0.0 for p in players}
    for a, b, score, games in results:
        e = expected(rating[a], rating[b])
        grad[a] += score - games * e
        grad[b] -= score - games * e
    for p in players:
        grad[p] += 0.5 - expected(rating[p], anchor)  # the prior: one draw against the anchor
    for p in players:
        if p != "fairymax":
            rating[p] += 8 * grad[p]
games = {p: sum(g for a, b, _, g in results if p in (a, b)) for p in players}
for p in sorted(players, key=lambda p: rating[p]):
    print(f"{p:10} {rating[p]:7.0f} {games[p]:4d} games")
