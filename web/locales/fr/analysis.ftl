# L'échiquier d'analyse (analysis.js) et l'analyse par ordinateur d'une
# partie terminée (review.js).

## analysis.js : l'échiquier d'analyse

analysis-board-heading = Échiquier d'analyse
analysis-variant = Variante
analysis-fen = FEN
analysis-fen-placeholder = position initiale de la variante
analysis-pgn = ou PGN
analysis-set-up = Charger
analysis-moves = Coups
analysis-flip = Retourner l'échiquier
analysis-lobby = salon
analysis-which-move = Quel coup ?
analysis-engine-thinking = Le moteur réfléchit…
analysis-game-over = Partie terminée : { $outcome }.
analysis-white-to-move = Trait aux Blancs.
analysis-black-to-move = Trait aux Noirs.
analysis-turn-white-chose = Tour { $turn } : les Blancs ont choisi { $move } ; choisissez maintenant le coup des Noirs.
analysis-turn-choose = Tour { $turn } : choisissez le coup des Blancs, puis celui des Noirs.
analysis-white-plays = Les Blancs jouent
analysis-black-plays = Les Noirs jouent
analysis-value-for-white = Valeur pour les Blancs :
analysis-value-hint = (de −1, les Noirs gagnent, à +1, les Blancs gagnent)
analysis-depth-turns = profondeur { $depth ->
        [one] { $depth } tour
       *[other] { $depth } tours
    }
analysis-depth = profondeur { $depth }

## review.js : l'analyse par ordinateur d'une partie terminée

analysis-review-label = Analyse par ordinateur
analysis-request = Demander une analyse par ordinateur
analysis-review-running = Le moteur analyse la partie…
analysis-review-done = Analyse par ordinateur : { $ms } ms par position.
analysis-inaccuracy = Imprécision
analysis-mistake = Erreur
analysis-blunder = Gaffe
analysis-judgment-best = { $judgment }. Le meilleur coup était { $best }.
analysis-judgment = { $judgment }.
analysis-white = Blancs
analysis-black = Noirs
analysis-graph-turn = tour { $number }
analysis-graph-label = Graphique d'évaluation de { $moves ->
        [one] { $moves } coup
       *[other] { $moves } coups
    } ; chances de gain des Blancs de { $from } à { $to }
analysis-graph-label-simultaneous = Score attendu des Blancs sur { $turns ->
        [one] { $turns } tour
       *[other] { $turns } tours
    }
analysis-player-turn-based = {" "}: précision { $accuracy } · { $inaccuracies ->
        [one] { $inaccuracies } imprécision
       *[other] { $inaccuracies } imprécisions
    } · { $mistakes ->
        [one] { $mistakes } erreur
       *[other] { $mistakes } erreurs
    } · { $blunders ->
        [one] { $blunders } gaffe
       *[other] { $blunders } gaffes
    } · perte moyenne en centipions { $acpl }
analysis-player-simultaneous = {" "}: perte attendue moyenne { $loss } par tour · { $costly ->
        [one] { $costly } tour coûteux
       *[other] { $costly } tours coûteux
    }
analysis-turn-heading = Tour { $number }
analysis-turn-equilibrium = Score attendu des Blancs à l'équilibre : { $score }.
analysis-turn-played = {" "}: { $san } joué, perte attendue { $loss }. Stratégie du moteur : { $strategy }.
analysis-turn-losses = perte attendue : Blancs { $white }, Noirs { $black }
