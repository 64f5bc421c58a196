//! Lichess's JSON shapes made from ours: `gameFull` and the cumulative
//! `gameState` of the Board and Bot API, the games of `/api/stream/event`
//! and `/api/account/playing`, challenges. Pure functions over our game
//! view and event lines, so that they are tested without a server.

use parity_rules::variant::Family;
use parity_rules::{Color, Reason};
use serde_json::{json, Value};

use crate::game::event::{now_ms, Clocks, Event, EventBody, Seat};
use crate::game::review::{Review, ReviewBody};
use crate::game::state::{variant_key, GameFull, MoveEntry, Status};
use crate::hub::lobby::Challenge;
use crate::store::{GamePlayers, PlayerRow, UserRow};

/// Lichess's "no clock": `Int.MaxValue` milliseconds.
pub const NO_CLOCK_MS: i64 = 2_147_483_647;

/// `{key, name, short}` of a variant.
pub fn variant_json(id: &str, name: &str) -> Value {
    let (name, short) = match id {
        "chess" => ("Standard", "Std".to_string()),
        _ => (name, name.chars().take(4).collect()),
    };
    json!({"key": variant_key(id), "name": name, "short": short})
}

/// Lichess's speed of a clock (seconds): by the time of a 40-move game.
pub fn speed(clock: Option<(u64, u64)>, days: Option<u32>) -> &'static str {
    match (clock, days) {
        (Some((initial, increment)), _) => match initial + 40 * increment {
            t if t < 30 => "ultraBullet",
            t if t < 180 => "bullet",
            t if t < 480 => "blitz",
            t if t < 1500 => "rapid",
            _ => "classical",
        },
        _ => "correspondence",
    }
}

/// The perf's name lichess shows for a speed.
pub fn perf_name(speed: &str) -> String {
    let mut chars = speed.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Lichess's status word and id for our status and ending.
pub fn status(status: Status, reason: Option<Reason>) -> (&'static str, u32) {
    match (status, reason) {
        (Status::Waiting, _) => ("created", 10),
        (Status::Started, _) => ("started", 20),
        (_, Some(Reason::Abort)) => ("aborted", 25),
        (_, Some(Reason::Checkmate)) => ("mate", 30),
        (_, Some(Reason::Resignation)) => ("resign", 31),
        (_, Some(Reason::Stalemate)) => ("stalemate", 32),
        (_, Some(Reason::NoReveal)) => ("timeout", 33),
        (
            _,
            Some(
                Reason::Agreement
                | Reason::Repetition
                | Reason::FiftyMoves
                | Reason::InsufficientMaterial,
            ),
        ) => ("draw", 34),
        (_, Some(Reason::Time)) => ("outoftime", 35),
        // Our variants' own endings: no legal move, both checkmated, kings together.
        _ => ("variantEnd", 60),
    }
}

/// The winner's colour of a result, if any.
pub fn winner(result: Option<&str>) -> Option<&'static str> {
    match result {
        Some("1-0") => Some("white"),
        Some("0-1") => Some("black"),
        _ => None,
    }
}

/// A player of `gameFull`: an account, our engine (`aiLevel`), or an
/// anonymous seat (`name` only).
pub fn player_json(seat: Seat, player: Option<&PlayerRow>) -> Value {
    match (player, seat) {
        (Some(p), _) => {
            let mut value = json!({
                "id": p.user.id,
                "name": p.user.name,
                "title": if p.user.bot { json!("BOT") } else { Value::Null },
            });
            if let Some(rating) = p.rating {
                value["rating"] = json!(rating);
            }
            if p.provisional {
                value["provisional"] = json!(true);
            }
            value
        }
        (None, Seat::Engine { level }) => json!({"aiLevel": level}),
        (None, Seat::Human) => json!({"name": "Anonymous"}),
    }
}

/// A lichess view of one game, kept up to date from our event lines:
/// what `gameState` says after each.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    pub id: String,
    pub variant: String,
    variant_name: String,
    simultaneous: bool,
    /// Seconds, as our API writes them.
    pub clock: Option<(u64, u64)>,
    days: Option<u32>,
    pub initial_fen: Option<String>,
    pub fen: String,
    moves: Vec<String>,
    wtime: i64,
    btime: i64,
    status: Status,
    reason: Option<Reason>,
    result: Option<String>,
    draw: [bool; 2],
    committed: [bool; 2],
    pub turn: u64,
    /// When the last move or turn was played (ms since the Unix epoch).
    pub last_move_at: Option<i64>,
}

impl GameView {
    /// From our `gameFull` (`GET /api/games/{id}`).
    pub fn new(full: &GameFull) -> GameView {
        let clock = full
            .clock
            .map(|c| (u64::from(c.initial), u64::from(c.increment)));
        let moves = full
            .moves
            .iter()
            .flat_map(MoveEntry::moves)
            .map(|(uci, _)| uci.to_string())
            .collect();
        let mut view = GameView {
            id: full.id.clone(),
            variant: full.variant.id.clone(),
            variant_name: full.variant.name.clone(),
            simultaneous: full.variant.family == Family::Simultaneous,
            clock,
            days: full.days,
            initial_fen: full.initial_fen.clone(),
            fen: full.fen.clone(),
            moves,
            wtime: NO_CLOCK_MS,
            btime: NO_CLOCK_MS,
            status: full.status,
            reason: full.reason,
            result: full.result.clone(),
            draw: [false; 2],
            committed: full
                .committed
                .as_ref()
                .map_or([false; 2], |c| [c.white, c.black]),
            turn: u64::from(full.turn),
            last_move_at: full.last_move_at,
        };
        if let Some((initial, _)) = clock {
            view.wtime = initial as i64 * 1000;
            view.btime = initial as i64 * 1000;
        }
        view.set_clocks(&full.clocks);
        if let Some(side) = full.draw_offer {
            view.draw[side.color().index()] = true;
        }
        view
    }

    fn set_clocks(&mut self, clocks: &Option<Clocks>) {
        if let Some(c) = clocks {
            self.wtime = c.white_ms.max(0);
            self.btime = c.black_ms.max(0);
        }
    }

    /// Takes one of our events; true when `gameState` changed.
    pub fn apply(&mut self, event: &Event) -> bool {
        match &event.body {
            EventBody::Started { clocks, .. } => {
                self.status = Status::Started;
                self.set_clocks(clocks);
            }
            EventBody::Move {
                uci, fen, clocks, ..
            } => {
                self.moves.push(uci.clone());
                self.fen = fen.clone();
                self.draw = [false; 2];
                self.last_move_at = Some(event.at);
                self.set_clocks(clocks);
            }
            EventBody::Turn {
                white,
                black,
                fen,
                clocks,
                ..
            } => {
                self.moves.push(white.uci.clone());
                self.moves.push(black.uci.clone());
                self.fen = fen.clone();
                self.draw = [false; 2];
                self.committed = [false; 2];
                self.turn += 1;
                self.last_move_at = Some(event.at);
                self.set_clocks(clocks);
            }
            EventBody::Committed { color, clocks, .. } => {
                self.committed[color.color().index()] = true;
                self.set_clocks(clocks);
            }
            EventBody::Berserk { clocks, .. } => self.set_clocks(clocks),
            EventBody::DrawOffer { color } => self.draw[color.color().index()] = true,
            EventBody::DrawDeclined { .. } => self.draw = [false; 2],
            EventBody::Finished {
                result,
                reason,
                clocks,
                ..
            } => {
                self.status = Status::Finished;
                self.result = Some(result.clone());
                self.reason = Some(*reason);
                self.draw = [false; 2];
                self.set_clocks(clocks);
            }
            _ => return false,
        }
        true
    }

    pub fn finished(&self) -> bool {
        self.status == Status::Finished
    }

    pub fn status_word(&self) -> (&'static str, u32) {
        status(self.status, self.reason)
    }

    pub fn winner(&self) -> Option<&'static str> {
        winner(self.result.as_deref())
    }

    pub fn speed(&self) -> &'static str {
        speed(self.clock, self.days)
    }

    /// Lichess's `gameState`. In a simultaneous variant `moves` holds both
    /// moves of each turn, white's first, and `turn` and `committed` say
    /// who has committed this turn (docs/protocol.md).
    pub fn state_json(&self) -> Value {
        let (inc_w, inc_b) = match self.clock {
            Some((_, increment)) => (increment * 1000, increment * 1000),
            None => (0, 0),
        };
        let mut state = json!({
            "type": "gameState",
            "moves": self.moves.join(" "),
            "wtime": self.wtime,
            "btime": self.btime,
            "winc": inc_w,
            "binc": inc_b,
            "status": self.status_word().0,
            "wdraw": self.draw[0],
            "bdraw": self.draw[1],
            "wtakeback": false,
            "btakeback": false,
        });
        if let Some(winner) = self.winner() {
            state["winner"] = json!(winner);
        }
        if self.simultaneous {
            state["turn"] = json!(self.turn);
            state["committed"] = json!({"white": self.committed[0], "black": self.committed[1]});
        }
        state
    }

    /// `{key, name, short}` of the game's variant.
    pub fn variant_json(&self) -> Value {
        variant_json(&self.variant, &self.variant_name)
    }

    /// Lichess's `gameFull`.
    pub fn full_json(&self, full: &GameFull, players: &GamePlayers) -> Value {
        let speed = self.speed();
        let mut value = json!({
            "type": "gameFull",
            "id": self.id,
            "variant": self.variant_json(),
            "speed": speed,
            "perf": {"name": perf_name(speed)},
            "rated": players.rated,
            "createdAt": players.created_ms,
            "white": player_json(full.white.seat, players.white.as_ref()),
            "black": player_json(full.black.seat, players.black.as_ref()),
            "initialFen": self.initial_fen.as_deref().unwrap_or("startpos"),
            "state": self.state_json(),
        });
        if let Some((initial, increment)) = self.clock {
            value["clock"] = json!({"initial": initial * 1000, "increment": increment * 1000});
        }
        if let Some(days) = self.days {
            value["daysPerTurn"] = json!(days);
        }
        value
    }

    /// The seconds `color` has left: its clock, or in a correspondence game
    /// what is left of its days for this move (all of them while it waits).
    fn seconds_left(
        &self,
        color: Color,
        my_turn: bool,
        created_ms: i64,
        now_ms: i64,
    ) -> Option<i64> {
        if self.clock.is_some() {
            return Some(
                if color == Color::White {
                    self.wtime
                } else {
                    self.btime
                } / 1000,
            );
        }
        let days = i64::from(self.days?);
        let allowed = days * 86_400;
        if !my_turn || self.finished() {
            return Some(allowed);
        }
        let since = self.last_move_at.unwrap_or(created_ms);
        Some((allowed - (now_ms - since).max(0) / 1000).max(0))
    }

    /// The side to move in a turn-based game, from the FEN.
    fn to_move(&self) -> Option<Color> {
        match self.fen.split_whitespace().nth(1) {
            Some("w") => Some(Color::White),
            Some("b") => Some(Color::Black),
            _ => None,
        }
    }

    /// A game as `gameStart`/`gameFinish` and `nowPlaying` show it to the
    /// player of `color`.
    pub fn event_game(&self, full: &GameFull, players: &GamePlayers, color: Color) -> Value {
        let (me, other, other_seat) = match color {
            Color::White => (
                players.white.as_ref(),
                players.black.as_ref(),
                full.black.seat,
            ),
            Color::Black => (
                players.black.as_ref(),
                players.white.as_ref(),
                full.white.seat,
            ),
        };
        let opponent = match (other, other_seat) {
            (Some(p), _) => {
                let mut o = json!({"id": p.user.id, "username": p.user.name});
                if let Some(rating) = p.rating {
                    o["rating"] = json!(rating);
                }
                o
            }
            (None, Seat::Engine { level }) => json!({
                "id": Value::Null,
                "username": format!("Parity engine level {level}"),
                "ai": level,
            }),
            (None, Seat::Human) => json!({"id": Value::Null, "username": "Anonymous"}),
        };
        let (word, id) = self.status_word();
        let my_turn = !self.finished()
            && match self.simultaneous {
                true => !self.committed[color.index()],
                false => self.to_move() == Some(color),
            };
        let speed = self.speed();
        let mut game = json!({
            "id": self.id,
            "gameId": self.id,
            "fullId": self.id,
            "color": color.name(),
            "fen": self.fen,
            "lastMove": self.moves.last().cloned().unwrap_or_default(),
            "source": if matches!(other_seat, Seat::Engine { .. }) { "ai" } else { "friend" },
            "status": {"id": id, "name": word},
            "variant": {"key": variant_key(&self.variant), "name": self.variant_json()["name"]},
            "speed": speed,
            "perf": speed,
            "rated": players.rated,
            "hasMoved": self.moves.len() > color.index(),
            "opponent": opponent,
            "isMyTurn": my_turn,
            "compat": {"bot": true, "board": true},
        });
        if let Some(left) = self.seconds_left(color, my_turn, players.created_ms, now_ms()) {
            game["secondsLeft"] = json!(left);
        }
        if let Some(rating) = me.and_then(|p| p.rating) {
            game["rating"] = json!(rating);
        }
        if self.finished() {
            if let Some(winner) = self.winner() {
                game["winner"] = json!(winner);
            }
        }
        game
    }
}

/// A challenger or a challenged account as a challenge shows it.
fn challenge_user(user: &UserRow, (rating, provisional): (i64, bool)) -> Value {
    json!({
        "id": user.id,
        "name": user.name,
        "title": if user.bot { json!("BOT") } else { Value::Null },
        "rating": rating,
        "provisional": provisional,
        "online": true,
    })
}

/// Lichess's challenge JSON; `status` is `created`, `accepted`,
/// `declined` or `canceled`; `direction` is as seen by `viewer`.
pub fn challenge_json(
    c: &Challenge,
    variant_name: &str,
    origin: Option<&str>,
    status: &str,
    viewer: Option<&str>,
) -> Value {
    let clock = c
        .terms
        .clock
        .map(|k| (u64::from(k.initial), u64::from(k.increment)));
    let speed = speed(clock, c.terms.days);
    let time_control = match (c.terms.clock, c.terms.days) {
        (Some(k), _) => json!({
            "type": "clock",
            "limit": k.initial,
            "increment": k.increment,
            "show": format!("{}+{}", clock_show(k.initial), k.increment),
        }),
        (None, Some(days)) => json!({"type": "correspondence", "daysPerTurn": days}),
        (None, None) => json!({"type": "unlimited"}),
    };
    let color = match c.terms.color {
        crate::hub::new_game::ColorChoice::White => "white",
        crate::hub::new_game::ColorChoice::Black => "black",
        crate::hub::new_game::ColorChoice::Random => "random",
    };
    let mut value = json!({
        "id": c.id,
        "url": format!("{}/game/{}", origin.unwrap_or(""), c.id),
        "status": status,
        "challenger": challenge_user(&c.challenger, c.challenger_rating),
        "destUser": challenge_user(&c.dest, c.dest_rating),
        "variant": variant_json(&c.terms.variant, variant_name),
        "rated": c.terms.rated,
        "speed": speed,
        "timeControl": time_control,
        "color": color,
        "finalColor": if color == "black" { "black" } else { "white" },
        "perf": {"icon": "", "name": perf_name(speed)},
    });
    if let Some(viewer) = viewer {
        value["direction"] = json!(if c.challenger.id == viewer {
            "out"
        } else {
            "in"
        });
    }
    if let Some(fen) = &c.terms.fen {
        value["initialFen"] = json!(fen);
    }
    value
}

/// A clock's minutes as lichess shows them: `3`, `½`, `¼`.
fn clock_show(seconds: u32) -> String {
    match seconds {
        15 => "¼".into(),
        30 => "½".into(),
        45 => "¾".into(),
        s if s % 60 == 0 => (s / 60).to_string(),
        s => format!("{:.1}", f64::from(s) / 60.0),
    }
}

/// Adds a computer analysis to a game's export in lichess's shapes: the
/// `analysis` array (one entry per move: the evaluation after it, and on a
/// judged move the best move, its line and the judgment) and each player's
/// `analysis` summary. Simultaneous games' reviews have no lichess shape and
/// are served by `GET /api/games/{id}/analysis` only.
pub fn add_analysis(game: &mut Value, review: &Review) {
    let ReviewBody::TurnBased {
        positions,
        moves,
        white,
        black,
    } = &review.body
    else {
        return;
    };
    let entries: Vec<Value> = moves
        .iter()
        .map(|m| {
            let (before, after) = (&positions[m.ply - 1], &positions[m.ply]);
            let mut entry = json!({});
            if let Some(cp) = after.cp {
                entry["eval"] = json!(cp);
            } else if let Some(mate) = after.mate {
                entry["mate"] = json!(mate);
            }
            if let Some(judgment) = m.judgment {
                if let Some(best) = &before.best {
                    entry["best"] = json!(best);
                    entry["variation"] = json!(before.line.join(" "));
                }
                entry["judgment"] = json!({
                    "name": judgment.name(),
                    "comment": m.comment(before.best_san.as_deref()),
                });
            }
            entry
        })
        .collect();
    game["analysis"] = json!(entries);
    for (color, player) in [("white", white), ("black", black)] {
        let mut summary = json!({
            "inaccuracy": player.inaccuracy,
            "mistake": player.mistake,
            "blunder": player.blunder,
            "acpl": player.acpl,
        });
        if let Some(accuracy) = player.accuracy {
            summary["accuracy"] = json!(accuracy.round() as i64);
        }
        game["players"][color]["analysis"] = summary;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::variant_id;

    /// One of our events, from its JSON (seq 5, at 5,000,000 ms unless given).
    fn event(mut value: Value) -> Event {
        value["seq"] = value.get("seq").cloned().unwrap_or(json!(5));
        value["at"] = value.get("at").cloned().unwrap_or(json!(5_000_000));
        serde_json::from_value(value).expect("an event")
    }

    fn notes() -> Value {
        json!({"captured": null, "failed_capture": false, "swap": false, "co_occupied": null,
            "promotion": null, "en_passant": false, "castled": false, "check": null,
            "failed_check": false, "text": ""})
    }

    fn revealed(uci: &str) -> Value {
        json!({"uci": uci, "san": uci, "nonce": "n", "commitment": "c"})
    }

    /// Our `gameFull` as the wire carries it.
    fn full_value() -> Value {
        json!({
            "type": "gameFull", "id": "abcdefghij", "seq": 4,
            "variant": {"id": "chess", "name": "Chess", "description": "", "family": "turn-based",
                "files": 8, "ranks": 8, "pieces": []},
            "board": [], "legal": {"white": [], "black": []},
            "clock": {"initial": 180, "increment": 2},
            "white": {"kind": "human", "joined": true},
            "black": {"kind": "engine", "level": 3},
            "status": "started", "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "turn": 1,
            "moves": [{"color": "white", "uci": "e2e4", "san": "e4"}],
            "clocks": {"white_ms": 178000, "black_ms": 180000, "running": ["black"]},
        })
    }

    fn typed(value: Value) -> GameFull {
        serde_json::from_value(value).expect("a gameFull")
    }

    fn full() -> GameFull {
        typed(full_value())
    }

    #[test]
    fn game_state_is_cumulative_in_milliseconds_with_lichess_status_words() {
        let mut view = GameView::new(&full());
        let state = view.state_json();
        assert_eq!(state["moves"], "e2e4");
        assert_eq!(state["wtime"], 178000);
        assert_eq!(state["winc"], 2000);
        assert_eq!(state["status"], "started");
        assert!(view.apply(&event(
            json!({"type": "move", "color": "black", "uci": "e7e5",
            "san": "e5", "fen": "x w - - 0 2",
            "clocks": {"white_ms": 178000, "black_ms": 175500, "running": ["white"]}})
        )));
        assert!(view.apply(&event(json!({"type": "draw_offer", "color": "white"}))));
        let state = view.state_json();
        assert_eq!(state["moves"], "e2e4 e7e5");
        assert_eq!(state["btime"], 175500);
        assert_eq!(state["wdraw"], true);
        assert!(!view.apply(&event(json!({"type": "rematch_offer", "color": "white"}))));
        assert!(
            view.apply(&event(json!({"type": "finished", "result": "0-1",
            "reason": "resignation", "by": "white", "clocks": null})))
        );
        let state = view.state_json();
        assert_eq!(state["status"], "resign");
        assert_eq!(state["winner"], "black");
        assert_eq!(state["wdraw"], false);
        assert!(view.finished());
    }

    #[test]
    fn game_full_names_players_and_the_engine_and_converts_the_clock() {
        let view = GameView::new(&full());
        let user = UserRow {
            id: "bob".into(),
            name: "Bob".into(),
            password_hash: None,
            bot: true,
            created_ms: 1,
        };
        let players = GamePlayers {
            rated: false,
            created_ms: 1_700_000_000_000,
            white: Some(PlayerRow {
                user,
                rating: Some(1500),
                provisional: true,
                rating_diff: None,
            }),
            black: None,
        };
        let g = view.full_json(&full(), &players);
        assert_eq!(g["clock"], json!({"initial": 180000, "increment": 2000}));
        assert_eq!(g["variant"]["key"], "standard");
        assert_eq!(g["speed"], "blitz");
        assert_eq!(g["createdAt"], 1_700_000_000_000i64);
        assert_eq!(g["white"]["name"], "Bob");
        assert_eq!(g["white"]["title"], "BOT");
        assert_eq!(g["black"], json!({"aiLevel": 3}));
        assert_eq!(g["initialFen"], "startpos");
        assert_eq!(g["state"]["type"], "gameState");
        let event = view.event_game(&full(), &players, Color::White);
        assert_eq!(event["isMyTurn"], false, "black is to move");
        assert_eq!(event["opponent"]["ai"], 3);
        assert_eq!(event["secondsLeft"], 178);
    }

    #[test]
    fn a_correspondence_move_counts_its_days_from_the_last_move() {
        let mut f = full_value();
        f["clock"] = Value::Null;
        f["clocks"] = Value::Null;
        f["days"] = json!(2);
        f["last_move_at"] = json!(1_000_000);
        let mut view = GameView::new(&typed(f));
        let day = 86_400;
        // Black to move since the last move, an hour ago: two days less an hour.
        assert_eq!(
            view.seconds_left(Color::Black, true, 0, 1_000_000 + 3_600_000),
            Some(2 * day - 3_600)
        );
        assert_eq!(
            view.seconds_left(Color::White, false, 0, 1_000_000 + 3_600_000),
            Some(2 * day)
        );
        assert_eq!(
            view.seconds_left(Color::Black, true, 0, 1_000_000 + 3 * day * 1000),
            Some(0)
        );
        view.apply(&event(
            json!({"type": "move", "color": "black", "uci": "e7e5", "san": "e5",
            "fen": "x w - - 0 2", "clocks": null, "at": 5_000_000}),
        ));
        assert_eq!(view.last_move_at, Some(5_000_000));
        assert_eq!(
            view.seconds_left(Color::White, true, 0, 5_000_000),
            Some(2 * day)
        );
    }

    #[test]
    fn simultaneous_turns_list_both_moves_and_show_commitments() {
        let mut f = full_value();
        f["variant"]["family"] = json!("simultaneous");
        f["moves"] = json!([{"white": {"uci": "e2e4", "san": "e4"}, "black": {"uci": "d7d5", "san": "d5"},
            "notes": {"white": notes(), "black": notes()}}]);
        f["turn"] = json!(2);
        let mut view = GameView::new(&typed(f));
        assert!(view.apply(&event(
            json!({"type": "committed", "color": "black", "turn": 2,
            "commitment": "c", "clocks": null})
        )));
        let state = view.state_json();
        assert_eq!(state["moves"], "e2e4 d7d5");
        assert_eq!(state["committed"], json!({"white": false, "black": true}));
        assert!(view.apply(&event(json!({"type": "turn", "turn": 2,
            "white": revealed("e4d5"), "black": revealed("d8d5"),
            "notes": {"white": notes(), "black": notes()}, "fen": "f", "clocks": null}))));
        let state = view.state_json();
        assert_eq!(state["moves"], "e2e4 d7d5 e4d5 d8d5");
        assert_eq!(state["turn"], 3);
        assert_eq!(state["committed"]["black"], false);
    }

    #[test]
    fn speeds_statuses_and_variant_keys() {
        assert_eq!(speed(Some((15, 0)), None), "ultraBullet");
        assert_eq!(speed(Some((60, 1)), None), "bullet");
        assert_eq!(speed(Some((300, 3)), None), "blitz");
        assert_eq!(speed(Some((600, 5)), None), "rapid");
        assert_eq!(speed(Some((1800, 20)), None), "classical");
        assert_eq!(speed(None, Some(3)), "correspondence");
        let finished = |reason| status(Status::Finished, Some(reason));
        assert_eq!(finished(Reason::Checkmate), ("mate", 30));
        assert_eq!(finished(Reason::Time), ("outoftime", 35));
        assert_eq!(finished(Reason::NoLegalMove), ("variantEnd", 60));
        assert_eq!(finished(Reason::Abort), ("aborted", 25));
        assert_eq!(status(Status::Waiting, None), ("created", 10));
        assert_eq!(variant_key("chess"), "standard");
        assert_eq!(variant_id("standard"), "chess");
        assert_eq!(variant_id("parity"), "parity");
        assert_eq!(perf_name("ultraBullet"), "UltraBullet");
        assert_eq!(clock_show(30), "½");
        assert_eq!(clock_show(180), "3");
    }
}
