//! The events of a game's log and the JSON shapes they share with
//! `gameFull` (`docs/server.md`, "Events: one log per game").

use axum::body::Bytes;
use parity_rules::simultaneous::{CheckKind, SideNotes};
use parity_rules::{record, Color, Reason, Variant};
use serde::{Deserialize, Serialize};

/// A colour as the API writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Seat {
    Human,
    /// Our engine at a level 1..=8 (see `engine_seat`).
    Engine {
        level: u8,
    },
}

/// A live clock as the API writes it: seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveClock {
    pub initial: u32,
    pub increment: u32,
}

/// Both clocks as of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub white_ms: i64,
    pub black_ms: i64,
    /// The sides whose clock runs, white first.
    pub running: Vec<Side>,
    /// The reveal grace: the running clocks start losing time this long
    /// after the event (left out when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grace_ms: i64,
}

fn is_zero(ms: &i64) -> bool {
    *ms == 0
}

/// A revealed move of a simultaneous turn, with what proves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedMove {
    /// Exactly the text the commitment was computed over.
    pub uci: String,
    pub san: String,
    pub nonce: String,
    pub commitment: String,
}

/// The rules' `SideNotes` in words and square names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notes {
    pub captured: Option<String>,
    pub failed_capture: bool,
    pub swap: bool,
    pub co_occupied: Option<String>,
    pub promotion: Option<String>,
    pub en_passant: bool,
    pub castled: bool,
    /// `"immediate"`, `"delayed"` or null.
    pub check: Option<String>,
    pub failed_check: bool,
    /// The human sentence of `record::describe`.
    pub text: String,
}

impl Notes {
    pub fn new(variant: &Variant, notes: &SideNotes) -> Notes {
        let name = |k: parity_rules::Kind| variant.kind(k).name.to_lowercase();
        Notes {
            captured: notes.captured.map(name),
            failed_capture: notes.failed_capture,
            swap: notes.swap,
            co_occupied: notes
                .co_occupied
                .map(|sq| variant.shape.name(sq).to_string()),
            promotion: notes.promotion.map(name),
            en_passant: notes.en_passant,
            castled: notes.castled,
            check: notes.check.map(|c| {
                match c {
                    CheckKind::Immediate => "immediate",
                    CheckKind::Delayed => "delayed",
                }
                .to_string()
            }),
            failed_check: notes.failed_check,
            text: record::describe(variant, notes),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideNotesPair {
    pub white: Notes,
    pub black: Notes,
}

/// What happened, without its place in the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventBody {
    Created {
        variant: String,
        clock: Option<LiveClock>,
        days: Option<u32>,
        white: Seat,
        black: Seat,
        /// The game this one is a rematch of.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rematch_of: Option<String>,
        /// The start position when it is not the variant's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fen: Option<String>,
    },
    Joined {
        color: Side,
    },
    Started {
        fen: String,
        clocks: Option<Clocks>,
    },
    Move {
        color: Side,
        uci: String,
        san: String,
        fen: String,
        clocks: Option<Clocks>,
    },
    Committed {
        color: Side,
        turn: u32,
        commitment: String,
        clocks: Option<Clocks>,
    },
    Revealed {
        color: Side,
        turn: u32,
        /// The revealing side's clock stops here (records of release 0.1
        /// have none: no clock ran during reveals then).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Clocks>,
    },
    Turn {
        turn: u32,
        white: RevealedMove,
        black: RevealedMove,
        notes: Box<SideNotesPair>,
        fen: String,
        clocks: Option<Clocks>,
    },
    /// `color` halved its own clock before its first move (an arena's
    /// berserk): the clocks after it, and no increment for it from now on.
    Berserk {
        color: Side,
        clocks: Option<Clocks>,
    },
    DrawOffer {
        color: Side,
    },
    DrawDeclined {
        color: Side,
    },
    Finished {
        /// `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
        result: String,
        /// A machine name; records of release 0.1 hold older words, read as the same reasons.
        reason: Reason,
        /// The side whose action ended the game: it resigned, aborted or
        /// accepted a draw. Absent for the other endings, and in records
        /// of release 0.1.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Side>,
        clocks: Option<Clocks>,
    },
    RematchOffer {
        color: Side,
    },
    Rematch {
        game: String,
    },
    /// `color` withdrew its rematch offer or declined the other's.
    RematchCancelled {
        color: Side,
    },
}

impl EventBody {
    /// The `type` tag, kept as the `kind` column of the events table.
    pub fn kind(&self) -> &'static str {
        match self {
            EventBody::Created { .. } => "created",
            EventBody::Joined { .. } => "joined",
            EventBody::Started { .. } => "started",
            EventBody::Move { .. } => "move",
            EventBody::Committed { .. } => "committed",
            EventBody::Revealed { .. } => "revealed",
            EventBody::Turn { .. } => "turn",
            EventBody::Berserk { .. } => "berserk",
            EventBody::DrawOffer { .. } => "draw_offer",
            EventBody::DrawDeclined { .. } => "draw_declined",
            EventBody::Finished { .. } => "finished",
            EventBody::RematchOffer { .. } => "rematch_offer",
            EventBody::Rematch { .. } => "rematch",
            EventBody::RematchCancelled { .. } => "rematch_cancelled",
        }
    }
}

/// An event in its game's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(flatten)]
    pub body: EventBody,
    pub seq: u64,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A game result as PGN writes it.
pub fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// One logged event as its JSON line, newline included. Every socket that
/// sends it shares these bytes: a stream sends them as they are, a
/// WebSocket the same bytes without the newline; neither copies them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLine(Bytes);

impl EventLine {
    pub fn new(mut json: String) -> EventLine {
        json.push('\n');
        EventLine(Bytes::from(json))
    }

    /// The JSON, without the newline.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0[..self.0.len() - 1]).expect("made from a String")
    }

    /// The line for an NDJSON stream.
    pub fn ndjson(&self) -> Bytes {
        self.0.clone()
    }

    /// The JSON for a WebSocket text message.
    pub fn json(&self) -> Bytes {
        self.0.slice(..self.0.len() - 1)
    }
}

/// An event with its JSON line: what a game's log keeps and every feed
/// passes on. Sockets send `line` as it is; readers of the event's fields
/// (lichess's shapes) read `event`, never the line again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged {
    pub seq: u64,
    pub event: std::sync::Arc<Event>,
    pub line: EventLine,
}

impl Logged {
    pub fn new(event: Event) -> Result<Logged, serde_json::Error> {
        let line = EventLine::new(serde_json::to_string(&event)?);
        Ok(Logged {
            seq: event.seq,
            event: std::sync::Arc::new(event),
            line,
        })
    }

    /// An event line as the database or another node gave it.
    pub fn parse(json: String) -> Result<Logged, serde_json::Error> {
        let event: Event = serde_json::from_str(&json)?;
        Ok(Logged {
            seq: event.seq,
            event: std::sync::Arc::new(event),
            line: EventLine::new(json),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_event_reads_back_from_its_line() {
        let event = Event {
            body: EventBody::DrawOffer { color: Side::White },
            seq: 9,
            at: 1_000,
        };
        let logged = Logged::new(event.clone()).unwrap();
        assert_eq!((logged.seq, &*logged.event), (9, &event));
        let back = Logged::parse(logged.line.as_str().to_string()).unwrap();
        assert_eq!(back, logged);
        assert!(Logged::parse("{\"type\":\"nonesuch\"}".into()).is_err());
    }

    #[test]
    fn events_serialize_with_type_seq_and_at() {
        let event = Event {
            body: EventBody::Revealed {
                color: Side::Black,
                turn: 3,
                clocks: None,
            },
            seq: 9,
            at: 1000,
        };
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(
            text,
            r#"{"type":"revealed","color":"black","turn":3,"seq":9,"at":1000}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
        let created = EventBody::Created {
            variant: "parity".into(),
            clock: Some(LiveClock {
                initial: 300,
                increment: 3,
            }),
            days: None,
            white: Seat::Human,
            black: Seat::Engine { level: 2 },
            rematch_of: None,
            fen: None,
        };
        let text = serde_json::to_string(&created).unwrap();
        assert_eq!(
            text,
            r#"{"type":"created","variant":"parity","clock":{"initial":300,"increment":3},"days":null,"white":{"kind":"human"},"black":{"kind":"engine","level":2}}"#
        );
        assert_eq!(serde_json::from_str::<EventBody>(&text).unwrap(), created);
        assert_eq!(created.kind(), "created");
    }
}
