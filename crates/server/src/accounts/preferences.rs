//! An account's preferences for the page, as lichess's
//! `GET /api/account/preferences` gives them (`{"prefs": {...}}`): board
//! colours, piece set, sounds, animation, premoves, confirming a
//! simultaneous commit, language. Guests keep the same in their browser
//! (`web/settings.js`). A change names only the fields it sets.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::{AccountChange, Change, Store, StoreError, Writer};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    Brown,
    Blue,
    Green,
    Grey,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceSet {
    /// Our drawings (`web/pieces.js`).
    #[default]
    Parity,
    /// Every piece as its letter in a disc.
    Letters,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// The browser's.
    #[default]
    Auto,
    En,
    Fr,
}

impl Language {
    /// The catalogue's language (`base::i18n`); none for the browser's,
    /// which the server does not know when it writes on its own.
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Language::Auto => None,
            Language::En => Some("en"),
            Language::Fr => Some("fr"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Preferences {
    pub theme: Theme,
    pub piece_set: PieceSet,
    pub sound: bool,
    pub animation: bool,
    pub premove: bool,
    /// Ask before a simultaneous move is committed (off: commit on the drop).
    pub confirm_commit: bool,
    pub language: Language,
    /// Where notifications are mailed, and whether they are.
    pub email: String,
    pub notify_email: bool,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            theme: Theme::default(),
            piece_set: PieceSet::default(),
            sound: true,
            animation: true,
            premove: true,
            confirm_commit: false,
            language: Language::default(),
            email: String::new(),
            notify_email: false,
        }
    }
}

impl Preferences {
    /// These preferences with the fields of `change` (a JSON object of
    /// some of them) set; an unknown field or value is refused, saying which.
    pub fn changed(&self, change: &Value) -> Result<Preferences, String> {
        let Value::Object(fields) = change else {
            return Err("preferences are a JSON object of the fields to set".into());
        };
        let mut merged = serde_json::to_value(self).map_err(|e| e.to_string())?;
        for (key, value) in fields {
            merged[key] = value.clone();
        }
        let changed: Preferences =
            serde_json::from_value(merged).map_err(|e| format!("bad preferences: {e}"))?;
        let email = changed.email.trim();
        if !email.is_empty() && email.parse::<lettre::Address>().is_err() {
            return Err(format!(
                "bad preferences: {email:?} is not an e-mail address"
            ));
        }
        if changed.notify_email && email.is_empty() {
            return Err("bad preferences: mail needs an e-mail address".into());
        }
        Ok(Preferences {
            email: email.to_string(),
            ..changed
        })
    }
}

/// Account `user_id`'s preferences (the defaults until it sets any).
pub async fn of(store: &Store, user_id: &str) -> Result<Preferences, StoreError> {
    let Some(body) = store.preferences(user_id).await? else {
        return Ok(Preferences::default());
    };
    // Stored by this module: a body that no longer reads gives the defaults.
    Ok(serde_json::from_str(&body).unwrap_or_default())
}

/// Stores account `user_id`'s preferences.
pub async fn set(
    writer: &Writer,
    user_id: &str,
    preferences: &Preferences,
) -> Result<(), StoreError> {
    let body =
        serde_json::to_string(preferences).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    writer
        .write(vec![Change::Account(AccountChange::SetPreferences {
            user_id: user_id.to_string(),
            body,
        })])
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_language_of_the_catalogue_is_a_setting() {
        for lang in crate::base::i18n::LANGUAGES {
            let setting: Language = serde_json::from_value(serde_json::json!(lang)).unwrap();
            assert_eq!(setting.tag(), Some(*lang));
        }
        assert_eq!(Language::Auto.tag(), None);
    }

    #[test]
    fn a_change_sets_only_its_fields() {
        let p = Preferences::default()
            .changed(&json!({"theme": "blue", "confirmCommit": true}))
            .unwrap();
        assert_eq!(p.theme, Theme::Blue);
        assert!(p.confirm_commit);
        assert!(p.sound && p.premove, "the others keep their values");
        let q = p.changed(&json!({"pieceSet": "letters"})).unwrap();
        assert_eq!((q.theme, q.piece_set), (Theme::Blue, PieceSet::Letters));
    }

    #[test]
    fn unknown_fields_and_values_are_refused_by_name() {
        let p = Preferences::default();
        let e = p.changed(&json!({"theme": "pink"})).unwrap_err();
        assert!(e.contains("pink") && e.contains("brown"), "{e}");
        let e = p.changed(&json!({"colour": "blue"})).unwrap_err();
        assert!(e.contains("colour"), "{e}");
        let e = p.changed(&json!({"sound": "loud"})).unwrap_err();
        assert!(e.contains("bool"), "{e}");
        assert!(p.changed(&json!(["theme"])).is_err());
        let e = p.changed(&json!({"email": "not mail"})).unwrap_err();
        assert!(e.contains("not an e-mail address"), "{e}");
        let e = p.changed(&json!({"notifyEmail": true})).unwrap_err();
        assert!(e.contains("needs an e-mail address"), "{e}");
        let q = p
            .changed(&json!({"email": " ada@example.org ", "notifyEmail": true}))
            .unwrap();
        assert_eq!(q.email, "ada@example.org");
    }

    #[test]
    fn preferences_read_back_with_lichess_style_names() {
        let text = serde_json::to_string(&Preferences::default()).unwrap();
        assert!(text.contains(r#""pieceSet":"parity""#), "{text}");
        assert!(text.contains(r#""confirmCommit":false"#), "{text}");
        assert_eq!(
            serde_json::from_str::<Preferences>(&text).unwrap(),
            Preferences::default()
        );
    }
}
