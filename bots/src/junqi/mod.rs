//! Junqi strategies (RULES.md section 3): how a seat deploys its 25 pieces and which piece it moves.
//!
//! Each strategy works from the seat's own [`View`] alone: its own pieces with their ranks, the
//! enemy's as unknown pieces at their posts, and the public record of every move and its result.
//! So a strategy handed any view, after a reconnect say, acts correctly; one that keeps a belief
//! about the hidden enemy pieces rebuilds it from the view's move record.

pub mod random;

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::junqi::{Action, Layout, View};

pub use random::RandomMove;

pub use crate::Budget;

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
pub const STRATEGIES: &[&str] = &["random"];

/// A fresh strategy by name, or `None` for an unknown name.
pub fn strategy(name: &str) -> Option<Box<dyn JunqiStrategy>> {
    match name {
        "random" => Some(Box::new(RandomMove)),
        _ => None,
    }
}
