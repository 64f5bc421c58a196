//! Game records: PGN with a `[Variant "id"]` tag.
//!
//! Turn-based games use ordinary movetext. A simultaneous turn is a numbered
//! pair, `12. Nh4 exN`: White's move then Black's, both written from the
//! position before the turn, followed by the turn's annotations as a
//! comment (`{white: takes knight; black: failed capture}`). Comments are
//! for people; replaying recomputes them from the moves.

use std::fmt::Write as _;

use crate::any::{AnyGame, Step};
use crate::game::SimGame;
use crate::notation::{self, MoveContext};
use crate::registry::Registry;
use crate::simultaneous::{CheckKind, SideNotes, SimPosition};
use crate::types::{ByColor, Color, Move};
use crate::variant::Variant;

/// A record read from text: its tags and its move tokens, not yet checked
/// against any rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<MoveToken>,
}

/// One move as written, with the move number it stood under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    pub number: u32,
    pub text: String,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("{0}")]
    Variant(String),
    #[error("start position: {0}")]
    Start(String),
    #[error("turn {turn}, {}: `{text}`: {reason}", side.name())]
    Move {
        turn: u32,
        side: Color,
        text: String,
        reason: String,
    },
    #[error("turn {turn}: {reason}")]
    Turn { turn: u32, reason: String },
}

impl Record {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads PGN-style text: tags, numbered moves, comments, a result.
pub fn parse(text: &str) -> Result<Record, RecordError> {
    let mut tags = Vec::new();
    let mut moves = Vec::new();
    let mut number = 1u32;
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let syntax = |message: String| RecordError::Syntax { line, message };
        let trimmed = raw.trim();
        if !in_comment && trimmed.starts_with('[') {
            let inner = trimmed
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .ok_or_else(|| syntax("a tag must end with `]`".into()))?;
            let (key, value) = inner
                .split_once(' ')
                .ok_or_else(|| syntax("a tag is `[Key \"value\"]`".into()))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| syntax("a tag value must be quoted".into()))?;
            tags.push((key.to_string(), value.to_string()));
            continue;
        }
        if !in_comment && (trimmed.starts_with('%') || trimmed.starts_with(';')) {
            continue;
        }
        let mut rest = raw;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(end) => {
                        in_comment = false;
                        rest = &rest[end + 1..];
                    }
                    None => break,
                }
                continue;
            }
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            if let Some(after) = rest.strip_prefix('{') {
                in_comment = true;
                rest = after;
                continue;
            }
            if rest.starts_with(';') {
                break;
            }
            if rest.starts_with('(') {
                return Err(syntax("variations `(...)` are not supported".into()));
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") || token.starts_with('$') {
                continue;
            }
            // A move number, maybe glued to its move: `12.`, `12...`, `12.Nf3`.
            let digits = token.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 && token[digits..].starts_with('.') {
                number = token[..digits]
                    .parse()
                    .map_err(|_| syntax(format!("bad move number `{token}`")))?;
                let after = token[digits..].trim_start_matches('.');
                if !after.is_empty() {
                    moves.push(MoveToken {
                        number,
                        text: after.to_string(),
                        line,
                    });
                }
                continue;
            }
            moves.push(MoveToken {
                number,
                text: token.to_string(),
                line,
            });
        }
    }
    if in_comment {
        return Err(RecordError::Syntax {
            line: text.lines().count(),
            message: "a comment `{` is never closed".into(),
        });
    }
    Ok(Record { tags, moves })
}

/// The variant a record names (`chess` when it names none).
pub fn variant_of(registry: &Registry, record: &Record) -> Result<&'static Variant, RecordError> {
    let id = record.tag("Variant").unwrap_or("chess");
    registry
        .get_or_err(&id.to_ascii_lowercase())
        .map_err(|e| RecordError::Variant(e.to_string()))
}

/// Replays a record step by step, calling `each` with the game after
/// every move (or turn); stops at the first unreadable or illegal move.
pub fn replay_with(
    variant: &'static Variant,
    record: &Record,
    mut each: impl FnMut(&AnyGame, &Step),
) -> Result<AnyGame, RecordError> {
    let mut game = AnyGame::from_fen(variant, record.tag("FEN"))
        .map_err(|e| RecordError::Start(e.to_string()))?;
    if game.is_simultaneous() {
        for pair in record.moves.chunks(2) {
            let step = replay_turn(&mut game, pair)?;
            each(&game, &step);
        }
    } else {
        for token in &record.moves {
            let (turn, side) = (game.turn(), game.to_move().expect("a side moves"));
            let fail = |reason: String| RecordError::Move {
                turn,
                side,
                text: token.text.clone(),
                reason,
            };
            let mv = game
                .parse_san(side, &token.text)
                .or_else(|san| game.parse_uci(side, &token.text).map_err(|_| san))
                .map_err(|e| fail(e.to_string()))?;
            game.play(mv).map_err(|e| fail(e.to_string()))?;
            each(
                &game,
                &Step::Move {
                    number: turn,
                    color: side,
                    mv,
                },
            );
        }
    }
    Ok(game)
}

/// Reads and plays one simultaneous turn, a pair of move tokens.
fn replay_turn(game: &mut AnyGame, pair: &[MoveToken]) -> Result<Step, RecordError> {
    let AnyGame::Simultaneous(sim) = game else {
        unreachable!("called for simultaneous games")
    };
    let turn = sim.position().turn_number();
    let [w, b] = pair else {
        return Err(RecordError::Turn {
            turn,
            reason: format!("`{}` has no black move beside it", pair[0].text),
        });
    };
    if w.number != turn || b.number != turn {
        return Err(RecordError::Turn {
            turn,
            reason: format!("expected turn {turn}, found number {}", w.number),
        });
    }
    if let Some(o) = sim.outcome() {
        return Err(RecordError::Turn {
            turn,
            reason: format!("the game was already over: {o}"),
        });
    }
    let pos = *sim.position();
    let read = |side: Color, token: &MoveToken| {
        read_move(&pos.side(side), &token.text).map_err(|reason| {
            let reason = explain_simultaneous(&pos, side, &token.text).unwrap_or(reason);
            RecordError::Move {
                turn,
                side,
                text: token.text.clone(),
                reason,
            }
        })
    };
    let moves = [read(Color::White, w)?, read(Color::Black, b)?];
    let notes = sim
        .play(moves[0], moves[1])
        .map_err(|e| RecordError::Turn {
            turn,
            reason: e.to_string(),
        })?;
    Ok(Step::Turn {
        number: turn,
        moves,
        notes,
    })
}

/// Replays a record of any variant.
pub fn replay(registry: &Registry, text: &str) -> Result<AnyGame, RecordError> {
    let record = parse(text)?;
    let variant = variant_of(registry, &record)?;
    replay_with(variant, &record, |_, _| {})
}

/// Why a simultaneous move that reads as nothing legal is refused, when the
/// rules say more than "illegal": the piece must wait, the king must move.
fn explain_simultaneous(pos: &SimPosition, side: Color, text: &str) -> Option<String> {
    let relaxed = crate::format::sim::SimSide {
        position: pos,
        color: side,
        relaxed: true,
    };
    match read_move(&relaxed, text) {
        Ok(mv) => Some(pos.why_illegal(side, mv)),
        Err(_) if pos.in_check(side) => Some("the king is in check and must move".into()),
        Err(_) => None,
    }
}

fn read_move<C: MoveContext + ?Sized>(ctx: &C, text: &str) -> Result<Move, String> {
    notation::parse_san(ctx, text)
        .or_else(|san| notation::parse_uci(ctx, text).map_err(|_| san.to_string()))
}

/// The annotations of a turn in words, side by side: `white: takes
/// knight; black: failed capture` (empty when neither side has any).
pub fn describe_turn(variant: &Variant, notes: &ByColor<SideNotes>) -> String {
    notes
        .with_colors()
        .map(|(c, n)| (c, describe(variant, n)))
        .filter(|(_, d)| !d.is_empty())
        .map(|(c, d)| format!("{}: {d}", c.name()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The annotations of one side's move, in words.
pub fn describe(variant: &Variant, notes: &SideNotes) -> String {
    let name = |k: crate::types::Kind| variant.kinds[k.index()].name.to_lowercase();
    let mut parts = Vec::new();
    if notes.castled {
        parts.push("castles".to_string());
    }
    if let Some(k) = notes.captured {
        parts.push(if notes.en_passant {
            "takes en passant".into()
        } else {
            format!("takes {}", name(k))
        });
    }
    if notes.swap {
        parts.push("mutual failed capture (swap)".into());
    } else if notes.failed_capture {
        parts.push("failed capture".into());
    }
    if let Some(sq) = notes.co_occupied {
        parts.push(format!("shares {}", variant.shape.name(sq)));
    }
    if let Some(k) = notes.promotion {
        parts.push(format!("promotes to {}", name(k)));
    }
    match notes.check {
        Some(CheckKind::Immediate) => parts.push("immediate check".into()),
        Some(CheckKind::Delayed) => parts.push("delayed check".into()),
        None => {}
    }
    if notes.failed_check {
        parts.push("failed check".into());
    }
    parts.join(", ")
}

/// Writes a simultaneous game as a record, one numbered pair per turn. A
/// `Result` among `extra_tags` replaces the rules' result (a game may end
/// by resignation or time).
pub fn write_simultaneous(game: &SimGame, extra_tags: &[(&str, &str)]) -> String {
    let start = game.start();
    let v = start.variant();
    let mut out = String::new();
    let _ = writeln!(out, "[Variant \"{}\"]", v.id());
    for (k, val) in extra_tags.iter().filter(|(k, _)| *k != "Result") {
        let _ = writeln!(out, "[{k} \"{val}\"]");
    }
    if start.to_fen() != SimPosition::start(v).to_fen() {
        let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{}\"]", start.to_fen());
    }
    let stated = extra_tags.iter().find(|(k, _)| *k == "Result");
    let result = match stated {
        Some((_, r)) => r.to_string(),
        None => game
            .outcome()
            .map(|o| o.to_string().split(' ').next().unwrap_or("*").to_string())
            .unwrap_or_else(|| "*".into()),
    };
    let _ = writeln!(out, "[Result \"{result}\"]\n");
    for ((moves, notes), pos) in game.turns().iter().zip(game.positions()) {
        let w = notation::san_plain(&pos.side(Color::White), moves[0]);
        let b = notation::san_plain(&pos.side(Color::Black), moves[1]);
        let _ = write!(out, "{}. {w} {b}", pos.turn_number());
        let described = describe_turn(v, notes);
        if !described.is_empty() {
            let _ = write!(out, " {{{described}}}");
        }
        out.push('\n');
    }
    out.push_str(&result);
    out.push('\n');
    out
}

/// A text diagram of a simultaneous position: a shared square shows both
/// letters (white first), a last-moved piece is followed by `'`.
pub fn sim_diagram(pos: &SimPosition) -> String {
    let v = pos.variant();
    let shape = v.shape;
    let mut out = String::new();
    for rank in (0..shape.ranks).rev() {
        let _ = write!(out, "{:>2} ", rank + 1);
        for file in 0..shape.files {
            let sq = shape.square(file, rank);
            let cell = |c: Color| {
                pos.kind_at(c, sq).map(|k| {
                    let l = v.kinds[k.index()].letter;
                    let l = if c == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    format!(
                        "{l}{}",
                        if pos.last_moved(c).contains(sq) {
                            "'"
                        } else {
                            ""
                        }
                    )
                })
            };
            let text = match (cell(Color::White), cell(Color::Black)) {
                (Some(w), Some(b)) => format!("{w}{b}"),
                (Some(p), None) | (None, Some(p)) => p,
                (None, None) => ".".into(),
            };
            let _ = write!(out, "{text:<4}");
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..shape.files {
        let _ = write!(out, "{:<4}", (b'a' + file) as char);
    }
    out.push('\n');
    out
}

/// A day as PGN's `Date` tag writes it (`2024.02.29`), from milliseconds
/// since the Unix epoch (UTC).
pub fn pgn_date(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The UTC time `unix_ms` as ISO 8601 (`2026-11-28T06:35:49.000Z`), as
/// lichess writes dates in JSON.
pub fn iso_datetime(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    let ms = unix_ms.rem_euclid(86_400_000);
    let (h, min, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    format!(
        "{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{:03}Z",
        ms % 1000
    )
}

/// Year, month, day of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates() {
        assert_eq!(iso_datetime(1_796_366_149_123), "2026-12-04T06:35:49.123Z");
        assert_eq!(iso_datetime(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(19_723 * 86_400_000), "2024.01.01");
        assert_eq!(pgn_date(19_782 * 86_400_000 + 86_399_999), "2024.02.29");
        assert_eq!(pgn_date(-1), "1969.12.31");
    }

    #[test]
    fn parses_tags_numbers_comments_and_results() {
        let text = "[Variant \"parity\"]\n[White \"A\"]\n\n1. e4 e5 {both pawns}\n2.Nf3 Nc6 ; rest of line\n3. Bb5 a6 1/2-1/2\n";
        let r = parse(text).unwrap();
        assert_eq!(r.tag("Variant"), Some("parity"));
        let texts: Vec<_> = r
            .moves
            .iter()
            .map(|m| (m.number, m.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                (1, "e4"),
                (1, "e5"),
                (2, "Nf3"),
                (2, "Nc6"),
                (3, "Bb5"),
                (3, "a6")
            ]
        );
        assert!(matches!(
            parse("[Variant parity]\n"),
            Err(RecordError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            parse("1. e4 {never closed\n"),
            Err(RecordError::Syntax { .. })
        ));
        assert!(matches!(
            parse("1. e4 (1. d4) e5\n"),
            Err(RecordError::Syntax { .. })
        ));
    }

    #[test]
    fn simultaneous_replay_stops_with_turn_side_and_reason() {
        let reg = Registry::builtin();
        let text = "[Variant \"parity\"]\n1. e4 e5\n2. e5 Nc6\n";
        match replay(&reg, text) {
            Err(RecordError::Move {
                turn: 2,
                side: Color::White,
                reason,
                ..
            }) => assert!(reason.contains("not a legal move"), "{reason}"),
            other => panic!("{other:?}"),
        }
        // The knight that just moved must wait: the reason says so.
        let text = "[Variant \"parity\"]\n1. e4 e5\n2. Nf3 Nc6\n3. Nxe5 a6\n";
        match replay(&reg, text) {
            Err(RecordError::Move {
                turn: 3,
                side: Color::White,
                reason,
                ..
            }) => assert!(reason.contains("must wait"), "{reason}"),
            other => panic!("{other:?}"),
        }
        // Parity-single: after both knights land on f3, only they may move, and not capture.
        let text = "[Variant \"parity-single\"]\n[FEN \"4k3/8/8/4n3/7p/8/3P4/4K1N1 - - 0 1\"]\n1. Nf3 Nf3\n2. d3 Ng1\n";
        match replay(&reg, text) {
            Err(RecordError::Move {
                turn: 2,
                side: Color::White,
                reason,
                ..
            }) => assert!(reason.contains("must leave"), "{reason}"),
            other => panic!("{other:?}"),
        }
        let text = "[Variant \"parity-single\"]\n[FEN \"4k3/8/8/4n3/7p/8/3P4/4K1N1 - - 0 1\"]\n1. Nf3 Nf3\n2. Nxh4 Ng1\n";
        match replay(&reg, text) {
            Err(RecordError::Move {
                turn: 2,
                side: Color::White,
                reason,
                ..
            }) => assert!(reason.contains("may not capture"), "{reason}"),
            other => panic!("{other:?}"),
        }
        let text = "[Variant \"parity\"]\n1. e4 e5\n2. Nf3 Zz9\n";
        assert!(matches!(
            replay(&reg, text),
            Err(RecordError::Move {
                turn: 2,
                side: Color::Black,
                ..
            })
        ));
        let text = "[Variant \"parity\"]\n1. e4\n";
        assert!(matches!(
            replay(&reg, text),
            Err(RecordError::Turn { turn: 1, .. })
        ));
        let text = "[Variant \"nonesuch\"]\n1. e4 e5\n";
        assert!(matches!(replay(&reg, text), Err(RecordError::Variant(_))));
    }

    #[test]
    fn written_records_replay_to_the_same_game() {
        let reg = Registry::builtin();
        let v = reg.get("move-neutral").unwrap();
        let mut game = SimGame::new(SimPosition::start(v));
        for (w, b) in [("e2e4", "d7d5"), ("e4d5", "d5e4"), ("g1f3", "d8d5")] {
            let pos = *game.position();
            let w = notation::parse_uci(&pos.side(Color::White), w).unwrap();
            let b = notation::parse_uci(&pos.side(Color::Black), b).unwrap();
            game.play(w, b).unwrap();
        }
        let text = write_simultaneous(&game, &[]);
        // Each pawn tries to take the other: both fail and swap squares.
        assert!(text.contains("2. exd5 dxe4 {white: mutual failed capture (swap); black: mutual failed capture (swap)}"), "{text}");
        assert!(text.contains("3. Nf3 Qxd5 {black: takes pawn}"), "{text}");
        let AnyGame::Simultaneous(again) = replay(&reg, &text).unwrap() else {
            panic!("family")
        };
        assert_eq!(again.position(), game.position());
    }

    #[test]
    fn turn_based_replay() {
        let reg = Registry::builtin();
        let AnyGame::TurnBased64(g) = replay(&reg, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n").unwrap()
        else {
            panic!("family")
        };
        assert_eq!(g.moves().len(), 6);
        assert!(matches!(
            replay(&reg, "1. e4 e5 2. Ke3 Nc6\n"),
            Err(RecordError::Move {
                turn: 2,
                side: Color::White,
                ..
            })
        ));
    }
}
