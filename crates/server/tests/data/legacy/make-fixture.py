#!/usr/bin/env python3
"""Writes the legacy server database fixture: python3 make-fixture.py PARITY_BINARY OUT.sqlite

Starts `PARITY_BINARY serve` on a fresh database (127.0.0.1, a free port),
plays games over the HTTP API that end in every way the server records
(see README.md), leaves a few unfinished, stops the server with SIGINT,
checkpoints the WAL into the main file, and writes OUT.sqlite and, next to
it, expected.json (read back from the database). Standard library only.
Takes about 30 s: two games wait out the 30 s reveal deadline.
"""

import hashlib
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------------------
# HTTP client


class Refused(Exception):
    def __init__(self, status, text):
        super().__init__(f"{status} {text}")
        self.status = status


class Server:
    def __init__(self, port):
        self.port = port
        self.conn = None

    def req(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = None if body is None else json.dumps(body)
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                r = self.conn.getresponse()
                text = r.read().decode()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        if r.status not in (200, 201):
            raise Refused(r.status, f"{method} {path}: {text}")
        return json.loads(text) if text else None

    def create(self, variant, opponent="friend", color="white", clock=None, days=None):
        body = {"variant": variant, "opponent": opponent, "color": color}
        if clock is not None:
            body["clock"] = clock
        if days is not None:
            body["days"] = days
        return self.req("POST", "/api/games", body)

    def friend_game(self, label, variant, color="white", clock=None, days=None):
        """A game between two humans: created by `color`, joined by the invite."""
        c = self.create(variant, "friend", color, clock, days)
        j = self.req("POST", f"/api/games/{c['id']}/join", {"invite": c["invite"]})
        return Game(self, c["id"], label, {c["color"]: c["token"], j["color"]: j["token"]})


GAMES = []  # every Game made, in order


class Game:
    def __init__(self, srv, gid, label, tokens):
        self.srv, self.id, self.label, self.tokens = srv, gid, label, tokens
        GAMES.append(self)

    def full(self):
        return self.srv.req("GET", f"/api/games/{self.id}")

    def act(self, color, what, body=None):
        return self.srv.req("POST", f"/api/board/game/{self.id}/{what}", body or {}, self.tokens[color])

    def move(self, color, uci):
        return self.act(color, "move/" + uci)

    def moves(self, text):
        """Turn-based moves, alternating from the side to move."""
        color = self.full()["to_move"]
        for uci in text.split():
            self.move(color, uci)
            color = "black" if color == "white" else "white"

    def commit(self, color, turn, mv):
        nonce = secrets.token_hex(16)
        c = hashlib.sha256(f"{self.id}:{turn}:{color}:{mv}:{nonce}".encode()).hexdigest()
        self.act(color, "commit", {"commitment": c})
        return nonce

    def reveal(self, color, mv, nonce):
        return self.act(color, "reveal", {"move": mv, "nonce": nonce})

    def turn(self, wmv, bmv):
        """One simultaneous turn: commit, commit, reveal, reveal."""
        turn = self.full()["turn"]
        nw = self.commit("white", turn, wmv)
        nb = self.commit("black", turn, bmv)
        self.reveal("white", wmv, nw)
        self.reveal("black", bmv, nb)

    def turns(self, text):
        """Simultaneous turns written `white/black` separated by spaces."""
        for t in text.split():
            w, b = t.split("/")
            self.turn(w, b)

    def wait(self, pred, what, timeout=60.0):
        end = time.monotonic() + timeout
        while True:
            f = self.full()
            if pred(f):
                return f
            if time.monotonic() > end:
                raise RuntimeError(f"{self.label}: timed out waiting for {what}: {f['status']}")
            time.sleep(0.05)

    def expect(self, status, result=None, reason=None):
        f = self.full()
        got = (f["status"], f["result"], f["reason"])
        if got != (status, result, reason):
            raise RuntimeError(f"{self.label} ({self.id}): expected {(status, result, reason)}, got {got}")


# ---------------------------------------------------------------------------
# Move sequences

# Found by random play against this server (captures preferred), replayed as is.
CHESS_INSUFFICIENT = (
    "g2g3 a7a6 f2f3 g7g5 h2h4 g5h4 g3h4 h7h6 b1c3 e7e5 e2e3 d8h4 h1h4 f8d6 h4h6 h8h6 "
    "f1a6 c7c6 a6b7 a8a2 b7c6 d7c6 c3a2 b8d7 a2b4 d6b4 a1a2 b4d2 d1d2 h6e6 d2d7 c8d7 "
    "b2b4 e6g6 a2a4 g6g1 e1d2 e5e4 f3e4 g1c1 d2c1 e8e7 a4a3 g8h6 c2c3 d7f5 e4f5 h6f5 "
    "a3a5 f5e3 a5a7 e7e6 a7f7 e6f7 c3c4 e3c4 c1d1 c6c5 b4c5 c4d6 c5d6 f7e8 d6d7 e8d7")
# Sam Loyd's ten-move stalemate.
CHESS_STALEMATE = ("e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 "
                   "b7b8 d3h7 b8c8 f7g6 c8e6")
CHESS_REPETITION = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
CROWD_CHECKMATE = "f2f3 e7e6 b2b4 f8b4 g2g4 d8h4"
# Crowd moves out of a crowd carry the piece letter (Qb5e2), as the server's legal list has them.
CROWD_REPETITION = (
    "e2e3 b8c6 e3e4 b7b6 c2c3 c6b8 d2d4 b8a6 f1a6 a7a6 a6c8 a8c8 b2b4 a6a5 d1a4 a5b4 "
    "c1h6 h7h6 c3b4 g7h6 a4d7 e8d7 h6f8 d8f8 b1a3 d7d8 a3b1 d8d7 a2a3 f8d8 e4e5 e7e5 "
    "d4e5 c8a8 f2f3 a8a3 b1a3 h8h7 e1f1 h7g7 b4b5 b6b5 a3b1 d8b8 e5e6 d7c8 e6f7 g7g2 "
    "g1h3 b8b5 f1g2 Qb5e2 h3f2 e2b5 f7g8n Qb5c5 g8h6 c5b5 h6g8 Qb5d3 f2e4 d3b5 e4f2")
CROWD_STALEMATE = (
    "g1h3 e7e5 f2f3 g8e7 h3f4 e5f4 g2g3 f4f3 e2f3 g7g6 d1f3 d7d5 Qf3f6 f7f6 f1b5 b8c6 "
    "f6g6 e7g6 b5c6 b7c6 b2b4 f8b4 c2c4 c8f5 c4d5 h7h5 h1g1 c6d5 e1f2 b4d2 c1d2 d8d6 "
    "g3g4 d6h2 f2f3 f5b1 d2a5 h5g4 g1g4 b1a2 g4e4 d5e4 Kf3e3 e8d8 a1c1 a7a5 c1c7 h2c7 "
    "f3e4 a2f7 a5c3 c7f4 e3f3 f4e4 c3a5 a8a5 Pf3f4 e4f3 f4f5 h8h2 f5g6 f7g6")
CROWD_INSUFFICIENT = (
    "h2h3 a7a6 f2f4 f7f5 f4f5 a8a7 g2g4 f5g4 h3g4 g8f6 f5f6 f6g4 f6e7 f8e7 h1h7 h8h7 "
    "e2e3 g4e3 d2e3 e7h4 e1d2 e8f7 f1b5 a6b5 d1e2 a7a2 e2b5 a2b2 b5d7 c8d7 c1b2 d7f5 "
    "d2c1 f5c2 c1c2 h7h8 b2g7 f7g7 a1a7 c7c5 a7a3 h8h5 b1d2 d8d2 c2d2 g7g8 a3c3 g8h7 "
    "g1e2 h7g7 c3c5 h5f5 d2c3 f5c5 c3d4 g7g8 d4c5 h4f2 c5b4 f2e3 b4c4 g8f7 e2f4 b7b5 "
    "c4b5 e3d2 f4g6 f7g6 b5c4 g6h5 c4c5 d2f4 c5d5 b8c6 d5c6")
PARITY_NO_MOVE_WHITE_WINS = "e2e3/b7b5 f1b5/d7d6 h2h4/g8h6 f2f4/e8d7"
PARITY_NO_MOVE_BLACK_WINS = "f2f3/e7e6 h2h4/a7a5 b1c3/d8h4 g1h3/f8c5"
PARITY_NO_MOVE_DRAW = ("g1h3/b7b5 e2e4/e7e5 f1b5/c8a6 c2c4/h7h6 b5d7/a6b5 c4b5/d8d7 "
                       "g2g4/g8f6 d1e2/d7b5 a2a4/f6e4 e2b5/b5e2 h3g1/e4f2 e1f2/e8d7")
PARITY_SINGLE_NO_MOVE = "f2f4/c7c5 e2e3/b7b5 f1b5/c8b7 b2b4/d7d5 g2g4/e8d7"
# Both kings step onto c5 in the same turn.
PARITY_KINGS_SHARE = ("e2e3/e7e6 e1e2/e8e7 a2a3/a7a6 e2d3/e7d6 h2h3/h7h6 d3d4/a6a5 "
                      "h3h4/h6h5 d4c5/d6c5")
# Four knights out and back; the waiting rule lets a knight move every other turn.
# The state after turns 1, 5 and 9 is the same (the markers included).
PARITY_REPETITION = " ".join(["g1f3/g8f6 b1c3/b8c6 f3g1/f6g8 c3b1/c6b8"] * 2) + " g1f3/g8f6"
MOVE_NEUTRAL_REPETITION = " ".join(["g1f3/g8f6 f3g1/f6g8"] * 2)
MOVE_NEUTRAL_MATE_WHITE_WINS = "e2e4/a7a5 b1a3/b7b6 h2h4/c7c5 d1f3/c5c4 f1c4/h7h6 f3f7/a5a4"
MOVE_NEUTRAL_MATE_BLACK_WINS = "a2a4/b8a6 e2e4/d7d5 f1a6/d5e4 a6b7/c8g4 b7e4/d8d2 c1d2/d2d1"
MOVE_NEUTRAL_STALEMATE = (
    "h2h3/c7c5 h3h4/f7f6 b1a3/g7g5 h4g5/d8c7 h1h7/f6g5 f2f4/b7b5 a3b5/g5f4 b5a7/g8f6 "
    "h7h8/f6h7 h8g8/c7a7 g8f8/b8c6 f8f4/h7f8 f4f8/a7a2 a1a2/e8f8 a2a8/a8a2 a8c8/a2a8 "
    "c8a8/c6d8 e1f2/f8g7 a8d8/g7h8 d8d7/h8g7 f2f3/g7h6 d7e7/e7e6 c2c4/h6h5 e7e6/h5g5 "
    "d1a4/g5h4 a4a7/h4h5 a7c5/h5h4")
MOVE_NEUTRAL_DEAD = (
    "h2h4/h7h5 h1h2/b7b5 b1a3/d7d5 f2f3/c8e6 a3b5/d8d6 b5a7/d6h2 a2a3/a8a7 a1b1/h2g1 "
    "d2d4/g1f1 e1f1/f1g2 f1g2/a7a3 b2a3/a3f3 e2f3/f3a3 b1b8/b8c6 c1a3/c6b8 a3e7/h8h6 "
    "e7f8/e8e7 f8g7/e7f8 g7h6/f8g7 h6c1/g8h6 c1h6/b8c6 d1d2/g7h6 d2e2/h6g7 e2e5/c6d4 "
    "e5e6/g7f8 e6d5/d4c2 d5h5/c2a1 h5f7/f8g8 f7c7/g8h8 c7c2/a1b3 c2b3/h8g7 b3g8/g7h7 "
    "f3f4/h7g8 h4h5/g8f7 f4f5/f7e7 h5h6/e7f6 g2g3/f6f5 g3h2/f5f6 h6h7/f6g5 h2h3/g5g6 "
    "h3g3/g6h7")
# The first 12 turns of games/parity-long.pgn: a swap, a failed capture, a
# shared square (g4), castling long, a delayed check.
PARITY_EXAMPLE_12 = ("e2e4/d7d5 g1f3/b8c6 e4d5/d5e4 f3g5/c8f5 d5c6/c6e5 b1c3/b7c6 "
                     "g2g4/e5g4 c3e4/d8d4 d1e2/e8c8 g4f5/f5g6 e2a6/g4e5 f5g6/c8b8")
# games/move-neutral-short.pgn, all 15 turns.
MOVE_NEUTRAL_EXAMPLE = ("d2d4/d7d5 c2c4/g8f6 c4d5/d5c4 b1c3/e7e6 c1g5/e6d5 g5f6/f6e4 "
                        "c3e4/d8f6 e4f6/f6d4 d1d4/g7f6 d4f6/f8g7 f6g7/h8g8 g7g8/e8d7 "
                        "g8f7/d7d6 f7e6/c8e6 g1f3/d6c5")


def sq(file, rank):
    return "abcdefgh"[file] + str(rank + 1)


def knight_shuffle(count, simultaneous, waiting, seed):
    """Knight moves that neither capture nor repeat a position three times:
    each side's knights stay in its own half, so nothing else changes. Chess
    gets `count` plies, the simultaneous variants `count` turns (white/black)."""
    rng = random.Random(seed)
    knights = {"white": ["b1", "g1"], "black": ["b8", "g8"]}
    fixed = {sq(f, r) for f in range(8) for r in (0, 1, 6, 7)} - {"b1", "g1", "b8", "g8"}
    seen = {}
    last = {"white": None, "black": None}

    def targets(color, frm):
        f, r = "abcdefgh".index(frm[0]), int(frm[1]) - 1
        own = range(0, 4) if color == "white" else range(4, 8)
        taken = fixed | set(knights["white"]) | set(knights["black"])
        out = []
        for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
            nf, nr = f + df, r + dr
            if 0 <= nf < 8 and nr in own and sq(nf, nr) not in taken:
                out.append(sq(nf, nr))
        return out

    def options(color):
        return [(frm, to) for frm in knights[color] if not (waiting and frm == last[color])
                for to in targets(color, frm)]

    def key(side_to_move):
        return (tuple(sorted(knights["white"])), tuple(sorted(knights["black"])),
                last["white"] if waiting else None, last["black"] if waiting else None,
                side_to_move)

    def play(color, frm, to):
        knights[color][knights[color].index(frm)] = to
        last[color] = to

    seen[key("white")] = 1
    out = []
    for i in range(count):
        colors = ["white", "black"] if simultaneous else [["white", "black"][i % 2]]
        for _attempt in range(1000):
            saved = ({c: list(k) for c, k in knights.items()}, dict(last))
            picks = [rng.choice(options(c)) for c in colors]
            for c, (frm, to) in zip(colors, picks):
                play(c, frm, to)
            k = key("white" if simultaneous or colors[0] == "black" else "black")
            if seen.get(k, 0) < 2:
                seen[k] = seen.get(k, 0) + 1
                break
            knights.update(saved[0])
            last.update(saved[1])
        else:
            raise RuntimeError("knight shuffle stuck")
        moves = [frm + to for frm, to in picks]
        out.append("/".join(moves))
    return " ".join(out)


# ---------------------------------------------------------------------------
# The games


def play_all(s):
    # Games that wait on the clock go first, so the waiting overlaps the rest.
    # "time": 1 s clocks; the side that does not move flags.
    t1 = s.friend_game("chess: White moves, Black flags (time)", "chess",
                       clock={"initial": 1, "increment": 0})
    t1.move("white", "e2e4")
    t2 = s.friend_game("parity: White commits, Black flags (time)", "parity",
                       clock={"initial": 1, "increment": 0})
    t2.commit("white", 1, "e2e4")
    # "no reveal": both commit, one or neither reveals; 30 s later the game ends.
    nr1 = s.friend_game("parity: Black does not reveal (no reveal, White wins)", "parity",
                        clock={"initial": 60, "increment": 0})
    nr1.turn("d2d4", "d7d5")
    nonce = nr1.commit("white", 2, "c2c4")
    nr1.commit("black", 2, "e7e6")
    nr1.reveal("white", "c2c4", nonce)
    nr2 = s.friend_game("move-neutral: neither reveals (no reveal, draw)", "move-neutral",
                        clock={"initial": 60, "increment": 1})
    nr2.commit("white", 1, "e2e4")
    nr2.commit("black", 1, "c7c5")
    deadline_games = [(t1, "1-0", "time"), (t2, "1-0", "time"),
                      (nr1, "1-0", "no reveal"), (nr2, "1/2-1/2", "no reveal")]

    # Turn-based: chess.
    g = s.friend_game("chess: fool's mate (checkmate)", "chess")
    g.moves("f2f3 e7e5 g2g4 d8h4")
    g.expect("finished", "0-1", "checkmate")

    g = s.friend_game("chess: Loyd's stalemate", "chess", clock={"initial": 600, "increment": 5})
    g.moves(CHESS_STALEMATE)
    g.expect("finished", "1/2-1/2", "stalemate")

    g = s.friend_game("chess: knights out and back (repetition)", "chess")
    g.moves(CHESS_REPETITION)
    g.expect("finished", "1/2-1/2", "repetition")

    g = s.friend_game("chess: 100 knight moves (fifty moves)", "chess", days=2)
    g.moves(knight_shuffle(100, False, False, 1))
    g.expect("finished", "1/2-1/2", "fifty moves")

    g = s.friend_game("chess: everything traded (insufficient material)", "chess")
    g.moves(CHESS_INSUFFICIENT)
    g.expect("finished", "1/2-1/2", "insufficient material")

    g = s.friend_game("chess: Black resigns", "chess", color="black",
                      clock={"initial": 300, "increment": 3})
    g.moves("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6")
    g.act("black", "resign")
    g.expect("finished", "1-0", "resignation")

    g = s.friend_game("chess: draw declined, then agreed (agreement); rematch made", "chess",
                      clock={"initial": 180, "increment": 2})
    g.moves("d2d4 d7d5 c2c4")
    g.act("white", "draw/yes")          # White's offer stands while Black thinks
    g.act("black", "draw/no")           # declined
    g.moves("e7e6 b1c3 g8f6")
    g.act("white", "draw/yes")
    g.act("black", "draw/yes")          # accepts
    g.expect("finished", "1/2-1/2", "agreement")
    g.act("black", "rematch")
    new = g.act("white", "rematch")["game"]
    # A rematch keeps each player's token, colours swapped.
    r = Game(s, new, "chess: rematch of the agreed game, aborted after one move (abort)",
             {"white": g.tokens["black"], "black": g.tokens["white"]})
    r.moves("e2e4")
    r.act("black", "abort")
    r.expect("finished", "*", "abort")

    c = s.create("chess", "friend", "white")
    g = Game(s, c["id"], "chess: aborted while waiting for the friend (abort)", {"white": c["token"]})
    g.act("white", "abort")
    g.expect("finished", "*", "abort")

    g = s.friend_game("tutti-frutti: White resigns", "tutti-frutti")
    g.moves("e2e4 e7e5 b1c3 g8f6")
    g.act("white", "resign")
    g.expect("finished", "0-1", "resignation")

    # Against the engine (level 1): the human plays, waits, resigns.
    c = s.create("chess", {"engine": {"level": 1}}, "white")
    g = Game(s, c["id"], "chess vs engine level 1: human resigns", {"white": c["token"]})
    g.move("white", "e2e4")
    f = g.wait(lambda f: f["to_move"] == "white", "the engine's move")
    g.move("white", "d2d4" if "d2d4" in f["legal"]["white"] else f["legal"]["white"][0])
    g.wait(lambda f: f["to_move"] == "white", "the engine's move")
    g.act("white", "resign")
    g.expect("finished", "0-1", "resignation")

    # Crowd: safety-in-numbers.
    g = s.friend_game("safety-in-numbers: fool's mate (checkmate)", "safety-in-numbers")
    g.moves(CROWD_CHECKMATE)
    g.expect("finished", "0-1", "checkmate")
    g = s.friend_game("safety-in-numbers: crowds on the board (repetition)", "safety-in-numbers")
    g.moves(CROWD_REPETITION)
    g.expect("finished", "1/2-1/2", "repetition")
    g = s.friend_game("safety-in-numbers: king in a crowd (stalemate)", "safety-in-numbers")
    g.moves(CROWD_STALEMATE)
    g.expect("finished", "1/2-1/2", "stalemate")
    g = s.friend_game("safety-in-numbers: insufficient material", "safety-in-numbers")
    g.moves(CROWD_INSUFFICIENT)
    g.expect("finished", "1/2-1/2", "insufficient material")
    g = s.friend_game("safety-in-numbers: knights out and back, Black resigns", "safety-in-numbers")
    g.moves("g1f3 g8f6 f3g1")
    g.act("black", "resign")
    g.expect("finished", "1-0", "resignation")

    # Simultaneous: parity.
    g = s.friend_game("parity: 12 turns of the example game, then Black resigns", "parity",
                      clock={"initial": 300, "increment": 3})
    g.turns(PARITY_EXAMPLE_12)
    g.act("black", "resign")
    g.expect("finished", "1-0", "resignation")

    g = s.friend_game("parity: Black has no legal move (1-0)", "parity")
    g.turns(PARITY_NO_MOVE_WHITE_WINS)
    g.expect("finished", "1-0", "no legal move")
    g = s.friend_game("parity: White has no legal move (0-1)", "parity")
    g.turns(PARITY_NO_MOVE_BLACK_WINS)
    g.expect("finished", "0-1", "no legal move")
    g = s.friend_game("parity: neither side has a legal move (draw)", "parity")
    g.turns(PARITY_NO_MOVE_DRAW)
    g.expect("finished", "1/2-1/2", "no legal move")
    g = s.friend_game("parity: kings step onto c5 together (kings share a square)", "parity")
    g.turns(PARITY_KINGS_SHARE)
    g.expect("finished", "1/2-1/2", "kings share a square")
    g = s.friend_game("parity: four knights out and back (repetition)", "parity")
    g.turns(PARITY_REPETITION)
    g.expect("finished", "1/2-1/2", "repetition")
    g = s.friend_game("parity: 50 turns of knight moves (fifty turns)", "parity")
    g.turns(knight_shuffle(50, True, True, 2))
    g.expect("finished", "1/2-1/2", "fifty turns")
    g = s.friend_game("parity: one turn, then a draw by agreement", "parity")
    g.turns("e2e4/e7e5")
    g.act("black", "draw/yes")
    g.act("white", "draw/yes")
    g.expect("finished", "1/2-1/2", "agreement")
    g = s.friend_game("parity: White committed, then Black aborts (abort)", "parity")
    g.commit("white", 1, "d2d4")
    g.act("black", "abort")
    g.expect("finished", "*", "abort")

    c = s.create("parity", {"engine": {"level": 1}}, "black")
    g = Game(s, c["id"], "parity vs engine level 1: two turns, human resigns", {"black": c["token"]})
    for mv in ("e7e6", "g8f6"):
        f = g.wait(lambda f: f["committed"]["white"], "the engine's commitment")
        nonce = g.commit("black", f["turn"], mv if mv in f["legal"]["black"] else f["legal"]["black"][0])
        turn = f["turn"]
        g.reveal("black", mv if mv in f["legal"]["black"] else f["legal"]["black"][0], nonce)
        g.wait(lambda f: f["turn"] > turn or f["status"] != "started", "the turn")
    g.act("black", "resign")
    g.expect("finished", "1-0", "resignation")

    g = s.friend_game("parity-single: Black has no legal move (1-0)", "parity-single")
    g.turns(PARITY_SINGLE_NO_MOVE)
    g.expect("finished", "1-0", "no legal move")
    g = s.friend_game("parity12 (turn-based, 12x8): four moves, then White resigns", "parity12")
    g.moves("f2f4 f7f5 b1c3 k8j6")
    g.act("white", "resign")
    g.expect("finished", "0-1", "resignation")

    # Simultaneous: move-neutral.
    g = s.friend_game("move-neutral: the 15-turn example game, then agreement", "move-neutral",
                      clock={"initial": 900, "increment": 10})
    g.turns(MOVE_NEUTRAL_EXAMPLE)
    g.act("white", "draw/yes")
    g.act("black", "draw/yes")
    g.expect("finished", "1/2-1/2", "agreement")
    g = s.friend_game("move-neutral: Black checkmated (1-0)", "move-neutral")
    g.turns(MOVE_NEUTRAL_MATE_WHITE_WINS)
    g.expect("finished", "1-0", "checkmate")
    g = s.friend_game("move-neutral: White checkmated (0-1)", "move-neutral")
    g.turns(MOVE_NEUTRAL_MATE_BLACK_WINS)
    g.expect("finished", "0-1", "checkmate")
    g = s.friend_game("move-neutral: stalemate", "move-neutral")
    g.turns(MOVE_NEUTRAL_STALEMATE)
    g.expect("finished", "1/2-1/2", "stalemate")
    g = s.friend_game("move-neutral: kings alone (dead position)", "move-neutral")
    g.turns(MOVE_NEUTRAL_DEAD)
    g.expect("finished", "1/2-1/2", "dead position")
    g = s.friend_game("move-neutral: knights out and back (repetition)", "move-neutral")
    g.turns(MOVE_NEUTRAL_REPETITION)
    g.expect("finished", "1/2-1/2", "repetition")

    # Unfinished games.
    g = s.friend_game("chess, 3 days per move: in progress, Black to move", "chess", days=3)
    g.moves("e2e4 c7c5 g1f3")
    g.expect("started")
    g = s.friend_game("parity, no clock: in progress, White committed to turn 3", "parity")
    g.turns("e2e4/e7e5 g1f3/b8c6")
    g.pending = [{"color": "white", "turn": 3, "move": "f1c4", "nonce": g.commit("white", 3, "f1c4"),
                  "revealed": False}]
    g.expect("started")
    g = s.friend_game("parity, no clock: in progress, both committed, White revealed (turn 2)",
                      "parity")
    g.turns("d2d4/g8f6")
    nonce_w = g.commit("white", 2, "c2c4")
    nonce_b = g.commit("black", 2, "e7e6")
    g.reveal("white", "c2c4", nonce_w)
    g.expect("started")
    g.pending = [{"color": "white", "turn": 2, "move": "c2c4", "nonce": nonce_w, "revealed": True},
                 {"color": "black", "turn": 2, "move": "e7e6", "nonce": nonce_b, "revealed": False}]
    c = s.create("safety-in-numbers", "friend", "black", clock={"initial": 300, "increment": 3})
    g = Game(s, c["id"], "safety-in-numbers: waiting for the friend (invite unused)",
             {"black": c["token"]})
    g.expect("waiting")

    # The clock games.
    for g, result, reason in deadline_games:
        g.wait(lambda f: f["status"] == "finished", reason, timeout=90)
        g.expect("finished", result, reason)


# ---------------------------------------------------------------------------
# Reading the database back


def final_fen(events):
    for kind, body in reversed(events):
        if "fen" in body:
            return body["fen"]
    return None


def describe(db):
    con = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    con.row_factory = sqlite3.Row
    labels = {g.id: g for g in GAMES}
    out = []
    rows = con.execute("SELECT * FROM games ORDER BY created_ms, id").fetchall()
    for row in rows:
        gid = row["id"]
        events = [(e["kind"], json.loads(e["body_json"]))
                  for e in con.execute("SELECT kind, body_json FROM events WHERE game_id = ? "
                                       "ORDER BY seq", (gid,))]
        finished = [b for k, b in events if k == "finished"]
        created = next(b for k, b in events if k == "created")
        seats = {s["color"]: s for s in con.execute("SELECT * FROM seats WHERE game_id = ?", (gid,))}
        g = labels.get(gid)
        tokens = {}
        for color in ("white", "black"):
            token = g.tokens.get(color) if g else None
            if token is not None:
                stored = seats[color]["token_sha256"]
                if hashlib.sha256(token.encode()).hexdigest() != stored:
                    raise RuntimeError(f"{gid} {color}: token does not match the stored hash")
            tokens[color] = token
        entry = {
            "id": gid,
            "label": g.label if g else None,
            "variant": row["variant"],
            "white": json.loads(row["white"]),
            "black": json.loads(row["black"]),
            "clock": created["clock"],
            "days": created["days"],
            "rematch_of": row["rematch_of"],
            "status": row["status"],
            "result": row["result"],
            "reason": row["reason"],
            "finished_event_reason": finished[-1]["reason"] if finished else None,
            "turn": row["turn"],
            "moves": sum(1 for k, _ in events if k == "move"),
            "turns": sum(1 for k, _ in events if k == "turn"),
            "events": len(events),
            "final_fen": final_fen(events),
            "tokens": tokens,
            "invite": {c: s["invite"] for c, s in seats.items() if s["invite"]} or None,
            "hidden_moves": con.execute("SELECT count(*) FROM hidden_moves WHERE game_id = ?",
                                        (gid,)).fetchone()[0],
        }
        if g is not None and hasattr(g, "pending"):
            # The commitments of the turn in progress, with what a seat needs to reveal.
            entry["pending"] = g.pending
        out.append(entry)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    con.close()
    return version, out


# ---------------------------------------------------------------------------


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-fixture.py PARITY_BINARY OUT.sqlite")
    binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = tempfile.mkdtemp(prefix="parity-fixture-")
    db = os.path.join(work, "parity.sqlite")
    log = open(os.path.join(work, "server.log"), "w")
    proc = subprocess.Popen([binary, "serve", "--db", db, "--addr", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise RuntimeError(f"unexpected server output: {line!r}")
        print(line.strip(), flush=True)
        s = Server(int(m.group(1)))
        play_all(s)
        if s.conn:
            s.conn.close()
    finally:
        proc.send_signal(signal.SIGINT)   # the server stops on Ctrl-C
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    print(f"server exited with {proc.returncode}", flush=True)

    con = sqlite3.connect(db)
    busy, log_frames, done = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    con.close()
    if busy:
        raise RuntimeError("WAL checkpoint did not complete")
    wal = db + "-wal"
    if os.path.exists(wal) and os.path.getsize(wal) > 0:
        raise RuntimeError("the WAL is not empty after the checkpoint")
    shutil.copyfile(db, out)

    version, games = describe(out)
    expected = {
        "file": os.path.basename(out),
        "user_version": version,
        "games": games,
    }
    exp_path = os.path.join(os.path.dirname(out), "expected.json")
    with open(exp_path, "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print(f"{len(games)} games -> {out} ({os.path.getsize(out)} bytes), {exp_path}")
    for g in games:
        print(f"  {g['id']} {g['variant']:18} {g['status']:8} {str(g['result']):8} {g['reason']}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
