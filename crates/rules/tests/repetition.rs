//! One repetition rule for every family: a game is drawn when a position
//! stands for the third time in it (the variant's `repetition`), counted over
//! the whole game, whether its sides move in turn or at once.

use parity_rules::{AnyGame, Outcome, Reason, Registry};

/// Plays `steps` (moves or `white:black` turns) and returns the number of
/// steps after which the rules first drew by repetition.
fn drawn_after(variant: &str, steps: &[&str]) -> Option<usize> {
    let mut game = AnyGame::new(Registry::builtin().get(variant).unwrap());
    for (i, step) in steps.iter().enumerate() {
        game.play_text(step, false)
            .unwrap_or_else(|e| panic!("{variant}: {e}"));
        if game.outcome().is_some() {
            assert_eq!(
                game.outcome(),
                Some(Outcome::draw(Reason::Repetition)),
                "{variant}"
            );
            return Some(i + 1);
        }
    }
    None
}

#[test]
fn the_third_occurrence_draws_in_every_family() {
    let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let twice: Vec<&str> = knights.iter().chain(&knights).copied().collect();
    // The start stands a third time after eight moves, in turn-based and crowd chess.
    assert_eq!(drawn_after("chess", &twice), Some(8));
    assert_eq!(drawn_after("safety-in-numbers", &twice), Some(8));
    assert_eq!(drawn_after("tutti-frutti", &twice), Some(8));
    // Both sides move at once: the start stands a third time after four turns.
    let turns = ["g1f3:g8f6", "f3g1:f6g8"];
    let sim: Vec<&str> = turns.iter().chain(&turns).copied().collect();
    assert_eq!(drawn_after("move-neutral", &sim), Some(4));
}

#[test]
fn a_position_twice_is_no_draw() {
    assert_eq!(
        drawn_after("chess", &["g1f3", "g8f6", "f3g1", "f6g8"]),
        None
    );
    assert_eq!(
        drawn_after("safety-in-numbers", &["b1c3", "b8c6", "c3b1", "c6b8"]),
        None
    );
}
