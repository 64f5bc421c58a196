//! What knows nothing of games or storage: secrets and ids, record
//! signatures, rating arithmetic, limits, the metrics, sending mail, and
//! why a request was refused.

pub mod limits;
pub mod mail;
pub mod push;
pub mod metrics;
pub mod ratings;
pub mod refusal;
pub mod secret;
pub mod signing;
pub mod tls;
