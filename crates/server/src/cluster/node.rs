//! What one node asks another: typed, versioned messages on one internal
//! endpoint ([`PATH`]), authenticated by the cluster's secret. A request
//! for a game another node owns becomes a [`NodeRequest`] to that node,
//! which serves it with the same hub methods as its own clients and
//! answers a [`NodeReply`]; the public API is never re-entered, and a
//! single node never builds one.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::base::refusal::{Refusal, Said};
use crate::game::event::Side;
use crate::game::play::TypedMove;
use crate::game::state::{Action, GameFull};
use crate::round::msg::{Acted, Credentials, Joined};

/// The internal endpoint every node serves.
pub const PATH: &str = "/internal/node";
/// The header that carries the cluster's secret.
pub const SECRET_HEADER: &str = "x-parity-node-secret";
/// The version of [`NodeRequest`] and [`NodeReply`]; a node answers a
/// request of another version with a refusal, never a guess.
pub const VERSION: u32 = 1;
/// How long a node waits for another's answer.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request waits for a game's owner to be known or reachable
/// (a lease just taken, an owner just killed) before a 503.
pub(crate) const OWNER_PATIENCE: Duration = Duration::from_secs(5);

/// A request for game `game`, served by the node that owns it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum NodeRequest {
    Act {
        game: String,
        credentials: Credentials,
        action: Action,
    },
    Join {
        game: String,
        invite: String,
    },
    /// The state as the credentials' holder sees it (`gameFull`).
    State {
        game: String,
        credentials: Credentials,
    },
    Record {
        game: String,
    },
    ReadMove {
        game: String,
        side: Side,
        text: String,
    },
    Pgn {
        game: String,
        site: String,
    },
    Line {
        game: String,
    },
}

impl NodeRequest {
    pub fn game(&self) -> &str {
        match self {
            NodeRequest::Act { game, .. }
            | NodeRequest::Join { game, .. }
            | NodeRequest::State { game, .. }
            | NodeRequest::Record { game }
            | NodeRequest::ReadMove { game, .. }
            | NodeRequest::Pgn { game, .. }
            | NodeRequest::Line { game } => game,
        }
    }
}

/// The answer to a [`NodeRequest`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum NodeReply {
    Acted(Acted),
    Joined(Joined),
    State {
        /// The game as the asker sees it.
        full: Box<GameFull>,
        seq: u64,
        cookie: Option<String>,
        seat: Option<Side>,
    },
    /// A JSON text passed on as it is (a record, a line).
    Json {
        text: String,
    },
    /// A plain text (a PGN).
    Text {
        text: String,
    },
    Read(TypedMove),
    Refused(Refusal),
    /// The game is not played on the node asked (its lease moved): ask
    /// the owner again.
    NotHere,
}

/// What travels: a message and the version it is written in.
#[derive(Debug, Serialize, Deserialize)]
pub struct Envelope<T> {
    pub version: u32,
    pub message: T,
}

impl NodeReply {
    /// The JSON text of a [`NodeReply::Json`].
    pub fn json(self) -> Option<String> {
        match self {
            NodeReply::Json { text } => Some(text),
            _ => None,
        }
    }

    /// The reply, or the refusal it carries; a reply of another kind than
    /// `what` is the other node's fault.
    pub fn expect<T>(
        self,
        what: &str,
        take: impl FnOnce(NodeReply) -> Option<T>,
    ) -> Result<T, Refusal> {
        match self {
            NodeReply::Refused(refusal) => Err(refusal),
            reply => {
                let kind = reply.kind();
                take(reply).ok_or_else(|| {
                    Refusal::Internal(
                        Said::new("server-refusal-game-s-node-answered")
                            .with("kind", kind)
                            .with("what", what),
                    )
                })
            }
        }
    }

    /// The reply's tag, as it travels.
    fn kind(&self) -> &'static str {
        match self {
            NodeReply::Acted(_) => "acted",
            NodeReply::Joined(_) => "joined",
            NodeReply::State { .. } => "state",
            NodeReply::Json { .. } => "json",
            NodeReply::Text { .. } => "text",
            NodeReply::Read(_) => "read",
            NodeReply::Refused(_) => "refused",
            NodeReply::NotHere => "not_here",
        }
    }
}

tokio::task_local! {
    static SERVING_NODE: ();
}

/// Whether the work being done serves another node's request: then it is
/// served here or refused, never passed on again.
pub(crate) fn serving_node() -> bool {
    SERVING_NODE.try_with(|_| ()).is_ok()
}

/// Runs `work` as the service of another node's request.
pub(crate) async fn serve_for_node<T>(work: impl std::future::Future<Output = T>) -> T {
    SERVING_NODE.scope((), work).await
}

/// Whether `presented` is the cluster's `secret`, compared in time that
/// does not depend on where they differ.
pub fn secret_matches(presented: &[u8], secret: &str) -> bool {
    let secret = secret.as_bytes();
    presented.len() == secret.len()
        && presented
            .iter()
            .zip(secret)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Why a request did not get the owner's answer.
pub(crate) enum Unreached {
    /// No connection: the owner may have just died; ask again.
    Gone,
    Failed(Refusal),
}

/// The client a node asks the others with.
pub struct Remote {
    http: reqwest::Client,
    pub(crate) secret: String,
}

impl Remote {
    pub(crate) fn new(secret: String) -> Remote {
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(CALL_TIMEOUT)
            .build()
            .expect("an HTTP client");
        Remote { http, secret }
    }

    /// Sends `request` to the node at `url`.
    pub(crate) async fn call(
        &self,
        url: &str,
        request: &NodeRequest,
    ) -> Result<NodeReply, Unreached> {
        let body = serde_json::to_vec(&Envelope {
            version: VERSION,
            message: request,
        })
        .map_err(|e| {
            Unreached::Failed(Refusal::Internal(
                Said::new("server-refusal-node-request").with("e", &e),
            ))
        })?;
        let response = self
            .http
            .post(format!("{url}{PATH}"))
            .header(SECRET_HEADER, &self.secret)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            // The owner words its refusals in the asking client's language.
            .header(
                reqwest::header::ACCEPT_LANGUAGE,
                crate::base::i18n::current(),
            )
            .body(body)
            .send()
            .await
            .map_err(|e| {
                if e.is_connect() {
                    Unreached::Gone
                } else {
                    Unreached::Failed(Refusal::Busy(
                        Said::new("server-refusal-game-s-node").with("e", &e),
                    ))
                }
            })?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|e| {
            Unreached::Failed(Refusal::Busy(
                Said::new("server-refusal-game-s-node").with("e", &e),
            ))
        })?;
        if !status.is_success() {
            return Err(Unreached::Failed(Refusal::Internal(
                Said::new("server-refusal-game-s-node-refused-node")
                    .with("status", status)
                    .with(
                        "min",
                        String::from_utf8_lossy(&bytes[..bytes.len().min(160)]),
                    ),
            )));
        }
        let envelope: Envelope<NodeReply> = serde_json::from_slice(&bytes).map_err(|e| {
            Unreached::Failed(Refusal::Internal(
                Said::new("server-refusal-game-s-node-s-reply").with("e", &e),
            ))
        })?;
        if envelope.version != VERSION {
            return Err(Unreached::Failed(Refusal::Internal(
                Said::new("server-refusal-game-s-node-speaks-version")
                    .with("version", envelope.version)
                    .with("VERSION", VERSION),
            )));
        }
        Ok(envelope.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::msg::Presented;

    #[test]
    fn requests_and_replies_read_back_as_written() {
        let credentials = Credentials {
            tokens: vec![Presented {
                token: "t".into(),
                hash: "h".into(),
                other_cookie: true,
            }],
            bearer: false,
        };
        let requests = [
            NodeRequest::Act {
                game: "g".into(),
                credentials: credentials.clone(),
                action: Action::Reveal {
                    mv: "e2e4".into(),
                    nonce: "n".into(),
                },
            },
            NodeRequest::State {
                game: "g".into(),
                credentials,
            },
            NodeRequest::ReadMove {
                game: "g".into(),
                side: Side::Black,
                text: "Nf6".into(),
            },
        ];
        for request in requests {
            let text = serde_json::to_string(&Envelope {
                version: VERSION,
                message: &request,
            })
            .unwrap();
            let back: Envelope<NodeRequest> = serde_json::from_str(&text).unwrap();
            assert_eq!(back.message, request);
            assert_eq!(back.message.game(), "g");
        }
        let replies = [
            NodeReply::Refused(Refusal::TooMany {
                message: "slow down".into(),
                retry_after: Duration::from_millis(1500),
            }),
            NodeReply::Refused(Refusal::Forbidden("spectators".into())),
            NodeReply::Acted(Acted {
                seq: 7,
                game: Some("rematch".into()),
                cookie: None,
            }),
            NodeReply::NotHere,
        ];
        for reply in replies {
            let text = serde_json::to_string(&reply).unwrap();
            assert_eq!(serde_json::from_str::<NodeReply>(&text).unwrap(), reply);
        }
    }

    #[test]
    fn a_reply_of_another_kind_is_refused() {
        let read = |r: NodeReply| match r {
            NodeReply::Acted(a) => Some(a.seq),
            _ => None,
        };
        let acted = NodeReply::Acted(Acted {
            seq: 3,
            game: None,
            cookie: None,
        });
        assert_eq!(acted.expect("an action", read), Ok(3));
        let refused = NodeReply::Refused(Refusal::NotNow("over".into()));
        assert_eq!(
            refused.expect("an action", read),
            Err(Refusal::NotNow("over".into()))
        );
        assert!(matches!(
            NodeReply::NotHere.expect("an action", read),
            Err(Refusal::Internal(_))
        ));
    }

    #[test]
    fn only_the_exact_secret_matches() {
        assert!(secret_matches(b"abc", "abc"));
        assert!(!secret_matches(b"abd", "abc"));
        assert!(!secret_matches(b"ab", "abc"));
        assert!(!secret_matches(b"", "abc"));
    }
}
