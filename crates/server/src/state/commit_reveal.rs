//! A simultaneous turn: commitments, reveals checked against them, and
//! the turn resolved by the rules once both moves are known.

use std::time::Instant;

use parity_rules::Color;

use super::{Decision, GameState, Hidden, Refusal};
use crate::event::{EventBody, Notes, RevealedMove, SideNotesPair};
use crate::{play, secret};

impl GameState {
    pub(super) fn decide_commit(
        &self,
        color: Color,
        commitment: &str,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        if !self.play.is_simultaneous() {
            return Err(Refusal::NotNow(
                "this game is turn-based: send moves, not commitments".into(),
            ));
        }
        if !secret::is_commitment(commitment) {
            return Err(Refusal::Malformed(
                "a commitment is 64 lowercase hex characters (SHA-256)".into(),
            ));
        }
        if self.committed(color) {
            return Err(Refusal::NotNow("you already committed this turn".into()));
        }
        let other = color.other();
        let running = Color::ALL.map(|c| c == other && !self.committed(other));
        Ok(Decision {
            events: vec![EventBody::Committed {
                color: color.into(),
                turn: self.play.turn(),
                commitment: commitment.to_string(),
                clocks: self.clocks_after_move(now, color, running),
            }],
            hidden: None,
        })
    }

    pub(super) fn decide_reveal(
        &self,
        color: Color,
        text: &str,
        nonce: &str,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        if !self.play.is_simultaneous() {
            return Err(Refusal::NotNow(
                "this game is turn-based: nothing to reveal".into(),
            ));
        }
        if !self.committed(Color::White) || !self.committed(Color::Black) {
            return Err(Refusal::NotNow(
                "reveal only once both commitments are in".into(),
            ));
        }
        if self.revealed(color) {
            return Err(Refusal::NotNow("you already revealed this turn".into()));
        }
        if !secret::is_nonce(nonce) {
            return Err(Refusal::Malformed(
                "a nonce is 32 lowercase hex characters".into(),
            ));
        }
        let turn = self.play.turn();
        let commitment = self.sim.commitments[color.index()]
            .as_deref()
            .unwrap_or_default();
        if secret::commitment(&self.id, turn, color, text, nonce) != commitment {
            return Err(Refusal::Unacceptable(
                "the move and nonce do not match your commitment".into(),
            ));
        }
        let mv = play::read_move(&self.play, color, text)?;
        let hidden = Hidden {
            turn,
            color,
            mv: text.to_string(),
            nonce: nonce.to_string(),
        };
        let mut events = vec![EventBody::Revealed {
            color: color.into(),
            turn,
        }];
        let other = color.other();
        if self.revealed(other) {
            let Some(theirs) = self.hidden(other) else {
                return Err(Refusal::NotNow(
                    "the other reveal is not at hand; try again".into(),
                ));
            };
            let their_mv = play::read_move(&self.play, other, &theirs.mv)?;
            events.extend(self.resolve_turn(&hidden, mv, theirs, their_mv, now)?);
        }
        Ok(Decision {
            events,
            hidden: Some(hidden),
        })
    }

    /// The `turn` event (and `finished` if the game is over) for both reveals.
    pub(super) fn resolve_turn(
        &self,
        mine: &Hidden,
        my_mv: parity_rules::Move,
        theirs: &Hidden,
        their_mv: parity_rules::Move,
        now: Instant,
    ) -> Result<Vec<EventBody>, Refusal> {
        let (w, b, wm, bm) = if mine.color == Color::White {
            (mine, theirs, my_mv, their_mv)
        } else {
            (theirs, mine, their_mv, my_mv)
        };
        let revealed = |h: &Hidden, mv| RevealedMove {
            uci: h.mv.clone(),
            san: self.play.san(h.color, mv),
            nonce: h.nonce.clone(),
            commitment: self.sim.commitments[h.color.index()]
                .clone()
                .unwrap_or_default(),
        };
        let mut next = self.play.clone();
        let notes = next.play_turn(wm, bm)?;
        let v = self.setup.variant;
        let ending = next.outcome();
        let running = if ending.is_some() {
            [false; 2]
        } else {
            [true; 2]
        };
        let mut events = vec![EventBody::Turn {
            turn: self.play.turn(),
            white: revealed(w, wm),
            black: revealed(b, bm),
            notes: Box::new(SideNotesPair {
                white: Notes::new(v, &notes.white),
                black: Notes::new(v, &notes.black),
            }),
            fen: next.fen(),
            clocks: self.clocks_now(now, running),
        }];
        if let Some(end) = ending {
            events.push(self.finished(end.winner, end.reason, now));
        }
        Ok(events)
    }

}
