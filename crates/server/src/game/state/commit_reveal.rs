//! A simultaneous turn: commitments, reveals checked against them, the
//! turn resolved by the rules once both moves are known, and the claim of
//! a game without a clock whose opponent does not reveal.

use crate::base::refusal::Said;
use std::time::Instant;

use parity_rules::{Color, Reason};

use super::{Decision, GameState, Hidden, Refusal};
use crate::base::secret;
use crate::game::event::{Clocks, EventBody, Notes, RevealedMove, SideNotesPair};
use crate::game::play;

impl GameState {
    pub(super) fn decide_commit(
        &self,
        color: Color,
        commitment: &str,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        if !self.play.is_simultaneous() {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-game-turn-based-send-moves",
            )));
        }
        if !secret::is_commitment(commitment) {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-commitment-64-lowercase-hex-characters",
            )));
        }
        if self.committed(color) {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-you-already-committed-turn",
            )));
        }
        // The first commitment stops its side's clock (it cannot reveal
        // yet); the second starts both again for the reveals, after the grace.
        let other = color.other();
        let reveals_due = self.committed(other);
        let clocks = if reveals_due {
            let grace_ms = self.time.reveal_grace().as_millis() as i64;
            self.clocks_after_move(now, color, [true; 2])
                .map(|c| Clocks { grace_ms, ..c })
        } else {
            self.clocks_after_move(now, color, Color::ALL.map(|c| c == other))
        };
        Ok(Decision {
            events: vec![EventBody::Committed {
                color: color.into(),
                turn: self.play.turn(),
                commitment: commitment.to_string(),
                clocks,
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
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-game-turn-based-nothing-reveal",
            )));
        }
        if !self.committed(Color::White) || !self.committed(Color::Black) {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-reveal-only-once-both-commitments",
            )));
        }
        if self.revealed(color) {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-you-already-revealed-turn",
            )));
        }
        if !secret::is_nonce(nonce) {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-nonce-32-lowercase-hex-characters",
            )));
        }
        if !play::is_move_text(text) {
            return Err(Refusal::Malformed(
                Said::new("server-refusal-revealed-move-coordinates-rules-write")
                    .with("MAX_MOVE_TEXT", play::MAX_MOVE_TEXT),
            ));
        }
        let turn = self.play.turn();
        let commitment = self.commitment(color).unwrap_or_default();
        if secret::commitment(&self.id, turn, color, text, nonce) != commitment {
            return Err(Refusal::Unacceptable(Said::new(
                "server-refusal-move-nonce-do-not-match",
            )));
        }
        if self.nonce_used(nonce, color) {
            return Err(Refusal::Unacceptable(Said::new(
                "server-refusal-nonce-was-already-used-game",
            )));
        }
        let mv = play::read_canonical_move(&self.play, color, text)?;
        let hidden = Hidden {
            turn,
            color,
            mv: text.to_string(),
            nonce: nonce.to_string(),
        };
        let other = color.other();
        // The revealing side's clock stops; the other's runs on while it owes its reveal.
        let still_owing = Color::ALL.map(|c| c == other && !self.revealed(other));
        let clocks = self.clock.as_ref().map(|clock| Clocks {
            grace_ms: clock.grace_left(now).as_millis() as i64,
            ..clock.snapshot(now, still_owing)
        });
        let mut events = vec![EventBody::Revealed {
            color: color.into(),
            turn,
            clocks,
        }];
        let resolves = self.revealed(other);
        if resolves {
            let Some(theirs) = self.hidden(other) else {
                return Err(Refusal::NotNow(Said::new(
                    "server-refusal-other-reveal-not-hand-try",
                )));
            };
            let their_mv = play::read_move(&self.play, other, &theirs.mv)?;
            events.extend(self.resolve_turn(&hidden, mv, theirs, their_mv, now)?);
        }
        // The turn event holds both moves: a resolving reveal keeps nothing hidden.
        Ok(Decision {
            events,
            hidden: (!resolves).then_some(hidden),
        })
    }

    /// Whether `nonce` was used in an earlier turn, or in the other side's
    /// reveal of this one.
    fn nonce_used(&self, nonce: &str, color: Color) -> bool {
        self.used_nonces.contains(nonce)
            || self.hidden(color.other()).is_some_and(|h| h.nonce == nonce)
    }

    /// A game without a clock: the side that revealed wins once the other
    /// has not revealed by the reveal deadline.
    pub(super) fn decide_claim_victory(
        &self,
        color: Color,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        let Some(deadline) = self.sim.reveal_deadline else {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-victory-claimed-only-game-without",
            )));
        };
        if !self.revealed(color) {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-reveal-your-own-move-first",
            )));
        }
        if now < deadline {
            let wait = (deadline - now).as_secs() + 1;
            return Err(Refusal::NotNow(
                Said::new("server-refusal-your-opponent-may-still-reveal").with("wait", wait),
            ));
        }
        Ok(Decision {
            events: vec![self.finished(Some(color), Reason::NoReveal, now)],
            hidden: None,
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
