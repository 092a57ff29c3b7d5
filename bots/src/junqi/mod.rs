//! Junqi strategies (RULES.md section 3): how a seat deploys its 25 pieces and which piece it moves.
//!
//! Each strategy works from the seat's own [`View`] alone: its own pieces with their ranks, the
//! enemy's as unknown pieces at their posts, and the public record of every move and its result.
//! So a strategy handed any view, after a reconnect say, acts correctly; one that keeps a belief
//! about the hidden enemy pieces rebuilds it from the view's move record.

pub mod belief;
pub mod belief_search;
pub mod bench;
pub mod deploy;
pub mod random;
pub mod seed_rules;

use std::time::Duration;

use rand::RngCore;
use skirmish_games::junqi::{Action, Layout, View};
use skirmish_games::{Seat, Viewer};

pub use belief_search::BeliefSearch;
pub use random::RandomMove;
pub use seed_rules::SeedRules;

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

/// A junqi player for one seat of one game.
pub trait JunqiStrategy: Send {
    /// The layout to deploy for `seat` (in the seat's own frame, as [`Layout`] always is). It must
    /// obey the deployment rules ([`Layout::check`]).
    fn deploy(&mut self, seat: Seat, rng: &mut dyn RngCore) -> Layout;

    /// The action to take now: it is this seat's turn in `view` (the battle is on). Usually
    /// [`Action::Move`] with a legal move; an adapter for an outside engine resigns with the
    /// reason when its engine fails (crash, timeout, illegal answer).
    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action;
}

/// Strategy names, strongest first.
pub const STRATEGIES: &[&str] = &["belief-search", "seed-rules", "random"];

/// A fresh strategy by name, or `None` for an unknown name.
pub fn strategy(name: &str) -> Option<Box<dyn JunqiStrategy>> {
    match name {
        "belief-search" => Some(Box::new(BeliefSearch::new())),
        "seed-rules" => Some(Box::new(SeedRules)),
        "random" => Some(Box::new(RandomMove)),
        _ => None,
    }
}

/// The seat a view belongs to, `None` for a spectator's.
fn seat_of(view: &View) -> Option<Seat> {
    match view.viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    }
}

/// Resigning with `reason`.
fn resign(reason: &str) -> Action {
    Action::Resign {
        reason: Some(reason.to_owned()),
    }
}

/// A uniformly random legal move: the fallback of a strategy whose view it cannot read.
fn random_action(view: &View, rng: &mut dyn RngCore) -> Action {
    RandomMove.act(view, Budget::new(0, Duration::ZERO), rng)
}

/// Which seat loses by the no-attack limit if no collision comes first: the seat to move when
/// the count of quiet moves reaches `limit` (RULES.md section 3, "End of the game" 5). `to_move`
/// is to move now, after `quiet` quiet moves; the loser is `to_move` when `limit - quiet` is even.
fn limit_loser(to_move: Seat, quiet: u16, limit: u8) -> Seat {
    if (u16::from(limit).saturating_sub(quiet)) % 2 == 0 {
        to_move
    } else {
        Seat(1 - to_move.0)
    }
}
