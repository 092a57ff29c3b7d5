//! The `points` strategy: `bayes`'s shots on each board, with the 3-player match's points in
//! mind (RULES.md section 1, "Scoring": 1 for a plane, 3 for the last one, nothing more for a
//! player knocked out).
//!
//! - **Whom to attack** (two opponents left): each board's value is the points a shot there may
//!   bring now (the probability that `bayes`'s cell is a head, times 3 for a last plane, else 1)
//!   against `bayes`'s rate (points per expected shot to the board's next downed plane); the
//!   larger of the two counts, so a board whose last plane is nearly found is taken before the
//!   next attacker, who sees the same shots, takes its 3 points. Ties go to the leader.
//! - **Deployment** (`double`): of [`DEPLOY_DRAWS`] uniformly random legal deployments, the one
//!   whose cells the seed paper's attacker (`seed-cv`, and any attacker whose prior favours cells
//!   many placements cover) rates least likely: the smallest sum of the fresh board's CV over its
//!   cells, heads counted 5 times. An attacker with a uniform prior loses nothing to this bias but
//!   gains nothing from it either.
//!
//! The named variants `points/deploy` (only the deployment) and `points/target` (only the choice
//! of board) measure each choice alone (`skirmish-bots eval --players 3`).

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::plane::{Cell, Placement, Variant, View, random_deployment};

use super::bayes::{Bayes, BoardState};
use super::belief::{Knowledge, Universe};
use super::seed_cv::cube_values;
use super::{PlaneStrategy, targets};

/// Random deployments drawn to choose the least exposed one from.
pub const DEPLOY_DRAWS: usize = 48;

/// The `points` strategy (module docs), with either of its two choices switchable for measuring.
pub struct Points {
    bayes: Bayes,
    /// Whether deployments hide from the CV prior (else uniformly random, as `bayes`).
    hide: bool,
    /// Whether the board is chosen by points (else by `bayes`'s rate alone).
    target: bool,
}

impl Points {
    /// The strategy with both choices on (`hide`: deployment; `target`: choice of board).
    pub fn new(hide: bool, target: bool) -> Points {
        Points {
            bayes: Bayes::default(),
            hide,
            target,
        }
    }
}

impl Default for Points {
    fn default() -> Points {
        Points::new(true, true)
    }
}

/// The CV exposure of a deployment: the fresh board's CV summed over its cells, heads 5 times.
fn exposure(universe: &Universe, cv: &[u32], planes: &[Placement]) -> u64 {
    let side = universe.variant.side();
    planes
        .iter()
        .filter_map(|p| p.cells(side))
        .map(|cells| {
            let head = u64::from(cv[cells[0].index(side)]) * 4;
            head + cells.iter().map(|c| u64::from(cv[c.index(side)])).sum::<u64>()
        })
        .sum()
}

impl PlaneStrategy for Points {
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement> {
        let variant = view.config.variant;
        if !self.hide || variant == Variant::Classic {
            return random_deployment(variant, rng);
        }
        let universe = Universe::of(variant);
        let (cv, _, _) = cube_values(universe, &Knowledge::default());
        (0..DEPLOY_DRAWS)
            .map(|_| random_deployment(variant, rng))
            .min_by_key(|planes| exposure(universe, &cv, planes))
            .expect("at least one draw")
    }

    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell) {
        self.bayes.start_clock();
        let variant = view.config.variant;
        let mut states: Vec<(Seat, BoardState)> = targets(view)
            .iter()
            .map(|b| (b.seat, BoardState::new(variant, b)))
            .collect();
        if states.len() > 1 && self.target {
            // Contested: every shot's result helps the other attacker as much as us, so take the
            // likeliest points now.
            let mut best: Option<(f64, u32, usize, Vec<usize>)> = None;
            for (i, (seat, state)) in states.iter().enumerate() {
                let (p, cells) = likeliest_heads(state);
                let points = if state.knowledge.planes_left(state.universe) <= 1 { 3.0 } else { 1.0 };
                let value = p * points;
                let total = view.totals[*seat];
                let better = best.as_ref().is_none_or(|(v, t, _, _)| {
                    value > v + 1e-9 || ((value - v).abs() <= 1e-9 && total > *t)
                });
                if better && !cells.is_empty() {
                    best = Some((value, total, i, cells));
                }
            }
            if let Some((_, _, i, cells)) = best {
                let (seat, state) = states.swap_remove(i);
                return (seat, state.universe.cell(super::pick(&cells, rng)));
            }
        }
        let mut best = (f64::NEG_INFINITY, 0u32, 0usize);
        if states.len() > 1 {
            for (i, (seat, state)) in states.iter().enumerate() {
                let value = self.bayes.rate(state);
                let total = view.totals[*seat];
                if value > best.0 + 1e-9 || ((value - best.0).abs() <= 1e-9 && total > best.1) {
                    best = (value, total, i);
                }
            }
        }
        let (seat, state) = states.swap_remove(best.2);
        (seat, self.bayes.cell_on(&state, rng))
    }
}

/// The largest probability that a non-public cell holds a head not yet downed, and the cells that
/// have it.
fn likeliest_heads(state: &BoardState) -> (f64, Vec<usize>) {
    let u = state.universe;
    let mut heads = vec![0u32; u.cells];
    for &i in &state.alive {
        let d = &u.deployments[usize::from(i)];
        let planes: &[u8] = if d.planes[0] == d.planes[1] { &d.planes[..1] } else { &d.planes };
        for p in planes {
            if !state.knowledge.downed.contains(p) {
                heads[usize::from(u.placement_head[usize::from(*p)])] += 1;
            }
        }
    }
    let open = |c: &usize| state.knowledge.public & (1u128 << c) == 0;
    let most = (0..u.cells).filter(open).map(|c| heads[c]).max().unwrap_or(0);
    let cells = (0..u.cells).filter(open).filter(|&c| heads[c] == most).collect();
    (f64::from(most) / state.alive.len().max(1) as f64, cells)
}
