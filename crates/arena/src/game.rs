//! One game between two engines: clocks, the rules' verdict, adjudication,
//! and losses for engines that crash, hang, run out of time or send a move
//! that is not legal.

use std::time::{Duration, Instant};

use parity_rules::{Color, Variant};
use parity_rules::{Outcome, Reason};

use crate::board::{mover as side_to_move, turn_game};
use crate::engine::{Engine, Failure, FailureKind, GameSetup, MoveRequest, Score, Strategy};
use crate::limits::Limits;
use crate::openings::Opening;

/// Resign when both engines agree: for `moves` consecutive moves of each,
/// its score says the same side is at least `score` centipawns behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub moves: u32,
    pub score: i32,
}

/// Draw when, from full move `movenumber` on, both engines' last `moves`
/// scores all lie within `score` centipawns of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub moves: u32,
    pub score: i32,
}

fn key_values(text: &str, keys: &[&str]) -> Result<Vec<i64>, String> {
    let mut out = vec![None; keys.len()];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}`: expected key=value"))?;
        let i = keys
            .iter()
            .position(|x| *x == k.trim())
            .ok_or_else(|| format!("unknown key `{}` (keys: {})", k.trim(), keys.join(", ")))?;
        out[i] = Some(
            v.trim()
                .parse::<i64>()
                .map_err(|_| format!("`{part}`: not a whole number"))?,
        );
    }
    out.iter()
        .zip(keys)
        .map(|(v, k)| v.ok_or_else(|| format!("missing `{k}=`")))
        .collect()
}

impl ResignRule {
    /// Reads `moves=3,score=600`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let v = key_values(text, &["moves", "score"]).map_err(|e| format!("--resign: {e}"))?;
        Ok(ResignRule {
            moves: v[0].max(1) as u32,
            score: v[1].abs() as i32,
        })
    }
}

impl DrawRule {
    /// Reads `movenumber=40,moves=8,score=10`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let v = key_values(text, &["movenumber", "moves", "score"])
            .map_err(|e| format!("--draw: {e}"))?;
        Ok(DrawRule {
            movenumber: v[0].max(0) as u32,
            moves: v[1].max(1) as u32,
            score: v[2].abs() as i32,
        })
    }
}

/// Adjudication besides the rules of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// A draw once the game (opening included) has this many plies.
    pub max_plies: Option<u32>,
    /// Simultaneous variants: a draw once the game (opening included) has
    /// this many turns.
    pub max_turns: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// How a game ended, in the words of PGN's `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Termination {
    /// By the rules (mate, stalemate, draw rules) or a resignation.
    Normal,
    Adjudication,
    TimeForfeit,
    /// An illegal or garbled move, a false claim.
    RulesInfraction,
    /// The engine crashed or could not start.
    Abandoned,
    /// The engine stopped answering without a clock running.
    StalledConnection,
}

impl Termination {
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
        }
    }
}

/// How a game ended, in classes common to every rule family (a study
/// counts these; [`Termination`] is coarser, `reason` free text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    Checkmate,
    Stalemate,
    /// A side without a legal move in a simultaneous variant (in parity
    /// this covers mate, stalemate and having only the waiting piece).
    NoLegalMove,
    Repetition,
    /// The fifty-move rule, or the fifty-turn rule of simultaneous variants.
    FiftyMove,
    /// Insufficient material, kings alone.
    DeadPosition,
    /// By the arena: the ply or turn limit, or a score rule.
    Adjudication,
    /// An engine crashed, hung, lost on time or broke the protocol.
    EngineFailure,
    /// Anything else: a resignation, the kings sharing a square.
    Other,
}

impl Cause {
    pub const ALL: [Cause; 9] = [
        Cause::Checkmate,
        Cause::Stalemate,
        Cause::NoLegalMove,
        Cause::Repetition,
        Cause::FiftyMove,
        Cause::DeadPosition,
        Cause::Adjudication,
        Cause::EngineFailure,
        Cause::Other,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Cause::Checkmate => "checkmate",
            Cause::Stalemate => "stalemate",
            Cause::NoLegalMove => "no legal move",
            Cause::Repetition => "repetition",
            Cause::FiftyMove => "fifty-move",
            Cause::DeadPosition => "dead position",
            Cause::Adjudication => "adjudication",
            Cause::EngineFailure => "engine failure",
            Cause::Other => "other",
        }
    }

    /// The class of an ending by the rules or the players.
    pub fn of(reason: Reason) -> Cause {
        match reason {
            Reason::Checkmate | Reason::BothCheckmated => Cause::Checkmate,
            Reason::Stalemate => Cause::Stalemate,
            Reason::NoLegalMove => Cause::NoLegalMove,
            Reason::Repetition => Cause::Repetition,
            Reason::FiftyMoves => Cause::FiftyMove,
            Reason::InsufficientMaterial => Cause::DeadPosition,
            Reason::Time | Reason::NoReveal => Cause::EngineFailure,
            Reason::KingsShareSquare | Reason::Resignation | Reason::Agreement | Reason::Abort => {
                Cause::Other
            }
        }
    }

    /// The cause of this [`Cause::name`].
    pub fn from_name(name: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    pub termination: Termination,
    pub cause: Cause,
    /// In words, e.g. "White mates", "Black loses on time".
    pub reason: String,
}

impl Ending {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// A move as played, with what its engine said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub uci: String,
    pub san: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
    /// Simultaneous variants: the reported value (expected payoff for White
    /// in [-1, 1]), the engine's mixed strategy for its side and its
    /// estimate of the opponent's.
    pub value: Option<f64>,
    pub strategy: Strategy,
    pub opponent: Strategy,
}

/// A turn of a simultaneous variant as played.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedTurn {
    /// White's and Black's moves, both read against the position before the turn.
    pub moves: [PlayedMove; 2],
    /// What the turn did, in words (`white: takes knight; black: failed capture`).
    pub notes: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based number in the match.
    pub number: usize,
    pub variant: &'static Variant,
    pub white: String,
    pub black: String,
    /// FEN of the start when it is not the variant's own.
    pub start_fen: Option<String>,
    /// Opening moves: (coordinates, SAN); for a simultaneous variant one
    /// entry per turn, (`e2e4:e7e5`, `e4 e5`).
    pub opening: Vec<(String, String)>,
    /// The engines' moves (turn-based and crowd variants).
    pub moves: Vec<PlayedMove>,
    /// The engines' turns (simultaneous variants).
    pub turns: Vec<PlayedTurn>,
    pub ending: Ending,
    /// Limits of White and Black.
    pub limits: [Limits; 2],
    /// Engines (White, Black) that failed in this game and must be restarted.
    pub failed: [bool; 2],
}

/// Everything a game needs besides the engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub number: usize,
    pub variant: &'static Variant,
    /// White's and Black's names (for the record).
    pub names: [String; 2],
    /// White's and Black's names for the variant.
    pub variant_names: [String; 2],
    pub limits: [Limits; 2],
    pub adjudication: Adjudication,
    /// Time over the clock an engine may use before it loses on time.
    pub time_margin: Duration,
    /// How long to wait for an answer when no clock runs.
    pub hang_timeout: Duration,
    /// White's and Black's engine seeds for this game (UCI `Seed`).
    pub seeds: [Option<u64>; 2],
}

pub(crate) fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The PGN termination of a game lost by a failure of this kind.
pub(crate) fn termination_of(kind: FailureKind) -> Termination {
    match kind {
        FailureKind::Start | FailureKind::Crash => Termination::Abandoned,
        FailureKind::Hang => Termination::StalledConnection,
        FailureKind::Time => Termination::TimeForfeit,
        FailureKind::Protocol => Termination::RulesInfraction,
        FailureKind::Resign => Termination::Normal,
    }
}

pub(crate) fn loss(loser: Color, failure: &Failure) -> Ending {
    Ending {
        winner: Some(loser.other()),
        termination: termination_of(failure.kind),
        cause: cause_of(failure.kind),
        reason: format!("{} {}", side_name(loser), failure.detail),
    }
}

/// The cause of a game lost by a failure of this kind.
pub(crate) fn cause_of(kind: FailureKind) -> Cause {
    match kind {
        FailureKind::Resign => Cause::Other,
        _ => Cause::EngineFailure,
    }
}

/// The end of a game by the rules, in the rules' words.
pub(crate) fn rules_ending(o: Outcome) -> Ending {
    Ending {
        winner: o.winner,
        termination: Termination::Normal,
        cause: Cause::of(o.reason),
        reason: o.sentence(),
    }
}

/// Plays one game from `opening`; `engines` are White's and Black's.
impl GameRecord {
    /// The record of a game about to be played from its opening.
    pub fn start(
        settings: &GameSettings,
        variant: &'static Variant,
        start_fen: Option<String>,
        opening: Vec<(String, String)>,
    ) -> GameRecord {
        GameRecord {
            number: settings.number,
            variant,
            white: settings.names[0].clone(),
            black: settings.names[1].clone(),
            start_fen,
            opening,
            moves: Vec::new(),
            turns: Vec::new(),
            ending: Ending {
                winner: None,
                termination: Termination::Normal,
                cause: Cause::Other,
                reason: String::new(),
            },
            limits: settings.limits,
            failed: [false, false],
        }
    }
}

/// Tells both engines that a game starts; what went wrong, per side.
pub(crate) fn start_game(
    engines: &mut [&mut dyn Engine; 2],
    settings: &GameSettings,
    start_fen: &Option<String>,
    simultaneous: bool,
) -> [Option<Failure>; 2] {
    Color::ALL.map(|color| {
        let i = color.index();
        let setup = GameSetup {
            variant_id: settings.variant.id().to_string(),
            variant: settings.variant_names[i].clone(),
            start_fen: start_fen.clone(),
            limits: settings.limits[i],
            color,
            simultaneous,
            seed: settings.seeds[i],
        };
        engines[i]
            .new_game(&setup)
            .err()
            .map(|f| Failure::new(f.kind, format!("fails to start the game: {}", f.detail)))
    })
}

/// Each side's clock at the start (None: no clock runs).
pub(crate) fn start_clocks(settings: &GameSettings) -> [Option<Duration>; 2] {
    settings.limits.map(|l| l.tc.map(|t| t.base))
}

/// What `color`'s engine is asked at `now`: its deadline from its clock,
/// its move time or the hang timeout.
pub(crate) fn move_request<'a>(
    settings: &GameSettings,
    clocks: &[Option<Duration>; 2],
    color: Color,
    moves: &'a [String],
    side: Option<Color>,
    now: Instant,
) -> MoveRequest<'a> {
    let i = color.index();
    let limits = settings.limits[i];
    let (deadline, late) = match (clocks[i], limits.movetime) {
        (Some(left), _) => (now + left + settings.time_margin, FailureKind::Time),
        (None, Some(m)) => (now + m + settings.time_margin, FailureKind::Time),
        (None, None) => (now + settings.hang_timeout, FailureKind::Hang),
    };
    MoveRequest {
        moves,
        clocks: clocks[i].map(|own| [clocks[0].unwrap_or(own), clocks[1].unwrap_or(own)]),
        increment: limits.tc.map(|t| t.increment).unwrap_or_default(),
        deadline,
        late,
        side,
    }
}

pub fn play(
    engines: [&mut dyn Engine; 2],
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let [white, black] = engines;
    let mut engines: [&mut dyn Engine; 2] = [white, black];
    let variant = settings.variant;
    let mut board =
        turn_game(variant, opening.fen.as_deref()).expect("openings are checked when read");
    let start_fen = (!board.starts_from_variant_start()).then(|| board.start_fen());
    let mut coords: Vec<String> = Vec::new();
    let mut book = Vec::new();
    for text in &opening.moves {
        let side = side_to_move(&board);
        let mv = board
            .read_move(side, text)
            .expect("openings are checked when read");
        book.push((board.uci(side, mv), board.san(side, mv)));
        coords.push(board.uci(side, mv));
        board.play(mv).expect("legal");
    }
    let mut record = GameRecord::start(settings, variant, start_fen.clone(), book);

    let failures = start_game(&mut engines, settings, &start_fen, false);
    for color in Color::ALL {
        if let Some(f) = &failures[color.index()] {
            record.failed[color.index()] = true;
            record.ending = loss(color, f);
            return record;
        }
    }

    let mut clocks = start_clocks(settings);
    // Scores from White's point of view, per engine, latest last (None: no score).
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let ending = loop {
        let mover = side_to_move(&board);
        if let Some(o) = board.outcome() {
            break rules_ending(o);
        }
        if let Some(max) = settings.adjudication.max_plies {
            if coords.len() as u32 >= max {
                break Ending {
                    winner: None,
                    termination: Termination::Adjudication,
                    cause: Cause::Adjudication,
                    reason: format!("Draw by adjudication: {max} plies"),
                };
            }
        }
        let i = mover.index();
        let limits = settings.limits[i];
        let request = move_request(settings, &clocks, mover, &coords, None, Instant::now());
        let reply = match engines[i].go(&request) {
            Ok(r) => r,
            Err(f) => {
                if f.kind != FailureKind::Resign {
                    record.failed[i] = true;
                }
                break loss(mover, &f);
            }
        };
        // The clock, measured by us.
        if let (Some(left), Some(tc)) = (clocks[i], limits.tc) {
            if reply.elapsed > left + settings.time_margin {
                break loss(
                    mover,
                    &Failure::new(
                        FailureKind::Time,
                        format!(
                            "loses on time ({:.3} s used, {:.3} s left)",
                            reply.elapsed.as_secs_f64(),
                            left.as_secs_f64()
                        ),
                    ),
                );
            }
            clocks[i] = Some(left.saturating_sub(reply.elapsed) + tc.increment);
        } else if let Some(m) = limits.movetime {
            if reply.elapsed > m + settings.time_margin {
                break loss(
                    mover,
                    &Failure::new(
                        FailureKind::Time,
                        format!(
                            "loses on time ({:.3} s for a {:.3} s move)",
                            reply.elapsed.as_secs_f64(),
                            m.as_secs_f64()
                        ),
                    ),
                );
            }
        }
        let mv = match board.read_move(mover, &reply.text) {
            Ok(mv) => mv,
            Err(e) => {
                record.failed[i] = true;
                let what = if reply.text.is_empty() {
                    "sends no move".to_string()
                } else {
                    format!("makes an illegal move: `{}` ({e})", reply.text)
                };
                break loss(mover, &Failure::new(FailureKind::Protocol, what));
            }
        };
        let uci = board.uci(mover, mv);
        let san = board.san(mover, mv);
        board.play(mv).expect("read_move returns legal moves");
        coords.push(uci.clone());
        record.moves.push(PlayedMove {
            uci,
            san,
            score: reply.score,
            depth: reply.depth,
            elapsed: reply.elapsed,
            value: None,
            strategy: Vec::new(),
            opponent: Vec::new(),
        });
        let white_pov = reply.score.map(|s| {
            if mover == Color::White {
                s.centipawns()
            } else {
                -s.centipawns()
            }
        });
        scores[i].push(white_pov);
        if let Some(e) = adjudicate(&settings.adjudication, &scores, board.turn()) {
            break e;
        }
    };
    record.ending = ending;
    let result = record.ending.result_text();
    for e in engines.iter_mut() {
        e.game_over(result, &record.ending.reason);
    }
    record
}

/// Score-based adjudication after a move.
fn adjudicate(
    rules: &Adjudication,
    scores: &[Vec<Option<i32>>; 2],
    fullmove: u32,
) -> Option<Ending> {
    let last = |n: u32| -> Option<Vec<i32>> {
        let mut all = Vec::new();
        for s in scores {
            if s.len() < n as usize {
                return None;
            }
            for v in &s[s.len() - n as usize..] {
                all.push((*v)?);
            }
        }
        Some(all)
    };
    if let Some(r) = rules.resign {
        if let Some(all) = last(r.moves) {
            for loser in Color::ALL {
                let behind = all.iter().all(|&s| {
                    if loser == Color::White {
                        s <= -r.score
                    } else {
                        s >= r.score
                    }
                });
                if behind {
                    return Some(Ending {
                        winner: Some(loser.other()),
                        termination: Termination::Adjudication,
                        cause: Cause::Adjudication,
                        reason: format!("{} wins by adjudication: both engines score {} at least {} cp behind for {} moves", side_name(loser.other()), side_name(loser), r.score, r.moves),
                    });
                }
            }
        }
    }
    if let Some(d) = rules.draw {
        if fullmove >= d.movenumber {
            if let Some(all) = last(d.moves) {
                if all.iter().all(|s| s.abs() <= d.score) {
                    return Some(Ending {
                        winner: None,
                        termination: Termination::Adjudication,
                        cause: Cause::Adjudication,
                        reason: format!(
                            "Draw by adjudication: scores within {} cp for {} moves",
                            d.score, d.moves
                        ),
                    });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse() {
        assert_eq!(
            ResignRule::parse("moves=3,score=600").unwrap(),
            ResignRule {
                moves: 3,
                score: 600
            }
        );
        assert_eq!(
            DrawRule::parse("movenumber=40,moves=8,score=10").unwrap(),
            DrawRule {
                movenumber: 40,
                moves: 8,
                score: 10
            }
        );
        assert!(ResignRule::parse("moves=3").is_err());
        assert!(DrawRule::parse("movenumber=4,moves=x,score=1").is_err());
        assert!(ResignRule::parse("moves=3,score=6,x=1").is_err());
    }

    #[test]
    fn score_adjudication() {
        let rules = Adjudication {
            max_plies: None,
            max_turns: None,
            resign: Some(ResignRule {
                moves: 2,
                score: 500,
            }),
            draw: Some(DrawRule {
                movenumber: 10,
                moves: 2,
                score: 5,
            }),
        };
        // White's engine sees itself losing, Black's agrees, twice each.
        let s = [vec![Some(-600), Some(-700)], vec![Some(-550), Some(-900)]];
        let e = adjudicate(&rules, &s, 5).unwrap();
        assert_eq!(
            (e.winner, e.termination),
            (Some(Color::Black), Termination::Adjudication)
        );
        // One engine disagrees: play on.
        let s = [vec![Some(-600), Some(-700)], vec![Some(-550), Some(100)]];
        assert_eq!(adjudicate(&rules, &s, 5), None);
        // A missing score breaks the run.
        let s = [vec![None, Some(-700)], vec![Some(-550), Some(-600)]];
        assert_eq!(adjudicate(&rules, &s, 5), None);
        // Quiet scores draw only from move 10.
        let s = [vec![Some(3), Some(0)], vec![Some(-5), Some(1)]];
        assert_eq!(adjudicate(&rules, &s, 9), None);
        assert_eq!(adjudicate(&rules, &s, 10).unwrap().winner, None);
    }
}
