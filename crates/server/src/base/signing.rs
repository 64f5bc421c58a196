//! Signed records (`docs/server.md`, "Signed records"): the server's
//! Ed25519 key, kept in a file beside the database, and the exact bytes a
//! record's signature is over.
//!
//! The signed bytes are the record without its `signature` member in a
//! canonical JSON form, so a record still verifies after it was
//! re-indented or its members reordered, and every member, known to this
//! version or not, is covered.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use rand::RngExt as _;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Put before the canonical record, so a signature over a record can never
/// be taken for one over anything else.
pub const DOMAIN: &[u8] = b"parity-record-v1\n";

/// The record's member that holds its signature.
pub const MEMBER: &str = "signature";

/// A record's `signature` member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordSignature {
    /// The signer's public key: 32 bytes, lowercase hex.
    pub key: String,
    /// The Ed25519 signature of [`signed_bytes`]: 64 bytes, lowercase hex.
    pub sig: String,
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a signing key (64 hex characters): {message}")]
    Malformed { path: PathBuf, message: String },
}

/// The server's key file for the database `db`: `DB.key`.
pub fn key_file(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".key");
    PathBuf::from(name)
}

/// A new random key seed.
pub fn fresh_seed() -> [u8; 32] {
    rand::rng().random()
}

/// The signing key kept in `path`, made (mode 0600) if there is none yet.
pub fn load_or_create(path: &Path) -> Result<SigningKey, KeyError> {
    let io = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::read_to_string(path) {
        Ok(text) => {
            warn_if_readable_by_others(path);
            let seed = decode_hex::<32>(text.trim()).map_err(|message| KeyError::Malformed {
                path: path.to_path_buf(),
                message,
            })?;
            Ok(SigningKey::from_bytes(&seed))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let seed = fresh_seed();
            let mut file = new_private_file(path).map_err(io)?;
            file.write_all(format!("{}\n", hex::encode(seed)).as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(io)?;
            Ok(SigningKey::from_bytes(&seed))
        }
        Err(e) => Err(io(e)),
    }
}

#[cfg(unix)]
pub(crate) fn new_private_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
pub(crate) fn new_private_file(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

#[cfg(unix)]
fn warn_if_readable_by_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    if let Ok(meta) = std::fs::metadata(path) {
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(
                "the signing key {} has mode {mode:o}: others may read it (chmod 600)",
                path.display()
            );
        }
    }
}

#[cfg(not(unix))]
fn warn_if_readable_by_others(_: &Path) {}

fn decode_hex<const N: usize>(text: &str) -> Result<[u8; N], String> {
    let bytes = hex::decode(text).map_err(|e| e.to_string())?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("{} bytes, not {N}", b.len()))
}

/// A public key as the server shows it: 64 lowercase hex characters.
pub fn key_text(key: &VerifyingKey) -> String {
    hex::encode(key.as_bytes())
}

/// Reads a public key written by [`key_text`].
pub fn parse_key(text: &str) -> Result<VerifyingKey, String> {
    let bytes = decode_hex::<32>(text.trim())
        .map_err(|e| format!("a public key is 64 hex characters ({e})"))?;
    VerifyingKey::from_bytes(&bytes).map_err(|_| "not an Ed25519 public key".to_string())
}

/// Reads JSON as [`Value`], refusing an object with a key twice: a
/// duplicate could be read one way by the verifier and another way by
/// whatever reads the record next, with the signature over neither.
pub fn parse_json(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let Strict(value) = map.next_value()?;
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key `{key}` twice in an object"
                )));
            }
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// `value` as canonical JSON: no whitespace, object members sorted by
/// key (bytewise), strings and numbers as serde_json writes them.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(members) => {
            let mut members: Vec<(&String, &Value)> = members.iter().collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, member)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(member, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// What a record's signature is over: [`DOMAIN`], then the record (a JSON
/// object) without its `signature` member, as [`canonical`] JSON.
pub fn signed_bytes(record: &Map<String, Value>) -> Vec<u8> {
    let mut unsigned = record.clone();
    unsigned.remove(MEMBER);
    let mut bytes = DOMAIN.to_vec();
    bytes.extend_from_slice(canonical(&Value::Object(unsigned)).as_bytes());
    bytes
}

/// An unsigned record's JSON (an object written by the server) with its
/// `signature` added as the last member; the rest stays as written.
pub fn sign_record(key: &SigningKey, unsigned: &str) -> Result<String, String> {
    let value = parse_json(unsigned).map_err(|e| e.to_string())?;
    let (Value::Object(record), Some(body)) = (value, unsigned.trim_end().strip_suffix('}')) else {
        return Err("a record is a JSON object".into());
    };
    let signature = RecordSignature {
        key: key_text(&key.verifying_key()),
        sig: hex::encode(key.sign(&signed_bytes(&record)).to_bytes()),
    };
    let signature = serde_json::to_string(&signature).map_err(|e| e.to_string())?;
    let separator = if record.is_empty() { "" } else { "," };
    Ok(format!("{body}{separator}\"{MEMBER}\":{signature}}}"))
}

/// Why a record's signature does not hold.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("the signature is malformed: {0}")]
    Malformed(String),
    #[error("the record is signed by the key {signer}, not by the given key {given}")]
    OtherKey { signer: String, given: String },
    #[error("the signature does not match the record: it was changed after the server signed it")]
    Mismatch,
}

/// Checks `record`'s signature; `given` is the key it must be by, if known.
/// Returns the key that signed it.
pub fn check(
    record: &Map<String, Value>,
    signature: &RecordSignature,
    given: Option<&VerifyingKey>,
) -> Result<VerifyingKey, SignatureError> {
    let signer = parse_key(&signature.key).map_err(SignatureError::Malformed)?;
    if let Some(given) = given {
        if given != &signer {
            return Err(SignatureError::OtherKey {
                signer: signature.key.clone(),
                given: key_text(given),
            });
        }
    }
    let sig = decode_hex::<64>(&signature.sig)
        .map_err(|e| SignatureError::Malformed(format!("`sig` is 128 hex characters ({e})")))?;
    signer
        .verify_strict(&signed_bytes(record), &Signature::from_bytes(&sig))
        .map_err(|_| SignatureError::Mismatch)?;
    Ok(signer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(text: &str) -> Map<String, Value> {
        match parse_json(text).unwrap() {
            Value::Object(m) => m,
            other => panic!("{other}"),
        }
    }

    #[test]
    fn canonical_json_sorts_members_and_drops_whitespace() {
        let value = parse_json(r#"{ "b": [1, {"z": null, "a": "é\n\"x\""}], "a": -3, "c": true }"#)
            .unwrap();
        assert_eq!(
            canonical(&value),
            r#"{"a":-3,"b":[1,{"a":"é\n\"x\"","z":null}],"c":true}"#
        );
    }

    #[test]
    fn a_key_twice_is_refused() {
        let e = parse_json(r#"{"events": [{"result": "1-0", "result": "0-1"}]}"#).unwrap_err();
        assert!(e.to_string().contains("`result` twice"), "{e}");
    }

    #[test]
    fn a_signed_record_checks_until_anything_in_it_changes() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let unsigned = r#"{"id":"a1B2c3D4e5","variant":"parity","fen":"x","events":[{"type":"joined","color":"white","seq":1,"at":5}]}"#;
        let signed = sign_record(&key, unsigned).unwrap();
        assert!(signed.starts_with(&unsigned[..unsigned.len() - 1]));
        let record = object(&signed);
        let signature: RecordSignature = serde_json::from_value(record[MEMBER].clone()).unwrap();
        assert_eq!(signature.key, key_text(&key.verifying_key()));
        let public = key.verifying_key();
        assert_eq!(check(&record, &signature, Some(&public)), Ok(public));
        assert_eq!(check(&record, &signature, None), Ok(public));

        // Reformatted (pretty, members in another order): still the same record.
        let pretty = serde_json::to_string_pretty(&record).unwrap();
        assert_eq!(
            check(&object(&pretty), &signature, Some(&public)),
            Ok(public)
        );

        let mut changed = record.clone();
        changed["events"][0]["color"] = "black".into();
        assert_eq!(
            check(&changed, &signature, Some(&public)),
            Err(SignatureError::Mismatch)
        );
        let mut added = record.clone();
        added.insert("note".into(), "hi".into());
        assert_eq!(
            check(&added, &signature, None),
            Err(SignatureError::Mismatch)
        );

        let other = SigningKey::from_bytes(&[8; 32]).verifying_key();
        assert!(matches!(
            check(&record, &signature, Some(&other)),
            Err(SignatureError::OtherKey { .. })
        ));
        let bad = RecordSignature {
            sig: "00".repeat(63),
            ..signature
        };
        assert!(matches!(
            check(&record, &bad, None),
            Err(SignatureError::Malformed(_))
        ));
    }

    #[test]
    fn the_key_is_made_once_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = key_file(&dir.path().join("games.sqlite"));
        assert!(path.ends_with("games.sqlite.key"));
        let made = load_or_create(&path).unwrap();
        let again = load_or_create(&path).unwrap();
        assert_eq!(made.to_bytes(), again.to_bytes());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let text = key_text(&made.verifying_key());
        assert_eq!(parse_key(&text), Ok(made.verifying_key()));
        assert!(parse_key("abc").is_err());
        std::fs::write(&path, "not hex\n").unwrap();
        assert!(matches!(
            load_or_create(&path),
            Err(KeyError::Malformed { .. })
        ));
    }
}
