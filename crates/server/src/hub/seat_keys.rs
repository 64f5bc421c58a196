//! The server's key: it signs the records the server gives out, and an
//! account's seat token is derived from it, the account, the game and the
//! colour. Such a token is never stored (the seat keeps its hash, like any
//! seat token's), so whatever proves the account (a personal API token, a
//! log-in session) opens its seats from any client.

use parity_rules::Color;
use sha2::{Digest, Sha256};

use crate::base::secret;
use crate::round::msg::{Credentials, Presented};

pub struct SeatKeys {
    record_key: ed25519_dalek::SigningKey,
}

impl SeatKeys {
    pub fn new(record_key: ed25519_dalek::SigningKey) -> SeatKeys {
        SeatKeys { record_key }
    }

    /// Signs the records the server gives out.
    pub fn record_key(&self) -> &ed25519_dalek::SigningKey {
        &self.record_key
    }

    /// The key that checks the server's signed records.
    pub fn public_key(&self) -> ed25519_dalek::VerifyingKey {
        self.record_key.verifying_key()
    }

    /// The seat token of `user_id` for `color` in `game`.
    pub fn account_seat_token(&self, user_id: &str, game: &str, color: Color) -> String {
        let digest = Sha256::new()
            .chain_update(b"parity-account-seat\n")
            .chain_update(self.record_key.to_bytes())
            .chain_update(format!("{user_id}\n{game}\n{}", color.name()))
            .finalize();
        format!("acct_{}", hex::encode(digest))
    }

    /// What an account presents in `game`: its seat tokens of both colours
    /// (it holds one seat, or both, or none).
    pub fn account_credentials(&self, user_id: &str, game: &str) -> Credentials {
        let tokens = Color::ALL
            .into_iter()
            .map(|color| {
                let token = self.account_seat_token(user_id, game, color);
                Presented {
                    hash: secret::token_hash(&token),
                    token,
                    other_cookie: false,
                }
            })
            .collect();
        Credentials {
            tokens,
            bearer: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_token_is_the_accounts_the_games_and_the_colours_alone() {
        let keys = SeatKeys::new(ed25519_dalek::SigningKey::from_bytes(&[7; 32]));
        let other_key = SeatKeys::new(ed25519_dalek::SigningKey::from_bytes(&[8; 32]));
        let token = keys.account_seat_token("u1", "g1", Color::White);
        assert_eq!(token, keys.account_seat_token("u1", "g1", Color::White));
        for different in [
            keys.account_seat_token("u2", "g1", Color::White),
            keys.account_seat_token("u1", "g2", Color::White),
            keys.account_seat_token("u1", "g1", Color::Black),
            other_key.account_seat_token("u1", "g1", Color::White),
        ] {
            assert_ne!(token, different);
        }
        let credentials = keys.account_credentials("u1", "g1");
        assert!(credentials.tokens.iter().any(|p| p.token == token));
    }
}
