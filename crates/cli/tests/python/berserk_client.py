"""berserk, the lichess Python client, unchanged, plays on `parity serve`:
token test, account, the event stream, challenges (accepted, declined,
canceled), a rated chess game read through `gameState` to mate and the
ratings it moves, a draw, a resignation, chat, takeback, a game against
our engine, board seeks paired, export with the computer analysis. Run by crates/cli/tests/berserk.rs
as `berserk_client.py BASE_URL ALICE_TOKEN BOB_TOKEN`; prints `ok`, or
fails with an AssertionError or a timeout."""

import queue
import sys
import threading
import time

import berserk
import requests

base, alice_token, bob_token = sys.argv[1:4]


def client(token):
    return berserk.Client(session=berserk.TokenSession(token), base_url=base)


alice, bob = client(alice_token), client(bob_token)
TIMEOUT = 20


def listen(stream):
    """The lines of a stream, read on a thread, as a queue."""
    lines = queue.Queue()

    def read():
        try:
            for line in stream:
                lines.put(line)
        except Exception as e:  # noqa: BLE001 - reported to the reader
            lines.put(e)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def next_of(lines, kind):
    """The next line of `lines` whose type is `kind` (others are skipped)."""
    while True:
        line = lines.get(timeout=TIMEOUT)
        assert line is not None, f"the stream ended before a {kind}"
        assert not isinstance(line, Exception), line
        if line.get("type") == kind:
            return line


# Tokens and accounts.
tested = requests.post(f"{base}/api/token/test", data=alice_token, timeout=TIMEOUT).json()
assert tested[alice_token]["userId"] == "alice", tested
assert "board:play" in tested[alice_token]["scopes"], tested
me = alice.account.get()
assert me["username"] == "Alice" and me["id"] == "alice", me
assert "title" not in me, me

alice_events = listen(alice.board.stream_incoming_events())
bob_events = listen(bob.board.stream_incoming_events())


def challenge_accepted(**terms):
    """Alice challenges Bob, Bob accepts: the game's id, which is the challenge's."""
    made = alice.challenges.create("bob", **terms)
    challenge = next_of(bob_events, "challenge")["challenge"]
    assert challenge["id"] == made["id"], (made, challenge)
    assert challenge["challenger"]["name"] == "Alice", challenge
    assert challenge["direction"] == "in", challenge
    bob.challenges.accept(made["id"])
    for events in (alice_events, bob_events):
        start = next_of(events, "gameStart")["game"]
        assert start["id"] == made["id"], start
    return made["id"]


# A rated game to mate, read through gameState.
game = challenge_accepted(rated=True, clock_limit=300, clock_increment=2, color="white")
ongoing = alice.games.get_ongoing()
assert [g["gameId"] for g in ongoing] == [game], ongoing
assert ongoing[0]["opponent"]["username"] == "Bob" and ongoing[0]["isMyTurn"], ongoing
states = listen(alice.board.stream_game_state(game))
full = next_of(states, "gameFull")
assert full["id"] == game and full["variant"]["key"] == "standard", full
assert full["white"]["name"] == "Alice" and full["black"]["name"] == "Bob", full
assert full["rated"] is True and full["speed"] == "blitz", full
assert full["clock"] == {"initial": 300000, "increment": 2000}, full
assert full["state"]["moves"] == "" and full["state"]["status"] == "started", full
moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
for i, move in enumerate(moves):
    (alice if i % 2 == 0 else bob).board.make_move(game, move)
    state = next_of(states, "gameState")
    assert state["moves"] == " ".join(moves[: i + 1]), state
    assert state["wtime"].total_seconds() > 280, state  # berserk reads milliseconds
assert state["status"] == "mate" and state["winner"] == "white", state
assert states.get(timeout=TIMEOUT) is None, "the stream ends with the game"
finish = next_of(bob_events, "gameFinish")["game"]
assert finish["id"] == game and finish["winner"] == "white", finish
assert finish["status"]["name"] == "mate", finish
pgn = alice.games.export(game, as_pgn=True)
assert '[Result "1-0"]' in pgn and "Qxf7#" in pgn, pgn
assert '[White "Alice"]' in pgn and '[Black "Bob"]' in pgn, pgn
exported = alice.games.export(game)
assert exported["status"] == "mate" and exported["winner"] == "white", exported
assert exported["players"]["white"]["user"]["name"] == "Alice", exported
# The computer analysis (our path asks for it), read back through berserk's export.
asked = requests.post(f"{base}/api/games/{game}/analysis", timeout=TIMEOUT)
assert asked.status_code in (200, 202), asked.text
for _ in range(600):
    answer = requests.get(f"{base}/api/games/{game}/analysis", timeout=TIMEOUT)
    if answer.status_code == 200:
        break
    assert answer.status_code == 202, answer.text
    time.sleep(0.1)
assert answer.status_code == 200, answer.text
analysed = alice.games.export(game, evals=True)
analysis = analysed["analysis"]
assert len(analysis) == len(moves), analysed
assert all("eval" in a or "mate" in a for a in analysis[:-1]), analysis
assert analysis[-2]["mate"] == 1, analysis  # before Qxf7# White mates in one
blunders = [a for a in analysis if a.get("judgment", {}).get("name") == "Blunder"]
assert blunders and blunders[-1]["judgment"]["comment"].endswith(" was best."), analysis
assert analysed["players"]["black"]["analysis"]["blunder"] >= 1, analysed["players"]
assert 0 <= analysed["players"]["white"]["analysis"]["accuracy"] <= 100, analysed["players"]
pgn = alice.games.export(game, as_pgn=True, evals=True)
assert "[%eval " in pgn and "??" in pgn, pgn
alice_rating = alice.account.get()["perfs"]["standard"]
bob_rating = bob.account.get()["perfs"]["standard"]
assert alice_rating["rating"] > 1500 > bob_rating["rating"], (alice_rating, bob_rating)
assert alice_rating["games"] == 1 and alice_rating["prov"] is True, alice_rating

# A draw by agreement, a takeback declined, chat.
game = challenge_accepted(rated=False, clock_limit=600, clock_increment=0, color="black")
states = listen(bob.board.stream_game_state(game))
next_of(states, "gameFull")
bob.board.make_move(game, "d2d4")
next_of(states, "gameState")
alice.board.make_move(game, "d7d5")
next_of(states, "gameState")
alice.board.offer_takeback(game)
alice.board.post_message(game, "good luck")
line = next_of(states, "chatLine")
assert line["username"] == "Alice" and line["text"] == "good luck", line
assert [m["text"] for m in bob.board.get_game_chat(game)] == ["good luck"]
alice.board.offer_draw(game)
state = next_of(states, "gameState")
assert state["bdraw"] is True and state["wdraw"] is False, state
bob.board.accept_draw(game)
state = next_of(states, "gameState")
assert state["status"] == "draw" and "winner" not in state, state
assert states.get(timeout=TIMEOUT) is None, "the stream ends with the game"

# A resignation.
game = challenge_accepted(rated=False, clock_limit=600, clock_increment=0, color="white")
bob.board.resign_game(game)
states = listen(alice.board.stream_game_state(game))
full = next_of(states, "gameFull")
assert full["state"]["status"] == "resign" and full["state"]["winner"] == "white", full
assert states.get(timeout=TIMEOUT) is None, "a finished game's stream ends after gameFull"

# A rematch (our own path, with the personal tokens) keeps the accounts, colours swapped.
def rematch(token):
    answer = requests.post(f"{base}/api/board/game/{game}/rematch",
                           headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return answer.json()


rematch(alice_token)
again = rematch(bob_token)["game"]
start = next_of(alice_events, "gameStart")["game"]
assert start["id"] == again and start["color"] == "black", start
bob.board.make_move(again, "e2e4")
alice.board.make_move(again, "e7e5")
alice.board.resign_game(again)
assert alice.games.export(again)["winner"] == "white"

# Declined and canceled challenges.
made = alice.challenges.create("bob", rated=False, clock_limit=60, clock_increment=0)
next_of(bob_events, "challenge")
bob.challenges.decline(made["id"], reason="later")
declined = next_of(alice_events, "challengeDeclined")["challenge"]
assert declined["id"] == made["id"] and declined["declineReasonKey"] == "later", declined
made = alice.challenges.create("bob", rated=False, days=3)
next_of(bob_events, "challenge")
alice.challenges.cancel(made["id"])
canceled = next_of(bob_events, "challengeCanceled")["challenge"]
assert canceled["id"] == made["id"] and canceled["status"] == "canceled", canceled
try:
    bob.challenges.accept(made["id"])
    raise AssertionError("a canceled challenge was accepted")
except berserk.exceptions.ResponseError as e:
    assert e.status_code == 404, e

# A game against our engine.
ai = alice.challenges.create_ai(level=1, clock_limit=300, clock_increment=3, color="white")
assert ai["player"] == "white" and ai["source"] == "ai", ai
start = next_of(alice_events, "gameStart")["game"]
assert start["id"] == ai["id"] and start["opponent"]["ai"] == 1, start
states = listen(alice.board.stream_game_state(ai["id"]))
full = next_of(states, "gameFull")
assert full["black"] == {"aiLevel": 1}, full
alice.board.make_move(ai["id"], "e2e4")
assert next_of(states, "gameState")["moves"] == "e2e4"
reply = next_of(states, "gameState")
assert reply["moves"].startswith("e2e4 ") and len(reply["moves"].split()) == 2, reply
alice.board.resign_game(ai["id"])

# Two board seeks of the same terms make a game.
sought = threading.Thread(target=lambda: alice.board.seek(5, 0, rated=False), daemon=True)
sought.start()
bob_seek = threading.Thread(target=lambda: bob.board.seek(5, 0, rated=False), daemon=True)
bob_seek.start()
sought.join(TIMEOUT)
bob_seek.join(TIMEOUT)
assert not sought.is_alive() and not bob_seek.is_alive(), "seeks still open"
alice_start = next_of(alice_events, "gameStart")["game"]
bob_start = next_of(bob_events, "gameStart")["game"]
assert alice_start["id"] == bob_start["id"], (alice_start, bob_start)
assert {alice_start["color"], bob_start["color"]} == {"white", "black"}

print("ok")
