# The game page: the board, the players, the status line, the moves, the
# actions and the chat (game.js, gameview.js, simturn.js, board.js,
# chat.js, pieces.js). $color is always "white" or "black"; $result is a
# game's result as PGN writes it (1-0, 0-1, 1/2-1/2); $move a move as
# written (e4, e2e4); $square a square's name (e4).

## The pieces (screen readers, menus over the board). $color: "white",
## "black", or anything else for the bare name (a promotion's choice).

game-piece-pawn = { $color ->
        [white] white pawn
        [black] black pawn
       *[other] pawn
    }
game-piece-knight = { $color ->
        [white] white knight
        [black] black knight
       *[other] knight
    }
game-piece-bishop = { $color ->
        [white] white bishop
        [black] black bishop
       *[other] bishop
    }
game-piece-rook = { $color ->
        [white] white rook
        [black] black rook
       *[other] rook
    }
game-piece-queen = { $color ->
        [white] white queen
        [black] black queen
       *[other] queen
    }
game-piece-king = { $color ->
        [white] white king
        [black] black king
       *[other] king
    }
# Fairy pieces. Champion: moves as W+A+D.
game-piece-champion = { $color ->
        [white] white champion
        [black] black champion
       *[other] champion
    }
# FAD: a fairy piece named by its moves (F+A+D), kept as a name.
game-piece-fad = { $color ->
        [white] white fad
        [black] black fad
       *[other] fad
    }
# Amazon: queen + knight.
game-piece-amazon = { $color ->
        [white] white amazon
        [black] black amazon
       *[other] amazon
    }
# Empress: rook + knight.
game-piece-empress = { $color ->
        [white] white empress
        [black] black empress
       *[other] empress
    }
# Princess: bishop + knight.
game-piece-princess = { $color ->
        [white] white princess
        [black] black princess
       *[other] princess
    }
# A piece the catalogue does not know: $name is the variant's name for it.
game-piece-other = { $color ->
        [white] white { $name }
        [black] black { $name }
       *[other] { $name }
    }

## The board (board.js)

# What the board is, for a screen reader.
game-board = board
game-board-keys = board: arrow keys move the cursor, Enter or Space picks its square
# The keyboard cursor's square and what stands on it ($pieces: pieces in words, comma-separated).
game-cursor = { $square }: { $pieces }
game-cursor-empty = empty
# The tooltip of the mark on a piece that moved last turn (simultaneous games).
game-waiting-mark = { $color ->
        [white] white
       *[black] black
    } moved here last turn and must wait
# The menu over the board (a promotion, the piece out of a crowd).
game-chooser-cancel = cancel

## The page's fixed parts (gameview.js)

game-turn-help =
    Each turn both players choose a move in secret: the page commits
    yours (seals it, unseen) as soon as you pick it. When both are committed, both moves are revealed and
    resolved together, so a piece may dodge a capture or share a square with an enemy.
game-got-it = Got it
# The move field: its name for a screen reader, and its hint.
game-move-label = move
game-move-placeholder = type a move (e2e4) and press Enter
game-play = Play
game-flip = Flip board
game-resign = Resign
game-offer-draw = Offer draw
game-abort = Abort
game-berserk = Berserk
game-berserk-title = halve your clock for an extra point on a win
game-rematch = Rematch
game-accept-rematch = Accept rematch
game-claim-victory = Claim victory
# A link that downloads the game's record.
game-pgn = PGN
game-sound-on = Sound on
game-sound-off = Sound off
# $variant: the variant's name (markup, kept as it is).
game-rules-of = Rules of { $variant }
game-moves = Moves
game-lobby = lobby
# The live feed's state, in the footer (must not read like a time control).
game-connecting = connecting…
game-conn-live = connected
game-conn-reconnecting = reconnecting…
game-conn-polling = updating every few seconds

## The players

# A player's line: the side, then who plays it ($player: one of the game-seat-* below, or an account's name).
game-seat = { $color ->
        [white] White
       *[black] Black
    }: { $player }
game-seat-you = You
# An account's name, on this player's own side (a rating may follow).
game-seat-you-named = You, { $name }
game-seat-engine = Engine, level { $level }
game-seat-invited = Friend (invited)
game-seat-human = Human
# A clock with a day or more left: 2d 5h.
game-clock-days = { $days }d { $hours }h

## The status line

game-waiting-opponent = Waiting for the opponent to join.
game-your-move = Your move.
game-to-move = { $color ->
        [white] White
       *[black] Black
    } to move.
# The end of a game, to a spectator ($why: one of game-reason-*).
game-over = Game over: { $result }.
game-over-why = Game over: { $result } ({ $why }).
# The end of a game, to a player: $how is one of game-how-*.
game-you-won-how = You won { $how } ({ $result }).
game-you-lost-how = You lost { $how } ({ $result }).
# ... when the reason has no game-how-*: $why is one of game-reason-*.
game-you-won-why = You won: { $why } ({ $result }).
game-you-lost-why = You lost: { $why } ({ $result }).
game-you-won = You won ({ $result }).
game-you-lost = You lost ({ $result }).
game-draw-why = Draw by { $why } ({ $result }).
game-draw = Draw ({ $result }).
# After the end of a rated game: the new rating and the change ($diff: +12, −7, ±0).
game-your-rating = Your rating: { $rating } ({ $diff }).
# How a game was won or lost, after "You won" / "You lost".
game-how-checkmate = by checkmate
game-how-resignation = by resignation
game-how-time = on time
game-how-no-reveal = by a move never revealed
game-how-no-legal-move = by having no legal move
game-how-both-checkmated = with both kings mated
game-how-stalemate = by stalemate
# Why a game ended.
game-reason-checkmate = checkmate
game-reason-stalemate = stalemate
game-reason-no-legal-move = no legal move
game-reason-both-checkmated = both kings checkmated
game-reason-kings-share-square = the kings share a square
game-reason-fifty-moves = fifty-move rule
game-reason-repetition = repetition
game-reason-insufficient-material = insufficient material
game-reason-resignation = resignation
game-reason-agreement = agreement
game-reason-time = out of time
game-reason-abort = aborted
game-reason-no-reveal = a move was never revealed

## Simultaneous turns (simturn.js): each side commits a move in secret
## (sends its sealed hash), then both are revealed.

# A player's state during a turn, beside the name.
game-commit-revealed = revealed
game-commit-committed = committed
game-commit-choosing = choosing…
game-turn-both-choose = Turn { $turn }: both sides choose.
game-turn-your-move = Turn { $turn }: your move.
game-turn-your-move-opponent = Turn { $turn }: your move (opponent has committed).
game-turn-waiting = Turn { $turn }: committed, waiting for opponent.
game-turn-revealing = Turn { $turn }: both committed, revealing…
game-turn-claim = Turn { $turn }: your opponent did not reveal in time; you may claim the game.
# $time: a time of day (19:30).
game-turn-claim-at = Turn { $turn }: waiting for your opponent's reveal; if it has not come by { $time }, you may claim the game.
# This player's move was committed from another device, which alone can reveal it.
game-elsewhere-clock = Your committed move for turn { $turn } is not on this device; it cannot be revealed here. Reveal it on the device you chose it on: your clock runs until it is revealed, and if it runs out you lose on "no reveal".
game-elsewhere-deadline = Your committed move for turn { $turn } is not on this device; it cannot be revealed here. If it is not revealed from the device you chose it on by the reveal deadline, your opponent may claim the game ("no reveal").

## The moves and a turn's notes

# The title of a turn's notes.
game-turn-title = Turn { $turn }
# A side's name, before its move in a turn's notes.
game-side = { $color ->
        [white] White
       *[black] Black
    }
# One side's note on a turn ($text: the server's words, such as "takes pawn").
game-side-note = { $color ->
        [white] White
       *[black] Black
    }: { $text }

## Offers and the invite

game-you-offered-draw = You offered a draw.
game-offers-draw = { $color ->
        [white] White
       *[black] Black
    } offers a draw.
game-accept = Accept
game-decline = Decline
game-cancel = Cancel
# $link: a link whose text is game-rematch-open.
game-rematch-link = Rematch: { $link }
game-rematch-open = open the new game
game-rematch-offered = Rematch offered: waiting for your opponent.
game-asks-rematch = { $color ->
        [white] White
       *[black] Black
    } asks for a rematch.
game-invite-send = Send this link to your friend:
game-copy = Copy

## A game the server does not know

game-no-such-game = No such game
# $id: the game's id (markup).
game-no-such-game-text = There is no game { $id } on this server.
game-back-to-lobby = Back to the lobby

## Passing words to the player (game.js)

game-draw-declined = Your draw offer was declined.
game-rematch-you-withdrew = You withdrew your rematch offer.
game-rematch-you-declined = You declined the rematch.
game-rematch-declined = Your rematch offer was declined.
game-rematch-withdrawn = { $color ->
        [white] White
       *[black] Black
    } withdrew the rematch offer.
game-crowd-no-join = The piece on { $from } may not join your own pieces on { $square }: a crowd forms only where an enemy piece stands.
game-piece-must-wait = Your piece on { $square } moved last turn and must wait this turn.
game-king-in-check = Your king is in immediate check: only the king may move.
game-piece-no-move = Your piece on { $square } has no legal move.
# A move queued during the opponent's turn ($from, $to: squares).
game-premove-dropped = Premove { $from }-{ $to } dropped: it is not legal now.
# The moves just played, for a screen reader.
game-announce-move = { $color ->
        [white] White
       *[black] Black
    } played { $move }.
game-announce-turn = Turn { $turn }: White { $white }, Black { $black }.
# $notes: the turn's notes, as game-side-note joined by " · ".
game-announce-turn-notes = Turn { $turn }: White { $white }, Black { $black }. { $notes }.

## Choosing a move on the board

# The menu over a square with several pieces (always two or more).
game-crowd-pieces = { $count ->
        [one] { $count } piece on { $square }
       *[other] { $count } pieces on { $square }
    }
game-crowd-which = { $count ->
        [one] { $count } piece on { $square }: which one moves?
       *[other] { $count } pieces on { $square }: which one moves?
    }
# Several moves between the same two squares.
game-which-move = Which move?
game-promote-to = Promote to
game-choose-castle = castle with the rook on { $square }
game-choose-join = join (share the square)
game-choose-capture = capture
# The setting "confirm simultaneous moves": the move, before it is committed.
game-commit-confirm = Commit { $move }?
game-commit-button = Commit { $move }
game-resign-confirm = Resign this game?
# Errors of the move field.
game-error-already-chosen = you have already chosen this turn
game-error-not-your-move = it is not your move
game-error-not-legal = { $move } is not a legal move now

## The chat (chat.js)

game-chat = Chat
game-chat-label = chat message
game-chat-placeholder = say something
game-chat-send = Send
game-chat-login = Log in or hold a seat to chat.
