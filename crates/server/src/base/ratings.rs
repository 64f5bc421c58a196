//! A player's rating in one variant, as stored and shown; the accounts
//! layer computes it (`crate::accounts::glicko`).

use skillratings::glicko2::Glicko2Rating;

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

    pub(crate) fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    pub(crate) fn after(&self, new: Glicko2Rating) -> Rating {
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newcomers_are_provisional_and_settled_ratings_are_not() {
        let fresh = Rating::default();
        assert!(fresh.provisional());
        assert_eq!((fresh.shown(), fresh.games), (1500, 0));
        let settled = Rating {
            deviation: 60.0,
            ..fresh
        };
        assert!(!settled.provisional());
    }
}
