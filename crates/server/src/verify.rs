//! `parity verify`: checks a game record (`GET /api/games/GAMEID/record`)
//! without the server: every commitment against its move and nonce, every
//! move against the rules, and the stated result against the final
//! position. It replays the events through `play` (the thin layer over
//! `parity-rules`) alone; nothing of the server's game state is used.

use std::collections::HashMap;
use std::fmt;

use parity_rules::{AnyGame, Outcome, Reason, Registry};
use serde::Deserialize;

use crate::event::{Event, EventBody, RevealedMove, Side};
use crate::play;
use crate::secret;

/// A record as the server writes it.
#[derive(Debug, Deserialize)]
pub struct Record {
    pub id: String,
    pub variant: String,
    pub fen: String,
    pub events: Vec<Event>,
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("not a game record: {0}")]
    Unreadable(String),
    #[error("{0}")]
    Record(String),
    #[error("event {seq} ({kind}): {message}")]
    Event {
        seq: u64,
        kind: &'static str,
        message: String,
    },
}

/// What a record that verifies says.
#[derive(Debug, PartialEq, Eq)]
pub struct Verified {
    pub id: String,
    pub variant: String,
    /// Moves (turn-based) or turns (simultaneous).
    pub played: usize,
    pub commitments: usize,
    /// Result and reason, if the game is over.
    pub ending: Option<(String, Reason)>,
}

impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} ({}): {} ", self.id, self.variant, self.played)?;
        if self.commitments > 0 {
            write!(
                f,
                "turns legal, {} commitments match their moves and nonces",
                self.commitments
            )?;
        } else {
            write!(f, "moves legal")?;
        }
        match &self.ending {
            Some((result, reason)) => write!(f, ", result {result} ({}) stands", reason.name()),
            None => write!(f, ", game not finished"),
        }
    }
}

pub fn verify(registry: &Registry, text: &str) -> Result<Verified, VerifyError> {
    let record: Record =
        serde_json::from_str(text).map_err(|e| VerifyError::Unreadable(e.to_string()))?;
    let variant = registry
        .get(&record.variant)
        .ok_or_else(|| VerifyError::Record(format!("unknown variant {}", record.variant)))?;
    let mut game = AnyGame::new(variant);
    if game.start_fen() != record.fen {
        return Err(VerifyError::Record(format!(
            "the start position {} is not the variant's ({})",
            record.fen,
            game.start_fen()
        )));
    }
    let mut commitments: HashMap<(u32, Side), String> = HashMap::new();
    let mut ending = None;
    for (i, event) in record.events.iter().enumerate() {
        let fail = |message: String| VerifyError::Event {
            seq: event.seq,
            kind: event.body.kind(),
            message,
        };
        if event.seq != i as u64 + 1 {
            return Err(fail(format!("expected seq {}", i + 1)));
        }
        let after_end = !matches!(
            event.body,
            EventBody::RematchOffer { .. } | EventBody::Rematch { .. }
        );
        if ending.is_some() && after_end {
            return Err(fail("an event after the end of the game".into()));
        }
        match &event.body {
            EventBody::Created { variant: v, .. } => {
                if i != 0 || *v != record.variant {
                    return Err(fail(
                        "`created` must come first, with the record's variant".into(),
                    ));
                }
            }
            EventBody::Move {
                color,
                uci,
                san,
                fen,
                ..
            } => {
                let c = color.color();
                if game.to_move() != Some(c) {
                    return Err(fail(format!("{} moved out of turn", c.name())));
                }
                let mv = play::read_move(&game, c, uci).map_err(|e| fail(e.to_string()))?;
                let expected_san = game.san(c, mv);
                game.play(mv).map_err(|e| fail(e.to_string()))?;
                if *san != expected_san || *fen != game.fen() {
                    return Err(fail(format!(
                        "{uci} gives {expected_san} and {}, the record says {san} and {fen}",
                        game.fen()
                    )));
                }
            }
            EventBody::Committed {
                color,
                turn,
                commitment,
                ..
            } => {
                if !game.is_simultaneous() || *turn != game.turn() {
                    return Err(fail(format!("a commitment for turn {turn} here")));
                }
                if commitments
                    .insert((*turn, *color), commitment.clone())
                    .is_some()
                {
                    return Err(fail("a second commitment for the same turn".into()));
                }
            }
            EventBody::Revealed { color, turn, .. } => {
                if !commitments.contains_key(&(*turn, *color)) {
                    return Err(fail("a reveal without a commitment".into()));
                }
            }
            EventBody::Turn {
                turn,
                white,
                black,
                fen,
                ..
            } => {
                if *turn != game.turn() {
                    return Err(fail(format!(
                        "turn {turn} where turn {} is due",
                        game.turn()
                    )));
                }
                let mut moves = Vec::with_capacity(2);
                for (side, shown) in [(Side::White, white), (Side::Black, black)] {
                    check_commitment(&record.id, *turn, side, shown, &commitments)
                        .map_err(&fail)?;
                    let mv = play::read_move(&game, side.color(), &shown.uci)
                        .map_err(|e| fail(format!("{}: {e}", side.color().name())))?;
                    moves.push(mv);
                }
                game.play_turn(moves[0], moves[1])
                    .map_err(|e| fail(e.to_string()))?;
                if *fen != game.fen() {
                    return Err(fail(format!(
                        "the turn gives {}, the record says {fen}",
                        game.fen()
                    )));
                }
            }
            EventBody::Finished { result, reason, .. } => {
                check_ending(&game, result, *reason).map_err(fail)?;
                ending = Some((result.clone(), *reason));
            }
            EventBody::Joined { .. }
            | EventBody::Started { .. }
            | EventBody::DrawOffer { .. }
            | EventBody::DrawDeclined { .. }
            | EventBody::RematchOffer { .. }
            | EventBody::Rematch { .. } => {}
        }
    }
    if ending.is_none() && game.outcome().is_some() {
        return Err(VerifyError::Record(
            "the rules ended the game but the record has no `finished`".into(),
        ));
    }
    Ok(Verified {
        id: record.id,
        variant: record.variant,
        played: game.played(),
        commitments: commitments.len(),
        ending,
    })
}

/// The revealed move and nonce hash to the commitment made for them.
fn check_commitment(
    game: &str,
    turn: u32,
    side: Side,
    shown: &RevealedMove,
    commitments: &HashMap<(u32, Side), String>,
) -> Result<(), String> {
    let name = side.color().name();
    let committed = commitments
        .get(&(turn, side))
        .ok_or_else(|| format!("{name} never committed in turn {turn}"))?;
    if *committed != shown.commitment {
        return Err(format!("{name}'s commitment differs from the one made"));
    }
    if secret::commitment(game, turn, side.color(), &shown.uci, &shown.nonce) != *committed {
        return Err(format!(
            "{name}'s move {} and nonce {} do not match its commitment",
            shown.uci, shown.nonce
        ));
    }
    Ok(())
}

/// The stated result follows from the position: the rules' verdict if
/// they end the game here, else one of the endings players declare.
fn check_ending(game: &AnyGame, result: &str, reason: Reason) -> Result<(), String> {
    if let Some(end) = game.outcome() {
        if result != end.result() || reason != end.reason {
            return Err(format!(
                "the rules say {} ({}), the record says {result} ({})",
                end.result(),
                end.reason.name(),
                reason.name()
            ));
        }
        return Ok(());
    }
    let fits = match reason {
        Reason::Agreement | Reason::Abort => result == Outcome::draw(reason).result(),
        Reason::Resignation | Reason::Time => result == "1-0" || result == "0-1",
        Reason::NoReveal => ["1-0", "0-1", "1/2-1/2"].contains(&result),
        _ => {
            return Err(format!(
                "the rules do not end the game here, yet it ended by {}",
                reason.name()
            ))
        }
    };
    if !fits {
        return Err(format!("{result} cannot be the result of {}", reason.name()));
    }
    Ok(())
}
