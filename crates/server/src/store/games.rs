//! Games: their rows, events, seats, hidden moves, players and chat, and
//! the server's heartbeat and downtimes. Each statement is written once
//! for both databases (`sql.rs`).

use parity_rules::Color;

use super::accounts::{user_columns, user_row};
use super::sql::{params, Row, Session, Statement, Value};
use super::{
    Change, ChatLine, GamePlayers, Listing, PlayerRow, SeatRow, Store, StoreError, StoredGame,
    UserGame,
};
use crate::game::clock::Downtime;
use crate::game::event::{Event, EventBody, Seat};
use crate::game::state::{Hidden, Status};

fn color_of(name: &str) -> Result<Color, StoreError> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(StoreError::Corrupt(format!("colour `{other}`"))),
    }
}

fn seat_text(seat: &Seat) -> String {
    serde_json::to_string(seat).unwrap_or_default()
}

/// The computer analyses of finished games (`crate::game::review`), one
/// JSON document each: both databases read this.
pub(super) const ANALYSES: &str = r#"
    CREATE TABLE analyses (
        game_id TEXT PRIMARY KEY,
        at_ms BIGINT NOT NULL,
        body TEXT NOT NULL
    );
"#;

/// A hidden move kept in its event's row, which a group commit appends to
/// the table's last page, instead of in `hidden_moves`, where each game's
/// row landed on a page of its own. Rows of `hidden_moves` written before
/// this step are still read.
pub(super) const HIDDEN_IN_EVENTS: &str = r#"
    ALTER TABLE events ADD COLUMN hidden_turn BIGINT;
    ALTER TABLE events ADD COLUMN hidden_color TEXT;
    ALTER TABLE events ADD COLUMN hidden_move TEXT;
    ALTER TABLE events ADD COLUMN hidden_nonce TEXT;
"#;

/// The statements of a change to a game or to the server's own rows;
/// none for the changes other files write.
pub(super) fn statements(change: &Change) -> Result<Vec<Statement>, StoreError> {
    fn one(sql: &'static str, params: impl Into<Vec<Value>>) -> Result<Vec<Statement>, StoreError> {
        Ok(vec![Statement::new(sql, params)])
    }
    match change {
        Change::NewGame {
            id,
            variant,
            created_ms,
            seats,
            rematch_of,
            public,
        } => one(
            "INSERT INTO games (id, variant, created_ms, white, black, rematch_of, status, turn, public)
             VALUES ($1, $2, $3, $4, $5, $6, 'waiting', 1,
                     COALESCE($7, (SELECT public FROM games WHERE id = $6), FALSE))",
            params![
                id,
                variant,
                *created_ms,
                seat_text(&seats[0]),
                seat_text(&seats[1]),
                rematch_of.as_ref(),
                *public
            ],
        ),
        Change::Seat {
            game,
            color,
            token_hash,
            invite,
        } => one(
            "INSERT INTO seats (game_id, color, token_sha256, invite) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game_id, color) DO UPDATE
             SET token_sha256 = excluded.token_sha256, invite = excluded.invite",
            params![game, color.name(), token_hash.as_ref(), invite.as_ref()],
        ),
        Change::Event {
            game,
            event,
            hidden,
        } => {
            let body = serde_json::to_string(&event.body)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let hidden = hidden.as_ref();
            one(
                "INSERT INTO events (game_id, seq, at_ms, kind, body_json,
                                     hidden_turn, hidden_color, hidden_move, hidden_nonce)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                params![
                    game,
                    event.seq as i64,
                    event.at,
                    event.body.kind(),
                    body,
                    hidden.map(|h| h.turn),
                    hidden.map(|h| h.color.name()),
                    hidden.map(|h| &h.mv),
                    hidden.map(|h| &h.nonce)
                ],
            )
        }
        Change::Summary { game, summary } => {
            let mut statements = vec![Statement::new(
                "UPDATE games SET status = $2, result = $3, reason = $4, turn = $5 WHERE id = $1",
                params![
                    game,
                    summary.status.name(),
                    summary.result.as_ref(),
                    summary.reason.map(|r| r.name()),
                    summary.turn
                ],
            )];
            // A rated game that both sides moved in is rated once it is
            // over (`crate::accounts::glicko`); a replayed summary of a
            // game already rated marks nothing.
            if summary.status == Status::Finished && summary.result.is_some() && summary.both_moved {
                statements.push(Statement::new(
                    "INSERT INTO ratings_due (game_id) SELECT id FROM games
                     WHERE id = $1 AND rated = TRUE
                       AND NOT EXISTS (SELECT 1 FROM rating_history WHERE game_id = $1)
                     ON CONFLICT DO NOTHING",
                    params![game],
                ));
            }
            Ok(statements)
        }
        Change::Player {
            game,
            color,
            user_id,
            rating,
            provisional,
        } => one(
            "INSERT INTO players (game_id, color, user_id, rating, provisional) VALUES ($1, $2, $3, $4, $5)",
            params![game, color.name(), user_id, *rating, *provisional],
        ),
        Change::Rated { game } => one("UPDATE games SET rated = TRUE WHERE id = $1", params![game]),
        Change::Chat { game, line } => one(
            "INSERT INTO chat (game_id, at_ms, author, room, text) VALUES ($1, $2, $3, $4, $5)",
            params![game, line.at_ms, &line.author, &line.room, &line.text],
        ),
        Change::Heartbeat { at_ms } => one(
            "INSERT INTO heartbeat (id, at_ms) VALUES (1, $1)
             ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms",
            params![*at_ms],
        ),
        Change::Downtime(d) => one(
            "INSERT INTO downtimes (from_ms, to_ms) VALUES ($1, $2)",
            params![d.from_ms, d.to_ms],
        ),
        // The first analysis of a game stays: two nodes may finish one each.
        Change::Analysis { game, at_ms, body } => one(
            "INSERT INTO analyses (game_id, at_ms, body) VALUES ($1, $2, $3)
             ON CONFLICT (game_id) DO NOTHING",
            params![game, *at_ms, body],
        ),
        Change::ServerKey { name, value } => one(
            "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            params![name, value],
        ),
        Change::Account(_) | Change::Lobby(_) | Change::Tournament(_) => Ok(Vec::new()),
    }
}

/// An event from the columns `seq, at_ms, body_json`.
pub(super) fn event_of(game: &str, r: &Row) -> Result<Event, StoreError> {
    let seq = r.int(0)?;
    let body: EventBody = serde_json::from_str(&r.text(2)?)
        .map_err(|e| StoreError::Corrupt(format!("game {game} event {seq}: {e}")))?;
    Ok(Event {
        body,
        seq: seq as u64,
        at: r.int(1)?,
    })
}

/// A span from the columns `from_ms, to_ms`.
pub(super) fn downtime_of(r: &Row) -> Result<Downtime, StoreError> {
    Ok(Downtime {
        from_ms: r.int(0)?,
        to_ms: r.int(1)?,
    })
}

fn ids(rows: Vec<Row>) -> Result<Vec<String>, StoreError> {
    rows.iter().map(|r| r.text(0)).collect()
}

impl Store {
    /// Everything stored about a game, or none if there is no such game.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let s = &self.reader;
        let rows = s
            .query(
                "SELECT seq, at_ms, body_json, hidden_turn, hidden_color, hidden_move, hidden_nonce
                 FROM events WHERE game_id = $1 ORDER BY seq",
                &params![id],
            )
            .await?;
        let mut events = Vec::with_capacity(rows.len());
        let mut hidden = Vec::new();
        for r in &rows {
            events.push(event_of(id, r)?);
            if let (Some(mv), Some(nonce)) = (r.maybe_text(5)?, r.maybe_text(6)?) {
                hidden.push(Hidden {
                    turn: r.count(3)?,
                    color: color_of(&r.text(4)?)?,
                    mv,
                    nonce,
                });
            }
        }
        if events.is_empty() {
            return Ok(None);
        }
        let mut seats = [SeatRow::default(), SeatRow::default()];
        for r in s
            .query(
                "SELECT color, token_sha256, invite FROM seats WHERE game_id = $1",
                &params![id],
            )
            .await?
        {
            seats[color_of(&r.text(0)?)?.index()] = SeatRow {
                token_hash: r.maybe_text(1)?,
                invite: r.maybe_text(2)?,
            };
        }
        // Written before `HIDDEN_IN_EVENTS`.
        for r in s
            .query(
                "SELECT turn, color, move, nonce FROM hidden_moves WHERE game_id = $1",
                &params![id],
            )
            .await?
        {
            hidden.push(Hidden {
                turn: r.count(0)?,
                color: color_of(&r.text(1)?)?,
                mv: r.text(2)?,
                nonce: r.text(3)?,
            });
        }
        Ok(Some(StoredGame {
            events,
            seats,
            hidden,
        }))
    }

    /// Ids of the games that are not finished, oldest first.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        ids(self
            .reader
            .query(
                "SELECT id FROM games WHERE status <> 'finished' ORDER BY created_ms",
                &[],
            )
            .await?)
    }

    /// Ids of the games still waiting for their friend that were created
    /// before `created_ms`.
    pub async fn waiting_since_before(&self, created_ms: i64) -> Result<Vec<String>, StoreError> {
        ids(self
            .reader
            .query(
                "SELECT id FROM games WHERE status = 'waiting' AND created_ms < $1 ORDER BY created_ms",
                &params![created_ms],
            )
            .await?)
    }

    /// The newest public games, live (waiting or started) or finished.
    pub async fn list(&self, finished: bool, limit: u32) -> Result<Vec<Listing>, StoreError> {
        let sql = if finished {
            "SELECT id, variant, white, black, status, result, turn FROM games
             WHERE status = 'finished' AND public ORDER BY created_ms DESC LIMIT $1"
        } else {
            "SELECT id, variant, white, black, status, result, turn FROM games
             WHERE status <> 'finished' AND public ORDER BY created_ms DESC LIMIT $1"
        };
        let rows = self.reader.query(sql, &params![limit]).await?;
        rows.iter()
            .map(|r| {
                let id = r.text(0)?;
                let seat = |text: String| {
                    serde_json::from_str::<Seat>(&text)
                        .map_err(|e| StoreError::Corrupt(format!("game {id} seat: {e}")))
                };
                Ok(Listing {
                    variant: r.text(1)?,
                    white: seat(r.text(2)?)?,
                    black: seat(r.text(3)?)?,
                    status: r.text(4)?,
                    result: r.maybe_text(5)?,
                    turn: r.count(6)?,
                    id,
                })
            })
            .collect()
    }

    /// Asks the database a trivial query (`/ready`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.reader.query("SELECT 1", &[]).await.map(drop)
    }

    /// When the server was last known alive: its last heartbeat, or for a
    /// database without one its last event; none for an empty database.
    pub async fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        let s = &self.reader;
        match s
            .query_opt("SELECT at_ms FROM heartbeat WHERE id = 1", &[])
            .await?
        {
            Some(beat) => Ok(Some(beat.int(0)?)),
            None => match s.query_opt("SELECT MAX(at_ms) FROM events", &[]).await? {
                Some(last) => last.maybe_int(0),
                None => Ok(None),
            },
        }
    }

    /// Every span the server was down, oldest first.
    pub async fn downtimes(&self) -> Result<Vec<Downtime>, StoreError> {
        let rows = self
            .reader
            .query("SELECT from_ms, to_ms FROM downtimes ORDER BY from_ms", &[])
            .await?;
        rows.iter().map(downtime_of).collect()
    }

    /// Whether some seat of some game has this token hash.
    pub async fn token_known(&self, token_hash: &str) -> Result<bool, StoreError> {
        Ok(self
            .reader
            .query_opt(
                "SELECT 1 FROM seats WHERE token_sha256 = $1 LIMIT 1",
                &params![token_hash],
            )
            .await?
            .is_some())
    }

    /// The accounts that hold a game's seats, and whether it is rated.
    pub async fn players(&self, game: &str) -> Result<GamePlayers, StoreError> {
        let s = &self.reader;
        let (rated, created_ms) = match s
            .query_opt(
                "SELECT rated, created_ms FROM games WHERE id = $1",
                &params![game],
            )
            .await?
        {
            Some(r) => (r.flag(0)?, r.int(1)?),
            None => (false, 0),
        };
        let mut players = GamePlayers {
            rated,
            created_ms,
            ..GamePlayers::default()
        };
        const PLAYERS: &str = concat!(
            "SELECT ",
            user_columns!("users"),
            ", players.rating, players.provisional, players.color, rating_history.rating,
                 (SELECT earlier.rating FROM rating_history earlier
                  WHERE earlier.user_id = rating_history.user_id
                      AND earlier.variant = rating_history.variant
                      AND earlier.at_ms < rating_history.at_ms
                  ORDER BY earlier.at_ms DESC LIMIT 1)
             FROM players JOIN users ON users.id = players.user_id
             LEFT JOIN rating_history ON rating_history.user_id = players.user_id
                 AND rating_history.game_id = players.game_id
             WHERE players.game_id = $1"
        );
        for r in s.query(PLAYERS, &params![game]).await? {
            let rating = r.maybe_int(5)?;
            // This game's own change: against the rating the player had
            // after their previous rated game (another may have ended
            // since this one began), else the rating shown at its start.
            let after = r.maybe_real(8)?.map(f64::round);
            let before = r
                .maybe_real(9)?
                .map(f64::round)
                .or(rating.map(|r| r as f64));
            let row = PlayerRow {
                user: user_row(&r, 0)?,
                rating,
                provisional: r.flag(6)?,
                rating_diff: after
                    .zip(before)
                    .map(|(after, before)| (after - before) as i64),
            };
            match color_of(&r.text(7)?)? {
                Color::White => players.white = Some(row),
                Color::Black => players.black = Some(row),
            }
        }
        Ok(players)
    }

    /// An account's games, newest first: the unfinished ones or all;
    /// `before` (created_ms, id) starts after that game (the next page).
    pub async fn user_games(
        &self,
        user_id: &str,
        unfinished_only: bool,
        limit: u32,
        before: Option<(i64, String)>,
    ) -> Result<Vec<UserGame>, StoreError> {
        let (before_ms, before_id) = before.unzip();
        let rows = self
            .reader
            .query(
                "SELECT games.id, games.variant, players.color, games.created_ms, games.status,
                        games.result, games.rated,
                        (SELECT users.name FROM players AS o JOIN users ON users.id = o.user_id
                         WHERE o.game_id = games.id AND o.color <> players.color)
                 FROM players JOIN games ON games.id = players.game_id
                 WHERE players.user_id = $1 AND (NOT $2 OR games.status <> 'finished')
                   AND (CAST($3 AS BIGINT) IS NULL
                        OR (games.created_ms, games.id) < (CAST($3 AS BIGINT), CAST($4 AS TEXT)))
                 ORDER BY games.created_ms DESC, games.id DESC LIMIT $5",
                &params![user_id, unfinished_only, before_ms, before_id, limit],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(UserGame {
                    id: r.text(0)?,
                    variant: r.text(1)?,
                    color: color_of(&r.text(2)?)?,
                    created_ms: r.int(3)?,
                    status: r.text(4)?,
                    result: r.maybe_text(5)?,
                    rated: r.flag(6)?,
                    opponent: r.maybe_text(7)?,
                })
            })
            .collect()
    }

    /// A game's computer analysis (JSON), if one was made.
    pub async fn analysis(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .reader
            .query_opt(
                "SELECT body FROM analyses WHERE game_id = $1",
                &params![game],
            )
            .await?;
        row.map(|r| r.text(0)).transpose()
    }

    /// A game's chat, oldest first.
    pub async fn chat(&self, game: &str) -> Result<Vec<ChatLine>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT at_ms, author, room, text FROM chat WHERE game_id = $1 ORDER BY id",
                &params![game],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatLine {
                    at_ms: r.int(0)?,
                    author: r.text(1)?,
                    room: r.text(2)?,
                    text: r.text(3)?,
                })
            })
            .collect()
    }

    /// Rated games between accounts `a` and `b` made at `since_ms` or later.
    pub async fn rated_games_between(
        &self,
        a: &str,
        b: &str,
        since_ms: i64,
    ) -> Result<u32, StoreError> {
        let row = self
            .reader
            .query_opt(
                "SELECT COUNT(*) FROM games
                 JOIN players AS one ON one.game_id = games.id
                 JOIN players AS other ON other.game_id = games.id
                 WHERE one.user_id = $1 AND other.user_id = $2 AND games.rated
                   AND games.created_ms >= $3 AND one.color <> other.color",
                &params![a, b, since_ms],
            )
            .await?;
        match row {
            Some(r) => Ok(u32::try_from(r.int(0)?).unwrap_or(u32::MAX)),
            None => Ok(0),
        }
    }
}
