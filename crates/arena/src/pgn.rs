//! PGN of a finished match game, readable by `parity replay`.
//!
//! Tags: Event, Site, Date, Round (the game's number), White, Black,
//! Result, Variant (our id), FEN and SetUp when the start is not the
//! variant's own, TimeControl (`10+0.1`; `-` without a clock), PlyCount and
//! Termination (PGN's words: normal, adjudication, time forfeit, rules
//! infraction, abandoned, stalled connection). Engine moves carry a comment
//! `{score/depth time}` like cutechess's; the reason of the ending is the
//! last comment (`{Black loses on time}`).
//!
//! Simultaneous variants are written as `parity_rules::record` writes them,
//! one numbered pair per turn from the position before it (`3. Nf3 Nc6`),
//! numbered from the start FEN's turn; PlyCount counts both moves of each
//! turn. An engine's move carries `{value/depth strategy time}`: the value it
//! reported (expected payoff for White in [-1, 1]), its depth, its mixed
//! strategy's most likely moves with their probabilities (at most four, `...`
//! when there were more) and its time, e.g. `{+0.042/2 e2e4 0.63 d2d4 0.37
//! 0.130s}`; the turn's events follow as their own comment (`{white: takes
//! knight; black: failed capture}`).

use std::fmt::Write as _;

use crate::game::{GameRecord, PlayedMove};
use crate::sim_board;

/// Today's date as PGN writes it (UTC).
pub fn today() -> String {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    parity_rules::record::pgn_date(now_ms)
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of a game, ending with an empty line.
pub fn write(game: &GameRecord, event: &str, date: &str) -> String {
    let mut out = String::new();
    let result = game.ending.result_text();
    let tc = match (game.limits[0].tc, game.limits[1].tc) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (None, None) => "-".to_string(),
        _ => "?".to_string(),
    };
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_string()),
        ("Site", "?".into()),
        ("Date", date.to_string()),
        ("Round", game.number.to_string()),
        ("White", game.white.clone()),
        ("Black", game.black.clone()),
        ("Result", result.to_string()),
        ("Variant", game.variant.id().to_string()),
    ];
    if let Some(fen) = &game.start_fen {
        tags.push(("FEN", fen.clone()));
        tags.push(("SetUp", "1".into()));
    }
    tags.push(("TimeControl", tc));
    if game.limits[0] != game.limits[1] || game.limits[0].tc.is_none() {
        tags.push(("WhiteLimits", game.limits[0].to_string()));
        tags.push(("BlackLimits", game.limits[1].to_string()));
    }
    let simultaneous = sim_board::is_simultaneous(game.variant);
    let plies = if simultaneous {
        2 * (game.opening.len() + game.turns.len())
    } else {
        game.opening.len() + game.moves.len()
    };
    tags.push(("PlyCount", plies.to_string()));
    tags.push(("Termination", game.ending.termination.pgn().to_string()));
    for (k, v) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", quote(&v));
    }
    out.push('\n');

    if simultaneous {
        let mut tokens = sim_movetext(game);
        tokens.push(format!("{{{}}}", game.ending.reason.replace('}', ")")));
        tokens.push(result.to_string());
        wrap(&mut out, tokens);
        return out;
    }

    // Move numbers: from the start FEN's side and full-move number.
    let (mut number, mut white_to_move) = match &game.start_fen {
        Some(fen) => {
            let f: Vec<&str> = fen.split_whitespace().collect();
            (
                f.get(5).and_then(|n| n.parse().ok()).unwrap_or(1u32),
                f.get(1) != Some(&"b"),
            )
        }
        None => (1, true),
    };
    let mut tokens: Vec<String> = Vec::new();
    let mut first = true;
    let engine_moves = game.moves.iter().map(|m| {
        let mut c = match m.score {
            Some(s) => format!("{s}/{} ", m.depth.unwrap_or(0)),
            None => String::new(),
        };
        c.push_str(&format!("{:.3}s", m.elapsed.as_secs_f64()));
        (m.san.clone(), Some(c))
    });
    let all = game
        .opening
        .iter()
        .map(|(_, san)| (san.clone(), None))
        .chain(engine_moves);
    for (san, comment) in all {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if first {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san);
        if let Some(c) = comment {
            tokens.push(format!("{{{c}}}"));
        }
        first = false;
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", game.ending.reason.replace('}', ")")));
    tokens.push(result.to_string());
    wrap(&mut out, tokens);
    out
}

/// The comment of an engine's move in a simultaneous game.
fn sim_comment(m: &PlayedMove) -> String {
    let mut parts = Vec::new();
    let eval = match (m.value, m.score) {
        (Some(v), _) => Some(format!("{v:+.3}")),
        (None, Some(s)) => Some(s.to_string()),
        (None, None) => None,
    };
    if let Some(e) = eval {
        parts.push(match m.depth {
            Some(d) => format!("{e}/{d}"),
            None => e,
        });
    }
    let mut strategy = m.strategy.clone();
    strategy.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (mv, p) in strategy.iter().take(4) {
        parts.push(format!("{} {p:.2}", mv.replace(['{', '}'], "")));
    }
    if strategy.len() > 4 {
        parts.push("...".into());
    }
    parts.push(format!("{:.3}s", m.elapsed.as_secs_f64()));
    parts.join(" ")
}

/// Movetext tokens of a simultaneous game: numbered pairs, with comments.
fn sim_movetext(game: &GameRecord) -> Vec<String> {
    let mut number = game
        .start_fen
        .as_deref()
        .and_then(|f| f.split_whitespace().nth(4))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1u32)
        .max(1);
    let mut tokens = Vec::new();
    for (_, san) in &game.opening {
        tokens.push(format!("{number}."));
        tokens.extend(san.split_whitespace().map(str::to_string));
        number += 1;
    }
    for turn in &game.turns {
        tokens.push(format!("{number}."));
        for m in &turn.moves {
            tokens.push(m.san.clone());
            tokens.push(format!("{{{}}}", sim_comment(m)));
        }
        if !turn.notes.is_empty() {
            tokens.push(format!("{{{}}}", turn.notes.replace('}', ")")));
        }
        number += 1;
    }
    tokens
}

/// Appends tokens in lines of at most 80 characters (a long comment may
/// exceed it alone), then an empty line.
fn wrap(out: &mut String, tokens: Vec<String>) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(today().len(), 10);
    }
}
