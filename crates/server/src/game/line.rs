//! A line of play: a start position, the moves (or turns) played from it,
//! and the position after each, all from the rules. The game page's move
//! list navigates a game's line (`GET /api/games/{id}/positions`); the
//! analysis board builds its own (`POST /api/analysis/line`).

use parity_rules::any::Step;
use parity_rules::{record, AnyGame, Color, Registry};
use serde::{Deserialize, Serialize};

use crate::base::refusal::Refusal;
use crate::game::event::{Notes, Side, SideNotesPair};
use crate::game::play::{self, fen_refused, BoardSquare};
use crate::game::state::{Legal, MoveEntry, MoveNames, VariantInfo};

/// One position of a line, drawn as `gameFull` draws the current one.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    pub fen: String,
    /// None in simultaneous games (and in none other).
    pub to_move: Option<Side>,
    pub board: Vec<BoardSquare>,
}

impl PositionView {
    pub fn of(game: &AnyGame) -> PositionView {
        PositionView {
            fen: game.fen(),
            to_move: game.to_move().map(Side::from),
            board: play::board(game),
        }
    }
}

/// A line: `positions[0]` is the start, `positions[i]` the position after
/// `moves[i - 1]`.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub variant: VariantInfo,
    pub moves: Vec<MoveEntry>,
    pub positions: Vec<PositionView>,
    /// The legal moves in the last position (none once the rules end the game).
    pub legal: Legal,
    /// The rules' verdict on the last position, in words.
    pub outcome: Option<String>,
}

/// The `moves` entry of `step`, played from `before`.
fn entry(before: &AnyGame, step: &Step) -> MoveEntry {
    let names = |color: Color, mv| MoveNames {
        uci: before.uci(color, mv),
        san: before.san(color, mv),
    };
    match *step {
        Step::Move { color, mv, .. } => {
            let MoveNames { uci, san } = names(color, mv);
            MoveEntry::Single {
                color: color.into(),
                uci,
                san,
            }
        }
        Step::Turn { moves, notes, .. } => {
            let v = before.variant();
            MoveEntry::Pair {
                white: names(Color::White, moves[0]),
                black: names(Color::Black, moves[1]),
                notes: Box::new(SideNotesPair {
                    white: Notes::new(v, &notes[Color::White]),
                    black: Notes::new(v, &notes[Color::Black]),
                }),
            }
        }
    }
}

impl Line {
    /// The line of `game`, replayed from its start position.
    pub fn of(game: &AnyGame) -> Line {
        let mut replay = AnyGame::from_fen(game.variant(), Some(&game.start_fen()))
            .expect("a game's start position reads back");
        let mut moves = Vec::new();
        let mut positions = vec![PositionView::of(&replay)];
        for step in game.steps() {
            let entry = entry(&replay, &step);
            let played = match step {
                Step::Move { mv, .. } => replay.play_on(mv),
                Step::Turn { moves, .. } => replay.play_turn_on(moves[0], moves[1]).map(|_| ()),
            };
            if played.is_err() {
                break; // cannot be: every step was legal when it was played
            }
            moves.push(entry);
            positions.push(PositionView::of(&replay));
        }
        let over = game.outcome();
        let legal = |c| {
            if over.is_some() {
                Vec::new()
            } else {
                play::legal_texts(&replay, c)
            }
        };
        Line {
            variant: VariantInfo::new(game.variant()),
            moves,
            positions,
            legal: Legal {
                white: legal(Color::White),
                black: legal(Color::Black),
            },
            outcome: over.map(|o| o.to_string()),
        }
    }
}

/// What the analysis board asks about: a variant's position given by a
/// FEN (or its start) and moves from it, or by a PGN.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves in coordinates (`e2e4`), or turns `white:black` (`e2e4:e7e5`).
    #[serde(default)]
    pub moves: Vec<String>,
    /// A PGN, whose `[Variant]` and `[FEN]` tags win over `variant` and `fen`.
    #[serde(default)]
    pub pgn: Option<String>,
}

/// The most moves or turns an analysis line may hold.
pub const MAX_LINE: usize = 1000;

impl LineRequest {
    /// The game the request describes, every refusal a 400.
    pub fn game(&self, registry: &Registry) -> Result<AnyGame, Refusal> {
        let bad = Refusal::Malformed;
        if self.moves.len() > MAX_LINE {
            return Err(bad(format!("at most {MAX_LINE} moves").into()));
        }
        if let Some(text) = self.pgn.as_deref().filter(|t| !t.trim().is_empty()) {
            let mut parsed =
                record::parse(text).map_err(|e| bad(format!("bad PGN: {e}").into()))?;
            if parsed.tag("Variant").is_none() {
                let id = self.variant.as_deref().unwrap_or("chess");
                parsed.tags.push(("Variant".into(), id.into()));
            }
            let variant =
                record::variant_of(registry, &parsed).map_err(|e| bad(e.to_string().into()))?;
            return record::replay_with(variant, &parsed, |_, _| {})
                .map_err(|e| bad(format!("bad PGN: {e}").into()));
        }
        let id = self.variant.as_deref().unwrap_or("chess");
        let variant = registry
            .get_or_err(id)
            .map_err(|e| bad(e.to_string().into()))?;
        let fen = self.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let mut game = AnyGame::from_fen(variant, fen).map_err(|e| bad(fen_refused(id, &e)))?;
        for text in &self.moves {
            game.play_text(text, false).map_err(|e| bad(e.into()))?;
        }
        Ok(game)
    }
}
