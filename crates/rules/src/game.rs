//! The families whose sides move in turn (turn-based and crowd): what a
//! position must offer ([`TurnPosition`]), and a game over any such
//! position, with adjudication written once ([`Game`]).

use crate::crowd::CrowdPosition;
use crate::fen::{self, FenError};
use crate::geometry::{Bitboard, Square, Word};
use crate::movegen::{self, MoveSink};
use crate::notation::{self, MoveContext, NotationError};
use crate::outcome::{Outcome, Reason};
use crate::position::Position;
use crate::simultaneous::{SideNotes, SimError, SimPosition};
use crate::types::{ByColor, Color, Kind, Move, Special};
use crate::variant::{StalemateResult, Variant};
use crate::view::PieceView;

/// A position of a family whose sides move in turn: what the rules, the
/// engine's search and notation need of it.
pub trait TurnPosition: PieceView + MoveContext + Clone + Send + Sync + 'static {
    fn start(variant: &'static Variant) -> Self;
    fn from_fen(variant: &'static Variant, text: &str) -> Result<Self, FenError>;
    fn fen(&self) -> String;
    fn side(&self) -> Color;
    /// Zobrist key, equal for positions that repeat.
    fn key(&self) -> u64;
    /// Same pieces, side, rights and en passant: equal for repetition.
    fn same_position(&self, other: &Self) -> bool;
    fn in_check(&self) -> bool;
    fn halfmove_clock(&self) -> u32;
    fn fullmove_number(&self) -> u32;
    /// Appends the legal moves; with `noisy_only`, only captures and promotions.
    fn generate(&self, out: &mut Vec<Move>, noisy_only: bool);
    fn has_legal_move(&self) -> bool;
    fn is_legal(&self, mv: Move) -> bool;
    fn make(&self, mv: Move) -> Self;
    /// Passes the move (null-move pruning).
    fn make_null(&self) -> Self;
    /// The kind the move captures, if any.
    fn victim(&self, mv: Move) -> Option<Kind> {
        self.captured(mv)
    }
    /// The kind that moves.
    fn moved_kind(&self, mv: Move) -> Kind {
        self.mover_kind(mv)
            .expect("a move starts on a piece of the side to move")
    }
    /// Neither side can ever mate, as the variant's rules count it (false
    /// where the variant file turns the rule off).
    fn insufficient_material(&self) -> bool;
    /// True if a piece of `by` attacks `sq` with a capture power.
    fn attacked_by(&self, sq: Square, by: Color) -> bool;
    /// Squares of `occ` holding a piece of either colour whose capture
    /// power reaches `sq` when only `occ` is occupied: what static exchange
    /// evaluation needs (take pieces off `occ` to see the ones behind).
    /// Pins and the crowd rule (no capture on a crowd) are the caller's.
    fn attackers_to(&self, sq: Square, occ: Bitboard<Self::W>) -> Bitboard<Self::W>;
    /// The pieces of `by` among [`Self::attackers_to`].
    fn attackers_of(&self, sq: Square, occ: Bitboard<Self::W>, by: Color) -> Bitboard<Self::W> {
        self.attackers_to(sq, occ) & self.by_color(by)
    }
    /// Counts the move paths to `depth` plies.
    fn perft(&self, depth: u32) -> u64;
    /// Perft per root move.
    fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal()
            .into_iter()
            .map(|mv| (mv, self.make(mv).perft(depth - 1)))
            .collect()
    }

    fn uci(&self, mv: Move) -> String {
        notation::uci(self, mv)
    }
    /// Reads a move in coordinates.
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_uci(self, text)
    }
    /// SAN of a legal move, with check and mate marks.
    fn san(&self, mv: Move) -> String {
        let mut out = notation::san_plain(self, mv);
        let next = self.make(mv);
        if next.in_check() {
            out.push(if next.has_legal_move() { '+' } else { '#' });
        }
        out
    }
}

/// Keeps captures and promotions.
struct NoisySink<'a, W: Word> {
    out: &'a mut Vec<Move>,
    enemies: Bitboard<W>,
}

impl<W: Word> MoveSink<W> for NoisySink<'_, W> {
    #[inline]
    fn piece_moves(&mut self, pos: &Position<W>, from: Square, kind: Kind, dests: Bitboard<W>) {
        let v = pos.variant();
        let keep = if v.kinds[kind.index()].pawn {
            dests & (self.enemies | pos.boards().promotion_zone[pos.side_to_move().index()])
        } else {
            dests & self.enemies
        };
        if keep.any() {
            self.out.piece_moves(pos, from, kind, keep);
        }
    }
    #[inline]
    fn single(&mut self, _pos: &Position<W>, mv: Move) {
        if mv.special == Special::EnPassant {
            self.out.push(mv);
        }
    }
}

impl<W: Word> TurnPosition for Position<W> {
    fn start(variant: &'static Variant) -> Position<W> {
        Position::start(variant)
    }
    fn from_fen(variant: &'static Variant, text: &str) -> Result<Position<W>, FenError> {
        fen::parse_position(variant, text)
    }
    fn fen(&self) -> String {
        fen::write(self)
    }
    fn side(&self) -> Color {
        self.side_to_move()
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn same_position(&self, other: &Position<W>) -> bool {
        Position::same_position(self, other)
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn halfmove_clock(&self) -> u32 {
        Position::halfmove_clock(self)
    }
    fn fullmove_number(&self) -> u32 {
        Position::fullmove_number(self)
    }
    fn generate(&self, out: &mut Vec<Move>, noisy_only: bool) {
        if noisy_only {
            let enemies = self.by_color(self.side_to_move().other());
            movegen::generate(self, &mut NoisySink { out, enemies });
        } else {
            movegen::generate(self, out);
        }
    }
    fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }
    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }
    fn make(&self, mv: Move) -> Position<W> {
        self.play(mv)
    }
    fn make_null(&self) -> Position<W> {
        self.play_null()
    }
    fn insufficient_material(&self) -> bool {
        self.variant().spec.insufficient_material && insufficient_material(self)
    }
    fn attacked_by(&self, sq: Square, by: Color) -> bool {
        self.is_attacked(sq, by, Position::occupied(self))
    }
    fn attackers_to(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let b = self.boards;
        let of = |c: Color| b.attackers(&self.pieces, sq, c, occ, &b.rider_sets(&self.pieces, c));
        (of(Color::White) | of(Color::Black)) & occ
    }
    fn attackers_of(&self, sq: Square, occ: Bitboard<W>, by: Color) -> Bitboard<W> {
        let b = self.boards;
        b.attackers(&self.pieces, sq, by, occ, &b.rider_sets(&self.pieces, by)) & occ
    }
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft(self, depth)
    }
}

impl TurnPosition for CrowdPosition {
    fn start(variant: &'static Variant) -> CrowdPosition {
        CrowdPosition::start(variant)
    }
    fn from_fen(variant: &'static Variant, text: &str) -> Result<CrowdPosition, FenError> {
        CrowdPosition::from_fen(variant, text)
    }
    fn fen(&self) -> String {
        self.to_fen()
    }
    fn side(&self) -> Color {
        self.side_to_move()
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn same_position(&self, other: &CrowdPosition) -> bool {
        CrowdPosition::same_position(self, other)
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn halfmove_clock(&self) -> u32 {
        CrowdPosition::halfmove_clock(self)
    }
    fn fullmove_number(&self) -> u32 {
        CrowdPosition::fullmove_number(self)
    }
    fn generate(&self, out: &mut Vec<Move>, noisy_only: bool) {
        self.legal_moves_into(out, noisy_only);
    }
    fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }
    fn is_legal(&self, mv: Move) -> bool {
        CrowdPosition::is_legal(self, mv)
    }
    fn make(&self, mv: Move) -> CrowdPosition {
        self.play(mv)
    }
    fn make_null(&self) -> CrowdPosition {
        self.play_null()
    }
    fn insufficient_material(&self) -> bool {
        self.variant().spec.insufficient_material && CrowdPosition::insufficient_material(self)
    }
    fn attacked_by(&self, sq: Square, by: Color) -> bool {
        self.is_attacked(sq, by)
    }
    fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let v = self.variant();
        let of = |c: Color| {
            v.boards.attackers(
                &self.presence,
                sq,
                c,
                occ,
                &v.boards.rider_sets(&self.presence, c),
            )
        };
        (of(Color::White) | of(Color::Black)) & occ
    }
    fn perft(&self, depth: u32) -> u64 {
        crate::crowd::perft(self, depth)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("start position: {0}")]
    Fen(#[from] FenError),
    #[error("move {number}: {error}")]
    Move { number: usize, error: NotationError },
    #[error("{0}")]
    Turn(#[from] SimError),
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// A move where a turn is due, or the other way round.
    #[error("{0}")]
    WrongFamily(&'static str),
}

/// A game of a turn-based or crowd variant: its start, the moves played
/// and the positions they reach.
#[derive(Clone, Debug)]
pub struct Game<P> {
    moves: Vec<Move>,
    positions: Vec<P>,
}

impl<P: TurnPosition> Game<P> {
    pub fn new(start: P) -> Game<P> {
        Game {
            moves: Vec::new(),
            positions: vec![start],
        }
    }

    pub fn from_fen(variant: &'static Variant, fen: &str) -> Result<Game<P>, GameError> {
        Ok(Game::new(P::from_fen(variant, fen)?))
    }

    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The start, then the position after each move.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Plays a legal move; refuses moves once the game is decided.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        self.play_on(mv)
    }

    /// Plays a legal move even after the rules ended the game (an engine
    /// told a line to analyse, a GUI that does not adjudicate).
    pub fn play_on(&mut self, mv: Move) -> Result<(), GameError> {
        let pos = self.position();
        if !pos.is_legal(mv) {
            return Err(GameError::Move {
                number: self.moves.len() + 1,
                error: NotationError::Illegal {
                    text: pos.uci(mv),
                    hint: None,
                },
            });
        }
        let next = pos.make(mv);
        self.moves.push(mv);
        self.positions.push(next);
        Ok(())
    }

    /// Plays a move given in SAN or coordinates.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let pos = self.position();
        let mv = notation::parse_san(pos, text)
            .or_else(|san_err| notation::parse_uci(pos, text).map_err(|_| san_err))
            .map_err(|error| GameError::Move {
                number: self.moves.len() + 1,
                error,
            })?;
        self.play(mv)?;
        Ok(mv)
    }

    /// How many times the current position has stood in this game.
    pub fn repetitions(&self) -> usize {
        let pos = self.position();
        self.positions
            .iter()
            .filter(|p| p.same_position(pos))
            .count()
    }

    /// The result if the rules end the game here, with its reason:
    /// checkmate, stalemate (scored as the variant says), insufficient
    /// material, the fifty-move rule, repetition, as the variant file sets them.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let v = pos.variant();
        if !pos.has_legal_move() {
            let mover = pos.side();
            return Some(if pos.in_check() {
                Outcome::win(mover.other(), Reason::Checkmate)
            } else {
                match v.spec.stalemate {
                    StalemateResult::Draw => Outcome::draw(Reason::Stalemate),
                    StalemateResult::Loss => Outcome::win(mover.other(), Reason::Stalemate),
                    StalemateResult::Win => Outcome::win(mover, Reason::Stalemate),
                }
            });
        }
        if pos.insufficient_material() {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        if v.spec.fifty_move_rule && pos.halfmove_clock() >= 100 {
            return Some(Outcome::draw(Reason::FiftyMoves));
        }
        if v.spec.repetition > 0 && self.repetitions() >= v.spec.repetition as usize {
            return Some(Outcome::draw(Reason::Repetition));
        }
        None
    }
}

/// Neither side can ever mate: only kings and pieces marked `minor`, and
/// at most one minor, or only colour-bound minors all on one square colour.
pub fn insufficient_material<W: Word>(pos: &Position<W>) -> bool {
    let v = pos.variant();
    let shape = v.shape;
    let mut minors = Vec::new();
    for color in Color::ALL {
        for (k, info) in v.kinds.iter().enumerate() {
            if info.royal {
                continue;
            }
            let bb = pos.pieces(color, Kind(k as u8));
            if bb.is_empty() {
                continue;
            }
            if !info.minor {
                return false;
            }
            minors.extend(bb.map(|sq| (info.colour_bound, (shape.file(sq) + shape.rank(sq)) % 2)));
        }
    }
    minors.len() <= 1 || (minors.iter().all(|m| m.0) && minors.iter().all(|m| m.1 == minors[0].1))
}
/// A simultaneous game: a start position and its turns.
#[derive(Clone, Debug)]
pub struct SimGame {
    positions: Vec<SimPosition>,
    turns: Vec<([Move; 2], ByColor<SideNotes>)>,
}

impl SimGame {
    pub fn new(start: SimPosition) -> SimGame {
        SimGame {
            positions: vec![start],
            turns: Vec::new(),
        }
    }
    pub fn position(&self) -> &SimPosition {
        self.positions
            .last()
            .expect("a game has its start position")
    }
    pub fn start(&self) -> &SimPosition {
        &self.positions[0]
    }
    pub fn turns(&self) -> &[([Move; 2], ByColor<SideNotes>)] {
        &self.turns
    }
    pub fn positions(&self) -> &[SimPosition] {
        &self.positions
    }

    /// How many times the current position has stood in this game.
    pub fn repetitions(&self) -> usize {
        let pos = self.position();
        self.positions.iter().filter(|p| p.same_state(pos)).count()
    }

    /// The result if the rules end the game at the start of this turn.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if let Some(o) = pos.outcome() {
            return Some(o);
        }
        let needed = pos.variant.spec.repetition as usize;
        (needed > 0 && self.repetitions() >= needed).then_some(Outcome::draw(Reason::Repetition))
    }

    /// Plays a turn; refuses it if the game is over or a move is illegal.
    pub fn play(&mut self, white: Move, black: Move) -> Result<ByColor<SideNotes>, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        self.play_on(white, black)
    }

    /// Plays a turn even after the rules ended the game (see [`crate::Game::play_on`]).
    pub fn play_on(&mut self, white: Move, black: Move) -> Result<ByColor<SideNotes>, GameError> {
        let turn = self.position().resolve(white, black)?;
        self.positions.push(turn.position);
        self.turns.push(([white, black], turn.notes));
        Ok(turn.notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    fn game(fen: &str) -> Game<Position> {
        Game::from_fen(Registry::builtin().get("chess").unwrap(), fen).unwrap()
    }

    #[test]
    fn checkmate_and_stalemate() {
        let mut g = game("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        assert_eq!(g.outcome(), None);
        g.play_text("Rh8").unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Color::White, Reason::Checkmate))
        );
        assert!(matches!(g.play_text("Ka7"), Err(GameError::Over(_))));
        let stale = game("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
        assert_eq!(stale.outcome(), Some(Outcome::draw(Reason::Stalemate)));
    }

    #[test]
    fn fifty_moves_repetition_and_material() {
        let g = game("k7/8/8/8/8/8/8/K6R w - - 100 80");
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::FiftyMoves));
        let mut g = game("k7/8/8/8/8/8/8/K6R w - - 0 1");
        for m in ["Rh2", "Kb8", "Rh1", "Ka8", "Rh2", "Kb8", "Rh1"] {
            assert_eq!(g.outcome(), None);
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), None);
        g.play_text("Ka8").unwrap();
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
        for fen in [
            "k7/8/8/8/8/8/8/K7 w - - 0 1",
            "k7/8/8/8/8/8/8/KN6 w - - 0 1",
            "kb6/8/8/8/8/8/8/K1B5 w - - 0 1",
        ] {
            assert_eq!(
                game(fen).outcome().map(|o| o.reason),
                Some(Reason::InsufficientMaterial),
                "{fen}"
            );
        }
        // Bishops on opposite colours and two knights are not dead by this rule.
        for fen in [
            "kb6/8/8/8/8/8/8/KB6 w - - 0 1",
            "k7/8/8/8/8/8/8/KNN5 w - - 0 1",
            "k7/8/8/8/8/8/8/KP6 w - - 0 1",
        ] {
            assert_eq!(game(fen).outcome(), None, "{fen}");
        }
    }

    #[test]
    fn bad_moves_are_errors_and_change_nothing() {
        let mut g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(matches!(
            g.play_text("e5"),
            Err(GameError::Move { number: 1, .. })
        ));
        assert!(matches!(g.play_text("%%"), Err(GameError::Move { .. })));
        assert_eq!(g.moves().len(), 0);
        g.play_text("e4").unwrap();
        g.play_text("e7e5").unwrap();
        assert_eq!(g.moves().len(), 2);
    }
}

#[cfg(test)]
mod attackers_to_tests {
    use super::*;
    use crate::registry::Registry;

    fn sq<P: TurnPosition>(p: &P, name: &str) -> Square {
        p.variant().shape.parse_square(name).unwrap()
    }

    fn names<P: TurnPosition>(p: &P, bb: Bitboard) -> Vec<String> {
        bb.map(|s| p.variant().shape.name(s).to_string()).collect()
    }

    #[test]
    fn chess_attackers_and_x_rays() {
        let v = Registry::builtin().get("chess").unwrap();
        // d5 is hit by the rook d2 (the d1 rook behind it), the knight f6,
        // the pawns c4 and e6 (black captures downwards) and the queen a8.
        let p = <Position as TurnPosition>::from_fen(v, "q3k3/8/4pn2/3r4/2P5/8/3R4/3RK3 w - - 0 1")
            .unwrap();
        let d5 = sq(&p, "d5");
        let occ = PieceView::occupied(&p);
        assert_eq!(
            names(&p, p.attackers_to(d5, occ)),
            ["d2", "c4", "e6", "f6", "a8"]
        );
        // Without the d2 rook the d1 rook sees through; a piece taken off
        // `occ` no longer attacks.
        let occ2 = occ.without(sq(&p, "d2")).without(sq(&p, "f6"));
        assert_eq!(
            names(&p, p.attackers_to(d5, occ2)),
            ["d1", "c4", "e6", "a8"]
        );
        // A blocker on c6 hides the queen.
        let occ3 = occ.with(sq(&p, "c6"));
        assert!(!p.attackers_to(d5, occ3).contains(sq(&p, "a8")));
    }

    #[test]
    fn fairy_pieces_attack_with_both_powers() {
        let v = Registry::builtin().get("tutti-frutti").unwrap();
        // The amazon c3 reaches d5 as a knight, e5 and g3 as a queen; the
        // black empress h1 reaches g3 as a knight and f1 as a rook.
        let p =
            <Position as TurnPosition>::from_fen(v, "4k3/8/8/8/8/2A5/8/4K2e w - - 0 1").unwrap();
        let occ = PieceView::occupied(&p);
        assert_eq!(names(&p, p.attackers_to(sq(&p, "d5"), occ)), ["c3"]);
        assert_eq!(names(&p, p.attackers_to(sq(&p, "e5"), occ)), ["c3"]);
        assert_eq!(names(&p, p.attackers_to(sq(&p, "g3"), occ)), ["h1", "c3"]);
        assert_eq!(names(&p, p.attackers_to(sq(&p, "f1"), occ)), ["e1", "h1"]);
        // The empress's rank ride stops at the king on e1.
        assert_eq!(names(&p, p.attackers_to(sq(&p, "d1"), occ)), ["e1", "c3"]);
        assert_eq!(
            names(&p, p.attackers_to(sq(&p, "d1"), occ.without(sq(&p, "e1")))),
            ["h1", "c3"]
        );
    }

    #[test]
    fn crowd_members_attack() {
        let v = Registry::builtin().get("safety-in-numbers").unwrap();
        // A crowd of a white knight and bishop on d4 attacks from both.
        let p = <CrowdPosition as TurnPosition>::from_fen(v, "4k3/8/8/8/3(NB)4/8/8/4K3 w - - 0 1")
            .unwrap();
        let occ = PieceView::occupied(&p);
        assert_eq!(names(&p, p.attackers_to(sq(&p, "e6"), occ)), ["d4"]);
        assert_eq!(names(&p, p.attackers_to(sq(&p, "f6"), occ)), ["d4"]);
        assert!(p.attackers_to(sq(&p, "d6"), occ).is_empty());
    }
}
