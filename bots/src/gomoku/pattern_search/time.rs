//! Time management: when the search may start another deepening iteration (the soft limit,
//! longer when the position is sharp) and when it must stop at once (the hard limit).

use std::time::{Duration, Instant};

/// Share of the think time after which no new iteration starts in a quiet position.
pub const SOFT_SHARE: f64 = 0.4;
/// The same share when the position is sharp (the best move changed in the last iteration, the
/// score fell by [`UNSTABLE_DROP`] or more, or the opponent threatens).
pub const SHARP_SHARE: f64 = 0.65;
/// Share of the think time at which the search stops wherever it is (the rest covers
/// unwinding and the scheduler on a loaded machine; `tests/budgets.rs` allows 60 ms over).
pub const HARD_SHARE: f64 = 0.85;
/// A fall of the root score between iterations, in centipawns, that makes the position sharp.
pub const UNSTABLE_DROP: i32 = 40;

/// The clock of one decision.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
    think: Option<Duration>,
    /// Whether a new iteration may start until the hard limit ([`Clock::last_chance`]).
    last_chance: bool,
}

impl Clock {
    /// A clock started now for `think` (`None`: no time limit, for node- or depth-limited play).
    pub fn new(think: Option<Duration>) -> Clock {
        Clock {
            start: Instant::now(),
            think,
            last_chance: false,
        }
    }

    /// The same decision's clock with `share` of its think time (the same start): a search
    /// that leaves the rest to checks after it.
    pub fn share(&self, share: f64) -> Clock {
        Clock {
            start: self.start,
            think: self.think.map(|t| t.mul_f64(share)),
            last_chance: self.last_chance,
        }
    }

    /// The same decision's clock for a last search after the first one's move was refuted:
    /// new iterations may start until the hard limit, since what is left of the think time is
    /// all that search will get (with the soft shares, a first search that ran past them left
    /// the second one one or two plies).
    pub fn last_chance(&self) -> Clock {
        Clock {
            last_chance: true,
            ..*self
        }
    }

    /// Time since the decision started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// When the hard limit passes (`None` without a time limit): the threat solvers stop there
    /// too, whatever their node budgets ([`super::search::Searcher::set_deadline`]).
    pub fn deadline(&self) -> Option<Instant> {
        self.think.map(|t| self.start + t.mul_f64(HARD_SHARE))
    }

    /// Whether the hard limit has passed.
    pub fn hard_stop(&self) -> bool {
        self.past(HARD_SHARE)
    }

    /// Whether `share` of the think time has passed (never without a time limit).
    pub fn past(&self, share: f64) -> bool {
        self.think
            .is_some_and(|t| self.start.elapsed() >= t.mul_f64(share))
    }

    /// Whether another iteration may start: less than the soft share used (the sharp share when
    /// `sharp`, the hard share for a [`Clock::last_chance`]).
    pub fn may_deepen(&self, sharp: bool) -> bool {
        let share = if self.last_chance {
            HARD_SHARE
        } else if sharp {
            SHARP_SHARE
        } else {
            SOFT_SHARE
        };
        !self.past(share)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::Clock;

    /// A 10 s clock started `ago` seconds before now.
    fn clock_started(ago: u64) -> Clock {
        Clock {
            start: Instant::now() - Duration::from_secs(ago),
            think: Some(Duration::from_secs(10)),
            last_chance: false,
        }
    }

    #[test]
    fn a_last_chance_may_deepen_past_the_sharp_share_until_the_hard_limit() {
        // 7 s of 10: past the sharp share (65%), short of the hard limit (85%).
        let clock = clock_started(7);
        assert!(!clock.may_deepen(true));
        assert!(clock.last_chance().may_deepen(false));
        assert!(!clock.last_chance().hard_stop());
        // 9 s of 10: past the hard limit, even for a last chance.
        assert!(!clock_started(9).last_chance().may_deepen(true));
        // Early on, any clock may deepen.
        assert!(clock_started(1).may_deepen(false));
    }
}
