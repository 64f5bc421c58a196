//! Scores from an event's rows: an arena's sheets, the points and
//! tie-breaks of a Swiss event or round robin, and the ranks. A game's
//! result is the game's own (the `games` table); an aborted game counts
//! for nobody.

use crate::store::tournaments::PairedGameRow;
use crate::store::UserRow;
use crate::tournament::arena::{self, Finished, GameResult};
use crate::tournament::settings::System;
use crate::tournament::{swiss, Tournament};

/// One player's place.
#[derive(Clone, Debug)]
pub struct Standing {
    pub user: UserRow,
    /// The rating when the player joined.
    pub rating: i64,
    /// 1-based, unique.
    pub rank: u32,
    /// An arena's points; a Swiss event's or round robin's half-points.
    pub score: u32,
    /// An arena's sheet, each game's points as lichess writes it ("42200").
    pub sheet: String,
    /// An arena player whose next win counts double.
    pub fire: bool,
    /// Buchholz in half-points, Sonneborn-Berger in quarter-points (Swiss,
    /// round robin).
    pub buchholz: u32,
    pub sonneborn_berger: u32,
    /// The pairing number (Swiss, round robin).
    pub number: u32,
    pub withdrawn: bool,
    /// The game the player is in now.
    pub playing: Option<String>,
    pub games: u32,
    pub wins: u32,
    /// Games the player went berserk in.
    pub berserks: u32,
}

/// How a finished, not aborted, game ended for `user`.
pub fn result_for(game: &PairedGameRow, user: &str) -> Option<GameResult> {
    let white = match game.result.as_deref()? {
        "1-0" => GameResult::Win,
        "0-1" => GameResult::Loss,
        "1/2-1/2" => GameResult::Draw,
        _ => return None,
    };
    let flip = |r| match r {
        GameResult::Win => GameResult::Loss,
        GameResult::Loss => GameResult::Win,
        GameResult::Draw => GameResult::Draw,
    };
    match (game.white == user, game.black == user) {
        (true, _) => Some(white),
        (_, true) => Some(flip(white)),
        _ => None,
    }
}

/// Whether a game is still being played (or not created yet).
pub fn in_play(game: &PairedGameRow) -> bool {
    game.status.as_deref() != Some("finished")
}

/// Whether a game can be joined now: created, and not finished. A paired
/// game is created just after its batch is written, so a reader may see
/// the pairing a moment before the game exists.
pub fn open(game: &PairedGameRow) -> bool {
    game.status.is_some() && in_play(game)
}

/// Full moves both sides made: the games table keeps the move (or turn)
/// number the game stopped at, one more than the full moves played.
fn full_moves(game: &PairedGameRow) -> u32 {
    u32::try_from(game.turn - 1).unwrap_or(0)
}

/// The arena sheet of `user`: their finished games in the order played.
pub fn arena_sheet(event: &Tournament, user: &str) -> arena::Sheet {
    let games: Vec<Finished> = event
        .games
        .iter()
        .filter(|g| !in_play(g))
        .filter_map(|g| {
            Some(Finished {
                result: result_for(g, user)?,
                moves: full_moves(g),
                berserk: g.berserk[usize::from(g.black == user)],
            })
        })
        .collect();
    match event.settings.streakable {
        true => arena::sheet(&games),
        false => arena::sheet_without_streaks(&games),
    }
}

/// Every player's place, best first.
pub fn standings(event: &Tournament) -> Vec<Standing> {
    let mut list: Vec<Standing> = match event.system {
        System::Arena => arena_standings(event),
        System::Swiss | System::RoundRobin => swiss_standings(event),
    };
    list.sort_by_key(|s| s.rank);
    list
}

fn blank(event: &Tournament, entrant: &crate::store::tournaments::EntrantRow) -> Standing {
    let id = &entrant.user.id;
    let mine = || {
        event
            .games
            .iter()
            .filter(move |g| &g.white == id || &g.black == id)
    };
    Standing {
        user: entrant.user.clone(),
        rating: entrant.rating,
        rank: 0,
        score: 0,
        sheet: String::new(),
        fire: false,
        buchholz: 0,
        sonneborn_berger: 0,
        number: 0,
        withdrawn: entrant.withdrawn,
        playing: mine().find(|g| in_play(g)).map(|g| g.game_id.clone()),
        games: mine().filter(|g| result_for(g, id).is_some()).count() as u32,
        wins: mine()
            .filter(|g| result_for(g, id) == Some(GameResult::Win))
            .count() as u32,
        berserks: mine()
            .filter(|g| g.berserk[usize::from(&g.black == id)])
            .count() as u32,
    }
}

fn arena_standings(event: &Tournament) -> Vec<Standing> {
    let mut list: Vec<Standing> = event
        .entrants
        .iter()
        .map(|entrant| {
            let sheet = arena_sheet(event, &entrant.user.id);
            let mut standing = blank(event, entrant);
            standing.score = sheet.total;
            standing.fire = sheet.on_fire;
            standing.sheet = sheet.entries.iter().map(|e| e.points.to_string()).collect();
            standing
        })
        .collect();
    let entrants: Vec<arena::Entrant<String>> = list
        .iter()
        .map(|s| arena::Entrant {
            key: s.user.id.clone(),
            total: s.score,
            rating: u32::try_from(s.rating.max(0)).unwrap_or(0),
        })
        .collect();
    for ranked in arena::standings(&entrants) {
        if let Some(s) = list.iter_mut().find(|s| s.user.id == ranked.key) {
            s.rank = ranked.rank;
        }
    }
    list
}

fn swiss_standings(event: &Tournament) -> Vec<Standing> {
    let field = swiss_field(event, event.row.round);
    let table = swiss::tiebreak::standings(&field.entrants);
    event
        .entrants
        .iter()
        .map(|entrant| {
            let mut standing = blank(event, entrant);
            let number = field.number_of(&entrant.user.id);
            standing.number = number;
            if let Some((place, row)) = table.iter().enumerate().find(|(_, r)| r.number == number) {
                standing.rank = place as u32 + 1;
                standing.score = row.points;
                standing.buchholz = row.buchholz;
                standing.sonneborn_berger = row.sonneborn_berger;
            }
            standing
        })
        .collect()
}

/// A Swiss event or round robin as the pairing sees it after `rounds`
/// rounds: every player ever joined, numbered by rating (highest first,
/// then name), with their rounds.
pub struct SwissField {
    /// Account ids by pairing number (index 0 is number 1).
    pub ids: Vec<String>,
    pub entrants: Vec<swiss::Entrant>,
}

impl SwissField {
    pub fn number_of(&self, user: &str) -> u32 {
        self.ids
            .iter()
            .position(|id| id == user)
            .map_or(0, |i| i as u32 + 1)
    }
}

/// The Swiss view of `event` after its first `rounds` rounds; a player
/// is to be paired in the next round unless withdrawn.
pub fn swiss_field(event: &Tournament, rounds: i64) -> SwissField {
    let mut order: Vec<&crate::store::tournaments::EntrantRow> = event.entrants.iter().collect();
    order.sort_by(|a, b| {
        b.rating
            .cmp(&a.rating)
            .then_with(|| a.user.name.to_lowercase().cmp(&b.user.name.to_lowercase()))
            .then_with(|| a.user.id.cmp(&b.user.id))
    });
    let ids: Vec<String> = order.iter().map(|e| e.user.id.clone()).collect();
    let number = |id: &str| ids.iter().position(|i| i == id).map_or(0, |i| i as u32 + 1);
    let entrants = order
        .iter()
        .map(|entrant| {
            let id = &entrant.user.id;
            let history = (1..=rounds)
                .map(|round| {
                    if let Some(g) = event
                        .games
                        .iter()
                        .find(|g| g.round == round && (&g.white == id || &g.black == id))
                    {
                        let color = match &g.white == id {
                            true => parity_rules::Color::White,
                            false => parity_rules::Color::Black,
                        };
                        let opponent = number(if &g.white == id { &g.black } else { &g.white });
                        return match (in_play(g), result_for(g, id)) {
                            // Counts nothing until it ends (standings mid-round).
                            (true, _) => swiss::Round::Absent {
                                score: swiss::Score::Loss,
                            },
                            (false, Some(result)) => swiss::Round::Played {
                                opponent,
                                color,
                                score: score_of(result),
                            },
                            // Aborted: neither played; both lose it.
                            (false, None) => swiss::Round::Forfeit {
                                opponent,
                                color,
                                score: swiss::Score::Loss,
                            },
                        };
                    }
                    match event
                        .byes
                        .iter()
                        .find(|b| b.round == round && &b.user_id == id)
                    {
                        Some(bye) if bye.kind == "pairing" => swiss::Round::Bye {
                            score: half_points_score(bye.half_points),
                        },
                        Some(bye) => swiss::Round::Absent {
                            score: half_points_score(bye.half_points),
                        },
                        None => swiss::Round::Absent {
                            score: swiss::Score::Loss,
                        },
                    }
                })
                .collect();
            swiss::Entrant {
                number: number(id),
                rating: u32::try_from(entrant.rating.max(0)).unwrap_or(0),
                name: entrant.user.name.clone(),
                history,
                paired: !entrant.withdrawn,
            }
        })
        .collect();
    SwissField { ids, entrants }
}

fn score_of(result: GameResult) -> swiss::Score {
    match result {
        GameResult::Win => swiss::Score::Win,
        GameResult::Draw => swiss::Score::Draw,
        GameResult::Loss => swiss::Score::Loss,
    }
}

fn half_points_score(half_points: i64) -> swiss::Score {
    match half_points {
        2.. => swiss::Score::Win,
        1 => swiss::Score::Draw,
        _ => swiss::Score::Loss,
    }
}
