//! The network face: routes by resource, the edge (addresses, limits,
//! origins), sessions, profiles, health and metrics, and the static page.

pub mod api;
mod assets;
pub mod auth;
pub mod connections;
pub mod edge;
pub mod error;
pub mod language;
pub mod monitoring;
pub mod ndjson;
pub mod node;
pub mod profiles;
mod rules_page;
pub mod sessions;
