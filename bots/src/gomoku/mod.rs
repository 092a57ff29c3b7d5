//! Gomoku strategies (RULES.md section 2): where a seat puts its next stone.
//!
//! Each strategy works from the seat's own [`View`] alone (the whole position: gomoku hides
//! nothing), so a strategy handed any view, after a reconnect say, acts correctly. Under renju a
//! strategy playing black must never choose a forbidden point; the referee would refuse it.

pub mod random;

use std::time::Duration;

use rand::RngCore;
use skirmish_games::gomoku::{Action, View};

pub use random::RandomStone;

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

/// A gomoku player for one seat of one game.
pub trait GomokuStrategy: Send {
    /// The action to take now: it is this seat's turn in `view`. Usually
    /// [`Action::Place`] on a legal point; an adapter for an outside engine resigns with the
    /// reason when its engine fails (crash, timeout, illegal answer).
    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action;
}

/// Strategy names, strongest first.
pub const STRATEGIES: &[&str] = &["random"];

/// A fresh strategy by name, or `None` for an unknown name.
pub fn strategy(name: &str) -> Option<Box<dyn GomokuStrategy>> {
    match name {
        "random" => Some(Box::new(RandomStone)),
        _ => None,
    }
}
