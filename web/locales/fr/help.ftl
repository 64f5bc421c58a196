# L'aide de la page de partie : les règles de la variante (help.js) et la
# légende de ses pièces qui ne sont pas aux échecs (legend.js).

## Les règles
help-rules-loading = chargement…
help-rules-failed = les règles n'ont pas pu être chargées : { $error }
help-diagram = diagramme
help-diagram-failed = le diagramme n'a pas pu être dessiné : { $error }

## La légende des pièces
help-legend-heading = Pièces
help-legend-piece = { $name } ({ $letter }) : se déplace { $moves }.
help-legend-reach = { $piece } : les cases atteintes
# Un déplacement en mots, après « se déplace ».
help-move-one-straight = d'une case en ligne droite
help-move-one-diagonal = d'une case en diagonale
help-move-two-straight = d'un saut de deux cases en ligne droite
help-move-two-diagonal = d'un saut de deux cases en diagonale
help-move-knight = comme un cavalier
help-move-rook = comme une tour
help-move-bishop = comme un fou
help-move-queen = comme une dame
help-move-king = comme un roi
help-move-betza = selon la notation Betza { $betza }
help-move-or = { $first }, ou { $then }
