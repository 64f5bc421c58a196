//! Which of our engine seats must act now.

use std::time::Instant;

use parity_rules::Color;

use super::{GameState, Hidden, Status};
use crate::game::event::Seat;

impl GameState {
    /// Seats our engine must act for now: move (turn-based) or commit (simultaneous).
    pub fn engine_turns(&self) -> Vec<(Color, u8)> {
        if self.status != Status::Started {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .filter_map(|c| match self.seat(c) {
                Seat::Engine { level } => Some((c, level)),
                Seat::Human => None,
            })
            .filter(|&(c, _)| match self.play.to_move() {
                Some(to_move) => to_move == c,
                None => !self.committed(c),
            })
            .collect()
    }

    /// Engine seats whose reveal is due, with the move they committed to.
    pub fn engine_reveals(&self) -> Vec<Hidden> {
        if self.status != Status::Started
            || !self.committed(Color::White)
            || !self.committed(Color::Black)
        {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .filter(|&c| matches!(self.seat(c), Seat::Engine { .. }) && !self.revealed(c))
            .filter_map(|c| self.hidden(c).cloned())
            .collect()
    }

    /// An engine seat that revealed in a game without a clock while the
    /// other side has not, and when it may claim the game (it does so by
    /// itself, as a player would).
    pub fn engine_claim(&self) -> Option<(Color, Instant)> {
        let deadline = self.sim.reveal_deadline?;
        if self.status != Status::Started {
            return None;
        }
        Color::ALL
            .into_iter()
            .find(|&c| {
                matches!(self.seat(c), Seat::Engine { .. })
                    && self.revealed(c)
                    && !self.revealed(c.other())
            })
            .map(|c| (c, deadline))
    }
}
