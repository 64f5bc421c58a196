//! `parity verify`: checks a game record (`GET /api/games/GAMEID/record`)
//! without the server: that its events are a game the server could have
//! played (every commitment against its move and nonce, every move against
//! the rules, the order of the events, clocks and the stated result), then
//! its signature against the server's public key. It replays the moves
//! through `play` (the thin layer over `parity-rules`) alone; nothing of
//! the server's game state is used.

use std::fmt;

use ed25519_dalek::VerifyingKey;
use parity_rules::{AnyGame, Color, Outcome, Reason, Registry};
use serde::Deserialize;
use serde_json::Value;

use crate::base::secret;
use crate::base::signing::{self, RecordSignature, SignatureError};
use crate::game::clock::TimeControl;
use crate::game::event::{Clocks, Event, EventBody, RevealedMove, Seat, Side};
use crate::game::play;

/// A record as the server writes it.
#[derive(Debug, Deserialize)]
pub struct Record {
    pub id: String,
    pub variant: String,
    pub fen: String,
    pub events: Vec<Event>,
    /// Absent in records of release 0.1.
    #[serde(default)]
    pub signature: Option<RecordSignature>,
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
    #[error("{0}")]
    Signature(#[from] SignatureError),
}

/// Who vouches for a record that verifies.
#[derive(Debug, PartialEq, Eq)]
pub enum Signed {
    /// No signature (records of release 0.1): anyone could have written it.
    No,
    /// Signed by the key given to check it.
    ByGivenKey,
    /// Signed by the key the record names, which nobody compared with the
    /// server's.
    ByNamedKey(String),
}

impl fmt::Display for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signed::No => write!(f, "unsigned"),
            Signed::ByGivenKey => write!(f, "signed by the given key"),
            Signed::ByNamedKey(key) => write!(
                f,
                "signed by the key it names, {key}; give the server's key with --key to know it is the server's"
            ),
        }
    }
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
    pub signed: Signed,
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

/// Checks a record; `key` is the server's public key, if known. A signed
/// record must be signed by it; an unsigned one verifies as [`Signed::No`].
pub fn verify(
    registry: &Registry,
    text: &str,
    key: Option<&VerifyingKey>,
) -> Result<Verified, VerifyError> {
    // The events are read from the same parsed JSON the signature is
    // checked over, so the two cannot see different records.
    let value = signing::parse_json(text).map_err(|e| VerifyError::Unreadable(e.to_string()))?;
    let record = Record::deserialize(&value).map_err(|e| VerifyError::Unreadable(e.to_string()))?;
    let replayed = Replay::run(registry, &record)?;
    let signed = match (&record.signature, &value) {
        (None, _) => Signed::No,
        (Some(signature), Value::Object(members)) => {
            let signer = signing::check(members, signature, key)?;
            match key {
                Some(_) => Signed::ByGivenKey,
                None => Signed::ByNamedKey(signing::key_text(&signer)),
            }
        }
        (Some(_), _) => unreachable!("a record that reads is a JSON object"),
    };
    Ok(Verified {
        id: record.id.clone(),
        variant: record.variant.clone(),
        played: replayed.game.played(),
        commitments: replayed.commitments,
        ending: replayed.ending,
        signed,
    })
}

/// The game as the events so far leave it, with what the server would
/// have checked before writing the next one.
struct Replay<'a> {
    id: &'a str,
    game: AnyGame,
    time: TimeControl,
    joined: [bool; 2],
    started: bool,
    /// This turn's commitments and reveals (simultaneous).
    committed: [Option<&'a str>; 2],
    revealed: [bool; 2],
    commitments: usize,
    draw_offer: Option<Color>,
    /// The clocks as of the last event that had them.
    clocks: Option<Clocks>,
    /// The sides that went berserk: they gain no increment.
    berserk: [bool; 2],
    ending: Option<(String, Reason)>,
}

impl<'a> Replay<'a> {
    fn run(registry: &Registry, record: &'a Record) -> Result<Replay<'a>, VerifyError> {
        let variant = registry
            .get(&record.variant)
            .ok_or_else(|| VerifyError::Record(format!("unknown variant {}", record.variant)))?;
        let Some(first) = record.events.first() else {
            return Err(VerifyError::Record("the record has no events".into()));
        };
        let EventBody::Created {
            variant: created_variant,
            clock,
            days,
            white,
            black,
            fen: start_fen,
            ..
        } = &first.body
        else {
            return Err(VerifyError::Record(format!(
                "the first event is `{}`, not `created`",
                first.body.kind()
            )));
        };
        let game = AnyGame::from_fen(variant, start_fen.as_deref())
            .map_err(|e| VerifyError::Record(format!("the start position: {e}")))?;
        if game.start_fen() != record.fen {
            return Err(VerifyError::Record(format!(
                "the record's start position {} is not the game's ({})",
                record.fen,
                game.start_fen()
            )));
        }
        let variant = created_variant;
        let fail_first = |message: String| VerifyError::Event {
            seq: first.seq,
            kind: first.body.kind(),
            message,
        };
        if *variant != record.variant {
            return Err(fail_first(format!(
                "a game of {variant} in a record of {}",
                record.variant
            )));
        }
        let time = TimeControl::new(*clock, *days).map_err(fail_first)?;
        let mut replay = Replay {
            id: &record.id,
            game,
            time,
            // An engine seat is filled from the start; a human one by `joined`.
            joined: [*white, *black].map(|seat| matches!(seat, Seat::Engine { .. })),
            started: false,
            committed: [None; 2],
            berserk: [false; 2],
            revealed: [false; 2],
            commitments: 0,
            draw_offer: None,
            clocks: full_clocks(time),
            ending: None,
        };
        for (i, event) in record.events.iter().enumerate() {
            let fail = |message: String| VerifyError::Event {
                seq: event.seq,
                kind: event.body.kind(),
                message,
            };
            if event.seq != i as u64 + 1 {
                return Err(fail(format!("expected seq {}", i + 1)));
            }
            if i > 0 {
                replay.apply(&event.body).map_err(fail)?;
            }
        }
        if replay.ending.is_none() && replay.game.outcome().is_some() {
            return Err(VerifyError::Record(
                "the rules ended the game but the record has no `finished`".into(),
            ));
        }
        Ok(replay)
    }

    /// Checks one event after `created` and takes it in.
    fn apply(&mut self, body: &'a EventBody) -> Result<(), String> {
        let after_end = !matches!(
            body,
            EventBody::RematchOffer { .. }
                | EventBody::Rematch { .. }
                | EventBody::RematchCancelled { .. }
        );
        if self.ending.is_some() && after_end {
            return Err("an event after the end of the game".into());
        }
        let is_play = !matches!(
            body,
            EventBody::Created { .. }
                | EventBody::Joined { .. }
                | EventBody::Started { .. }
                | EventBody::Finished { .. }
                | EventBody::RematchOffer { .. }
                | EventBody::Rematch { .. }
                | EventBody::RematchCancelled { .. }
        );
        if is_play && !self.started {
            return Err("before the game started".into());
        }
        match body {
            EventBody::Created { .. } => return Err("a second `created`".into()),
            EventBody::Joined { color } => {
                let seat = &mut self.joined[color.color().index()];
                if *seat {
                    return Err(format!("{} joined a seat already filled", name(*color)));
                }
                *seat = true;
            }
            EventBody::Started { fen, .. } => {
                if self.started {
                    return Err("the game started twice".into());
                }
                if let Some(c) = Color::ALL.into_iter().find(|c| !self.joined[c.index()]) {
                    return Err(format!("the game started before {} joined", c.name()));
                }
                if *fen != self.game.fen() {
                    return Err(format!(
                        "the game started from {fen}, not {}",
                        self.game.fen()
                    ));
                }
                self.started = true;
            }
            EventBody::Move {
                color,
                uci,
                san,
                fen,
                ..
            } => {
                let c = color.color();
                if self.game.to_move() != Some(c) {
                    return Err(format!("{} moved out of turn", c.name()));
                }
                let mv = play::read_move(&self.game, c, uci).map_err(|e| e.to_string())?;
                let expected_san = self.game.san(c, mv);
                self.game.play(mv).map_err(|e| e.to_string())?;
                // Records written before SAN marked a crowd's joins with
                // `&` (2026-11-27) wrote them unmarked: the same move.
                let unmarked = expected_san.replace('&', "");
                if (*san != expected_san && *san != unmarked) || *fen != self.game.fen() {
                    return Err(format!(
                        "{uci} gives {expected_san} and {}, the record says {san} and {fen}",
                        self.game.fen()
                    ));
                }
                // Moving lets the opponent's offer lapse.
                if self.draw_offer == Some(c.other()) {
                    self.draw_offer = None;
                }
            }
            EventBody::Committed {
                color,
                turn,
                commitment,
                ..
            } => {
                if !self.game.is_simultaneous() || *turn != self.game.turn() {
                    return Err(format!("a commitment for turn {turn} here"));
                }
                let slot = &mut self.committed[color.color().index()];
                if slot.is_some() {
                    return Err("a second commitment for the same turn".into());
                }
                *slot = Some(commitment.as_str());
                self.commitments += 1;
            }
            EventBody::Revealed { color, turn, .. } => {
                if !self.game.is_simultaneous() || *turn != self.game.turn() {
                    return Err(format!("a reveal for turn {turn} here"));
                }
                if self.committed.iter().any(Option::is_none) {
                    return Err("a reveal before both commitments were in".into());
                }
                let revealed = &mut self.revealed[color.color().index()];
                if *revealed {
                    return Err(format!("{} revealed twice", name(*color)));
                }
                *revealed = true;
            }
            EventBody::Turn {
                turn,
                white,
                black,
                fen,
                ..
            } => {
                if *turn != self.game.turn() {
                    return Err(format!(
                        "turn {turn} where turn {} is due",
                        self.game.turn()
                    ));
                }
                let mut moves = Vec::with_capacity(2);
                for (side, shown) in [(Side::White, white), (Side::Black, black)] {
                    if !self.revealed[side.color().index()] {
                        return Err(format!("turn {turn} before {} revealed", name(side)));
                    }
                    self.check_commitment(side, shown)?;
                    let mv = play::read_move(&self.game, side.color(), &shown.uci)
                        .map_err(|e| format!("{}: {e}", name(side)))?;
                    moves.push(mv);
                }
                self.game
                    .play_turn(moves[0], moves[1])
                    .map_err(|e| e.to_string())?;
                if *fen != self.game.fen() {
                    return Err(format!(
                        "the turn gives {}, the record says {fen}",
                        self.game.fen()
                    ));
                }
                self.committed = [None; 2];
                self.revealed = [false; 2];
                self.draw_offer = None;
            }
            EventBody::Berserk { color, clocks } => {
                let c = color.color();
                let played = self.game.played();
                let moved = match self.game.is_simultaneous() {
                    true => played >= 1 || self.committed[c.index()].is_some(),
                    false => played >= 2 || (played == 1 && self.game.to_move() != Some(c)),
                };
                if moved || self.berserk[c.index()] {
                    return Err(format!(
                        "{} went berserk after moving, or twice",
                        name(*color)
                    ));
                }
                let (Some(before), Some(after), Some(keeps)) =
                    (&self.clocks, clocks, self.time.berserk_ms())
                else {
                    return Err("a berserk without a live clock".into());
                };
                let (was, now) = (ms(before, *color), ms(after, *color));
                let other = Side::from(c.other());
                if now > was.min(keeps)
                    || ms(after, other) != ms(before, other) && !before.running.contains(&other)
                {
                    return Err(format!(
                        "{}'s berserk clock is wrong: {was} ms to {now} ms",
                        name(*color)
                    ));
                }
                self.berserk[c.index()] = true;
                self.clocks = Some(after.clone());
                return Ok(());
            }
            EventBody::DrawOffer { color } => {
                if let Some(standing) = self.draw_offer {
                    return Err(format!("a draw offer while {}'s stands", standing.name()));
                }
                self.draw_offer = Some(color.color());
            }
            EventBody::DrawDeclined { color } => {
                if self.draw_offer != Some(color.color().other()) {
                    return Err(format!(
                        "{} declined a draw {} did not offer",
                        name(*color),
                        color.color().other().name()
                    ));
                }
                self.draw_offer = None;
            }
            EventBody::Finished {
                result,
                reason,
                by,
                clocks,
            } => {
                self.check_ending(result, *reason, *by, clocks.as_ref())?;
                self.ending = Some((result.clone(), *reason));
            }
            EventBody::RematchOffer { .. }
            | EventBody::Rematch { .. }
            | EventBody::RematchCancelled { .. } => {
                if self.ending.is_none() {
                    return Err("a rematch before the game ended".into());
                }
            }
        }
        match event_clocks(body) {
            Some(clocks) => self.take_clocks(clocks),
            None => Ok(()),
        }
    }

    /// The revealed move and nonce hash to the commitment made for them.
    fn check_commitment(&self, side: Side, shown: &RevealedMove) -> Result<(), String> {
        let name = name(side);
        let turn = self.game.turn();
        let committed = self.committed[side.color().index()]
            .ok_or_else(|| format!("{name} never committed in turn {turn}"))?;
        if committed != shown.commitment {
            return Err(format!("{name}'s commitment differs from the one made"));
        }
        if secret::commitment(self.id, turn, side.color(), &shown.uci, &shown.nonce) != committed {
            return Err(format!(
                "{name}'s move {} and nonce {} do not match its commitment",
                shown.uci, shown.nonce
            ));
        }
        Ok(())
    }

    /// A clock goes down only while it runs, and up only by its increment
    /// (live) or back to the full allowance (correspondence).
    fn take_clocks(&mut self, clocks: &Clocks) -> Result<(), String> {
        let Some(before) = &self.clocks else {
            return Err("clocks in a game without a time control".into());
        };
        for side in [Side::White, Side::Black] {
            let (was, now) = (ms(before, side), ms(clocks, side));
            let berserk = self.berserk[side.color().index()];
            let ceiling = match self.time {
                TimeControl::Live { .. } if berserk => was,
                TimeControl::Live { increment_ms, .. } => was + increment_ms,
                TimeControl::Correspondence { per_move_ms } => was.max(per_move_ms),
                TimeControl::Unlimited => was,
            };
            if now > ceiling {
                return Err(format!(
                    "{}'s clock went up from {was} ms to {now} ms",
                    name(side)
                ));
            }
            if now < was && !before.running.contains(&side) {
                return Err(format!(
                    "{}'s clock went down from {was} ms to {now} ms while it was stopped",
                    name(side)
                ));
            }
        }
        self.clocks = Some(clocks.clone());
        Ok(())
    }

    /// The stated result follows from the position: the rules' verdict if
    /// they end the game here, else one of the endings players (or their
    /// clocks) bring about, with the winner it gives. `stopped` are the
    /// clocks the `finished` event states.
    fn check_ending(
        &self,
        result: &str,
        reason: Reason,
        by: Option<Side>,
        stopped: Option<&Clocks>,
    ) -> Result<(), String> {
        if let Some(end) = self.game.outcome() {
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
        if !self.started && reason != Reason::Abort {
            return Err(format!("{} before the game started", reason.name()));
        }
        let must_be = |winner: Option<Color>, why: String| {
            let expected = Outcome { winner, reason }.result();
            if result == expected {
                Ok(())
            } else {
                Err(format!(
                    "{why}, so the result is {expected}; the record says {result}"
                ))
            }
        };
        let decisive = || {
            if result == "1-0" || result == "0-1" {
                Ok(())
            } else {
                Err(format!(
                    "{result} cannot be the result of {}",
                    reason.name()
                ))
            }
        };
        match reason {
            Reason::Resignation => match by {
                Some(side) => must_be(
                    Some(side.color().other()),
                    format!("{} resigned", name(side)),
                ),
                None => decisive(),
            },
            Reason::Abort => {
                let moved = if self.game.is_simultaneous() { 1 } else { 2 };
                if self.game.played() >= moved {
                    return Err(if self.game.is_simultaneous() {
                        format!(
                            "an abort in turn {}, after turn 1 resolved",
                            self.game.turn()
                        )
                    } else {
                        "an abort after both sides moved".into()
                    });
                }
                must_be(None, "an abort".into())
            }
            Reason::Agreement => {
                let Some(offer) = self.draw_offer else {
                    return Err("a draw by agreement without a standing offer".into());
                };
                if by.is_some_and(|side| side.color() == offer) {
                    return Err(format!("{} accepted its own draw offer", offer.name()));
                }
                must_be(None, format!("{} offered a draw, accepted", offer.name()))
            }
            Reason::NoReveal => {
                if !self.game.is_simultaneous() || self.committed.iter().any(Option::is_none) {
                    return Err("no reveal where no reveal was due".into());
                }
                let late: Vec<Color> = Color::ALL
                    .into_iter()
                    .filter(|c| !self.revealed[c.index()])
                    .collect();
                match late.as_slice() {
                    [one] => must_be(
                        Some(one.other()),
                        format!("only {} did not reveal", one.name()),
                    ),
                    [_, _] => must_be(None, "neither side revealed".into()),
                    _ => Err("no reveal after both sides revealed".into()),
                }
            }
            Reason::Time => {
                decisive()?;
                let loser = Side::from(if result == "1-0" {
                    Color::Black
                } else {
                    Color::White
                });
                let (Some(before), Some(stopped)) = (&self.clocks, stopped) else {
                    return Err("a loss on time without clocks".into());
                };
                if !before.running.contains(&loser) {
                    return Err(format!(
                        "{} lost on time, but its clock was not running",
                        name(loser)
                    ));
                }
                if ms(stopped, loser) > 0 {
                    return Err(format!(
                        "{} lost on time with {} ms left",
                        name(loser),
                        ms(stopped, loser)
                    ));
                }
                Ok(())
            }
            _ => Err(format!(
                "the rules do not end the game here, yet it ended by {}",
                reason.name()
            )),
        }
    }
}

fn name(side: Side) -> &'static str {
    side.color().name()
}

fn ms(clocks: &Clocks, side: Side) -> i64 {
    match side {
        Side::White => clocks.white_ms,
        Side::Black => clocks.black_ms,
    }
}

/// Both clocks full and stopped, as a game with a time control begins.
fn full_clocks(time: TimeControl) -> Option<Clocks> {
    let full = match time {
        TimeControl::Unlimited => return None,
        TimeControl::Live { initial_ms, .. } => initial_ms,
        TimeControl::Correspondence { per_move_ms } => per_move_ms,
    };
    Some(Clocks {
        white_ms: full,
        black_ms: full,
        running: Vec::new(),
        grace_ms: 0,
    })
}

fn event_clocks(body: &EventBody) -> Option<&Clocks> {
    match body {
        EventBody::Started { clocks, .. }
        | EventBody::Move { clocks, .. }
        | EventBody::Committed { clocks, .. }
        | EventBody::Revealed { clocks, .. }
        | EventBody::Turn { clocks, .. }
        | EventBody::Finished { clocks, .. } => clocks.as_ref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::game::event::LiveClock;
    use crate::game::state::{Action, GameState, Setup};

    const ID: &str = "a1B2c3D4e5";

    /// A game between two people, played through the server's own state.
    struct Played {
        state: GameState,
        now: Instant,
        nonces: u64,
    }

    impl Played {
        fn new(variant: &str, clock: Option<LiveClock>) -> Played {
            let now = Instant::now();
            let setup = Setup {
                variant: Registry::builtin().get(variant).unwrap(),
                clock,
                days: None,
                seats: [Seat::Human; 2],
                rematch_of: None,
                fen: None,
            };
            let mut game = Played {
                state: GameState::new(ID, setup.clone(), now).unwrap(),
                now,
                nonces: 0,
            };
            game.append(setup.created());
            for color in [Side::White, Side::Black] {
                game.append(EventBody::Joined { color });
            }
            for body in game.state.start_events(now) {
                game.append(body);
            }
            game
        }

        fn append(&mut self, body: EventBody) {
            let event = Event {
                body,
                seq: self.state.seq() + 1,
                at: 0,
            };
            self.state.apply(&event, self.now).unwrap();
        }

        fn act(&mut self, color: Color, action: Action) {
            let decision = self
                .state
                .decide(color, &action, self.now, "n3wGame000")
                .unwrap();
            if let Some(hidden) = decision.hidden {
                self.state.remember(hidden);
            }
            for body in decision.events {
                self.append(body);
            }
        }

        /// Commits `color` to `mv`; returns the reveal.
        fn commit(&mut self, color: Color, mv: &str) -> Action {
            self.nonces += 1;
            let nonce = format!("{:032x}", self.nonces);
            let turn = self.state.play().turn();
            let commitment = secret::commitment(ID, turn, color, mv, &nonce);
            self.act(color, Action::Commit(commitment));
            Action::Reveal {
                mv: mv.into(),
                nonce,
            }
        }

        /// What the game's task would write when its next deadline passes.
        fn time_out(&mut self) {
            let deadline = self.state.next_deadline().expect("a deadline");
            let ending = self.state.timeout(deadline).expect("an ending");
            self.append(ending);
        }

        fn record(&self) -> Value {
            let events: Vec<Value> = self
                .state
                .logged_after(0)
                .iter()
                .map(|l| serde_json::from_str(l.line.as_str()).unwrap())
                .collect();
            serde_json::json!({
                "id": ID,
                "variant": self.state.setup().variant.id(),
                "fen": self.state.play().start_fen(),
                "events": events,
            })
        }
    }

    fn check(record: &Value) -> Result<Verified, VerifyError> {
        verify(&Registry::builtin(), &record.to_string(), None)
    }

    /// The reason a changed record is refused.
    fn refused(record: &Value) -> String {
        match check(record) {
            Ok(v) => panic!("verified: {v}"),
            Err(e) => e.to_string(),
        }
    }

    fn last(record: &mut Value) -> &mut Value {
        record["events"].as_array_mut().unwrap().last_mut().unwrap()
    }

    const LIVE: Option<LiveClock> = Some(LiveClock {
        initial: 60,
        increment: 2,
    });

    #[test]
    fn a_berserk_before_the_first_move_verifies_and_a_late_or_raised_one_does_not() {
        let three_two = Some(LiveClock {
            initial: 180,
            increment: 2,
        });
        let mut game = Played::new("chess", three_two);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.act(Color::Black, Action::Berserk);
        game.act(Color::Black, Action::Move("e7e5".into()));
        game.act(Color::White, Action::Resign);
        let record = game.record();
        let berserk = &record["events"].as_array().unwrap()[5];
        assert_eq!(
            (
                berserk["type"].as_str(),
                berserk["clocks"]["black_ms"].as_i64()
            ),
            (Some("berserk"), Some(90_000))
        );
        check(&record).unwrap();
        // Black's move may not bring its increment back.
        let mut raised = record.clone();
        raised["events"][6]["clocks"]["black_ms"] = 92_000.into();
        assert!(refused(&raised).contains("went up"), "{}", refused(&raised));
        // A berserk after one's own move is refused, live and in a record.
        let mut late = Played::new("chess", LIVE);
        late.act(Color::White, Action::Move("e2e4".into()));
        let moved = late
            .state
            .decide(Color::White, &Action::Berserk, late.now, "n3wGame000");
        assert!(moved.is_err());
        let mut record = late.record();
        let mut event = record["events"][4].clone();
        event["type"] = "berserk".into();
        event["color"] = "white".into();
        event["seq"] = 6.into();
        record["events"].as_array_mut().unwrap().push(event);
        assert!(refused(&record).contains("berserk"), "{}", refused(&record));
    }

    #[test]
    fn the_side_that_did_not_reveal_loses_and_neither_revealing_is_a_draw() {
        let mut game = Played::new("parity", LIVE);
        let white = game.commit(Color::White, "e2e4");
        game.commit(Color::Black, "d7d5");
        game.act(Color::White, white);
        game.time_out();
        let mut record = game.record();
        assert_eq!(last(&mut record)["reason"], "no-reveal");
        assert_eq!(
            check(&record).unwrap().ending,
            Some(("1-0".into(), Reason::NoReveal))
        );
        last(&mut record)["result"] = "0-1".into();
        assert!(
            refused(&record).contains("only black did not reveal, so the result is 1-0"),
            "{}",
            refused(&record)
        );

        // Neither revealed: both clocks run, and the first to run out loses
        // on time (the other side owed a reveal too).
        let mut game = Played::new("parity", LIVE);
        game.commit(Color::White, "e2e4");
        game.commit(Color::Black, "d7d5");
        game.time_out();
        let record = game.record();
        let (result, reason) = check(&record).unwrap().ending.unwrap();
        assert_eq!(reason, Reason::Time);
        assert!(result == "1-0" || result == "0-1", "{result}");
    }

    #[test]
    fn the_flagged_side_loses_and_clocks_only_run_down_while_running() {
        let mut game = Played::new("chess", LIVE);
        game.now += Duration::from_millis(1500);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.time_out();
        let record = game.record();
        assert_eq!(
            check(&record).unwrap().ending,
            Some(("1-0".into(), Reason::Time))
        );
        // White moved: 60 s - 1.5 s + 2 s increment.
        assert_eq!(record["events"][4]["clocks"]["white_ms"], 60_500);

        let mut flipped = record.clone();
        last(&mut flipped)["result"] = "0-1".into();
        assert!(refused(&flipped).contains("white lost on time, but its clock was not running"));

        let mut early = record.clone();
        last(&mut early)["clocks"]["black_ms"] = 1200.into();
        assert!(refused(&early).contains("black lost on time with 1200 ms left"));

        let mut rising = record.clone();
        rising["events"][4]["clocks"]["white_ms"] = 62_001.into();
        assert!(
            refused(&rising).contains("white's clock went up from 60000 ms to 62001 ms"),
            "{}",
            refused(&rising)
        );

        let mut charged = record.clone();
        charged["events"][4]["clocks"]["black_ms"] = 59_000.into();
        assert!(refused(&charged)
            .contains("black's clock went down from 60000 ms to 59000 ms while it was stopped"));
    }

    #[test]
    fn resignation_abort_and_agreement_name_their_side_and_keep_their_rules() {
        let mut game = Played::new("chess", None);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.act(Color::White, Action::Resign);
        let mut record = game.record();
        assert_eq!(last(&mut record)["by"], "white");
        assert!(check(&record).is_ok());
        last(&mut record)["result"] = "1-0".into();
        assert!(refused(&record).contains("white resigned, so the result is 0-1"));
        // Release 0.1 did not say who resigned: either winner reads.
        last(&mut record).as_object_mut().unwrap().remove("by");
        assert!(check(&record).is_ok());

        let mut game = Played::new("chess", None);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.act(Color::Black, Action::Abort);
        let record = game.record();
        assert!(check(&record).is_ok());
        let mut game = Played::new("chess", None);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.act(Color::Black, Action::Move("e7e5".into()));
        let mut late = game.record();
        let events = late["events"].as_array_mut().unwrap();
        let mut finished = record["events"][5].clone();
        finished["seq"] = (events.len() + 1).into();
        events.push(finished);
        assert!(refused(&late).contains("an abort after both sides moved"));

        let mut game = Played::new("chess", None);
        game.act(Color::White, Action::DrawYes);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.act(Color::Black, Action::DrawYes);
        let mut record = game.record();
        assert_eq!(last(&mut record)["by"], "black");
        assert_eq!(
            check(&record).unwrap().ending,
            Some(("1/2-1/2".into(), Reason::Agreement))
        );
        last(&mut record)["by"] = "white".into();
        assert!(refused(&record).contains("white accepted its own draw offer"));
        // Black moving lets white's standing offer lapse.
        let mut game = Played::new("chess", None);
        game.act(Color::White, Action::DrawYes);
        game.act(Color::White, Action::Move("e2e4".into()));
        game.act(Color::Black, Action::Move("e7e5".into()));
        game.act(Color::White, Action::Resign);
        let mut lapsed = game.record();
        let finished = last(&mut lapsed);
        finished["reason"] = "agreement".into();
        finished["result"] = "1/2-1/2".into();
        finished["by"] = "black".into();
        assert!(refused(&lapsed).contains("a draw by agreement without a standing offer"));
    }

    #[test]
    fn signatures_are_checked_after_the_events() {
        let mut game = Played::new("parity", None);
        let white = game.commit(Color::White, "e2e4");
        let black = game.commit(Color::Black, "d7d5");
        game.act(Color::White, white);
        game.act(Color::Black, black);
        let key = ed25519_dalek::SigningKey::from_bytes(&[3; 32]);
        let public = key.verifying_key();
        let signed = signing::sign_record(&key, &game.record().to_string()).unwrap();
        let registry = Registry::builtin();
        let verified = verify(&registry, &signed, Some(&public)).unwrap();
        assert_eq!(verified.signed, Signed::ByGivenKey);
        assert_eq!((verified.played, verified.commitments), (1, 2));
        assert_eq!(
            verify(&registry, &signed, None).unwrap().signed,
            Signed::ByNamedKey(signing::key_text(&public))
        );
        let other = ed25519_dalek::SigningKey::from_bytes(&[4; 32]).verifying_key();
        assert!(matches!(
            verify(&registry, &signed, Some(&other)),
            Err(VerifyError::Signature(SignatureError::OtherKey { .. }))
        ));
        let moved_in_time = signed.replacen("\"at\":0", "\"at\":1", 1);
        assert!(matches!(
            verify(&registry, &moved_in_time, Some(&public)),
            Err(VerifyError::Signature(SignatureError::Mismatch))
        ));
        // A structural fault is named before the signature is looked at.
        let empty = serde_json::json!({"id": ID, "variant": "parity",
            "fen": game.state.play().start_fen(), "events": []});
        assert_eq!(refused(&empty), "the record has no events");
    }
}
