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

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use parity_rules::Variant;

use crate::board::Board;

/// A start for a pair of games: a FEN (none: the variant's start) and moves
/// played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: Option<String>,
    /// Coordinate moves.
    pub moves: Vec<String>,
}

impl Opening {
    /// The board after the opening's moves.
    pub fn board(&self, variant: &'static Variant) -> Result<Board, String> {
        let mut board = Board::new(variant, self.fen.as_deref()).map_err(|e| e.to_string())?;
        for text in &self.moves {
            let mv = board.parse_move(text).map_err(|e| format!("`{text}`: {e}"))?;
            board.play(mv)?;
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
            out.push(parse_line(line, variant).map_err(|e| format!("line {}: {e}", i + 1))?);
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
            return Err(format!("`{line}`: a FEN needs board, side, castling and en passant fields"));
        }
        let mut fields: Vec<&str> = words[..4].to_vec();
        let mut rest = &words[4..];
        let counters = rest.iter().take(2).take_while(|w| w.parse::<u32>().is_ok()).count();
        if counters == 2 {
            fields.extend(&rest[..2]);
            rest = &rest[2..];
        } else {
            fields.extend(["0", "1"]);
        }
        let moves = match rest.iter().position(|w| *w == "moves") {
            Some(i) => rest[i + 1..].iter().map(|w| w.trim_end_matches(';').to_string()).filter(|w| !w.is_empty()).collect(),
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
        let word = if digits > 0 && word[digits..].starts_with('.') { word[digits..].trim_start_matches('.') } else { word };
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
        let record = parity_rules::record::parse(&game).map_err(|e| format!("game at line {line}: {e}"))?;
        if let Some(v) = record.tag("Variant") {
            let same = v.eq_ignore_ascii_case(variant.id()) || (variant.id() == "chess" && v.eq_ignore_ascii_case("standard"));
            if !same {
                return Err(format!("game at line {line} is {v}, the match plays {}", variant.id()));
            }
        }
        let moves: Vec<String> = record.moves.iter().map(|m| m.text.clone()).collect();
        out.push(checked(variant, record.tag("FEN").map(str::to_string), &moves).map_err(|e| format!("game at line {line}: {e}"))?);
    }
    Ok(out)
}

/// Plays the moves, returning them as coordinates.
fn checked(variant: &'static Variant, fen: Option<String>, moves: &[String]) -> Result<Opening, String> {
    let mut board = Board::new(variant, fen.as_deref()).map_err(|e| e.to_string())?;
    let mut coords = Vec::new();
    for text in moves {
        let mv = board.parse_move(text).map_err(|e| format!("`{text}`: {e}"))?;
        coords.push(board.uci(mv));
        board.play(mv)?;
    }
    if let Some(o) = board.outcome() {
        return Err(format!("the opening ends the game ({o})"));
    }
    Ok(Opening { fen, moves: coords })
}

/// `count` distinct random balanced openings of `plies` plies (see the module docs).
pub fn random_balanced(variant: &'static Variant, count: usize, plies: usize, seed: u64) -> Result<Vec<Opening>, String> {
    let start = Board::new(variant, None).map_err(|e| e.to_string())?;
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
            let legal = board.legal_moves();
            if legal.is_empty() || board.outcome().is_some() {
                dead = true;
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push(board.uci(mv));
            board.play(mv).map_err(|e| format!("random opening: {e}"))?;
        }
        if dead || board.outcome().is_some() || board.is_check() || board.legal_moves().is_empty() {
            continue;
        }
        let [w, b] = board.material();
        if w != b || !seen.insert(board.position_key()) {
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
        assert_eq!(o[0].fen.as_deref(), Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
        assert!(o[0].moves.is_empty());
        assert!(o[1].fen.as_deref().unwrap().ends_with(" w KQkq - 0 1"));
        assert_eq!(o[2].moves, vec!["e2e4", "c7c5"]);
        assert_eq!((o[3].fen.as_ref(), o[3].moves.join(" ")), (None, "e2e4 e7e5 g1f3 b8c6".to_string()));
        assert_eq!(o[4].moves.len(), 3);
        let err = parse("e2e4 e2e4\n", v("chess")).unwrap_err();
        assert!(err.contains("line 1") && err.contains("e2e4"), "{err}");
        assert!(parse("rnbqkbnr/pppppppp w\n", v("chess")).is_err());
        assert!(parse("# nothing\n", v("chess")).is_err());
        assert!(parse("f2f3 e7e5 g2g4 d8h4\n", v("chess")).unwrap_err().contains("ends the game"));
    }

    #[test]
    fn pgn_openings() {
        let text = "[Event \"a\"]\n[Variant \"tutti-frutti\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[Variant \"tutti-frutti\"]\n\n1. d4 d5 2. c4 *\n";
        let o = parse(text, v("tutti-frutti")).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].moves, vec!["d2d4", "d7d5", "c2c4"]);
        assert!(parse(text, v("chess")).unwrap_err().contains("tutti-frutti"));
    }

    #[test]
    fn crowd_openings_read_crowd_fens() {
        let o = parse("4k3/8/8/3(PPn)4/8/8/8/4K3 w - - 0 1\n", v("safety-in-numbers")).unwrap();
        assert_eq!(o[0].board(v("safety-in-numbers")).unwrap().material(), [200, 320]);
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
                assert!(!board.is_check() && board.outcome().is_none());
                assert!(keys.insert(board.position_key()));
            }
            assert_ne!(random_balanced(v(id), 20, 8, 8).unwrap(), a);
        }
        // Only 20 positions after one ply in chess.
        assert!(random_balanced(v("chess"), 21, 1, 1).is_err());
        assert!(random_balanced(v("parity"), 1, 4, 1).is_err());
    }
}
