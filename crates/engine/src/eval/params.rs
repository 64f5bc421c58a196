//! The evaluation's parameters: one flat list of middlegame/endgame pairs
//! whose layout follows the variant (its kinds, files and ranks), named so
//! that a tuned file stays readable and survives a change of order.

use std::fmt::Write as _;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

use parity_rules::{Kind, Variant};

/// A middlegame and an endgame value, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair {
    pub mg: i32,
    pub eg: i32,
}

pub const fn pair(mg: i32, eg: i32) -> Pair {
    Pair { mg, eg }
}

impl Add for Pair {
    type Output = Pair;
    #[inline]
    fn add(self, o: Pair) -> Pair {
        pair(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Pair {
    type Output = Pair;
    #[inline]
    fn sub(self, o: Pair) -> Pair {
        pair(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for Pair {
    #[inline]
    fn add_assign(&mut self, o: Pair) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Neg for Pair {
    type Output = Pair;
    #[inline]
    fn neg(self) -> Pair {
        pair(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Pair {
    type Output = Pair;
    #[inline]
    fn mul(self, n: i32) -> Pair {
        pair(self.mg * n, self.eg * n)
    }
}

/// Attack units on the king's zone count up to this many.
pub const MAX_KING_ATTACK: i32 = 40;
/// Pawns of the shield in front of a king are counted up to this many.
pub const SHELTER_BUCKETS: usize = 4;
/// On each of the king's three files, our nearest pawn in front of it by
/// distance 1, 2, 3, 4 or more, or none (the last bucket).
pub const SHELTER_FILE_BUCKETS: usize = 5;
/// On each of the king's three files, the enemy's nearest pawn in front of
/// it by distance 1, 2, 3, 4 or more.
pub const STORM_BUCKETS: usize = 4;

/// Where each group of terms starts in the flat list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub kinds: usize,
    /// Files folded onto the nearer edge: 0 is an edge file.
    pub file_buckets: usize,
    pub ranks: usize,
    letters: Vec<char>,
    pub material: usize,
    pub reach: usize,
    pub file: usize,
    pub rank: usize,
    pub mobility: usize,
    pub mobility_low: usize,
    pub open_line: usize,
    pub half_open_line: usize,
    pub threat_by_pawn: usize,
    pub threat_by_lesser: usize,
    pub hanging: usize,
    pub king_danger: usize,
    pub safe_check: usize,
    pub shelter: usize,
    pub shelter_file: usize,
    pub storm_file: usize,
    pub storm_blocked: usize,
    pub space: usize,
    pub isolated: usize,
    pub doubled: usize,
    pub backward: usize,
    pub phalanx: usize,
    pub supported: usize,
    pub passed: usize,
    pub passed_free: usize,
    pub passed_own_king: usize,
    pub passed_enemy_king: usize,
    pub colour_pair: usize,
    pub crowd_piece: usize,
    pub crowd_king: usize,
    pub crowd_attacked: usize,
    pub tempo: usize,
    pub len: usize,
}

/// One group of terms: its name and how many per kind or in all.
struct Group {
    name: &'static str,
    per_kind: bool,
    count: usize,
}

impl Layout {
    pub fn new(v: &Variant) -> Layout {
        let kinds = v.kinds.len();
        let file_buckets = (v.shape.files as usize).div_ceil(2);
        let ranks = v.shape.ranks as usize;
        let mut l = Layout {
            kinds,
            file_buckets,
            ranks,
            letters: v.kinds.iter().map(|k| k.letter).collect(),
            material: 0,
            reach: 0,
            file: 0,
            rank: 0,
            mobility: 0,
            mobility_low: 0,
            open_line: 0,
            half_open_line: 0,
            threat_by_pawn: 0,
            threat_by_lesser: 0,
            hanging: 0,
            king_danger: 0,
            safe_check: 0,
            shelter: 0,
            shelter_file: 0,
            storm_file: 0,
            storm_blocked: 0,
            space: 0,
            isolated: 0,
            doubled: 0,
            backward: 0,
            phalanx: 0,
            supported: 0,
            passed: 0,
            passed_free: 0,
            passed_own_king: 0,
            passed_enemy_king: 0,
            colour_pair: 0,
            crowd_piece: 0,
            crowd_king: 0,
            crowd_attacked: 0,
            tempo: 0,
            len: 0,
        };
        for (name, range) in l.group_ranges() {
            *l.start_mut(name) = range.start;
            l.len = range.end;
        }
        l
    }

    fn groups(&self) -> Vec<Group> {
        let k = |name, count| Group {
            name,
            per_kind: true,
            count,
        };
        let one = |name, count| Group {
            name,
            per_kind: false,
            count,
        };
        vec![
            k("material", 1),
            k("reach", 1),
            k("file", self.file_buckets),
            k("rank", self.ranks),
            k("mobility", 1),
            k("mobility_low", 1),
            k("open_line", 1),
            k("half_open_line", 1),
            k("threat_by_pawn", 1),
            k("threat_by_lesser", 1),
            k("hanging", 1),
            one("king_danger", 2),
            k("safe_check", 1),
            one("shelter", SHELTER_BUCKETS),
            one("shelter_file", SHELTER_FILE_BUCKETS),
            one("storm_file", STORM_BUCKETS),
            one("storm_blocked", 1),
            one("space", 1),
            one("isolated", 1),
            one("doubled", 1),
            one("backward", 1),
            one("phalanx", 1),
            one("supported", 1),
            one("passed", self.ranks),
            one("passed_free", self.ranks),
            one("passed_own_king", 1),
            one("passed_enemy_king", 1),
            one("colour_pair", 1),
            one("crowd_piece", 1),
            one("crowd_king", 1),
            one("crowd_attacked", 1),
            one("tempo", 1),
        ]
    }

    fn start_mut(&mut self, name: &str) -> &mut usize {
        match name {
            "material" => &mut self.material,
            "reach" => &mut self.reach,
            "file" => &mut self.file,
            "rank" => &mut self.rank,
            "mobility" => &mut self.mobility,
            "mobility_low" => &mut self.mobility_low,
            "open_line" => &mut self.open_line,
            "half_open_line" => &mut self.half_open_line,
            "threat_by_pawn" => &mut self.threat_by_pawn,
            "threat_by_lesser" => &mut self.threat_by_lesser,
            "hanging" => &mut self.hanging,
            "king_danger" => &mut self.king_danger,
            "safe_check" => &mut self.safe_check,
            "shelter" => &mut self.shelter,
            "shelter_file" => &mut self.shelter_file,
            "storm_file" => &mut self.storm_file,
            "storm_blocked" => &mut self.storm_blocked,
            "space" => &mut self.space,
            "isolated" => &mut self.isolated,
            "doubled" => &mut self.doubled,
            "backward" => &mut self.backward,
            "phalanx" => &mut self.phalanx,
            "supported" => &mut self.supported,
            "passed" => &mut self.passed,
            "passed_free" => &mut self.passed_free,
            "passed_own_king" => &mut self.passed_own_king,
            "passed_enemy_king" => &mut self.passed_enemy_king,
            "colour_pair" => &mut self.colour_pair,
            "crowd_piece" => &mut self.crowd_piece,
            "crowd_king" => &mut self.crowd_king,
            "crowd_attacked" => &mut self.crowd_attacked,
            "tempo" => &mut self.tempo,
            _ => unreachable!("a group without a start: {name}"),
        }
    }

    /// The index of a per-kind term with `count` entries per kind.
    #[inline]
    pub fn of_kind(&self, start: usize, count: usize, kind: usize, i: usize) -> usize {
        start + kind * count + i
    }

    /// Each group's name and the indices of its terms, in list order.
    pub fn group_ranges(&self) -> Vec<(&'static str, std::ops::Range<usize>)> {
        let mut at = 0;
        self.groups()
            .into_iter()
            .map(|g| {
                let size = if g.per_kind {
                    self.kinds * g.count
                } else {
                    g.count
                };
                at += size;
                (g.name, at - size..at)
            })
            .collect()
    }

    /// Every term's name, in list order: `group`, `group.i`, `group.L` or
    /// `group.L.i` (L a piece letter).
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.len);
        for g in self.groups() {
            let kinds = if g.per_kind { self.kinds } else { 1 };
            for k in 0..kinds {
                for i in 0..g.count {
                    let mut name = g.name.to_string();
                    if g.per_kind {
                        let _ = write!(name, ".{}", self.letters[k]);
                    }
                    if g.count > 1 {
                        let _ = write!(name, ".{i}");
                    }
                    out.push(name);
                }
            }
        }
        out
    }
}

/// The parameters of one variant's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub layout: Layout,
    pub terms: Vec<Pair>,
}

/// A parameter file that does not fit the variant.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ParamsError {
    #[error("{0}")]
    Syntax(String),
    #[error("unknown term `{0}` for this variant")]
    UnknownTerm(String),
    #[error("term `{0}` must be [middlegame, endgame], two integers")]
    BadValue(String),
}

impl Params {
    /// All terms zero.
    pub fn zero(v: &Variant) -> Params {
        let layout = Layout::new(v);
        Params {
            terms: vec![Pair::default(); layout.len],
            layout,
        }
    }

    /// The terms as a flat list of numbers, middlegame then endgame of each.
    pub fn values(&self) -> Vec<f64> {
        self.terms
            .iter()
            .flat_map(|p| [p.mg as f64, p.eg as f64])
            .collect()
    }

    /// These parameters with the terms of `values` (as [`Self::values`]
    /// lists them), rounded to whole centipawns.
    pub fn with_values(&self, values: &[f64]) -> Params {
        assert_eq!(values.len(), 2 * self.terms.len());
        Params {
            layout: self.layout.clone(),
            terms: values
                .chunks(2)
                .map(|c| pair(c[0].round() as i32, c[1].round() as i32))
                .collect(),
        }
    }

    /// Overrides the terms named in `text` (a TOML table `[terms]` of
    /// `name = [mg, eg]`); the others keep their values.
    pub fn read_toml(&mut self, text: &str) -> Result<(), ParamsError> {
        let doc: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ParamsError::Syntax(e.message().to_string()))?;
        let Some(terms) = doc.get("terms") else {
            return Ok(());
        };
        let terms = terms
            .as_table()
            .ok_or_else(|| ParamsError::Syntax("`terms` must be a table".into()))?;
        let names = self.layout.names();
        for (name, value) in terms {
            let i = names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| ParamsError::UnknownTerm(name.clone()))?;
            let pair_of = |v: &toml::Value| -> Option<Pair> {
                let a = v.as_array()?;
                match a.as_slice() {
                    [m, e] => Some(pair(
                        i32::try_from(m.as_integer()?).ok()?,
                        i32::try_from(e.as_integer()?).ok()?,
                    )),
                    _ => None,
                }
            };
            self.terms[i] = pair_of(value).ok_or_else(|| ParamsError::BadValue(name.clone()))?;
        }
        Ok(())
    }

    /// The terms as TOML for the variant `id`, `header` first as comment lines.
    pub fn to_toml(&self, id: &str, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "variant = \"{id}\"\n");
        out.push_str("[terms]\n");
        for (name, p) in self.layout.names().iter().zip(&self.terms) {
            let _ = writeln!(out, "\"{name}\" = [{}, {}]", p.mg, p.eg);
        }
        out
    }

    #[inline]
    pub fn get(&self, i: usize) -> Pair {
        self.terms[i]
    }

    pub fn kind_term(&self, start: usize, kind: Kind) -> Pair {
        self.terms[start + kind.index()]
    }
}

/// The variant a parameter file names (`variant = "id"`), if it parses.
pub fn variant_of(text: &str) -> Option<String> {
    let doc: toml::Table = text.parse().ok()?;
    doc.get("variant")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn names_are_unique_and_cover_the_layout() {
        for v in Registry::builtin().iter() {
            let l = Layout::new(v);
            let names = l.names();
            assert_eq!(names.len(), l.len, "{}", v.id());
            let unique: std::collections::HashSet<_> = names.iter().collect();
            assert_eq!(unique.len(), names.len(), "{}", v.id());
            assert_eq!(names[l.tempo], "tempo");
            assert_eq!(
                names[l.material + 1],
                format!("material.{}", v.kinds[1].letter)
            );
        }
    }

    #[test]
    fn toml_round_trip() {
        let v = Registry::builtin().get("parity12").unwrap();
        let mut p = Params::zero(v);
        for (i, t) in p.terms.iter_mut().enumerate() {
            *t = pair(i as i32 - 40, 3 - i as i32);
        }
        let text = p.to_toml("parity12", "made by a test\nsecond line");
        assert!(text.starts_with("# made by a test\n# second line\nvariant = \"parity12\"\n"));
        assert_eq!(variant_of(&text).as_deref(), Some("parity12"));
        let mut back = Params::zero(v);
        back.read_toml(&text).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn broken_files_are_refused_with_the_term_named() {
        let v = Registry::builtin().get("chess").unwrap();
        let mut p = Params::zero(v);
        assert_eq!(
            p.read_toml("[terms]\n\"material.Z\" = [1, 2]\n"),
            Err(ParamsError::UnknownTerm("material.Z".into()))
        );
        assert_eq!(
            p.read_toml("[terms]\n\"material.Q\" = [1]\n"),
            Err(ParamsError::BadValue("material.Q".into()))
        );
        assert!(matches!(p.read_toml("[terms"), Err(ParamsError::Syntax(_))));
        p.read_toml("[terms]\n\"material.Q\" = [880, 910]\n")
            .unwrap();
        let q = v.kind_by_letter('Q').unwrap();
        assert_eq!(p.kind_term(p.layout.material, q), pair(880, 910));
    }

    #[test]
    fn values_round_trip() {
        let v = Registry::builtin().get("chess").unwrap();
        let mut p = Params::zero(v);
        p.terms[3] = pair(7, -9);
        let back = p.with_values(&p.values());
        assert_eq!(back, p);
    }
}
