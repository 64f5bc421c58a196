#!/usr/bin/env python3
"""Score of one player over the games of `parity match --pgn` files.

    python3 bench/pgn-score.py PLAYER FILE.pgn [FILE.pgn ...]

Prints games, W-L-D, score and Elo with 95% intervals, computed as
`parity match` reports them (crates/arena/src/stats.rs): the trinomial
estimate over games, and the pentanomial one over pairs of games that
share an opening (rounds 2k-1 and 2k of each file, colours swapped). For
pooling runs stopped early or played beside each other: a pair left
incomplete by a stopped run is counted in games but not in pairs.
"""

import math
import re
import sys

Z95 = 1.959963984540054


def elo(score):
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def estimate(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / n
    half = Z95 * math.sqrt(var / n)
    low, high = max(mean - half, 0.0), min(mean + half, 1.0)
    return mean, elo(mean), elo(low), elo(high)


def games(path):
    """The tags of each game, a game beginning at each `[Event` tag."""
    text = open(path, encoding="utf-8").read()
    for chunk in re.split(r"^(?=\[Event )", text, flags=re.M):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, flags=re.M))
        if "Result" in tags and tags["Result"] != "*":
            yield tags


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    player = sys.argv[1]
    points, pairs, terminations = [], [], {}
    wins = losses = draws = 0
    for path in sys.argv[2:]:
        by_round = {}
        for g in games(path):
            if player not in (g["White"], g["Black"]):
                sys.exit(f"{path}: {player} does not play round {g.get('Round')}")
            result = g["Result"]
            if result == "1/2-1/2":
                p = 0.5
                draws += 1
            elif (result == "1-0") == (g["White"] == player):
                p = 1.0
                wins += 1
            else:
                p = 0.0
                losses += 1
            points.append(p)
            term = g.get("Termination", "?")
            terminations[term] = terminations.get(term, 0) + 1
            by_round[int(g["Round"])] = p
        for r, p in by_round.items():
            if r % 2 == 1 and r + 1 in by_round:
                pairs.append((p + by_round[r + 1]) / 2)
    if not points:
        sys.exit("no games")
    s, e, lo, hi = estimate(points)
    print(f"{player}: {len(points)} games, {wins}-{losses}-{draws} (W-L-D), "
          f"score {100 * s:.1f}%, Elo {e:+.0f} (95% {lo:+.0f} to {hi:+.0f})")
    if pairs:
        s, e, lo, hi = estimate(pairs)
        print(f"pentanomial, {len(pairs)} pairs: Elo {e:+.0f} (95% {lo:+.0f} to {hi:+.0f})")
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))


if __name__ == "__main__":
    main()
