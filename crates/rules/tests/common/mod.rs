//! Helpers shared by the integration tests.

use parity_rules::{Registry, Variant};

/// `tests/data/crowd-warden.toml`: safety-in-numbers plus the Warden (`W`,
/// `mRcK`), whose move and capture powers differ; loaded as a user file.
pub fn warden() -> &'static Variant {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crowd-warden.toml");
    Registry::builtin()
        .load_file(&file)
        .unwrap_or_else(|e| panic!("{e}"))
}
