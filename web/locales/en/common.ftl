# The page's header and words used on every page. Each area of the page
# has its own file (lobby.ftl, game.ftl, ...); ids start with the area.

common-tagline = simultaneous, crowd and fairy chess
common-settings = Settings
common-needs-javascript = This page needs JavaScript.
common-nav-your-games = your games
common-nav-account = account
common-nav-notifications = notifications

# app.js
common-invite-failed = could not join with this invite: { $error }
common-tournaments = Tournaments
