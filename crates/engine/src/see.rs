//! Static exchange evaluation: what a move wins or loses on its
//! destination square if both sides then keep capturing there, each with
//! its cheapest piece, and each may stop when capturing would lose.
//! Generic over Betza pieces through the rules' `attackers_to`, so riders
//! behind a capturer join in as it leaves (x-rays).
//!
//! Pins are ignored, as usual. In the crowd family a crowd is never
//! captured and a piece leaving a crowd leaves the square occupied.

use parity_rules::geometry::{Bitboard, Square};
use parity_rules::position::MAX_KINDS;
use parity_rules::{Color, Kind, Move, Special, TurnPosition};

use crate::eval::Score;

/// Piece values for exchanges and the order in which to try capturers.
pub struct SeeTables {
    value: [Score; MAX_KINDS],
    /// Kinds from the cheapest to the dearest, the royal piece last.
    cheapest_first: Vec<Kind>,
    royal: Kind,
}

impl SeeTables {
    /// `value` per kind as the evaluation counts material.
    pub fn new(value: &[Score; MAX_KINDS], kinds: usize, royal: Kind) -> SeeTables {
        let mut cheapest_first: Vec<Kind> = (0..kinds as u8).map(Kind).collect();
        cheapest_first.sort_by_key(|&k| (k == royal, value[k.index()]));
        SeeTables {
            value: *value,
            cheapest_first,
            royal,
        }
    }

    fn cheapest<B: TurnPosition>(
        &self,
        pos: &B,
        side: Color,
        among: Bitboard<B::W>,
    ) -> Option<(Kind, Square)> {
        self.cheapest_first
            .iter()
            .find_map(|&k| (among & pos.presence(side, k)).lowest().map(|sq| (k, sq)))
    }

    /// The material balance of `mv` for the side playing it after the
    /// best sequence of captures on its destination (0 for castling and
    /// en passant, which are left unjudged; a quiet move scores what the
    /// opponent wins by taking the piece, or 0).
    pub fn see<B: TurnPosition>(&self, pos: &B, mv: Move) -> Score {
        self.see_known(pos, mv, pos.moved_kind(mv), pos.victim(mv))
    }

    /// [`Self::see`] when the caller knows the kind that moves and the one
    /// it captures (`pos.moved_kind(mv)` and `pos.victim(mv)`).
    pub fn see_known<B: TurnPosition>(
        &self,
        pos: &B,
        mv: Move,
        mover: Kind,
        victim: Option<Kind>,
    ) -> Score {
        if matches!(
            mv.special,
            Special::Castle { .. } | Special::EnPassant | Special::Join(_)
        ) {
            return 0;
        }
        let crowds = pos.crowd_squares();
        let to = mv.to;
        if crowds.contains(to) {
            return 0;
        }
        let mut gain = [0 as Score; 40];
        gain[0] = victim.map_or(0, |k| self.value[k.index()]);
        let mut on_square = self.value[mover.index()];
        if let Some(p) = mv.promotion {
            gain[0] += self.value[p.index()] - on_square;
            on_square = self.value[p.index()];
        }
        let us = pos.side();
        let mut occ = pos.occupied() | to.bit();
        if !crowds.contains(mv.from) {
            occ = occ.without(mv.from);
        }
        // Pieces already spent, per colour (a crowd square may hold more).
        let mut used = [Bitboard::<B::W>::EMPTY; 2];
        used[us.index()] = mv.from.bit();
        // The attackers of each colour for the current occupancy, found
        // when a side must capture (a quiet move's mostly not at all).
        let mut known: [Option<Bitboard<B::W>>; 2] = [None, None];
        let mut side = us.other();
        let mut d = 0;
        while d + 1 < gain.len() {
            let attackers = match known[side.index()] {
                Some(a) => a,
                None => {
                    let a = pos.attackers_of(to, occ, side);
                    known[side.index()] = Some(a);
                    a
                }
            };
            let mine = attackers & !used[side.index()];
            let Some((kind, sq)) = self.cheapest(pos, side, mine) else {
                break;
            };
            used[side.index()] |= sq.bit();
            let occ_after = if crowds.contains(sq) {
                occ
            } else {
                occ.without(sq)
            };
            if kind == self.royal {
                // The royal piece may not capture into an attack.
                let other = side.other();
                let after = pos.attackers_of(to, occ_after, other);
                if (after & !used[other.index()]).any() {
                    break;
                }
                known = [None, None];
                known[other.index()] = Some(after);
            } else if occ_after != occ {
                known = [None, None];
            }
            d += 1;
            gain[d] = on_square - gain[d - 1];
            on_square = self.value[kind.index()];
            occ = occ_after;
            side = side.other();
            // Neither side can do better than stop here: cut the sequence.
            if gain[d].max(-gain[d - 1]) < 0 {
                break;
            }
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval;
    use parity_rules::crowd::CrowdPosition;
    use parity_rules::Position;
    use parity_rules::Registry;

    fn see_of<B: TurnPosition>(variant: &str, fen: &str, mv: &str) -> Score {
        let v = Registry::builtin().get(variant).unwrap();
        let pos = B::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let t = eval::tables(v);
        let tables = SeeTables::new(&t.value, v.kinds.len(), v.royal);
        let mv = pos.parse_move(mv).unwrap();
        tables.see(&pos, mv)
    }

    fn value(variant: &str, letter: char) -> Score {
        let v = Registry::builtin().get(variant).unwrap();
        eval::tables(v).value[v.kind_by_letter(letter).unwrap().index()]
    }

    #[test]
    fn chess_exchanges() {
        let (p, n, b, r, q) = (
            value("chess", 'P'),
            value("chess", 'N'),
            value("chess", 'B'),
            value("chess", 'R'),
            value("chess", 'Q'),
        );
        // An undefended pawn.
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            p
        );
        // A pawn defended by a pawn: the rook is lost for it.
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            p - r
        );
        // Knight takes a defended knight: even.
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
            n - n
        );
        // Doubled rooks: the rook behind the first recaptures (x-ray), so
        // taking a rook-defended pawn wins it.
        assert_eq!(
            see_of::<Position>("chess", "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            p
        );
        // Without the second rook the rook is retaken: p - r.
        assert_eq!(
            see_of::<Position>("chess", "3rk3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            p - r
        );
        // Queen takes a pawn defended by a bishop: queen lost.
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/2b5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
            p - q
        );
        // The king may not recapture a defended piece.
        assert_eq!(
            see_of::<Position>("chess", "8/8/3k4/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            p
        );
        assert_eq!(
            see_of::<Position>("chess", "8/8/3k4/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            p - r
        );
        // Quiet moves: a safe square is 0, one a pawn guards loses the piece.
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/4p3/8/8/8/8/3BK3 w - - 0 1", "d1f3"),
            0
        );
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/8/4p3/8/8/3B4/4K3 w - - 0 1", "d2f4"),
            -b
        );
        // A knight onto a square a pawn guards is lost, unless the bishop
        // behind retakes: then it is a knight for a pawn.
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/8/8/6p1/8/3N4/4K3 w - - 0 1", "d2f3"),
            -n
        );
        assert_eq!(
            see_of::<Position>("chess", "4k3/8/8/8/6p1/8/3N4/4K2B w - - 0 1", "d2f3"),
            -n + p
        );
    }

    #[test]
    fn fairy_exchanges() {
        let (p, r, a, s) = (
            value("tutti-frutti", 'P'),
            value("tutti-frutti", 'R'),
            value("tutti-frutti", 'A'),
            value("tutti-frutti", 'S'),
        );
        // The amazon takes a pawn by her knight leap; a princess guards it
        // by her bishop step: the amazon is lost.
        assert_eq!(
            see_of::<Position>(
                "tutti-frutti",
                "4k3/8/5s2/4p3/8/3A4/8/4K3 w - - 0 1",
                "d3e5"
            ),
            p - a
        );
        // Unguarded, it is a pawn won.
        assert_eq!(
            see_of::<Position>("tutti-frutti", "4k3/8/8/4p3/8/3A4/8/4K3 w - - 0 1", "d3e5"),
            p
        );
        // Princess (knight leap) takes the amazon a pawn guards.
        assert_eq!(
            see_of::<Position>(
                "tutti-frutti",
                "4k3/2p5/3a4/8/4S3/8/8/4K3 w - - 0 1",
                "e4d6"
            ),
            a - s
        );
        // The amazon behind a rook recaptures along the file (x-ray).
        assert_eq!(
            see_of::<Position>(
                "tutti-frutti",
                "3rk3/8/8/3p4/8/8/3R4/3AK3 w - - 0 1",
                "d2d5"
            ),
            p
        );
        // An amazon two files off joins by her knight leap.
        assert_eq!(
            see_of::<Position>(
                "tutti-frutti",
                "3rk3/8/8/3p4/5A2/8/8/3RK3 w - - 0 1",
                "d1d5"
            ),
            p
        );
        assert_eq!(
            see_of::<Position>("tutti-frutti", "3rk3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            p - r
        );
    }

    #[test]
    fn crowds_are_never_captured() {
        let n = value("safety-in-numbers", 'N');
        let p = value("safety-in-numbers", 'P');
        // A lone pawn guarded by a crowd's bishop: the knight is lost.
        assert_eq!(
            see_of::<CrowdPosition>(
                "safety-in-numbers",
                "4k3/8/5(nb)2/4p3/8/3N4/8/4K3 w - - 0 1",
                "d3e5"
            ),
            p - n
        );
        // The bishop leaves the crowd to retake, and the crowd's square
        // stays occupied, so the bishop g7 behind it never joins.
        let b = value("safety-in-numbers", 'B');
        assert_eq!(
            see_of::<CrowdPosition>(
                "safety-in-numbers",
                "k7/6b1/5(nb)2/4p3/8/3N4/8/K3R3 w - - 0 1",
                "d3e5"
            ),
            p.min(p + b - n)
        );
    }
}
