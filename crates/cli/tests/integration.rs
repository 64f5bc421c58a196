//! The command line's integration tests, one module per subject, in one
//! test binary: separate binaries each link the whole program and its
//! clients again, which costs minutes of build time.

mod common;

#[path = "accounts_cli.rs"]
mod accounts_cli;
#[path = "attacks.rs"]
mod attacks;
#[path = "backup_cli.rs"]
mod backup_cli;
#[path = "berserk.rs"]
mod berserk;
#[path = "bot.rs"]
mod bot;
#[path = "cli.rs"]
mod cli;
#[path = "cluster.rs"]
mod cluster;
#[path = "match_cli.rs"]
mod match_cli;
#[path = "metrics.rs"]
mod metrics;
#[path = "postgres_tls.rs"]
mod postgres_tls;
#[path = "proxies.rs"]
mod proxies;
#[path = "python_chess.rs"]
mod python_chess;
#[path = "serve_cli.rs"]
mod serve_cli;
#[path = "solve_cli.rs"]
mod solve_cli;
#[path = "study_cli.rs"]
mod study_cli;
#[path = "tournament_cluster.rs"]
mod tournament_cluster;
#[path = "tournaments.rs"]
mod tournaments;
#[path = "train_cli.rs"]
mod train_cli;
#[path = "tune_cli.rs"]
mod tune_cli;
