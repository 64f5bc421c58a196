//! Why a request was not done. It stays this type through every layer;
//! only the HTTP layer turns it into a status (`http::error`), and its
//! words ([`Said`]) into the reader's language.

use std::fmt;
use std::time::Duration;

use crate::base::i18n;

/// A refusal's words: a message of the catalogue (`base::i18n`, the
/// `server-refusal-*` ids) and its arguments, told in the reader's
/// language; words that come from elsewhere as text (a database's error)
/// are [`Said::as_is`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub id: String,
    pub args: Vec<(String, String)>,
}

/// The catalogue's message that says its `text` as it is.
const AS_IS: &str = "server-as-is";

impl Said {
    pub fn new(id: &str) -> Said {
        Said {
            id: id.to_string(),
            args: Vec::new(),
        }
    }

    /// With argument `name` (a `{ $name }` of the message).
    pub fn with(mut self, name: &str, value: impl fmt::Display) -> Said {
        self.args.push((name.to_string(), value.to_string()));
        self
    }

    /// Text that is not the catalogue's, told as it is in every language.
    pub fn as_is(text: impl fmt::Display) -> Said {
        Said::new(AS_IS).with("text", &text)
    }

    /// The words in `lang` (English where the catalogue lacks the language).
    pub fn in_language(&self, lang: &str) -> String {
        let args: Vec<(&str, &str)> = self
            .args
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        i18n::catalogue().text(lang, &self.id, &args)
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_language(i18n::LANGUAGES[0]))
    }
}

/// Between nodes a refusal's words travel as text, already in the
/// language of the request that asked (the asking node passes it on), as
/// releases before the catalogue wrote them.
impl serde::Serialize for Said {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.in_language(i18n::current()))
    }
}

impl<'de> serde::Deserialize<'de> for Said {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Said, D::Error> {
        String::deserialize(deserializer).map(Said::as_is)
    }
}

impl From<String> for Said {
    fn from(text: String) -> Said {
        Said::as_is(text)
    }
}

impl From<&str> for Said {
    fn from(text: &str) -> Said {
        Said::as_is(text)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum Refusal {
    /// The request cannot be read: bad JSON, bad move text, a malformed
    /// commitment or nonce.
    #[error("{0}")]
    Malformed(Said),
    /// No credentials, or none that open anything.
    #[error("{0}")]
    Unauthenticated(Said),
    /// Credentials that do not open this: a spectator, a bad invite.
    #[error("{0}")]
    Forbidden(Said),
    #[error("{0}")]
    NotFound(Said),
    /// Not now: out of turn, already committed, the game is over.
    #[error("{0}")]
    NotNow(Said),
    /// An illegal move or a reveal that does not match its commitment.
    #[error("{0}")]
    Unacceptable(Said),
    /// A rate limit; try again after `retry_after`.
    #[error("{message}")]
    TooMany {
        message: Said,
        retry_after: Duration,
    },
    /// Too busy for this now (the engine queue is full).
    #[error("{0}")]
    Busy(Said),
    /// Our fault: storage or a peer failed.
    #[error("{0}")]
    Internal(Said),
}

/// Longest error message sent: inputs quoted in a message are cut, so an
/// error never echoes a large input back.
const MAX_MESSAGE_CHARS: usize = 160;

impl Refusal {
    /// The message as sent, in English: at most [`MAX_MESSAGE_CHARS`] characters.
    pub fn message(&self) -> String {
        clip(&self.to_string())
    }

    /// The message in `lang`, cut as [`Refusal::message`].
    pub fn message_in(&self, lang: &str) -> String {
        clip(&self.said().in_language(lang))
    }

    /// The words of the refusal.
    pub fn said(&self) -> &Said {
        match self {
            Refusal::Malformed(s)
            | Refusal::Unauthenticated(s)
            | Refusal::Forbidden(s)
            | Refusal::NotFound(s)
            | Refusal::NotNow(s)
            | Refusal::Unacceptable(s)
            | Refusal::Busy(s)
            | Refusal::Internal(s) => s,
            Refusal::TooMany { message, .. } => message,
        }
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
        Refusal::NotFound(Said::new("server-refusal-no-game").with("id", id))
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
        let long = Refusal::Malformed(format!("no variant {}", "é".repeat(100_000)).into());
        let message = long.message();
        assert_eq!(message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(message.ends_with('…'));
        assert_eq!(Refusal::NotNow("short".into()).message(), "short");
    }

    #[test]
    fn a_wait_rounds_up_to_whole_seconds() {
        let wait = |ms| Refusal::TooMany {
            message: String::new().into(),
            retry_after: Duration::from_millis(ms),
        };
        assert_eq!(wait(1).retry_after_secs(), Some(1));
        assert_eq!(wait(2_001).retry_after_secs(), Some(3));
        assert_eq!(Refusal::Busy(String::new().into()).retry_after_secs(), None);
    }
}
