//! A tournament's settings: the system, and what its creator chose, read
//! from lichess's creation fields (a form or JSON).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::base::refusal::{Refusal, Said};

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// Play as many games as the time allows, paired again on finishing.
    Arena,
    /// A fixed number of rounds, paired by the FIDE Dutch system.
    Swiss,
    /// Everyone plays everyone, by Berger tables.
    RoundRobin,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Arena => "arena",
            System::Swiss => "swiss",
            System::RoundRobin => "robin",
        }
    }

    pub fn from_name(name: &str) -> Option<System> {
        match name {
            "arena" => Some(System::Arena),
            "swiss" => Some(System::Swiss),
            "robin" => Some(System::RoundRobin),
            _ => None,
        }
    }
}

/// What the creator chose beyond the variant and the clock, kept as JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// An arena's length.
    pub minutes: u32,
    pub berserkable: bool,
    pub streakable: bool,
    /// A Swiss event's rounds (a round robin's: set when it starts).
    pub nb_rounds: u32,
    /// Seconds from the end of a round to the next pairing.
    pub round_interval: u32,
    /// What a Swiss event's pairing-allocated bye scores, in half-points
    /// (lichess: a point; none: the default, 2).
    pub bye_half_points: Option<u32>,
    pub description: String,
    /// Bot accounts may join (lichess: only where the creator allows).
    pub bots: bool,
    /// The starting position, a FEN of the variant.
    pub position: Option<String>,
}

/// The most players a round robin takes (Berger tables up to 16).
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 16;

/// A tournament as its creator asked for it, checked.
#[derive(Clone, Debug)]
pub struct Request {
    pub system: System,
    pub name: String,
    pub variant: String,
    pub clock_limit: u32,
    pub clock_increment: u32,
    pub rated: bool,
    pub starts_ms: i64,
    pub team_id: Option<String>,
    pub settings: Settings,
}

fn bad(field: &str, value: &str) -> Refusal {
    Refusal::Malformed(
        Said::new("server-refusal-tournament-bad-field")
            .with("field", field)
            .with("value", value),
    )
}

fn number<T: std::str::FromStr>(
    fields: &HashMap<String, String>,
    name: &str,
) -> Result<Option<T>, Refusal> {
    fields
        .get(name)
        .map(|v| v.parse::<T>().map_err(|_| bad(name, v)))
        .transpose()
}

fn flag(fields: &HashMap<String, String>, name: &str, default: bool) -> Result<bool, Refusal> {
    match fields.get(name).map(String::as_str) {
        None => Ok(default),
        Some("true" | "1" | "on") => Ok(true),
        Some("false" | "0" | "off") => Ok(false),
        Some(other) => Err(bad(name, other)),
    }
}

/// Lichess's variant keys, and ours.
pub fn variant_id(key: &str) -> &str {
    match key {
        "standard" | "" => "chess",
        other => other,
    }
}

impl Request {
    /// An arena from `POST /api/tournament`'s fields: `clockTime` in
    /// minutes (0.5 is 30 s), `clockIncrement` in seconds, `minutes` of
    /// play, `startDate` (ms) or `waitMinutes` from `now_ms`.
    pub fn arena(fields: &HashMap<String, String>, now_ms: i64) -> Result<Request, Refusal> {
        let clock_minutes: f64 =
            number(fields, "clockTime")?.ok_or_else(|| bad("clockTime", ""))?;
        if !(0.0..=60.0).contains(&clock_minutes) {
            return Err(bad("clockTime", &clock_minutes.to_string()));
        }
        let minutes: u32 = number(fields, "minutes")?.ok_or_else(|| bad("minutes", ""))?;
        if !(1..=720).contains(&minutes) {
            return Err(bad("minutes", &minutes.to_string()));
        }
        let wait: i64 = number(fields, "waitMinutes")?.unwrap_or(5);
        let starts_ms = match number::<i64>(fields, "startDate")? {
            Some(at) => at,
            None => now_ms + wait.clamp(0, 7 * 24 * 60) * 60_000,
        };
        let settings = Settings {
            minutes,
            berserkable: flag(fields, "berserkable", true)?,
            streakable: flag(fields, "streakable", true)?,
            description: fields.get("description").cloned().unwrap_or_default(),
            bots: flag(fields, "conditions.bots", false)?,
            position: fields.get("position").filter(|p| !p.is_empty()).cloned(),
            ..Settings::default()
        };
        Request::common(
            System::Arena,
            fields,
            (clock_minutes * 60.0).round() as u32,
            number(fields, "clockIncrement")?.unwrap_or(0),
            starts_ms,
            fields.get("conditions.teamMember.teamId").cloned(),
            settings,
        )
    }

    /// A Swiss event (or with `system=robin` a round robin) of team
    /// `team`, from `POST /api/swiss/new/{team}`'s fields: `clock.limit`
    /// and `clock.increment` in seconds, `nbRounds`, `startsAt` (ms,
    /// default ten minutes from now), `roundInterval` in seconds.
    pub fn swiss(
        fields: &HashMap<String, String>,
        team: &str,
        now_ms: i64,
    ) -> Result<Request, Refusal> {
        let system = match fields.get("system").map(String::as_str) {
            None | Some("swiss") => System::Swiss,
            Some("robin") => System::RoundRobin,
            Some(other) => return Err(bad("system", other)),
        };
        let limit: u32 = number(fields, "clock.limit")?.ok_or_else(|| bad("clock.limit", ""))?;
        let nb_rounds: u32 = match system {
            System::Swiss => number(fields, "nbRounds")?.ok_or_else(|| bad("nbRounds", ""))?,
            _ => 0,
        };
        if system == System::Swiss && !(3..=100).contains(&nb_rounds) {
            return Err(bad("nbRounds", &nb_rounds.to_string()));
        }
        let starts_ms = number::<i64>(fields, "startsAt")?.unwrap_or(now_ms + 10 * 60_000);
        let round_interval: u32 = number(fields, "roundInterval")?.unwrap_or(10);
        // `byePoints`: 1, 0.5 or 0, as the event says.
        let bye_half_points = match fields.get("byePoints").map(String::as_str) {
            None | Some("1") => None,
            Some("0.5") => Some(1),
            Some("0") => Some(0),
            Some(other) => return Err(bad("byePoints", other)),
        };
        if round_interval > 7 * 24 * 3600 {
            return Err(bad("roundInterval", &round_interval.to_string()));
        }
        let settings = Settings {
            nb_rounds,
            round_interval,
            bye_half_points,
            description: fields.get("description").cloned().unwrap_or_default(),
            bots: flag(fields, "conditions.bots", false)?,
            position: fields.get("position").filter(|p| !p.is_empty()).cloned(),
            ..Settings::default()
        };
        Request::common(
            system,
            fields,
            limit,
            number(fields, "clock.increment")?.unwrap_or(0),
            starts_ms,
            Some(team.to_string()),
            settings,
        )
    }

    fn common(
        system: System,
        fields: &HashMap<String, String>,
        clock_limit: u32,
        clock_increment: u32,
        starts_ms: i64,
        team_id: Option<String>,
        settings: Settings,
    ) -> Result<Request, Refusal> {
        if clock_limit > 3 * 3600 {
            return Err(bad("clock", &clock_limit.to_string()));
        }
        if clock_increment > 180 || clock_limit + clock_increment == 0 {
            return Err(bad("clockIncrement", &clock_increment.to_string()));
        }
        let variant = variant_id(fields.get("variant").map_or("", String::as_str)).to_string();
        let name = fields.get("name").map_or("", |n| n.trim());
        if name.chars().count() > 30 || settings.description.chars().count() > 2000 {
            return Err(bad("name", name));
        }
        Ok(Request {
            system,
            name: name.to_string(),
            variant,
            clock_limit,
            clock_increment,
            rated: flag(fields, "rated", true)?,
            starts_ms,
            team_id: team_id.filter(|t| !t.is_empty()),
            settings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn an_arena_reads_lichess_fields() {
        let request = Request::arena(
            &fields(&[
                ("clockTime", "0.5"),
                ("clockIncrement", "1"),
                ("minutes", "20"),
                ("variant", "standard"),
                ("berserkable", "false"),
            ]),
            1_000,
        )
        .unwrap();
        assert_eq!((request.clock_limit, request.clock_increment), (30, 1));
        assert_eq!(request.variant, "chess");
        assert_eq!(request.starts_ms, 1_000 + 5 * 60_000);
        assert!(!request.settings.berserkable && request.settings.streakable);
        assert!(request.rated);
        let bad = Request::arena(&fields(&[("clockTime", "x"), ("minutes", "20")]), 0);
        assert!(bad.unwrap_err().to_string().contains("clockTime"));
        let no_length = Request::arena(&fields(&[("clockTime", "1")]), 0);
        assert!(no_length.unwrap_err().to_string().contains("minutes"));
    }

    #[test]
    fn a_swiss_event_reads_lichess_fields() {
        let request = Request::swiss(
            &fields(&[
                ("clock.limit", "60"),
                ("clock.increment", "0"),
                ("nbRounds", "5"),
                ("variant", "parity"),
                ("rated", "false"),
            ]),
            "club",
            0,
        )
        .unwrap();
        assert_eq!(request.system, System::Swiss);
        assert_eq!(request.settings.nb_rounds, 5);
        assert_eq!(
            request.settings.bye_half_points, None,
            "a point, as on lichess"
        );
        let half = [
            ("clock.limit", "60"),
            ("nbRounds", "5"),
            ("byePoints", "0.5"),
        ];
        let half = Request::swiss(&fields(&half), "club", 0).unwrap();
        assert_eq!(half.settings.bye_half_points, Some(1));
        let odd = [("clock.limit", "60"), ("nbRounds", "5"), ("byePoints", "2")];
        assert!(Request::swiss(&fields(&odd), "club", 0).is_err());
        assert_eq!(request.team_id.as_deref(), Some("club"));
        assert!(!request.rated);
        let robin = Request::swiss(
            &fields(&[("clock.limit", "60"), ("system", "robin")]),
            "c",
            0,
        );
        assert_eq!(robin.unwrap().system, System::RoundRobin);
        let too_few = Request::swiss(&fields(&[("clock.limit", "60"), ("nbRounds", "1")]), "c", 0);
        assert!(too_few.is_err());
    }
}
