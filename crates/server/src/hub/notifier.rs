//! Notifications of an account: its turn in a correspondence game, a
//! challenge. Each is stored for the page's bell once (its id names the
//! event), then pushed to the browsers the account subscribed (Web Push,
//! `base::push`) and mailed when it asked for mail (batched by
//! `base::mail`). Never for one's own move: the actor names the sides that
//! must move now, not the one that just moved.

use std::sync::Arc;

use crate::accounts::preferences;
use crate::base::i18n;
use crate::base::mail::{MailItem, Mailer};
use crate::base::push::{self, Delivery, PushKey, Subscription};
use crate::game::event::now_ms;
use crate::store::{AccountChange, Change, NotificationRow, Store, Writer};

/// What happened, for one account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Names the event: the same key is kept and sent once.
    pub key: String,
    /// `yourTurn` or `challenge`.
    pub kind: &'static str,
    /// Its words: a message of the catalogue (`base::i18n`), written in
    /// the account's language, with its arguments.
    pub message: &'static str,
    pub args: Vec<(&'static str, String)>,
    /// A path on this server (`/game/ID`).
    pub path: String,
}

/// How the server pushes: its VAPID key, and whom push services may write
/// to about it.
#[derive(Clone)]
pub struct Pusher {
    pub key: PushKey,
    pub contact: String,
    /// Endpoints may be plain http (tests; real push services are https).
    pub allow_http: bool,
    pub http: reqwest::Client,
}

pub struct Notifier {
    store: Arc<Store>,
    writer: Writer,
    mailer: Option<Mailer>,
    pusher: Pusher,
    /// The server's address as players reach it, for the links in mails.
    public_url: String,
}

impl Notifier {
    pub fn new(
        store: Arc<Store>,
        writer: Writer,
        mailer: Option<Mailer>,
        pusher: Pusher,
        public_url: String,
    ) -> Notifier {
        Notifier {
            store,
            writer,
            mailer,
            pusher,
            public_url: public_url.trim_end_matches('/').to_string(),
        }
    }

    /// The key browsers subscribe with (base64url).
    pub fn push_key(&self) -> &str {
        self.pusher.key.public()
    }

    /// Checks a browser's subscription before it is kept.
    pub fn check_subscription(&self, subscription: &Subscription) -> Result<(), String> {
        subscription.check(self.pusher.allow_http)
    }

    /// Whether this server sends mail (`--smtp`).
    pub fn mails(&self) -> bool {
        self.mailer.is_some()
    }

    /// Tells account `user_id` of `notice` (in the background), in the
    /// account's language.
    pub fn notify(&self, user_id: &str, notice: Notice) {
        let (store, writer, mailer) =
            (self.store.clone(), self.writer.clone(), self.mailer.clone());
        let pusher = self.pusher.clone();
        let url = format!("{}{}", self.public_url, notice.path);
        let user_id = user_id.to_string();
        tokio::spawn(async move {
            // Unread preferences still leave the notice, in English, unmailed.
            let prefs = preferences::of(&store, &user_id).await.unwrap_or_else(|e| {
                tracing::error!("the preferences of {user_id}: {e}");
                preferences::Preferences::default()
            });
            let lang = prefs.language.tag().unwrap_or(i18n::LANGUAGES[0]);
            let args: Vec<(&str, &str)> =
                notice.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let text = i18n::catalogue().text(lang, notice.message, &args);
            let row = NotificationRow {
                id: format!("{}:{user_id}", notice.key),
                user_id: user_id.clone(),
                at_ms: now_ms(),
                kind: notice.kind.to_string(),
                text: text.clone(),
                url: notice.path,
                seen: false,
            };
            if let Err(e) = writer
                .write(vec![Change::Account(AccountChange::Notify(row))])
                .await
            {
                return tracing::error!("a notification of {user_id}: {e}");
            }
            let payload =
                serde_json::json!({"title": "Parity", "body": text, "url": url}).to_string();
            match store.push_subscriptions(&user_id).await {
                Ok(subscriptions) => {
                    for subscription in subscriptions {
                        push_one(&pusher, &writer, &subscription, payload.as_bytes()).await;
                    }
                }
                Err(e) => tracing::error!("the push subscriptions of {user_id}: {e}"),
            }
            if let Some(mailer) = mailer {
                if prefs.notify_email && !prefs.email.is_empty() {
                    mailer.send(&prefs.email, MailItem { text, url, lang });
                }
            }
        });
    }
}

/// Pushes to one subscription; one the push service no longer knows is forgotten.
async fn push_one(pusher: &Pusher, writer: &Writer, subscription: &Subscription, payload: &[u8]) {
    match push::send(
        &pusher.http,
        &pusher.key,
        &pusher.contact,
        subscription,
        payload,
    )
    .await
    {
        Delivery::Sent => {}
        Delivery::Gone => {
            let gone = AccountChange::RemovePushSubscription {
                endpoint: subscription.endpoint.clone(),
            };
            if let Err(e) = writer.write(vec![Change::Account(gone)]).await {
                tracing::error!("a push subscription not forgotten: {e}");
            }
        }
        Delivery::Failed(e) => tracing::warn!("a push to {}: {e}", subscription.endpoint),
    }
}
