//! Glicko-2 (skillratings) for rated games between accounts, each game a
//! rating period of its own, as on lichess. The summary that finishes a
//! rated game marks it due in the same transaction; this rates it and
//! writes the ratings as one change, checked against the ratings it read,
//! so two nodes finishing two games of one player at once both count, and
//! a crash before the rating leaves the game due for the next sweep.

use skillratings::glicko2::{glicko2, Glicko2Config};
use skillratings::Outcomes;

use crate::base::ratings::Rating;
use crate::game::event::now_ms;
use crate::store::{AccountChange, Change, GameRatings, RatedSide, Store, StoreError, Writer};

/// Tries to write one game's ratings before giving up until the next sweep.
const ATTEMPTS: usize = 8;

/// Due games rated per sweep.
const SWEEP: i64 = 100;

/// Both ratings after a game with `result` (`1-0`, `0-1` or `1/2-1/2`);
/// none for any other result (an aborted game is not rated).
pub fn after_game(white: &Rating, black: &Rating, result: &str) -> Option<(Rating, Rating)> {
    let outcome = match result {
        "1-0" => Outcomes::WIN,
        "0-1" => Outcomes::LOSS,
        "1/2-1/2" => Outcomes::DRAW,
        _ => return None,
    };
    let (w, b) = glicko2(
        &white.glicko(),
        &black.glicko(),
        &outcome,
        &Glicko2Config::new(),
    );
    Some((white.after(w), black.after(b)))
}

/// Rates finished game `game` if it is due: reads both ratings, computes
/// and writes them, again if another game changed one in between.
pub async fn rate(store: &Store, writer: &Writer, game: &str) -> Result<(), StoreError> {
    for _ in 0..ATTEMPTS {
        let Some(inputs) = store.rating_inputs(game).await? else {
            return Ok(());
        };
        let change = match (&inputs.players, inputs.result.as_deref()) {
            ([Some((white, w)), Some((black, b))], Some(result)) => {
                match after_game(w, b, result) {
                    Some((w_after, b_after)) => AccountChange::Rate(GameRatings {
                        game: game.to_string(),
                        variant: inputs.variant.clone(),
                        at_ms: now_ms(),
                        sides: [
                            RatedSide {
                                user_id: white.clone(),
                                games_before: w.games,
                                after: w_after,
                            },
                            RatedSide {
                                user_id: black.clone(),
                                games_before: b.games,
                                after: b_after,
                            },
                        ],
                    }),
                    None => AccountChange::NotRated {
                        game: game.to_string(),
                    },
                }
            }
            _ => AccountChange::NotRated {
                game: game.to_string(),
            },
        };
        match writer.write(vec![Change::Account(change)]).await {
            // Gone: another node rated the game, or a rating changed since
            // it was read; the next read tells which.
            Ok(()) | Err(StoreError::Gone(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(StoreError::Corrupt(format!(
        "game {game}: its ratings changed under {ATTEMPTS} attempts in a row"
    )))
}

/// An account's rating in a variant, as shown, and whether it is
/// provisional (a newcomer's when it has none).
pub async fn shown_rating(
    store: &Store,
    user_id: &str,
    variant: &str,
) -> Result<(i64, bool), StoreError> {
    let rating = store
        .ratings(user_id)
        .await?
        .into_iter()
        .find(|(v, _)| v == variant)
        .map(|(_, r)| r)
        .unwrap_or_default();
    Ok((rating.shown(), rating.provisional()))
}

/// Rates every due game: after a restart, or games a dead node finished.
pub async fn rate_due(store: &Store, writer: &Writer) -> Result<usize, StoreError> {
    let due = store.ratings_due(SWEEP).await?;
    for game in &due {
        rate(store, writer, game).await?;
    }
    Ok(due.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::{glicko2_rating_period, Glicko2Rating};

    /// Glickman, "Example of the Glicko-2 system" (glicko2.pdf, 2013):
    /// 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one
    /// period with tau 0.5: 1464.06, 151.52, 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let new = glicko2_rating_period(&player, &results, &config);
        assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
        // Our configuration is the paper's tau.
        assert_eq!(Glicko2Config::new().tau, 0.5);
    }

    #[test]
    fn a_win_moves_both_ratings_and_a_draw_makes_them_surer() {
        let fresh = Rating::default();
        let (w, b) = after_game(&fresh, &fresh, "1-0").unwrap();
        assert!(w.rating > 1500.0 && b.rating < 1500.0, "{w:?} {b:?}");
        assert!(
            (w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9,
            "symmetric"
        );
        assert_eq!((w.games, b.games), (1, 1));
        let (dw, db) = after_game(&fresh, &fresh, "1/2-1/2").unwrap();
        assert!((dw.rating - 1500.0).abs() < 1e-9 && (db.rating - 1500.0).abs() < 1e-9);
        assert!(dw.deviation < 350.0, "a game makes the rating surer");
        assert!(after_game(&fresh, &fresh, "*").is_none());
    }
}
