# La page d'une partie : l'échiquier, les joueurs, la ligne d'état, les
# coups, les actions et la discussion. $color vaut toujours "white" ou
# "black" ; $result est le résultat tel que l'écrit le PGN (1-0, 0-1,
# 1/2-1/2) ; $move un coup tel qu'écrit (e4, e2e4) ; $square une case (e4).
# Coups simultanés : « valider » un coup (l'envoyer scellé, en secret),
# puis le « révéler ».

## Les pièces (lecteurs d'écran, menus sur l'échiquier). $color : "white",
## "black", ou autre chose pour le nom seul (le choix d'une promotion).

game-piece-pawn = { $color ->
        [white] pion blanc
        [black] pion noir
       *[other] pion
    }
game-piece-knight = { $color ->
        [white] cavalier blanc
        [black] cavalier noir
       *[other] cavalier
    }
game-piece-bishop = { $color ->
        [white] fou blanc
        [black] fou noir
       *[other] fou
    }
game-piece-rook = { $color ->
        [white] tour blanche
        [black] tour noire
       *[other] tour
    }
game-piece-queen = { $color ->
        [white] dame blanche
        [black] dame noire
       *[other] dame
    }
game-piece-king = { $color ->
        [white] roi blanc
        [black] roi noir
       *[other] roi
    }
# Pièces féeriques. Champion : se déplace comme W+A+D.
game-piece-champion = { $color ->
        [white] champion blanc
        [black] champion noir
       *[other] champion
    }
# FAD : une pièce féerique nommée d'après ses sauts (F+A+D), nom gardé.
game-piece-fad = { $color ->
        [white] FAD blanc
        [black] FAD noir
       *[other] FAD
    }
# Amazone : dame + cavalier.
game-piece-amazon = { $color ->
        [white] amazone blanche
        [black] amazone noire
       *[other] amazone
    }
# Impératrice : tour + cavalier.
game-piece-empress = { $color ->
        [white] impératrice blanche
        [black] impératrice noire
       *[other] impératrice
    }
# Princesse : fou + cavalier.
game-piece-princess = { $color ->
        [white] princesse blanche
        [black] princesse noire
       *[other] princesse
    }
# Une pièce que le catalogue ne connaît pas : $name est son nom dans la variante.
game-piece-other = { $color ->
        [white] { $name } blanc
        [black] { $name } noir
       *[other] { $name }
    }

## L'échiquier (board.js)

game-board = échiquier
game-board-keys = échiquier : les flèches déplacent le curseur, Entrée ou Espace choisit sa case
game-cursor = { $square } : { $pieces }
game-cursor-empty = vide
game-waiting-mark = { $color ->
        [white] la pièce blanche
       *[black] la pièce noire
    } a joué ici au tour précédent et doit attendre
game-chooser-cancel = annuler

## Les parties fixes de la page (gameview.js)

game-turn-help =
    À chaque tour, les deux joueurs choisissent un coup en secret : la page valide
    le vôtre (le scelle, sans le montrer) dès que vous le choisissez. Quand les deux sont validés, les deux coups sont révélés et
    joués ensemble : une pièce peut ainsi esquiver une prise ou partager une case avec une pièce ennemie.
game-got-it = Compris
game-move-label = coup
game-move-placeholder = tapez un coup (e2e4) puis Entrée
game-play = Jouer
game-flip = Retourner l'échiquier
game-resign = Abandonner
game-offer-draw = Proposer la nulle
game-abort = Annuler la partie
game-berserk = Berserk
game-berserk-title = divisez votre temps par deux pour un point de plus en cas de victoire
game-rematch = Revanche
game-accept-rematch = Accepter la revanche
game-claim-victory = Réclamer la victoire
game-pgn = PGN
game-sound-on = Son activé
game-sound-off = Son coupé
game-rules-of = Règles : { $variant }
game-moves = Coups
game-lobby = salon
game-connecting = connexion…
game-conn-live = connecté
game-conn-reconnecting = reconnexion…
game-conn-polling = mise à jour à quelques secondes d'intervalle

## Les joueurs

game-seat = { $color ->
        [white] Blancs
       *[black] Noirs
    } : { $player }
game-seat-you = Vous
game-seat-you-named = Vous, { $name }
game-seat-engine = Ordinateur, niveau { $level }
game-seat-invited = Ami (invité)
game-seat-human = Humain
game-clock-days = { $days } j { $hours } h

## La ligne d'état

game-waiting-opponent = En attente de l'adversaire.
game-your-move = À vous de jouer.
game-to-move = { $color ->
        [white] Aux Blancs
       *[black] Aux Noirs
    } de jouer.
game-over = Partie terminée : { $result }.
game-over-why = Partie terminée : { $result } ({ $why }).
game-you-won-how = Vous avez gagné { $how } ({ $result }).
game-you-lost-how = Vous avez perdu { $how } ({ $result }).
game-you-won-why = Vous avez gagné : { $why } ({ $result }).
game-you-lost-why = Vous avez perdu : { $why } ({ $result }).
game-you-won = Vous avez gagné ({ $result }).
game-you-lost = Vous avez perdu ({ $result }).
game-draw-why = Nulle : { $why } ({ $result }).
game-draw = Nulle ({ $result }).
game-your-rating = Votre classement : { $rating } ({ $diff }).
game-how-checkmate = par échec et mat
game-how-resignation = par abandon
game-how-time = au temps
game-how-no-reveal = par un coup jamais révélé
game-how-no-legal-move = faute de coup légal
game-how-both-checkmated = avec les deux rois mats
game-how-stalemate = par pat
game-reason-checkmate = échec et mat
game-reason-stalemate = pat
game-reason-no-legal-move = aucun coup légal
game-reason-both-checkmated = les deux rois sont mats
game-reason-kings-share-square = les rois partagent une case
game-reason-fifty-moves = règle des cinquante coups
game-reason-repetition = répétition
game-reason-insufficient-material = matériel insuffisant
game-reason-resignation = abandon
game-reason-agreement = accord mutuel
game-reason-time = temps écoulé
game-reason-abort = partie annulée
game-reason-no-reveal = un coup n'a jamais été révélé

## Tours simultanés (simturn.js)

game-commit-revealed = révélé
game-commit-committed = validé
game-commit-choosing = choisit…
game-turn-both-choose = Tour { $turn } : les deux camps choisissent.
game-turn-your-move = Tour { $turn } : à vous de jouer.
game-turn-your-move-opponent = Tour { $turn } : à vous de jouer (l'adversaire a validé).
game-turn-waiting = Tour { $turn } : coup validé, en attente de l'adversaire.
game-turn-revealing = Tour { $turn } : les deux coups sont validés, révélation…
game-turn-claim = Tour { $turn } : votre adversaire n'a pas révélé à temps ; vous pouvez réclamer la partie.
game-turn-claim-at = Tour { $turn } : en attente de la révélation de votre adversaire ; si elle n'est pas arrivée à { $time }, vous pourrez réclamer la partie.
game-elsewhere-clock = Votre coup validé pour le tour { $turn } n'est pas sur cet appareil ; il ne peut pas être révélé ici. Révélez-le sur l'appareil où vous l'avez choisi : votre pendule tourne jusqu'à sa révélation, et si elle tombe, vous perdez pour « coup non révélé ».
game-elsewhere-deadline = Votre coup validé pour le tour { $turn } n'est pas sur cet appareil ; il ne peut pas être révélé ici. S'il n'est pas révélé depuis l'appareil où vous l'avez choisi avant l'échéance, votre adversaire pourra réclamer la partie (« coup non révélé »).

## Les coups et les notes d'un tour

game-turn-title = Tour { $turn }
game-side = { $color ->
        [white] Blancs
       *[black] Noirs
    }
game-side-note = { $color ->
        [white] Blancs
       *[black] Noirs
    } : { $text }

## Propositions et invitation

game-you-offered-draw = Vous avez proposé la nulle.
game-offers-draw = { $color ->
        [white] Les Blancs proposent
       *[black] Les Noirs proposent
    } la nulle.
game-accept = Accepter
game-decline = Refuser
game-cancel = Annuler
game-rematch-link = Revanche : { $link }
game-rematch-open = ouvrir la nouvelle partie
game-rematch-offered = Revanche proposée : en attente de votre adversaire.
game-asks-rematch = { $color ->
        [white] Les Blancs proposent
       *[black] Les Noirs proposent
    } une revanche.
game-invite-send = Envoyez ce lien à votre ami :
game-copy = Copier

## Une partie inconnue du serveur

game-no-such-game = Partie introuvable
game-no-such-game-text = Il n'y a pas de partie { $id } sur ce serveur.
game-back-to-lobby = Retour au salon

## Messages au joueur (game.js)

game-draw-declined = Votre proposition de nulle a été refusée.
game-rematch-you-withdrew = Vous avez retiré votre proposition de revanche.
game-rematch-you-declined = Vous avez refusé la revanche.
game-rematch-declined = Votre proposition de revanche a été refusée.
game-rematch-withdrawn = { $color ->
        [white] Les Blancs ont retiré
       *[black] Les Noirs ont retiré
    } leur proposition de revanche.
game-crowd-no-join = La pièce en { $from } ne peut pas rejoindre vos propres pièces en { $square } : une foule ne se forme que là où se trouve une pièce ennemie.
game-piece-must-wait = Votre pièce en { $square } a joué au tour précédent et doit attendre ce tour-ci.
game-king-in-check = Votre roi est en échec immédiat : seul le roi peut jouer.
game-piece-no-move = Votre pièce en { $square } n'a aucun coup légal.
game-premove-dropped = Coup anticipé { $from }-{ $to } annulé : il n'est plus légal.
game-announce-move = { $color ->
        [white] Les Blancs ont joué
       *[black] Les Noirs ont joué
    } { $move }.
game-announce-turn = Tour { $turn } : Blancs { $white }, Noirs { $black }.
game-announce-turn-notes = Tour { $turn } : Blancs { $white }, Noirs { $black }. { $notes }.

## Choisir un coup sur l'échiquier

game-crowd-pieces = { $count ->
        [one] { $count } pièce en { $square }
       *[other] { $count } pièces en { $square }
    }
game-crowd-which = { $count ->
        [one] { $count } pièce en { $square } : laquelle joue ?
       *[other] { $count } pièces en { $square } : laquelle joue ?
    }
game-which-move = Quel coup ?
game-promote-to = Promouvoir en
game-choose-castle = roquer avec la tour en { $square }
game-choose-join = rejoindre (partager la case)
game-choose-capture = prendre
game-commit-confirm = Valider { $move } ?
game-commit-button = Valider { $move }
game-resign-confirm = Abandonner cette partie ?
game-error-already-chosen = vous avez déjà choisi votre coup pour ce tour
game-error-not-your-move = ce n'est pas à vous de jouer
game-error-not-legal = { $move } n'est pas un coup légal maintenant

## La discussion (chat.js)

game-chat = Discussion
game-chat-label = message de discussion
game-chat-placeholder = dites quelque chose
game-chat-send = Envoyer
game-chat-login = Connectez-vous ou prenez part à la partie pour discuter.
