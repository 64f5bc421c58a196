//! Notifications of an account: its turn in a correspondence game, a
//! challenge. Each is stored for the page's bell once (its id names the
//! event), then mailed when the account asked for mail (batched by
//! `base::mail`). Never for one's own move: the actor names the sides that
//! must move now, not the one that just moved.

use std::sync::Arc;

use crate::accounts::preferences;
use crate::base::mail::{MailItem, Mailer};
use crate::game::event::now_ms;
use crate::store::{AccountChange, Change, NotificationRow, Store, Writer};

/// What happened, for one account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Names the event: the same key is kept and sent once.
    pub key: String,
    /// `yourTurn` or `challenge`.
    pub kind: &'static str,
    pub text: String,
    /// A path on this server (`/game/ID`).
    pub path: String,
}

pub struct Notifier {
    store: Arc<Store>,
    writer: Writer,
    mailer: Option<Mailer>,
    /// The server's address as players reach it, for the links in mails.
    public_url: String,
}

impl Notifier {
    pub fn new(store: Arc<Store>, writer: Writer, mailer: Option<Mailer>, public_url: String) -> Notifier {
        Notifier {
            store,
            writer,
            mailer,
            public_url: public_url.trim_end_matches('/').to_string(),
        }
    }

    /// Whether this server sends mail (`--smtp`).
    pub fn mails(&self) -> bool {
        self.mailer.is_some()
    }

    /// Tells account `user_id` of `notice` (in the background).
    pub fn notify(&self, user_id: &str, notice: Notice) {
        let (store, writer, mailer) = (self.store.clone(), self.writer.clone(), self.mailer.clone());
        let url = format!("{}{}", self.public_url, notice.path);
        let row = NotificationRow {
            id: format!("{}:{user_id}", notice.key),
            user_id: user_id.to_string(),
            at_ms: now_ms(),
            kind: notice.kind.to_string(),
            text: notice.text,
            url: notice.path,
            seen: false,
        };
        tokio::spawn(async move {
            let user_id = row.user_id.clone();
            let text = row.text.clone();
            if let Err(e) = writer.write(vec![Change::Account(AccountChange::Notify(row))]).await {
                return tracing::error!("a notification of {user_id}: {e}");
            }
            let Some(mailer) = mailer else { return };
            match preferences::of(&store, &user_id).await {
                Ok(p) if p.notify_email && !p.email.is_empty() => {
                    mailer.send(&p.email, MailItem { text, url });
                }
                Ok(_) => {}
                Err(e) => tracing::error!("the preferences of {user_id}: {e}"),
            }
        });
    }
}
