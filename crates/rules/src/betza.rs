//! Betza's "funny notation" for piece moves.
//!
//! Supported: the leaper atoms W F D N A H C (= L) Z (= J) G; the shortcuts
//! K = WF, R = WW, B = FF, Q = WWFF; a doubled atom is a rider (`NN`); a number
//! after an atom limits its range (`R4`, `W3`). Lower-case modifiers before an
//! atom: `m` move only, `c` capture only, `e` may capture en passant, `i` only
//! from the ranks the piece starts on, `n` lame (a straight leap needs the
//! squares it passes over empty), and directions `f b l r v s h`.
//!
//! Directions follow XBoard's reading: a single letter keeps every move with a
//! component that way; on diagonal atoms `fl` names one move; on oblique atoms
//! `ff`/`fs` are the narrow/wide forward pairs, `fl` is the one move whose long
//! leg goes forward and short leg left, `lv`/`rv` the narrow side pairs, and `h`
//! after a letter ("half") keeps that whole half of the board. On oblique atoms
//! `v` and `s` mean the narrow four and the wide four.

use std::fmt;

/// One move pattern in White's orientation (`dy > 0` is forward).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveRule {
    pub dx: i8,
    pub dy: i8,
    /// 1 for a leap, 0 for an unlimited rider, n for a rider of at most n steps.
    pub range: u8,
    pub can_move: bool,
    pub can_capture: bool,
    pub en_passant: bool,
    pub initial: bool,
    pub lame: bool,
}

impl MoveRule {
    pub fn is_rider(&self) -> bool {
        self.range != 1
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Betza `{text}`, at character {position}: {kind}")]
pub struct BetzaError {
    pub text: String,
    pub position: usize,
    pub kind: BetzaErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BetzaErrorKind {
    Empty,
    UnknownAtom(char),
    UnknownModifier(char),
    ModifiersWithoutAtom,
    DirectionSelectsNothing(String),
    LameNeedsStraightLeap,
    BadRange,
}

impl fmt::Display for BetzaErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BetzaErrorKind::Empty => write!(f, "no moves described"),
            BetzaErrorKind::UnknownAtom(c) => write!(
                f,
                "unknown atom `{c}` (known: W F D N A H C L Z J G K R B Q)"
            ),
            BetzaErrorKind::UnknownModifier(c) => {
                write!(f, "unknown modifier `{c}` (known: m c e i n f b l r v s h)")
            }
            BetzaErrorKind::ModifiersWithoutAtom => {
                write!(f, "modifiers at the end with no atom after them")
            }
            BetzaErrorKind::DirectionSelectsNothing(d) => {
                write!(f, "direction `{d}` selects none of this atom's moves")
            }
            BetzaErrorKind::LameNeedsStraightLeap => {
                write!(f, "`n` (lame) needs a straight leap such as D, A or H")
            }
            BetzaErrorKind::BadRange => write!(f, "range must be a number from 1 to 15"),
        }
    }
}

fn atom_leap(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' | 'L' => (3, 1),
        'Z' | 'J' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// Expansion of a letter: (leap, rider?) parts.
fn atom_parts(c: char) -> Option<Vec<((i8, i8), bool)>> {
    Some(match c {
        'K' => vec![((1, 0), false), ((1, 1), false)],
        'R' => vec![((1, 0), true)],
        'B' => vec![((1, 1), true)],
        'Q' => vec![((1, 0), true), ((1, 1), true)],
        _ => vec![(atom_leap(c)?, false)],
    })
}

#[derive(Clone, Copy, PartialEq)]
enum AtomClass {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn class_of((a, b): (i8, i8)) -> AtomClass {
    if b == 0 {
        AtomClass::Orthogonal
    } else if a == b {
        AtomClass::Diagonal
    } else {
        AtomClass::Oblique
    }
}

/// All board vectors of a leap, deduplicated.
fn symmetric((a, b): (i8, i8)) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

fn component(dir: char, (dx, dy): (i8, i8)) -> i8 {
    match dir {
        'f' => dy,
        'b' => -dy,
        'r' => dx,
        'l' => -dx,
        _ => 0,
    }
}

fn is_vertical_axis(dir: char) -> bool {
    matches!(dir, 'f' | 'b')
}

/// True if the leg along `dir`'s axis is the long one.
fn long_along(dir: char, (dx, dy): (i8, i8)) -> bool {
    if is_vertical_axis(dir) {
        dy.abs() > dx.abs()
    } else {
        dx.abs() > dy.abs()
    }
}

fn perpendicular(a: char, b: char) -> bool {
    matches!(a, 'f' | 'b' | 'l' | 'r')
        && matches!(b, 'f' | 'b' | 'l' | 'r')
        && is_vertical_axis(a) != is_vertical_axis(b)
}

/// A direction token: one letter, or a pair that names a narrower set.
fn direction_tokens(dirs: &str, class: AtomClass) -> Vec<String> {
    let chars: Vec<char> = dirs.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let a = chars[i];
        let pair = chars.get(i + 1).copied().filter(|&b| {
            let half = matches!(a, 'f' | 'b' | 'l' | 'r') && b == 'h';
            match class {
                AtomClass::Orthogonal => half,
                AtomClass::Diagonal => half || perpendicular(a, b),
                AtomClass::Oblique => {
                    half || perpendicular(a, b)
                        || (a == b && matches!(a, 'f' | 'b' | 'l' | 'r'))
                        || (matches!(a, 'f' | 'b') && b == 's')
                        || (matches!(a, 'l' | 'r') && b == 'v')
                }
            }
        });
        match pair {
            Some(b) => {
                out.push(format!("{a}{b}"));
                i += 2;
            }
            None => {
                out.push(a.to_string());
                i += 1;
            }
        }
    }
    out
}

fn token_matches(token: &str, class: AtomClass, v: (i8, i8)) -> bool {
    let t: Vec<char> = token.chars().collect();
    let (dx, dy) = v;
    match t.as_slice() {
        [x @ ('f' | 'b' | 'l' | 'r')] => component(*x, v) > 0,
        ['v'] => match class {
            AtomClass::Orthogonal => dx == 0,
            AtomClass::Diagonal => true,
            AtomClass::Oblique => dy.abs() > dx.abs(),
        },
        ['s'] => match class {
            AtomClass::Orthogonal => dy == 0,
            AtomClass::Diagonal => true,
            AtomClass::Oblique => dx.abs() > dy.abs(),
        },
        [x, 'h'] => component(*x, v) > 0,
        [x, y] if x == y => component(*x, v) > 0 && long_along(*x, v),
        [x, 's'] | [x, 'v'] => component(*x, v) > 0 && !long_along(*x, v),
        [x, y] if class == AtomClass::Diagonal => component(*x, v) > 0 && component(*y, v) > 0,
        [x, y] => component(*x, v) > 0 && component(*y, v) > 0 && long_along(*x, v),
        _ => false,
    }
}

/// Parses a Betza string into move rules in White's orientation.
pub fn parse(text: &str) -> Result<Vec<MoveRule>, BetzaError> {
    let err = |position: usize, kind| BetzaError {
        text: text.to_string(),
        position,
        kind,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut rules: Vec<MoveRule> = Vec::new();
    let mut i = 0;
    let mut modifiers_start = 0;
    let mut dirs = String::new();
    let (mut m, mut c, mut e, mut ini, mut lame) = (false, false, false, false, false);
    while i < chars.len() {
        let ch = chars[i];
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        if ch.is_ascii_lowercase() {
            if dirs.is_empty() && !(m || c || e || ini || lame) {
                modifiers_start = i;
            }
            match ch {
                'm' => m = true,
                'c' => c = true,
                'e' => e = true,
                'i' => ini = true,
                'n' => lame = true,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => dirs.push(ch),
                _ => return Err(err(i, BetzaErrorKind::UnknownModifier(ch))),
            }
            i += 1;
            continue;
        }
        let parts = atom_parts(ch).ok_or_else(|| err(i, BetzaErrorKind::UnknownAtom(ch)))?;
        let atom_pos = i;
        i += 1;
        let mut doubled = false;
        if chars.get(i) == Some(&ch) && atom_leap(ch).is_some() {
            doubled = true;
            i += 1;
        }
        let digits: String = chars[i..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .collect();
        i += digits.len();
        let limit: Option<u8> = if digits.is_empty() {
            None
        } else {
            match digits.parse::<u8>() {
                Ok(n) if (1..=15).contains(&n) => Some(n),
                _ => return Err(err(atom_pos, BetzaErrorKind::BadRange)),
            }
        };
        let (can_move, can_capture) = match (m, c) {
            (true, false) => (true, false),
            (false, true) => (false, true),
            _ if e && !m && !c => (false, false),
            _ => (true, true),
        };
        for (leap, rider) in parts {
            let class = class_of(leap);
            let range = match (rider || doubled, limit) {
                (_, Some(n)) => n,
                (true, None) => 0,
                (false, None) => 1,
            };
            if lame && (class == AtomClass::Oblique || leap.0 < 2 || range != 1) {
                return Err(err(atom_pos, BetzaErrorKind::LameNeedsStraightLeap));
            }
            let vectors = symmetric(leap);
            let tokens = direction_tokens(&dirs, class);
            for t in &tokens {
                if !vectors.iter().any(|&v| token_matches(t, class, v)) {
                    return Err(err(
                        modifiers_start,
                        BetzaErrorKind::DirectionSelectsNothing(t.clone()),
                    ));
                }
            }
            for v in vectors {
                if !tokens.is_empty() && !tokens.iter().any(|t| token_matches(t, class, v)) {
                    continue;
                }
                // Leap atoms carry the rule vector in (file, rank) order.
                let rule = MoveRule {
                    dx: v.0,
                    dy: v.1,
                    range,
                    can_move,
                    can_capture,
                    en_passant: e,
                    initial: ini,
                    lame,
                };
                if !rules.contains(&rule) {
                    rules.push(rule);
                }
            }
        }
        dirs.clear();
        (m, c, e, ini, lame) = (false, false, false, false, false);
    }
    if !dirs.is_empty() || m || c || e || ini || lame {
        return Err(err(modifiers_start, BetzaErrorKind::ModifiersWithoutAtom));
    }
    if rules.is_empty() {
        return Err(err(0, BetzaErrorKind::Empty));
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(text: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(text).unwrap().iter().map(|r| (r.dx, r.dy)).collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn atoms_and_shortcuts() {
        assert_eq!(vectors("N").len(), 8);
        assert_eq!(vectors("K").len(), 8);
        assert_eq!(vectors("WAD").len(), 12);
        assert_eq!(vectors("FAD").len(), 12);
        let q = parse("Q").unwrap();
        assert_eq!(q.len(), 8);
        assert!(q
            .iter()
            .all(|r| r.range == 0 && r.can_move && r.can_capture));
        let nn = parse("NN").unwrap();
        assert!(nn.iter().all(|r| r.range == 0));
        let r4 = parse("R4").unwrap();
        assert!(r4.iter().all(|r| r.range == 4));
        assert_eq!(parse("QN").unwrap().len(), 16);
    }

    #[test]
    fn pawn() {
        let p = parse("fmWfceFifmnD").unwrap();
        let step = p.iter().find(|r| (r.dx, r.dy) == (0, 1)).unwrap();
        assert!(step.can_move && !step.can_capture);
        let caps: Vec<_> = p
            .iter()
            .filter(|r| r.can_capture)
            .map(|r| (r.dx, r.dy))
            .collect();
        assert_eq!(caps.len(), 2);
        assert!(caps.contains(&(1, 1)) && caps.contains(&(-1, 1)));
        assert!(p.iter().filter(|r| r.can_capture).all(|r| r.en_passant));
        let double = p.iter().find(|r| (r.dx, r.dy) == (0, 2)).unwrap();
        assert!(double.initial && double.lame && double.can_move && !double.can_capture);
        assert_eq!(p.len(), 4);
    }

    #[test]
    fn directions_on_oblique_atoms() {
        assert_eq!(vectors("fN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(vectors("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(vectors("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(vectors("frN"), vec![(1, 2)]);
        assert_eq!(vectors("rfN"), vec![(2, 1)]);
        assert_eq!(vectors("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(vectors("fhN"), vectors("fN"));
    }

    #[test]
    fn directions_on_straight_atoms() {
        assert_eq!(vectors("fW"), vec![(0, 1)]);
        assert_eq!(vectors("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(vectors("sR"), vec![(-1, 0), (1, 0)]);
        assert_eq!(vectors("flF"), vec![(-1, 1)]);
        assert_eq!(vectors("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(vectors("frlW"), vec![(-1, 0), (0, 1), (1, 0)]);
    }

    #[test]
    fn errors_are_typed_and_located() {
        assert_eq!(parse("").unwrap_err().kind, BetzaErrorKind::Empty);
        assert_eq!(
            parse("X").unwrap_err().kind,
            BetzaErrorKind::UnknownAtom('X')
        );
        let e = parse("Wq").unwrap_err();
        assert_eq!(
            (e.position, e.kind),
            (1, BetzaErrorKind::UnknownModifier('q'))
        );
        assert_eq!(
            parse("Wf").unwrap_err().kind,
            BetzaErrorKind::ModifiersWithoutAtom
        );
        assert_eq!(
            parse("nN").unwrap_err().kind,
            BetzaErrorKind::LameNeedsStraightLeap
        );
        assert_eq!(parse("R99").unwrap_err().kind, BetzaErrorKind::BadRange);
        assert_eq!(
            parse("hW").unwrap_err().kind,
            BetzaErrorKind::DirectionSelectsNothing("h".into())
        );
    }
}
