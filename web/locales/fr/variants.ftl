# Les descriptions des variantes intégrées (variants/*.toml) ; une
# variante chargée d'un fichier montre sa propre description.

variant-chess-description = Les échecs classiques : un coup à la fois, mater le roi pour gagner.
variant-tutti-frutti-description = Les échecs sur 8x8 avec trois pièces composées puissantes : l'Amazone (dame + cavalier), l'Impératrice (tour + cavalier) et la Princesse (fou + cavalier).
variant-parity12-description = Les échecs sur un échiquier de 12x8 avec deux nouveaux sauteurs, le Champion et le FAD, et le roque libre.
variant-parity-description = Les deux joueurs jouent en même temps, en secret ; une pièce qui vient de jouer doit attendre un tour, et des pièces ennemies peuvent partager une case.
variant-parity-single-description = Parity Chess où deux pièces ennemies arrivées sur la même case doivent toutes deux la quitter au tour suivant.
variant-move-neutral-description = Les deux joueurs jouent en même temps, en secret, et les deux coups comptent ; toute pièce peut jouer à chaque tour.
variant-safety-in-numbers-description = Des échecs où autant de pièces qu'on veut peuvent partager une case, et une foule de deux pièces ou plus ne peut jamais être prise.
