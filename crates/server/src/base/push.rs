//! Notifications by Web Push: the server's VAPID key (RFC 8292), a
//! browser's subscription, and one message sent to it, its payload
//! encrypted for the browser (RFC 8291, aes128gcm) by the `web-push` crate
//! and posted to the push service with reqwest.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use web_push::{ContentEncoding, SubscriptionInfo, VapidSignatureBuilder, WebPushMessageBuilder};

/// How long a push service keeps a message for an offline browser.
const TTL_SECS: u32 = 24 * 3600;

/// The server's VAPID key pair: the private scalar and the public point,
/// each base64url without padding (the page subscribes with the public one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushKey {
    private: String,
    public: String,
}

impl PushKey {
    /// A new key pair.
    pub fn generate() -> PushKey {
        loop {
            let bytes: [u8; 32] = rand::random();
            if let Ok(key) = PushKey::from_private(&URL_SAFE_NO_PAD.encode(bytes)) {
                return key;
            }
        }
    }

    /// The key pair of a stored private key.
    pub fn from_private(private: &str) -> Result<PushKey, String> {
        let builder = VapidSignatureBuilder::from_base64_no_sub(private)
            .map_err(|e| format!("a VAPID private key: {e}"))?;
        Ok(PushKey {
            private: private.to_string(),
            public: URL_SAFE_NO_PAD.encode(builder.get_public_key()),
        })
    }

    pub fn private(&self) -> &str {
        &self.private
    }

    pub fn public(&self) -> &str {
        &self.public
    }
}

/// A browser's push subscription, as `PushSubscription.toJSON()` gives it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subscription {
    pub endpoint: String,
    pub keys: SubscriptionKeys,
    /// Sent by some browsers; not needed.
    #[serde(default, rename = "expirationTime", skip_serializing)]
    pub expiration_time: Option<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    pub p256dh: String,
    pub auth: String,
}

impl Subscription {
    /// Checks what a client sent: an https endpoint (or http when
    /// `allow_http`, for tests), a P-256 point and a 16-byte secret.
    pub fn check(&self, allow_http: bool) -> Result<(), String> {
        let url = reqwest::Url::parse(&self.endpoint)
            .map_err(|e| format!("the endpoint is not an address: {e}"))?;
        let scheme_ok = url.scheme() == "https" || (allow_http && url.scheme() == "http");
        if !scheme_ok || url.host_str().is_none() || self.endpoint.len() > 1000 {
            return Err("the endpoint must be an https address of at most 1000 bytes".into());
        }
        // The server posts to it: never to this machine or a private network
        // named by address (push services have public names).
        let host = url.host_str().unwrap_or_default();
        let private = match host.trim_matches(['[', ']']).parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => {
                ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
            }
            Ok(std::net::IpAddr::V6(ip)) => {
                ip.is_loopback() || ip.is_unspecified() || (ip.segments()[0] & 0xfe00) == 0xfc00
            }
            Err(_) => host.eq_ignore_ascii_case("localhost"),
        };
        if private && !allow_http {
            return Err("the endpoint must be a push service's public address".into());
        }
        let decoded = |text: &str| URL_SAFE_NO_PAD.decode(text.trim_end_matches('='));
        match (decoded(&self.keys.p256dh), decoded(&self.keys.auth)) {
            (Ok(point), Ok(secret)) if point.len() == 65 && point[0] == 4 && secret.len() == 16 => {
                Ok(())
            }
            _ => Err("keys.p256dh must be a P-256 point and keys.auth 16 bytes, base64url".into()),
        }
    }
}

/// What became of a message.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivery {
    Sent,
    /// The subscription is no more (404 or 410): forget it.
    Gone,
    Failed(String),
}

/// Sends `payload` to `subscription`, signed with `key` for `contact`
/// (a `mailto:` or `https:` address the push service may write to).
pub async fn send(
    http: &reqwest::Client,
    key: &PushKey,
    contact: &str,
    subscription: &Subscription,
    payload: &[u8],
) -> Delivery {
    let info = SubscriptionInfo::new(
        subscription.endpoint.as_str(),
        subscription.keys.p256dh.as_str(),
        subscription.keys.auth.as_str(),
    );
    let message = (|| {
        let mut signature =
            VapidSignatureBuilder::from_base64_no_sub(key.private())?.add_sub_info(&info);
        signature.add_claim("sub", contact);
        let mut builder = WebPushMessageBuilder::new(&info);
        builder.set_ttl(TTL_SECS);
        builder.set_payload(ContentEncoding::Aes128Gcm, payload);
        builder.set_vapid_signature(signature.build()?);
        builder.build()
    })();
    let message = match message {
        Ok(message) => message,
        Err(e) => return Delivery::Failed(format!("a push message: {e}")),
    };
    let mut request = http
        .post(&subscription.endpoint)
        .header("TTL", message.ttl.to_string())
        .header("Urgency", "normal");
    if let Some(payload) = message.payload {
        request = request
            .header("Content-Encoding", payload.content_encoding.to_str())
            .header("Content-Type", "application/octet-stream");
        for (name, value) in payload.crypto_headers {
            request = request.header(name, value);
        }
        request = request.body(payload.content);
    }
    match request.send().await {
        Ok(r) if r.status().is_success() => Delivery::Sent,
        Ok(r) if matches!(r.status().as_u16(), 404 | 410) => Delivery::Gone,
        Ok(r) => Delivery::Failed(format!("the push service answered {}", r.status())),
        Err(e) => Delivery::Failed(format!("the push service: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subscription(endpoint: &str, p256dh: &str, auth: &str) -> Subscription {
        Subscription {
            endpoint: endpoint.into(),
            keys: SubscriptionKeys {
                p256dh: p256dh.into(),
                auth: auth.into(),
            },
            expiration_time: None,
        }
    }

    #[test]
    fn a_key_reads_back_from_its_private_half() {
        let key = PushKey::generate();
        assert_eq!(URL_SAFE_NO_PAD.decode(key.public()).unwrap().len(), 65);
        assert_eq!(PushKey::from_private(key.private()).unwrap(), key);
        assert!(PushKey::from_private("not a key").is_err());
    }

    #[test]
    fn subscriptions_are_checked() {
        let point = URL_SAFE_NO_PAD.encode(
            URL_SAFE_NO_PAD
                .decode(PushKey::generate().public())
                .unwrap(),
        );
        let auth = URL_SAFE_NO_PAD.encode([7u8; 16]);
        let good = subscription("https://push.example.org/abc", &point, &auth);
        assert_eq!(good.check(false), Ok(()));
        let plain = subscription("http://127.0.0.1:9/abc", &point, &auth);
        assert!(plain.check(false).unwrap_err().contains("https"));
        assert_eq!(plain.check(true), Ok(()));
        for inside in [
            "https://127.0.0.1/x",
            "https://10.1.2.3/x",
            "https://localhost/x",
            "https://[::1]/x",
        ] {
            let e = subscription(inside, &point, &auth)
                .check(false)
                .unwrap_err();
            assert!(e.contains("public address"), "{inside}: {e}");
        }
        let short = subscription("https://push.example.org/abc", &point, "c2hvcnQ");
        assert!(short.check(false).unwrap_err().contains("16 bytes"));
        assert!(subscription("file:///etc/passwd", &point, &auth)
            .check(true)
            .is_err());
    }
}
