//! A new game as asked for: its terms, checked for shape, and the start
//! position it names.

use parity_rules::{AnyGame, Variant};

use crate::base::refusal::{Refusal, Said};
use crate::game::event::{LiveClock, Side};
use crate::game::play::fen_refused;

/// Who the creator plays against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    Friend,
    Engine { level: u8 },
}

/// The creator's colour choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// `POST /api/games`, checked for shape but not for sense.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub variant: String,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub opponent: Opponent,
    pub color: ColorChoice,
    /// Listed in `GET /api/games`; games are private unless asked.
    pub public: bool,
    /// A start position other than the variant's.
    pub fen: Option<String>,
}

/// What the creator gets back.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CreatedGame {
    pub id: String,
    pub color: Side,
    pub token: String,
    /// The invite token for the friend's seat.
    pub invite: Option<String>,
    /// The page's link for the friend: `/game/ID?invite=INVITE`.
    pub invite_url: Option<String>,
}

/// The canonical FEN of a game's start position read from `text`; none
/// for the variant's own start. A position the rules already end is refused.
pub fn start_position(variant: &'static Variant, text: &str) -> Result<Option<String>, Refusal> {
    let game = AnyGame::from_fen(variant, Some(text.trim()))
        .map_err(|e| Refusal::Malformed(fen_refused(variant.id(), &e)))?;
    if let Some(outcome) = game.outcome() {
        return Err(Refusal::Malformed(
            Said::new("server-fen-over")
                .with("variant", variant.id())
                .with("outcome", outcome),
        ));
    }
    let fen = game.start_fen();
    Ok((fen != AnyGame::new(variant).start_fen()).then_some(fen))
}
