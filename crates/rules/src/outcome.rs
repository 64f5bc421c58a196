//! How a game ends, in one vocabulary for every family and every program:
//! the rules, the server, the arena and the page say the same thing.

use std::fmt;

use crate::types::Color;

/// Why a game ended. Each reason has one stable machine name (stored in
/// databases, sent on the wire, written as PGN's `Termination`) and one
/// human text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    // By the rules of the position.
    Checkmate,
    Stalemate,
    /// A side of a simultaneous game has no legal move at the start of a
    /// turn (in `parity` this covers mate, stalemate and having only the
    /// waiting piece).
    NoLegalMove,
    /// Both kings are mated in the same turn (simultaneous games).
    BothCheckmated,
    /// Both kings end a turn on one square (simultaneous games).
    KingsShareSquare,
    /// Fifty moves (turn-based) or turns (simultaneous) without a capture
    /// or a pawn move.
    FiftyMoves,
    Repetition,
    /// Neither side can mate (in simultaneous games: kings alone).
    InsufficientMaterial,
    // By the players or the clock.
    Resignation,
    Agreement,
    Time,
    /// Ended before it began; no result.
    Abort,
    /// A side committed to a move and never revealed it.
    NoReveal,
}

impl Reason {
    pub const ALL: [Reason; 13] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::NoLegalMove,
        Reason::BothCheckmated,
        Reason::KingsShareSquare,
        Reason::FiftyMoves,
        Reason::Repetition,
        Reason::InsufficientMaterial,
        Reason::Resignation,
        Reason::Agreement,
        Reason::Time,
        Reason::Abort,
        Reason::NoReveal,
    ];

    /// The stable machine name.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::NoLegalMove => "no-legal-move",
            Reason::BothCheckmated => "both-checkmated",
            Reason::KingsShareSquare => "kings-share-square",
            Reason::FiftyMoves => "fifty-moves",
            Reason::Repetition => "repetition",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Time => "time",
            Reason::Abort => "abort",
            Reason::NoReveal => "no-reveal",
        }
    }

    /// The words a person reads.
    pub fn text(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::NoLegalMove => "no legal move",
            Reason::BothCheckmated => "both kings checkmated",
            Reason::KingsShareSquare => "the kings share a square",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::Repetition => "repetition",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Time => "out of time",
            Reason::Abort => "aborted",
            Reason::NoReveal => "a move was never revealed",
        }
    }

    /// The reason of a machine name; also reads the words the server
    /// stored before names were fixed (release 0.1), so old databases load.
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .or(match name {
                "no legal move" => Some(Reason::NoLegalMove),
                "both checkmated" => Some(Reason::BothCheckmated),
                "kings share a square" => Some(Reason::KingsShareSquare),
                "fifty moves" | "fifty turns" => Some(Reason::FiftyMoves),
                "insufficient material" | "dead position" => Some(Reason::InsufficientMaterial),
                "no reveal" => Some(Reason::NoReveal),
                _ => None,
            })
    }

    /// True for the endings the rules decide from the position alone.
    pub fn by_the_rules(self) -> bool {
        self < Reason::Resignation
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Reason::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown ending `{name}`")))
    }
}

/// The end of a game: who won (none for a draw or an abort) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Outcome {
    pub fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The ending in a sentence: "White wins: checkmate", "Draw: repetition".
    pub fn sentence(&self) -> String {
        match (self.winner, self.reason) {
            (_, Reason::Abort) => "Aborted".to_string(),
            (Some(c), r) => format!("{} wins: {}", c.title(), r.text()),
            (None, r) => format!("Draw: {}", r.text()),
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn result(&self) -> &'static str {
        match (self.winner, self.reason) {
            (_, Reason::Abort) => "*",
            (Some(Color::White), _) => "1-0",
            (Some(Color::Black), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.reason.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
            assert_eq!(
                Reason::ALL.iter().filter(|o| o.name() == r.name()).count(),
                1
            );
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.name()));
            assert_eq!(serde_json::from_str::<Reason>(&json).unwrap(), r);
        }
        assert!(serde_json::from_str::<Reason>("\"bored\"").is_err());
    }

    #[test]
    fn the_words_of_release_0_1_still_read() {
        for (old, new) in [
            ("checkmate", Reason::Checkmate),
            ("fifty moves", Reason::FiftyMoves),
            ("fifty turns", Reason::FiftyMoves),
            ("dead position", Reason::InsufficientMaterial),
            ("insufficient material", Reason::InsufficientMaterial),
            ("kings share a square", Reason::KingsShareSquare),
            ("no reveal", Reason::NoReveal),
            ("no legal move", Reason::NoLegalMove),
            ("both checkmated", Reason::BothCheckmated),
            ("time", Reason::Time),
            ("abort", Reason::Abort),
        ] {
            assert_eq!(Reason::from_name(old), Some(new), "{old}");
        }
    }

    #[test]
    fn results_and_display() {
        assert_eq!(
            Outcome::win(Color::White, Reason::NoLegalMove).to_string(),
            "1-0 (no legal move)"
        );
        assert_eq!(Outcome::draw(Reason::Repetition).result(), "1/2-1/2");
        assert_eq!(Outcome::draw(Reason::Abort).result(), "*");
        assert_eq!(
            Outcome::draw(Reason::KingsShareSquare).sentence(),
            "Draw: the kings share a square"
        );
        assert_eq!(
            Outcome::win(Color::Black, Reason::Checkmate).sentence(),
            "Black wins: checkmate"
        );
        assert!(Reason::Repetition.by_the_rules());
        assert!(!Reason::Resignation.by_the_rules());
    }
}
