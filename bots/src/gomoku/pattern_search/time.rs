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
}

impl Clock {
    /// A clock started now for `think` (`None`: no time limit, for node- or depth-limited play).
    pub fn new(think: Option<Duration>) -> Clock {
        Clock {
            start: Instant::now(),
            think,
        }
    }

    /// The same decision's clock with `share` of its think time (the same start): a search
    /// that leaves the rest to checks after it.
    pub fn share(&self, share: f64) -> Clock {
        Clock {
            start: self.start,
            think: self.think.map(|t| t.mul_f64(share)),
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
    /// `sharp`).
    pub fn may_deepen(&self, sharp: bool) -> bool {
        !self.past(if sharp { SHARP_SHARE } else { SOFT_SHARE })
    }
}
