# The lobby (lobby.js), its lists of challenges and of one's games
# (challenges.js, mygames.js), the fields of a game's terms (terms.js) and
# the move navigation of the game and analysis pages (navigation.js).

## The lobby's headings and the new-game form
lobby-your-games = Your games
lobby-variants = Variants
lobby-new-game = New game
lobby-variant = Variant
lobby-time = Time
lobby-live-clock = Live clock
lobby-minutes = minutes
lobby-increment = + seconds
lobby-correspondence = Correspondence
lobby-days-per-move = days per move
lobby-opponent = Opponent
lobby-engine = Engine
lobby-level = level
# The engine level's strength, a rating rounded to 50.
lobby-level-rating = about { $rating }
lobby-friend = A friend (invite link)
lobby-your-colour = Your colour
lobby-white = White
lobby-random = Random
lobby-black = Black
lobby-start-position = Start position (FEN, optional)
lobby-fen-placeholder = the variant's start
lobby-list-publicly = List this game publicly
lobby-create-game = Create game
lobby-variants-failed = cannot load the variants: { $error }
# A variant card's family, after its board size (8x8 · one move at a time).
lobby-family = { $family ->
    [turn-based] one move at a time
    [crowd] crowds
    [simultaneous] simultaneous moves
   *[other] { $family }
 }

## Lists of games
lobby-games-in-progress = Games in progress
lobby-finished-games = Finished games
lobby-col-game = Game
lobby-col-players = Players
lobby-col-turn = Turn
lobby-col-result = Result
lobby-col-player = Player
lobby-col-range = Range
lobby-none = none
# A seat of a listed game: the server's kind of player.
lobby-seat = { $kind ->
    [engine] engine { $level }
    [human] human
   *[other] { $kind }
 }
# A listed game without a result yet: its status.
lobby-status = { $status ->
    [waiting] waiting
    [started] started
    [finished] finished
   *[other] { $status }
 }

## Seeks
lobby-challenges = Challenges
lobby-open-seeks = Open seeks
# $variant: the variant's name, in bold; then the clocks' buttons (3+2...).
lobby-quick-pairing = Quick pairing, rated, { $variant }:
lobby-colour = Colour
lobby-opponent-rating = opponent rating
# A rating range left open.
lobby-any = any
lobby-seek-a-game = Seek a game
lobby-seek-login = Log in to post a seek or accept one.
lobby-accept = Accept
lobby-decline = Decline
lobby-cancel = Cancel
lobby-rated = rated
lobby-casual = casual
# The colour a seek or challenge asks for, and the colour select's options.
lobby-color = { $color ->
    [white] white
    [black] black
    [random] random
   *[other] { $color }
 }
# Correspondence: days per move.
lobby-days = { $count ->
    [one] { $count } day
   *[other] { $count } days
 }

## A game's terms (seek and challenge forms)
lobby-terms-increment = + s
lobby-terms-days = days

## Challenges
# $player: the player's name (a link) and rating.
lobby-challenge-from = from { $player }
lobby-challenge-to = to { $player }
lobby-challenge-heading = Challenge to a game
lobby-challenge-send = Challenge
lobby-challenge-waiting = Waiting for { $name } to accept…
lobby-challenge-canceled = Challenge canceled.
# $reason: the reason the player gave, as the server says it.
lobby-challenge-declined = { $name } declined: { $reason }
lobby-challenge-no-reason = no reason given

## Your games (the lobby's list and the header's count)
lobby-my-games-engine = Engine, level { $level }
lobby-my-games-friend-invited = Friend (invited)
lobby-my-games-anonymous = Anonymous
lobby-my-games-your-turn = Your turn
lobby-my-games-waiting = Waiting
lobby-my-games-whose-move = Whose move
lobby-my-games-time-left = Time left
lobby-my-games-badge = Your games: { $count }
# How many of them wait for the player's move.
lobby-my-games-badge-turns = { $count } your turn
# Time left on a clock: "2 days 23h", "1h 20m".
lobby-time-left-days = { $days ->
    [one] { $days } day { $hours }h
   *[other] { $days } days { $hours }h
 }
lobby-time-left-hours = { $hours }h { $minutes }m

## Move navigation (game and analysis pages)
lobby-nav-group = move navigation
lobby-nav-first = first position
lobby-nav-first-title = first position (Home, ↑)
lobby-nav-prev = previous position
lobby-nav-prev-title = previous position (←)
lobby-nav-next = next position
lobby-nav-next-title = next position (→)
lobby-nav-last = last position
lobby-nav-last-title = last position (End, ↓)
lobby-nav-copy = Copy
lobby-nav-analyse = analyse
