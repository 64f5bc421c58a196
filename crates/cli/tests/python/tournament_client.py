"""berserk, the lichess Python client, unchanged, runs tournaments on
`parity serve`: a team; an arena of people where one goes berserk; arenas
in chess and in parity (simultaneous) played by four `parity bot`
processes; and a five-round Swiss event of seven people made with
`create_swiss`, whose games this script plays through berserk's board
client to fixed results (a resignation each way and a draw), scheduled
round by round; then the standings, results, games and the FIDE report.
Run by crates/cli/tests/tournaments.rs as `tournament_client.py BASE
PARITY_BINARY ORG_TOKEN PLAYER_TOKEN x7 BOT_TOKEN x4`; prints `ok`, or
fails with an AssertionError or a timeout."""

import subprocess
import sys
import time

import berserk

base, parity, org_token = sys.argv[1:4]
player_tokens, bot_tokens = sys.argv[4:11], sys.argv[11:]
assert len(player_tokens) == 7 and len(bot_tokens) == 4, sys.argv
TIMEOUT = 240


def client(token):
    return berserk.Client(session=berserk.TokenSession(token), base_url=base)


org = client(org_token)
players = {}
for token in player_tokens:
    c = client(token)
    players[c.account.get()["username"]] = c
bots = [client(t) for t in bot_tokens]
names = [b.account.get()["username"] for b in bots]


def refused(call, status):
    """`call` fails with lichess's error of `status`."""
    try:
        call()
    except berserk.exceptions.ResponseError as e:
        assert e.status_code == status, (e.status_code, e)
        return
    raise AssertionError(f"not refused: {call}")


def until(what, check, timeout=TIMEOUT):
    """Polls `check` until it returns something true."""
    end = time.time() + timeout
    while time.time() < end:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


# A team: lichess makes teams on its site; here through our `POST /api/team`.
team = org.teams._r.post("/api/team", json={"name": "Parity Club"})
assert team["id"] == "parity-club", team
for member in [*bots, *players.values()]:
    member.teams.join("parity-club")
members = {m["name"] for m in org.teams.get_members("parity-club")}
assert members == {"Org", *names, *players}, members

# An arena made by berserk's create_arena admits no bots (lichess's rule).
humans = org.tournaments.create_arena(clockTime=3, clockIncrement=2, minutes=5, name="Humans", wait_minutes=0)
assert humans["berserkable"] is True, humans
refused(lambda: bots[0].tournaments.join_arena(humans["id"]), 403)
ann = next(iter(players))
org.tournaments.join_arena(humans["id"])
players[ann].tournaments.join_arena(humans["id"])
duel = until("the people's arena to pair", lambda: org.tournaments.get_tournament(humans["id"])["duels"])[0]
game = duel["id"]
by_name = {"Org": org, **players}
white, black = (by_name[p["n"]] for p in duel["p"])
black.board.go_berserk(game)
refused(lambda: black.board.go_berserk(game), 409)
white.board.make_move(game, "e2e4")
# Ended by its creator: no new pairings; the game in play finishes and counts.
org.tournaments.terminate_arena(humans["id"])
black.board.resign_game(game)
done = until("the berserk game to count", lambda: (lambda t: t if not t["duels"] else None)(
    org.tournaments.get_tournament(humans["id"])))
assert done["isFinished"] is True, done
scores = {p["name"]: (p["score"], p["nb"]["berserk"]) for p in done["standing"]["players"]}
assert scores == {duel["p"][0]["n"]: (2, 0), duel["p"][1]["n"]: (0, 1)}, scores


def bot_arena(variant):
    """An arena of one minute at 1+0 that admits bots (`conditions.bots`)."""
    made = org.tournaments._r.post(
        "/api/tournament",
        json={
            "name": f"Bots {variant}",
            "clockTime": 1,
            "clockIncrement": 0,
            "minutes": 1,
            "waitMinutes": 0,
            "variant": variant,
            "rated": True,
            "conditions.bots": True,
            "conditions.teamMember.teamId": "parity-club",
        },
    )
    assert made["minutes"] == 1 and made["clock"] == {"limit": 60, "increment": 0}, made
    return made["id"]


arenas = {"standard": bot_arena("standard"), "parity": bot_arena("parity")}
assert {a["id"] for a in org.tournaments.arenas_by_team("parity-club", 10)} == set(arenas.values())

# A Swiss event of seven people, made by berserk's create_swiss: no bots.
swiss = org.tournaments.create_swiss(
    "parity-club",
    clockLimit=60,
    clockIncrement=0,
    nbRounds=5,
    name="Club Swiss",
    startsAt=int(time.time() * 1000) + 3000,
    roundInterval=3600,
    variant="standard",
    rated=False,
)
swiss_id = swiss["id"]
refused(lambda: bots[0].tournaments.join_swiss(swiss_id), 403)
for player in players.values():
    player.tournaments.join_swiss(swiss_id)
assert org.tournaments.get_swiss(swiss_id)["nbPlayers"] == 7


def play(board, game, white, black):
    """Board 1, 4, ...: Black resigns; 2, 5, ...: White resigns; 3, 6, ...: a draw."""
    until(f"game {game} to begin", lambda: attempt(lambda: white.board.make_move(game, "e2e4")))
    if board % 3 == 0:
        black.board.resign_game(game)
        return
    black.board.make_move(game, "e7e5")
    if board % 3 == 1:
        white.board.resign_game(game)
    else:
        white.board.offer_draw(game)
        black.board.accept_draw(game)


def attempt(call):
    """True once `call` is taken (a game not created yet is a 404)."""
    try:
        call()
        return True
    except berserk.exceptions.ResponseError as e:
        assert e.status_code == 404, e
        return False


# Four `parity bot` processes join both arenas and play them.
processes = []
for token in bot_tokens:
    args = [parity, "bot", "--server", base, "--token", token, "--level", "1"]
    args += ["--tournament", arenas["standard"], "--tournament", arenas["parity"]]
    processes.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))

try:
    # The Swiss event, round by round: the creator starts each next round.
    for round in range(1, 6):
        paired = until(
            f"round {round} paired",
            lambda: (lambda s: s if s["round"] == round else None)(org.tournaments.get_swiss(swiss_id)),
        )
        boards = paired["pairings"][round - 1]
        assert len(boards["boards"]) == 3 and len(boards["byes"]) == 1, boards
        for i, b in enumerate(boards["boards"]):
            play(i, b["id"], players[b["white"]], players[b["black"]])
        until(
            f"round {round} over",
            lambda: (lambda s: s if s["nbOngoing"] == 0 and (s.get("nextRound") or s["status"] == "finished") else None)(
                org.tournaments.get_swiss(swiss_id)
            ),
        )
        if round < 5:
            org.tournaments.schedule_swiss_next_round(swiss_id, int(time.time() * 1000))
    final = until("the Swiss event to finish", lambda: (lambda s: s if s["status"] == "finished" else None)(
        org.tournaments.get_swiss(swiss_id)))
    results = list(org.tournaments.stream_swiss_results(swiss_id))
    assert [r["rank"] for r in results] == list(range(1, 8)), results
    # Fifteen games and five byes of a point each: twenty points; the
    # pairing byes scored a point, the draws half each.
    assert sum(r["points"] for r in results) == 20, results
    assert results[0]["username"] == final["winner"]["name"], (results, final)
    byes = [b for p in final["pairings"] for b in p["byes"]]
    assert len(byes) == 5 and len(set(byes)) == 5, byes
    trf = org.tournaments.export_swiss_trf(swiss_id)
    lines = trf.splitlines()
    assert "XXR 5" in lines, trf
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 7, trf
    for line in players:
        # One ten-character block per round after column 91.
        assert len(line.rstrip()) >= 91 + 4 * 10, line
    games = list(org.tournaments.export_swiss_games(swiss_id))
    assert len(games) == 15, len(games)
    assert all(g["status"] != "started" for g in games), games
    assert {s["id"] for s in org.tournaments.swiss_by_team("parity-club", 10)} >= {swiss_id}

    # The arenas: both end after their minute; games in play finish and count.
    for variant, arena in arenas.items():
        done = until(f"the {variant} arena to finish", lambda: (lambda t: t if t["isFinished"] and not t["duels"] else None)(
            org.tournaments.get_tournament(arena)))
        results = list(org.tournaments.stream_results(arena))
        assert len(results) == 4, results
        assert [r["rank"] for r in results] == [1, 2, 3, 4], results
        scores = [r["score"] for r in results]
        assert scores == sorted(scores, reverse=True) and scores[0] > 0, results
        assert [p["username"] for p in done["podium"]] == [r["username"] for r in results[:3]], done
        exported = list(org.tournaments.export_arena_games(arena, as_pgn=False))
        assert len(exported) >= 2, exported
        assert all(g["variant"] == variant for g in exported), exported
        assert all(g.get("tournament") == arena for g in exported), exported
        # Each player's sheet adds up to the score.
        for r in results:
            sheet = r["sheet"]["scores"]
            assert sum(int(c) for c in sheet) == r["score"], r
        pgn = "".join(org.tournaments.export_arena_games(arena, as_pgn=True))
        assert pgn.count("[Event ") == len(exported), pgn
finally:
    for p in processes:
        p.terminate()
    for p in processes:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()

for p in processes:
    errors = p.stderr.read().decode(errors="replace")
    assert "ERROR" not in errors, errors

print("ok")
