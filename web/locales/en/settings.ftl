# The settings page (settings.js), and the page's own words for a failed
# request (api.js).

settings-heading = Settings
# $name: the account's user name.
settings-where-account = Saved with your account, { $name }.
settings-where-browser = Saved in this browser (log in to keep them with an account).
settings-board-colours = Board colours
settings-theme-brown = Brown
settings-theme-blue = Blue
settings-theme-green = Green
settings-theme-grey = Grey
settings-pieces = Pieces
# The piece set drawn for Parity.
settings-pieces-parity = Parity (drawn)
settings-pieces-letters = Letters
settings-play = Play
settings-sound = Sounds
settings-animation = Animate moves
settings-animation-help = Never when the system asks for reduced motion.
settings-premove = Premoves
settings-premove-help = Pick your next move while the opponent thinks (turn-based games).
settings-confirm-commit = Confirm simultaneous moves
settings-confirm-commit-help = Ask before your move of a simultaneous turn is committed.
settings-language = Language
# The language choice that follows the browser's. The languages themselves
# are named in their own language.
settings-language-auto = The browser's
settings-notifications = Notifications
settings-notifications-help = The bell in the header tells you when it is your turn in a correspondence game or someone challenges you.
settings-email = E-mail address
settings-notify-email = Also tell me by e-mail (several at once come in one mail)
settings-mail-off = This server sends no mail.
settings-push = Notifications in this browser, even when the page is closed
settings-push-unsupported = This browser cannot receive pushed notifications.
settings-push-on = This browser will be notified.
settings-push-off = This browser will not be notified.
settings-saved = Saved.
# Errors shown when the browser refuses pushed notifications.
settings-push-unsupported-error = this browser cannot receive pushed notifications
settings-push-blocked = notifications are blocked for this site in the browser

## api.js: a request that got no answer from the server

# $error: the browser's own message.
settings-network-error = network error: { $error }
# $status: the HTTP status (404).
settings-http-error = error { $status }
