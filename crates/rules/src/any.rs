//! A game of any family: the one place that tells the three rule families
//! apart. Everything outside `rules` that is not family-specific (the
//! server, the arena, the command line, the engine's front end) plays
//! through [`AnyGame`].

use crate::crowd::CrowdPosition;
use crate::fen::FenError;
use crate::game::{Game, GameError, SimGame, TurnPosition};
use crate::notation::{self, MoveContext, NotationError};
use crate::outcome::Outcome;
use crate::position::Position;
use crate::simultaneous::{self, SideNotes, SimPosition};
use crate::types::{ByColor, Color, Kind, Move, Piece};
use crate::variant::{Family, Variant};
use crate::view::PieceView;

/// A game of a variant of any family.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A turn-based game on a board of more than 64 squares.
    TurnBased(Game<Position>),
    /// A turn-based game on a board of at most 64 squares, on 64-bit sets.
    TurnBased64(Game<Position<u64>>),
    Crowd(Game<CrowdPosition>),
    Simultaneous(SimGame),
}

/// Runs `$turns` on a turn-based or crowd game `$g`, `$sim` on a simultaneous one `$s`.
macro_rules! by_family {
    ($game:expr, $g:ident => $turns:expr, $s:ident => $sim:expr) => {
        match $game {
            AnyGame::TurnBased($g) => $turns,
            AnyGame::TurnBased64($g) => $turns,
            AnyGame::Crowd($g) => $turns,
            AnyGame::Simultaneous($s) => $sim,
        }
    };
}

/// One step of a game as played: a move of one side, or a simultaneous turn.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Move {
        /// The full move number.
        number: u32,
        color: Color,
        mv: Move,
    },
    Turn {
        number: u32,
        moves: [Move; 2],
        notes: ByColor<SideNotes>,
    },
}

fn start_of<P: TurnPosition>(variant: &'static Variant, fen: Option<&str>) -> Result<P, FenError> {
    fen.map_or_else(|| Ok(P::start(variant)), |f| P::from_fen(variant, f))
}

impl AnyGame {
    /// A game from the variant's start position.
    pub fn new(variant: &'static Variant) -> AnyGame {
        AnyGame::from_fen(variant, None).expect("a variant's start position is valid")
    }

    /// A game from `fen`, or from the variant's start position.
    pub fn from_fen(variant: &'static Variant, fen: Option<&str>) -> Result<AnyGame, FenError> {
        Ok(match variant.spec.family {
            Family::TurnBased if variant.boards64.is_some() => {
                AnyGame::TurnBased64(Game::new(start_of(variant, fen)?))
            }
            Family::TurnBased => AnyGame::TurnBased(Game::new(start_of(variant, fen)?)),
            Family::Crowd => AnyGame::Crowd(Game::new(start_of(variant, fen)?)),
            Family::Simultaneous => AnyGame::Simultaneous(SimGame::new(match fen {
                Some(f) => SimPosition::from_fen(variant, f)?,
                None => SimPosition::start(variant),
            })),
        })
    }

    pub fn variant(&self) -> &'static Variant {
        by_family!(self, g => g.position().variant(), s => s.position().variant())
    }

    pub fn is_simultaneous(&self) -> bool {
        matches!(self, AnyGame::Simultaneous(_))
    }

    /// FEN of the current position (crowds as `(PPn)`, shared squares as `(Xy)`).
    pub fn fen(&self) -> String {
        by_family!(self, g => g.position().fen(), s => s.position().to_fen())
    }

    /// FEN of the start position.
    pub fn start_fen(&self) -> String {
        by_family!(self, g => g.start().fen(), s => s.start().to_fen())
    }

    /// True when the game started from the variant's own start position.
    pub fn starts_from_variant_start(&self) -> bool {
        AnyGame::new(self.variant()).start_fen() == self.start_fen()
    }

    /// The full move number (turn-based) or the turn number (simultaneous).
    pub fn turn(&self) -> u32 {
        by_family!(self, g => g.position().fullmove_number(), s => s.position().turn_number())
    }

    /// Moves (turn-based) or turns (simultaneous) played so far.
    pub fn played(&self) -> usize {
        by_family!(self, g => g.moves().len(), s => s.turns().len())
    }

    /// The side to move; none in simultaneous games, where both move at once.
    pub fn to_move(&self) -> Option<Color> {
        by_family!(self, g => Some(g.position().side()), _s => None)
    }

    /// The side to move of a turn-based game, or `color` in a simultaneous one.
    fn mover_or(&self, color: Color) -> Color {
        self.to_move().unwrap_or(color)
    }

    pub fn in_check(&self, color: Color) -> bool {
        by_family!(self, g => g.position().side() == color && g.position().in_check(),
            s => s.position().in_check(color))
    }

    /// Runs `f` on the move context of `color` (whose moves are read and written).
    fn with_context<T>(&self, color: Color, f: impl FnOnce(&dyn MoveContext) -> T) -> T {
        match self {
            AnyGame::TurnBased(g) => f(g.position()),
            AnyGame::TurnBased64(g) => f(g.position()),
            AnyGame::Crowd(g) => f(g.position()),
            AnyGame::Simultaneous(s) => f(&s.position().side(color)),
        }
    }

    /// The legal moves of `color` now (none for the side not to move).
    pub fn legal_moves(&self, color: Color) -> Vec<Move> {
        if self.mover_or(color) != color {
            return Vec::new();
        }
        self.with_context(color, |c| c.legal())
    }

    /// Reads a move of `color` in coordinates, strictly.
    pub fn parse_uci(&self, color: Color, text: &str) -> Result<Move, NotationError> {
        self.with_context(color, |c| notation::parse_uci(c, text))
    }

    /// Reads a move of `color` in SAN.
    pub fn parse_san(&self, color: Color, text: &str) -> Result<Move, NotationError> {
        self.with_context(color, |c| notation::parse_san(c, text))
    }

    /// Reads a move of `color` leniently: coordinates in any case, then SAN.
    pub fn read_move(&self, color: Color, text: &str) -> Result<Move, NotationError> {
        self.with_context(color, |c| notation::parse_lenient(c, text))
    }

    /// Coordinates of a legal move of `color`.
    pub fn uci(&self, color: Color, mv: Move) -> String {
        self.with_context(color, |c| notation::uci(c, mv))
    }

    /// SAN of a legal move of `color`, with check marks in the families
    /// that move in turn (simultaneous records note checks apart).
    pub fn san(&self, color: Color, mv: Move) -> String {
        by_family!(self, g => g.position().san(mv),
            s => notation::san_plain(&s.position().side(color), mv))
    }

    /// The kind of enemy piece a legal move of `color` captures, if any (a
    /// crowd join captures nothing; a simultaneous capture may still fail).
    pub fn captured(&self, color: Color, mv: Move) -> Option<Kind> {
        self.with_context(color, |c| c.captured(mv))
    }

    /// Plays a move of a game whose sides move in turn.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        by_family!(self, g => g.play(mv),
            _s => Err(GameError::WrongFamily("both sides move at once here: play a turn")))
    }

    /// Plays a move even after the rules ended the game.
    pub fn play_on(&mut self, mv: Move) -> Result<(), GameError> {
        by_family!(self, g => g.play_on(mv),
            _s => Err(GameError::WrongFamily("both sides move at once here: play a turn")))
    }

    /// Resolves a simultaneous turn.
    pub fn play_turn(&mut self, white: Move, black: Move) -> Result<ByColor<SideNotes>, GameError> {
        match self {
            AnyGame::Simultaneous(s) => s.play(white, black),
            _ => Err(GameError::WrongFamily("only simultaneous games have turns")),
        }
    }

    /// Resolves a turn even after the rules ended the game.
    pub fn play_turn_on(
        &mut self,
        white: Move,
        black: Move,
    ) -> Result<ByColor<SideNotes>, GameError> {
        match self {
            AnyGame::Simultaneous(s) => s.play_on(white, black),
            _ => Err(GameError::WrongFamily("only simultaneous games have turns")),
        }
    }

    /// Plays one step written in coordinates: a move or, in a simultaneous
    /// game, a turn `white:black`. `on` plays past the end of the game.
    pub fn play_text(&mut self, text: &str, on: bool) -> Result<(), String> {
        if let Some(color) = self.to_move() {
            let mv = self
                .parse_uci(color, text)
                .map_err(|e| format!("move {text}: {e}"))?;
            let played = if on { self.play_on(mv) } else { self.play(mv) };
            return played.map_err(|e| format!("move {text}: {e}"));
        }
        let (w, b) = text
            .split_once(':')
            .ok_or_else(|| format!("turn {text}: write it white:black, e.g. e2e4:e7e5"))?;
        let read = |color: Color, part: &str| {
            self.parse_uci(color, part)
                .map_err(|e| format!("turn {text}: {} {part}: {e}", color.name()))
        };
        let (w, b) = (read(Color::White, w)?, read(Color::Black, b)?);
        let played = if on {
            self.play_turn_on(w, b)
        } else {
            self.play_turn(w, b)
        };
        played.map(|_| ()).map_err(|e| format!("turn {text}: {e}"))
    }

    /// The rules' verdict on the current position, if they end the game.
    pub fn outcome(&self) -> Option<Outcome> {
        by_family!(self, g => g.outcome(), s => s.outcome())
    }

    /// Zobrist key of the current position (tells openings apart).
    pub fn key(&self) -> u64 {
        by_family!(self, g => g.position().key(), s => s.position().hash())
    }

    /// Material of each side by the variant's piece values (kings count 0).
    pub fn material(&self) -> [i64; 2] {
        by_family!(self, g => g.position().material(), s => s.position().material())
    }

    /// The pieces on each square, in square order, white first.
    pub fn pieces(&self) -> Vec<(crate::geometry::Square, Vec<Piece>)> {
        let mut cells = vec![Vec::new(); self.variant().shape.len()];
        let mut add = |color, kind, sq: crate::geometry::Square| {
            cells[sq.index()].push(Piece { color, kind });
        };
        by_family!(self, g => g.position().for_each_piece(&mut add),
            s => s.position().for_each_piece(&mut add));
        let shape = self.variant().shape;
        shape
            .squares()
            .zip(cells)
            .filter(|(_, c)| !c.is_empty())
            .map(|(sq, mut c)| {
                c.sort_by_key(|p| (p.color, p.kind));
                (sq, c)
            })
            .collect()
    }

    /// The sides whose piece on `sq` moved in the last move or turn.
    pub fn last_moved(&self, sq: crate::geometry::Square) -> Vec<Color> {
        match self {
            AnyGame::TurnBased(g) => last_mover(g, sq),
            AnyGame::TurnBased64(g) => last_mover(g, sq),
            AnyGame::Crowd(g) => last_mover(g, sq),
            AnyGame::Simultaneous(s) => Color::ALL
                .into_iter()
                .filter(|&c| s.position().last_moved(c).contains(sq))
                .collect(),
        }
    }

    /// Every step played, with the game as it stood after it.
    pub fn steps(&self) -> Vec<Step> {
        match self {
            AnyGame::TurnBased(g) => turn_steps(g),
            AnyGame::TurnBased64(g) => turn_steps(g),
            AnyGame::Crowd(g) => turn_steps(g),
            AnyGame::Simultaneous(s) => s
                .turns()
                .iter()
                .zip(s.positions())
                .map(|(&(moves, notes), before)| Step::Turn {
                    number: before.turn_number(),
                    moves,
                    notes,
                })
                .collect(),
        }
    }

    /// Perft: move paths (turn-based) or joint move pairs (simultaneous)
    /// to `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            AnyGame::TurnBased(g) => g.position().perft(depth),
            AnyGame::TurnBased64(g) => g.position().perft(depth),
            AnyGame::Crowd(g) => g.position().perft(depth),
            AnyGame::Simultaneous(s) => simultaneous::perft(s.position(), depth),
        }
    }

    /// Perft per root move (per pair of moves, White's first, in a
    /// simultaneous game), in coordinates.
    pub fn divide(&self, depth: u32) -> Vec<(Vec<String>, u64)> {
        match self {
            AnyGame::TurnBased(g) => text_divide(g.position(), depth),
            AnyGame::TurnBased64(g) => text_divide(g.position(), depth),
            AnyGame::Crowd(g) => text_divide(g.position(), depth),
            AnyGame::Simultaneous(s) if depth > 0 => {
                let pos = s.position();
                let mut out = Vec::new();
                for w in pos.legal_moves(Color::White) {
                    for b in pos.legal_moves(Color::Black) {
                        let n = simultaneous::perft(&pos.play_unchecked([w, b]), depth - 1);
                        let text = vec![
                            notation::uci(&pos.side(Color::White), w),
                            notation::uci(&pos.side(Color::Black), b),
                        ];
                        out.push((text, n));
                    }
                }
                out
            }
            AnyGame::Simultaneous(_) => Vec::new(),
        }
    }
}

fn last_mover<P: TurnPosition>(g: &Game<P>, sq: crate::geometry::Square) -> Vec<Color> {
    let mover = g.position().side().other();
    g.moves()
        .last()
        .filter(|m| m.to == sq)
        .map(|_| mover)
        .into_iter()
        .collect()
}

fn turn_steps<P: TurnPosition>(g: &Game<P>) -> Vec<Step> {
    g.moves()
        .iter()
        .zip(g.positions())
        .map(|(&mv, before)| Step::Move {
            number: before.fullmove_number(),
            color: before.side(),
            mv,
        })
        .collect()
}

fn text_divide<P: TurnPosition>(pos: &P, depth: u32) -> Vec<(Vec<String>, u64)> {
    pos.divide(depth)
        .into_iter()
        .map(|(mv, n)| (vec![pos.uci(mv)], n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Reason;
    use crate::registry::Registry;

    #[test]
    fn plays_every_family_through_one_type() {
        let reg = Registry::builtin();
        let mut chess = AnyGame::new(reg.get("chess").unwrap());
        assert_eq!(chess.legal_moves(Color::White).len(), 20);
        assert!(chess.legal_moves(Color::Black).is_empty());
        for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            chess.play_text(text, false).unwrap();
        }
        assert_eq!(
            chess.outcome(),
            Some(Outcome::win(Color::Black, Reason::Checkmate))
        );
        assert!(chess.play_text("e1f2", false).is_err());

        let mut parity = AnyGame::new(reg.get("parity").unwrap());
        assert_eq!(parity.to_move(), None);
        parity.play_text("g1f3:b8c6", false).unwrap();
        assert!(parity.play(parity.legal_moves(Color::White)[0]).is_err());
        assert!(parity.play_text("e2e4", false).is_err());
        assert_eq!(parity.turn(), 2);
        assert!(matches!(parity.steps()[..], [Step::Turn { number: 1, .. }]));

        let crowd = AnyGame::from_fen(
            reg.get("safety-in-numbers").unwrap(),
            Some("4k3/8/8/3(PPn)4/8/8/8/4K3 w - - 0 1"),
        )
        .unwrap();
        assert_eq!(crowd.material(), [200, 320]);
        assert_eq!(
            crowd
                .pieces()
                .iter()
                .find(|(_, p)| p.len() == 3)
                .map(|(_, p)| p.len()),
            Some(3)
        );
        assert!(AnyGame::from_fen(reg.get("chess").unwrap(), Some("nonsense")).is_err());
    }

    #[test]
    fn reads_engine_moves_leniently() {
        let reg = Registry::builtin();
        let g = AnyGame::from_fen(
            reg.get("chess").unwrap(),
            Some("4k3/P7/8/8/8/8/8/4K2R w K - 0 1"),
        )
        .unwrap();
        for text in ["a7a8q", "a7a8Q", "A7A8Q"] {
            let mv = g.read_move(Color::White, text).unwrap();
            assert_eq!(g.uci(Color::White, mv), "a7a8q");
        }
        let castle = g.read_move(Color::White, "O-O").unwrap();
        assert_eq!(g.uci(Color::White, castle), "e1g1");
        assert!(matches!(
            g.read_move(Color::White, "e2e4"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(g.read_move(Color::White, "hello").is_err());
    }

    #[test]
    fn typed_moves_in_every_notation_resolve() {
        let reg = Registry::builtin();
        let chess = |fen| AnyGame::from_fen(reg.get("chess").unwrap(), Some(fen)).unwrap();
        let g = chess("4k3/8/8/3n4/3QP3/8/8/4K3 w - - 0 1");
        let knight = chess("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1");
        for (game, text, expected) in [
            (&g, "exN", "e4d5"),
            (&g, "Qd4xd5", "d4d5"),
            (&g, "Qxd5", "d4d5"),
            (&g, "e5", "e4e5"),
            (&knight, "Nc3-e4", "c3e4"),
            (&knight, "Nb5", "c3b5"),
            (&knight, "c3b5", "c3b5"),
        ] {
            let mv = game
                .read_move(Color::White, text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(game.uci(Color::White, mv), expected, "{text}");
        }
        // Text that is not coordinates is answered in SAN's words.
        let err = g.read_move(Color::White, "Nf3").unwrap_err();
        assert!(matches!(err, NotationError::Illegal { .. }), "{err}");
        // The same forms in a simultaneous game and a crowd game.
        for variant in ["parity", "safety-in-numbers"] {
            let g = AnyGame::from_fen(reg.get(variant).unwrap(), None).unwrap();
            for (text, expected) in [("Nf3", "g1f3"), ("Ng1-f3", "g1f3"), ("e4", "e2e4")] {
                let mv = g
                    .read_move(Color::White, text)
                    .unwrap_or_else(|e| panic!("{variant} {text}: {e}"));
                assert_eq!(g.uci(Color::White, mv), expected, "{variant} {text}");
            }
        }
    }
}
