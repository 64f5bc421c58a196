//! What knows nothing of games or storage: secrets and ids, record
//! signatures, a rating's shape, limits, the metrics, sending mail, the
//! catalogue of words (i18n), and why a request was refused.

pub mod i18n;
pub mod limits;
pub mod mail;
pub mod metrics;
pub mod os;
pub mod push;
pub mod ratings;
pub mod refusal;
pub mod secret;
pub mod signing;
pub mod tls;
