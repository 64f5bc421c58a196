//! What accounts send the server as JSON: a change of preferences
//! (`PUT /api/account/preferences`), a browser's push subscription
//! (`POST /api/account/push`), and a stored game analysis read back: any
//! bytes get a verdict, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_server::accounts::preferences::Preferences;
use parity_server::base::push::Subscription;
use parity_server::game::review::Review;

fuzz_target!(|data: &[u8]| {
    if let Ok(change) = serde_json::from_slice::<serde_json::Value>(data) {
        if let Ok(p) = Preferences::default().changed(&change) {
            // What is accepted is stored and reads back the same.
            let text = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Preferences>(&text).unwrap(), p);
        }
    }
    if let Ok(subscription) = serde_json::from_slice::<Subscription>(data) {
        let _ = subscription.check(false);
        let _ = subscription.check(true);
    }
    if let Ok(review) = serde_json::from_slice::<Review>(data) {
        let _ = review.pgn_notes();
    }
});
