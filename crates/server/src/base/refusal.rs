//! Why a request was not done. It stays this type through every layer;
//! only the HTTP layer turns it into a status (`http::error`).

use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum Refusal {
    /// The request cannot be read: bad JSON, bad move text, a malformed
    /// commitment or nonce.
    #[error("{0}")]
    Malformed(String),
    /// No credentials, or none that open anything.
    #[error("{0}")]
    Unauthenticated(String),
    /// Credentials that do not open this: a spectator, a bad invite.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// Not now: out of turn, already committed, the game is over.
    #[error("{0}")]
    NotNow(String),
    /// An illegal move or a reveal that does not match its commitment.
    #[error("{0}")]
    Unacceptable(String),
    /// A rate limit; try again after `retry_after`.
    #[error("{message}")]
    TooMany {
        message: String,
        retry_after: Duration,
    },
    /// Too busy for this now (the engine queue is full).
    #[error("{0}")]
    Busy(String),
    /// Our fault: storage or a peer failed.
    #[error("{0}")]
    Internal(String),
}

/// Longest error message sent: inputs quoted in a message are cut, so an
/// error never echoes a large input back.
const MAX_MESSAGE_CHARS: usize = 160;

impl Refusal {
    /// The message as sent: at most [`MAX_MESSAGE_CHARS`] characters.
    pub fn message(&self) -> String {
        clip(&self.to_string())
    }

    /// Whole seconds to wait before trying again.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            Refusal::TooMany { retry_after, .. } => {
                Some((retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0)).max(1))
            }
            _ => None,
        }
    }

    pub fn no_game(id: &str) -> Refusal {
        Refusal::NotFound(format!("no game {id}"))
    }
}

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters, marked with `…` where cut.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut() {
        let long = Refusal::Malformed(format!("no variant {}", "é".repeat(100_000)));
        let message = long.message();
        assert_eq!(message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(message.ends_with('…'));
        assert_eq!(Refusal::NotNow("short".into()).message(), "short");
    }

    #[test]
    fn a_wait_rounds_up_to_whole_seconds() {
        let wait = |ms| Refusal::TooMany {
            message: String::new(),
            retry_after: Duration::from_millis(ms),
        };
        assert_eq!(wait(1).retry_after_secs(), Some(1));
        assert_eq!(wait(2_001).retry_after_secs(), Some(3));
        assert_eq!(Refusal::Busy(String::new()).retry_after_secs(), None);
    }
}
