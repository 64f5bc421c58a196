//! How long an engine may think: a clock with increment, nodes, depth,
//! or a fixed time per move (any combination the engine understands).

use std::fmt;
use std::time::Duration;

/// A clock per side: `base` at the start, `increment` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `10+0.1` (seconds), `40` (no increment) or `1:30+2` (minutes:seconds).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!("time control `{text}`: expected SECONDS[+INCREMENT] or MIN:SEC[+INCREMENT], e.g. 10+0.1")
        };
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b.trim(), Some(i.trim())),
            None => (text.trim(), None),
        };
        let seconds = |s: &str| -> Result<f64, String> {
            let v: f64 = s.parse().map_err(|_| bad())?;
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        let base = match base.split_once(':') {
            Some((m, s)) => seconds(m)? * 60.0 + seconds(s)?,
            None => seconds(base)?,
        };
        let increment = inc.map(seconds).transpose()?.unwrap_or(0.0);
        if base <= 0.0 {
            return Err(bad());
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(increment),
        })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN form: `10+0.1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |d: Duration| {
            let s = format!("{:.3}", d.as_secs_f64());
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        if self.increment.is_zero() {
            write!(f, "{}", secs(self.base))
        } else {
            write!(f, "{}+{}", secs(self.base), secs(self.increment))
        }
    }
}

/// The limits of one engine's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub tc: Option<TimeControl>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
}

impl Limits {
    /// These limits with unset fields taken from `defaults`.
    pub fn or(self, defaults: Limits) -> Limits {
        Limits {
            tc: self.tc.or(defaults.tc),
            nodes: self.nodes.or(defaults.nodes),
            depth: self.depth.or(defaults.depth),
            movetime: self.movetime.or(defaults.movetime),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(m) = self.movetime {
            parts.push(format!("{} ms/move", m.as_millis()));
        }
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.base, tc.increment),
            (Duration::from_secs(10), Duration::from_millis(100))
        );
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(
            TimeControl::parse("1:30+2").unwrap().base,
            Duration::from_secs(90)
        );
        assert_eq!(TimeControl::parse("60").unwrap().to_string(), "60");
        for bad in ["", "+1", "ten", "0", "10+x", "-5"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_limits_override_the_match() {
        let m = Limits {
            nodes: Some(100),
            depth: Some(3),
            ..Limits::default()
        };
        let e = Limits {
            nodes: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            e.or(m),
            Limits {
                nodes: Some(5),
                depth: Some(3),
                ..Limits::default()
            }
        );
        assert_eq!(e.or(m).to_string(), "5 nodes, depth 3");
    }
}
