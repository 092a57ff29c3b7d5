//! Plane battle strategies (docs/rules.md, plane battle): how a seat deploys its planes and where it fires.
//!
//! Four strategies, strongest first ([`STRATEGIES`]): `points` (`bayes`'s search, a 3-player
//! attack that plays the rest of the round out against modelled `seed-cv` attackers, each
//! opponent's deployment habits learned from its revealed boards, deployments that hide from the CV prior), `bayes` (exact Bayesian filtering over every
//! deployment consistent with the public results, and shots chosen to minimise the expected number
//! of shots to clear a board), `seed-cv` (the seed paper's "cube value" heuristic with its two
//! probe shots and its 3-player safe/risky mix) and `random`. Each works from the seat's own
//! [`View`] alone, so a strategy handed any view (after a reconnect, say) acts correctly.
//!
//! [`PlaneAudit`] is plane battle's part of the bot's check on the referee ([`crate::audit`]): each
//! revealed deployment against the round's shots, and dealt boards against a tournament's seed.

pub mod arena;
mod audit;
pub mod bayes;
pub mod belief;
mod deploy;
mod deployset;
pub mod exhaustive;
pub mod habits;
pub mod odds;
pub mod opening;
pub mod optimal;
mod player;
pub mod points;
pub mod random;
pub mod rivals;
pub mod rollout;
mod search;
pub mod seed_cv;
mod weighted;

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::Viewer;
use skirmish_games::plane::{BoardView, Cell, Placement, View};
use skirmish_protocol::BotInfo;

pub use audit::PlaneAudit;
pub use bayes::Bayes;
pub use player::player;
pub use random::RandomStrategy;
pub use seed_cv::SeedCv;

/// A plane battle player for one seat of one match (many rounds).
pub trait PlaneStrategy: Send {
    /// The planes to deploy for the current round (view.phase is Deploy and this seat is not ready).
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement>;
    /// The shot to fire now (view.phase is Attack with this seat as attacker): (target seat, cell). Must be legal.
    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell);

    /// What the strategy thought when it chose the shot [`PlaneStrategy::fire`] just returned
    /// for `view` (the same view), sent with the shot as the `act`'s `info` and kept sealed
    /// for the replay. `None` by default: nothing is sent.
    fn info(&mut self, view: &View) -> Option<BotInfo> {
        let _ = view;
        None
    }
}

/// Strategy names, strongest first: "points", "bayes", "seed-cv", "random".
pub const STRATEGIES: &[&str] = &["points", "bayes", "seed-cv", "random"];

/// A fresh strategy by name, or None for an unknown name.
pub fn strategy(name: &str) -> Option<Box<dyn PlaneStrategy>> {
    match name {
        "points" => Some(Box::new(points::Points::default())),
        "bayes" => Some(Box::new(Bayes::default())),
        "seed-cv" => Some(Box::new(SeedCv::default())),
        "random" => Some(Box::new(RandomStrategy)),
        _ => None,
    }
}

/// The seat a view belongs to.
///
/// # Panics
/// For a spectator's view: strategies only ever see their own seat's view.
fn me(view: &View) -> Seat {
    match view.viewer {
        Viewer::Seat(seat) => seat,
        Viewer::Spectator => panic!("a strategy is handed its own seat's view"),
    }
}

/// The opponents' boards that may be fired at now: playing this round, not knocked out, not mine.
fn targets(view: &View) -> Vec<&BoardView> {
    let me = me(view);
    view.boards
        .iter()
        .filter(|b| b.seat != me && b.playing && !b.knocked_out)
        .collect()
}

/// Draws an index with probability proportional to `weights` (all zero: uniformly).
fn weighted_index(weights: &[f64], rng: &mut dyn RngCore) -> usize {
    use rand::Rng;
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return rng.random_range(0..weights.len());
    }
    let mut x = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights
        .iter()
        .rposition(|w| *w > 0.0)
        .expect("some weight is positive")
}

/// A uniformly random element of a non-empty slice.
fn pick<T: Copy>(items: &[T], rng: &mut dyn RngCore) -> T {
    use rand::Rng;
    items[rng.random_range(0..items.len())]
}
