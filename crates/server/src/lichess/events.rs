//! `GET /api/stream/event`: an account's games starting and finishing,
//! and challenges to and from it. It opens with the account's unfinished
//! games and open challenges, as lichess's does.

use std::sync::Arc;

use axum::extract::{Extension, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};

use super::game::{view_of, KEEPALIVE};
use super::token_user;
use crate::accounts::events::AccountEvent;
use crate::base::refusal::Refusal;
use crate::http::edge::{ClientIp, PublicOrigin};
use crate::http::ndjson;
use crate::hub::lobby::{Challenge, ChallengeOutcome};
use crate::hub::Hub;

pub fn routes() -> Router<Arc<Hub>> {
    Router::new().route("/api/stream/event", get(stream))
}

/// Lichess's reason text of a decline key.
fn decline_text(key: &str) -> &'static str {
    match key {
        "later" => "I'm not accepting challenges at the moment, please try again later.",
        "toofast" => {
            "This time control is too fast for me, please challenge again with a slower game."
        }
        "tooslow" => {
            "This time control is too slow for me, please challenge again with a faster game."
        }
        "timecontrol" => "I'm not accepting challenges with this time control.",
        "rated" => "Please send me a rated challenge instead.",
        "casual" => "Please send me a casual challenge instead.",
        "standard" => "I'm not accepting variant challenges right now.",
        "variant" => "I'm not willing to play this variant right now.",
        "nobot" => "I'm not accepting challenges from bots.",
        "onlybot" => "I'm only accepting challenges from bots.",
        _ => "I'm not accepting challenges at the moment.",
    }
}

/// A challenge event as `viewer` gets it.
pub fn challenge_event(
    hub: &Hub,
    kind: &str,
    c: &Challenge,
    origin: Option<&str>,
    viewer: &str,
) -> Value {
    let variant_name = hub
        .registry()
        .get(&c.terms.variant)
        .map(|v| v.spec.name.clone())
        .unwrap_or_default();
    let status = match &c.outcome {
        None => "created",
        Some(ChallengeOutcome::Accepted { .. }) => "accepted",
        Some(ChallengeOutcome::Declined { .. }) => "declined",
        Some(ChallengeOutcome::Canceled) => "canceled",
    };
    let mut challenge =
        super::shapes::challenge_json(c, &variant_name, origin, status, Some(viewer));
    if let Some(ChallengeOutcome::Declined { reason }) = &c.outcome {
        let key = reason.to_ascii_lowercase();
        challenge["declineReason"] = json!(decline_text(&key));
        challenge["declineReasonKey"] = json!(key);
    }
    json!({"type": kind, "challenge": challenge, "compat": {"bot": true, "board": true}})
}

/// The line of an account event, or none when its subject is gone.
async fn event_line(
    hub: &Arc<Hub>,
    user_id: &str,
    origin: Option<&str>,
    event: &AccountEvent,
) -> Option<Value> {
    let game_event = |kind: &'static str, game: String| async move {
        let seen = view_of(hub, user_id, &game).await.ok()?;
        let color = seen.full.you?.color();
        Some(json!({"type": kind, "game": seen.event_game(color)}))
    };
    match event {
        AccountEvent::GameStart { game } => game_event("gameStart", game.clone()).await,
        AccountEvent::GameFinish { game } => game_event("gameFinish", game.clone()).await,
        AccountEvent::Challenge { id } => {
            let c = hub.matchmaking().find_challenge(id).await.ok()??;
            Some(challenge_event(hub, "challenge", &c, origin, user_id))
        }
        AccountEvent::ChallengeCanceled { id } => {
            let c = hub.matchmaking().find_challenge(id).await.ok()??;
            Some(challenge_event(
                hub,
                "challengeCanceled",
                &c,
                origin,
                user_id,
            ))
        }
        AccountEvent::ChallengeDeclined { id, .. } => {
            let c = hub.matchmaking().find_challenge(id).await.ok()??;
            Some(challenge_event(
                hub,
                "challengeDeclined",
                &c,
                origin,
                user_id,
            ))
        }
    }
}

async fn stream(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let user_id = holder.user.id.clone();
    // Subscribed before the games are read, so that none falls in between.
    let events = hub.notices().account_events().subscribe(&user_id);
    let mut first = Vec::new();
    for game in hub.store().user_games(&user_id, true, 50, None).await? {
        first.push(AccountEvent::GameStart { game: game.id });
    }
    for c in hub.matchmaking().open_challenges_of(&user_id).await? {
        first.push(AccountEvent::Challenge { id: c.id });
    }
    let closed = hub.shutdown().begun();
    let source = futures_util::stream::unfold(
        (first.into_iter(), events),
        move |(mut first, mut events)| {
            let (hub, user_id, origin) = (hub.clone(), user_id.clone(), origin.clone());
            async move {
                let event = match first.next() {
                    Some(event) => event,
                    // Fell behind: end the stream; the client reconnects and gets its games again.
                    None => events.recv().await.ok()?,
                };
                let value = event_line(&hub, &user_id, origin.as_deref(), &event).await;
                Some((value.iter().map(ndjson::line).collect(), (first, events)))
            }
        },
    );
    Ok(ndjson::stream(KEEPALIVE, source, closed))
}
