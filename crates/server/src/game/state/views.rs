//! What clients see of a game: the `gameFull` view and the games table's row.

use std::time::Instant;

use parity_rules::variant::Family;
use parity_rules::{Color, Reason, Variant};
use serde::{Deserialize, Serialize};

use super::{GameState, MoveEntry, Status};
use crate::game::event::{Clocks, LiveClock, Seat, Side};
use crate::game::play::{self, BoardSquare};

impl GameState {
    /// The row of the games table.
    pub fn summary(&self) -> Summary {
        // A simultaneous entry is a turn of both sides; the others alternate.
        let both_moved = match self.play.is_simultaneous() {
            true => !self.moves.is_empty(),
            false => self.moves.len() >= 2,
        };
        Summary {
            status: self.status,
            result: self.result.clone(),
            reason: self.reason,
            turn: self.play.turn(),
            both_moved,
        }
    }

    /// `gameFull` as seen by `you`; `invite` is the unused invite link,
    /// given only to the game's creator.
    pub fn full(&self, you: Option<Color>, invite: Option<String>, now: Instant) -> GameFull {
        let started = self.status == Status::Started;
        let sim = self.play.is_simultaneous();
        let legal = |c| {
            if started {
                play::legal_texts(&self.play, c)
            } else {
                Vec::new()
            }
        };
        let pair = |f: &dyn Fn(Color) -> bool| BothSides {
            white: f(Color::White),
            black: f(Color::Black),
        };
        GameFull {
            id: self.id.clone(),
            seq: self.seq(),
            variant: VariantInfo::new(self.setup.variant),
            clock: self.setup.clock,
            days: self.setup.days,
            white: SeatView::new(self.seat(Color::White), self.joined(Color::White)),
            black: SeatView::new(self.seat(Color::Black), self.joined(Color::Black)),
            you: you.map(Side::from),
            status: self.status,
            result: self.result.clone(),
            reason: self.reason,
            reason_text: self.reason.map(|r| r.text().to_string()),
            fen: self.play.fen(),
            initial_fen: self.setup.fen.clone(),
            turn: self.play.turn(),
            to_move: if started {
                self.play.to_move().map(Side::from)
            } else {
                None
            },
            board: play::board(&self.play),
            moves: self.moves.clone(),
            last_move_at: self.last_move_at,
            committed: sim.then(|| pair(&|c| self.committed(c))),
            revealed: sim.then(|| pair(&|c| self.revealed(c))),
            commitments: sim.then(|| BothSides {
                white: self.commitment(Color::White).map(str::to_string),
                black: self.commitment(Color::Black).map(str::to_string),
            }),
            reveal_deadline_ms: self
                .sim
                .reveal_deadline
                .map(|d| d.saturating_duration_since(now).as_millis() as i64),
            legal: Legal {
                white: legal(Color::White),
                black: legal(Color::Black),
            },
            clocks: self.clock.as_ref().map(|c| c.current(now)),
            draw_offer: self.draw_offer.map(Side::from),
            berserk: (self.berserk(Color::White) || self.berserk(Color::Black)).then(|| {
                BothSides {
                    white: self.berserk(Color::White),
                    black: self.berserk(Color::Black),
                }
            }),
            rematch: match (&self.rematch, self.rematch_offer) {
                (Some(game), _) => Some(RematchView::Game { game: game.clone() }),
                (None, Some(c)) => Some(RematchView::Offer { offer: c.into() }),
                (None, None) => None,
            },
            rematch_of: self.setup.rematch_of.clone(),
            invite,
        }
    }
}

/// The games table's view of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub status: Status,
    pub result: Option<String>,
    pub reason: Option<Reason>,
    pub turn: u32,
    /// Each side has made a move: only then does a rated game change
    /// ratings (a resignation before it is not a win to farm).
    pub both_moved: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceInfo {
    pub letter: String,
    pub name: String,
    pub betza: String,
}

/// A variant as `gameFull.variant` describes it (and `GET /api/variants`, with its start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantInfo {
    pub id: String,
    pub name: String,
    /// One line for a newcomer (the variant file's `description`).
    pub description: String,
    /// `"turn-based"`, `"crowd"` or `"simultaneous"`.
    pub family: Family,
    pub files: u8,
    pub ranks: u8,
    pub pieces: Vec<PieceInfo>,
}

impl VariantInfo {
    pub fn new(v: &Variant) -> VariantInfo {
        VariantInfo {
            id: v.id().to_string(),
            name: v.spec.name.clone(),
            description: v.spec.description.clone(),
            family: v.spec.family,
            files: v.shape.files,
            ranks: v.shape.ranks,
            pieces: v
                .spec
                .pieces
                .iter()
                .map(|p| PieceInfo {
                    letter: p.letter.to_string(),
                    name: p.name.to_lowercase(),
                    betza: p.betza.clone(),
                })
                .collect(),
        }
    }
}

/// A variant as `GET /api/variants` lists it: with its start position,
/// which the lobby's cards draw.
#[derive(Clone, Debug, Serialize)]
pub struct VariantListing {
    #[serde(flatten)]
    pub info: VariantInfo,
    pub start: Vec<BoardSquare>,
}

impl VariantListing {
    pub fn new(v: &'static Variant) -> VariantListing {
        VariantListing {
            info: VariantInfo::new(v),
            start: play::board(&parity_rules::AnyGame::new(v)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    #[serde(flatten)]
    pub seat: Seat,
    /// Human seats: whether someone holds the seat's token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<bool>,
}

impl SeatView {
    fn new(seat: Seat, joined: bool) -> SeatView {
        SeatView {
            seat,
            joined: matches!(seat, Seat::Human).then_some(joined),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BothSides<T = bool> {
    pub white: T,
    pub black: T,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Legal {
    pub white: Vec<String>,
    pub black: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RematchView {
    Offer { offer: Side },
    Game { game: String },
}

/// The whole state of a game for one viewer (`docs/server.md`, "Game state"):
/// what the page, a node asking the owner and the lichess adapter read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "gameFull")]
pub struct GameFull {
    pub id: String,
    pub seq: u64,
    pub variant: VariantInfo,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub white: SeatView,
    pub black: SeatView,
    pub you: Option<Side>,
    pub status: Status,
    pub result: Option<String>,
    pub reason: Option<Reason>,
    /// The reason in words, as the page shows it.
    pub reason_text: Option<String>,
    pub fen: String,
    /// The start position when it is not the variant's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_fen: Option<String>,
    pub turn: u32,
    pub to_move: Option<Side>,
    pub board: Vec<BoardSquare>,
    pub moves: Vec<MoveEntry>,
    /// When the last move or turn was played (ms since the Unix epoch).
    pub last_move_at: Option<i64>,
    pub committed: Option<BothSides>,
    pub revealed: Option<BothSides>,
    /// This turn's commitments (hashes every viewer has seen in the events):
    /// a page tells by them whether it holds its seat's secret.
    pub commitments: Option<BothSides<Option<String>>>,
    /// Games without a clock, once both commitments are in: milliseconds
    /// until a side that revealed may claim the game (0 once it may).
    pub reveal_deadline_ms: Option<i64>,
    pub legal: Legal,
    pub clocks: Option<Clocks>,
    pub draw_offer: Option<Side>,
    /// The sides that went berserk (an arena's games); absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub berserk: Option<BothSides>,
    pub rematch: Option<RematchView>,
    pub rematch_of: Option<String>,
    pub invite: Option<String>,
}

/// Lichess's key of one of our variants: chess is `standard`, ours keep their ids.
pub fn variant_key(id: &str) -> &str {
    match id {
        "chess" => "standard",
        other => other,
    }
}

/// Our variant id of a lichess key (`standard` and `chess` are chess).
pub fn variant_id(key: &str) -> &str {
    match key {
        "standard" | "fromPosition" => "chess",
        other => other,
    }
}
