//! Fair play: limits on rated games that only farm ratings.

use crate::base::limits::Limits;
use crate::base::refusal::{Refusal, Said};
use crate::game::event::now_ms;
use crate::store::Store;

/// Two accounts begin at most `rated_games_per_pair_per_day` rated games
/// together in 24 hours.
pub async fn check_rated_pair(
    store: &Store,
    limits: &Limits,
    a: &str,
    b: &str,
) -> Result<(), Refusal> {
    let most = limits.rated_games_per_pair_per_day;
    let since = now_ms() - 24 * 3600 * 1000;
    if store.rated_games_between(a, b, since).await? >= most {
        return Err(Refusal::NotNow(
            Said::new("server-refusal-most-rated-games-day-between").with("most", most),
        ));
    }
    Ok(())
}
