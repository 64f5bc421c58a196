"""A GUI-like client (python-chess) drives `parity uci`: every `go` gets an
answer, MultiPV analysis gives distinct lines, pondering works, and a
simultaneous variant without `go side` answers `bestmove (none)` with the
reason instead of hanging. Run by crates/cli/tests/python_chess.rs; exits
non-zero (an AssertionError or a timeout) when anything is wrong."""

import sys

import os
import chess
import chess.engine

exe = sys.argv[1]
limit = chess.engine.Limit(time=0.1)


class ParityBoard(chess.Board):
    """A board python-chess sends as `UCI_Variant parity` (it cannot play it)."""

    uci_variant = "parity"


with chess.engine.SimpleEngine.popen_uci([exe, "uci"], timeout=10) as engine:
    assert engine.id["name"].startswith("Parity"), engine.id
    for option in ("UCI_Variant", "MultiPV", "Ponder"):
        assert option in engine.options, option

    # Chess: a game of a few moves, pondering between them.
    board = chess.Board()
    for _ in range(4):
        result = engine.play(board, limit, ponder=True)
        assert result.move in board.legal_moves, result
        board.push(result.move)
        if result.ponder is not None:
            assert result.ponder in board.legal_moves, result
    # With a clock.
    result = engine.play(board, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.05, black_inc=0.05))
    assert result.move in board.legal_moves, result

    # MultiPV: three distinct first moves, best first.
    infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=5), multipv=3)
    assert len(infos) == 3, infos
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3, firsts
    scores = [info["score"].white().score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True), scores

    # A simultaneous variant without `go side`: an answer, not a hang.
    result = engine.play(ParityBoard(), limit, info=chess.engine.INFO_ALL)
    assert result.move is None, result
    assert "go side" in result.info.get("string", ""), result.info

    # And the engine is still usable afterwards.
    result = engine.play(chess.Board(), limit)
    assert result.move in chess.Board().legal_moves, result

    # A learned evaluation through the EvalNet option (bench/nets), then back.
    here = os.path.dirname(os.path.abspath(__file__))
    net = os.path.join(here, "..", "..", "..", "..", "bench", "nets", "chess-n256-540k.net")
    assert "EvalNet" in engine.options, list(engine.options)
    engine.configure({"EvalNet": os.path.normpath(net)})
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    result = engine.play(board, chess.engine.Limit(depth=6))
    assert result.move in board.legal_moves, result
    learned = engine.analyse(board, chess.engine.Limit(depth=1))["score"]
    engine.configure({"EvalNet": "none"})
    result = engine.play(board, chess.engine.Limit(depth=4))
    assert result.move in board.legal_moves, result
    terms = engine.analyse(board, chess.engine.Limit(depth=1))["score"]
    assert learned != terms, (learned, terms)

print("ok")
