# Le compte dans l'en-tête (account.js) et la cloche des notifications (bell.js).

## Connexion, inscription, déconnexion
account-name = Nom
account-password = Mot de passe
account-cancel = Annuler
account-log-in = Se connecter
account-sign-up = S'inscrire
account-log-out = Se déconnecter

## La cloche
account-bell-label = Notifications
account-bell-unread = { $count ->
    [one] Notifications : { $count } non lue
   *[other] Notifications : { $count } non lues
 }
account-bell-empty = Rien pour l'instant. Vous serez prévenu ici quand ce sera votre tour dans une partie par correspondance ou quand quelqu'un vous défiera.
account-bell-just-now = à l'instant
account-bell-minutes-ago = il y a { $count } min
account-bell-hours-ago = il y a { $count } h
account-bell-days-ago = { $count ->
    [one] il y a { $count } jour
   *[other] il y a { $count } jours
 }
