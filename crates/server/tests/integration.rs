//! The server's integration tests, one module per subject, in one test
//! binary: each binary links the whole server and its clients, so
//! separate binaries cost minutes of build time. `sessions` and
//! `monitoring` stay apart: one captures the process's whole log, the
//! other counts the process's moves in its metrics.

mod common;

#[path = "accounts.rs"]
mod accounts;
#[path = "analysis.rs"]
mod analysis;
#[path = "bad_requests.rs"]
mod bad_requests;
#[path = "browser.rs"]
mod browser;
#[path = "browser_accessibility.rs"]
mod browser_accessibility;
#[path = "browser_accounts.rs"]
mod browser_accounts;
#[path = "browser_analysis.rs"]
mod browser_analysis;
#[path = "browser_languages.rs"]
mod browser_languages;
#[path = "browser_lobby.rs"]
mod browser_lobby;
#[path = "browser_newcomer.rs"]
mod browser_newcomer;
#[path = "browser_play.rs"]
mod browser_play;
#[path = "browser_settings.rs"]
mod browser_settings;
#[path = "browser_tournaments.rs"]
mod browser_tournaments;
#[path = "engine_seats.rs"]
mod engine_seats;
#[path = "game_analysis.rs"]
mod game_analysis;
#[path = "games.rs"]
mod games;
#[path = "layers.rs"]
mod layers;
#[path = "legacy_db.rs"]
mod legacy_db;
#[path = "lobby_api.rs"]
mod lobby_api;
#[path = "notifications.rs"]
mod notifications;
#[path = "release_db.rs"]
mod release_db;
#[path = "restarts.rs"]
mod restarts;
#[path = "shutdown.rs"]
mod shutdown;
#[path = "signed_records.rs"]
mod signed_records;
#[path = "tournaments.rs"]
mod tournaments;
