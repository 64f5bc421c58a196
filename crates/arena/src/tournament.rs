//! A match: two engines, games in parallel on worker threads, colours
//! alternated over each opening (or one opening per game for self-play),
//! results gathered into statistics, and an early stop when an SPRT decides.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use parity_rules::{Color, Variant};

use crate::board::turn_game;
use crate::engine::{Engine, EngineSpec, Failure, GameSetup, Log, Protocol};
use crate::game::{self, Adjudication, GameRecord, GameSettings};
use crate::launch;
use crate::limits::Limits;
use crate::openings::Opening;
use crate::sim;
use crate::sim_board;
use crate::stats::{self, Pentanomial, Sprt, SprtState, Trinomial};

/// How the games of a match take their openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pairing {
    /// Each opening twice, colours swapped (games 2k and 2k + 1), so that
    /// two engines meet on equal terms; the pairs give the pentanomial.
    #[default]
    ColoursSwapped,
    /// Game i plays opening i (again from the first when the games
    /// outnumber them): self-play of one engine, where the swapped game
    /// would only repeat the first.
    OnePerGame,
}

/// The `Seed` a game's engine gets: a mix of the match's seed, the game's
/// index (0-based) and the side, so that a game is the same whichever
/// worker plays it and whatever that worker played before. Below 2^32, the
/// range of our engine's `Seed` option.
pub fn game_seed(seed: u64, index: usize, side: Color) -> u64 {
    let side = match side {
        Color::White => 1,
        Color::Black => 2,
    };
    mix(mix(seed ^ mix(index as u64)) ^ side) & 0xffff_ffff
}

/// SplitMix64's finaliser: a bijection that spreads every input bit.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    pub variant: &'static Variant,
    /// The first engine is the one the statistics speak for.
    pub engines: [EngineSpec; 2],
    /// Limits for both engines; an engine's own limits take precedence.
    pub limits: Limits,
    /// Used in order, again from the first when the games outnumber them;
    /// [`Pairing`] says whether each gives two games or one.
    pub openings: Vec<Opening>,
    pub pairing: Pairing,
    pub games: usize,
    /// Play only these games (0-based indices below `games`), e.g. those
    /// an interrupted study still lacks; `None`: all of them.
    pub only: Option<Vec<usize>>,
    /// When set, each game's engines that offer a UCI option `Seed` get
    /// `setoption name Seed value S` before it, S = [`game_seed`].
    pub engine_seed: Option<u64>,
    pub concurrency: usize,
    pub adjudication: Adjudication,
    pub time_margin: Duration,
    /// How long to wait for an engine when no clock runs (and for handshakes).
    pub hang_timeout: Duration,
    pub sprt: Option<Sprt>,
    pub event: String,
    pub log: Option<Log>,
}

/// What the match reports while it runs.
pub enum Event<'a> {
    GameStarted {
        number: usize,
        white: &'a str,
        black: &'a str,
    },
    GameFinished {
        game: &'a GameRecord,
        summary: &'a Summary,
    },
}

/// The state of the match from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub names: [String; 2],
    pub games: usize,
    pub planned: usize,
    pub trinomial: Trinomial,
    pub pentanomial: Pentanomial,
    pub sprt: Option<(Sprt, f64, SprtState)>,
    /// Games by how they ended.
    pub terminations: BTreeMap<&'static str, u32>,
    /// Games the first engine played as White: W/D/L.
    pub as_white: Trinomial,
    /// All games from White's point of view: White's wins, draws, Black's wins.
    pub by_colour: Trinomial,
    pub stopped_by_sprt: bool,
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn elo(x: f64) -> String {
    if x.is_nan() {
        "?".into()
    } else if x.is_finite() {
        format!("{x:.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

impl Summary {
    /// One line for a progress bar.
    pub fn short(&self) -> String {
        let t = &self.trinomial;
        let mut s = format!("{}-{}-{}", t.wins, t.draws, t.losses);
        if let Some(e) = stats::trinomial_estimate(t) {
            let _ = write!(
                s,
                " {:.1}% Elo {} ±{}",
                100.0 * e.score,
                elo(e.elo),
                elo(e.elo_error()).trim_start_matches('+')
            );
        }
        if let Some((_, llr, _)) = self.sprt {
            let _ = write!(s, " LLR {llr:.2}");
        }
        s
    }

    /// The final report.
    pub fn report(&self) -> String {
        let t = &self.trinomial;
        let mut out = String::new();
        let n = t.games();
        let _ = writeln!(
            out,
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {n}",
            self.names[0],
            self.names[1],
            t.wins,
            t.losses,
            t.draws,
            if n > 0 { t.points() / n as f64 } else { 0.0 }
        );
        let w = &self.as_white;
        let b = Trinomial {
            wins: t.wins - w.wins,
            draws: t.draws - w.draws,
            losses: t.losses - w.losses,
        };
        let _ = writeln!(
            out,
            "{} as White: {} - {} - {}; as Black: {} - {} - {} (wins - losses - draws)",
            self.names[0], w.wins, w.losses, w.draws, b.wins, b.losses, b.draws
        );
        let c = &self.by_colour;
        if n > 0 {
            let _ = writeln!(
                out,
                "White vs Black: {} - {} - {} (White scores {})",
                c.wins,
                c.losses,
                c.draws,
                pct(c.points() / n as f64)
            );
        }
        match stats::trinomial_estimate(t) {
            Some(e) => {
                let _ = writeln!(
                    out,
                    "Elo difference: {} +/- {} (95%: {} to {}), LOS: {}, draw ratio: {}",
                    elo(e.elo),
                    elo(e.elo_error()).trim_start_matches('+'),
                    elo(e.elo_low),
                    elo(e.elo_high),
                    pct(stats::los(t)),
                    pct(t.draws as f64 / n as f64)
                );
            }
            None => out.push_str("No games finished.\n"),
        }
        let p = &self.pentanomial;
        if let Some(e) = stats::pentanomial_estimate(p) {
            let c = p.counts;
            let _ = writeln!(
                out,
                "Game pairs (pentanomial 0-2 points: {} {} {} {} {}, {} pairs): Elo {} +/- {} (95%: {} to {})",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                p.pairs(),
                elo(e.elo),
                elo(e.elo_error()).trim_start_matches('+'),
                elo(e.elo_low),
                elo(e.elo_high)
            );
        }
        if let Some((s, llr, state)) = self.sprt {
            let (lo, hi) = s.bounds();
            let verdict = match state {
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::Continue => "no decision yet",
            };
            let _ = writeln!(
                out,
                "SPRT: elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3} (bounds {lo:.3}, {hi:.3}): {verdict}",
                s.elo0, s.elo1, s.alpha, s.beta
            );
        }
        if !self.terminations.is_empty() {
            let list: Vec<String> = self
                .terminations
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let _ = writeln!(out, "Terminations: {}", list.join(", "));
        }
        if self.stopped_by_sprt {
            let _ = writeln!(
                out,
                "Stopped after {} of {} games: the SPRT decided.",
                self.games, self.planned
            );
        }
        out
    }
}

/// Checks the configuration and starts each engine once, so that a wrong
/// command, an unknown variant or a missing feature stops the match before
/// it begins instead of losing every game.
pub fn check(config: &MatchConfig) -> Result<(), String> {
    let simultaneous = sim_board::is_simultaneous(config.variant);
    if !simultaneous {
        turn_game(config.variant, None).map_err(|e| e.to_string())?;
    }
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    if config.games == 0 {
        return Err("no games to play".into());
    }
    if let Some(only) = &config.only {
        if only.is_empty() {
            return Err("no games to play".into());
        }
        if let Some(i) = only.iter().find(|&&i| i >= config.games) {
            return Err(format!(
                "game index {i} is beyond the match's {} games",
                config.games
            ));
        }
    }
    let probe = config
        .openings
        .iter()
        .find(|o| o.fen.is_some())
        .unwrap_or(&config.openings[0]);
    let start_fen = if simultaneous {
        let start = *probe.sim_game(config.variant)?.start();
        (!sim_board::is_variant_start(&start)).then(|| start.to_fen())
    } else {
        let board = probe.board(config.variant)?;
        (!board.starts_from_variant_start()).then(|| board.start_fen())
    };
    if simultaneous {
        if let Some(spec) = config.engines.iter().find(|s| s.protocol != Protocol::Uci) {
            return Err(format!(
                "engine {}: the simultaneous variant {} needs UCI with joint moves (docs/protocol.md); XBoard cannot play it",
                spec.name,
                config.variant.id()
            ));
        }
        if config.adjudication.resign.is_some() || config.adjudication.draw.is_some() {
            return Err(format!(
                "--resign and --draw read centipawn scores; a simultaneous variant ({}) has no score adjudication",
                config.variant.id()
            ));
        }
    }
    for spec in &config.engines {
        let limits = spec.limits.or(config.limits);
        if limits.is_empty() {
            return Err(format!(
                "engine {}: no limit to play by; give --tc, --nodes, --depth or --movetime",
                spec.name
            ));
        }
        let mut e = launch::start(spec, &spec.name, config.log.clone(), config.hang_timeout)
            .map_err(|f| format!("engine {}: {f}", spec.name))?;
        let setup = GameSetup {
            variant_id: config.variant.id().to_string(),
            variant: spec.variant_name(config.variant.id()),
            start_fen: start_fen.clone(),
            limits,
            color: Color::White,
            simultaneous,
            seed: None,
        };
        let ready = e.new_game(&setup);
        e.quit();
        ready.map_err(|f| format!("engine {}: {f}", spec.name))?;
    }
    Ok(())
}

/// Plays the match. `on_event` runs on the calling thread.
pub fn run(config: &MatchConfig, mut on_event: impl FnMut(Event)) -> Result<Summary, String> {
    check(config)?;
    let planned = config.only.as_ref().map_or(config.games, Vec::len);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, planned.max(1));
    let (tx, rx) = mpsc::channel::<Message>();
    let mut summary = Summary {
        names: [
            config.engines[0].name.clone(),
            config.engines[1].name.clone(),
        ],
        planned,
        sprt: config.sprt.map(|s| (s, 0.0, SprtState::Continue)),
        ..Summary::default()
    };
    std::thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || worker(config, w, next, stop, tx));
        }
        drop(tx);
        // Points of the first engine in the first finished game of each pair.
        let mut half_pairs: HashMap<usize, u32> = HashMap::new();
        for msg in rx {
            match msg {
                Message::Started {
                    number,
                    white,
                    black,
                } => on_event(Event::GameStarted {
                    number,
                    white: &white,
                    black: &black,
                }),
                Message::Finished(game) => {
                    let first_is_white = (game.number - 1) % 2 == 0;
                    let half_points = match (game.ending.winner, first_is_white) {
                        (None, _) => 1,
                        (Some(Color::White), true) | (Some(Color::Black), false) => 2,
                        _ => 0,
                    };
                    let t = &mut summary.trinomial;
                    match half_points {
                        2 => t.wins += 1,
                        1 => t.draws += 1,
                        _ => t.losses += 1,
                    }
                    let c = &mut summary.by_colour;
                    match game.ending.winner {
                        Some(Color::White) => c.wins += 1,
                        None => c.draws += 1,
                        Some(Color::Black) => c.losses += 1,
                    }
                    if first_is_white {
                        let w = &mut summary.as_white;
                        match half_points {
                            2 => w.wins += 1,
                            1 => w.draws += 1,
                            _ => w.losses += 1,
                        }
                    }
                    if config.pairing == Pairing::ColoursSwapped {
                        let pair = (game.number - 1) / 2;
                        match half_pairs.remove(&pair) {
                            Some(other) => summary.pentanomial.add(other + half_points),
                            None => {
                                half_pairs.insert(pair, half_points);
                            }
                        }
                    }
                    summary.games += 1;
                    *summary
                        .terminations
                        .entry(game.ending.termination.pgn())
                        .or_default() += 1;
                    if let Some((s, _, before)) = summary.sprt {
                        let llr = if summary.pentanomial.pairs() > 0 {
                            s.llr_pentanomial(&summary.pentanomial)
                        } else {
                            0.0
                        };
                        // A decision stands; games already under way still count in the LLR.
                        let state = if before == SprtState::Continue {
                            s.state(llr)
                        } else {
                            before
                        };
                        summary.sprt = Some((s, llr, state));
                        if state != SprtState::Continue && !stop.swap(true, Ordering::SeqCst) {
                            summary.stopped_by_sprt = summary.games < planned;
                        }
                    }
                    on_event(Event::GameFinished {
                        game: &game,
                        summary: &summary,
                    });
                }
            }
        }
    });
    if summary.stopped_by_sprt && summary.games >= planned {
        summary.stopped_by_sprt = false;
    }
    Ok(summary)
}

enum Message {
    Started {
        number: usize,
        white: String,
        black: String,
    },
    Finished(Box<GameRecord>),
}

fn worker(
    config: &MatchConfig,
    w: usize,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<Message>,
) {
    let mut engines: [Option<Box<dyn Engine>>; 2] = [None, None];
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let k = next.fetch_add(1, Ordering::SeqCst);
        let index = match &config.only {
            Some(only) => match only.get(k) {
                Some(&i) => i,
                None => break,
            },
            None if k < config.games => k,
            None => break,
        };
        let number = index + 1;
        let opening = match config.pairing {
            Pairing::ColoursSwapped => &config.openings[(index / 2) % config.openings.len()],
            Pairing::OnePerGame => &config.openings[index % config.openings.len()],
        };
        // Engine 0 is White in even games (numbered from 0), Black in odd ones.
        let order = if index % 2 == 0 { [0, 1] } else { [1, 0] };
        let names = order.map(|e| config.engines[e].name.clone());
        let _ = tx.send(Message::Started {
            number,
            white: names[0].clone(),
            black: names[1].clone(),
        });
        let settings = GameSettings {
            number,
            variant: config.variant,
            names: names.clone(),
            variant_names: order.map(|e| config.engines[e].variant_name(config.variant.id())),
            limits: order.map(|e| config.engines[e].limits.or(config.limits)),
            adjudication: config.adjudication,
            time_margin: config.time_margin,
            hang_timeout: config.hang_timeout,
            seeds: Color::ALL.map(|side| config.engine_seed.map(|s| game_seed(s, index, side))),
        };
        // (Re)start engines that are not running; a failure loses the game.
        let mut start_failure: Option<(Color, Failure)> = None;
        for (side, &e) in order.iter().enumerate() {
            if engines[e].is_none() {
                let spec = &config.engines[e];
                let label = format!("w{w}:{}", spec.name);
                match launch::start(spec, &label, config.log.clone(), config.hang_timeout) {
                    Ok(eng) => engines[e] = Some(eng),
                    Err(f) => {
                        if start_failure.is_none() {
                            let color = if side == 0 {
                                Color::White
                            } else {
                                Color::Black
                            };
                            start_failure = Some((
                                color,
                                Failure::new(f.kind, format!("could not be started: {}", f.detail)),
                            ));
                        }
                    }
                }
            }
        }
        let record = match start_failure {
            Some((loser, f)) => GameRecord {
                number,
                variant: config.variant,
                white: names[0].clone(),
                black: names[1].clone(),
                start_fen: None,
                opening: Vec::new(),
                moves: Vec::new(),
                turns: Vec::new(),
                ending: game::loss(loser, &f),
                limits: settings.limits,
                failed: [false, false],
            },
            None => {
                let [a, b] = &mut engines;
                let (first, second) = (
                    a.as_deref_mut().expect("started"),
                    b.as_deref_mut().expect("started"),
                );
                let pair: [&mut dyn Engine; 2] = if order[0] == 0 {
                    [first, second]
                } else {
                    [second, first]
                };
                let record = if sim_board::is_simultaneous(config.variant) {
                    sim::play(pair, opening, &settings)
                } else {
                    game::play(pair, opening, &settings)
                };
                for (side, &e) in order.iter().enumerate() {
                    if record.failed[side] {
                        if let Some(mut eng) = engines[e].take() {
                            eng.quit();
                        }
                    }
                }
                record
            }
        };
        if tx.send(Message::Finished(Box::new(record))).is_err() {
            break;
        }
    }
    for e in engines.iter_mut() {
        if let Some(mut eng) = e.take() {
            eng.quit();
        }
    }
}
