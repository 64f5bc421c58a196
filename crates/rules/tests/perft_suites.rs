//! Perft suites kept as data: `tests/perft/*.tsv`, one position a line,
//! `variant<TAB>FEN<TAB>perft(1)<TAB>perft(2)...`. Counts above
//! `SHALLOW_LIMIT` nodes run only with `--features deep-perft`. Boards of
//! at most 64 squares are counted on both words.

use parity_rules::{fen, perft::perft, Position, Registry};

const SHALLOW_LIMIT: u64 = 20_000_000;

fn run_suite(file: &str) {
    let path = format!("{}/tests/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let reg = Registry::builtin();
    let deep = cfg!(feature = "deep-perft");
    let mut checked = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let variant = reg
            .get(cols[0])
            .unwrap_or_else(|| panic!("{file}:{}: unknown variant {}", n + 1, cols[0]));
        let wide: Position = fen::parse_position(variant, cols[1])
            .unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
        let narrow: Option<Position<u64>> = (variant.shape.len() <= u64::BITS as usize)
            .then(|| fen::parse_position(variant, cols[1]).unwrap());
        for (i, expected) in cols[2..].iter().enumerate() {
            let expected: u64 = expected.parse().unwrap();
            if expected > SHALLOW_LIMIT && !deep {
                break;
            }
            let depth = i as u32 + 1;
            let what = format!("{file}:{}: {} depth {depth}", n + 1, cols[1]);
            assert_eq!(perft(&wide, depth), expected, "{what}");
            if let Some(pos) = &narrow {
                assert_eq!(perft(pos, depth), expected, "{what} (64-bit)");
                assert_eq!(pos.to_setup(), wide.to_setup(), "{what}");
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "{file}: no counts checked");
}

#[test]
fn chess_suite() {
    run_suite("chess.tsv");
}

#[test]
fn tutti_frutti_suite() {
    run_suite("tutti-frutti.tsv");
}

#[test]
fn parity12_suite() {
    run_suite("parity12.tsv");
}
