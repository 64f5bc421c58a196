//! `parity backup`: a consistent copy of a live SQLite database, taken
//! with SQLite's online backup API while the server goes on writing, and
//! the signing key beside it (docs/deploy.md, "Backups").

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::base::signing::{key_file, new_private_file};

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0}: no such database")]
    NoDatabase(PathBuf),
    #[error("{0} exists; a backup never overwrites a file")]
    Exists(PathBuf),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the copy fails SQLite's integrity check: {0}")]
    Damaged(String),
}

/// What a backup holds.
#[derive(Debug, PartialEq, Eq)]
pub struct BackupSummary {
    pub games: u64,
    pub events: u64,
    pub bytes: u64,
    /// The copy of the signing key, when the database has one beside it.
    pub key: Option<PathBuf>,
}

/// Copies the database `db` to `out` as of one moment, and its key file
/// (`DB.key`) to `OUT.key`. The copy is written under a temporary name,
/// checked, synced and then renamed, so `out` is whole or absent.
pub fn backup_sqlite(db: &Path, out: &Path) -> Result<BackupSummary, BackupError> {
    if !db.is_file() {
        return Err(BackupError::NoDatabase(db.to_path_buf()));
    }
    let key_out = key_file(out);
    for path in [out, &key_out] {
        if path.exists() {
            return Err(BackupError::Exists(path.to_path_buf()));
        }
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BackupError::Io { path, source }
    };
    let partial = PathBuf::from(format!("{}.partial", out.display()));
    let _ = std::fs::remove_file(&partial);
    // Without CREATE: a mistyped path is an error, not a new empty database.
    let source = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    source.busy_timeout(Duration::from_secs(10))?;
    {
        let mut copy = Connection::open(&partial)?;
        // All pages in one step: one read transaction, so one moment even
        // while the server commits (WAL readers do not block the writer).
        {
            let backup = rusqlite::backup::Backup::new(&source, &mut copy)?;
            // Busy or locked: the writer holds a lock for a moment.
            while backup.step(-1)? != rusqlite::backup::StepResult::Done {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let check: String = copy.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        if check != "ok" {
            return Err(BackupError::Damaged(check));
        }
    }
    std::fs::File::open(&partial)
        .and_then(|f| f.sync_all())
        .map_err(io(&partial))?;
    let key = copy_key(db, &key_out)?;
    std::fs::rename(&partial, out).map_err(io(out))?;
    let copy = Connection::open_with_flags(out, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let count = |table: &str| -> Result<u64, BackupError> {
        let n: i64 = copy.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?;
        Ok(n.unsigned_abs())
    };
    Ok(BackupSummary {
        games: count("games")?,
        events: count("events")?,
        bytes: std::fs::metadata(out).map_err(io(out))?.len(),
        key,
    })
}

/// Copies `DB.key` to `key_out` (mode 0600), if there is one.
fn copy_key(db: &Path, key_out: &Path) -> Result<Option<PathBuf>, BackupError> {
    let key_in = key_file(db);
    let text = match std::fs::read(&key_in) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(BackupError::Io {
                path: key_in,
                source,
            })
        }
    };
    new_private_file(key_out)
        .and_then(|mut f| f.write_all(&text).and_then(|()| f.sync_all()))
        .map_err(|source| BackupError::Io {
            path: key_out.to_path_buf(),
            source,
        })?;
    Ok(Some(key_out.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backup_copies_the_rows_and_the_key_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.sqlite");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode=WAL; CREATE TABLE games (id TEXT); CREATE TABLE events (n INTEGER);
             INSERT INTO games VALUES ('g'); INSERT INTO events VALUES (1), (2);",
        )
        .unwrap();
        std::fs::write(key_file(&db), "ab\n").unwrap();
        let out = dir.path().join("copy.sqlite");
        let summary = backup_sqlite(&db, &out).unwrap();
        assert_eq!((summary.games, summary.events), (1, 2));
        assert_eq!(summary.key, Some(key_file(&out)));
        assert_eq!(std::fs::read_to_string(key_file(&out)).unwrap(), "ab\n");
        assert!(matches!(
            backup_sqlite(&db, &out),
            Err(BackupError::Exists(_))
        ));
        assert!(matches!(
            backup_sqlite(&dir.path().join("none.sqlite"), &dir.path().join("x")),
            Err(BackupError::NoDatabase(_))
        ));
    }
}
