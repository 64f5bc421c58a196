//! `parity bot`: our engine as a bot account on a server (ours, or one
//! that speaks lichess's Bot API), accepting challenges and playing them.

use clap::Args;
use parity_rules::Registry;
use parity_server::bot::{self, BotConfig};

#[derive(Args)]
pub struct BotArgs {
    /// The server's base URL, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// A personal API token of a bot account, scope bot:play
    /// (`parity token add NAME --scope bot:play --db DB`).
    #[arg(long)]
    token: String,
    /// Engine level, 1 (weakest) to 8 (docs/server.md, "Engine levels").
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=8))]
    level: u8,
    /// Games played at once; further challenges are declined.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop after this many games have ended (default: run until stopped).
    #[arg(long)]
    games: Option<usize>,
    /// Trust this CA (PEM) for an https server, beside the system's roots.
    #[arg(long, value_name = "FILE")]
    ca_file: Option<std::path::PathBuf>,
    /// Join this tournament (an arena's or a Swiss event's id) at the
    /// start and play its games; may be given more than once.
    #[arg(long = "tournament", value_name = "ID")]
    tournaments: Vec<String>,
}

pub fn run(registry: Registry, args: BotArgs) -> Result<(), String> {
    crate::serve_cmd::log_to_stderr();
    let config = BotConfig {
        server: args.server,
        token: args.token,
        level: args.level,
        concurrency: args.concurrency,
        games: args.games,
        ca_file: args.ca_file,
        tournaments: args.tournaments,
    };
    bot::run_blocking(config, registry).map_err(|e| format!("bot: {}", with_causes(&e)))
}

/// An error and its causes, `: `-joined (reqwest's own message alone
/// would hide a refused certificate).
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(&format!(": {e}"));
        cause = e.source();
    }
    text
}
