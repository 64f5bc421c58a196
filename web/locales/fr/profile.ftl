# Le profil d'un joueur (profile.js) : classements, parties, jetons d'API, connexions.

profile-ratings-heading = Classements
profile-games-heading = Parties
profile-no-rated-games = Aucune partie classée pour l'instant.
profile-games-count = { $count ->
        [one] { $count } partie
       *[other] { $count } parties
    }
profile-rating-history = historique du classement
profile-no-games = Aucune partie pour l'instant.
profile-column-game = Partie
profile-column-opponent = Adversaire
profile-column-colour = Couleur
profile-column-result = Résultat
profile-rated = classée
profile-casual = amicale
profile-anonymous = anonyme
profile-color = { $color ->
        [white] blancs
        [black] noirs
       *[other] { $color }
    }
profile-game-status = { $status ->
        [waiting] en attente
        [started] en cours
        [finished] terminée
       *[other] { $status }
    }
profile-result-won = { $result } gagnée
profile-result-lost = { $result } perdue
profile-more-games = Plus de parties

## Son propre profil : jetons d'accès personnels

profile-tokens-heading = Jetons d'accès API personnels
profile-tokens-help = Pour les outils qui parlent l'API de lichess (berserk, lichess-bot) : envoyez-le dans l'en-tête { $header }.
profile-make-token = Créer un jeton
profile-token-shown = Copiez-le maintenant, il ne sera plus affiché :
profile-column-token = Jeton
profile-column-scopes = Portées
profile-column-made = Créé le
profile-revoke = Révoquer
profile-no-tokens = aucun

## Son propre profil : connexions

profile-sessions-heading = Connexions
profile-sessions-help = Où ce compte est connecté. Une connexion prend fin quand elle reste inutilisée un moment, ou ici.
profile-column-browser = Navigateur
profile-column-logged-in = Connecté le
profile-column-last-used = Dernière utilisation
profile-unknown-browser = inconnu
profile-this-session = celle-ci
profile-log-out = Se déconnecter
