# Help on the game page: the variant's rules (help.js) and the legend of
# its pieces beyond chess's (legend.js).

## The rules
help-rules-loading = loading…
help-rules-failed = the rules could not be loaded: { $error }
# A rules diagram without a caption.
help-diagram = diagram
help-diagram-failed = the diagram could not be drawn: { $error }

## The legend of the pieces
help-legend-heading = Pieces
# $name: the piece's name (bold), $letter: its letter, $moves: its move in words (help-move-...).
help-legend-piece = { $name } ({ $letter }): moves { $moves }.
# A piece's small diagram; $piece: its name.
help-legend-reach = { $piece }: the squares it reaches
# A move in words, after "moves".
help-move-one-straight = one square straight
help-move-one-diagonal = one square diagonally
help-move-two-straight = a jump of two squares straight
help-move-two-diagonal = a jump of two squares diagonally
help-move-knight = the knight’s jump
help-move-rook = as a rook
help-move-bishop = as a bishop
help-move-queen = as a queen
help-move-king = as a king
# A move the legend cannot put in words: its Betza notation.
help-move-betza = Betza notation { $betza }
# Two moves of one piece, joined: "as a queen, or the knight’s jump".
help-move-or = { $first }, or { $then }
