//! Openings: read from a file, or random balanced ones made from a seed.
//!
//! File formats (chosen by content):
//! - PGN: any line starting with `[` makes the file PGN; each game is an
//!   opening (its `[FEN]` tag, if any, and its moves; a `[Variant]` tag
//!   must name the match's variant).
//! - Otherwise one opening per line; empty lines and lines starting with
//!   `#` are skipped.
//!   - A line whose first word holds a `/` is a FEN or EPD: board, side,
//!     castling, en passant, then the two counters if they are numbers
//!     (else `0 1`); EPD operations after it (`bm e4; id "x";`) are
//!     ignored, except `moves` followed by moves to play from the FEN.
//!   - Any other line is moves from the variant's start, in SAN or
//!     coordinates, move numbers allowed: `1. e4 e5 2. Nf3` or `e2e4 e7e5 g1f3`.
//!
//! Every opening is checked when read: a bad FEN or an illegal move is an
//! error naming the line, and an opening must leave a game to play.
//!
//! Random balanced openings: from the variant's start, `plies` uniformly
//! random legal moves, kept only if the side to move is not in check, the
//! game is not over, both sides have the same material by the variant's
//! piece values, and no earlier opening reached the same position; the
//! generator is ChaCha8 seeded with `seed`, so a seed always gives the
//! same openings. Openings are kept as moves, so engines that cannot be
//! given a FEN (Fairy-Max) can play them.
//!
//! Simultaneous variants: an opening's moves are whole turns in coordinates,
//! `e2e4:e7e5`. A file holds simultaneous FENs (`<board> <castling> <en
//! passant> <clock> <turn>`, optionally followed by `moves` and turns), or
//! lines of turns (`e2e4:e7e5 g1f3:b8c6`, or SAN pairs with numbers,
//! `1. e4 e5 2. Nf3 Nc6`), or PGN records as `parity replay` reads them.
//! Random openings are `turns` random pairs of legal moves, kept on the same
//! conditions (neither side in check, the game not over, equal material,
//! a position not seen before).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use parity_rules::{Color, Variant};

use crate::board::{mover, turn_game};
use crate::sim_board;
use parity_rules::{AnyGame, PieceView};

/// A start for games: a FEN (none: the variant's start) and moves played
/// from it before the engines take over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub fen: Option<String>,
    /// Coordinate moves.
    pub moves: Vec<String>,
}

impl Opening {
    /// The game of a simultaneous variant after the opening's turns.
    pub fn sim_game(&self, variant: &'static Variant) -> Result<parity_rules::SimGame, String> {
        sim_board::opening_game(variant, self.fen.as_deref(), &self.moves)
    }

    /// The board after the opening's moves (turn-based and crowd variants).
    pub fn board(&self, variant: &'static Variant) -> Result<AnyGame, String> {
        let mut board = turn_game(variant, self.fen.as_deref()).map_err(|e| e.to_string())?;
        for text in &self.moves {
            let mv = board
                .read_move(mover(&board), text)
                .map_err(|e| format!("`{text}`: {e}"))?;
            board.play(mv).map_err(|e| e.to_string())?;
        }
        Ok(board)
    }
}

/// Reads an opening file for `variant`.
pub fn load(path: &std::path::Path, variant: &'static Variant) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text, variant).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads openings from text (see the module docs for the formats).
pub fn parse(text: &str, variant: &'static Variant) -> Result<Vec<Opening>, String> {
    let openings = if text.lines().any(|l| l.trim_start().starts_with('[')) {
        parse_pgn(text, variant)?
    } else {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = if sim_board::is_simultaneous(variant) {
                parse_sim_line(line, variant)
            } else {
                parse_line(line, variant)
            };
            out.push(opening.map_err(|e| format!("line {}: {e}", i + 1))?);
        }
        out
    };
    if openings.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(openings)
}

fn parse_line(line: &str, variant: &'static Variant) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words[0].contains('/') {
        if words.len() < 4 {
            return Err(format!(
                "`{line}`: a FEN needs board, side, castling and en passant fields"
            ));
        }
        let mut fields: Vec<&str> = words[..4].to_vec();
        let mut rest = &words[4..];
        let counters = rest
            .iter()
            .take(2)
            .take_while(|w| w.parse::<u32>().is_ok())
            .count();
        if counters == 2 {
            fields.extend(&rest[..2]);
            rest = &rest[2..];
        } else {
            fields.extend(["0", "1"]);
        }
        let moves = match rest.iter().position(|w| *w == "moves") {
            Some(i) => rest[i + 1..]
                .iter()
                .map(|w| w.trim_end_matches(';').to_string())
                .filter(|w| !w.is_empty())
                .collect(),
            None => Vec::new(),
        };
        return checked(variant, Some(fields.join(" ")), &moves);
    }
    let moves = movetext_words(line);
    checked(variant, None, &moves)
}

/// Move words of movetext: without numbers, results and `{comments}`.
fn movetext_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut clean = String::new();
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => clean.push(c),
            _ => {}
        }
    }
    for word in clean.split_whitespace() {
        let digits = word.chars().take_while(char::is_ascii_digit).count();
        let word = if digits > 0 && word[digits..].starts_with('.') {
            word[digits..].trim_start_matches('.')
        } else {
            word
        };
        if word.is_empty() || matches!(word, "*" | "1-0" | "0-1" | "1/2-1/2") {
            continue;
        }
        out.push(word.to_string());
    }
    out
}

fn parse_pgn(text: &str, variant: &'static Variant) -> Result<Vec<Opening>, String> {
    // A game starts at a tag line that follows movetext (or at the first tag).
    let mut games: Vec<(usize, String)> = Vec::new();
    let mut prev_tag = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        let is_tag = t.starts_with('[');
        if is_tag && (!prev_tag || games.is_empty()) {
            games.push((i + 1, String::new()));
        }
        if !t.is_empty() {
            prev_tag = is_tag;
        }
        if let Some((_, g)) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    let mut out = Vec::new();
    for (line, game) in games {
        let record =
            parity_rules::record::parse(&game).map_err(|e| format!("game at line {line}: {e}"))?;
        if let Some(v) = record.tag("Variant") {
            let same = v.eq_ignore_ascii_case(variant.id())
                || (variant.id() == "chess" && v.eq_ignore_ascii_case("standard"));
            if !same {
                return Err(format!(
                    "game at line {line} is {v}, the match plays {}",
                    variant.id()
                ));
            }
        }
        let fen = record.tag("FEN").map(str::to_string);
        let opening = if sim_board::is_simultaneous(variant) {
            parity_rules::record::replay_with(variant, &record, |_, _| {})
                .map_err(|e| e.to_string())
                .and_then(|game| {
                    let AnyGame::Simultaneous(game) = game else {
                        unreachable!("a simultaneous variant's record")
                    };
                    let turns = game
                        .turns()
                        .iter()
                        .zip(game.positions())
                        .map(|((m, _), pos)| sim_board::joint_text(pos, *m))
                        .collect::<Vec<_>>();
                    checked_sim(variant, fen, &turns)
                })
        } else {
            let moves: Vec<String> = record.moves.iter().map(|m| m.text.clone()).collect();
            checked(variant, fen, &moves)
        };
        out.push(opening.map_err(|e| format!("game at line {line}: {e}"))?);
    }
    Ok(out)
}

/// Plays the moves, returning them as coordinates.
fn checked(
    variant: &'static Variant,
    fen: Option<String>,
    moves: &[String],
) -> Result<Opening, String> {
    let mut board = turn_game(variant, fen.as_deref()).map_err(|e| e.to_string())?;
    let mut coords = Vec::new();
    for text in moves {
        let side = mover(&board);
        let mv = board
            .read_move(side, text)
            .map_err(|e| format!("`{text}`: {e}"))?;
        coords.push(board.uci(side, mv));
        board.play(mv).map_err(|e| e.to_string())?;
    }
    if let Some(o) = board.outcome() {
        return Err(format!("the opening ends the game ({o})"));
    }
    Ok(Opening { fen, moves: coords })
}

/// A line of a simultaneous variant's opening file: a FEN (maybe with
/// `moves` and turns after it) or turns from the start.
fn parse_sim_line(line: &str, variant: &'static Variant) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (fen, turns) = if words[0].contains('/') {
        let end = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let turns: Vec<String> = words[(end + 1).min(words.len())..]
            .iter()
            .map(|w| w.to_string())
            .collect();
        (Some(words[..end].join(" ")), turns)
    } else {
        (None, movetext_words(line))
    };
    let joint = turns.iter().filter(|w| w.contains(':')).count();
    let turns = if joint == turns.len() {
        turns
    } else if joint == 0 {
        if turns.len() % 2 == 1 {
            return Err(format!(
                "`{}` has no black move beside it: write turns as pairs",
                turns[turns.len() - 1]
            ));
        }
        turns
            .chunks(2)
            .map(|p| format!("{}:{}", p[0], p[1]))
            .collect()
    } else {
        return Err(
            "write every turn as white:black, or every turn as a pair of moves, not both".into(),
        );
    };
    checked_sim(variant, fen, &turns)
}

/// Plays the turns of a simultaneous variant, returning them as coordinates.
fn checked_sim(
    variant: &'static Variant,
    fen: Option<String>,
    turns: &[String],
) -> Result<Opening, String> {
    let game = sim_board::opening_game(variant, fen.as_deref(), turns)?;
    if let Some(o) = game.outcome() {
        return Err(format!("the opening ends the game ({o})"));
    }
    let joint = game
        .turns()
        .iter()
        .zip(game.positions())
        .map(|((m, _), pos)| sim_board::joint_text(pos, *m))
        .collect();
    Ok(Opening { fen, moves: joint })
}

/// `count` distinct random balanced openings of `turns` turns of a simultaneous variant.
fn random_simultaneous(
    variant: &'static Variant,
    count: usize,
    turns: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let start = sim_board::start_position(variant, None)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0usize;
    let max_tries = 1000 + count * 200;
    while out.len() < count {
        tries += 1;
        if tries > max_tries {
            return Err(format!(
                "found only {} distinct balanced openings of {turns} turns in {} ({max_tries} tries); use fewer games or more turns",
                out.len(),
                variant.id()
            ));
        }
        let mut game = parity_rules::SimGame::new(start);
        let mut moves = Vec::new();
        let mut dead = false;
        for _ in 0..turns {
            let pos = *game.position();
            let legal = Color::ALL.map(|c| pos.legal_moves(c));
            if game.outcome().is_some() || legal.iter().any(|l| l.is_empty()) {
                dead = true;
                break;
            }
            let pair = legal.map(|l| l[rng.random_range(0..l.len())]);
            moves.push(sim_board::joint_text(&pos, pair));
            game.play(pair[0], pair[1])
                .map_err(|e| format!("random opening: {e}"))?;
        }
        let pos = game.position();
        if dead
            || game.outcome().is_some()
            || pos.in_check(Color::White)
            || pos.in_check(Color::Black)
        {
            continue;
        }
        let [w, b] = pos.material();
        if w != b || !seen.insert(pos.hash()) {
            continue;
        }
        out.push(Opening { fen: None, moves });
    }
    Ok(out)
}

/// `count` distinct random balanced openings of `plies` plies (see the
/// module docs); for a simultaneous variant, of `plies` turns.
pub fn random_balanced(
    variant: &'static Variant,
    count: usize,
    plies: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    if sim_board::is_simultaneous(variant) {
        return random_simultaneous(variant, count, plies, seed);
    }
    let start = turn_game(variant, None).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0usize;
    let max_tries = 1000 + count * 200;
    while out.len() < count {
        tries += 1;
        if tries > max_tries {
            return Err(format!(
                "found only {} distinct balanced openings of {plies} plies in {} ({max_tries} tries); use fewer games or more plies",
                out.len(),
                variant.id()
            ));
        }
        let mut board = start.clone();
        let mut moves = Vec::new();
        let mut dead = false;
        for _ in 0..plies {
            let side = mover(&board);
            let legal = board.legal_moves(side);
            if legal.is_empty() || board.outcome().is_some() {
                dead = true;
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push(board.uci(side, mv));
            board.play(mv).map_err(|e| format!("random opening: {e}"))?;
        }
        let side = mover(&board);
        if dead || board.outcome().is_some() || board.in_check(side) {
            continue;
        }
        let [w, b] = board.material();
        if w != b || !seen.insert(board.key()) {
            continue;
        }
        out.push(Opening { fen: None, moves });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    fn v(id: &str) -> &'static Variant {
        Registry::builtin().get(id).unwrap()
    }

    #[test]
    fn lines_of_fens_and_moves() {
        let text = "# comment\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
            \n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"spanish\";\n\
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 c7c5\n\
            1. e4 e5 2. Nf3 {a comment} Nc6 *\n\
            d2d4 d7d5 c2c4\n";
        let o = parse(text, v("chess")).unwrap();
        assert_eq!(o.len(), 5);
        assert_eq!(
            o[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert!(o[0].moves.is_empty());
        assert!(o[1].fen.as_deref().unwrap().ends_with(" w KQkq - 0 1"));
        assert_eq!(o[2].moves, vec!["e2e4", "c7c5"]);
        assert_eq!(
            (o[3].fen.as_ref(), o[3].moves.join(" ")),
            (None, "e2e4 e7e5 g1f3 b8c6".to_string())
        );
        assert_eq!(o[4].moves.len(), 3);
        let err = parse("e2e4 e2e4\n", v("chess")).unwrap_err();
        assert!(err.contains("line 1") && err.contains("e2e4"), "{err}");
        assert!(parse("rnbqkbnr/pppppppp w\n", v("chess")).is_err());
        assert!(parse("# nothing\n", v("chess")).is_err());
        assert!(parse("f2f3 e7e5 g2g4 d8h4\n", v("chess"))
            .unwrap_err()
            .contains("ends the game"));
    }

    #[test]
    fn pgn_openings() {
        let text = "[Event \"a\"]\n[Variant \"tutti-frutti\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[Variant \"tutti-frutti\"]\n\n1. d4 d5 2. c4 *\n";
        let o = parse(text, v("tutti-frutti")).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].moves, vec!["d2d4", "d7d5", "c2c4"]);
        assert!(parse(text, v("chess"))
            .unwrap_err()
            .contains("tutti-frutti"));
    }

    #[test]
    fn crowd_openings_read_crowd_fens() {
        let o = parse(
            "4k3/8/8/3(PPn)4/8/8/8/4K3 w - - 0 1\n",
            v("safety-in-numbers"),
        )
        .unwrap();
        assert_eq!(
            o[0].board(v("safety-in-numbers")).unwrap().material(),
            [200, 320]
        );
    }

    #[test]
    fn random_openings_are_balanced_distinct_and_repeatable() {
        for id in ["chess", "tutti-frutti", "parity12", "safety-in-numbers"] {
            let a = random_balanced(v(id), 20, 8, 7).unwrap();
            let b = random_balanced(v(id), 20, 8, 7).unwrap();
            assert_eq!(a, b, "{id}");
            let mut keys = std::collections::HashSet::new();
            for o in &a {
                assert_eq!(o.moves.len(), 8);
                let board = o.board(v(id)).unwrap();
                let [w, b] = board.material();
                assert_eq!(w, b, "{id} {:?}", o.moves);
                assert!(!board.in_check(mover(&board)) && board.outcome().is_none());
                assert!(keys.insert(board.key()));
            }
            assert_ne!(random_balanced(v(id), 20, 8, 8).unwrap(), a);
        }
        // Only 20 positions after one ply in chess.
        assert!(random_balanced(v("chess"), 21, 1, 1).is_err());
    }

    #[test]
    fn simultaneous_openings() {
        for id in ["parity", "parity-single", "move-neutral"] {
            let a = random_balanced(v(id), 10, 4, 7).unwrap();
            assert_eq!(a, random_balanced(v(id), 10, 4, 7).unwrap(), "{id}");
            assert_ne!(a, random_balanced(v(id), 10, 4, 8).unwrap(), "{id}");
            let mut keys = std::collections::HashSet::new();
            for o in &a {
                assert_eq!(o.moves.len(), 4);
                assert!(o.moves.iter().all(|m| m.contains(':')), "{:?}", o.moves);
                let game = o.sim_game(v(id)).unwrap();
                assert!(game.outcome().is_none());
                let [w, b] = game.position().material();
                assert_eq!(w, b);
                assert!(keys.insert(game.position().hash()));
            }
        }
        let text = "# turns, pairs, FENs
            e2e4:e7e5 g1f3:b8c6
            1. d4 d5 2. Nf3 Nf6 *
            rnbqkbnr/pppp1ppp/8/4p'3/4P'3/8/PPPP1PPP/RNBQKBNR KQkq - 0 2
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq - 0 1 moves e2e4:d7d5
";
        let o = parse(text, v("parity")).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].moves, ["e2e4:e7e5", "g1f3:b8c6"]);
        assert_eq!(o[1].moves, ["d2d4:d7d5", "g1f3:g8f6"]);
        assert_eq!(
            (o[2].fen.as_deref(), o[2].moves.len()),
            (
                Some("rnbqkbnr/pppp1ppp/8/4p'3/4P'3/8/PPPP1PPP/RNBQKBNR KQkq - 0 2"),
                0
            )
        );
        assert_eq!(o[3].moves, ["e2e4:d7d5"]);
        assert_eq!(
            o[2].sim_game(v("parity")).unwrap().position().turn_number(),
            2
        );
        // The waiting rule: the pawn that just moved may not move again.
        let err = parse(
            "e2e4:e7e5 e4e5:d7d6
",
            v("parity"),
        )
        .unwrap_err();
        assert!(err.contains("line 1") && err.contains("e4e5"), "{err}");
        assert!(parse(
            "e2e4 e7e5 d2d4
",
            v("parity")
        )
        .unwrap_err()
        .contains("no black move"));
        assert!(parse(
            "e2e4:e7e5 d2d4 d7d5
",
            v("parity")
        )
        .is_err());
        // A record as `parity replay` reads it.
        let pgn = "[Variant \"parity\"]\n\n1. e4 e5 {both pawns} 2. Nf3 Nc6 *\n";
        assert_eq!(
            parse(pgn, v("parity")).unwrap()[0].moves,
            ["e2e4:e7e5", "g1f3:b8c6"]
        );
        assert!(parse(pgn, v("move-neutral"))
            .unwrap_err()
            .contains("parity"));
    }
}
