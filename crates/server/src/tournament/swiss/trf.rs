//! The FIDE Tournament Report File (TRF-16): a writer, and a reader for the
//! lines a pairing needs (`012`, `XXR`, `XXC`, `001`).
//!
//! Round codes written: a played game `1`/`=`/`0` with `w`/`b`; a forfeit
//! `+`/`-`; the pairing-allocated bye `0000 - U` (a half- or zero-point one
//! is written `H`/`Z`, which TRF-16 cannot tell from a requested bye); an
//! absence `F`/`H`/`Z` (full-, half-, zero-point bye). A forfeit draw has no
//! TRF code and is written as an absence with half a point.

use super::{tiebreak, Entrant, Round, Score};
use parity_rules::Color;
use std::fmt;

/// A tournament as read from a TRF.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Report {
    /// The `012` tournament name.
    pub name: String,
    /// The `XXR` number of rounds (0 if absent).
    pub rounds: u32,
    /// The `XXC` initial colour, if given.
    pub initial_color: Option<Color>,
    /// The players, in file order; `paired` is true for all.
    pub entrants: Vec<Entrant>,
}

/// A line the reader could not understand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TrfError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TRF line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TrfError {}

/// Puts `text` into `line` at 0-based column `at`, right-aligned in `width`.
fn put_right(line: &mut [u8], at: usize, width: usize, text: &str) {
    let bytes = text.as_bytes();
    let n = bytes.len().min(width);
    line[at + width - n..at + width].copy_from_slice(&bytes[bytes.len() - n..]);
}

/// Puts `text` into `line` at 0-based column `at`, left-aligned, cut to
/// `width` bytes (non-ASCII characters become `?`, the format is 8-bit).
fn put_left(line: &mut [u8], at: usize, width: usize, text: &str) {
    for (i, c) in text.chars().take(width).enumerate() {
        line[at + i] = if c.is_ascii() { c as u8 } else { b'?' };
    }
}

/// Points in the TRF form: half-points 5 become ` 2.5`.
fn points_text(half_points: u32) -> String {
    format!(
        "{}.{}",
        half_points / 2,
        if half_points % 2 == 1 { 5 } else { 0 }
    )
}

/// The opponent, colour and result characters of one round.
fn round_code(round: &Round) -> (u32, u8, u8) {
    let color = |c: Color| if c == Color::White { b'w' } else { b'b' };
    match *round {
        Round::Played {
            opponent,
            color: c,
            score,
        } => (
            opponent,
            color(c),
            match score {
                Score::Win => b'1',
                Score::Draw => b'=',
                Score::Loss => b'0',
            },
        ),
        Round::Forfeit {
            opponent,
            color: c,
            score,
        } => match score {
            Score::Win => (opponent, color(c), b'+'),
            Score::Loss => (opponent, color(c), b'-'),
            Score::Draw => (0, b'-', b'H'),
        },
        Round::Bye { score } => (
            0,
            b'-',
            match score {
                Score::Win => b'U',
                Score::Draw => b'H',
                Score::Loss => b'Z',
            },
        ),
        Round::Absent { score } => (
            0,
            b'-',
            match score {
                Score::Win => b'F',
                Score::Draw => b'H',
                Score::Loss => b'Z',
            },
        ),
    }
}

/// Writes a TRF-16 report: `012` name, `XXR` rounds, `XXC white1`, and one
/// `001` line per entrant (in pairing-number order) with its whole history.
/// The rank column is the standings place (see [`tiebreak::standings`]).
pub fn write(name: &str, total_rounds: u32, entrants: &[Entrant]) -> String {
    let mut out = format!("012 {name}\nXXR {total_rounds}\nXXC white1\n");
    let standings = tiebreak::standings(entrants);
    let mut sorted: Vec<&Entrant> = entrants.iter().collect();
    sorted.sort_by_key(|e| e.number);
    for e in sorted {
        let rounds = e.history.len();
        let mut line = vec![b' '; 89 + 10 * rounds];
        line[..3].copy_from_slice(b"001");
        put_right(&mut line, 4, 4, &e.number.to_string());
        put_left(&mut line, 14, 33, &e.name);
        if e.rating > 0 {
            put_right(&mut line, 48, 4, &e.rating.to_string());
        }
        put_right(&mut line, 80, 4, &points_text(e.points()));
        let place = standings
            .iter()
            .position(|s| s.number == e.number)
            .map_or(0, |p| p + 1);
        put_right(&mut line, 85, 4, &place.to_string());
        for (r, round) in e.history.iter().enumerate() {
            let at = 89 + 10 * r;
            let (opponent, color, result) = round_code(round);
            let opponent = match opponent {
                0 => "0000".to_string(),
                n => n.to_string(),
            };
            put_right(&mut line, at + 2, 4, &opponent);
            line[at + 7] = color;
            line[at + 9] = result;
        }
        out.push_str(String::from_utf8_lossy(&line).trim_end());
        out.push('\n');
    }
    out
}

/// Reads a TRF (ours, bbpPairings', or another TRF-16 writer's) into a
/// [`Report`]. Unknown lines are skipped.
pub fn read(text: &str) -> Result<Report, TrfError> {
    let mut report = Report::default();
    // Lines may end in LF, CRLF or a lone CR (bbpPairings writes CR).
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (index, raw) in text.lines().enumerate() {
        let err = |message: &str| TrfError {
            line: index + 1,
            message: message.to_string(),
        };
        let line = raw;
        let field =
            |from: usize, to: usize| line.get(from..to.min(line.len())).unwrap_or("").trim();
        match line.get(..3) {
            Some("012") => report.name = field(4, line.len()).to_string(),
            Some("XXR") => {
                report.rounds = field(3, line.len())
                    .parse()
                    .map_err(|_| err("bad XXR round count"))?
            }
            Some("XXC") => {
                let value = field(3, line.len());
                if value.starts_with("white") {
                    report.initial_color = Some(Color::White);
                } else if value.starts_with("black") {
                    report.initial_color = Some(Color::Black);
                }
            }
            Some("001") => {
                if !line.is_ascii() {
                    return Err(err("non-ASCII 001 line"));
                }
                let number = field(4, 8).parse().map_err(|_| err("bad start rank"))?;
                let rating = match field(48, 52) {
                    "" => 0,
                    r => r.parse().map_err(|_| err("bad rating"))?,
                };
                let mut history = Vec::new();
                let mut blanks = 0;
                let mut at = 91;
                while at < line.len() {
                    let opponent_text = field(at, at + 4);
                    let color = line.as_bytes().get(at + 5).copied().unwrap_or(b' ');
                    let result = line.as_bytes().get(at + 7).copied().unwrap_or(b' ');
                    at += 10;
                    if opponent_text.is_empty() && result == b' ' {
                        blanks += 1;
                        continue;
                    }
                    // Blank rounds before a filled one are absences.
                    for _ in 0..blanks {
                        history.push(Round::Absent { score: Score::Loss });
                    }
                    blanks = 0;
                    let opponent: u32 = if opponent_text.is_empty() {
                        0
                    } else {
                        opponent_text.parse().map_err(|_| err("bad opponent"))?
                    };
                    let color = match color {
                        b'w' | b'W' => Some(Color::White),
                        b'b' | b'B' => Some(Color::Black),
                        _ => None,
                    };
                    let score = match result.to_ascii_uppercase() {
                        b'1' | b'W' | b'+' | b'U' | b'F' => Score::Win,
                        b'=' | b'D' | b'H' => Score::Draw,
                        b'0' | b'L' | b'-' | b'Z' | b' ' => Score::Loss,
                        _ => return Err(err("bad result code")),
                    };
                    let forfeit = matches!(result, b'+' | b'-');
                    history.push(match (opponent, color) {
                        (0, _) if result == b'U' || result == b'+' => Round::Bye { score },
                        (0, _) => Round::Absent { score },
                        (opponent, Some(color)) if !forfeit => Round::Played {
                            opponent,
                            color,
                            score,
                        },
                        (opponent, color) if forfeit => Round::Forfeit {
                            opponent,
                            color: color.unwrap_or(Color::White),
                            score,
                        },
                        _ => return Err(err("game without a colour")),
                    });
                }
                report.entrants.push(Entrant {
                    number,
                    rating,
                    name: field(14, 47).to_string(),
                    history,
                    paired: true,
                });
            }
            _ => {}
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(number: u32, rating: u32, name: &str, history: Vec<Round>) -> Entrant {
        Entrant {
            number,
            rating,
            name: name.to_string(),
            history,
            paired: true,
        }
    }

    fn sample() -> Vec<Entrant> {
        use Color::*;
        let played = |opponent, color, score| Round::Played {
            opponent,
            color,
            score,
        };
        vec![
            entrant(
                1,
                2400,
                "Alpha, Anna",
                vec![played(3, White, Score::Win), played(2, Black, Score::Draw)],
            ),
            entrant(
                2,
                2300,
                "Beta, Bob",
                vec![
                    Round::Bye { score: Score::Win },
                    played(1, White, Score::Draw),
                ],
            ),
            entrant(
                3,
                0,
                "Gamma, Gus",
                vec![
                    played(1, Black, Score::Loss),
                    Round::Forfeit {
                        opponent: 4,
                        color: White,
                        score: Score::Win,
                    },
                ],
            ),
            entrant(
                4,
                1800,
                "Delta, Dora",
                vec![
                    Round::Absent { score: Score::Draw },
                    Round::Forfeit {
                        opponent: 3,
                        color: Black,
                        score: Score::Loss,
                    },
                ],
            ),
        ]
    }

    #[test]
    fn writes_the_exact_columns() {
        let text = write("Test Open", 5, &sample());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "012 Test Open");
        assert_eq!(lines[1], "XXR 5");
        assert_eq!(lines[2], "XXC white1");
        let first = lines[3];
        assert_eq!(&first[..8], "001    1");
        assert_eq!(&first[14..25], "Alpha, Anna");
        assert_eq!(&first[48..52], "2400");
        assert_eq!(&first[80..89], " 1.5    2");
        assert_eq!(&first[89..], "     3 w 1     2 b =");
        assert_eq!(&lines[4][89..], "  0000 - U     1 w =");
        assert_eq!(&lines[6][80..], " 0.5    4  0000 - H     3 b -");
    }

    #[test]
    fn round_trips() {
        let players = sample();
        let text = write("Round trip", 7, &players);
        let report = read(&text).expect("our own TRF reads back");
        assert_eq!(report.name, "Round trip");
        assert_eq!(report.rounds, 7);
        assert_eq!(report.initial_color, Some(Color::White));
        assert_eq!(report.entrants, players);
        assert_eq!(write("Round trip", 7, &report.entrants), text);
    }

    #[test]
    fn reads_javafo_style_codes_and_gaps() {
        let mut line = vec![b' '; 119];
        line[..8].copy_from_slice(b"001    2");
        line[80..84].copy_from_slice(b" 1.0");
        line[89..99].copy_from_slice(b"  0000 - +");
        line[109..119].copy_from_slice(b"     1 b W");
        let report = read(&String::from_utf8_lossy(&line)).expect("reads");
        let e = &report.entrants[0];
        assert_eq!(e.number, 2);
        assert_eq!(
            e.history,
            vec![
                Round::Bye { score: Score::Win },
                Round::Absent { score: Score::Loss },
                Round::Played {
                    opponent: 1,
                    color: Color::Black,
                    score: Score::Win
                }
            ]
        );
    }
}
