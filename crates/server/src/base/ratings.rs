//! Glicko-2 ratings per variant (skillratings), for rated games between
//! accounts. Each rated game is a rating period of its own, as on lichess;
//! the store applies it in the transaction that finishes the game.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A rating with the deviation above which lichess calls it provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's Glicko-2 rating in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
}

impl Default for Rating {
    /// A newcomer: 1500, deviation 350, volatility 0.06 (Glickman's defaults).
    fn default() -> Rating {
        let fresh = Glicko2Rating::new();
        Rating {
            rating: fresh.rating,
            deviation: fresh.deviation,
            volatility: fresh.volatility,
            games: 0,
        }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The number shown: rounded, as lichess shows it.
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after(&self, new: Glicko2Rating) -> Rating {
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + 1,
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

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
    fn a_win_moves_both_ratings_and_newcomers_are_provisional() {
        let fresh = Rating::default();
        assert!(fresh.provisional());
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
        let settled = Rating {
            deviation: 60.0,
            ..fresh
        };
        assert!(!settled.provisional());
    }
}
