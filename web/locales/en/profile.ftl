# A player's profile (profile.js): ratings, games, API tokens, log-ins.

profile-ratings-heading = Ratings
profile-games-heading = Games
profile-no-rated-games = No rated games yet.
# Rated games of one variant.
profile-games-count = { $count ->
        [one] { $count } game
       *[other] { $count } games
    }
# The accessible name of the graph of ratings.
profile-rating-history = rating history
profile-no-games = No games yet.
profile-column-game = Game
profile-column-opponent = Opponent
profile-column-colour = Colour
profile-column-result = Result
profile-rated = rated
profile-casual = casual
# A game's opponent who played without an account.
profile-anonymous = anonymous
# The colour the player had in a game.
profile-color = { $color ->
        [white] white
        [black] black
       *[other] { $color }
    }
# An unfinished game's state, in the Result column.
profile-game-status = { $status ->
        [waiting] waiting
        [started] started
        [finished] finished
       *[other] { $status }
    }
# $result: 1-0, 0-1.
profile-result-won = { $result } won
profile-result-lost = { $result } lost
profile-more-games = More games

## One's own profile: personal API tokens

profile-tokens-heading = Personal API tokens
# $header: the HTTP header, shown as code.
profile-tokens-help = For tools that speak lichess's API (berserk, lichess-bot): send it as { $header }.
profile-make-token = Make a token
# Before the new token, shown once.
profile-token-shown = Copy it now, it is not shown again:
profile-column-token = Token
profile-column-scopes = Scopes
profile-column-made = Made
profile-revoke = Revoke
profile-no-tokens = none

## One's own profile: log-ins

profile-sessions-heading = Log-ins
profile-sessions-help = Where this account is logged in. A log-in ends when it goes unused for a while, or here.
profile-column-browser = Browser
profile-column-logged-in = Logged in
profile-column-last-used = Last used
# A log-in whose browser is not known.
profile-unknown-browser = unknown
# The log-in of the browser showing the page.
profile-this-session = this one
profile-log-out = Log out
