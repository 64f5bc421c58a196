//! The report of a study: per variant and budget White's score with its
//! 95% interval, the draw rate, how games end, how long they last, and
//! the score as the budget grows; as Markdown with SVG and PNG plots
//! ([`write`]), and as a short table for the terminal ([`Tally::table`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::plot::{self, Interval};
use super::results::{GameResult, Results};
use super::{Budget, StudyParams};
use crate::game::Cause;
use crate::stats::{self, Estimate, Proportion, Trinomial};

/// The games of one variant at one budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub variant: String,
    pub simultaneous: bool,
    pub budget: Budget,
    /// Games the study plans here.
    pub planned: usize,
    /// White's wins (`wins`), the draws, Black's wins (`losses`).
    pub white: Trinomial,
    pub ends: BTreeMap<Cause, u32>,
    /// Game lengths in plies (turns in simultaneous variants), sorted.
    pub lengths: Vec<u32>,
}

impl Cell {
    pub fn games(&self) -> u32 {
        self.white.games()
    }

    /// White's score (win 1, draw ½) with its 95% interval (trinomial).
    pub fn score(&self) -> Option<Estimate> {
        stats::trinomial_estimate(&self.white)
    }

    /// The share of draws with its 95% (Wilson) interval.
    pub fn draw_rate(&self) -> Option<Proportion> {
        stats::wilson(self.white.draws, self.games())
    }

    pub fn unit(&self) -> &'static str {
        if self.simultaneous {
            "turns"
        } else {
            "plies"
        }
    }
}

/// A results file counted up.
#[derive(Clone, Debug)]
pub struct Tally {
    pub path: PathBuf,
    pub id: String,
    pub params: StudyParams,
    /// Each variant of the study at each of its budgets, in the study's order.
    pub cells: Vec<Cell>,
}

/// Counts the games of a results file per variant and budget.
pub fn tally(results: &Results) -> Tally {
    let params = &results.params;
    let mut cells: Vec<Cell> = params
        .variants
        .iter()
        .flat_map(|v| {
            v.budgets.iter().map(|&budget| Cell {
                variant: v.id.clone(),
                simultaneous: v.simultaneous,
                budget,
                planned: params.games,
                white: Trinomial::default(),
                ends: BTreeMap::new(),
                lengths: Vec::new(),
            })
        })
        .collect();
    for g in &results.games {
        let Some(cell) = cells
            .iter_mut()
            .find(|c| c.variant == g.variant && c.budget == g.budget)
        else {
            continue;
        };
        match g.result {
            GameResult::WhiteWins => cell.white.wins += 1,
            GameResult::Draw => cell.white.draws += 1,
            GameResult::BlackWins => cell.white.losses += 1,
        }
        *cell.ends.entry(g.end).or_default() += 1;
        cell.lengths.push(g.length());
    }
    for c in &mut cells {
        c.lengths.sort_unstable();
    }
    Tally {
        path: results.path.clone(),
        id: results.id.clone(),
        params: params.clone(),
        cells,
    }
}

fn interval(e: Estimate) -> Interval {
    Interval {
        value: e.score,
        low: e.score_low,
        high: e.score_high,
    }
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn score_text(c: &Cell) -> String {
    match c.score() {
        Some(e) => format!("{:.3} ({:.3} to {:.3})", e.score, e.score_low, e.score_high),
        None => "-".into(),
    }
}

fn draws_text(c: &Cell) -> String {
    match c.draw_rate() {
        Some(p) => format!(
            "{} ({:.1} to {:.1})",
            pct(p.value),
            100.0 * p.low,
            100.0 * p.high
        ),
        None => "-".into(),
    }
}

/// Mean, median, smallest and largest of sorted values.
fn length_stats(sorted: &[u32]) -> Option<(f64, f64, u32, u32)> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let mean = sorted.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        sorted[n / 2] as f64
    } else {
        (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0
    };
    Some((mean, median, sorted[0], sorted[n - 1]))
}

/// The plots of a report, by file stem.
pub const PLOTS: [&str; 5] = ["score", "draws", "endings", "lengths", "score-vs-budget"];

impl Tally {
    pub fn games(&self) -> usize {
        self.cells.iter().map(|c| c.games() as usize).sum()
    }

    /// Each variant once: at its largest budget that has games (the
    /// strongest play measured), else its largest.
    pub fn headline(&self) -> Vec<&Cell> {
        let mut out: Vec<&Cell> = Vec::new();
        for c in &self.cells {
            match out.iter_mut().find(|h| h.variant == c.variant) {
                Some(h) => {
                    if c.games() > 0 || h.games() == 0 {
                        *h = c;
                    }
                }
                None => out.push(c),
            }
        }
        out
    }

    /// Budget levels (1st, 2nd, ... budget of each variant) as labels.
    fn levels(&self) -> Vec<String> {
        let most = self
            .params
            .variants
            .iter()
            .map(|v| v.budgets.len())
            .max()
            .unwrap_or(0);
        (0..most)
            .map(|i| {
                let mut names: Vec<String> = self
                    .params
                    .variants
                    .iter()
                    .filter_map(|v| v.budgets.get(i).map(|b| b.to_string()))
                    .collect();
                names.dedup();
                names.sort();
                names.dedup();
                names.join(" / ")
            })
            .collect()
    }

    /// The short table for the terminal.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<18} {:<14} {:>6}  {:>13}  {:<28} draws (95%)",
            "variant", "budget", "games", "White W-D-L", "White's score (95%)"
        );
        for c in &self.cells {
            let t = &c.white;
            let _ = writeln!(
                out,
                "{:<18} {:<14} {:>6}  {:>13}  {:<28} {}",
                c.variant,
                c.budget.to_string(),
                format!("{}/{}", c.games(), c.planned),
                format!("{}-{}-{}", t.wins, t.draws, t.losses),
                score_text(c),
                draws_text(c)
            );
        }
        out
    }

    /// The report as Markdown, with the plots as `<stem>.svg` beside it.
    pub fn markdown(&self) -> String {
        let p = &self.params;
        let mut md = String::new();
        let _ = writeln!(md, "# White's first-move advantage\n");
        let _ = writeln!(
            md,
            "Study `{}` (id `{}`), seed {}: the engine `{}` against itself, {} games per variant and budget, openings `{}`; a draw is adjudicated at {} plies ({} turns in simultaneous variants). Results file `{}`: {} of {} games.\n",
            p.study,
            self.id,
            p.seed,
            p.engine,
            p.games,
            p.openings,
            p.max_plies.map_or("no limit of".into(), |n| n.to_string()),
            p.max_turns.map_or("no limit of".into(), |n| n.to_string()),
            self.path.display(),
            self.games(),
            p.total_games()
        );
        let _ = writeln!(
            md,
            "White's score counts a win 1 and a draw ½, with its 95% interval from the trinomial model (`stats.rs`); the draw rate's interval is Wilson's. Elo is the logistic difference of White's score. In the simultaneous variants neither side moves first, so White's score there measures the rules' asymmetry, if any.\n"
        );
        let _ = writeln!(md, "## Every variant and budget\n");
        let _ = writeln!(
            md,
            "| variant | budget | games | White wins | draws | Black wins | White's score (95%) | Elo | draw rate (95%) |"
        );
        let _ = writeln!(md, "|---|---|--:|--:|--:|--:|---|--:|---|");
        for c in &self.cells {
            let t = &c.white;
            let _ = writeln!(
                md,
                "| {} | {} | {}/{} | {} | {} | {} | {} | {} | {} |",
                c.variant,
                c.budget,
                c.games(),
                c.planned,
                t.wins,
                t.draws,
                t.losses,
                score_text(c),
                c.score().map_or("-".into(), |e| elo(e.elo)),
                draws_text(c)
            );
        }
        let head = self.headline();
        let names: Vec<String> = head
            .iter()
            .map(|c| format!("{} at {}", c.variant, c.budget))
            .collect();
        let _ = writeln!(
            md,
            "\nThe next four plots show each variant at its largest budget: {}.\n",
            names.join(", ")
        );
        let _ = writeln!(md, "## White's score\n");
        let _ = writeln!(
            md,
            "![White's score per variant with 95% intervals](score.svg)\n"
        );
        let _ = writeln!(md, "## Draw rate\n");
        let _ = writeln!(
            md,
            "![Draw rate per variant with 95% intervals](draws.svg)\n"
        );
        let _ = writeln!(md, "## How games end\n");
        let used: Vec<Cause> = Cause::ALL
            .into_iter()
            .filter(|k| head.iter().any(|c| c.ends.contains_key(k)))
            .collect();
        let _ = write!(md, "| variant | budget |");
        for k in &used {
            let _ = write!(md, " {} |", k.name());
        }
        let _ = write!(md, "\n|---|---|");
        for _ in &used {
            let _ = write!(md, "--:|");
        }
        md.push('\n');
        for c in &head {
            let _ = write!(md, "| {} | {} |", c.variant, c.budget);
            for k in &used {
                let _ = write!(md, " {} |", c.ends.get(k).copied().unwrap_or(0));
            }
            md.push('\n');
        }
        let _ = writeln!(md, "\n![How games end, per variant](endings.svg)\n");
        let _ = writeln!(md, "## Game length\n");
        let _ = writeln!(
            md,
            "Opening included; plies in turn-based and crowd variants, turns (a move of each side) in simultaneous ones.\n"
        );
        let _ = writeln!(
            md,
            "| variant | budget | unit | games | mean | median | shortest | longest |"
        );
        let _ = writeln!(md, "|---|---|---|--:|--:|--:|--:|--:|");
        for c in &head {
            match length_stats(&c.lengths) {
                Some((mean, median, lo, hi)) => {
                    let _ = writeln!(
                        md,
                        "| {} | {} | {} | {} | {mean:.1} | {median:.1} | {lo} | {hi} |",
                        c.variant,
                        c.budget,
                        c.unit(),
                        c.games()
                    );
                }
                None => {
                    let _ = writeln!(
                        md,
                        "| {} | {} | {} | 0 | - | - | - | - |",
                        c.variant,
                        c.budget,
                        c.unit()
                    );
                }
            }
        }
        let _ = writeln!(md, "\n![Game length per variant](lengths.svg)\n");
        let _ = writeln!(md, "## Score as the budget grows\n");
        let _ = writeln!(
            md,
            "Each variant's budgets from the smallest (x axis: the level; the table above gives each variant's budgets). Does White's advantage change as the engine gets stronger?\n"
        );
        let _ = writeln!(
            md,
            "![White's score per budget, 95% intervals](score-vs-budget.svg)\n"
        );
        let _ = writeln!(
            md,
            "Each plot is also a PNG beside its SVG ({}).",
            PLOTS
                .iter()
                .map(|s| format!("`{s}.png`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        md
    }

    /// The SVG of each plot of [`PLOTS`], in that order.
    pub fn plots(&self) -> Result<Vec<String>, String> {
        let head = self.headline();
        let labels: Vec<String> = head.iter().map(|c| c.variant.clone()).collect();
        let score = plot::intervals(
            "White's score (95% interval)",
            "White's score",
            &labels,
            &head
                .iter()
                .map(|c| c.score().map(interval))
                .collect::<Vec<_>>(),
            Some(0.5),
            false,
        )?;
        let draws = plot::intervals(
            "Draw rate (95% interval)",
            "share of draws",
            &labels,
            &head
                .iter()
                .map(|c| {
                    c.draw_rate().map(|p| Interval {
                        value: p.value,
                        low: p.low,
                        high: p.high,
                    })
                })
                .collect::<Vec<_>>(),
            None,
            true,
        )?;
        let endings: Vec<(String, Vec<f64>)> = Cause::ALL
            .into_iter()
            .map(|k| {
                let shares = head
                    .iter()
                    .map(|c| {
                        let n = c.games();
                        if n == 0 {
                            0.0
                        } else {
                            c.ends.get(&k).copied().unwrap_or(0) as f64 / n as f64
                        }
                    })
                    .collect();
                (k.name().to_string(), shares)
            })
            .collect();
        let endings = plot::stacked("How games end", "share of games", &labels, &endings)?;
        let lengths = plot::histograms(
            "Game length",
            &head
                .iter()
                .map(|c| {
                    (
                        format!("{} ({})", c.variant, c.budget),
                        c.unit().to_string(),
                        c.lengths.clone(),
                    )
                })
                .collect::<Vec<_>>(),
        )?;
        let levels = self.levels();
        let series: Vec<(String, Vec<Option<Interval>>)> = self
            .params
            .variants
            .iter()
            .map(|v| {
                let points = v
                    .budgets
                    .iter()
                    .map(|b| {
                        self.cells
                            .iter()
                            .find(|c| c.variant == v.id && c.budget == *b)
                            .and_then(Cell::score)
                            .map(interval)
                    })
                    .collect();
                (v.id.clone(), points)
            })
            .collect();
        let by_budget = plot::lines(
            "White's score as the budget grows",
            "budget",
            "White's score",
            &levels,
            &series,
            Some(0.5),
        )?;
        Ok(vec![score, draws, endings, lengths, by_budget])
    }
}

/// Writes `dir/report.md` and each plot as `dir/<stem>.svg` and `.png`;
/// returns the files written.
pub fn write(tally: &Tally, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    let save = |path: PathBuf, text: &str| -> Result<PathBuf, String> {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    };
    written.push(save(dir.join("report.md"), &tally.markdown())?);
    for (stem, svg) in PLOTS.iter().zip(tally.plots()?) {
        written.push(save(dir.join(format!("{stem}.svg")), &svg)?);
        let png = dir.join(format!("{stem}.png"));
        plot::write_png(&svg, &png)?;
        written.push(png);
    }
    Ok(written)
}
