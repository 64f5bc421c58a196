//! `parity user add` and `parity token add`: accounts made by the operator
//! against the server's database, so scripts can set up bots without a browser.

use std::io::{self, BufRead, Write};

use clap::{Args, Subcommand};
use parity_server::accounts;
use parity_server::Database;

#[derive(Subcommand)]
pub enum UserAction {
    /// Make a user; the password is read from standard input (its first
    /// line), or none with --bot (a bot logs in only with tokens).
    Add {
        name: String,
        /// A bot account (title BOT), without a password.
        #[arg(long)]
        bot: bool,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
pub enum TokenAction {
    /// Make a personal API token of a user; prints it alone on the last line.
    Add {
        name: String,
        /// Its scopes, comma-separated: board:play, bot:play.
        #[arg(long, default_value = "board:play")]
        scope: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Args)]
pub struct DbArg {
    /// The server's database: a SQLite file or a postgres:// URL.
    #[arg(long, value_parser = |s: &str| Ok::<_, String>(Database::parse(s)))]
    db: Database,
}

pub fn user(out: &mut impl Write, action: UserAction) -> Result<(), String> {
    let UserAction::Add { name, bot, db } = action;
    let password = if bot {
        None
    } else {
        let mut line = String::new();
        io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("reading the password: {e}"))?;
        Some(line.trim_end_matches(['\r', '\n']).to_string())
    };
    let user = accounts::offline(&db.db, async |store, writer| {
        accounts::add_user(store, writer, &name, password.as_deref(), bot).await
    })
    .map_err(|e| e.to_string())?;
    let kind = if user.bot { "bot" } else { "user" };
    writeln!(out, "{kind} {} added", user.name).map_err(|e| e.to_string())
}

pub fn token(out: &mut impl Write, action: TokenAction) -> Result<(), String> {
    let TokenAction::Add { name, scope, db } = action;
    let token = accounts::offline(&db.db, async |store, writer| {
        accounts::add_token(store, writer, &name, &scope).await
    })
    .map_err(|e| e.to_string())?;
    writeln!(out, "token of {name} with scopes {scope}:\n{token}").map_err(|e| e.to_string())
}
