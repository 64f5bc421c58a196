# La page des réglages (settings.js), et les mots de la page pour une
# requête qui échoue (api.js).

settings-heading = Réglages
settings-where-account = Enregistrés avec votre compte, { $name }.
settings-where-browser = Enregistrés dans ce navigateur (connectez-vous pour les garder avec un compte).
settings-board-colours = Thème du plateau
settings-theme-brown = Marron
settings-theme-blue = Bleu
settings-theme-green = Vert
settings-theme-grey = Gris
settings-pieces = Pièces
settings-pieces-parity = Parity (dessinées)
settings-pieces-letters = Lettres
settings-play = Jeu
settings-sound = Sons
settings-animation = Animation des coups
settings-animation-help = Jamais quand le système demande de réduire les animations.
settings-premove = Coups anticipés (premoves)
settings-premove-help = Choisissez votre prochain coup pendant que l'adversaire réfléchit (parties au tour par tour).
settings-confirm-commit = Confirmer les coups simultanés
settings-confirm-commit-help = Demander avant que votre coup d'un tour simultané soit validé.
settings-language = Langue
settings-language-auto = Celle du navigateur
settings-notifications = Notifications
settings-notifications-help = La cloche en haut de la page vous prévient quand c'est votre tour dans une partie par correspondance ou quand quelqu'un vous défie.
settings-email = Adresse e-mail
settings-notify-email = Me prévenir aussi par e-mail (plusieurs à la fois arrivent dans un seul message)
settings-mail-off = Ce serveur n'envoie pas d'e-mails.
settings-push = Notifications dans ce navigateur, même quand la page est fermée
settings-push-unsupported = Ce navigateur ne peut pas recevoir de notifications push.
settings-push-on = Ce navigateur recevra les notifications.
settings-push-off = Ce navigateur ne recevra plus les notifications.
settings-saved = Enregistré.
settings-push-unsupported-error = ce navigateur ne peut pas recevoir de notifications push
settings-push-blocked = les notifications sont bloquées pour ce site dans le navigateur

## api.js : une requête restée sans réponse du serveur

settings-network-error = erreur réseau : { $error }
settings-http-error = erreur { $status }
