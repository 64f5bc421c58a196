//! Tournaments and teams in lichess's API shapes, so berserk's
//! tournament and team clients work unchanged: arenas under
//! `/api/tournament`, Swiss events (and round robins, `system=robin`)
//! under `/api/swiss`, the FIDE report at `/swiss/{id}.trf`, teams under
//! `/api/team` and `/team`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use parity_rules::record::iso_datetime;
use serde_json::{json, Value};

use crate::base::refusal::{Refusal, Said};
use crate::game::event::now_ms;
use crate::http::auth::token_user;
use crate::http::edge::ClientIp;
use crate::hub::Hub;
use crate::lichess::fields;
use crate::store::tournaments::TeamRow;
use crate::store::UserRow;
use crate::tournament::settings::{Request, System};
use crate::tournament::standings::{in_play, open, standings, swiss_field, Standing};
use crate::tournament::{swiss, Tournament, Tournaments};

pub fn routes(tournaments: Arc<Tournaments>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/tournament", get(list).post(create_arena))
        .route("/api/tournament/{id}", get(tournament))
        .route("/api/tournament/{id}/{action}", post(player_action))
        .route("/api/tournament/terminate/{id}", post(terminate))
        .route("/api/tournament/{id}/results", get(results))
        .route("/api/board/game/{id}/berserk", post(berserk))
        .route("/api/tournament/{id}/games", get(games))
        .route("/api/swiss/new/{team}", post(create_swiss))
        .route("/api/swiss/{id}", get(tournament))
        .route("/api/swiss/{id}/{action}", post(player_action))
        .route(
            "/api/swiss/{id}/schedule-next-round",
            post(schedule_next_round),
        )
        .route("/api/swiss/{id}/results", get(results))
        .route("/api/swiss/{id}/games", get(games))
        .route("/swiss/{file}", get(trf))
        .route("/api/team", post(create_team))
        .route("/api/team/{id}", get(team))
        .route("/api/team/{id}/users", get(team_users))
        .route("/api/team/{id}/swiss", get(team_swiss))
        .route("/api/team/{id}/arena", get(team_arenas))
        .route("/api/team/of/{name}", get(teams_of))
        .route("/team/{id}/{action}", post(team_action))
        .route("/api/team/{id}/{action}", post(team_action))
        .layer(Extension(tournaments))
}

type Handle = Extension<Arc<Tournaments>>;

/// NDJSON of a finite list.
fn ndjson(lines: impl IntoIterator<Item = Value>) -> Response {
    let body: String = lines.into_iter().map(|v| format!("{v}\n")).collect();
    ([(CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

fn status_code(status: &str) -> u32 {
    match status {
        "created" => 10,
        "started" => 20,
        _ => 30,
    }
}

fn name_of(event: &Tournament, user_id: &str) -> String {
    event
        .entrants
        .iter()
        .find(|e| e.user.id == user_id)
        .map_or_else(|| user_id.to_string(), |e| e.user.name.clone())
}

/// A tournament as lichess's list and team endpoints give it.
fn summary(event: &Tournament) -> Value {
    let row = &event.row;
    let players = event.entrants.iter().filter(|e| !e.withdrawn).count();
    json!({
        "id": row.id,
        "system": row.system,
        "fullName": row.name,
        "name": row.name,
        "createdBy": row.creator,
        "variant": {"key": row.variant, "short": row.variant, "name": event.variant_name},
        "clock": {"limit": row.clock_limit, "increment": row.clock_increment},
        "rated": row.rated,
        "status": status_code(&row.status),
        "startsAt": iso_datetime(row.starts_ms),
        "nbPlayers": players,
        "teamId": row.team_id,
    })
}

/// One player of the standings, as lichess's arena `standing` and
/// results lines write them.
fn standing_json(event: &Tournament, s: &Standing) -> Value {
    let mut line = json!({
        "rank": s.rank,
        "username": s.user.name,
        "name": s.user.name,
        "rating": s.rating,
        "withdraw": s.withdrawn,
    });
    match event.system {
        System::Arena => {
            line["score"] = json!(s.score);
            line["sheet"] = json!({"scores": s.sheet, "fire": s.fire});
            line["nb"] = json!({"game": s.games, "win": s.wins, "berserk": s.berserks});
        }
        System::Swiss | System::RoundRobin => {
            line["points"] = json!(f64::from(s.score) / 2.0);
            line["tieBreak"] = json!(f64::from(s.sonneborn_berger) / 4.0);
            line["buchholz"] = json!(f64::from(s.buchholz) / 2.0);
            line["number"] = json!(s.number);
        }
    }
    if s.user.bot {
        line["title"] = json!("BOT");
    }
    line
}

/// The whole tournament: lichess's arena JSON, or its Swiss JSON.
fn full(event: &Tournament, now: i64) -> Value {
    let row = &event.row;
    let table = standings(event);
    let mut json = summary(event);
    let started = row.status != "created";
    let finished = row.status == "finished";
    json["isStarted"] = json!(started);
    json["isFinished"] = json!(finished);
    json["description"] = json!(event.settings.description);
    json["perf"] = json!({"key": row.variant, "name": event.variant_name});
    if !started {
        json["secondsToStart"] = json!(((row.starts_ms - now) / 1000).max(0));
    }
    json["standing"] = json!({
        "page": 1,
        "players": table.iter().map(|s| standing_json(event, s)).collect::<Vec<_>>(),
    });
    let playing: Vec<Value> = event
        .games
        .iter()
        .filter(|g| open(g))
        .map(|g| {
            let player = |id: &str| {
                let s = table.iter().find(|s| s.user.id == id);
                json!({"n": name_of(event, id), "r": s.map(|s| s.rating), "k": s.map(|s| s.rank)})
            };
            json!({"id": g.game_id, "p": [player(&g.white), player(&g.black)]})
        })
        .collect();
    json["duels"] = json!(playing);
    match event.system {
        System::Arena => {
            json["minutes"] = json!(event.settings.minutes);
            json["berserkable"] = json!(event.settings.berserkable);
            let ends = row.starts_ms + i64::from(event.settings.minutes) * 60_000;
            json["finishesAt"] = json!(iso_datetime(row.finished_ms.unwrap_or(ends)));
            if started && !finished {
                json["secondsToFinish"] = json!(((ends - now) / 1000).max(0));
            }
        }
        System::Swiss | System::RoundRobin => {
            let rounds = match event.system {
                System::RoundRobin => {
                    let n = event.entrants.len();
                    (n + n % 2).saturating_sub(1) as u32
                }
                _ => event.settings.nb_rounds,
            };
            json["round"] = json!(row.round);
            json["nbRounds"] = json!(rounds);
            json["nbOngoing"] = json!(event.games.iter().filter(|g| in_play(g)).count());
            json["status"] = json!(row.status);
            if let Some(at) = row.next_round_ms.filter(|_| !finished) {
                json["nextRound"] =
                    json!({"at": iso_datetime(at), "in": ((at - now) / 1000).max(0)});
            }
            json["pairings"] = json!((1..=row.round)
                .map(|round| {
                    let boards: Vec<Value> = event
                        .games
                        .iter()
                        .filter(|g| g.round == round)
                        .map(|g| {
                            json!({
                                "id": g.game_id,
                                "white": name_of(event, &g.white),
                                "black": name_of(event, &g.black),
                                "result": g.result,
                            })
                        })
                        .collect();
                    let byes: Vec<String> = event
                        .byes
                        .iter()
                        .filter(|b| b.round == round)
                        .map(|b| name_of(event, &b.user_id))
                        .collect();
                    json!({"round": round, "boards": boards, "byes": byes})
                })
                .collect::<Vec<_>>());
        }
    }
    if finished {
        json["podium"] = json!(table
            .iter()
            .take(3)
            .map(|s| standing_json(event, s))
            .collect::<Vec<_>>());
        if let Some(first) = table.first() {
            json["winner"] = json!({"id": first.user.id, "name": first.user.name});
        }
    }
    json
}

async fn list(State(hub): State<Arc<Hub>>, Extension(t): Handle) -> Result<Json<Value>, Refusal> {
    let mut created = Vec::new();
    let mut started = Vec::new();
    for row in hub.store().unfinished_tournaments().await? {
        let event = t.event(&row.id).await?;
        match row.status.as_str() {
            "created" => created.push(summary(&event)),
            _ => started.push(summary(&event)),
        }
    }
    let mut finished = Vec::new();
    for row in hub.store().finished_tournaments(20).await? {
        let event = t.event(&row.id).await?;
        let mut line = summary(&event);
        if let Some(first) = standings(&event).first() {
            line["winner"] = json!({"id": first.user.id, "name": first.user.name});
        }
        finished.push(line);
    }
    Ok(Json(
        json!({"created": created, "started": started, "finished": finished}),
    ))
}

async fn user_of(
    hub: &Arc<Hub>,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
) -> Result<UserRow, Refusal> {
    Ok(token_user(hub, ip, headers).await?.user)
}

async fn create_arena(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    let request = Request::arena(&fields(&headers, &body)?, now_ms())?;
    let event = t.create(&user, request).await?;
    Ok(Json(full(&event, now_ms())))
}

async fn create_swiss(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(team): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    let request = Request::swiss(&fields(&headers, &body)?, &team, now_ms())?;
    let event = t.create(&user, request).await?;
    Ok(Json(full(&event, now_ms())))
}

async fn tournament(Extension(t): Handle, Path(id): Path<String>) -> Result<Json<Value>, Refusal> {
    Ok(Json(full(&t.event(&id).await?, now_ms())))
}

/// `POST /api/tournament/{id}/{action}` (and `/api/swiss/...`): `join`,
/// `withdraw` or, for the creator, `terminate`.
async fn player_action(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    match action.as_str() {
        "join" => t.join(&id, &user).await?,
        "withdraw" => t.withdraw(&id, &user).await?,
        "terminate" => t.terminate(&id, &user).await?,
        _ => return Err(no_action(&action)),
    }
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/tournament/terminate/{id}`: as `/api/tournament/{id}/terminate`.
async fn terminate(
    hub: State<Arc<Hub>>,
    t: Handle,
    ip: Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    player_action(hub, t, ip, Path((id, "terminate".into())), headers).await
}

fn no_action(name: &str) -> Refusal {
    Refusal::NotFound(Said::new("server-refusal-no-action").with("name", format!("{name:?}")))
}

async fn schedule_next_round(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    let fields = fields(&headers, &body)?;
    let date = fields.get("date").map_or(Ok(now_ms()), |d| {
        d.parse::<i64>().map_err(|_| {
            Refusal::Malformed(
                Said::new("server-refusal-tournament-bad-field")
                    .with("field", "date")
                    .with("value", d),
            )
        })
    })?;
    t.schedule_next_round(&id, &user, date).await?;
    Ok(Json(json!({"ok": true})))
}

/// Lichess's results: one line per player, best first; `nb` limits them.
async fn results(
    Extension(t): Handle,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let event = t.event(&id).await?;
    let nb = query
        .get("nb")
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    Ok(ndjson(
        standings(&event)
            .iter()
            .take(nb)
            .map(|s| standing_json(&event, s))
            .collect::<Vec<_>>(),
    ))
}

/// The tournament's games: PGN, or lichess's game JSON as NDJSON when
/// asked for with `Accept: application/x-ndjson`.
async fn games(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    origin: Extension<crate::http::edge::PublicOrigin>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let event = t.event(&id).await?;
    let wants_json = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    let created = event.games.iter().filter(|g| g.status.is_some());
    if wants_json {
        let mut lines = Vec::new();
        for g in created {
            let view = crate::lichess::game::view_of(&hub, "", &g.game_id).await?;
            let mut json = view.export_json();
            json["tournament"] = json!(id);
            lines.push(json);
        }
        return Ok(ndjson(lines));
    }
    let mut text = String::new();
    for g in created {
        let site = format!(
            "{}/game/{}",
            origin.0 .0.clone().unwrap_or_default(),
            g.game_id
        );
        text.push_str(&hub.pgn(&g.game_id, site).await?);
        text.push('\n');
    }
    Ok((
        [(CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")],
        text,
    )
        .into_response())
}

/// `POST /api/board/game/{id}/berserk`: halves the player's clock in an
/// arena game whose tournament allows it, for an extra point on a win.
async fn berserk(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    let no = || Refusal::NotNow(Said::new("server-refusal-berserk-not-allowed"));
    let tournament = hub.store().tournament_of_game(&id).await?.ok_or_else(no)?;
    let event = t.event(&tournament).await?;
    let game = event
        .games
        .iter()
        .find(|g| g.game_id == id)
        .ok_or_else(no)?;
    if event.system != System::Arena || !event.settings.berserkable {
        return Err(no());
    }
    let color = match (game.white == user.id, game.black == user.id) {
        (true, _) => parity_rules::Color::White,
        (_, true) => parity_rules::Color::Black,
        _ => {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-berserk-not-your-game",
            )))
        }
    };
    let answer =
        crate::http::api::act(&hub, ip, &id, &headers, crate::game::state::Action::Berserk).await?;
    hub.writer
        .write(vec![crate::store::Change::Tournament(
            crate::store::tournaments::TournamentChange::Berserk { game: id, color },
        )])
        .await?;
    Ok(answer)
}

/// `GET /swiss/{id}.trf`: the FIDE tournament report file.
async fn trf(Extension(t): Handle, Path(file): Path<String>) -> Result<Response, Refusal> {
    let id = file.strip_suffix(".trf").ok_or_else(|| {
        Refusal::NotFound(Said::new("server-refusal-no-tournament").with("id", &file))
    })?;
    let event = t.event(id).await?;
    if event.system == System::Arena {
        return Err(Refusal::NotFound(
            Said::new("server-refusal-no-tournament").with("id", id),
        ));
    }
    let field = swiss_field(&event, event.row.round);
    let rounds = event.settings.nb_rounds.max(event.row.round as u32);
    let text = swiss::trf::write(&event.row.name, rounds, &field.entrants);
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn create_team(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    let fields = fields(&headers, &body)?;
    let name = fields.get("name").map_or("", String::as_str);
    let description = fields.get("description").map_or("", String::as_str);
    let team = t.create_team(&user, name, description).await?;
    Ok(Json(team_json(&hub, &team).await?))
}

async fn team_json(hub: &Arc<Hub>, team: &TeamRow) -> Result<Value, Refusal> {
    let members = hub.store().team_members(&team.id).await?;
    let leader = members.iter().find(|m| m.id == team.leader);
    Ok(json!({
        "id": team.id,
        "name": team.name,
        "description": team.description,
        "open": true,
        "leader": {"id": team.leader, "name": leader.map_or(team.leader.clone(), |l| l.name.clone())},
        "leaders": [{"id": team.leader, "name": leader.map_or(team.leader.clone(), |l| l.name.clone())}],
        "nbMembers": members.len(),
    }))
}

async fn the_team(hub: &Arc<Hub>, id: &str) -> Result<TeamRow, Refusal> {
    hub.store()
        .team(id)
        .await?
        .ok_or_else(|| Refusal::NotFound(Said::new("server-refusal-no-team").with("id", id)))
}

async fn team(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Json<Value>, Refusal> {
    let team = the_team(&hub, &id).await?;
    Ok(Json(team_json(&hub, &team).await?))
}

async fn team_users(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    the_team(&hub, &id).await?;
    let members = hub.store().team_members(&id).await?;
    Ok(ndjson(members.iter().map(
        |u| json!({"id": u.id, "name": u.name, "username": u.name}),
    )))
}

async fn team_events(
    hub: &Arc<Hub>,
    t: &Tournaments,
    id: &str,
    system: &str,
    query: &HashMap<String, String>,
) -> Result<Response, Refusal> {
    the_team(hub, id).await?;
    let max = query
        .get("max")
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(100)
        .min(100);
    let mut lines = Vec::new();
    for row in hub.store().team_tournaments(id, system, max).await? {
        let event = t.event(&row.id).await?;
        lines.push(full(&event, now_ms()));
    }
    Ok(ndjson(lines))
}

async fn team_swiss(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    team_events(&hub, &t, &id, "swiss", &query).await
}

async fn team_arenas(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    team_events(&hub, &t, &id, "arena", &query).await
}

async fn teams_of(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let mut list = Vec::new();
    for team in hub
        .store()
        .teams_of(&crate::accounts::user_id(&name))
        .await?
    {
        list.push(team_json(&hub, &team).await?);
    }
    Ok(Json(Value::Array(list)))
}

/// `POST /team/{id}/join` and `/team/{id}/quit` (also under `/api`).
async fn team_action(
    State(hub): State<Arc<Hub>>,
    Extension(t): Handle,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = user_of(&hub, ip, &headers).await?;
    match action.as_str() {
        "join" => t.join_team(&id, &user).await?,
        "quit" => t.leave_team(&id, &user).await?,
        _ => return Err(no_action(&action)),
    }
    Ok(Json(json!({"ok": true})))
}
