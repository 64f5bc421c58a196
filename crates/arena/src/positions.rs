//! Training positions for tuning an evaluation from game results (Texel
//! tuning): each finished game's quiet positions with its result, one per
//! line, `<FEN> [<White's score>] <centipawns>`, e.g.
//! `rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [1.0] -21`.
//! The centipawns, for White, are what the engine to move reported for
//! its move there (the labels of a learned evaluation); they are left out
//! when it reported none or a mate.
//!
//! A game gives the positions before each of its moves except: the
//! opening's plies and the [`SKIP_PLIES`] after them (still the opening's
//! play, not the engines' own positions), positions whose side to move is
//! in check, and positions whose next move was a capture or a promotion
//! (not quiet: the evaluation would be read before the exchange). The last
//! position has no next move and is left out. A game whose result is not a
//! game result (an engine crashed, hung, sent an illegal move) gives
//! nothing. Simultaneous variants have no side to move and give nothing.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use parity_rules::{Color, Variant};

use crate::board::{mover, turn_game};
use crate::engine::Score;
use crate::game::{Ending, GameRecord, Termination};
use crate::sim_board;

/// Engine plies after the opening whose positions are left out.
pub const SKIP_PLIES: usize = 8;

/// White's score as the line writes it: `1.0`, `0.5` or `0.0`.
pub fn score_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1.0",
        None => "0.5",
        Some(Color::Black) => "0.0",
    }
}

/// Whether an ending is a result of the game played: the rules, a
/// resignation, adjudication or a loss on time; not an engine that
/// crashed, hung or broke the protocol, whose result says nothing about
/// the position.
pub fn is_game_result(ending: &Ending) -> bool {
    matches!(
        ending.termination,
        Termination::Normal | Termination::Adjudication | Termination::TimeForfeit
    )
}

/// Why a variant's games give no positions, if so.
pub fn refuses(variant: &Variant) -> Option<String> {
    sim_board::is_simultaneous(variant).then(|| {
        format!(
            "{} is a simultaneous variant: both sides move at once, so its positions have no side to move to score; positions are written for turn-based and crowd variants only",
            variant.id()
        )
    })
}

/// The lines of a finished game (see the module docs), each ending in `\n`.
pub fn lines(game: &GameRecord) -> Vec<String> {
    let mut out = Vec::new();
    if refuses(game.variant).is_some() || !is_game_result(&game.ending) {
        return out;
    }
    let Ok(mut board) = turn_game(game.variant, game.start_fen.as_deref()) else {
        return out;
    };
    let result = score_text(game.ending.winner);
    let first = game.opening.len() + SKIP_PLIES;
    let plies = game
        .opening
        .iter()
        .map(|(uci, _)| uci.as_str())
        .chain(game.moves.iter().map(|m| m.uci.as_str()));
    let first_move = game.opening.len();
    for (ply, text) in plies.enumerate() {
        let side = mover(&board);
        // The record holds moves the rules accepted; stop rather than guess.
        let Ok(mv) = board.read_move(side, text) else {
            break;
        };
        let quiet = mv.promotion.is_none() && board.captured(side, mv).is_none();
        if ply >= first && quiet && !board.in_check(side) {
            let score = game.moves[ply - first_move]
                .score
                .and_then(|s| match s {
                    Score::Cp(cp) if side == Color::White => Some(cp),
                    Score::Cp(cp) => Some(-cp),
                    Score::Mate(_) => None,
                })
                .map_or(String::new(), |cp| format!(" {cp}"));
            out.push(format!("{} [{result}]{score}\n", board.fen()));
        }
        if board.play(mv).is_err() {
            break;
        }
    }
    out
}

/// A positions file opened for appending.
pub struct PositionsFile {
    file: File,
    path: PathBuf,
    /// Lines written so far.
    pub lines: u64,
    /// Games whose positions were written (perhaps none of them qualified).
    pub games: u64,
    /// Games left out because their result is not a game result.
    pub skipped: u64,
}

impl PositionsFile {
    /// Opens `path` for appending, creating it.
    pub fn append(path: &Path) -> Result<PositionsFile, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(PositionsFile {
            file,
            path: path.to_path_buf(),
            lines: 0,
            games: 0,
            skipped: 0,
        })
    }

    /// Appends a game's lines. They go out in one write on a file opened
    /// for appending, so processes sharing the file (the shards of a
    /// study) do not interleave lines; within a process one thread writes.
    pub fn write_game(&mut self, game: &GameRecord) -> Result<usize, String> {
        if refuses(game.variant).is_some() {
            return Ok(0);
        }
        if !is_game_result(&game.ending) {
            self.skipped += 1;
            return Ok(0);
        }
        let lines = lines(game);
        self.games += 1;
        if !lines.is_empty() {
            self.file
                .write_all(lines.concat().as_bytes())
                .map_err(|e| format!("writing {}: {e}", self.path.display()))?;
        }
        self.lines += lines.len() as u64;
        Ok(lines.len())
    }

    /// One line on what was written, e.g. for the end of a match.
    pub fn summary(&self) -> String {
        format!(
            "Positions: {} lines from {} games appended to {}{}",
            self.lines,
            self.games,
            self.path.display(),
            if self.skipped > 0 {
                format!(" ({} games left out: an engine failed)", self.skipped)
            } else {
                String::new()
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cause, PlayedMove};
    use crate::limits::Limits;
    use parity_rules::Registry;
    use std::time::Duration;

    fn played(uci: &str) -> PlayedMove {
        PlayedMove {
            uci: uci.into(),
            san: String::new(),
            score: None,
            depth: None,
            elapsed: Duration::ZERO,
            value: None,
            strategy: Vec::new(),
            opponent: Vec::new(),
        }
    }

    fn record(variant: &str, opening: &[&str], moves: &[&str], ending: Ending) -> GameRecord {
        GameRecord {
            number: 1,
            variant: Registry::builtin().get(variant).unwrap(),
            white: "a".into(),
            black: "b".into(),
            start_fen: None,
            opening: opening
                .iter()
                .map(|m| (m.to_string(), String::new()))
                .collect(),
            moves: moves.iter().copied().map(played).collect(),
            turns: Vec::new(),
            ending,
            limits: [Limits::default(); 2],
            failed: [false, false],
        }
    }

    fn ending(winner: Option<Color>, termination: Termination) -> Ending {
        Ending {
            winner,
            termination,
            cause: Cause::Other,
            reason: String::new(),
        }
    }

    #[test]
    fn quiet_positions_after_the_opening_with_the_result() {
        // 2 opening plies and 8 more left out, then quiet moves and captures.
        let opening = ["e2e4", "e7e5"];
        let moves = [
            "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "e1g1", "d7d6", // skipped
            "c1g5", // written
            "h7h6", // written
            "g5f6", // capture: not written
            "d8f6", // capture: not written
            "c2c3", // written
        ];
        let g = record(
            "chess",
            &opening,
            &moves,
            ending(Some(Color::White), Termination::Adjudication),
        );
        let l = lines(&g);
        assert_eq!(l.len(), 3, "{l:?}");
        assert!(
            l[0].starts_with(
                "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w kq - 0 6 [1.0]"
            ),
            "{l:?}"
        );
        assert!(l.iter().all(|x| x.ends_with(" [1.0]\n")));
        // The mover's score follows, for White.
        let mut scored = g.clone();
        scored.moves[8].score = Some(Score::Cp(35));
        scored.moves[9].score = Some(Score::Cp(20));
        scored.moves[12].score = Some(Score::Mate(3));
        let l = lines(&scored);
        assert!(l[0].ends_with(" [1.0] 35\n"), "{l:?}");
        assert!(
            l[1].ends_with(" [1.0] -20\n"),
            "Black's score turned: {l:?}"
        );
        assert!(
            l[2].ends_with(" [1.0]\n"),
            "no centipawns for a mate: {l:?}"
        );
        // A draw and a Black win are 0.5 and 0.0.
        let g = record("chess", &opening, &moves, ending(None, Termination::Normal));
        assert!(lines(&g).iter().all(|x| x.ends_with(" [0.5]\n")));
        let g = record(
            "chess",
            &opening,
            &moves,
            ending(Some(Color::Black), Termination::TimeForfeit),
        );
        assert_eq!(lines(&g).len(), 3);
        assert!(lines(&g).iter().all(|x| x.ends_with(" [0.0]\n")));
        // A crash, a hang or an illegal move: nothing.
        for t in [
            Termination::Abandoned,
            Termination::StalledConnection,
            Termination::RulesInfraction,
        ] {
            let g = record("chess", &opening, &moves, ending(Some(Color::White), t));
            assert!(lines(&g).is_empty(), "{t:?}");
        }
    }

    #[test]
    fn checks_are_left_out_and_simultaneous_variants_refused() {
        let moves = [
            "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "d7d6", "e1g1", "c8g4", // skipped
            "f3g5", // written
            "h7h6", // written
            "c4f7", // capture: not written
            "e8e7", // quiet, but Black is in check: not written
            "b2b3", // written
        ];
        let g = record(
            "chess",
            &["e2e4", "e7e5"],
            &moves,
            ending(None, Termination::Normal),
        );
        let l = lines(&g);
        assert_eq!(l.len(), 3, "{l:?}");
        assert!(l[2].contains(" w - - "), "{l:?}");
        let reg = Registry::builtin();
        assert!(refuses(reg.get("parity").unwrap()).is_some());
        assert!(refuses(reg.get("safety-in-numbers").unwrap()).is_none());
    }
}
