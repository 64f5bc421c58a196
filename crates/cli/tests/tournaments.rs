//! berserk, unchanged, runs tournaments on `parity serve` through lichess's
//! tournament and team API: `tests/python/tournament_client.py` makes a
//! team; an arena of people where one goes berserk; arenas in chess and in
//! parity played by four `parity bot` processes; and a five-round Swiss
//! event of seven people, played to fixed results through berserk's board
//! client and scheduled round by round; then it reads the standings,
//! results, games and the FIDE report.

use crate::common;

use std::process::Command;

#[test]
fn berserk_runs_arenas_and_a_swiss_event() {
    let db = common::temp("tournaments", "tournaments.sqlite");
    let db_arg = db.to_str().unwrap();
    let org = common::board_token(db_arg, "Org");
    let players: Vec<String> = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
        .iter()
        .map(|name| common::board_token(db_arg, name))
        .collect();
    let bots: Vec<String> = ["Ada-Bot", "Bo-Bot", "Cy-Bot", "Di-Bot"]
        .iter()
        .map(|name| common::bot_token(db_arg, name))
        .collect();
    // The script plays fifteen games' moves from one address at once.
    let (mut server, base) = common::serve(&db, &["--actions-per-second", "1000"]);
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/tournament_client.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([&base, env!("CARGO_BIN_EXE_parity"), &org])
        .args(&players)
        .args(&bots)
        .output()
        .expect("python3 runs the client (pip install berserk)");
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    assert!(
        out.status.success() && common::stdout(&out).trim() == "ok",
        "the client failed:\n{}\n{}",
        common::stdout(&out),
        common::stderr(&out)
    );
}
