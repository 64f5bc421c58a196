//! What a tournament does next, decided from its rows and the time
//! alone (so a node that takes an event over decides as its last runner
//! would have): wait, pair a batch of games, schedule the next round, or
//! finish.

use crate::store::tournaments::ByeRow;
use crate::tournament::settings::System;
use crate::tournament::standings::{in_play, standings, swiss_field};
use crate::tournament::{arena, round_robin, swiss, Event};

/// A batch of pairings, by account id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The round the games belong to (an arena counts its batches).
    pub round: i64,
    /// `[white, black]`, board order.
    pub games: Vec<[String; 2]>,
    pub byes: Vec<ByeRow>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Wait,
    /// Start (status `started`) and pair this batch, perhaps empty.
    Pair(Batch),
    /// The round is over: pair the next at this time.
    Schedule(i64),
    Finish,
}

/// The next step of `event` at `now_ms`.
pub fn next(event: &Event, now_ms: i64) -> Result<Step, String> {
    let row = &event.row;
    if row.status == "finished" || now_ms < row.starts_ms && row.status == "created" {
        return Ok(Step::Wait);
    }
    match event.system {
        System::Arena => Ok(arena_step(event, now_ms)),
        System::Swiss | System::RoundRobin => rounds_step(event, now_ms),
    }
}

fn arena_step(event: &Event, now_ms: i64) -> Step {
    let ends_ms = event.row.starts_ms + i64::from(event.settings.minutes) * 60_000;
    if now_ms >= ends_ms {
        return Step::Finish;
    }
    let table = standings(event);
    let waiting: Vec<arena::Waiting<String>> = table
        .iter()
        .filter(|s| !s.withdrawn && s.playing.is_none())
        .map(|s| {
            let id = &s.user.id;
            let mine: Vec<_> = event
                .games
                .iter()
                .filter(|g| &g.white == id || &g.black == id)
                .collect();
            let last = mine.last();
            arena::Waiting {
                key: id.clone(),
                rank: s.rank,
                last_opponent: last.map(|g| match &g.white == id {
                    true => g.black.clone(),
                    false => g.white.clone(),
                }),
                whites: mine.iter().filter(|g| &g.white == id).count() as u32,
                blacks: mine.iter().filter(|g| &g.black == id).count() as u32,
                last_color: last.map(|g| match &g.white == id {
                    true => parity_rules::Color::White,
                    false => parity_rules::Color::Black,
                }),
            }
        })
        .collect();
    let games: Vec<[String; 2]> = arena::pair_waiting(&waiting)
        .into_iter()
        .map(|p| [p.white, p.black])
        .collect();
    if games.is_empty() && event.row.status == "started" {
        return Step::Wait;
    }
    Step::Pair(Batch {
        round: event.row.round + 1,
        games,
        byes: Vec::new(),
    })
}

fn rounds_step(event: &Event, now_ms: i64) -> Result<Step, String> {
    let row = &event.row;
    let active = event.entrants.iter().filter(|e| !e.withdrawn).count();
    let rounds = match event.system {
        System::RoundRobin => round_robin_rounds(event.entrants.len()),
        _ => i64::from(event.settings.nb_rounds),
    };
    if row.status == "created" {
        if active < 2 {
            return Ok(Step::Finish);
        }
        return Ok(Step::Pair(pair_round(event, 1, rounds)?));
    }
    if event
        .games
        .iter()
        .any(|g| g.round == row.round && in_play(g))
    {
        return Ok(Step::Wait);
    }
    if row.round >= rounds || active < 2 {
        return Ok(Step::Finish);
    }
    match row.next_round_ms {
        None => Ok(Step::Schedule(
            now_ms + i64::from(event.settings.round_interval) * 1000,
        )),
        Some(at) if now_ms < at => Ok(Step::Wait),
        Some(_) => Ok(Step::Pair(pair_round(event, row.round + 1, rounds)?)),
    }
}

/// A round robin of `players` has one round fewer than players, or as
/// many when odd (everyone sits out once).
fn round_robin_rounds(players: usize) -> i64 {
    let even = players + players % 2;
    even.saturating_sub(1) as i64
}

fn pair_round(event: &Event, round: i64, rounds: i64) -> Result<Batch, String> {
    let field = swiss_field(event, round - 1);
    let id_of = |number: u32| field.ids[number as usize - 1].clone();
    let mut byes = Vec::new();
    // Lichess's rule: one half-point bye for a late join, whatever was missed.
    for entrant in &event.entrants {
        let late = entrant.joined_round > 0 && entrant.joined_round == round - 1;
        if late && event.system == System::Swiss && !entrant.withdrawn {
            byes.push(ByeRow {
                round: entrant.joined_round,
                user_id: entrant.user.id.clone(),
                kind: "late".into(),
                half_points: 1,
            });
        }
    }
    let games = match event.system {
        System::RoundRobin => {
            let table = round_robin::berger(field.ids.len() as u32);
            let pairs = table
                .get(round as usize - 1)
                .ok_or_else(|| format!("no round {round} for {} players", field.ids.len()))?;
            let mut games = Vec::new();
            for &(white, black) in pairs {
                let (Some(w), Some(b)) = (
                    field.ids.get(white as usize - 1),
                    field.ids.get(black as usize - 1),
                ) else {
                    continue; // the odd player's rest
                };
                let withdrawn = |id: &str| {
                    event
                        .entrants
                        .iter()
                        .any(|e| e.user.id == id && e.withdrawn)
                };
                match (withdrawn(w), withdrawn(b)) {
                    (false, false) => games.push([w.clone(), b.clone()]),
                    (false, true) | (true, false) => {
                        let present = if withdrawn(w) { b } else { w };
                        byes.push(ByeRow {
                            round,
                            user_id: present.clone(),
                            kind: "forfeit".into(),
                            half_points: 2,
                        });
                    }
                    (true, true) => {}
                }
            }
            games
        }
        _ => {
            let pairing = swiss::pair_round(&field.entrants, round as u32, rounds as u32)
                .map_err(|e| e.to_string())?;
            if let Some(bye) = pairing.bye {
                byes.push(ByeRow {
                    round,
                    user_id: id_of(bye),
                    kind: "pairing".into(),
                    half_points: 2,
                });
            }
            pairing
                .boards
                .iter()
                .map(|[white, black]| [id_of(*white), id_of(*black)])
                .collect()
        }
    };
    Ok(Batch { round, games, byes })
}
