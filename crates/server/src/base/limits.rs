//! How much the server takes from anyone: sizes, times, connections, and
//! per-IP rates (docs/server.md, "Limits"). Every limit has a default
//! here and a flag of `parity serve`.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter};

use crate::base::metrics::{self, MetricsToken};
use crate::base::refusal::{Refusal, Said};

/// Every limit the server enforces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body; longer is a 413 before it is read.
    pub max_body_bytes: usize,
    /// Longest request target (path and query); longer is a 414.
    pub max_uri_bytes: usize,
    /// Largest WebSocket message and frame; longer closes the socket
    /// before its payload is read.
    pub max_ws_message_bytes: usize,
    /// Time to send a request's head, and how long an idle keep-alive
    /// connection waits for the next one.
    pub header_timeout: Duration,
    /// Time to read a request's body and answer it (streams and
    /// WebSockets only count until they open).
    pub request_timeout: Duration,
    /// Open connections in all; more are closed at once.
    pub max_connections: usize,
    /// Open connections from one IP address; more are closed at once.
    pub max_connections_per_ip: usize,
    /// Streams and WebSockets watching one game, seats not counted.
    pub max_watchers_per_game: usize,
    /// Games against a friend one IP may create per minute.
    pub games_per_minute: NonZeroU32,
    /// Games against the engine one IP may create per minute.
    pub engine_games_per_minute: NonZeroU32,
    /// Refused tokens and invites one IP may present per minute.
    pub auth_failures_per_minute: NonZeroU32,
    /// Accounts one IP may sign up per minute (each costs an argon2 hash).
    pub signups_per_minute: NonZeroU32,
    /// Log-in attempts, right or wrong, per minute from one IP and for one
    /// account, each asked before the password is hashed.
    pub logins_per_minute: NonZeroU32,
    /// Chat lines one account (or one seat's address) may post per minute.
    pub chat_lines_per_minute: NonZeroU32,
    /// Tournaments and teams one account may create per hour.
    pub tournaments_per_hour: NonZeroU32,
    /// Lines kept in one game's chat; a line beyond is refused.
    pub chat_lines_per_game: usize,
    /// A log-in session ends this long after the log-in.
    pub session_lifetime: Duration,
    /// A log-in session unused for this long ends.
    pub session_idle: Duration,
    /// Rated games two accounts may begin together in 24 hours (fair play:
    /// a pair of accounts cannot farm rating from each other).
    pub rated_games_per_pair_per_day: u32,
    /// Seat actions (HTTP or WebSocket) one IP may send per second.
    pub actions_per_second: NonZeroU32,
    /// A game whose invited friend has not joined is aborted after this.
    pub waiting_expiry: Duration,
    /// A challenge not answered within this is canceled, and both sides
    /// hear `challengeCanceled`.
    pub challenge_expiry: Duration,
    /// Engine searches running or waiting for a worker; a new engine game
    /// is refused (503) while this many are.
    pub engine_queue: usize,
    /// Engine searches that run at once (the workers); one per core.
    pub engine_threads: usize,
    /// Analyses (`POST /api/analysis`) one IP may ask for per minute.
    pub analyses_per_minute: NonZeroU32,
    /// The engine's time for one analysis.
    pub analysis_time: Duration,
    /// Computer analyses of finished games one IP may ask for per hour.
    pub game_analyses_per_hour: NonZeroU32,
    /// The engine's time for each position of a finished game's analysis.
    pub game_analysis_time: Duration,
    /// On SIGTERM, how long open connections have to finish.
    pub shutdown_grace: Duration,
}

fn nonzero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body_bytes: 16 * 1024,
            max_uri_bytes: 4 * 1024,
            max_ws_message_bytes: 4 * 1024,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 4096,
            max_connections_per_ip: 64,
            max_watchers_per_game: 100,
            games_per_minute: nonzero(20),
            engine_games_per_minute: nonzero(6),
            auth_failures_per_minute: nonzero(30),
            signups_per_minute: nonzero(5),
            logins_per_minute: nonzero(10),
            chat_lines_per_minute: nonzero(20),
            tournaments_per_hour: nonzero(12),
            chat_lines_per_game: 300,
            session_lifetime: Duration::from_secs(30 * 24 * 3600),
            session_idle: Duration::from_secs(7 * 24 * 3600),
            rated_games_per_pair_per_day: 10,
            actions_per_second: nonzero(20),
            waiting_expiry: Duration::from_secs(3600),
            challenge_expiry: Duration::from_secs(20 * 60),
            engine_queue: 64,
            engine_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            analyses_per_minute: nonzero(20),
            analysis_time: Duration::from_millis(1000),
            game_analyses_per_hour: nonzero(10),
            game_analysis_time: Duration::from_millis(300),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Everything `parity_server::start` is told: the limits, and how the
/// server learns it is behind TLS.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub limits: Limits,
    /// Seat cookies are always `Secure` (the server is reached over https).
    pub secure_cookies: bool,
    /// The reverse proxies the server is behind (addresses or networks):
    /// from a peer among them, `X-Forwarded-Proto: https` makes cookies
    /// `Secure`, `X-Forwarded-Host` is the origin's host, and the last
    /// address of `X-Forwarded-For` that is not a proxy's is the client's
    /// for the rate limits. Any other peer's forwarded headers are ignored.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Where the other nodes of a cluster reach this one (PostgreSQL
    /// only); by default `http://` and the address it listens on.
    pub node_url: Option<String>,
    /// `GET /metrics` answers requests bearing this token; without one it
    /// is a 404.
    pub metrics_token: Option<MetricsToken>,
    /// Where notification mails go (`--smtp`); none: no mail is sent.
    pub mail: Option<crate::base::mail::MailConfig>,
    /// The server's address as players reach it, for links in mails
    /// (`--public-url`); by default `http://` and the address it listens on.
    pub public_url: Option<String>,
    /// Push subscriptions may have plain http endpoints (for tests: real
    /// push services are https, and anything else is refused).
    pub push_allow_http: bool,
    /// How long a busy database writer waits for more jobs before a commit
    /// (`crate::store::Grouping`); zero: it writes at once.
    pub commit_delay: Duration,
}

impl Config {
    /// Whether `peer` is one of the trusted proxies.
    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|net| net.contains(&peer))
    }
}

/// A trusted proxy as `--trusted-proxy` takes it: an address
/// (`10.0.0.5`, `::1`) or a network (`10.0.0.0/8`).
pub fn parse_proxy(text: &str) -> Result<ipnet::IpNet, String> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{text:?} is not an address or a network (10.0.0.0/8)"))
}

type PerIp = DefaultKeyedRateLimiter<IpAddr>;
type PerAccount = DefaultKeyedRateLimiter<String>;

/// The per-IP rate limits (token buckets of `governor`).
pub struct Quotas {
    games: PerIp,
    engine_games: PerIp,
    auth_failures: PerIp,
    signups: PerIp,
    logins: PerIp,
    logins_per_account: PerAccount,
    chat_lines: PerAccount,
    tournaments: PerAccount,
    actions: PerIp,
    analyses: PerIp,
    game_analyses: PerIp,
}

impl Quotas {
    pub fn new(limits: &Limits) -> Quotas {
        Quotas {
            games: RateLimiter::keyed(Quota::per_minute(limits.games_per_minute)),
            engine_games: RateLimiter::keyed(Quota::per_minute(limits.engine_games_per_minute)),
            auth_failures: RateLimiter::keyed(Quota::per_minute(limits.auth_failures_per_minute)),
            signups: RateLimiter::keyed(Quota::per_minute(limits.signups_per_minute)),
            logins: RateLimiter::keyed(Quota::per_minute(limits.logins_per_minute)),
            logins_per_account: RateLimiter::keyed(Quota::per_minute(limits.logins_per_minute)),
            chat_lines: RateLimiter::keyed(Quota::per_minute(limits.chat_lines_per_minute)),
            tournaments: RateLimiter::keyed(Quota::per_hour(limits.tournaments_per_hour)),
            actions: RateLimiter::keyed(Quota::per_second(limits.actions_per_second)),
            analyses: RateLimiter::keyed(Quota::per_minute(limits.analyses_per_minute)),
            game_analyses: RateLimiter::keyed(Quota::per_hour(limits.game_analyses_per_hour)),
        }
    }

    /// Takes one game creation from `ip`'s allowance.
    pub fn create_game(&self, ip: IpAddr, engine: bool) -> Result<(), Refusal> {
        if engine {
            take(&self.engine_games, ip, "engine_games")
        } else {
            take(&self.games, ip, "games")
        }
    }

    /// Takes one analysis from `ip`'s allowance.
    pub fn analysis(&self, ip: IpAddr) -> Result<(), Refusal> {
        take(&self.analyses, ip, "analyses")
    }

    /// Takes one finished game's computer analysis from `ip`'s allowance.
    pub fn game_analysis(&self, ip: IpAddr) -> Result<(), Refusal> {
        take(&self.game_analyses, ip, "game_analyses")
    }

    /// Takes one sign-up from `ip`'s allowance.
    pub fn signup(&self, ip: IpAddr) -> Result<(), Refusal> {
        take(&self.signups, ip, "signups")
    }

    /// Takes one log-in attempt from `ip`'s allowance and from account
    /// `user_id`'s (a guess at one password from many addresses counts too).
    pub fn login(&self, ip: IpAddr, user_id: &str) -> Result<(), Refusal> {
        take(&self.logins, ip, "logins")?;
        self.logins_per_account
            .check_key(&user_id.to_string())
            .map_err(|not_until| too_many("logins_per_account", not_until))
    }

    /// Takes one chat line from its author's allowance (an account by its
    /// name, a seat without one by its address).
    pub fn chat(&self, author: &str, ip: IpAddr) -> Result<(), Refusal> {
        let key = match author {
            "White" | "Black" => ip.to_string(),
            account => account.to_ascii_lowercase(),
        };
        self.chat_lines
            .check_key(&key)
            .map_err(|not_until| too_many("chat_lines", not_until))
    }

    /// Takes one tournament or team creation from account `user_id`'s allowance.
    pub fn create_tournament(&self, user_id: &str) -> Result<(), Refusal> {
        self.tournaments
            .check_key(&user_id.to_string())
            .map_err(|not_until| too_many("tournaments", not_until))
    }

    /// Takes one seat action from `ip`'s allowance.
    pub fn action(&self, ip: IpAddr) -> Result<(), Refusal> {
        take(&self.actions, ip, "actions")
    }

    /// Counts a refused token or invite: `refusal` while `ip` has
    /// allowance left, a 429 after.
    pub fn auth_failure(&self, ip: IpAddr, refusal: Refusal) -> Refusal {
        match take(&self.auth_failures, ip, "auth_failures") {
            Ok(()) => refusal,
            Err(too_many) => too_many,
        }
    }

    /// Drops the buckets of addresses that are full again, so the maps
    /// only hold recent clients.
    pub fn forget_idle(&self) {
        for limiter in [
            &self.games,
            &self.engine_games,
            &self.auth_failures,
            &self.signups,
            &self.logins,
            &self.actions,
            &self.analyses,
            &self.game_analyses,
        ] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        for limiter in [
            &self.logins_per_account,
            &self.chat_lines,
            &self.tournaments,
        ] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// Takes one from `ip`'s allowance of the limit named `limit` (the
/// label of its refusals in the metrics).
fn take(limiter: &PerIp, ip: IpAddr, limit: &'static str) -> Result<(), Refusal> {
    limiter
        .check_key(&ip)
        .map_err(|not_until| too_many(limit, not_until))
}

/// The catalogue's message of a refusal by the limit named `limit`.
fn too_many_said(limit: &str) -> Said {
    Said::new(&format!("server-too-many-{}", limit.replace('_', "-")))
}

/// A 429 of the limit named `limit`, counted in the metrics.
fn too_many(limit: &'static str, not_until: NotUntil<<DefaultClock as Clock>::Instant>) -> Refusal {
    metrics::refused(limit);
    Refusal::TooMany {
        message: too_many_said(limit),
        retry_after: not_until.wait_time_from(DefaultClock::default().now()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_says_its_refusal_in_each_language() {
        let limits = [
            "engine_games",
            "games",
            "analyses",
            "game_analyses",
            "signups",
            "logins",
            "logins_per_account",
            "chat_lines",
            "actions",
            "auth_failures",
        ];
        for limit in limits {
            let said = too_many_said(limit);
            for lang in crate::base::i18n::LANGUAGES {
                let text = said.in_language(lang);
                assert!(!text.starts_with("server-"), "{limit} in {lang}: {text}");
            }
        }
        assert_eq!(
            too_many_said("games").to_string(),
            "too many games created from your address; try again later"
        );
    }

    #[test]
    fn a_quota_refuses_with_the_time_to_wait() {
        let limits = Limits {
            engine_games_per_minute: nonzero(2),
            ..Limits::default()
        };
        let quotas = Quotas::new(&limits);
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        assert!(quotas.create_game(ip, true).is_ok());
        assert!(quotas.create_game(ip, true).is_ok());
        match quotas.create_game(ip, true) {
            Err(Refusal::TooMany { retry_after, .. }) => {
                assert!(retry_after > Duration::ZERO && retry_after <= Duration::from_secs(30))
            }
            other => panic!("{other:?}"),
        }
        // Another address, and games against a friend, have their own allowance.
        assert!(quotas
            .create_game("192.0.2.2".parse().unwrap(), true)
            .is_ok());
        assert!(quotas.create_game(ip, false).is_ok());
    }
}
