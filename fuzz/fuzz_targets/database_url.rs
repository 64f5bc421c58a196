//! `parity serve --db`'s reader of PostgreSQL URLs with libpq's TLS
//! settings (`store/postgres_tls.rs`): any text gets a verdict, never a
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_server::store::check_postgres_url;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = check_postgres_url(text);
    let _ = check_postgres_url(&format!("postgres://u@h/g?{text}"));
});
