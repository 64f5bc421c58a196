#!/usr/bin/env python3
"""When does an engine see the loss its opponent saw? From a `parity match` PGN.

    python3 bench/loss-lag.py GAMES.pgn ENGINE [OPPONENT_CP OURS_CP]

For every game ENGINE lost: if the opponent's first score is already at
least OPPONENT_CP (150), the opening decided it; otherwise the lag is the
number of plies from the opponent's first score of at least OPPONENT_CP to
ENGINE's first of at most -OURS_CP (75: our centipawn is about two of
fairy-stockfish's). A short lag is a tactic seen late, a long one a
position misjudged.
"""
import re
import sys

import chess.pgn

SCORE = re.compile(r"([+-]?M?\d+(?:\.\d+)?)/\d+")


def centipawns(text):
    if "M" in text:
        return -10000 if text.startswith("-") else 10000
    return round(100 * float(text))


def main():
    path, engine = sys.argv[1], sys.argv[2]
    theirs_cp = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    ours_cp = int(sys.argv[4]) if len(sys.argv) > 4 else 75
    lost = decided = 0
    lags = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            white = game.headers["White"] == engine
            if game.headers["Result"] != ("0-1" if white else "1-0"):
                continue
            lost += 1
            ours, theirs = [], []
            board = game.board()
            for ply, node in enumerate(game.mainline(), 1):
                m = SCORE.match(node.comment)
                if m:
                    by_us = board.turn == (chess.WHITE if white else chess.BLACK)
                    (ours if by_us else theirs).append((ply, centipawns(m.group(1))))
                board.push(node.move)
            if theirs and theirs[0][1] >= theirs_cp:
                decided += 1
                continue
            seen = next((p for p, v in theirs if v >= theirs_cp), None)
            felt = next((p for p, v in ours if v <= -ours_cp), None)
            if seen is not None and felt is not None:
                lags.append(felt - seen)
    lags.sort()
    print(f"{engine} lost {lost}: {decided} decided by the opening, {len(lags)} with a lag")
    if lags:
        q = lambda x: lags[min(len(lags) - 1, int(x * len(lags)))]
        print(f"lag in plies: quartiles {q(0.25)} {q(0.5)} {q(0.75)}, "
              f"at most 7: {sum(l <= 7 for l in lags)}")


if __name__ == "__main__":
    main()
