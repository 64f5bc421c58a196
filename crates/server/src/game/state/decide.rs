//! What a seat's action would add to the log: every action but the
//! commit-and-reveal of a simultaneous turn (`commit_reveal.rs`).

use std::time::Instant;

use parity_rules::{Color, Reason};

use super::{Action, Decision, GameState, Status};
use crate::base::refusal::{Refusal, Said};
use crate::game::event::EventBody;
use crate::game::play;

impl GameState {
    /// The events `color`'s action causes at `now`, or why it is refused.
    /// `new_game` is the id a rematch would get.
    pub fn decide(
        &self,
        color: Color,
        action: &Action,
        now: Instant,
        new_game: &str,
    ) -> Result<Decision, Refusal> {
        let events = |events: Vec<EventBody>| {
            Ok(Decision {
                events,
                hidden: None,
            })
        };
        let other = color.other();
        if let Action::RematchNo = action {
            if self.status != Status::Finished
                || self.rematch.is_some()
                || self.rematch_offer.is_none()
            {
                return Err(Refusal::NotNow(Said::new(
                    "server-refusal-there-no-rematch-offer",
                )));
            }
            return events(vec![EventBody::RematchCancelled {
                color: color.into(),
            }]);
        }
        if let Action::Rematch = action {
            if self.status != Status::Finished {
                return Err(Refusal::NotNow(Said::new("server-refusal-game-not-over")));
            }
            if self.rematch.is_some() {
                return Err(Refusal::NotNow(Said::new(
                    "server-refusal-rematch-already-made",
                )));
            }
            return match self.rematch_offer {
                Some(c) if c == other => events(vec![EventBody::Rematch {
                    game: new_game.to_string(),
                }]),
                Some(_) => Err(Refusal::NotNow(Said::new(
                    "server-refusal-you-already-asked-rematch",
                ))),
                None => events(vec![EventBody::RematchOffer {
                    color: color.into(),
                }]),
            };
        }
        match self.status {
            Status::Finished => return Err(Refusal::NotNow(Said::new("server-refusal-game-over"))),
            Status::Waiting if *action != Action::Abort => {
                return Err(Refusal::NotNow(Said::new(
                    "server-refusal-game-has-not-started",
                )))
            }
            _ => {}
        }
        match action {
            Action::Move(text) => self.decide_move(color, text, now).map(|events| Decision {
                events,
                hidden: None,
            }),
            Action::Commit(commitment) => self.decide_commit(color, commitment, now),
            Action::Reveal { mv, nonce } => self.decide_reveal(color, mv, nonce, now),
            Action::ClaimVictory => self.decide_claim_victory(color, now),
            Action::Berserk => {
                if self.has_moved(color) || self.berserk(color) {
                    return Err(Refusal::NotNow(Said::new(
                        "server-refusal-berserk-before-first-move",
                    )));
                }
                let clocks = self
                    .clock
                    .as_ref()
                    .and_then(|c| c.after_berserk(now, color));
                let Some(clocks) = clocks else {
                    return Err(Refusal::NotNow(Said::new(
                        "server-refusal-berserk-needs-clock",
                    )));
                };
                events(vec![EventBody::Berserk {
                    color: color.into(),
                    clocks: Some(clocks),
                }])
            }
            Action::Resign => events(vec![self.finished_by(
                Some(color),
                Some(other),
                Reason::Resignation,
                now,
            )]),
            Action::Abort => {
                let moved = if self.play.is_simultaneous() { 1 } else { 2 };
                if self.play.played() >= moved {
                    return Err(Refusal::NotNow(Said::new(
                        "server-refusal-both-sides-have-moved-resign",
                    )));
                }
                events(vec![self.finished_by(
                    Some(color),
                    None,
                    Reason::Abort,
                    now,
                )])
            }
            Action::DrawYes => match self.draw_offer {
                Some(c) if c == other => events(vec![self.finished_by(
                    Some(color),
                    None,
                    Reason::Agreement,
                    now,
                )]),
                Some(_) => Err(Refusal::NotNow(Said::new(
                    "server-refusal-you-already-offered-draw",
                ))),
                None => events(vec![EventBody::DrawOffer {
                    color: color.into(),
                }]),
            },
            Action::DrawNo => match self.draw_offer {
                Some(c) if c == other => events(vec![EventBody::DrawDeclined {
                    color: color.into(),
                }]),
                _ => Err(Refusal::NotNow(Said::new(
                    "server-refusal-there-no-draw-offer-decline",
                ))),
            },
            Action::Rematch | Action::RematchNo => unreachable!("handled above"),
        }
    }

    pub(super) fn decide_move(
        &self,
        color: Color,
        text: &str,
        now: Instant,
    ) -> Result<Vec<EventBody>, Refusal> {
        if self.play.is_simultaneous() {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-both-sides-move-once-here",
            )));
        }
        if self.play.to_move() != Some(color) {
            return Err(Refusal::NotNow(Said::new("server-refusal-not-your-turn")));
        }
        let mv = play::read_move(&self.play, color, text)?;
        let (uci, san) = (self.play.uci(color, mv), self.play.san(color, mv));
        let mut next = self.play.clone();
        next.play(mv)?;
        let ending = next.outcome();
        let running = if ending.is_some() {
            [false; 2]
        } else {
            [color == Color::Black, color == Color::White]
        };
        let mut events = vec![EventBody::Move {
            color: color.into(),
            uci,
            san,
            fen: next.fen(),
            clocks: self.clocks_after_move(now, color, running),
        }];
        if let Some(end) = ending {
            events.push(EventBody::Finished {
                result: end.result().to_string(),
                reason: end.reason,
                by: None,
                clocks: self.clocks_after_move(now, color, [false; 2]),
            });
        }
        Ok(events)
    }
}
