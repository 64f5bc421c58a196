//! `GET /api/games/GAMEID/pgn`: the game as PGN with a `[Variant]` tag,
//! readable by `parity replay`. Simultaneous games are written by
//! `parity_rules::record`, one numbered pair per turn. `Site` is the game
//! page's address, `Date` the day the game was created (UTC) and
//! `TimeControl` PGN's `initial+increment` in seconds, or `-` without a
//! live clock (correspondence too, as lichess writes it).

use std::fmt::Write as _;

use parity_rules::any::Step;
use parity_rules::{record, AnyGame, Color};

use crate::game::event::{LiveClock, Seat};
use crate::game::state::{GameState, MoveEntry};

fn player(seat: Seat) -> String {
    match seat {
        Seat::Human => "human".into(),
        Seat::Engine { level } => format!("Parity engine level {level}"),
    }
}

/// The day of the game's `created` event, the first line of its log.
fn created_date(state: &GameState) -> String {
    let created = state.logged_after(0).first();
    created.map_or_else(|| "????.??.??".into(), |l| record::pgn_date(l.event.at))
}

fn time_control(clock: Option<LiveClock>) -> String {
    clock.map_or_else(|| "-".into(), |c| format!("{}+{}", c.initial, c.increment))
}

/// What a computer analysis adds after a move: a mark (`?!`) and a
/// comment (`[%eval 0.17] Inaccuracy. e4 was best.`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    pub glyph: &'static str,
    pub comment: String,
}

/// The PGN of `state`; `site` is the address of its page, `accounts`
/// the names of the accounts that hold its seats (white's first), `notes`
/// what an analysis says after each move (turn-based games; none: nothing).
pub fn write(
    state: &GameState,
    site: &str,
    accounts: &[Option<String>; 2],
    notes: &[MoveNote],
) -> String {
    let setup = state.setup();
    let name = |i: usize| {
        accounts[i]
            .clone()
            .unwrap_or_else(|| player(setup.seats[i]))
    };
    let (white, black) = (name(0), name(1));
    let date = created_date(state);
    let time_control = time_control(setup.clock);
    let result = state.result().unwrap_or("*");
    let mut tags = vec![
        ("Event", "Parity game"),
        ("Site", site),
        ("Date", date.as_str()),
        ("White", white.as_str()),
        ("Black", black.as_str()),
        ("Result", result),
        ("TimeControl", time_control.as_str()),
    ];
    // The reason's machine name, as stored and sent on the wire.
    if let Some(reason) = state.reason() {
        tags.push(("Termination", reason.name()));
    }
    let mut out = match state.play() {
        AnyGame::Simultaneous(game) => {
            let mut text = record::write_simultaneous(game, &tags);
            // The last line is the result; the reason goes before it.
            if let Some(reason) = state.reason() {
                let at = text.trim_end().rfind('\n').map_or(0, |i| i + 1);
                text.insert_str(at, &format!("{{{}}}\n", reason.text()));
            }
            return text;
        }
        AnyGame::TurnBased(_) | AnyGame::TurnBased64(_) | AnyGame::Crowd(_) => String::new(),
    };
    let _ = writeln!(out, "[Variant \"{}\"]", setup.variant.id());
    for (key, value) in tags {
        let _ = writeln!(out, "[{key} \"{value}\"]");
    }
    if !state.play().starts_from_variant_start() {
        let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{}\"]", state.play().start_fen());
    }
    out.push('\n');
    let mut after_comment = false;
    for (i, (entry, step)) in state.moves().iter().zip(state.play().steps()).enumerate() {
        let (MoveEntry::Single { san, .. }, Step::Move { number, color, .. }) = (entry, step)
        else {
            continue;
        };
        let note = notes.get(i).cloned().unwrap_or_default();
        let glyph = note.glyph;
        match color {
            Color::White => {
                let _ = write!(out, "{number}. {san}{glyph} ");
            }
            // A game from a position with Black to move, or a comment
            // before the move, gives `N...`.
            Color::Black if i == 0 || after_comment => {
                let _ = write!(out, "{number}... {san}{glyph} ");
            }
            Color::Black => {
                let _ = write!(out, "{san}{glyph} ");
            }
        }
        after_comment = !note.comment.is_empty();
        if after_comment {
            let _ = write!(out, "{{ {} }} ", note.comment);
        }
    }
    if let Some(reason) = state.reason() {
        let _ = write!(out, "{{{}}} ", reason.text());
    }
    let _ = writeln!(out, "{result}");
    out
}
