# The built-in variants' descriptions (variants/*.toml says the same);
# a variant loaded from a file shows its own description.

variant-chess-description = Standard chess: one move at a time, checkmate the king to win.
variant-tutti-frutti-description = Chess on 8x8 with three strong compound pieces: the Amazon (queen + knight), Empress (rook + knight) and Princess (bishop + knight).
variant-parity12-description = Chess on a 12x8 board with two new leapers, the Champion and the FAD, and free castling.
variant-parity-description = Both players move at once, in secret; a piece that just moved must wait a turn, and enemy pieces may share a square.
variant-parity-single-description = Parity Chess where enemy pieces that land on the same square must both leave it on the next turn.
variant-move-neutral-description = Both players move at once, in secret, and both moves stand; any piece may move every turn.
variant-safety-in-numbers-description = Chess where any number of pieces may share a square, and a crowd of two or more can never be captured.
