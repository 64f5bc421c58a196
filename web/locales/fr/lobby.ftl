# Le salon (lobby.js), ses listes de défis et de vos parties
# (challenges.js, mygames.js), les champs des conditions d'une partie
# (terms.js) et la navigation dans les coups (navigation.js).

## Titres du salon et formulaire de nouvelle partie
lobby-your-games = Vos parties
lobby-variants = Variantes
lobby-new-game = Nouvelle partie
lobby-variant = Variante
lobby-time = Cadence
lobby-live-clock = Temps réel
lobby-minutes = minutes
lobby-increment = + secondes
lobby-correspondence = Correspondance
lobby-days-per-move = jours par coup
lobby-opponent = Adversaire
lobby-engine = Ordinateur
lobby-level = niveau
# La force du niveau de l'ordinateur, un classement arrondi à 50.
lobby-level-rating = environ { $rating }
lobby-friend = Un ami (lien d'invitation)
lobby-your-colour = Votre couleur
lobby-white = Blancs
lobby-random = Au hasard
lobby-black = Noirs
lobby-start-position = Position de départ (FEN, facultatif)
lobby-fen-placeholder = celle de la variante
lobby-list-publicly = Afficher cette partie publiquement
lobby-create-game = Créer la partie
lobby-variants-failed = impossible de charger les variantes : { $error }
# La famille d'une variante, après la taille de son échiquier (8x8 · un coup à la fois).
lobby-family = { $family ->
    [turn-based] un coup à la fois
    [crowd] foules
    [simultaneous] coups simultanés
   *[other] { $family }
 }

## Listes de parties
lobby-games-in-progress = Parties en cours
lobby-finished-games = Parties terminées
lobby-col-game = Partie
lobby-col-players = Joueurs
lobby-col-turn = Tour
lobby-col-result = Résultat
lobby-col-player = Joueur
lobby-col-range = Fourchette
lobby-none = aucune
# Un camp d'une partie listée : le genre de joueur selon le serveur.
lobby-seat = { $kind ->
    [engine] ordinateur { $level }
    [human] humain
   *[other] { $kind }
 }
# Une partie listée sans résultat : son état.
lobby-status = { $status ->
    [waiting] en attente
    [started] en cours
    [finished] terminée
   *[other] { $status }
 }

## Propositions de partie
lobby-challenges = Défis
lobby-open-seeks = Parties proposées
lobby-quick-pairing = Appariement rapide, partie classée, { $variant } :
lobby-colour = Couleur
lobby-opponent-rating = classement de l'adversaire
lobby-any = indifférent
lobby-seek-a-game = Proposer une partie
lobby-seek-login = Connectez-vous pour proposer une partie ou en accepter une.
lobby-accept = Accepter
lobby-decline = Refuser
lobby-cancel = Annuler
lobby-rated = classée
lobby-casual = amicale
lobby-color = { $color ->
    [white] blancs
    [black] noirs
    [random] au hasard
   *[other] { $color }
 }
lobby-days = { $count ->
    [one] { $count } jour
   *[other] { $count } jours
 }

## Conditions d'une partie (propositions et défis)
lobby-terms-increment = + s
lobby-terms-days = jours

## Défis
lobby-challenge-from = de { $player }
lobby-challenge-to = à { $player }
lobby-challenge-heading = Défier à une partie
lobby-challenge-send = Défier
lobby-challenge-waiting = En attente de la réponse de { $name }…
lobby-challenge-canceled = Défi annulé.
lobby-challenge-declined = { $name } a refusé : { $reason }
lobby-challenge-no-reason = sans raison donnée

## Vos parties (la liste du salon et le compte de l'en-tête)
lobby-my-games-engine = Ordinateur, niveau { $level }
lobby-my-games-friend-invited = Ami (invité)
lobby-my-games-anonymous = Anonyme
lobby-my-games-your-turn = À vous de jouer
lobby-my-games-waiting = En attente
lobby-my-games-whose-move = Au trait
lobby-my-games-time-left = Temps restant
lobby-my-games-badge = Vos parties : { $count }
lobby-my-games-badge-turns = { $count } à vous de jouer
lobby-time-left-days = { $days ->
    [one] { $days } jour { $hours } h
   *[other] { $days } jours { $hours } h
 }
lobby-time-left-hours = { $hours } h { $minutes } min

## Navigation dans les coups (pages de partie et d'analyse)
lobby-nav-group = navigation dans les coups
lobby-nav-first = première position
lobby-nav-first-title = première position (Début, ↑)
lobby-nav-prev = position précédente
lobby-nav-prev-title = position précédente (←)
lobby-nav-next = position suivante
lobby-nav-next-title = position suivante (→)
lobby-nav-last = dernière position
lobby-nav-last-title = dernière position (Fin, ↓)
lobby-nav-copy = Copier
lobby-nav-analyse = analyser
