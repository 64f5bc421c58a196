//! What the search needs from a position, for both the turn-based family
//! ([`Position`]) and the crowd family ([`CrowdPosition`]).

use parity_rules::crowd::CrowdPosition;
use parity_rules::game::insufficient_material;
use parity_rules::movegen::{self, MoveSink};
use parity_rules::notation::{self, NotationError};
use parity_rules::simultaneous::SimPosition;
use parity_rules::{Bitboard, Color, Kind, Move, Position, Special, Square, Variant};

/// The pieces of a position, as the evaluation sees them.
pub trait PieceView {
    fn variant(&self) -> &'static Variant;
    /// Squares where at least one piece of `color` and `kind` stands.
    fn presence(&self, color: Color, kind: Kind) -> Bitboard;
    fn occupied(&self) -> Bitboard;
    fn by_color(&self, color: Color) -> Bitboard;
    /// Squares whose pieces cannot be captured (crowds of the crowd family).
    fn crowd_squares(&self) -> Bitboard {
        Bitboard::EMPTY
    }
    /// Calls `f` once per piece, with its multiplicity in crowds (by
    /// default a square holds at most one piece of a colour).
    fn for_each_piece(&self, mut f: impl FnMut(Color, Kind, Square)) {
        for color in [Color::White, Color::Black] {
            for k in 0..self.variant().kinds.len() {
                for sq in self.presence(color, Kind(k as u8)) {
                    f(color, Kind(k as u8), sq);
                }
            }
        }
    }
}

pub trait Board: PieceView + Clone + Send + Sync + 'static {
    fn side(&self) -> Color;
    /// Zobrist key, equal for positions that repeat.
    fn key(&self) -> u64;
    fn in_check(&self) -> bool;
    fn halfmove_clock(&self) -> u32;
    /// Appends the legal moves; with `noisy_only`, only captures and promotions.
    fn generate(&self, out: &mut Vec<Move>, noisy_only: bool);
    fn make(&self, mv: Move) -> Self;
    /// Passes the move (null-move pruning).
    fn make_null(&self) -> Self;
    /// The kind the move captures, if any.
    fn victim(&self, mv: Move) -> Option<Kind>;
    /// The kind that moves.
    fn mover(&self, mv: Move) -> Kind;
    fn insufficient_material(&self) -> bool;
    /// True if a piece of `by` attacks `sq` with a capture power.
    fn attacked_by(&self, sq: Square, by: Color) -> bool;
    fn uci(&self, mv: Move) -> String;
    fn parse_move(&self, text: &str) -> Result<Move, NotationError>;
    fn fen(&self) -> String;
    /// Perft per root move.
    fn divide(&self, depth: u32) -> Vec<(Move, u64)>;
    /// The board as text, rank 8 (or the last) on top; a crowd shows as `*`.
    fn diagram(&self) -> String {
        let v = self.variant();
        let shape = v.shape;
        let mut cells = vec![Vec::new(); shape.len()];
        self.for_each_piece(|color, kind, sq| {
            let letter = v.kinds[kind.index()].letter;
            cells[sq.index()].push(if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        });
        let mut out = String::new();
        for rank in (0..shape.ranks).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..shape.files {
                let here = &cells[shape.square(file, rank).index()];
                out.push(match here.as_slice() {
                    [] => '.',
                    [one] => *one,
                    _ => '*',
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str("   ");
        for file in 0..shape.files {
            out.push((b'a' + file) as char);
            out.push(' ');
        }
        out.push('\n');
        for sq in shape.squares() {
            if cells[sq.index()].len() > 1 {
                let crowd: String = cells[sq.index()].iter().collect();
                out.push_str(&format!("crowd on {}: {crowd}\n", shape.name(sq)));
            }
        }
        out
    }
}

/// Keeps captures and promotions.
struct NoisySink<'a> {
    out: &'a mut Vec<Move>,
    enemies: Bitboard,
}

impl MoveSink for NoisySink<'_> {
    #[inline]
    fn piece_moves(&mut self, pos: &Position, from: Square, kind: Kind, dests: Bitboard) {
        let v = pos.variant();
        let keep = if v.kinds[kind.index()].pawn {
            dests & (self.enemies | v.promotion_zone[pos.side_to_move().index()])
        } else {
            dests & self.enemies
        };
        if keep.any() {
            self.out.piece_moves(pos, from, kind, keep);
        }
    }
    #[inline]
    fn single(&mut self, _pos: &Position, mv: Move) {
        if mv.special == Special::EnPassant {
            self.out.push(mv);
        }
    }
}

impl PieceView for Position {
    fn variant(&self) -> &'static Variant {
        Position::variant(self)
    }
    fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        self.pieces(color, kind)
    }
    fn occupied(&self) -> Bitboard {
        Position::occupied(self)
    }
    fn by_color(&self, color: Color) -> Bitboard {
        Position::by_color(self, color)
    }
}

impl Board for Position {
    fn side(&self) -> Color {
        self.side_to_move()
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn halfmove_clock(&self) -> u32 {
        Position::halfmove_clock(self)
    }
    fn generate(&self, out: &mut Vec<Move>, noisy_only: bool) {
        if noisy_only {
            let enemies = self.by_color(self.side_to_move().other());
            movegen::generate(self, &mut NoisySink { out, enemies });
        } else {
            movegen::generate(self, out);
        }
    }
    fn make(&self, mv: Move) -> Self {
        self.play(mv)
    }
    fn make_null(&self) -> Self {
        self.play_null()
    }
    fn victim(&self, mv: Move) -> Option<Kind> {
        notation::MoveContext::captured(self, mv)
    }
    fn mover(&self, mv: Move) -> Kind {
        self.kind_at(self.side_to_move(), mv.from)
            .expect("a move starts on a piece of the side to move")
    }
    fn insufficient_material(&self) -> bool {
        self.variant().spec.insufficient_material && insufficient_material(self)
    }
    fn attacked_by(&self, sq: Square, by: Color) -> bool {
        self.is_attacked(sq, by, Position::occupied(self))
    }
    fn uci(&self, mv: Move) -> String {
        notation::uci(self, mv)
    }
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_uci(self, text)
    }
    fn fen(&self) -> String {
        parity_rules::fen::write(self)
    }
    fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        parity_rules::perft::divide(self, depth)
    }
}

impl PieceView for CrowdPosition {
    fn variant(&self) -> &'static Variant {
        CrowdPosition::variant(self)
    }
    fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        CrowdPosition::presence(self, color, kind)
    }
    fn occupied(&self) -> Bitboard {
        CrowdPosition::occupied(self)
    }
    fn by_color(&self, color: Color) -> Bitboard {
        CrowdPosition::by_color(self, color)
    }
    fn crowd_squares(&self) -> Bitboard {
        CrowdPosition::crowd_squares(self)
    }
    fn for_each_piece(&self, mut f: impl FnMut(Color, Kind, Square)) {
        let crowded = self.crowd_squares();
        for color in [Color::White, Color::Black] {
            for k in 0..self.variant().kinds.len() {
                for sq in self.presence(color, Kind(k as u8)) & !crowded {
                    f(color, Kind(k as u8), sq);
                }
            }
        }
        for (sq, members) in self.crowds() {
            for p in members {
                f(p.color, p.kind, *sq);
            }
        }
    }
}

impl Board for CrowdPosition {
    fn side(&self) -> Color {
        self.side_to_move()
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn halfmove_clock(&self) -> u32 {
        CrowdPosition::halfmove_clock(self)
    }
    fn generate(&self, out: &mut Vec<Move>, noisy_only: bool) {
        let zone = self.variant().promotion_zone[self.side_to_move().index()];
        out.extend(self.legal_moves().into_iter().filter(|&mv| {
            !noisy_only
                || mv.promotion.is_some() && zone.contains(mv.to)
                || self.captured(mv).is_some()
        }));
    }
    fn make(&self, mv: Move) -> Self {
        self.play(mv)
    }
    fn make_null(&self) -> Self {
        self.play_null()
    }
    fn victim(&self, mv: Move) -> Option<Kind> {
        self.captured(mv).map(|p| p.kind)
    }
    fn mover(&self, mv: Move) -> Kind {
        self.mover_kind(mv)
            .expect("a move names a piece of the side to move")
    }
    fn insufficient_material(&self) -> bool {
        false
    }
    fn attacked_by(&self, sq: Square, by: Color) -> bool {
        self.is_attacked(sq, by)
    }
    fn uci(&self, mv: Move) -> String {
        notation::uci(self, mv)
    }
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_uci(self, text)
    }
    fn fen(&self) -> String {
        self.to_fen()
    }
    fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        parity_rules::crowd::divide(self, depth)
    }
}

/// A simultaneous position: a shared square holds one white and one black
/// piece, each seen by the evaluation as if alone.
impl PieceView for SimPosition {
    fn variant(&self) -> &'static Variant {
        SimPosition::variant(self)
    }
    fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        self.pieces(color, kind)
    }
    fn occupied(&self) -> Bitboard {
        SimPosition::occupied(self)
    }
    fn by_color(&self, color: Color) -> Bitboard {
        SimPosition::by_color(self, color)
    }
}
