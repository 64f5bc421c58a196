//! Notifications by e-mail over SMTP (lettre). Items for one address are
//! batched: the first opens a window (`--mail-batch-secs`), and everything
//! for that address within it goes in one mail.

use std::collections::HashMap;
use std::time::Duration;

use lettre::message::{Mailbox, Message};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tokio::sync::mpsc;

/// One line of a mail: what happened, and where to see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailItem {
    pub text: String,
    pub url: String,
    /// The reader's language (`i18n`), for the mail's own words.
    pub lang: &'static str,
}

/// Where mail goes: `--smtp` (`smtp://host:port` plain, `smtps://` or
/// `?tls=required` with TLS, credentials in the URL), from `--mail-from`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailConfig {
    pub smtp_url: String,
    pub from: String,
    pub batch: Duration,
}

/// The handle to the sending task; cheap to clone.
#[derive(Clone)]
pub struct Mailer {
    items: mpsc::UnboundedSender<(String, MailItem)>,
}

impl Mailer {
    /// Starts the sending task; an unreadable URL or sender is an error.
    pub fn start(config: &MailConfig) -> Result<Mailer, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp_url)
            .map_err(|e| format!("--smtp {}: {e}", config.smtp_url))?
            .build();
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|e| format!("--mail-from {}: {e}", config.from))?;
        let (items, rx) = mpsc::unbounded_channel();
        tokio::spawn(batch_and_send(rx, transport, from, config.batch));
        Ok(Mailer { items })
    }

    /// Queues `item` for `to`.
    pub fn send(&self, to: &str, item: MailItem) {
        let _ = self.items.send((to.to_string(), item));
    }
}

/// The subject and body of one mail of `items`, in the language of the last.
pub fn compose(items: &[MailItem]) -> (String, String) {
    let words = super::i18n::catalogue();
    let lang = items.last().map_or(super::i18n::LANGUAGES[0], |i| i.lang);
    let subject = match items {
        [one] => words.text(lang, "server-mail-subject-one", &[("text", &one.text)]),
        many => words.text(
            lang,
            "server-mail-subject-many",
            &[("count", &many.len().to_string())],
        ),
    };
    let mut body = String::new();
    for item in items {
        body.push_str(&format!("{}\n  {}\n\n", item.text, item.url));
    }
    body.push_str(&words.text(lang, "server-mail-footer", &[]));
    body.push('\n');
    (subject, body)
}

async fn batch_and_send(
    mut rx: mpsc::UnboundedReceiver<(String, MailItem)>,
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    batch: Duration,
) {
    let mut waiting: HashMap<String, Vec<MailItem>> = HashMap::new();
    let (due_tx, mut due_rx) = mpsc::unbounded_channel::<String>();
    loop {
        tokio::select! {
            item = rx.recv() => {
                let Some((to, item)) = item else { break };
                let list = waiting.entry(to.clone()).or_default();
                if list.is_empty() {
                    let due = due_tx.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(batch).await;
                        let _ = due.send(to);
                    });
                }
                list.push(item);
            }
            Some(to) = due_rx.recv() => {
                let Some(items) = waiting.remove(&to) else { continue };
                let (subject, body) = compose(&items);
                let message = to
                    .parse::<Mailbox>()
                    .map_err(|e| e.to_string())
                    .and_then(|address| {
                        Message::builder()
                            .from(from.clone())
                            .to(address)
                            .subject(subject)
                            .body(body)
                            .map_err(|e| e.to_string())
                    });
                match message {
                    Ok(message) => {
                        if let Err(e) = transport.send(message).await {
                            tracing::warn!("mail to {to} not sent: {e}");
                        }
                    }
                    Err(e) => tracing::warn!("mail to {to} not written: {e}"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_item_is_the_subject_and_many_are_counted() {
        let item = |t: &str, lang| MailItem {
            text: t.into(),
            url: "http://parity.test/game/abc".into(),
            lang,
        };
        let (subject, body) = compose(&[item("Your turn against Bob (chess)", "en")]);
        assert_eq!(subject, "Parity: Your turn against Bob (chess)");
        assert!(body.contains("http://parity.test/game/abc"));
        assert!(body.contains("in your Parity settings"), "{body}");
        let (subject, body) = compose(&[item("a", "en"), item("b", "en"), item("c", "en")]);
        assert_eq!(subject, "Parity: 3 things need you");
        assert_eq!(body.matches("http://parity.test").count(), 3);
        let (subject, body) = compose(&[item("a", "fr"), item("b", "fr")]);
        assert_eq!(subject, "Parity : 2 choses vous attendent");
        assert!(body.contains("dans vos réglages de Parity"), "{body}");
    }

    #[tokio::test]
    async fn a_bad_url_or_sender_is_refused_by_name() {
        let config = |url: &str, from: &str| MailConfig {
            smtp_url: url.into(),
            from: from.into(),
            batch: Duration::from_secs(1),
        };
        assert!(Mailer::start(&config("nonsense", "a@b.c")).is_err());
        let e = Mailer::start(&config("smtp://127.0.0.1:2525", "not an address"))
            .err()
            .unwrap();
        assert!(e.contains("--mail-from"), "{e}");
        assert!(Mailer::start(&config(
            "smtp://127.0.0.1:2525",
            "Parity <parity@example.org>"
        ))
        .is_ok());
    }
}
