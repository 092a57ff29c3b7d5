//! Junqi strategies (docs/rules.md, junqi): how a seat deploys its 25 pieces and which piece it moves.
//!
//! Each strategy works from the seat's own [`View`] alone: its own pieces with their ranks, the
//! enemy's as unknown pieces at their posts, and the public record of every move and its result.
//! So a strategy handed any view, after a reconnect say, acts correctly; one that keeps a belief
//! about the hidden enemy pieces rebuilds it from the view's move record.
//!
//! [`JunqiAudit`] is junqi's part of the bot's check on the referee ([`crate::audit`]): the game's
//! moves replayed from both revealed layouts, and dealt layouts against a tournament's seed.

mod audit;
pub mod belief;
pub mod belief_search;
pub mod bench;
pub mod deploy;
pub mod flag_rush;
pub mod flag_safety;
mod player;
pub mod random;
pub mod seed_rules;

use rand::RngCore;
use skirmish_games::junqi::{Action, Layout, Outcome, View};
use skirmish_games::{Seat, Viewer};

pub use audit::JunqiAudit;
pub use belief_search::BeliefSearch;
pub use flag_rush::FlagRush;
pub use player::player;
pub use random::RandomMove;
pub use seed_rules::SeedRules;

pub use crate::Budget;

/// A junqi player for one seat of one game.
///
/// The client calls [`deploy`](JunqiStrategy::deploy) once while the seat deploys, then
/// [`act`](JunqiStrategy::act) at each of its turns, and [`finish`](JunqiStrategy::finish) once
/// when it learns the game is over.
pub trait JunqiStrategy: Send {
    /// The layout to deploy for the seat looking at `view` (a seat's view while deploying; its
    /// `no_attack_limit` is the room's), in the seat's own frame as [`Layout`] always is. It must
    /// obey the deployment rules ([`Layout::check`]). `budget` is the time it may take (the room's
    /// deployment clock in `move_ms`).
    ///
    /// # Errors
    /// Why this seat cannot deploy (an outside engine that failed to start, or gave a garbled or
    /// illegal layout): the caller resigns the seat with this text as the reason
    /// ([`Action::Resign`]; at most [`MAX_REASON_BYTES`](skirmish_games::junqi::MAX_REASON_BYTES)
    /// bytes).
    fn deploy(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Result<Layout, String>;

    /// The action to take now: it is this seat's turn in `view` (the battle is on). Usually
    /// [`Action::Move`] with a legal move; an adapter for an outside engine resigns with the
    /// reason when its engine fails (crash, timeout, illegal answer).
    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action;

    /// Whether the last [`JunqiStrategy::act`] resigned because an outside engine failed (not
    /// because the game was lost): the bot client then forfeits the seat with the cause
    /// `engine_failure` and the resignation's reason as the detail, so that standings count it
    /// apart from losses on the board. (An `Err` from [`JunqiStrategy::deploy`] is always such a
    /// failure.) `false` by default.
    fn engine_failed(&self) -> bool {
        false
    }

    /// The game `seat` played is over, with `outcome`. Called at most once, when the client learns
    /// the end (the `ended` event); an outside engine's adapter tells its engine (CAAI `END`) and
    /// stops it. The default does nothing.
    fn finish(&mut self, seat: Seat, outcome: &Outcome) {
        let _ = (seat, outcome);
    }

    /// What the strategy thought when it chose the action its last [`JunqiStrategy::act`]
    /// returned, taken (a second call gives `None`): sent with the action as the `act`'s
    /// `info`, kept sealed by the server and shown in the match's replay. `None` by default.
    fn info(&mut self) -> Option<skirmish_protocol::BotInfo> {
        None
    }
}

/// Strategy names, strongest first.
pub const STRATEGIES: &[&str] = &["belief-search", "seed-rules", "random"];

/// Sparring partners: strategies to measure the others against (`junqi-bench --b`, the tests),
/// not offered by the bot client.
pub const SPARRING: &[&str] = &["flag-rush", "belief-search-before-19"];

/// A fresh sparring partner by name ([`SPARRING`]), or `None` for an unknown name.
pub fn sparring(name: &str) -> Option<Box<dyn JunqiStrategy>> {
    match name {
        "flag-rush" => Some(Box::new(FlagRush)),
        "belief-search-before-19" => Some(Box::new(BeliefSearch::new().before_19())),
        _ => None,
    }
}

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
    RandomMove.act(view, Budget::new(0, std::time::Duration::ZERO), rng)
}

/// Which seat loses by the no-attack limit if no collision comes first: the seat that makes the
/// `limit`-th quiet move (docs/rules.md, junqi, "End of the game" 5). `to_move` is to move now,
/// after `quiet` quiet moves, and makes the next one; the loser is `to_move` when `limit - quiet`
/// is odd.
fn limit_loser(to_move: Seat, quiet: u16, limit: u8) -> Seat {
    if (u16::from(limit).saturating_sub(quiet)) % 2 == 1 {
        to_move
    } else {
        Seat(1 - to_move.0)
    }
}
