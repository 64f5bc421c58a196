//! One game of a simultaneous variant (`parity`, `parity-single`,
//! `move-neutral`) between two engines speaking UCI with joint moves
//! (docs/protocol.md).
//!
//! Each turn both engines are asked at once, each on its own thread:
//! `position startpos|fen <fen> moves w1:b1 w2:b2 ...` with the turns played
//! so far, then `go side white|black` with the limits. Neither sees the
//! other's move of the turn. Each reply is read against its side's legal
//! moves, and the pair is resolved by the rules (`SimGame::play`).
//!
//! Clocks: both run during a turn, each from its engine's `go` until that
//! engine's own `bestmove`; each gains its increment once per turn. An
//! engine that crashes, hangs, runs out of time or sends an illegal or
//! garbled move loses the game. When both fail in the same turn the game is
//! a draw; its termination is the graver of the two (in the order of
//! [`Termination`]: time forfeit, rules infraction, abandoned, stalled
//! connection), and the reason names both failures.

use std::time::Instant;

use parity_rules::notation;
use parity_rules::record;
use parity_rules::SimGame;
use parity_rules::{Color, Move};

use parity_rules::notation::parse_lenient as read_move;

use crate::sim_board::{is_variant_start, joint_text, parse_turn, san_text, start_position};

use crate::engine::{Engine, Failure, FailureKind, Reply};
use crate::game::{
    cause_of, loss, move_request, rules_ending, start_clocks, start_game, termination_of, Cause,
    Ending, GameRecord, GameSettings, PlayedMove, PlayedTurn, Termination,
};
use crate::openings::Opening;

/// The ending when one or both sides failed in a turn.
fn failure_ending(failures: &[Option<Failure>; 2]) -> Option<Ending> {
    match failures {
        [None, None] => None,
        [Some(f), None] => Some(loss(Color::White, f)),
        [None, Some(f)] => Some(loss(Color::Black, f)),
        [Some(w), Some(b)] => Some(Ending {
            winner: None,
            termination: termination_of(w.kind).max(termination_of(b.kind)),
            cause: cause_of(w.kind).min(cause_of(b.kind)),
            reason: format!(
                "Draw: both fail in the same turn: White {}; Black {}",
                w.detail, b.detail
            ),
        }),
    }
}

/// Plays one game from `opening`; `engines` are White's and Black's.
pub fn play(
    engines: [&mut dyn Engine; 2],
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let [white, black] = engines;
    let mut engines: [&mut dyn Engine; 2] = [white, black];
    let variant = settings.variant;
    let start =
        start_position(variant, opening.fen.as_deref()).expect("openings are checked when read");
    let start_fen = (!is_variant_start(&start)).then(|| start.to_fen());
    let mut game = SimGame::new(start);
    let mut joint: Vec<String> = Vec::new();
    let mut book = Vec::new();
    for text in &opening.moves {
        let pos = *game.position();
        let moves = parse_turn(&pos, text).expect("openings are checked when read");
        book.push((joint_text(&pos, moves), san_text(&pos, moves)));
        joint.push(joint_text(&pos, moves));
        game.play(moves[0], moves[1])
            .expect("openings are checked when read");
    }
    let mut record = GameRecord::start(settings, variant, start_fen.clone(), book);

    let failures = start_game(&mut engines, settings, &start_fen, true);
    for (i, f) in failures.iter().enumerate() {
        record.failed[i] = f.is_some();
    }
    if let Some(e) = failure_ending(&failures) {
        record.ending = e;
        return record;
    }

    let mut clocks = start_clocks(settings);
    let ending = loop {
        if let Some(o) = game.outcome() {
            break rules_ending(o);
        }
        if let Some(max) = settings.adjudication.max_turns {
            if game.turns().len() as u32 >= max {
                break Ending {
                    winner: None,
                    termination: Termination::Adjudication,
                    cause: Cause::Adjudication,
                    reason: format!("Draw by adjudication: {max} turns"),
                };
            }
        }
        let pos = *game.position();
        let now = Instant::now();
        let requests = Color::ALL
            .map(|color| move_request(settings, &clocks, color, &joint, Some(color), now));
        // Both engines think at once.
        let replies: [Result<Reply, Failure>; 2] = {
            let [w, b] = &mut engines;
            std::thread::scope(|scope| {
                let white = scope.spawn(|| w.go(&requests[0]));
                let black = b.go(&requests[1]);
                let white = white.join().unwrap_or_else(|_| {
                    Err(Failure::new(
                        FailureKind::Crash,
                        "crashed (its driver panicked)",
                    ))
                });
                [white, black]
            })
        };
        let mut failures: [Option<Failure>; 2] = [None, None];
        let mut chosen: [Option<(Move, Reply)>; 2] = [None, None];
        for (color, reply) in Color::ALL.into_iter().zip(replies) {
            let i = color.index();
            let limits = settings.limits[i];
            let reply = match reply {
                Ok(r) => r,
                Err(f) => {
                    if f.kind != FailureKind::Resign {
                        record.failed[i] = true;
                    }
                    failures[i] = Some(f);
                    continue;
                }
            };
            // The clock, measured by us.
            if let (Some(left), Some(tc)) = (clocks[i], limits.tc) {
                if reply.elapsed > left + settings.time_margin {
                    let detail = format!(
                        "loses on time ({:.3} s used, {:.3} s left)",
                        reply.elapsed.as_secs_f64(),
                        left.as_secs_f64()
                    );
                    failures[i] = Some(Failure::new(FailureKind::Time, detail));
                    continue;
                }
                clocks[i] = Some(left.saturating_sub(reply.elapsed) + tc.increment);
            } else if let Some(m) = limits.movetime {
                if reply.elapsed > m + settings.time_margin {
                    let detail = format!(
                        "loses on time ({:.3} s for a {:.3} s move)",
                        reply.elapsed.as_secs_f64(),
                        m.as_secs_f64()
                    );
                    failures[i] = Some(Failure::new(FailureKind::Time, detail));
                    continue;
                }
            }
            match read_move(&pos.side(color), &reply.text) {
                Ok(mv) => chosen[i] = Some((mv, reply)),
                Err(e) => {
                    record.failed[i] = true;
                    let what = if reply.text.is_empty() {
                        "sends no move".to_string()
                    } else {
                        format!("makes an illegal move: `{}` ({e})", reply.text)
                    };
                    failures[i] = Some(Failure::new(FailureKind::Protocol, what));
                }
            }
        }
        if let Some(e) = failure_ending(&failures) {
            break e;
        }
        let [Some((w, wr)), Some((b, br))] = chosen else {
            unreachable!("no failure, so both moves were read")
        };
        let moves = [w, b];
        let notes = game
            .play(w, b)
            .expect("both moves are legal and the game goes on");
        joint.push(joint_text(&pos, moves));
        let played = |color: Color, mv: Move, r: Reply| PlayedMove {
            uci: notation::uci(&pos.side(color), mv),
            san: notation::san_plain(&pos.side(color), mv),
            score: r.score,
            depth: r.depth,
            elapsed: r.elapsed,
            value: r.value,
            strategy: r.strategy,
            opponent: r.opponent,
        };
        record.turns.push(PlayedTurn {
            moves: [played(Color::White, w, wr), played(Color::Black, b, br)],
            notes: record::describe_turn(variant, &notes),
        });
    };
    record.ending = ending;
    let result = record.ending.result_text();
    for e in engines.iter_mut() {
        e.game_over(result, &record.ending.reason);
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{Outcome, Reason};

    #[test]
    fn endings_in_words() {
        let e = rules_ending(Outcome::win(Color::Black, Reason::NoLegalMove));
        assert_eq!(
            (e.winner, e.reason.as_str(), e.cause),
            (
                Some(Color::Black),
                "Black wins: no legal move",
                Cause::NoLegalMove
            )
        );
        let e = rules_ending(Outcome::draw(Reason::KingsShareSquare));
        assert_eq!(
            (e.winner, e.termination, e.reason.as_str()),
            (None, Termination::Normal, "Draw: the kings share a square")
        );
        let both = failure_ending(&[
            Some(Failure::new(FailureKind::Crash, "crashed")),
            Some(Failure::new(FailureKind::Time, "loses on time")),
        ])
        .unwrap();
        assert_eq!(
            (both.winner, both.termination),
            (None, Termination::Abandoned)
        );
        assert_eq!(
            both.reason,
            "Draw: both fail in the same turn: White crashed; Black loses on time"
        );
        let one = failure_ending(&[
            None,
            Some(Failure::new(FailureKind::Protocol, "makes an illegal move")),
        ])
        .unwrap();
        assert_eq!(
            (one.winner, one.termination),
            (Some(Color::White), Termination::RulesInfraction)
        );
        assert!(failure_ending(&[None, None]).is_none());
    }
}
