//! Random identifiers and secrets, and the commitment formula of
//! simultaneous turns (`docs/server.md`, "Simultaneous turns").

use base64::Engine as _;
use parity_rules::Color;
use rand::RngExt as _;
use sha2::{Digest, Sha256};

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
pub const GAME_ID_LEN: usize = 10;

/// A new game id: 10 random base62 characters.
pub fn new_game_id() -> String {
    base62(GAME_ID_LEN)
}

/// A new tournament id: 8 random base62 characters, as lichess's.
pub fn new_tournament_id() -> String {
    base62(8)
}

fn base62(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| char::from(BASE62[rng.random_range(0..BASE62.len())]))
        .collect()
}

/// Whether `text` could be a game id (so anything else is a 404 at once).
pub fn is_game_id(text: &str) -> bool {
    text.len() == GAME_ID_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A seat or invite token: 32 random bytes, base64url without padding (43 characters).
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database keeps of a token: its SHA-256, lowercase hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A nonce as the page draws it: 16 random bytes as 32 lowercase hex characters.
pub fn new_nonce() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    hex::encode(bytes)
}

fn is_lower_hex(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// 32 lowercase hex characters.
pub fn is_nonce(text: &str) -> bool {
    is_lower_hex(text, 32)
}

/// 64 lowercase hex characters (a SHA-256).
pub fn is_commitment(text: &str) -> bool {
    is_lower_hex(text, 64)
}

/// The commitment to a move: lowercase hex SHA-256 of `GAMEID:TURN:SIDE:MOVE:NONCE`.
pub fn commitment(game_id: &str, turn: u32, side: Color, mv: &str, nonce: &str) -> String {
    let text = format!("{game_id}:{turn}:{}:{mv}:{nonce}", side.name());
    hex::encode(Sha256::digest(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_is_the_sha256_of_the_documented_string() {
        // echo -n 'a1B2c3D4e5:5:white:e2e4:000102030405060708090a0b0c0d0e0f' | sha256sum
        assert_eq!(
            commitment(
                "a1B2c3D4e5",
                5,
                Color::White,
                "e2e4",
                "000102030405060708090a0b0c0d0e0f"
            ),
            "c34aa722597f1cee327774bc0ad47b6a670f8f35f9dc422f5032903456cbfd14"
        );
    }

    #[test]
    fn ids_tokens_and_nonces_have_their_shapes() {
        let id = new_game_id();
        assert!(is_game_id(&id), "{id}");
        assert_ne!(id, new_game_id());
        let token = new_token();
        assert_eq!(token.len(), 43);
        assert!(token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert!(is_commitment(&token_hash(&token)));
        assert!(is_nonce(&new_nonce()));
        assert!(!is_nonce("0F1E2D3C4B5A69788796A5B4C3D2E1F0"));
        assert!(!is_game_id("abc/def123"));
    }
}
