//! `parity serve`: the game server, with a flag for every limit
//! (docs/server.md, "Limits").

use std::io::{self, Write};
use std::num::NonZeroU32;
use std::time::Duration;

use clap::Args;
use parity_rules::Registry;
use parity_server::base::limits::{Config, Limits};
use parity_server::base::mail::MailConfig;
use parity_server::base::metrics::MetricsToken;
use parity_server::store::Grouping;
use parity_server::Database;

fn parse_database(text: &str) -> Result<Database, String> {
    let db = Database::parse(text);
    if let Database::Postgres(url) = &db {
        parity_server::store::check_postgres_url(url).map_err(|e| e.to_string())?;
    }
    Ok(db)
}

#[derive(Args)]
pub struct ServeArgs {
    /// The database: a SQLite file (created and migrated on first run) or
    /// a PostgreSQL URL, `postgres://USER@HOST/DB` (the database must
    /// exist; its tables are made on first run). TLS as libpq's:
    /// `?sslmode=verify-full&sslrootcert=CA.pem` (docs/deploy.md).
    #[arg(long, default_value = "parity.sqlite", value_parser = parse_database)]
    db: Database,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Mark seat cookies `Secure`: the server is reached over https.
    #[arg(long)]
    secure_cookies: bool,
    /// A reverse proxy in front (an address or a network, e.g. 127.0.0.1
    /// or 10.0.0.0/8; repeat or separate with commas): from it, trust
    /// X-Forwarded-Proto (https makes cookies Secure), X-Forwarded-For (the
    /// client's address for the rate limits) and X-Forwarded-Host (the
    /// origin's host). Other peers' forwarded headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR|NET", value_delimiter = ',',
          value_parser = parity_server::base::limits::parse_proxy)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// With a PostgreSQL database, every `parity serve` on it is a node of
    /// one cluster: any node serves any game, a game is played by the one
    /// node holding its lease, a killed node's games are taken over by
    /// another within 1 s (docs/server.md, "Several nodes"). This is
    /// where the other nodes reach this one (default: http://ADDR, with
    /// 127.0.0.1 for 0.0.0.0).
    #[arg(long, value_name = "URL")]
    node_url: Option<String>,
    /// Serve `GET /metrics` (Prometheus's text format) to requests with
    /// `Authorization: Bearer TOKEN`; without a token it is a 404
    /// (docs/server.md, "Monitoring").
    #[arg(
        long,
        value_name = "TOKEN",
        env = "PARITY_METRICS_TOKEN",
        hide_env_values = true
    )]
    metrics_token: Option<String>,
    /// Mail notifications through this SMTP server (`smtp://host:port`
    /// plain, `smtps://host` or `smtp://host?tls=required` with TLS, user
    /// and password in the URL); without it no mail is sent.
    #[arg(long, value_name = "URL", env = "PARITY_SMTP", hide_env_values = true)]
    smtp: Option<String>,
    /// The sender of notification mails.
    #[arg(
        long,
        value_name = "ADDRESS",
        default_value = "Parity <parity@localhost>"
    )]
    mail_from: String,
    /// Seconds a player's notifications are gathered into one mail.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    mail_batch_secs: f64,
    /// Microseconds a busy database writer waits for more moves before a
    /// commit, so one flush to disk serves them all (0: write each at once).
    #[arg(long, value_name = "MICROS", default_value_t = Grouping::SERVE_DEFAULT.as_micros() as u64)]
    commit_delay_us: u64,
    /// The server's address as players reach it, for the links in mails
    /// (default: http://ADDR).
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    #[command(flatten)]
    limits: LimitFlags,
}

#[derive(Args)]
#[command(next_help_heading = "Limits")]
struct LimitFlags {
    /// Largest request body, in bytes (413 beyond).
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_body_bytes)]
    max_body_bytes: usize,
    /// Longest request path and query, in bytes (414 beyond).
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_uri_bytes)]
    max_uri_bytes: usize,
    /// Largest WebSocket message or frame, in bytes (the socket is closed beyond).
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_ws_message_bytes)]
    max_ws_message_bytes: usize,
    /// Seconds to send a request's head; also how long an idle
    /// keep-alive connection stays open.
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().header_timeout.as_secs())]
    header_timeout: u64,
    /// Seconds to send a request's body and be answered (408 beyond).
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().request_timeout.as_secs())]
    request_timeout: u64,
    /// Open connections in all (more are closed at once).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Open connections from one IP address (more are closed at once).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_connections_per_ip)]
    max_connections_per_ip: usize,
    /// Spectators' streams and WebSockets on one game (503 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_watchers_per_game)]
    max_watchers_per_game: usize,
    /// Games against a friend one IP address may create per minute (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_per_minute)]
    games_per_minute: NonZeroU32,
    /// Games against the engine one IP address may create per minute (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().engine_games_per_minute)]
    engine_games_per_minute: NonZeroU32,
    /// Refused tokens and invites one IP address may present per minute (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().auth_failures_per_minute)]
    auth_failures_per_minute: NonZeroU32,
    /// Accounts one IP address may sign up per minute (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().signups_per_minute)]
    signups_per_minute: NonZeroU32,
    /// Log-in attempts per minute from one IP address, and for one account (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().logins_per_minute)]
    logins_per_minute: NonZeroU32,
    /// Chat lines one account (or one seat's address) may post per minute (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().chat_lines_per_minute)]
    chat_lines_per_minute: NonZeroU32,
    /// Tournaments and teams one account may create per hour (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().tournaments_per_hour)]
    tournaments_per_hour: NonZeroU32,
    /// Lines kept in one game's chat; more are refused (409).
    #[arg(long, value_name = "N", default_value_t = Limits::default().chat_lines_per_game)]
    chat_lines_per_game: usize,
    /// Days a log-in session lasts; then the page asks for the password again.
    #[arg(long, value_name = "DAYS", default_value_t = Limits::default().session_lifetime.as_secs() / 86_400)]
    session_days: u64,
    /// Days a log-in session may go unused before it ends.
    #[arg(long, value_name = "DAYS", default_value_t = Limits::default().session_idle.as_secs() / 86_400)]
    session_idle_days: u64,
    /// Rated games the same two accounts may begin in 24 hours (fair play).
    #[arg(long, value_name = "N", default_value_t = Limits::default().rated_games_per_pair_per_day)]
    rated_games_per_pair_per_day: u32,
    /// Seat actions one IP address may send per second (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().actions_per_second)]
    actions_per_second: NonZeroU32,
    /// Seconds a game waits for its invited friend before it is aborted.
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().waiting_expiry.as_secs())]
    waiting_expiry: u64,
    /// Seconds a challenge waits for an answer before it is canceled.
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().challenge_expiry.as_secs())]
    challenge_expiry: u64,
    /// Engine searches running or queued at most; new engine games are
    /// refused (503) while the queue is full.
    #[arg(long, value_name = "N", default_value_t = Limits::default().engine_queue)]
    engine_queue: usize,
    /// Engine searches that run at once (the default: one per core).
    #[arg(long, value_name = "N", default_value_t = Limits::default().engine_threads)]
    engine_threads: usize,
    /// Analyses (`POST /api/analysis`) one IP address may ask for per minute (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().analyses_per_minute)]
    analyses_per_minute: NonZeroU32,
    /// Milliseconds the engine thinks about one analysis.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().analysis_time.as_millis() as u64)]
    analysis_time: u64,
    /// Computer analyses of finished games (`POST /api/games/{id}/analysis`)
    /// one IP address may ask for per hour (429 beyond).
    #[arg(long, value_name = "N", default_value_t = Limits::default().game_analyses_per_hour)]
    game_analyses_per_hour: NonZeroU32,
    /// Milliseconds the engine thinks about each position of a finished
    /// game's analysis.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().game_analysis_time.as_millis() as u64)]
    game_analysis_time: u64,
    /// Seconds open connections have to finish after SIGTERM or Ctrl-C.
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().shutdown_grace.as_secs())]
    shutdown_grace: u64,
}

impl LimitFlags {
    fn limits(&self) -> Limits {
        Limits {
            max_body_bytes: self.max_body_bytes,
            max_uri_bytes: self.max_uri_bytes,
            max_ws_message_bytes: self.max_ws_message_bytes,
            header_timeout: Duration::from_secs(self.header_timeout),
            request_timeout: Duration::from_secs(self.request_timeout),
            max_connections: self.max_connections,
            max_connections_per_ip: self.max_connections_per_ip,
            max_watchers_per_game: self.max_watchers_per_game,
            games_per_minute: self.games_per_minute,
            engine_games_per_minute: self.engine_games_per_minute,
            auth_failures_per_minute: self.auth_failures_per_minute,
            signups_per_minute: self.signups_per_minute,
            logins_per_minute: self.logins_per_minute,
            chat_lines_per_minute: self.chat_lines_per_minute,
            chat_lines_per_game: self.chat_lines_per_game,
            tournaments_per_hour: self.tournaments_per_hour,
            session_lifetime: Duration::from_secs(self.session_days.max(1) * 86_400),
            session_idle: Duration::from_secs(self.session_idle_days.max(1) * 86_400),
            rated_games_per_pair_per_day: self.rated_games_per_pair_per_day,
            actions_per_second: self.actions_per_second,
            waiting_expiry: Duration::from_secs(self.waiting_expiry),
            challenge_expiry: Duration::from_secs(self.challenge_expiry),
            engine_queue: self.engine_queue,
            engine_threads: self.engine_threads,
            analyses_per_minute: self.analyses_per_minute,
            analysis_time: Duration::from_millis(self.analysis_time),
            game_analyses_per_hour: self.game_analyses_per_hour,
            game_analysis_time: Duration::from_millis(self.game_analysis_time),
            shutdown_grace: Duration::from_secs(self.shutdown_grace),
        }
    }
}

/// Logs to standard error at `RUST_LOG`'s level, `info` by default.
pub fn log_to_stderr() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .init();
}

pub fn run(registry: Registry, args: &ServeArgs) -> Result<(), String> {
    log_to_stderr();
    // Every connection is an open file: take all the system allows.
    parity_server::base::os::raise_open_files();
    let config = Config {
        limits: args.limits.limits(),
        secure_cookies: args.secure_cookies,
        trusted_proxies: args.trusted_proxies.clone(),
        node_url: args.node_url.clone(),
        metrics_token: args
            .metrics_token
            .as_deref()
            .filter(|t| !t.is_empty())
            .map(MetricsToken::new),
        mail: args.smtp.as_ref().map(|url| MailConfig {
            smtp_url: url.clone(),
            from: args.mail_from.clone(),
            batch: Duration::from_secs_f64(args.mail_batch_secs.max(0.0)),
        }),
        public_url: args.public_url.clone(),
        push_allow_http: false,
        commit_delay: Duration::from_micros(args.commit_delay_us),
    };
    parity_server::run(&args.db, &args.addr, registry, config, |server| {
        let mut out = io::stdout().lock();
        let _ = writeln!(
            out,
            "Parity server on http://{}/ (database {}, {} unfinished games resumed)",
            server.addr, args.db, server.recovered
        );
        let _ = writeln!(
            out,
            "Records are signed with the Ed25519 key {} (kept in {}; `parity verify --key KEY`)",
            parity_server::base::signing::key_text(&server.hub.keys().public_key()),
            server
                .key_file
                .as_ref()
                .map_or("the database".to_string(), |f| f.display().to_string())
        );
        if let Some(node) = &server.node {
            let _ = writeln!(out, "Node {node} of the cluster on this database");
        }
        let _ = out.flush();
    })
    .map_err(|e| format!("serve: {e}"))
}
