//! Skirmish's bots: AI strategies as a library (so they can be evaluated offline, in-process) and
//! the bot client program, a thin network shell that plays them in seats the server hands it.

pub mod account;
pub mod audit;
pub mod caai;
pub mod client;
mod engine_process;
pub mod eval;
pub mod gomoku;
pub mod junqi;
pub mod piskvork;
pub mod plane;
pub mod player;
pub mod tic_tac_toe;
pub mod tls;
pub mod tournament;

use std::time::Duration;

/// The time a strategy may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The room's move clock, in milliseconds (0: no limit).
    pub move_ms: u64,
    /// The strategy's own limit for thinking, which it should finish well within.
    pub think: Duration,
}

impl Budget {
    /// A budget of `think` under a room clock of `move_ms` milliseconds.
    pub fn new(move_ms: u64, think: Duration) -> Budget {
        Budget { move_ms, think }
    }
}

/// Whether `name` is a built-in strategy of any game.
pub fn is_strategy(name: &str) -> bool {
    plane::strategy(name).is_some()
        || gomoku::strategy(name).is_some()
        || junqi::strategy(name).is_some()
        || tic_tac_toe::strategy(name).is_some()
}
