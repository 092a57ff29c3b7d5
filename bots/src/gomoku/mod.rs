//! Gomoku strategies (docs/rules.md, gomoku): where a seat puts its next stone.
//!
//! Each strategy works from the seat's own [`View`] alone (the whole position: gomoku hides
//! nothing), so a strategy handed any view, after a reconnect say, acts correctly. Under renju a
//! strategy playing black must never choose a forbidden point; the referee would refuse it.

pub mod bench;
pub mod pattern_search;
mod player;
pub mod random;
pub mod seed_minimax;
pub mod threat_search;

use rand::RngCore;
use skirmish_games::gomoku::{Action, View};

pub use pattern_search::PatternSearch;
pub use player::player;
pub use random::RandomStone;
pub use seed_minimax::SeedMinimax;
pub use threat_search::ThreatSearch;

pub use crate::Budget;
use std::time::Duration;

/// A gomoku player for one seat of one game.
pub trait GomokuStrategy: Send {
    /// The action to take now: it is this seat's turn in `view`. Usually
    /// [`Action::Place`] on a legal point; an adapter for an outside engine resigns with the
    /// reason when its engine fails (crash, timeout, illegal answer).
    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action;

    /// Whether the last [`GomokuStrategy::act`] resigned because an outside engine failed (not
    /// because the game was lost): the bot client then forfeits the seat with the cause
    /// `engine_failure` and the resignation's reason as the detail, so that standings count it
    /// apart from losses on the board. `false` by default.
    fn engine_failed(&self) -> bool {
        false
    }

    /// How the last [`GomokuStrategy::act`] searched, for strategies that search (`None` by
    /// default).
    fn stats(&self) -> Option<SearchStats> {
        None
    }

    /// What the strategy thought when it chose the action its last [`GomokuStrategy::act`]
    /// returned, taken (a second call gives `None`): sent with the action as the `act`'s
    /// `info`, kept sealed by the server and shown in the match's replay. `None` by default.
    fn info(&mut self) -> Option<skirmish_protocol::BotInfo> {
        None
    }
}

/// What one decision of a searching strategy cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Positions visited (alpha-beta nodes plus VCF nodes).
    pub nodes: u64,
    /// The deepest fully searched alpha-beta depth, in plies (0 when a five, a block or a VCF
    /// decided the move).
    pub depth: u32,
    /// Wall time of the decision.
    pub elapsed: Duration,
}

/// Strategy names, strongest first (`pattern-search-medium` and `-easy` are `pattern-search`'s
/// levels, offered so that a bot program can play the server's levels: bots/README.md, "Levels").
pub const STRATEGIES: &[&str] = &[
    "pattern-search",
    "threat-search",
    "pattern-search-medium",
    "pattern-search-easy",
    "seed-minimax",
    "random",
];

/// A fresh strategy by name, or `None` for an unknown name: [`STRATEGIES`], and
/// `pattern-search-hard` (the same as `pattern-search`).
pub fn strategy(name: &str) -> Option<Box<dyn GomokuStrategy>> {
    match name {
        "pattern-search" => Some(Box::new(PatternSearch::new())),
        "threat-search" => Some(Box::new(ThreatSearch::new())),
        "seed-minimax" => Some(Box::new(SeedMinimax)),
        "random" => Some(Box::new(RandomStone)),
        _ => name
            .strip_prefix("pattern-search-")
            .and_then(pattern_search::level)
            .map(|level| Box::new(PatternSearch::with_level(level)) as Box<dyn GomokuStrategy>),
    }
}
