//! Accounts, optional: anonymous play by invite link stays. A user has a
//! name (unique whatever its case; its lowercase form is the user's id),
//! an argon2id password hash or none (a bot), and personal API tokens
//! with scopes for tools, stored as SHA-256 hashes like seat tokens and
//! revocable. `parity user add` and `parity token add` make them against
//! the server's database (`docs/protocol.md`, "Accounts and tokens").

pub mod events;
pub mod fair_play;
pub mod glicko;
pub mod preferences;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::base::refusal::Said;
use crate::base::secret;
use crate::game::event::now_ms;
use crate::store::{AccountChange, Change, Database, Store, StoreError, UserRow};

/// Names no account may take: chat calls an anonymous seat by its colour.
const RESERVED_NAMES: &[&str] = &["white", "black", "anonymous", "parity"];

/// The scopes a personal API token may have (lichess's names).
pub const SCOPES: &[&str] = &["board:play", "bot:play"];

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("a user name is 2 to 20 letters, digits, `-` or `_`, starting with a letter or digit")]
    BadName,
    #[error("the name {0} is taken")]
    NameTaken(String),
    #[error("no user is called {0}")]
    NoSuchUser(String),
    #[error("unknown scope {0:?} (known: {known})", known = SCOPES.join(", "))]
    BadScope(String),
    #[error("a password needs at least 8 characters")]
    ShortPassword,
    #[error("the name {0} is kept for the game's seats and the server")]
    Reserved(String),
    #[error("the name {0} reads like the player {1}'s")]
    LooksLike(String, String),
    #[error("hashing the password: {0}")]
    Hash(String),
    #[error("the server is busy checking passwords; try again in a moment")]
    Busy,
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl AccountError {
    /// The error in the catalogue's words (`base::i18n`).
    pub fn said(&self) -> Said {
        let said = Said::new;
        match self {
            AccountError::BadName => said("server-account-bad-name"),
            AccountError::NameTaken(name) => said("server-account-name-taken").with("name", name),
            AccountError::NoSuchUser(name) => {
                said("server-account-no-such-user").with("name", name)
            }
            AccountError::BadScope(scope) => said("server-account-bad-scope")
                .with("scope", format!("{scope:?}"))
                .with("known", SCOPES.join(", ")),
            AccountError::ShortPassword => said("server-account-short-password"),
            AccountError::Reserved(name) => said("server-account-reserved").with("name", name),
            AccountError::LooksLike(name, other) => said("server-account-looks-like")
                .with("name", name)
                .with("other", other),
            AccountError::Busy => said("server-account-busy"),
            AccountError::Hash(_) | AccountError::Store(_) => Said::as_is(self),
        }
    }
}

/// Lichess's rule for user names.
pub fn valid_name(name: &str) -> bool {
    (2..=20).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// How a name reads: letters that look alike in most fonts are one letter
/// (`I`, `l`, `1`; `O`, `0`; `rn` and `m`; `vv` and `w`), `-` and `_` none.
pub fn skeleton(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_ascii_lowercase().chars() {
        match c {
            'i' | '1' => out.push('l'),
            '0' => out.push('o'),
            '-' | '_' => {}
            c => out.push(c),
        }
    }
    out.replace("rn", "m").replace("vv", "w")
}

/// The id of the user called `name`.
pub fn user_id(name: &str) -> String {
    name.to_ascii_lowercase()
}

thread_local! {
    /// The memory of this thread's argon2 hashes (about 19 MiB), kept for
    /// the thread's life: hashing threads are few (see [`argon2_work`]), and
    /// the allocator does not give a freed hash's memory back on its own.
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Argon2 of `password` and `salt` into `out`, in this thread's memory.
fn argon2_into(
    algorithm: Algorithm,
    version: Version,
    params: Params,
    (password, salt): (&[u8], &[u8]),
    out: &mut [u8],
) -> Result<(), argon2::Error> {
    BLOCKS.with_borrow_mut(|blocks| {
        blocks.resize(params.block_count(), Block::default());
        Argon2::new(algorithm, version, params).hash_password_into_with_memory(
            password,
            salt,
            out,
            blocks.as_mut_slice(),
        )
    })
}

/// The argon2id PHC string of `password` with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, AccountError> {
    let failed = |e: &dyn std::fmt::Display| AccountError::Hash(e.to_string());
    let params = Params::default();
    let salt = argon2::password_hash::generate_salt();
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    let (algorithm, version) = (Algorithm::Argon2id, Version::V0x13);
    argon2_into(
        algorithm,
        version,
        params.clone(),
        (password.as_bytes(), &salt),
        &mut out,
    )
    .map_err(|e| failed(&e))?;
    let phc = PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: ParamsString::try_from(&params).map_err(|e| failed(&e))?,
        salt: Some(Salt::new(&salt).map_err(|e| failed(&e))?),
        hash: Some(Output::new(&out).map_err(|e| failed(&e))?),
    };
    Ok(phc.to_string())
}

/// Whether `password` is the one hashed in `phc` (compared in constant time).
pub fn password_matches(password: &str, phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    let algorithm = Algorithm::try_from(hash.algorithm.as_str());
    let version = hash
        .version
        .map_or(Ok(Version::default()), Version::try_from);
    let (Ok(algorithm), Ok(version), Ok(params)) = (algorithm, version, Params::try_from(&hash))
    else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    argon2_into(
        algorithm,
        version,
        params,
        (password.as_bytes(), salt.as_ref()),
        &mut out,
    )
    .is_ok()
        && Output::new(&out).is_ok_and(|computed| computed == *expected)
}

/// Whether `password` opens an account whose hash is `phc`. Without a
/// hash (no such user, or a bot without a password) it checks against a
/// stand-in hash of the same cost and answers no, so that the time of a
/// refusal does not tell whether the name exists.
pub fn login_matches(password: &str, phc: Option<&str>) -> bool {
    match phc {
        Some(phc) => password_matches(password, phc),
        None => {
            // The stand-in's password is a random token nobody knows.
            let _ = password_matches(password, stand_in_hash());
            false
        }
    }
}

/// How long a request waits for a hashing slot before it is told the
/// server is busy.
const HASH_WAIT: Duration = Duration::from_secs(10);

/// Runs argon2 work off the async threads, on a few threads of its own
/// (one per core, at most four). Each hash holds about 19 MiB: a crowd of
/// log-ins waits its turn instead of taking the memory together, and with
/// few threads the allocator keeps few arenas, each reusing one hash's
/// memory (on tokio's blocking pool every new thread kept its own).
pub async fn argon2_work<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AccountError> {
    let pool = Argon2Pool::get();
    let _slot = tokio::time::timeout(HASH_WAIT, pool.slots.acquire())
        .await
        .map_err(|_| AccountError::Busy)?
        .map_err(|e| AccountError::Hash(e.to_string()))?;
    let (done, result) = tokio::sync::oneshot::channel();
    pool.jobs
        .send(Box::new(move || {
            let _ = done.send(work());
        }))
        .map_err(|e| AccountError::Hash(e.to_string()))?;
    result.await.map_err(|e| AccountError::Hash(e.to_string()))
}

type Job = Box<dyn FnOnce() + Send>;

struct Argon2Pool {
    jobs: std::sync::mpsc::Sender<Job>,
    /// One per thread: a job is sent only with a slot, so none waits long.
    slots: Semaphore,
}

impl Argon2Pool {
    fn get() -> &'static Argon2Pool {
        static POOL: OnceLock<Argon2Pool> = OnceLock::new();
        POOL.get_or_init(|| {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
            let (jobs, queue) = std::sync::mpsc::channel::<Job>();
            let queue = std::sync::Arc::new(std::sync::Mutex::new(queue));
            for i in 0..threads {
                let queue = queue.clone();
                std::thread::Builder::new()
                    .name(format!("argon2-{i}"))
                    .spawn(move || loop {
                        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    })
                    .expect("an argon2 thread");
            }
            Argon2Pool {
                jobs,
                slots: Semaphore::new(threads),
            }
        })
    }
}

fn stand_in_hash() -> &'static str {
    static STAND_IN: OnceLock<String> = OnceLock::new();
    STAND_IN.get_or_init(|| hash_password(&secret::new_token()).unwrap_or_default())
}

/// Checks a comma-separated list of scopes, returning it without spaces.
pub fn parse_scopes(text: &str) -> Result<String, AccountError> {
    let scopes: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    match scopes.iter().find(|s| !SCOPES.contains(s)) {
        Some(bad) => Err(AccountError::BadScope(bad.to_string())),
        None if scopes.is_empty() => Err(AccountError::BadScope(String::new())),
        None => Ok(scopes.join(",")),
    }
}

/// Makes the user `name`: with a password to log in, or none for a bot.
pub async fn add_user(
    store: &Store,
    writer: &crate::store::Writer,
    name: &str,
    password: Option<&str>,
    bot: bool,
) -> Result<UserRow, AccountError> {
    if !valid_name(name) {
        return Err(AccountError::BadName);
    }
    if password.is_some_and(|p| p.chars().count() < 8) {
        return Err(AccountError::ShortPassword);
    }
    let id = user_id(name);
    // A chat line of an account so named would read as the seat's own.
    if RESERVED_NAMES.contains(&id.as_str()) {
        return Err(AccountError::Reserved(name.to_string()));
    }
    if store.user(&id).await?.is_some() {
        return Err(AccountError::NameTaken(name.to_string()));
    }
    let look = skeleton(&id);
    if let Some(other) = store
        .user_ids()
        .await?
        .into_iter()
        .find(|o| skeleton(o) == look)
    {
        return Err(AccountError::LooksLike(name.to_string(), other));
    }
    let password_hash = match password.map(str::to_string) {
        Some(password) => Some(argon2_work(move || hash_password(&password)).await??),
        None => None,
    };
    let row = UserRow {
        id,
        name: name.to_string(),
        password_hash,
        bot,
        created_ms: now_ms(),
    };
    let change = AccountChange::NewUser {
        id: row.id.clone(),
        name: row.name.clone(),
        password_hash: row.password_hash.clone(),
        bot: row.bot,
        created_ms: row.created_ms,
    };
    // Two sign-ups of one name at once: the second fails on the key.
    writer
        .write(vec![Change::Account(change)])
        .await
        .map_err(|_| AccountError::NameTaken(name.to_string()))?;
    Ok(row)
}

/// Makes a personal API token of the user `name` with `scopes`
/// (comma-separated); returns the token, which is stored only hashed.
pub async fn add_token(
    store: &Store,
    writer: &crate::store::Writer,
    name: &str,
    scopes: &str,
) -> Result<String, AccountError> {
    let scopes = parse_scopes(scopes)?;
    let user = store
        .user(&user_id(name))
        .await?
        .ok_or_else(|| AccountError::NoSuchUser(name.to_string()))?;
    let token = format!("pat_{}", secret::new_token());
    writer
        .write(vec![Change::Account(AccountChange::NewApiToken {
            token_hash: secret::token_hash(&token),
            user_id: user.id,
            scopes,
            created_ms: now_ms(),
        })])
        .await?;
    Ok(token)
}

/// Revokes a personal API token: it stops working at once.
pub async fn revoke_token(writer: &crate::store::Writer, token: &str) -> Result<(), AccountError> {
    let token_hash = secret::token_hash(token);
    writer
        .write(vec![Change::Account(AccountChange::RevokeApiToken {
            token_hash,
        })])
        .await?;
    Ok(())
}

/// The operator's commands (`parity user add`, `parity token add`): open
/// the server's database (a running server may share it) and run `work`.
pub fn offline<T>(
    db: &Database,
    work: impl AsyncFnOnce(&Store, &crate::store::Writer) -> Result<T, AccountError>,
) -> Result<T, AccountError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| AccountError::Store(StoreError::Corrupt(e.to_string())))?;
    runtime.block_on(async {
        let (store, writer) = Store::open(db).await?;
        work(&store, &writer).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_log_in_costs_what_a_real_one_does() {
        // The stand-in hash has the parameters of a real one: the same work.
        let params = |phc: &str| phc.split('$').nth(3).unwrap_or_default().to_string();
        let real = hash_password("any password").unwrap();
        assert!(!login_matches("any password", None));
        assert_eq!(params(stand_in_hash()), params(&real));
        assert!(params(&real).starts_with("m="), "{real}");
    }

    #[test]
    fn passwords_are_argon2id_and_checked() {
        let phc = hash_password("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert!(!phc.contains("correct horse"));
        assert!(password_matches("correct horse", &phc));
        assert!(!password_matches("correct hose", &phc));
        assert!(login_matches("correct horse", Some(&phc)));
        assert!(!login_matches("correct horse", None));
        assert_ne!(phc, hash_password("correct horse").unwrap(), "salted");
        // Hashes stored by earlier releases (argon2's own hasher) still open,
        // and ours read as argon2's.
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let theirs = Argon2::default()
            .hash_password(b"correct horse")
            .unwrap()
            .to_string();
        assert!(password_matches("correct horse", &theirs));
        assert!(!password_matches("correct hose", &theirs));
        let ours = PasswordHash::new(&phc).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &ours)
            .is_ok());
        assert!(!password_matches("correct horse", "$argon2id$v=19$garbled"));
    }

    #[test]
    fn look_alike_names_read_the_same() {
        for twin in ["aIice", "AL1CE", "a_lice", "alice"] {
            assert_eq!(skeleton(twin), skeleton("alice"), "{twin}");
        }
        assert_eq!(skeleton("modern"), skeleton("rnodern"));
        assert_eq!(skeleton("w0w"), skeleton("vvow"));
        assert_ne!(skeleton("alicia"), skeleton("alice"));
        assert_ne!(skeleton("bob2"), skeleton("bob"));
    }

    #[test]
    fn names_and_scopes() {
        assert!(valid_name("Bob_2") && valid_name("ab"));
        assert!(!valid_name("a") && !valid_name("-bob") && !valid_name("bob smith"));
        assert_eq!(user_id("BoB"), "bob");
        assert_eq!(
            parse_scopes("bot:play, board:play").unwrap(),
            "bot:play,board:play"
        );
        assert!(parse_scopes("email:read").is_err());
        assert!(parse_scopes("").is_err());
    }
}
