//! `parity study` end to end with our own engine: a study killed halfway
//! and resumed gives the same games as one run straight through, the
//! report is written, and bad input is an error with a message.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{parity, text};

fn temp(name: &str) -> PathBuf {
    common::temp("study-cli", name)
}

/// chess at 200 nodes and parity at depth 1, 6 games each, short games.
fn study_args(results: &Path, concurrency: &str) -> Vec<String> {
    [
        "study",
        "first-move",
        "--variant",
        "chess,parity",
        "--games",
        "6",
        "--nodes",
        "200",
        "--depth",
        "1",
        "--openings",
        "random:6",
        "--seed",
        "11",
        "--max-plies",
        "120",
        "--concurrency",
        concurrency,
        "--results",
        results.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The game lines of a results file, by variant, budget and game number
/// (the order of lines depends on which game ends first).
fn games(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let key = ["\"variant\"", "\"budget\"", "\"game\""]
                .iter()
                .map(|k| {
                    let at = l.find(k).unwrap_or_else(|| panic!("{k} in {l}"));
                    l[at..].split(',').next().unwrap().to_string()
                })
                .collect::<Vec<_>>()
                .join(" ");
            (key, l.to_string())
        })
        .collect()
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count())
        .unwrap_or(0)
}

/// The table printed at the end, without the line naming the report.
fn table(o: &Output) -> String {
    text(&o.stdout)
        .lines()
        .filter(|l| !l.starts_with("report:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_killed_study_resumes_to_the_games_of_an_uninterrupted_one() {
    let whole = temp("whole.jsonl");
    let report = temp("report");
    let mut args = study_args(&whole, "2");
    args.extend(["--report".into(), report.to_str().unwrap().into()]);
    let started = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(&args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let once = started.elapsed();
    let reference = games(&whole);
    assert_eq!(reference.len(), 12, "{reference:?}");
    let out = table(&o);
    assert!(
        out.contains("chess") && out.contains("nodes=200") && out.contains("6/6"),
        "{out}"
    );
    assert!(out.contains("parity") && out.contains("depth=1"), "{out}");
    for stem in ["score", "draws", "endings", "lengths", "score-vs-budget"] {
        for ext in ["svg", "png"] {
            let f = report.join(format!("{stem}.{ext}"));
            assert!(
                f.metadata().map(|m| m.len() > 1000).unwrap_or(false),
                "{}",
                f.display()
            );
        }
    }
    assert!(std::fs::read_to_string(report.join("report.md"))
        .unwrap()
        .contains("| chess | nodes=200 | 6/6 |"));

    // The same study, one game at a time, killed once 4 games are in.
    let cut = temp("cut.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(study_args(&cut, "1"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + once * 20 + Duration::from_secs(60);
    while lines(&cut) < 5 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = games(&cut).len();
    assert!(
        (4..12).contains(&kept),
        "killed after {kept} games; the test wants to kill it halfway"
    );
    // And as if killed while writing a line.
    let mut torn = std::fs::read_to_string(&cut).unwrap();
    torn.push_str("{\"study\":\"");
    std::fs::write(&cut, torn).unwrap();

    let o = parity(
        &study_args(&cut, "2")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(games(&cut), reference, "resumed after {kept} games");
    assert_eq!(lines(&cut), 13);
    assert_eq!(table(&o), out);

    // The report of a results file.
    let again = temp("again");
    let o = parity(&[
        "study",
        "report",
        "--results",
        cut.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(table(&o), out);
    assert_eq!(
        std::fs::read_to_string(again.join("score.svg")).unwrap(),
        std::fs::read_to_string(report.join("score.svg")).unwrap()
    );

    // Other parameters on the same file: refused, saying what differs.
    let mut other = study_args(&cut, "2");
    let seed = other.iter().position(|a| a == "11").unwrap();
    other[seed] = "12".into();
    let o = parity(&other.iter().map(String::as_str).collect::<Vec<_>>());
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("other parameters") && err.contains("seed 11 in the file, 12 here"),
        "{err}"
    );
}

#[test]
fn bad_input_is_an_error_with_a_message() {
    let results = temp("bad.jsonl");
    let r = results.to_str().unwrap();
    let base = ["study", "first-move", "--games", "2", "--results", r];
    for (extra, words) in [
        (&["--variant", "chesss", "--nodes", "100"][..], "chesss"),
        (&["--variant", "chess", "--nodes", "10x"][..], "`10x`"),
        (&["--variant", "chess", "--nodes", "0"][..], "at least 1"),
        (&["--variant", "chess"][..], "no budget"),
        (
            &["--variant", "chess", "--nodes", "1", "--movetime", "5"][..],
            "not both",
        ),
        (
            &[
                "--variant",
                "chess",
                "--nodes",
                "100",
                "--openings",
                "start",
            ][..],
            "same game",
        ),
        (
            &[
                "--variant",
                "chess",
                "--nodes",
                "100",
                "--openings",
                "random:5",
            ][..],
            "even",
        ),
        (
            &[
                "--variant",
                "chess",
                "--nodes",
                "100",
                "--openings",
                "/no/such/file",
            ][..],
            "/no/such/file",
        ),
        (
            &[
                "--variant",
                "chess",
                "--nodes",
                "100",
                "--engine",
                "parity,nodes=5",
            ][..],
            "budgets",
        ),
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(extra);
        let o = parity(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(
            err.contains("error:") && err.contains(words),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // A results file that is not one.
    std::fs::write(&results, "not json\n").unwrap();
    let o = parity(&[
        "study",
        "first-move",
        "--games",
        "2",
        "--results",
        r,
        "--variant",
        "chess",
        "--nodes",
        "100",
    ]);
    assert!(
        text(&o.stderr).contains("not a study results file"),
        "{}",
        text(&o.stderr)
    );
    let o = parity(&[
        "study",
        "report",
        "--results",
        r,
        "--out",
        temp("nothing").to_str().unwrap(),
    ]);
    assert!(
        text(&o.stderr).contains("not a study results file"),
        "{}",
        text(&o.stderr)
    );
    let o = parity(&[
        "study",
        "report",
        "--results",
        "/no/such.jsonl",
        "--out",
        temp("nothing").to_str().unwrap(),
    ]);
    assert!(!o.status.success() && text(&o.stderr).contains("/no/such.jsonl"));
}

#[test]
fn four_shards_play_exactly_the_games_of_the_whole_study() {
    let whole = temp("unsharded.jsonl");
    let o = parity(
        &study_args(&whole, "2")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let reference = games(&whole);
    assert_eq!(reference.len(), 12);
    let whole_table = table(&o);

    // Four independent processes, as a job array would start them.
    let files: Vec<PathBuf> = (0..4).map(|k| temp(&format!("shard-{k}.jsonl"))).collect();
    let children: Vec<_> = files
        .iter()
        .enumerate()
        .map(|(k, file)| {
            Command::new(env!("CARGO_BIN_EXE_parity"))
                .args(study_args(file, "1"))
                .args(["--shard", &format!("{k}/4")])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let mut merged = BTreeMap::new();
    for file in &files {
        let part = games(file);
        assert_eq!(part.len(), 3, "a quarter of 12 games in {}", file.display());
        for (key, line) in part {
            assert!(merged.insert(key.clone(), line).is_none(), "{key} twice");
        }
    }
    assert_eq!(merged, reference, "the shards' games are the whole study's");

    let report = temp("sharded-report");
    let mut args = vec![
        "study",
        "report",
        "--out",
        report.to_str().unwrap(),
        "--results",
    ];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let o = parity(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        table(&o),
        whole_table,
        "the merged report is the whole study's"
    );

    // Shards of another study do not merge.
    let other = temp("other-study.jsonl");
    let mut args = study_args(&other, "1");
    let seed = args.iter().position(|a| a == "11").unwrap();
    args[seed] = "12".into();
    args.extend(["--shard".into(), "0/6".into()]);
    let o = parity(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = parity(&[
        "study",
        "report",
        "--out",
        report.to_str().unwrap(),
        "--results",
        files[0].to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("only shards of one study merge"),
        "{}",
        text(&o.stderr)
    );
    let o = parity(&[
        "study",
        "first-move",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "100",
        "--results",
        other.to_str().unwrap(),
        "--shard",
        "4/4",
    ]);
    assert!(!o.status.success() && text(&o.stderr).contains("K must be 0 to N-1"));
}
