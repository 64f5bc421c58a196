//! Studies: self-play of one engine over many games to measure the
//! variants themselves. The first, `first-move`, measures White's
//! first-move advantage per variant and budget (docs/studies/README.md).
//!
//! A study is a list of runs, one per variant and budget, each a match of
//! the engine against itself ([`tournament::run`]) with one opening per
//! game ([`Pairing::OnePerGame`]) and a seed per game, so every game is
//! reproducible whichever worker plays it. Each finished game is appended
//! to the results file ([`results`]) at once; a study started again on
//! the same file plays only the games that file lacks
//! ([`MatchConfig::only`]). [`report`] turns a results file into tables
//! and plots ([`plot`]).

pub mod plot;
pub mod report;
pub mod results;

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use parity_rules::{Color, Registry, Variant};
use serde::{Deserialize, Serialize};

use crate::board::turn_game;
use crate::engine::{EngineSpec, OwnEngine};
use crate::game::{Adjudication, GameRecord};
use crate::limits::Limits;
use crate::openings::{self, Opening};
use crate::positions::PositionsFile;
use crate::sim_board;
use crate::tournament::{self, mix, Event, MatchConfig, Pairing};

pub use results::{GameLine, GameResult, Results};

/// The one kind of study so far.
pub const FIRST_MOVE: &str = "first-move";

/// How much the engine may think per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Budget {
    Nodes(u64),
    Depth(u32),
    /// Milliseconds per move.
    Movetime(u64),
}

impl Budget {
    /// Reads `nodes=1000`, `depth=2`, `movetime=100`.
    pub fn parse(text: &str) -> Result<Budget, String> {
        let (kind, value) = text
            .split_once('=')
            .ok_or_else(|| format!("budget `{text}`: expected nodes=N, depth=N or movetime=MS"))?;
        Budget::of_kind(kind.trim(), value.trim())
    }

    /// A budget of `kind` (`nodes`, `depth`, `movetime`) from its number.
    pub fn of_kind(kind: &str, value: &str) -> Result<Budget, String> {
        let n: u64 = value
            .parse()
            .map_err(|_| format!("{kind} `{value}`: not a whole number"))?;
        if n == 0 {
            return Err(format!("{kind} `{value}`: must be at least 1"));
        }
        match kind {
            "nodes" => Ok(Budget::Nodes(n)),
            "depth" => u32::try_from(n)
                .map(Budget::Depth)
                .map_err(|_| format!("depth `{value}` is too large")),
            "movetime" => Ok(Budget::Movetime(n)),
            _ => Err(format!(
                "unknown budget `{kind}` (nodes, depth or movetime)"
            )),
        }
    }

    /// Reads a comma-separated list of `kind` budgets (`1000,4000`),
    /// sorted from the smallest, each once.
    pub fn parse_list(kind: &str, text: &str) -> Result<Vec<Budget>, String> {
        let mut out = text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| Budget::of_kind(kind, t).map_err(|e| format!("--{kind}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        if out.is_empty() {
            return Err(format!("--{kind}: no value in `{text}`"));
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    pub fn kind(self) -> &'static str {
        match self {
            Budget::Nodes(_) => "nodes",
            Budget::Depth(_) => "depth",
            Budget::Movetime(_) => "movetime",
        }
    }

    pub fn value(self) -> u64 {
        match self {
            Budget::Nodes(n) | Budget::Movetime(n) => n,
            Budget::Depth(d) => d as u64,
        }
    }

    pub fn limits(self) -> Limits {
        let mut l = Limits::default();
        match self {
            Budget::Nodes(n) => l.nodes = Some(n),
            Budget::Depth(d) => l.depth = Some(d),
            Budget::Movetime(ms) => l.movetime = Some(Duration::from_millis(ms)),
        }
        l
    }

    /// True when our engine plays the same move from the same position
    /// at this budget in a turn-based variant (not so against a clock).
    pub fn is_deterministic(self) -> bool {
        !matches!(self, Budget::Movetime(_))
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.kind(), self.value())
    }
}

impl From<Budget> for String {
    fn from(b: Budget) -> String {
        b.to_string()
    }
}

impl TryFrom<String> for Budget {
    type Error = String;
    fn try_from(s: String) -> Result<Budget, String> {
        Budget::parse(&s)
    }
}

/// The budget lists given on the command line (`--nodes 1000,4000`, ...).
#[derive(Clone, Debug, Default)]
pub struct BudgetLists {
    pub nodes: Vec<Budget>,
    pub depth: Vec<Budget>,
    pub movetime: Vec<Budget>,
}

impl BudgetLists {
    /// The budgets of a variant: `depth` for the simultaneous variants
    /// when given (their search is measured in turns, 1-2 in practice),
    /// else `nodes` or `movetime`; the turn-based and crowd variants take
    /// `nodes` or `movetime`, else `depth`.
    pub fn for_family(&self, simultaneous: bool) -> Result<Vec<Budget>, String> {
        if !self.nodes.is_empty() && !self.movetime.is_empty() {
            return Err("give --nodes or --movetime, not both".into());
        }
        let per_move = if self.nodes.is_empty() {
            &self.movetime
        } else {
            &self.nodes
        };
        let list = match (simultaneous, per_move.is_empty()) {
            (true, _) if !self.depth.is_empty() => &self.depth,
            (_, false) => per_move,
            (_, true) => &self.depth,
        };
        if list.is_empty() {
            return Err("no budget: give --nodes, --depth or --movetime".into());
        }
        Ok(list.clone())
    }
}

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum OpeningSet {
    /// The variant's start position.
    Start,
    /// Random balanced openings of this many plies; a simultaneous turn
    /// is two plies (one move per side), so every variant gets the same
    /// number of moves per side.
    Random { plies: usize },
    /// An openings file (formats of docs/match.md).
    File(PathBuf),
}

impl OpeningSet {
    /// Reads `start`, `random:PLIES` or a file name.
    pub fn parse(text: &str) -> Result<OpeningSet, String> {
        if text == "start" {
            return Ok(OpeningSet::Start);
        }
        if let Some(n) = text.strip_prefix("random:") {
            let plies: usize = n
                .trim()
                .parse()
                .map_err(|_| format!("--openings `{text}`: random:PLIES needs a whole number"))?;
            if plies == 0 {
                return Err(format!(
                    "--openings `{text}`: no random move is the start position; say --openings start"
                ));
            }
            if plies % 2 == 1 {
                return Err(format!(
                    "--openings `{text}`: give an even number of plies, so that White moves first after the opening"
                ));
            }
            return Ok(OpeningSet::Random { plies });
        }
        if text.is_empty() {
            return Err("--openings: empty".into());
        }
        Ok(OpeningSet::File(PathBuf::from(text)))
    }
}

impl fmt::Display for OpeningSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSet::Start => f.write_str("start"),
            OpeningSet::Random { plies } => write!(f, "random:{plies}"),
            OpeningSet::File(p) => write!(f, "{}", p.display()),
        }
    }
}

impl From<OpeningSet> for String {
    fn from(o: OpeningSet) -> String {
        o.to_string()
    }
}

impl TryFrom<String> for OpeningSet {
    type Error = String;
    fn try_from(s: String) -> Result<OpeningSet, String> {
        OpeningSet::parse(&s)
    }
}

/// One variant of a study and the budgets it is played at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantPlan {
    pub id: String,
    pub simultaneous: bool,
    /// From the smallest.
    pub budgets: Vec<Budget>,
}

/// What defines a study: the same parameters give the same games, and a
/// results file holds the games of one set of parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyParams {
    pub study: String,
    pub seed: u64,
    /// Games per variant and budget.
    pub games: usize,
    pub variants: Vec<VariantPlan>,
    pub openings: OpeningSet,
    /// A draw at this many plies (turn-based and crowd variants).
    pub max_plies: Option<u32>,
    /// A draw at this many turns (simultaneous variants).
    pub max_turns: Option<u32>,
    /// The engine as `--engine` gives it (`parity`: our own).
    pub engine: String,
}

impl StudyParams {
    /// The parameters of a first-move study of `variants` (ids), each at
    /// the budgets of its family.
    #[allow(clippy::too_many_arguments)]
    pub fn first_move(
        registry: &Registry,
        variants: &[String],
        budgets: &BudgetLists,
        games: usize,
        openings: OpeningSet,
        seed: u64,
        max_plies: Option<u32>,
        max_turns: Option<u32>,
        engine: String,
    ) -> Result<StudyParams, String> {
        if variants.is_empty() {
            return Err("no variant: give --variant chess,parity,...".into());
        }
        if games == 0 {
            return Err("--games must be at least 1".into());
        }
        let mut plans: Vec<VariantPlan> = Vec::new();
        for id in variants {
            let v = registry.get_or_err(id).map_err(|e| e.to_string())?;
            if plans.iter().any(|p| p.id == v.id()) {
                return Err(format!("variant `{id}` is given twice"));
            }
            let simultaneous = sim_board::is_simultaneous(v);
            plans.push(VariantPlan {
                id: v.id().to_string(),
                simultaneous,
                budgets: budgets.for_family(simultaneous)?,
            });
        }
        Ok(StudyParams {
            study: FIRST_MOVE.to_string(),
            seed,
            games,
            variants: plans,
            openings,
            max_plies,
            max_turns,
            engine,
        })
    }

    /// Games of the whole study.
    pub fn total_games(&self) -> usize {
        self.games * self.variants.iter().map(|v| v.budgets.len()).sum::<usize>()
    }
}

/// FNV-1a: a stable hash of text (std's hashers may change between releases).
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A seed for one use (`what`) in one variant, from the study's seed.
fn derived_seed(seed: u64, variant: &str, what: &str) -> u64 {
    mix(mix(seed ^ fnv1a(variant)) ^ fnv1a(what))
}

/// One match of a study: a variant at a budget.
#[derive(Debug)]
pub struct Run {
    pub variant: &'static Variant,
    pub budget: Budget,
    /// Game i (0-based) starts from `openings[i]`.
    pub openings: Vec<Opening>,
    /// Seeds the engines of each game ([`tournament::game_seed`]).
    pub engine_seed: u64,
}

/// The opening of a game as a results file keeps it: the start FEN (when
/// not the variant's) and the moves in coordinates.
pub fn opening_text(o: &Opening) -> (Option<String>, String) {
    (o.fen.clone(), o.moves.join(" "))
}

/// The openings of one variant: `games` of them, the same at every budget.
fn variant_openings(
    params: &StudyParams,
    plan: &VariantPlan,
    variant: &'static Variant,
) -> Result<Vec<Opening>, String> {
    let games = params.games;
    let deterministic = plan.budgets.iter().any(|b| b.is_deterministic());
    let list = match &params.openings {
        OpeningSet::Start => {
            if !plan.simultaneous && deterministic && games > 1 {
                return Err(format!(
                    "--openings start: in {} our engine plays the same game every time at a node or depth budget, so {games} games would be one game repeated; use --openings random:PLIES (or --games 1)",
                    plan.id
                ));
            }
            vec![Opening::default()]
        }
        OpeningSet::Random { plies } => {
            let length = if plan.simultaneous { plies / 2 } else { *plies };
            openings::random_balanced(
                variant,
                games,
                length,
                derived_seed(params.seed, &plan.id, "openings"),
            )
            .map_err(|e| format!("{}: {e}", plan.id))?
        }
        OpeningSet::File(path) => {
            let list = openings::load(path, variant).map_err(|e| format!("{}: {e}", plan.id))?;
            if !plan.simultaneous {
                for (i, o) in list.iter().enumerate() {
                    if o.board(variant)?.to_move() != Some(Color::White) {
                        return Err(format!(
                            "{}: opening {} of {} leaves Black to move; a first-move study starts every game with White to move",
                            path.display(),
                            i + 1,
                            plan.id
                        ));
                    }
                }
            }
            list
        }
    };
    // Game i takes opening i, again from the first when the games outnumber them.
    Ok((0..games).map(|i| list[i % list.len()].clone()).collect())
}

/// The runs of a study, in the order they are played: each variant in
/// turn, each at its budgets from the smallest.
pub fn plan(registry: &Registry, params: &StudyParams) -> Result<Vec<Run>, String> {
    if params.study != FIRST_MOVE {
        return Err(format!("unknown study `{}`", params.study));
    }
    let mut runs = Vec::new();
    for plan in &params.variants {
        let variant = registry.get_or_err(&plan.id).map_err(|e| e.to_string())?;
        if !sim_board::is_simultaneous(variant) {
            turn_game(variant, None).map_err(|e| format!("{}: {e}", plan.id))?;
        }
        if sim_board::is_simultaneous(variant) != plan.simultaneous {
            return Err(format!(
                "variant {}: its family differs from the study's",
                plan.id
            ));
        }
        let openings = variant_openings(params, plan, variant)?;
        for &budget in &plan.budgets {
            runs.push(Run {
                variant,
                budget,
                openings: openings.clone(),
                engine_seed: derived_seed(params.seed, &plan.id, "engines"),
            });
        }
    }
    Ok(runs)
}

/// One of `count` disjoint parts of a study: the games whose number in
/// the whole study (runs in order, games in order within a run, from 0)
/// leaves `index` when divided by `count`. Each game keeps its seed, so
/// the shards together play exactly the games of the whole study.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole study.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N`, 0 <= K < N (the index of a Slurm job array
    /// `--array=0-(N-1)` or of a Kubernetes Indexed Job).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("shard `{text}`: expected K/N, as 0/4"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("shard `{text}`: `{t}` is not a whole number"))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || index >= count {
            return Err(format!(
                "shard `{text}`: K must be 0 to N-1 and N at least 1"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether game `game` (0-based) of run `run` is in this shard.
    pub fn holds(self, games_per_run: usize, run: usize, game: usize) -> bool {
        (run * games_per_run + game) % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How a study runs; none of this changes its games.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub results: PathBuf,
    /// The part of the study this process plays.
    pub shard: Shard,
    /// Games played at the same time.
    pub concurrency: usize,
    pub hang_timeout: Duration,
    pub time_margin: Duration,
    /// Append each game's quiet positions with its result here
    /// ([`crate::positions`]; the simultaneous variants' games give none).
    pub positions: Option<PathBuf>,
}

/// What a study reports while it runs (on the calling thread).
pub enum Progress<'a> {
    /// Before the first game: all games of the study, and those the
    /// results file already holds.
    Started { total: usize, done: usize },
    /// A variant at a budget begins, with this many games to play.
    Run {
        variant: &'a str,
        budget: Budget,
        games: usize,
    },
    /// A game ended and its line is in the results file.
    Game { line: &'a GameLine },
}

fn game_line(id: &str, run: &Run, game: &GameRecord) -> GameLine {
    let (fen, opening) = opening_text(&run.openings[game.number - 1]);
    let simultaneous = sim_board::is_simultaneous(run.variant);
    let length = (game.opening.len() + game.moves.len() + game.turns.len()) as u32;
    GameLine {
        study: id.to_string(),
        variant: run.variant.id().to_string(),
        budget: run.budget,
        game: game.number,
        fen,
        opening,
        result: GameResult::of(game.ending.winner),
        end: game.ending.cause,
        reason: game.ending.reason.clone(),
        plies: (!simultaneous).then_some(length),
        turns: simultaneous.then_some(length),
    }
}

/// Plays the games of the study that `options.results` lacks, appending
/// each to it as it ends. `own` is our engine's command (for `parity`).
pub fn run(
    registry: &Registry,
    params: &StudyParams,
    own: Option<&OwnEngine>,
    options: &RunOptions,
    mut on_progress: impl FnMut(Progress),
) -> Result<(), String> {
    let engine = EngineSpec::parse(&params.engine, own)?;
    if !engine.limits.is_empty() {
        return Err(format!(
            "engine `{}`: the study's budgets limit the engine; leave tc, nodes, depth and movetime out of --engine",
            params.engine
        ));
    }
    let runs = plan(registry, params)?;
    let (mut writer, done) = results::open_for_study(&options.results, params)?;
    let id = writer.id().to_string();
    let mut positions = options
        .positions
        .as_deref()
        .map(PositionsFile::append)
        .transpose()?;
    let mut have: std::collections::HashSet<(String, Budget, usize)> = Default::default();
    for line in &done {
        let run = runs
            .iter()
            .find(|r| r.variant.id() == line.variant && r.budget == line.budget)
            .filter(|_| line.game >= 1 && line.game <= params.games)
            .ok_or_else(|| {
                format!(
                    "{}: game {} of {} at {} is not part of this study",
                    options.results.display(),
                    line.game,
                    line.variant,
                    line.budget
                )
            })?;
        let planned = opening_text(&run.openings[line.game - 1]);
        if (line.fen.clone(), line.opening.clone()) != planned {
            return Err(format!(
                "{}: game {} of {} at {} started from `{}`, this study plans `{}`: the openings differ (another openings file, or another version of parity?)",
                options.results.display(),
                line.game,
                line.variant,
                line.budget,
                line.opening,
                planned.1
            ));
        }
        have.insert((line.variant.clone(), line.budget, line.game));
    }
    let shard = options.shard;
    let mine = |r: usize, i: usize| shard.holds(params.games, r, i);
    on_progress(Progress::Started {
        total: (0..runs.len())
            .map(|r| (0..params.games).filter(|&i| mine(r, i)).count())
            .sum(),
        done: have.len(),
    });
    let adjudication = Adjudication {
        max_plies: params.max_plies,
        max_turns: params.max_turns,
        ..Adjudication::default()
    };
    for (r, run) in runs.iter().enumerate() {
        let missing: Vec<usize> = (0..params.games)
            .filter(|&i| mine(r, i))
            .filter(|i| !have.contains(&(run.variant.id().to_string(), run.budget, i + 1)))
            .collect();
        if missing.is_empty() {
            continue;
        }
        on_progress(Progress::Run {
            variant: run.variant.id(),
            budget: run.budget,
            games: missing.len(),
        });
        let config = MatchConfig {
            variant: run.variant,
            engines: [engine.clone(), engine.clone()],
            limits: run.budget.limits(),
            openings: run.openings.clone(),
            pairing: Pairing::OnePerGame,
            games: params.games,
            only: Some(missing),
            engine_seed: Some(run.engine_seed),
            concurrency: options.concurrency,
            adjudication,
            time_margin: options.time_margin,
            hang_timeout: options.hang_timeout,
            sprt: None,
            event: format!("parity study {}", params.study),
            log: None,
        };
        let mut failure: Option<String> = None;
        tournament::run(&config, |event| {
            if let Event::GameFinished { game, .. } = event {
                if failure.is_some() {
                    return;
                }
                let line = game_line(&id, run, game);
                // The results line first: a kill between the two loses the
                // game's positions rather than writing them twice on resume.
                let written = writer
                    .append(&line)
                    .and_then(|()| match positions.as_mut() {
                        Some(p) => p.write_game(game).map(|_| ()),
                        None => Ok(()),
                    });
                match written {
                    Ok(()) => on_progress(Progress::Game { line: &line }),
                    Err(e) => failure = Some(e),
                }
            }
        })
        .map_err(|e| format!("{} at {}: {e}", run.variant.id(), run.budget))?;
        if let Some(e) = failure {
            return Err(e);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games_into_disjoint_parts() {
        assert_eq!(Shard::parse("2/4").unwrap(), Shard { index: 2, count: 4 });
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (0..3).map(|index| Shard { index, count: 3 }).collect();
        for run in 0..4 {
            for game in 0..7 {
                let holders = shards.iter().filter(|s| s.holds(7, run, game)).count();
                assert_eq!(holders, 1, "run {run} game {game}");
                assert!(Shard::ALL.holds(7, run, game));
            }
        }
    }

    #[test]
    fn budgets_read_and_go_to_their_families() {
        assert_eq!(Budget::parse("nodes=1000").unwrap(), Budget::Nodes(1000));
        assert_eq!(Budget::parse("depth=2").unwrap().to_string(), "depth=2");
        assert_eq!(
            Budget::parse_list("nodes", "4000, 1000,4000").unwrap(),
            [Budget::Nodes(1000), Budget::Nodes(4000)]
        );
        for bad in [
            "nodes=0",
            "nodes=x",
            "speed=3",
            "depth",
            "depth=99999999999",
        ] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
        assert!(Budget::parse_list("nodes", "1000,ten")
            .unwrap_err()
            .contains("`ten`"));
        assert!(Budget::parse_list("depth", " , ").is_err());

        let lists = BudgetLists {
            nodes: vec![Budget::Nodes(200)],
            depth: vec![Budget::Depth(1), Budget::Depth(2)],
            movetime: vec![],
        };
        assert_eq!(lists.for_family(false).unwrap(), [Budget::Nodes(200)]);
        assert_eq!(lists.for_family(true).unwrap().len(), 2);
        let nodes_only = BudgetLists {
            depth: vec![],
            ..lists.clone()
        };
        assert_eq!(nodes_only.for_family(true).unwrap(), [Budget::Nodes(200)]);
        let depth_only = BudgetLists {
            nodes: vec![],
            ..lists.clone()
        };
        assert_eq!(depth_only.for_family(false).unwrap().len(), 2);
        assert!(BudgetLists::default().for_family(false).is_err());
        let both = BudgetLists {
            movetime: vec![Budget::Movetime(50)],
            ..lists
        };
        assert!(both.for_family(false).unwrap_err().contains("not both"));
    }

    #[test]
    fn opening_sets_read() {
        assert_eq!(OpeningSet::parse("start").unwrap(), OpeningSet::Start);
        assert_eq!(
            OpeningSet::parse("random:8").unwrap(),
            OpeningSet::Random { plies: 8 }
        );
        assert!(OpeningSet::parse("random:7").unwrap_err().contains("even"));
        assert!(OpeningSet::parse("random:0").is_err());
        assert!(OpeningSet::parse("random:x").is_err());
        assert_eq!(
            OpeningSet::parse("book.epd").unwrap(),
            OpeningSet::File("book.epd".into())
        );
    }

    fn study(variants: &[&str], openings: &str, games: usize) -> Result<Vec<Run>, String> {
        let registry = Registry::builtin();
        let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
        let p = StudyParams::first_move(
            &registry,
            &variants,
            &BudgetLists {
                nodes: vec![Budget::Nodes(100), Budget::Nodes(300)],
                depth: vec![Budget::Depth(1)],
                movetime: vec![],
            },
            games,
            OpeningSet::parse(openings)?,
            9,
            Some(600),
            Some(300),
            "parity".into(),
        )?;
        plan(&registry, &p)
    }

    #[test]
    fn a_plan_has_a_run_per_variant_and_budget_with_one_opening_per_game() {
        let runs = study(&["chess", "parity"], "random:8", 5).unwrap();
        let names: Vec<String> = runs
            .iter()
            .map(|r| format!("{} {}", r.variant.id(), r.budget))
            .collect();
        assert_eq!(
            names,
            ["chess nodes=100", "chess nodes=300", "parity depth=1"]
        );
        // The same openings at every budget; 8 plies, or 4 turns.
        assert_eq!(runs[0].openings, runs[1].openings);
        assert_eq!(runs[0].openings.len(), 5);
        assert!(runs[0].openings.iter().all(|o| o.moves.len() == 8));
        assert!(runs[2].openings.iter().all(|o| o.moves.len() == 4));
        // The start is refused where it would be one game repeated.
        let e = study(&["chess"], "start", 5).unwrap_err();
        assert!(e.contains("same game"), "{e}");
        assert_eq!(study(&["chess"], "start", 1).unwrap().len(), 2);
        assert_eq!(study(&["parity"], "start", 5).unwrap()[0].openings.len(), 5);
        // Bad input is an error, not a panic.
        let e = study(&["chess", "chesss"], "random:8", 5).unwrap_err();
        assert!(e.contains("chesss"), "{e}");
        assert!(study(&["chess", "chess"], "random:8", 5).is_err());
        assert!(study(&["chess"], "random:8", 0).is_err());
        assert!(study(&[], "random:8", 5).is_err());
        assert!(study(&["chess"], "/nonexistent/openings.epd", 5)
            .unwrap_err()
            .contains("/nonexistent/openings.epd"));
    }

    #[test]
    fn engine_seeds_depend_on_the_study_seed_and_variant_only() {
        let a = derived_seed(1, "chess", "engines");
        assert_eq!(a, derived_seed(1, "chess", "engines"));
        assert_ne!(a, derived_seed(2, "chess", "engines"));
        assert_ne!(a, derived_seed(1, "parity", "engines"));
        assert_ne!(a, derived_seed(1, "chess", "openings"));
        let s = tournament::game_seed(a, 3, Color::White);
        assert!(s < 1 << 32);
        assert_ne!(s, tournament::game_seed(a, 3, Color::Black));
        assert_ne!(s, tournament::game_seed(a, 4, Color::White));
    }
}
