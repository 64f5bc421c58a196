//! What a tournament does next, decided from its rows and the time
//! alone (so a node that takes an event over decides as its last runner
//! would have): wait, pair a batch of games, schedule the next round, or
//! finish.

use crate::store::tournaments::ByeRow;
use crate::tournament::settings::System;
use crate::tournament::standings::{in_play, standings, swiss_field};
use crate::tournament::{arena, round_robin, swiss, Tournament};

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
pub fn next(event: &Tournament, now_ms: i64) -> Result<Step, String> {
    let row = &event.row;
    if row.status == "finished" || now_ms < row.starts_ms && row.status == "created" {
        return Ok(Step::Wait);
    }
    match event.system {
        System::Arena => Ok(arena_step(event, now_ms)),
        System::Swiss | System::RoundRobin => rounds_step(event, now_ms),
    }
}

fn arena_step(event: &Tournament, now_ms: i64) -> Step {
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

fn rounds_step(event: &Tournament, now_ms: i64) -> Result<Step, String> {
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

fn pair_round(event: &Tournament, round: i64, rounds: i64) -> Result<Batch, String> {
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
                    half_points: i64::from(event.settings.bye_half_points.unwrap_or(2)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tournaments::{EntrantRow, PairedGameRow, TournamentRow};
    use crate::store::UserRow;
    use crate::tournament::settings::Settings;
    use crate::tournament::standings::standings;

    const START: i64 = 1_000_000;

    fn event(system: System, settings: Settings, players: &[&str]) -> Tournament {
        Tournament {
            row: TournamentRow {
                id: "T1234567".into(),
                system: system.name().into(),
                name: "Test".into(),
                creator: "org".into(),
                team_id: None,
                variant: "chess".into(),
                clock_limit: 60,
                clock_increment: 0,
                rated: true,
                settings_json: String::new(),
                created_ms: 0,
                starts_ms: START,
                status: "created".into(),
                batch: 0,
                round: 0,
                next_round_ms: None,
                finished_ms: None,
            },
            system,
            variant_name: "Chess".into(),
            settings,
            entrants: players
                .iter()
                .enumerate()
                .map(|(i, name)| EntrantRow {
                    user: UserRow {
                        id: name.to_lowercase(),
                        name: name.to_string(),
                        password_hash: None,
                        bot: false,
                        created_ms: 0,
                    },
                    // Listed strongest first.
                    rating: 2000 - 10 * i as i64,
                    joined_ms: i as i64,
                    joined_round: 0,
                    withdrawn: false,
                })
                .collect(),
            games: Vec::new(),
            byes: Vec::new(),
        }
    }

    /// Takes `batch` as written, with game ids `g<round><board>`, and
    /// finishes its games with `results` (White's: "1-0", "0-1", "1/2-1/2").
    fn take(event: &mut Tournament, batch: &Batch, results: &[&str]) {
        for (board, [white, black]) in batch.games.iter().enumerate() {
            event.games.push(PairedGameRow {
                game_id: format!("g{}{}", batch.round, board + 1),
                round: batch.round,
                board: board as i64 + 1,
                white: white.clone(),
                black: black.clone(),
                paired_ms: START + batch.round,
                berserk: [false; 2],
                status: Some(match results.get(board) {
                    Some(_) => "finished".into(),
                    None => "started".into(),
                }),
                result: results.get(board).map(|r| r.to_string()),
                turn: 40,
            });
        }
        event.byes.extend(batch.byes.iter().cloned());
        event.row.batch += 1;
        event.row.round = batch.round;
        event.row.status = "started".into();
        event.row.next_round_ms = None;
    }

    fn paired(step: Step) -> Batch {
        match step {
            Step::Pair(batch) => batch,
            other => panic!("not a pairing: {other:?}"),
        }
    }

    fn arena_settings() -> Settings {
        Settings {
            minutes: 30,
            streakable: true,
            ..Settings::default()
        }
    }

    #[test]
    fn an_arena_pairs_free_players_by_rank_and_ends_on_time() {
        let mut e = event(
            System::Arena,
            arena_settings(),
            &["Ann", "Ben", "Cat", "Dan", "Eve"],
        );
        assert_eq!(next(&e, START - 1), Ok(Step::Wait));
        let first = paired(next(&e, START).unwrap());
        // Ranked by rating before any game: 1-2, 3-4, the fifth waits.
        assert_eq!(first.games.len(), 2);
        assert!(first.games.iter().flatten().all(|p| p != "eve"));
        take(&mut e, &first, &["1-0"]);
        // The second game is in play: only its players are not free.
        let second = paired(next(&e, START + 5_000).unwrap());
        let in_second: Vec<&String> = second.games.iter().flatten().collect();
        assert_eq!(second.games.len(), 1);
        assert!(in_second.contains(&&"eve".to_string()));
        let busy = &e.games[1];
        assert!(!in_second.contains(&&busy.white) && !in_second.contains(&&busy.black));
        // No pairing while nobody is free, and the end on time.
        take(&mut e, &second, &[]);
        assert_eq!(next(&e, START + 6_000), Ok(Step::Wait));
        assert_eq!(next(&e, START + 30 * 60_000), Ok(Step::Finish));
        let table = standings(&e);
        let winner = &e.games[0].white;
        assert_eq!((&table[0].user.id, table[0].score), (winner, 2));
        assert!(table.iter().all(|s| s.rank >= 1));
    }

    #[test]
    fn a_pairing_whose_game_is_not_created_yet_is_busy_but_not_open() {
        let mut e = event(System::Arena, arena_settings(), &["Ann", "Ben"]);
        let first = paired(next(&e, START).unwrap());
        take(&mut e, &first, &[]);
        // Written in the batch, its game not created yet.
        e.games[0].status = None;
        assert!(!crate::tournament::standings::open(&e.games[0]));
        assert_eq!(next(&e, START + 5_000), Ok(Step::Wait));
        e.games[0].status = Some("started".into());
        assert!(crate::tournament::standings::open(&e.games[0]));
    }

    #[test]
    fn arena_streaks_count_from_the_games_rows() {
        let mut e = event(System::Arena, arena_settings(), &["Ann", "Ben"]);
        for round in 1..=3 {
            let batch = Batch {
                round,
                games: vec![["ann".into(), "ben".into()]],
                byes: Vec::new(),
            };
            take(&mut e, &batch, &["1-0"]);
        }
        let table = standings(&e);
        // 2, 2, then on fire: 4.
        assert_eq!(
            (table[0].score, table[0].sheet.as_str(), table[0].fire),
            (8, "224", true)
        );
        e.settings.streakable = false;
        assert_eq!(standings(&e)[0].score, 6);
    }

    fn swiss_settings(rounds: u32) -> Settings {
        Settings {
            nb_rounds: rounds,
            round_interval: 60,
            ..Settings::default()
        }
    }

    #[test]
    fn a_swiss_event_pairs_each_round_after_the_last_and_its_interval() {
        let mut e = event(System::Swiss, swiss_settings(3), &["Ann", "Ben", "Cat"]);
        let first = paired(next(&e, START).unwrap());
        // Round 1: the top half against the bottom half, the lowest has the bye.
        assert_eq!(first.games, vec![["ann".to_string(), "ben".to_string()]]);
        assert_eq!(first.byes.len(), 1);
        assert_eq!(
            (first.byes[0].user_id.as_str(), first.byes[0].half_points),
            ("cat", 2)
        );
        take(&mut e, &first, &[]);
        assert_eq!(next(&e, START + 1), Ok(Step::Wait), "the round is in play");
        e.games[0].status = Some("finished".into());
        e.games[0].result = Some("0-1".into());
        assert_eq!(next(&e, START + 2), Ok(Step::Schedule(START + 2 + 60_000)));
        e.row.next_round_ms = Some(START + 60_000);
        assert_eq!(next(&e, START + 59_999), Ok(Step::Wait));
        let second = paired(next(&e, START + 60_000).unwrap());
        assert_eq!(second.round, 2);
        // No rematch; Cat had the bye and plays; the bye goes to someone else.
        assert_eq!(second.games.len(), 1);
        assert!(second.games[0].contains(&"cat".to_string()));
        assert_ne!(second.byes[0].user_id, "cat");
        take(&mut e, &second, &["1/2-1/2"]);
        e.row.next_round_ms = Some(START);
        let third = paired(next(&e, START + 120_000).unwrap());
        take(&mut e, &third, &["1-0"]);
        e.row.next_round_ms = Some(START);
        assert_eq!(next(&e, START + 180_000), Ok(Step::Finish));
        // Everyone met everyone once; three games and three byes of a point.
        let total: u32 = standings(&e).iter().map(|s| s.score).sum();
        assert_eq!(total, 3 * 2 + 3 * 2);
    }

    #[test]
    fn the_pairing_bye_scores_what_the_event_says() {
        let mut settings = swiss_settings(3);
        settings.bye_half_points = Some(1);
        let e = event(System::Swiss, settings, &["Ann", "Ben", "Cat"]);
        let first = paired(next(&e, START).unwrap());
        assert_eq!(
            (first.byes[0].kind.as_str(), first.byes[0].half_points),
            ("pairing", 1)
        );
    }

    #[test]
    fn a_late_joiner_gets_one_half_point_bye() {
        let mut e = event(
            System::Swiss,
            swiss_settings(5),
            &["Ann", "Ben", "Cat", "Dan"],
        );
        let first = paired(next(&e, START).unwrap());
        take(&mut e, &first, &["1-0", "1-0"]);
        let mut late = e.entrants[0].clone();
        late.user.id = "eve".into();
        late.user.name = "Eve".into();
        late.rating = 1500;
        late.joined_round = 1;
        e.entrants.push(late);
        e.row.next_round_ms = Some(START);
        let second = paired(next(&e, START + 1).unwrap());
        let eve_bye = second
            .byes
            .iter()
            .find(|b| b.kind == "late")
            .expect("a late bye");
        assert_eq!(
            (eve_bye.user_id.as_str(), eve_bye.round, eve_bye.half_points),
            ("eve", 1, 1)
        );
        // Five players: two games and a pairing bye.
        assert_eq!(second.games.len(), 2);
        assert_eq!(
            second.byes.iter().filter(|b| b.kind == "pairing").count(),
            1
        );
    }

    #[test]
    fn a_round_robin_follows_berger_tables_and_forfeits_a_withdrawn_player() {
        let mut e = event(
            System::RoundRobin,
            Settings::default(),
            &["Ann", "Ben", "Cat", "Dan"],
        );
        let first = paired(next(&e, START).unwrap());
        // Berger, four players, round 1: 1-4, 2-3.
        assert_eq!(
            first.games,
            vec![
                ["ann".to_string(), "dan".to_string()],
                ["ben".to_string(), "cat".to_string()]
            ]
        );
        take(&mut e, &first, &["1-0", "0-1"]);
        e.entrants[3].withdrawn = true;
        e.row.next_round_ms = Some(START);
        // Round 2: 4-3, 1-2; Dan withdrew, so Cat wins by forfeit.
        let second = paired(next(&e, START + 1).unwrap());
        assert_eq!(second.games, vec![["ann".to_string(), "ben".to_string()]]);
        assert_eq!(second.byes.len(), 1);
        assert_eq!(
            (
                second.byes[0].user_id.as_str(),
                second.byes[0].kind.as_str()
            ),
            ("cat", "forfeit")
        );
        take(&mut e, &second, &["1-0"]);
        e.row.next_round_ms = Some(START);
        let third = paired(next(&e, START + 2).unwrap());
        assert_eq!(third.round, 3);
        take(&mut e, &third, &["1-0"]);
        e.row.next_round_ms = Some(START);
        assert_eq!(
            next(&e, START + 3),
            Ok(Step::Finish),
            "three rounds for four players"
        );
    }
}
