//! The results file of a study, in JSON Lines: a header line with the
//! study's parameters and their id, then one line per finished game,
//! written whole when the game ends. A study killed while writing leaves
//! at most a torn last line (no newline); it is ignored and cut off when
//! the study resumes, so that game is played again.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use parity_rules::Color;
use serde::{Deserialize, Serialize};

use super::{fnv1a, Budget, StudyParams};
use crate::game::Cause;

/// The `format` of the header line.
pub const FORMAT: &str = "parity-study";
pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    version: u32,
    id: String,
    params: StudyParams,
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "0-1")]
    BlackWins,
}

impl GameResult {
    pub fn of(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            None => GameResult::Draw,
            Some(Color::Black) => GameResult::BlackWins,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The id of the study (as in the header).
    pub study: String,
    pub variant: String,
    pub budget: Budget,
    /// 1-based number within its variant and budget.
    pub game: usize,
    /// The start, when not the variant's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The opening's moves in coordinates (turns `e2e4:e7e5` in
    /// simultaneous variants), separated by spaces.
    pub opening: String,
    pub result: GameResult,
    #[serde(with = "cause_name")]
    pub end: Cause,
    /// The ending in words, e.g. "White mates".
    pub reason: String,
    /// Length of a turn-based or crowd game, opening included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// Length of a simultaneous game, opening included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
}

impl GameLine {
    /// Its length in plies or turns, whichever it has.
    pub fn length(&self) -> u32 {
        self.plies.or(self.turns).unwrap_or(0)
    }
}

/// `end` as the words of [`Cause::name`].
mod cause_name {
    use super::Cause;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Cause, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Cause, D::Error> {
        let name = String::deserialize(d)?;
        Cause::from_name(&name).ok_or_else(|| {
            let known: Vec<&str> = Cause::ALL.iter().map(|c| c.name()).collect();
            serde::de::Error::custom(format!(
                "unknown end `{name}` (one of: {})",
                known.join(", ")
            ))
        })
    }
}

/// The id of a study: a hash of its parameters.
pub fn study_id(params: &StudyParams) -> String {
    let text = serde_json::to_string(params).expect("parameters serialise");
    format!("{:016x}", fnv1a(&text))
}

/// A results file as read.
#[derive(Clone, Debug)]
pub struct Results {
    pub path: PathBuf,
    pub id: String,
    pub params: StudyParams,
    /// In file order; a game given twice counts once (the first line).
    pub games: Vec<GameLine>,
    /// Bytes of complete lines; a torn line may follow.
    complete_len: u64,
    /// Whether the file ends in a torn line.
    pub torn: bool,
}

/// Reads the text of a results file; `None` when it holds no complete
/// header line (an empty file, or one killed while writing its header).
fn parse(path: &Path, bytes: &[u8]) -> Result<Option<Results>, String> {
    let at = |n: usize| format!("{}, line {n}", path.display());
    let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = complete_len < bytes.len();
    let mut lines = bytes[..complete_len]
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace));
    let Some((n, first)) = lines.next() else {
        return Ok(None);
    };
    let header: Header = serde_json::from_slice(first).map_err(|e| {
        format!(
            "{}: not a study results file (no {FORMAT} header: {e})",
            at(n)
        )
    })?;
    if header.format != FORMAT {
        return Err(format!(
            "{}: not a study results file (format `{}`)",
            at(n),
            header.format
        ));
    }
    if header.version != VERSION {
        return Err(format!(
            "{}: results format version {}, this parity reads version {VERSION}",
            at(n),
            header.version
        ));
    }
    let mut games = Vec::new();
    let mut seen = HashSet::new();
    for (n, line) in lines {
        let game: GameLine = serde_json::from_slice(line).map_err(|e| format!("{}: {e}", at(n)))?;
        if game.study != header.id {
            return Err(format!(
                "{}: a game of study {}, the file's header is study {}",
                at(n),
                game.study,
                header.id
            ));
        }
        if seen.insert((game.variant.clone(), game.budget, game.game)) {
            games.push(game);
        }
    }
    Ok(Some(Results {
        path: path.to_path_buf(),
        id: header.id,
        params: header.params,
        games,
        complete_len: complete_len as u64,
        torn,
    }))
}

/// Reads a results file (a torn last line is left out).
pub fn read(path: &Path) -> Result<Results, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(path, &bytes)?.ok_or_else(|| format!("{}: empty, no study in it yet", path.display()))
}

/// Reads the results files of one study's shards (or copies of one file)
/// as one: every game once, the first file's path and header.
pub fn read_all(paths: &[PathBuf]) -> Result<Results, String> {
    let (first, rest) = paths
        .split_first()
        .ok_or_else(|| "no results file given".to_string())?;
    let mut merged = read(first)?;
    let mut seen: HashSet<(String, Budget, usize)> = merged
        .games
        .iter()
        .map(|g| (g.variant.clone(), g.budget, g.game))
        .collect();
    for path in rest {
        let more = read(path)?;
        if more.id != merged.id {
            return Err(format!(
                "{}: study {}, but {} holds study {}: only shards of one study merge",
                path.display(),
                more.id,
                first.display(),
                merged.id
            ));
        }
        for game in more.games {
            if seen.insert((game.variant.clone(), game.budget, game.game)) {
                merged.games.push(game);
            }
        }
    }
    Ok(merged)
}

/// Appends game lines to a results file.
pub struct Writer {
    file: File,
    path: PathBuf,
    id: String,
}

impl Writer {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Writes the line whole, at once.
    pub fn append(&mut self, line: &GameLine) -> Result<(), String> {
        let mut text = serde_json::to_string(line).expect("a game line serialises");
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// The differences of two parameter sets, for a message.
fn differences(file: &StudyParams, here: &StudyParams) -> String {
    let (a, b) = (
        serde_json::to_value(file).expect("serialises"),
        serde_json::to_value(here).expect("serialises"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return String::new();
    };
    let mut out = Vec::new();
    for (key, va) in a {
        let vb = b.get(key).unwrap_or(&serde_json::Value::Null);
        if va != vb {
            out.push(format!("{key} {va} in the file, {vb} here"));
        }
    }
    out.join("; ")
}

/// Opens a results file for a study: a new or empty file gets the
/// header; an existing one must hold the same study, whose games are
/// returned (a torn last line is cut off).
pub fn open_for_study(
    path: &Path,
    params: &StudyParams,
) -> Result<(Writer, Vec<GameLine>), String> {
    let id = study_id(params);
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let existing = match std::fs::read(path) {
        Ok(bytes) => parse(path, &bytes)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(err(e)),
    };
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(err)?;
    let games = match existing {
        Some(r) => {
            if r.params != *params || r.id != id {
                return Err(format!(
                    "{} holds a study with other parameters ({}); give another --results file, or the same parameters to resume it",
                    path.display(),
                    differences(&r.params, params)
                ));
            }
            if r.torn {
                file.set_len(r.complete_len).map_err(err)?;
            }
            r.games
        }
        None => {
            file.set_len(0).map_err(err)?;
            let header = Header {
                format: FORMAT.into(),
                version: VERSION,
                id: id.clone(),
                params: params.clone(),
            };
            let mut text = serde_json::to_string(&header).expect("the header serialises");
            text.push('\n');
            file.write_all(text.as_bytes()).map_err(err)?;
            Vec::new()
        }
    };
    Ok((
        Writer {
            file,
            path: path.to_path_buf(),
            id,
        },
        games,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::{BudgetLists, OpeningSet};
    use parity_rules::Registry;

    fn params(seed: u64) -> StudyParams {
        StudyParams::first_move(
            &Registry::builtin(),
            &["chess".to_string()],
            &BudgetLists {
                nodes: vec![Budget::Nodes(100)],
                ..BudgetLists::default()
            },
            3,
            OpeningSet::Random { plies: 2 },
            seed,
            None,
            None,
            "parity".into(),
        )
        .unwrap()
    }

    fn line(id: &str, game: usize) -> GameLine {
        GameLine {
            study: id.into(),
            variant: "chess".into(),
            budget: Budget::Nodes(100),
            game,
            fen: None,
            opening: "e2e4 e7e5".into(),
            result: GameResult::BlackWins,
            end: Cause::NoLegalMove,
            reason: "Black mates".into(),
            plies: Some(30),
            turns: None,
        }
    }

    #[test]
    fn lines_round_trip_and_torn_lines_are_left_out() {
        let p = params(1);
        let id = study_id(&p);
        assert_eq!(id.len(), 16);
        assert_ne!(id, study_id(&params(2)));
        let text = serde_json::to_string(&line(&id, 2)).unwrap();
        assert!(
            text.contains(r#""result":"0-1""#)
                && text.contains(r#""end":"no legal move""#)
                && text.contains(r#""budget":"nodes=100""#)
                && !text.contains("fen")
                && !text.contains("turns"),
            "{text}"
        );
        assert_eq!(
            serde_json::from_str::<GameLine>(&text).unwrap(),
            line(&id, 2)
        );
        assert!(
            serde_json::from_str::<GameLine>(&text.replace("no legal move", "boredom"))
                .unwrap_err()
                .to_string()
                .contains("unknown end `boredom`")
        );

        let header = serde_json::to_string(&Header {
            format: FORMAT.into(),
            version: VERSION,
            id: id.clone(),
            params: p.clone(),
        })
        .unwrap();
        let path = Path::new("r.jsonl");
        // Nothing, or only part of a header: no study yet.
        assert!(parse(path, b"").unwrap().is_none());
        assert!(parse(path, &header.as_bytes()[..20]).unwrap().is_none());
        // A torn last line is left out; a game given twice counts once.
        let file = format!("{header}\n{text}\n{text}\n{}", &text[..25]);
        let r = parse(path, file.as_bytes()).unwrap().unwrap();
        assert_eq!((r.games.len(), r.torn), (1, true));
        assert_eq!(r.complete_len as usize, file.rfind('\n').unwrap() + 1);
        // A broken line before the last is an error naming it.
        let file = format!("{header}\n{}\n{text}\n", &text[..25]);
        assert!(parse(path, file.as_bytes()).unwrap_err().contains("line 2"));
        // So is a game of another study.
        let other = serde_json::to_string(&line("0123456789abcdef", 1)).unwrap();
        let file = format!("{header}\n{other}\n");
        assert!(parse(path, file.as_bytes())
            .unwrap_err()
            .contains("study 0123456789abcdef"));
        // And a newer format.
        let file = header.replace(r#""version":1"#, r#""version":2"#) + "\n";
        assert!(parse(path, file.as_bytes())
            .unwrap_err()
            .contains("version 2"));
    }
}
