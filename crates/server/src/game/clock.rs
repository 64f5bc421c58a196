//! Clocks: live (initial + increment) or correspondence (days per move).
//!
//! Events carry both clocks as of the event; a game's state keeps the last
//! event's values and the instant it applied them, so the time a running
//! clock has used is measured from there. A replay places each stored event
//! in time with a [`Timeline`]: the time the server ran counts, the time it
//! was down does not (`docs/server.md`, "Time").

use std::sync::Arc;
use std::time::{Duration, Instant};

use parity_rules::Color;

use crate::game::event::{Clocks, LiveClock, Side};

const MAX_INITIAL_S: u32 = 3 * 3600;
const MAX_INCREMENT_S: u32 = 180;
const MAX_DAYS: u32 = 14;
/// The reveal grace is this fraction (1/20 = 5%) of the initial time...
const REVEAL_GRACE_DIVISOR: i64 = 20;
/// ... but never less than this (network latency) ...
pub const REVEAL_GRACE_MIN: Duration = Duration::from_secs(2);
/// ... nor more than this.
pub const REVEAL_GRACE_MAX: Duration = Duration::from_secs(30);
/// Games without a clock: how long after both commitments a side that
/// revealed must wait before it may claim the game from one that did not.
pub const UNTIMED_REVEAL_DEADLINE: Duration = Duration::from_secs(10 * 60);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Unlimited,
    Live { initial_ms: i64, increment_ms: i64 },
    Correspondence { per_move_ms: i64 },
}

impl TimeControl {
    /// The time control of a new game as the API states it.
    pub fn new(clock: Option<LiveClock>, days: Option<u32>) -> Result<TimeControl, String> {
        match (clock, days) {
            (None, None) => Ok(TimeControl::Unlimited),
            (Some(_), Some(_)) => Err("give either a clock or days, not both".into()),
            (Some(c), None) => {
                if c.initial > MAX_INITIAL_S || c.increment > MAX_INCREMENT_S {
                    return Err(format!(
                        "a clock has at most {MAX_INITIAL_S} s initial and {MAX_INCREMENT_S} s increment"
                    ));
                }
                if c.initial == 0 && c.increment == 0 {
                    return Err("a clock needs some time: initial or increment".into());
                }
                Ok(TimeControl::Live {
                    initial_ms: i64::from(c.initial) * 1000,
                    increment_ms: i64::from(c.increment) * 1000,
                })
            }
            (None, Some(d)) => {
                if !(1..=MAX_DAYS).contains(&d) {
                    return Err(format!("days per move must be 1 to {MAX_DAYS}"));
                }
                Ok(TimeControl::Correspondence {
                    per_move_ms: i64::from(d) * 86_400_000,
                })
            }
        }
    }

    /// Once both commitments are in, each side's clock runs until it
    /// reveals, but only after this grace: 5% of the initial time (of the
    /// days per move in correspondence), at least 2 s, at most 30 s.
    pub fn reveal_grace(self) -> Duration {
        let ms = self.initial_ms() / REVEAL_GRACE_DIVISOR;
        Duration::from_millis(ms.max(0) as u64).clamp(REVEAL_GRACE_MIN, REVEAL_GRACE_MAX)
    }

    /// The time a side keeps after going berserk (halving its clock for
    /// an arena's extra point): half the initial time, and no increment
    /// from then on. When the initial time is under 40 increments only the
    /// increment goes (a 1+2 becomes 1+0), as on lichess: halved, little
    /// would be left. None where there is nothing to halve: no live
    /// clock, or no initial time (0+1).
    pub fn berserk_ms(self) -> Option<i64> {
        match self {
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } if initial_ms > 0 => Some(match initial_ms < 40 * increment_ms {
                true => initial_ms,
                false => initial_ms / 2,
            }),
            _ => None,
        }
    }

    fn initial_ms(self) -> i64 {
        match self {
            TimeControl::Unlimited => 0,
            TimeControl::Live { initial_ms, .. } => initial_ms,
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
        }
    }
}

/// Both sides' clocks of a game with a time control.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining_ms: [i64; 2],
    running: [bool; 2],
    /// When the running clocks start losing time from `remaining_ms`: the
    /// instant it was set, plus the reveal grace if one was given.
    since: Instant,
    /// The sides that went berserk: they gain no increment.
    berserk: [bool; 2],
}

fn running_list(running: [bool; 2]) -> Vec<Side> {
    Color::ALL
        .into_iter()
        .filter(|c| running[c.index()])
        .map(Side::from)
        .collect()
}

impl Clock {
    /// The clocks before the game starts; none without a time control.
    pub fn new(control: TimeControl, now: Instant) -> Option<Clock> {
        (control != TimeControl::Unlimited).then(|| Clock {
            control,
            remaining_ms: [control.initial_ms(); 2],
            running: [false; 2],
            since: now,
            berserk: [false; 2],
        })
    }

    fn remaining_at(&self, now: Instant) -> [i64; 2] {
        let used = now.saturating_duration_since(self.since).as_millis() as i64;
        [0, 1].map(|i| {
            if self.running[i] {
                self.remaining_ms[i] - used
            } else {
                self.remaining_ms[i]
            }
        })
    }

    fn clocks(remaining: [i64; 2], running: [bool; 2]) -> Clocks {
        Clocks {
            white_ms: remaining[0].max(0),
            black_ms: remaining[1].max(0),
            running: running_list(running),
            grace_ms: 0,
        }
    }

    /// Both clocks now, with `running` the sides whose clock runs from now on.
    pub fn snapshot(&self, now: Instant, running: [bool; 2]) -> Clocks {
        Clock::clocks(self.remaining_at(now), running)
    }

    /// Both clocks as they stand now, with what is left of a reveal grace.
    pub fn current(&self, now: Instant) -> Clocks {
        Clocks {
            grace_ms: self.grace_left(now).as_millis() as i64,
            ..self.snapshot(now, self.running)
        }
    }

    /// What is left at `now` of the reveal grace the last event gave.
    pub fn grace_left(&self, now: Instant) -> Duration {
        self.since.saturating_duration_since(now)
    }

    /// Both clocks after `mover` moved or committed now: it gets its
    /// increment (live) or a full allowance again (correspondence).
    pub fn after_move(&self, now: Instant, mover: Color, running: [bool; 2]) -> Clocks {
        let mut remaining = self.remaining_at(now);
        let i = mover.index();
        match self.control {
            TimeControl::Live { .. } if self.berserk[i] => {}
            TimeControl::Live { increment_ms, .. } => remaining[i] += increment_ms,
            TimeControl::Correspondence { per_move_ms } => remaining[i] = per_move_ms,
            TimeControl::Unlimited => {}
        }
        Clock::clocks(remaining, running)
    }

    /// Both clocks once `color` goes berserk now: its time cut to what
    /// berserk leaves (never raised); none where berserk is not possible.
    pub fn after_berserk(&self, now: Instant, color: Color) -> Option<Clocks> {
        let keeps = self.control.berserk_ms()?;
        let mut remaining = self.remaining_at(now);
        let i = color.index();
        remaining[i] = remaining[i].min(keeps);
        Some(Clock::clocks(remaining, self.running))
    }

    /// Marks `color` as berserk: no increment from now on.
    pub fn go_berserk(&mut self, color: Color) {
        self.berserk[color.index()] = true;
    }

    pub fn is_berserk(&self, color: Color) -> bool {
        self.berserk[color.index()]
    }

    /// Takes the clocks of an event applied at `now`.
    pub fn set(&mut self, clocks: &Clocks, now: Instant) {
        self.remaining_ms = [clocks.white_ms, clocks.black_ms];
        self.running = [Side::White, Side::Black].map(|s| clocks.running.contains(&s));
        self.since = now + Duration::from_millis(clocks.grace_ms.max(0) as u64);
    }

    /// Gives `color` back time it did not have the use of (an engine
    /// waiting for a worker), if its clock runs.
    pub fn credit(&mut self, color: Color, time: Duration) {
        if self.running[color.index()] {
            self.remaining_ms[color.index()] += time.as_millis() as i64;
        }
    }

    /// Stops both clocks where they are (the game is over).
    pub fn stop(&mut self, now: Instant) {
        self.remaining_ms = self.remaining_at(now);
        self.running = [false; 2];
        self.since = now;
    }

    pub fn running(&self) -> [bool; 2] {
        self.running
    }

    /// A running side whose time is up at `now` (the one with less time if both).
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let remaining = self.remaining_at(now);
        Color::ALL
            .into_iter()
            .filter(|c| self.running[c.index()] && remaining[c.index()] <= 0)
            .min_by_key(|c| remaining[c.index()])
    }

    /// When the first running clock reaches zero.
    pub fn deadline(&self) -> Option<Instant> {
        [0, 1]
            .into_iter()
            .filter(|&i| self.running[i])
            .map(|i| self.since + Duration::from_millis(self.remaining_ms[i].max(0) as u64))
            .min()
    }
}

/// A span of wall-clock time when the server was not running: from its
/// last heartbeat to its next start, in milliseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Downtime {
    pub from_ms: i64,
    pub to_ms: i64,
}

/// Places stored events in time for a replay. An event is replayed as if it
/// happened as long before `now` as the server has been running since it:
/// the wall-clock time since the event less the downtimes in between. So a
/// clock that ran when the server crashed has lost the time up to the crash
/// (its last heartbeat) and nothing while the server was down.
#[derive(Clone, Debug)]
pub struct Timeline {
    pub now: Instant,
    /// `now` in milliseconds since the Unix epoch.
    pub now_ms: i64,
    pub downtimes: Arc<[Downtime]>,
}

impl Timeline {
    /// The instant to replay an event stored with wall-clock time `at_ms`.
    pub fn instant(&self, at_ms: i64) -> Instant {
        // Spans may overlap (a cluster's restart and a game's takeover):
        // time is not charged once per span, only once at most.
        let mut spans: Vec<(i64, i64)> = self
            .downtimes
            .iter()
            .map(|d| (d.from_ms.max(at_ms), d.to_ms.min(self.now_ms)))
            .filter(|(from, to)| to > from)
            .collect();
        spans.sort_unstable();
        let (mut down, mut covered_to) = (0, i64::MIN);
        for (from, to) in spans {
            let from = from.max(covered_to);
            if to > from {
                down += to - from;
                covered_to = to;
            }
        }
        let running_ms = (self.now_ms - at_ms - down).max(0) as u64;
        self.now
            .checked_sub(Duration::from_millis(running_ms))
            .unwrap_or(self.now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(initial: u32, increment: u32) -> TimeControl {
        TimeControl::new(Some(LiveClock { initial, increment }), None).unwrap()
    }

    #[test]
    fn berserk_halves_the_time_and_drops_the_increment() {
        assert_eq!(live(180, 2).berserk_ms(), Some(90_000)); // 3+2 → 1:30+0
        assert_eq!(live(60, 0).berserk_ms(), Some(30_000)); // 1+0 → 0:30
        assert_eq!(live(15, 0).berserk_ms(), Some(7_500)); // ¼+0 → 7.5 s
        assert_eq!(live(60, 2).berserk_ms(), Some(60_000)); // 1+2 → 1+0
        assert_eq!(live(80, 2).berserk_ms(), Some(40_000)); // 80 = 40 × 2: halved
        assert_eq!(live(0, 1).berserk_ms(), None); // 0+1: nothing to halve
        assert_eq!(TimeControl::new(None, Some(3)).unwrap().berserk_ms(), None);
        let now = Instant::now();
        let mut clock = Clock::new(live(180, 2), now).unwrap();
        let cut = clock.after_berserk(now, Color::Black).unwrap();
        assert_eq!((cut.white_ms, cut.black_ms), (180_000, 90_000));
        clock.set(&cut, now);
        clock.go_berserk(Color::Black);
        let after = clock.after_move(now, Color::Black, [true, false]);
        assert_eq!(after.black_ms, 90_000, "no increment once berserk");
        assert_eq!(
            clock.after_move(now, Color::White, [false, true]).white_ms,
            182_000
        );
    }

    #[test]
    fn a_running_clock_loses_time_and_gains_its_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(live(60, 2), t0).unwrap();
        clock.set(&clock.snapshot(t0, [true, false]), t0);
        let t1 = t0 + Duration::from_millis(1500);
        let after = clock.after_move(t1, Color::White, [false, true]);
        assert_eq!(after.white_ms, 60_000 - 1500 + 2000);
        assert_eq!(after.black_ms, 60_000);
        assert_eq!(after.running, vec![Side::Black]);
        clock.set(&after, t1);
        assert_eq!(clock.deadline(), Some(t1 + Duration::from_secs(60)));
        assert_eq!(clock.flagged(t1 + Duration::from_secs(59)), None);
        assert_eq!(
            clock.flagged(t1 + Duration::from_secs(60)),
            Some(Color::Black)
        );
    }

    #[test]
    fn both_clocks_run_in_a_simultaneous_turn_and_correspondence_refills() {
        let t0 = Instant::now();
        let days = TimeControl::new(None, Some(2)).unwrap();
        let mut clock = Clock::new(days, t0).unwrap();
        clock.set(&clock.snapshot(t0, [true, true]), t0);
        let t1 = t0 + Duration::from_secs(3600);
        let after = clock.after_move(t1, Color::Black, [true, false]);
        assert_eq!(after.black_ms, 2 * 86_400_000);
        assert_eq!(after.white_ms, 2 * 86_400_000 - 3_600_000);
        clock.set(&after, t1);
        assert_eq!(
            clock.flagged(t1 + Duration::from_secs(2 * 86_400)),
            Some(Color::White)
        );
    }

    #[test]
    fn overlapping_downtimes_are_not_charged_twice() {
        let now = Instant::now();
        let down = |from_ms, to_ms| Downtime { from_ms, to_ms };
        let timeline = Timeline {
            now,
            now_ms: 100_000,
            downtimes: vec![
                down(10_000, 40_000),
                down(30_000, 50_000),
                down(60_000, 70_000),
            ]
            .into(),
        };
        // Since 0: 100 s, of which 10..50 and 60..70 were down: 50 s ran.
        assert_eq!(timeline.instant(0), now - Duration::from_secs(50));
        // Since 35 s: 65 s, of which 35..50 and 60..70 were down.
        assert_eq!(timeline.instant(35_000), now - Duration::from_secs(40));
    }

    #[test]
    fn bad_time_controls_are_refused() {
        assert!(TimeControl::new(None, Some(0)).is_err());
        assert!(TimeControl::new(
            Some(LiveClock {
                initial: 0,
                increment: 0
            }),
            None
        )
        .is_err());
        assert!(TimeControl::new(
            Some(LiveClock {
                initial: 60,
                increment: 0
            }),
            Some(1)
        )
        .is_err());
        assert_eq!(
            TimeControl::new(None, None).unwrap(),
            TimeControl::Unlimited
        );
    }
}
