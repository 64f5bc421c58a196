use parity_rules::simultaneous::*;
use parity_rules::{notation, Color, Registry, Variant};

fn v(id: &str) -> &'static Variant { Registry::builtin().get(id).unwrap() }

#[test]
fn probe() {
    let p = SimPosition::start(v("parity"));
    let w = notation::parse_uci(&p.side(Color::White), "e2e4").unwrap();
    let b = notation::parse_uci(&p.side(Color::Black), "e7e5").unwrap();
    let t = p.resolve(w, b).unwrap();
    println!("{}", t.position.to_fen());
    println!("{:?} {:?}", t.notes, (w, b));
}
