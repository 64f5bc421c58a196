#!/usr/bin/env python3
"""Writes the release database fixture:

    python3 make-fixture.py PARITY_BINARY OUTDIR [--postgres URL]

Starts `PARITY_BINARY serve` on a fresh database (127.0.0.1, a free port):
a SQLite file, or with --postgres a new database made for the run on that
scratch PostgreSQL server (URL of any database there, e.g.
postgres://postgres@127.0.0.1:55432/postgres). Through the HTTP API only,
it signs up two accounts, makes and revokes API tokens, plays a rated
chess game and a rated parity game to their ends with chat in the first,
leaves a rated correspondence game unfinished, an open seek and an open
challenge, and reads back what the server answers for all of it. Then it
stops the server with SIGINT and writes, into OUTDIR:

- SQLite: parity.sqlite (WAL checkpointed into the file) and
  expected-sqlite.json;
- PostgreSQL: parity.pg.sql (`pg_dump --no-owner --no-privileges`, plain
  SQL) and expected-postgres.json; the run's database is dropped.

Standard library only (and psql/pg_dump for PostgreSQL, found on PATH or
under /usr/lib/postgresql/*/bin). Takes about 10 s. See README.md.
"""

import argparse
import glob
import hashlib
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

# The longest a challenge may wait for its answer: `--challenge-expiry`
# takes any u64 of seconds, and the server saturates the expiry at
# i64::MAX milliseconds (the challenge never expires).
CHALLENGE_EXPIRY_SECS = 2**64 - 1

USERS = {
    # name: password (test secrets: they go into expected-*.json)
    "Ada_Old": "ada's password, 0.2",
    "Bo-Release": "Bo: «schön» pass 🗝",
}

AGENT_SIGNUP = "make-fixture.py/0.2 (signup)"
AGENT_LOGIN = "make-fixture.py/0.2 (login)"

# Chat of the rated chess game, in order: (author, room, text). Several are
# sent within the same millisecond, so their order is only the order kept.
CHAT = [
    ("Ada_Old", "player", "good luck!"),
    ("Bo-Release", "player", "you too"),
    ("Ada_Old", "player", "1"),
    ("Ada_Old", "player", "2"),
    ("Ada_Old", "player", "3"),
    ("Bo-Release", "spectator", "a line in the spectators' room"),
    ("Bo-Release", "player", "Grüße — «schön» ♞ 👍 'quotes' \"double\" \\ back"),
    ("Ada_Old", "player", "b"),
    ("Ada_Old", "player", "a"),
    ("Bo-Release", "player", "x" * 140),
]
CHAT_AFTER_END = [("Ada_Old", "player", "gg (after the end)")]
# Sent all at once, each on its own connection: lines that share a
# millisecond, in the order the server kept them (read back after).
CHAT_BURST = [("Ada_Old" if i % 2 == 0 else "Bo-Release", "player", f"burst {i}")
              for i in range(8)]

# Fool's mate, in two halves: the chat comes between them.
FOOLS_MATE_FIRST, FOOLS_MATE_LAST = "f2f3 e7e5", "g2g4 d8h4"
# Parity, simultaneous: Black's king walks into no legal move (1-0).
PARITY_NO_MOVE_WHITE_WINS = "e2e3/b7b5 f1b5/d7d6 h2h4/g8h6 f2f4/e8d7"
# The unfinished correspondence game stops before White's g2g4 (then d8h4
# mates: the test finishes it).
UNFINISHED_MOVES = "f2f3 e7e5"
OPEN_CHALLENGE_FEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


class Refused(Exception):
    def __init__(self, status, text):
        super().__init__(f"{status} {text}")
        self.status = status


class Server:
    def __init__(self, port):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"

    def req(self, method, path, json_body=None, form=None, token=None, cookie=None,
            agent=None, expect=(200, 201)):
        """(status, headers, body as JSON or text)."""
        headers = {}
        data = None
        if json_body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(json_body).encode()
        elif form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            data = urllib.parse.urlencode(form).encode()
        if token:
            headers["Authorization"] = "Bearer " + token
        if cookie:
            headers["Cookie"] = "parity_session=" + cookie
        if agent:
            headers["User-Agent"] = agent
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
            text = r.read().decode()
            got = (r.status, r.getheaders())
        finally:
            conn.close()
        if expect is not None and got[0] not in expect:
            raise Refused(got[0], f"{method} {path}: {text}")
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = text
        return got[0], got[1], body

    def get(self, path, **kw):
        return self.req("GET", path, **kw)[2]

    def post(self, path, **kw):
        return self.req("POST", path, **kw)[2]


def session_cookie(headers):
    for name, value in headers:
        if name.lower() == "set-cookie" and value.startswith("parity_session="):
            return value.split(";", 1)[0].split("=", 1)[1]
    raise RuntimeError(f"no session cookie in {headers}")


def token_hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


def commitment(game, turn, side, mv, nonce):
    return hashlib.sha256(f"{game}:{turn}:{side}:{mv}:{nonce}".encode()).hexdigest()


class Play:
    """Everything the script does against the old server, and what it read."""

    def __init__(self, s):
        self.s = s
        self.accounts = {}   # name -> dict
        self.games = {}      # label -> id

    # -- accounts ------------------------------------------------------------

    def sign_up(self):
        for name, password in USERS.items():
            _, headers, body = self.s.req("POST", "/api/signup", agent=AGENT_SIGNUP,
                                          json_body={"username": name, "password": password})
            assert body["username"] == name, body
            signup_cookie = session_cookie(headers)
            _, headers, body = self.s.req("POST", "/api/login", agent=AGENT_LOGIN,
                                          json_body={"username": name.upper(), "password": password})
            assert body["username"] == name, body
            self.accounts[name] = {
                "id": name.lower(),
                "password": password,
                # The sessions: the sign-up's and a log-in's (the one used below).
                "session_signup": signup_cookie,
                "session": session_cookie(headers),
                "tokens": [],
                "revoked_tokens": [],
            }

    def new_token(self, name, scopes):
        body = self.s.post("/api/account/tokens", json_body={"scopes": scopes},
                           cookie=self.accounts[name]["session"])
        token = body["token"]
        assert token.startswith("pat_"), body
        return token

    def make_tokens(self):
        ada, bo = self.accounts["Ada_Old"], self.accounts["Bo-Release"]
        ada["tokens"].append({"token": self.new_token("Ada_Old", ["board:play"]),
                              "scopes": "board:play"})
        revoked = self.new_token("Ada_Old", ["board:play", "bot:play"])
        bo["tokens"].append({"token": self.new_token("Bo-Release", ["board:play"]),
                             "scopes": "board:play"})
        bo["tokens"].append({"token": self.new_token("Bo-Release", ["bot:play", "board:play"]),
                             "scopes": "bot:play,board:play"})
        # Revoked through the page's own endpoint (by its hash).
        self.s.req("DELETE", f"/api/account/tokens/{token_hash(revoked)}",
                   cookie=ada["session"])
        status, _, _ = self.s.req("GET", "/api/account", token=revoked, expect=None)
        assert status == 401, status
        ada["revoked_tokens"].append(revoked)
        for name, a in self.accounts.items():
            for t in a["tokens"]:
                me = self.s.get("/api/account", token=t["token"])
                assert me["username"] == name, me

    def token(self, name):
        return self.accounts[name]["tokens"][0]["token"]

    # -- games -----------------------------------------------------------------

    def challenge(self, by, to, form):
        c = self.s.post(f"/api/challenge/{to}", form=form, token=self.token(by))
        return c

    def accepted(self, by, to, form):
        c = self.challenge(by, to, form)
        self.s.post(f"/api/challenge/{c['id']}/accept", token=self.token(to))
        full = self.s.get(f"/api/games/{c['id']}")
        assert full["status"] == "started", full
        return c["id"]

    def move(self, gid, name, uci):
        self.s.post(f"/api/board/game/{gid}/move/{uci}", token=self.token(name))

    def moves(self, gid, white, black, text):
        names = [white, black]
        for i, uci in enumerate(text.split()):
            self.move(gid, names[i % 2], uci)

    def turns(self, gid, white, black, text):
        for t in text.split():
            w, b = t.split("/")
            turn = self.s.get(f"/api/games/{gid}")["turn"]
            nonces = {}
            for side, name, mv in (("white", white, w), ("black", black, b)):
                nonce = secrets.token_hex(16)
                nonces[side] = nonce
                self.s.post(f"/api/board/game/{gid}/commit", token=self.token(name),
                            json_body={"commitment": commitment(gid, turn, side, mv, nonce)})
            for side, name, mv in (("white", white, w), ("black", black, b)):
                self.s.post(f"/api/board/game/{gid}/reveal", token=self.token(name),
                            json_body={"move": mv, "nonce": nonces[side]})

    def chat(self, gid, lines):
        for author, room, text in lines:
            self.s.post(f"/api/board/game/{gid}/chat", token=self.token(author),
                        form={"room": room, "text": text})

    def chat_burst(self, gid, lines):
        barrier = threading.Barrier(len(lines))
        errors = []

        def send(line):
            author, room, text = line
            try:
                barrier.wait()
                self.s.post(f"/api/board/game/{gid}/chat", token=self.token(author),
                            form={"room": room, "text": text})
            except Exception as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=send, args=(line,)) for line in lines]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def play(self):
        # 1. Rated chess, 5+3: Ada (White) is mated by Bo (fool's mate, 0-1).
        chess = self.accepted("Ada_Old", "Bo-Release", {
            "rated": "true", "variant": "standard", "clock.limit": "300",
            "clock.increment": "3", "color": "white"})
        self.games["rated chess, fool's mate (0-1), with chat"] = chess
        self.moves(chess, "Ada_Old", "Bo-Release", FOOLS_MATE_FIRST)
        self.chat(chess, CHAT)
        self.moves(chess, "Ada_Old", "Bo-Release", FOOLS_MATE_LAST)
        self.chat(chess, CHAT_AFTER_END)
        self.chat_burst(chess, CHAT_BURST)
        self.expect(chess, "finished", "0-1")

        # 2. Rated parity, 10+5: Bo (White) wins, Black has no legal move.
        parity = self.accepted("Bo-Release", "Ada_Old", {
            "rated": "true", "variant": "parity", "clock.limit": "600",
            "clock.increment": "5", "color": "white"})
        self.games["rated parity, no legal move (1-0)"] = parity
        self.turns(parity, "Bo-Release", "Ada_Old", PARITY_NO_MOVE_WHITE_WINS)
        self.expect(parity, "finished", "1-0")

        # 3. Rated correspondence chess, 3 days a move: unfinished, White to move.
        corr = self.accepted("Ada_Old", "Bo-Release", {
            "rated": "true", "variant": "standard", "days": "3", "color": "white"})
        self.games["rated correspondence chess, 3 days, unfinished (White to move)"] = corr
        self.moves(corr, "Ada_Old", "Bo-Release", UNFINISHED_MOVES)
        self.expect(corr, "started", None)

        # 4. An open seek (rated parity, 7 days a move, 1200-1800) by Ada.
        seek = self.s.post("/api/lobby/seeks", token=self.token("Ada_Old"), json_body={
            "variant": "parity", "days": 7, "rated": True, "color": "random",
            "rating_range": [1200, 1800]})
        self.seek = seek["id"]

        # 5. An open challenge, Bo to Ada: rated chess from a position, 7 days.
        c = self.challenge("Bo-Release", "Ada_Old", {
            "rated": "true", "variant": "standard", "days": "7", "color": "black",
            "fen": OPEN_CHALLENGE_FEN})
        self.open_challenge = c["id"]

    def expect(self, gid, status, result):
        full = self.s.get(f"/api/games/{gid}")
        if (full["status"], full["result"]) != (status, result):
            raise RuntimeError(f"{gid}: expected {status} {result}, got {full['status']} "
                               f"{full['result']} {full.get('reason')}")

    # -- what the server answers ------------------------------------------------

    def answers(self):
        s = self.s
        out = {"users": {}, "games": [], "chat": {}}
        for name, a in self.accounts.items():
            out["users"][name] = {
                "user": s.get(f"/api/user/{name}"),
                "rating_history": s.get(f"/api/user/{name}/rating-history"),
                "games": s.get(f"/api/user/{name}/games"),
                "tokens": s.get("/api/account/tokens", cookie=a["session"]),
                "sessions": s.get("/api/account/sessions", cookie=a["session"]),
                "playing": s.get("/api/account/playing", token=self.token(name)),
                "challenges": s.get("/api/challenge", token=self.token(name)),
                "account": s.get("/api/account", token=self.token(name)),
            }
        for label, gid in self.games.items():
            # As a spectator sees it. The clocks of a game in progress run.
            full = s.get(f"/api/games/{gid}")
            out["games"].append({"label": label, "id": gid, "full": full})
        chess = self.games["rated chess, fool's mate (0-1), with chat"]
        out["chat"] = {"game": chess, "lines": s.get(f"/api/games/{chess}/chat")}
        out["seeks"] = s.get("/api/lobby/seeks")
        # The records' signing key (kept in the database).
        out["key"] = s.get("/api/key")
        return out


# ---------------------------------------------------------------------------
# PostgreSQL


def pg_tool(name):
    found = shutil.which(name)
    if found:
        return found
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    sys.exit(f"{name} not found (PATH, /usr/lib/postgresql/*/bin)")


def with_database(url, name):
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def psql(url, sql):
    out = subprocess.run([pg_tool("psql"), "-X", "-v", "ON_ERROR_STOP=1", "-At", "-d", url,
                          "-c", sql], check=True, capture_output=True, text=True)
    return out.stdout.strip()


# ---------------------------------------------------------------------------


def run_server(binary, db, work):
    log = open(os.path.join(work, "server.log"), "w")
    proc = subprocess.Popen([binary, "serve", "--db", db, "--addr", "127.0.0.1:0",
                             "--challenge-expiry", str(CHALLENGE_EXPIRY_SECS)],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise RuntimeError(f"unexpected server output: {line!r}; see {log.name}")
    print(line.strip(), flush=True)
    return proc, int(m.group(1))


def stop(proc):
    proc.send_signal(signal.SIGINT)   # the server stops on Ctrl-C
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    print(f"server exited with {proc.returncode}", flush=True)
    if proc.returncode != 0:
        raise RuntimeError(f"the server exited with {proc.returncode}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("outdir")
    ap.add_argument("--postgres", metavar="URL")
    args = ap.parse_args()
    binary, outdir = os.path.abspath(args.binary), os.path.abspath(args.outdir)
    os.makedirs(outdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="parity-release-fixture-")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()

    if args.postgres:
        name = "release_fixture_" + secrets.token_hex(6)
        psql(args.postgres, f"CREATE DATABASE {name}")
        db = with_database(args.postgres, name)
        backend = "postgres"
    else:
        db = os.path.join(work, "parity.sqlite")
        backend = "sqlite"

    proc, port = run_server(binary, db, work)
    try:
        p = Play(Server(port))
        p.sign_up()
        p.make_tokens()
        p.play()
        answers = p.answers()
        written_ms = int(time.time() * 1000)
    finally:
        stop(proc)

    # What the database holds beyond the API: the expiries, the schema.
    queries = {
        "seek_expires_ms": f"SELECT expires_ms FROM seeks WHERE id = '{p.seek}'",
        "challenge_expires_ms":
            f"SELECT expires_ms FROM challenges WHERE id = '{p.open_challenge}'",
        "challenge_created_ms":
            f"SELECT created_ms FROM challenges WHERE id = '{p.open_challenge}'",
        "seek_created_ms": f"SELECT created_ms FROM seeks WHERE id = '{p.seek}'",
    }
    stored = {}
    if backend == "sqlite":
        con = sqlite3.connect(db)
        busy, _, _ = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise RuntimeError("WAL checkpoint did not complete")
        for key, sql in queries.items():
            stored[key] = con.execute(sql).fetchone()[0]
        stored["schema_version"] = con.execute("PRAGMA user_version").fetchone()[0]
        con.close()
        wal = db + "-wal"
        if os.path.exists(wal) and os.path.getsize(wal) > 0:
            raise RuntimeError("the WAL is not empty after the checkpoint")
        out = os.path.join(outdir, "parity.sqlite")
        shutil.copyfile(db, out)
        # SQLite keeps the records' signing key beside the database, in DB.key.
        shutil.copyfile(db + ".key", out + ".key")
    else:
        for key, sql in queries.items():
            stored[key] = int(psql(db, sql))
        stored["schema_version"] = int(psql(db, "SELECT version FROM parity_schema"))
        out = os.path.join(outdir, "parity.pg.sql")
        dump = subprocess.run([pg_tool("pg_dump"), "--no-owner", "--no-privileges",
                               "--format=plain", "-d", db],
                              check=True, capture_output=True, text=True).stdout
        # pg_dump 15.14+ fences its script with \restrict KEY ... \unrestrict KEY
        # (psql meta-commands older psql do not know); this dump is ours.
        dump = "".join(line for line in dump.splitlines(keepends=True)
                       if not re.match(r"\\(un)?restrict\b", line))
        with open(out, "w") as f:
            f.write(dump)
        psql(args.postgres, f"DROP DATABASE {name}")

    expected = {
        "file": os.path.basename(out),
        "backend": backend,
        "written_by": version,
        "written_ms": written_ms,
        "origin": p.s.origin,
        "stored": stored,
        "accounts": p.accounts,
        "games": p.games,
        "seek": p.seek,
        "open_challenge": p.open_challenge,
        "open_challenge_fen": OPEN_CHALLENGE_FEN,
        "chat_sent": [list(line) for line in CHAT + CHAT_AFTER_END],
        "chat_burst": [list(line) for line in CHAT_BURST],
        "answers": answers,
    }
    exp_path = os.path.join(outdir, f"expected-{backend}.json")
    with open(exp_path, "w") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{backend}: {out} ({os.path.getsize(out)} bytes), {exp_path}")
    for label, gid in p.games.items():
        print(f"  {gid} {label}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
