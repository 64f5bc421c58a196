# The analysis board (analysis.js) and a finished game's computer
# analysis (review.js). Scores (+0.35, #2), moves and percentages are
# passed already written.

## analysis.js: the analysis board

analysis-board-heading = Analysis board
analysis-variant = Variant
analysis-fen = FEN
analysis-fen-placeholder = the variant's start
analysis-pgn = or PGN
analysis-set-up = Set up
analysis-moves = Moves
analysis-flip = Flip board
analysis-lobby = lobby
# The title of the menu that asks which of several moves to the same square is meant.
analysis-which-move = Which move?
analysis-engine-thinking = The engine is thinking…
# $outcome: the server's words (checkmate, ...).
analysis-game-over = Game over: { $outcome }.
analysis-white-to-move = White to move.
analysis-black-to-move = Black to move.
# A simultaneous position: both sides choose a move each turn. $move: White's move (e2e4).
analysis-turn-white-chose = Turn { $turn }: White chose { $move }; now choose Black's move.
analysis-turn-choose = Turn { $turn }: choose White's move, then Black's.
# Headings of each side's mixed strategy in a simultaneous position.
analysis-white-plays = White plays
analysis-black-plays = Black plays
# Followed by the value, e.g. +0.250.
analysis-value-for-white = Value for White:
analysis-value-hint = (from −1, Black wins, to +1, White wins)
# How far the engine looked in a simultaneous position.
analysis-depth-turns = depth { $depth } turns
analysis-depth = depth { $depth }

## review.js: a finished game's computer analysis

analysis-review-label = Computer analysis
analysis-request = Request a computer analysis
analysis-review-running = The engine is analysing the game…
analysis-review-done = Computer analysis: { $ms } ms a position.
analysis-inaccuracy = Inaccuracy
analysis-mistake = Mistake
analysis-blunder = Blunder
# A judged move's comment: $judgment is one of the three words above; $best a move (e4).
analysis-judgment-best = { $judgment }. { $best } was best.
analysis-judgment = { $judgment }.
analysis-white = White
analysis-black = Black
# A costly turn's mark on the graph of a simultaneous game.
analysis-graph-turn = turn { $number }
# $from and $to: percentages (53%).
analysis-graph-label = Evaluation graph of { $moves } moves; White's winning chances from { $from } to { $to }
analysis-graph-label-simultaneous = White's expected score over { $turns } turns
# After a player's name in bold ("Alice: accuracy 85% · ..."). $accuracy: 85% or –.
analysis-player-turn-based = : accuracy { $accuracy } · { $inaccuracies ->
        [one] { $inaccuracies } inaccuracy
       *[other] { $inaccuracies } inaccuracies
    } · { $mistakes ->
        [one] { $mistakes } mistake
       *[other] { $mistakes } mistakes
    } · { $blunders ->
        [one] { $blunders } blunder
       *[other] { $blunders } blunders
    } · average centipawn loss { $acpl }
# After a player's name in bold. $loss: a percentage (3.5%).
analysis-player-simultaneous = : average expected loss { $loss } a turn · { $costly ->
        [one] { $costly } costly turn
       *[other] { $costly } costly turns
    }
analysis-turn-heading = Turn { $number }
# $score: a percentage.
analysis-turn-equilibrium = White's expected score at the equilibrium: { $score }.
# After a side's name in bold (White, Black). $loss: a percentage; $strategy: moves with percentages (e4 60%, d4 40%).
analysis-turn-played = {" "}played { $san }: expected loss { $loss }. Engine's strategy: { $strategy }.
# Under a turn of the move list. $white, $black: percentages.
analysis-turn-losses = expected loss: White { $white }, Black { $black }
