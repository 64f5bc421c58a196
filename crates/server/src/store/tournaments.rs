//! Tournaments and teams as stored: an event's settings and status, its
//! players, the games it paired (their results are the games' own, read
//! through the `games` table) and its byes; teams and their members. A
//! pairing batch is taken only while the event is still at the batch it
//! was computed from, so two nodes never pair one event twice.

use super::accounts::{user_columns, user_row, USER_COLUMNS};
use super::sql::{params, Row, Session, Statement};
use super::{Store, StoreError, UserRow};

/// The tables (one schema step in both databases).
pub(super) const TABLES: &str = r#"
    CREATE TABLE teams (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        leader TEXT NOT NULL REFERENCES users (id),
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE team_members (
        team_id TEXT NOT NULL REFERENCES teams (id),
        user_id TEXT NOT NULL REFERENCES users (id),
        joined_ms BIGINT NOT NULL,
        PRIMARY KEY (team_id, user_id)
    );
    CREATE INDEX team_members_by_user ON team_members (user_id);
    CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        system TEXT NOT NULL,
        name TEXT NOT NULL,
        creator TEXT NOT NULL REFERENCES users (id),
        team_id TEXT REFERENCES teams (id),
        variant TEXT NOT NULL,
        clock_limit BIGINT NOT NULL,
        clock_increment BIGINT NOT NULL,
        rated BOOLEAN NOT NULL,
        settings_json TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        starts_ms BIGINT NOT NULL,
        status TEXT NOT NULL,
        batch BIGINT NOT NULL,
        round BIGINT NOT NULL,
        next_round_ms BIGINT,
        finished_ms BIGINT
    );
    CREATE INDEX tournaments_by_status ON tournaments (status, starts_ms);
    CREATE TABLE tournament_players (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        user_id TEXT NOT NULL REFERENCES users (id),
        rating BIGINT NOT NULL,
        joined_ms BIGINT NOT NULL,
        joined_round BIGINT NOT NULL,
        withdrawn BOOLEAN NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_games (
        game_id TEXT PRIMARY KEY,
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        round BIGINT NOT NULL,
        board BIGINT NOT NULL,
        white TEXT NOT NULL REFERENCES users (id),
        black TEXT NOT NULL REFERENCES users (id),
        paired_ms BIGINT NOT NULL,
        berserk_white BOOLEAN NOT NULL DEFAULT FALSE,
        berserk_black BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id, round);
    CREATE TABLE tournament_byes (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        round BIGINT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id),
        kind TEXT NOT NULL,
        half_points BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, round, user_id)
    );
"#;

/// A tournament's settings and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: String,
    /// `arena`, `swiss` or `robin`.
    pub system: String,
    pub name: String,
    pub creator: String,
    /// A Swiss event's team; an arena's entry condition.
    pub team_id: Option<String>,
    pub variant: String,
    /// Seconds.
    pub clock_limit: i64,
    pub clock_increment: i64,
    pub rated: bool,
    /// The system's own settings (`crate::tournament::Settings`).
    pub settings_json: String,
    pub created_ms: i64,
    pub starts_ms: i64,
    /// `created`, `started` or `finished`.
    pub status: String,
    /// Pairing batches taken so far: the version a new batch must match.
    pub batch: i64,
    /// Rounds paired so far (Swiss and round robin).
    pub round: i64,
    /// When the next round is paired, once the last one has ended.
    pub next_round_ms: Option<i64>,
    pub finished_ms: Option<i64>,
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    pub user: UserRow,
    /// The rating in the event's variant when the player joined.
    pub rating: i64,
    pub joined_ms: i64,
    /// Rounds already paired when the player joined.
    pub joined_round: i64,
    pub withdrawn: bool,
}

/// A game a tournament paired, with the game's own state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedGameRow {
    pub game_id: String,
    pub round: i64,
    pub board: i64,
    pub white: String,
    pub black: String,
    pub paired_ms: i64,
    /// Which sides went berserk (White's first).
    pub berserk: [bool; 2],
    /// The game's status (`waiting`, `started`, `finished`); none while
    /// the game is not created yet.
    pub status: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`; none for a game in play or aborted.
    pub result: Option<String>,
    pub turn: i64,
}

/// A round a player was given without a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByeRow {
    pub round: i64,
    pub user_id: String,
    /// `pairing` (no opponent was left) or `late` (joined after rounds began).
    pub kind: String,
    pub half_points: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRow {
    pub id: String,
    pub name: String,
    pub description: String,
    pub leader: String,
    pub created_ms: i64,
}

/// Changes to tournaments and teams. Those that need a row in a state
/// fail with [`StoreError::Gone`] when it is not.
#[derive(Clone, Debug)]
pub enum TournamentChange {
    New(TournamentRow),
    /// Joins, or joins again after a withdrawal.
    Join {
        tournament: String,
        user_id: String,
        rating: i64,
        at_ms: i64,
        joined_round: i64,
    },
    Withdraw {
        tournament: String,
        user_id: String,
    },
    /// A side of a game went berserk.
    Berserk {
        game: String,
        color: parity_rules::Color,
    },
    /// Games and byes, taken only if the event is still at `batch`
    /// (then at `batch + 1`, and at `round` rounds).
    Pair {
        tournament: String,
        batch: i64,
        round: i64,
        started: bool,
        games: Vec<PairedGameRow>,
        byes: Vec<ByeRow>,
    },
    /// When the next round is paired: the creator's date replaces any;
    /// the system's (`replace` false) is only set where none is.
    Schedule {
        tournament: String,
        next_round_ms: i64,
        replace: bool,
    },
    /// A new start time, before the start.
    Reschedule {
        tournament: String,
        starts_ms: i64,
    },
    Finish {
        tournament: String,
        at_ms: i64,
    },
    NewTeam(TeamRow),
    JoinTeam {
        team: String,
        user_id: String,
        at_ms: i64,
    },
    LeaveTeam {
        team: String,
        user_id: String,
    },
}

/// The statements of a change.
pub(super) fn statements(change: &TournamentChange) -> Vec<Statement> {
    use TournamentChange::*;
    match change {
        New(t) => vec![Statement::new(
            "INSERT INTO tournaments (id, system, name, creator, team_id, variant, clock_limit,
                 clock_increment, rated, settings_json, created_ms, starts_ms, status, batch,
                 round, next_round_ms, finished_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            params![
                &t.id,
                &t.system,
                &t.name,
                &t.creator,
                t.team_id.as_ref(),
                &t.variant,
                t.clock_limit,
                t.clock_increment,
                t.rated,
                &t.settings_json,
                t.created_ms,
                t.starts_ms,
                &t.status,
                t.batch,
                t.round,
                t.next_round_ms,
                t.finished_ms,
            ],
        )],
        Join {
            tournament,
            user_id,
            rating,
            at_ms,
            joined_round,
        } => vec![
            Statement::one(
                "UPDATE tournaments SET status = status WHERE id = $1 AND status <> 'finished'",
                params![tournament],
                "this tournament is over",
            ),
            Statement::new(
                "INSERT INTO tournament_players (tournament_id, user_id, rating, joined_ms,
                     joined_round, withdrawn)
                 VALUES ($1, $2, $3, $4, $5, FALSE)
                 ON CONFLICT (tournament_id, user_id) DO UPDATE SET withdrawn = FALSE",
                params![tournament, user_id, *rating, *at_ms, *joined_round],
            ),
        ],
        Withdraw {
            tournament,
            user_id,
        } => vec![Statement::one(
            "UPDATE tournament_players SET withdrawn = TRUE
             WHERE tournament_id = $1 AND user_id = $2 AND NOT withdrawn",
            params![tournament, user_id],
            "not a player of this tournament",
        )],
        Berserk { game, color } => vec![Statement::one(
            match color {
                parity_rules::Color::White => {
                    "UPDATE tournament_games SET berserk_white = TRUE WHERE game_id = $1"
                }
                parity_rules::Color::Black => {
                    "UPDATE tournament_games SET berserk_black = TRUE WHERE game_id = $1"
                }
            },
            params![game],
            "not a tournament game",
        )],
        Pair {
            tournament,
            batch,
            round,
            started,
            games,
            byes,
        } => {
            let mut list = vec![Statement::one(
                "UPDATE tournaments SET batch = batch + 1, round = $3, next_round_ms = NULL,
                     status = CASE WHEN $4 THEN 'started' ELSE status END
                 WHERE id = $1 AND batch = $2 AND status <> 'finished'",
                params![tournament, *batch, *round, *started],
                "this tournament was paired already",
            )];
            list.extend(games.iter().map(|g| {
                Statement::new(
                    "INSERT INTO tournament_games (game_id, tournament_id, round, board, white,
                         black, paired_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    params![
                        &g.game_id,
                        tournament,
                        g.round,
                        g.board,
                        &g.white,
                        &g.black,
                        g.paired_ms
                    ],
                )
            }));
            list.extend(byes.iter().map(|b| {
                Statement::new(
                    "INSERT INTO tournament_byes (tournament_id, round, user_id, kind, half_points)
                     VALUES ($1, $2, $3, $4, $5)",
                    params![tournament, b.round, &b.user_id, &b.kind, b.half_points],
                )
            }));
            list
        }
        Schedule {
            tournament,
            next_round_ms,
            replace,
        } => vec![Statement::one(
            match replace {
                true => "UPDATE tournaments SET next_round_ms = $2 WHERE id = $1 AND status <> 'finished'",
                false => {
                    "UPDATE tournaments SET next_round_ms = $2
                     WHERE id = $1 AND status <> 'finished' AND next_round_ms IS NULL"
                }
            },
            params![tournament, *next_round_ms],
            "this tournament is over, or its next round has a time",
        )],
        Reschedule {
            tournament,
            starts_ms,
        } => vec![Statement::one(
            "UPDATE tournaments SET starts_ms = $2 WHERE id = $1 AND status = 'created'",
            params![tournament, *starts_ms],
            "this tournament has started",
        )],
        Finish { tournament, at_ms } => vec![Statement::one(
            "UPDATE tournaments SET status = 'finished', finished_ms = $2, next_round_ms = NULL
             WHERE id = $1 AND status <> 'finished'",
            params![tournament, *at_ms],
            "this tournament is over already",
        )],
        NewTeam(t) => vec![
            Statement::new(
                "INSERT INTO teams (id, name, description, leader, created_ms)
                 VALUES ($1, $2, $3, $4, $5)",
                params![&t.id, &t.name, &t.description, &t.leader, t.created_ms],
            ),
            Statement::new(
                "INSERT INTO team_members (team_id, user_id, joined_ms) VALUES ($1, $2, $3)",
                params![&t.id, &t.leader, t.created_ms],
            ),
        ],
        JoinTeam {
            team,
            user_id,
            at_ms,
        } => vec![Statement::new(
            "INSERT INTO team_members (team_id, user_id, joined_ms) VALUES ($1, $2, $3)
             ON CONFLICT (team_id, user_id) DO NOTHING",
            params![team, user_id, *at_ms],
        )],
        LeaveTeam { team, user_id } => vec![Statement::one(
            "DELETE FROM team_members WHERE team_id = $1 AND user_id = $2",
            params![team, user_id],
            "not a member of this team",
        )],
    }
}

const TOURNAMENT_COLUMNS: &str = "t.id, t.system, t.name, t.creator, t.team_id, t.variant,
    t.clock_limit, t.clock_increment, t.rated, t.settings_json, t.created_ms, t.starts_ms,
    t.status, t.batch, t.round, t.next_round_ms, t.finished_ms";

fn tournament_row(r: &Row) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.text(0)?,
        system: r.text(1)?,
        name: r.text(2)?,
        creator: r.text(3)?,
        team_id: r.maybe_text(4)?,
        variant: r.text(5)?,
        clock_limit: r.int(6)?,
        clock_increment: r.int(7)?,
        rated: r.flag(8)?,
        settings_json: r.text(9)?,
        created_ms: r.int(10)?,
        starts_ms: r.int(11)?,
        status: r.text(12)?,
        batch: r.int(13)?,
        round: r.int(14)?,
        next_round_ms: r.maybe_int(15)?,
        finished_ms: r.maybe_int(16)?,
    })
}

const ENTRANTS: &str = concat!(
    "SELECT ",
    user_columns!("u"),
    ", p.rating, p.joined_ms, p.joined_round, p.withdrawn
     FROM tournament_players p JOIN users u ON u.id = p.user_id
     WHERE p.tournament_id = $1 ORDER BY p.joined_ms, u.id"
);

fn entrant_row(r: &Row) -> Result<EntrantRow, StoreError> {
    let c = USER_COLUMNS;
    Ok(EntrantRow {
        user: user_row(r, 0)?,
        rating: r.int(c)?,
        joined_ms: r.int(c + 1)?,
        joined_round: r.int(c + 2)?,
        withdrawn: r.flag(c + 3)?,
    })
}

const PAIRED_GAMES: &str = "SELECT tg.game_id, tg.round, tg.board, tg.white, tg.black,
        tg.paired_ms, g.status, g.result, g.turn, tg.berserk_white, tg.berserk_black
     FROM tournament_games tg LEFT JOIN games g ON g.id = tg.game_id
     WHERE tg.tournament_id = $1 ORDER BY tg.round, tg.board, tg.paired_ms, tg.game_id";

fn paired_game_row(r: &Row) -> Result<PairedGameRow, StoreError> {
    Ok(PairedGameRow {
        game_id: r.text(0)?,
        round: r.int(1)?,
        board: r.int(2)?,
        white: r.text(3)?,
        black: r.text(4)?,
        paired_ms: r.int(5)?,
        status: r.maybe_text(6)?,
        result: r.maybe_text(7)?,
        turn: r.maybe_int(8)?.unwrap_or(0),
        berserk: [r.flag(9)?, r.flag(10)?],
    })
}

fn team_row(r: &Row) -> Result<TeamRow, StoreError> {
    Ok(TeamRow {
        id: r.text(0)?,
        name: r.text(1)?,
        description: r.text(2)?,
        leader: r.text(3)?,
        created_ms: r.int(4)?,
    })
}

impl Store {
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments t WHERE t.id = $1");
        match self.reader.query_opt(&sql, &params![id]).await? {
            Some(r) => Ok(Some(tournament_row(&r)?)),
            None => Ok(None),
        }
    }

    /// Tournaments not finished, soonest first.
    pub async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t
             WHERE t.status <> 'finished' ORDER BY t.starts_ms, t.id"
        );
        let rows = self.reader.query(&sql, &[]).await?;
        rows.iter().map(tournament_row).collect()
    }

    /// The `limit` latest finished tournaments, last finished first.
    pub async fn finished_tournaments(&self, limit: u32) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t
             WHERE t.status = 'finished' ORDER BY t.finished_ms DESC, t.id LIMIT $1"
        );
        let rows = self.reader.query(&sql, &params![limit]).await?;
        rows.iter().map(tournament_row).collect()
    }

    /// A team's tournaments of `system` (`arena` or `swiss`), newest first.
    pub async fn team_tournaments(
        &self,
        team: &str,
        system: &str,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t
             WHERE t.team_id = $1 AND t.system = $2 ORDER BY t.starts_ms DESC, t.id LIMIT $3"
        );
        let rows = self
            .reader
            .query(&sql, &params![team, system, limit])
            .await?;
        rows.iter().map(tournament_row).collect()
    }

    /// A tournament's players, in the order they joined.
    pub async fn entrants(&self, tournament: &str) -> Result<Vec<EntrantRow>, StoreError> {
        let rows = self.reader.query(ENTRANTS, &params![tournament]).await?;
        rows.iter().map(entrant_row).collect()
    }

    /// A tournament's games, by round and board.
    pub async fn paired_games(&self, tournament: &str) -> Result<Vec<PairedGameRow>, StoreError> {
        let rows = self
            .reader
            .query(PAIRED_GAMES, &params![tournament])
            .await?;
        rows.iter().map(paired_game_row).collect()
    }

    pub async fn byes(&self, tournament: &str) -> Result<Vec<ByeRow>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT round, user_id, kind, half_points FROM tournament_byes
                 WHERE tournament_id = $1 ORDER BY round, user_id",
                &params![tournament],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(ByeRow {
                    round: r.int(0)?,
                    user_id: r.text(1)?,
                    kind: r.text(2)?,
                    half_points: r.int(3)?,
                })
            })
            .collect()
    }

    /// The tournament game `game` belongs to, if any.
    pub async fn tournament_of_game(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .reader
            .query_opt(
                "SELECT tournament_id FROM tournament_games WHERE game_id = $1",
                &params![game],
            )
            .await?;
        row.map(|r| r.text(0)).transpose()
    }

    pub async fn team(&self, id: &str) -> Result<Option<TeamRow>, StoreError> {
        let row = self
            .reader
            .query_opt(
                "SELECT id, name, description, leader, created_ms FROM teams WHERE id = $1",
                &params![id],
            )
            .await?;
        row.as_ref().map(team_row).transpose()
    }

    /// A team's members, in the order they joined.
    pub async fn team_members(&self, team: &str) -> Result<Vec<UserRow>, StoreError> {
        let sql = concat!(
            "SELECT ",
            user_columns!("u"),
            " FROM team_members m JOIN users u ON u.id = m.user_id
             WHERE m.team_id = $1 ORDER BY m.joined_ms, u.id"
        );
        let rows = self.reader.query(sql, &params![team]).await?;
        rows.iter().map(|r| user_row(r, 0)).collect()
    }

    pub async fn is_team_member(&self, team: &str, user_id: &str) -> Result<bool, StoreError> {
        let row = self
            .reader
            .query_opt(
                "SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2",
                &params![team, user_id],
            )
            .await?;
        Ok(row.is_some())
    }

    /// The teams `user_id` belongs to.
    pub async fn teams_of(&self, user_id: &str) -> Result<Vec<TeamRow>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT t.id, t.name, t.description, t.leader, t.created_ms
                 FROM teams t JOIN team_members m ON m.team_id = t.id
                 WHERE m.user_id = $1 ORDER BY t.name, t.id",
                &params![user_id],
            )
            .await?;
        rows.iter().map(team_row).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::event::Seat;
    use crate::game::state::{Status, Summary};
    use crate::store::{AccountChange, Change, Database};

    fn tournament(id: &str) -> TournamentRow {
        TournamentRow {
            id: id.into(),
            system: "swiss".into(),
            name: "Club Swiss".into(),
            creator: "ann".into(),
            team_id: Some("club".into()),
            variant: "parity".into(),
            clock_limit: 60,
            clock_increment: 1,
            rated: true,
            settings_json: r#"{"nbRounds":5}"#.into(),
            created_ms: 1,
            starts_ms: 2,
            status: "created".into(),
            batch: 0,
            round: 0,
            next_round_ms: None,
            finished_ms: None,
        }
    }

    fn game(id: &str, white: &str, black: &str) -> PairedGameRow {
        PairedGameRow {
            game_id: id.into(),
            round: 1,
            board: 1,
            white: white.into(),
            black: black.into(),
            paired_ms: 3,
            berserk: [false; 2],
            status: None,
            result: None,
            turn: 0,
        }
    }

    fn t(change: TournamentChange) -> Change {
        Change::Tournament(change)
    }

    /// Two stores on one database pair the same batch: one is taken,
    /// the other is gone, and nothing of it is written.
    async fn tournaments_and_teams(db: Database) {
        let (a, a_writer) = Store::open(&db).await.unwrap();
        let (_b, b_writer) = Store::open(&db).await.unwrap();
        let mut changes: Vec<Change> = ["ann", "ben", "cid"]
            .iter()
            .map(|id| {
                Change::Account(AccountChange::NewUser {
                    id: id.to_string(),
                    name: id.to_uppercase(),
                    password_hash: None,
                    bot: false,
                    created_ms: 1,
                })
            })
            .collect();
        changes.push(t(TournamentChange::NewTeam(TeamRow {
            id: "club".into(),
            name: "Club".into(),
            description: String::new(),
            leader: "ann".into(),
            created_ms: 1,
        })));
        changes.push(t(TournamentChange::JoinTeam {
            team: "club".into(),
            user_id: "ben".into(),
            at_ms: 2,
        }));
        changes.push(t(TournamentChange::New(tournament("T0000001"))));
        for (i, user) in ["ann", "ben", "cid"].iter().enumerate() {
            changes.push(t(TournamentChange::Join {
                tournament: "T0000001".into(),
                user_id: user.to_string(),
                rating: 1500 + i as i64,
                at_ms: 10 + i as i64,
                joined_round: 0,
            }));
        }
        a_writer.write(changes).await.unwrap();
        assert_eq!(
            a.tournament("T0000001").await.unwrap(),
            Some(tournament("T0000001"))
        );
        let members: Vec<String> = a
            .team_members("club")
            .await
            .unwrap()
            .into_iter()
            .map(|u| u.id)
            .collect();
        assert_eq!(members, ["ann", "ben"]);
        assert!(a.is_team_member("club", "ben").await.unwrap());
        assert!(!a.is_team_member("club", "cid").await.unwrap());
        assert_eq!(a.teams_of("ben").await.unwrap().len(), 1);

        let pair = |game_id: &str| TournamentChange::Pair {
            tournament: "T0000001".into(),
            batch: 0,
            round: 1,
            started: true,
            games: vec![game(game_id, "ann", "ben")],
            byes: vec![ByeRow {
                round: 1,
                user_id: "cid".into(),
                kind: "pairing".into(),
                half_points: 2,
            }],
        };
        let (first, second) = tokio::join!(
            a_writer.write(vec![t(pair("g000000001"))]),
            b_writer.write(vec![t(pair("g000000002"))]),
        );
        let taken = [first.is_ok(), second.is_ok()];
        assert_eq!(taken.iter().filter(|&&ok| ok).count(), 1, "{taken:?}");
        let lost = if taken[0] { second } else { first };
        assert!(matches!(lost, Err(StoreError::Gone(_))), "{lost:?}");
        let games = a.paired_games("T0000001").await.unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].status, None, "not created yet");
        assert_eq!(a.byes("T0000001").await.unwrap().len(), 1);
        let row = a.tournament("T0000001").await.unwrap().unwrap();
        assert_eq!(
            (row.status.as_str(), row.batch, row.round),
            ("started", 1, 1)
        );
        assert_eq!(a.unfinished_tournaments().await.unwrap().len(), 1);
        // The system's schedule never replaces one set already; the creator's does.
        let schedule = |at: i64, replace: bool| {
            t(TournamentChange::Schedule {
                tournament: "T0000001".into(),
                next_round_ms: at,
                replace,
            })
        };
        a_writer.write(vec![schedule(100, false)]).await.unwrap();
        assert!(matches!(
            a_writer.write(vec![schedule(200, false)]).await,
            Err(StoreError::Gone(_))
        ));
        a_writer.write(vec![schedule(300, true)]).await.unwrap();
        let row = a.tournament("T0000001").await.unwrap().unwrap();
        assert_eq!(row.next_round_ms, Some(300));
        let restart = t(TournamentChange::Reschedule {
            tournament: "T0000001".into(),
            starts_ms: 9,
        });
        assert!(
            matches!(
                a_writer.write(vec![restart]).await,
                Err(StoreError::Gone(_))
            ),
            "started already"
        );

        // The game as created and finished is read through the games table.
        let id = games[0].game_id.clone();
        a_writer
            .write(vec![
                Change::NewGame {
                    id: id.clone(),
                    variant: "parity".into(),
                    created_ms: 4,
                    seats: [Seat::Human, Seat::Human],
                    rematch_of: None,
                    public: Some(true),
                },
                Change::Summary {
                    game: id.clone(),
                    summary: Summary {
                        status: Status::Finished,
                        result: Some("0-1".into()),
                        reason: None,
                        turn: 12,
                        both_moved: true,
                    },
                },
            ])
            .await
            .unwrap();
        let games = a.paired_games("T0000001").await.unwrap();
        assert_eq!(
            (
                games[0].status.as_deref(),
                games[0].result.as_deref(),
                games[0].turn
            ),
            (Some("finished"), Some("0-1"), 12)
        );
        assert_eq!(
            a.tournament_of_game(&id).await.unwrap().as_deref(),
            Some("T0000001")
        );

        // Withdraw once; join again; finish once; no join after.
        let withdraw = || {
            t(TournamentChange::Withdraw {
                tournament: "T0000001".into(),
                user_id: "cid".into(),
            })
        };
        a_writer.write(vec![withdraw()]).await.unwrap();
        assert!(matches!(
            a_writer.write(vec![withdraw()]).await,
            Err(StoreError::Gone(_))
        ));
        let rejoin = || {
            t(TournamentChange::Join {
                tournament: "T0000001".into(),
                user_id: "cid".into(),
                rating: 1700,
                at_ms: 99,
                joined_round: 1,
            })
        };
        a_writer.write(vec![rejoin()]).await.unwrap();
        let cid = a
            .entrants("T0000001")
            .await
            .unwrap()
            .into_iter()
            .find(|e| e.user.id == "cid")
            .unwrap();
        assert_eq!(
            (cid.withdrawn, cid.rating, cid.joined_round),
            (false, 1502, 0),
            "the first join stays"
        );
        let finish = || {
            t(TournamentChange::Finish {
                tournament: "T0000001".into(),
                at_ms: 50,
            })
        };
        a_writer.write(vec![finish()]).await.unwrap();
        assert!(matches!(
            a_writer.write(vec![finish()]).await,
            Err(StoreError::Gone(_))
        ));
        assert!(matches!(
            a_writer.write(vec![rejoin()]).await,
            Err(StoreError::Gone(_))
        ));
        assert!(a.unfinished_tournaments().await.unwrap().is_empty());
        assert_eq!(
            a.finished_tournaments(5).await.unwrap()[0].finished_ms,
            Some(50)
        );
        assert_eq!(
            a.team_tournaments("club", "swiss", 5).await.unwrap().len(),
            1
        );

        let leave = || {
            t(TournamentChange::LeaveTeam {
                team: "club".into(),
                user_id: "ben".into(),
            })
        };
        a_writer.write(vec![leave()]).await.unwrap();
        assert!(matches!(
            a_writer.write(vec![leave()]).await,
            Err(StoreError::Gone(_))
        ));
    }

    #[tokio::test]
    async fn sqlite_tournaments_and_teams() {
        let dir = tempfile::tempdir().unwrap();
        tournaments_and_teams(Database::from(dir.path().join("t.sqlite"))).await;
    }

    #[tokio::test]
    async fn postgres_tournaments_and_teams() {
        let db = crate::store::tests::fresh_postgres().await.expect(
            "PARITY_TEST_POSTGRES names no PostgreSQL server: scripts/test starts one and sets it",
        );
        tournaments_and_teams(db).await;
    }
}
