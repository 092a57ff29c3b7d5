//! `bayes`'s search under a non-uniform prior over an opponent's deployments (the learned habits
//! of [`super::habits`]): the same expectimax as `bayes` with every outcome's probability the
//! weight of its consistent deployments instead of their number (issue 19).
//!
//! What takes the weights and what does not, to stay within the decision's budget:
//! - **Two planes standing**: the one-step values and the [`LOOKAHEAD_DEPTH`]-deep search of
//!   `bayes`, with outcome probabilities by weight; a `down` outcome's remaining plane is valued
//!   by the exact one-plane solver as if uniform over its partners ([`Solver`] assumes a uniform
//!   set) less 0.6 shots for every bit the weights take off (`bayes`'s fits' slope), and `miss`/`hit` outcomes by `bayes`'s fit at the outcome's effective number of
//!   deployments (`W^2 / sum w^2`, which is the count when the weights are equal). The opening
//!   book, chosen for the uniform prior, is not used.
//! - **One plane standing**: one step over every informative cell, the `hit` and `miss`
//!   outcomes' probabilities by weight and their values from the exact uniform solver, corrected
//!   the same way.
//!
//! With every weight equal both give `bayes`'s own values (but for the book), so a weight close
//! to 1 costs close to nothing.

use std::time::Instant;

use super::bayes::{DEEP_WIDTH, LOOKAHEAD_DEPTH, LOOKAHEAD_WIDTH, two_plane_estimate};
use super::belief::{Knowledge, PlacementSet, Universe};
use super::optimal::Solver;

/// Every informative cell of the board with its expected shots to clear (this shot included) under
/// prior `weights` (per deployment of the universe), best first; `alive` are the consistent
/// deployments. Stops searching deeper at `deadline` (one step then).
pub(crate) fn ranked(
    solver: &mut Solver,
    deadline: Option<Instant>,
    knowledge: &Knowledge,
    alive: &[u16],
    weights: &[f64],
) -> Vec<(usize, f64)> {
    let u = solver.universe();
    if alive.is_empty() {
        return Vec::new();
    }
    if knowledge.planes_left(u) <= 1 {
        return one_plane(solver, knowledge, alive, weights);
    }
    let mut search = Search {
        solver,
        deadline,
        weights,
    };
    let public = knowledge.public;
    let ranked = match search.search(alive, public, LOOKAHEAD_DEPTH, LOOKAHEAD_WIDTH) {
        Some(r) => r,
        None => search.one_step(alive, public),
    };
    ranked.into_iter().map(|(c, v, _)| (c, v)).collect()
}

/// One plane left: the standing plane's placements weighted by the deployments holding them,
/// one step over each informative cell with exact uniform children.
fn one_plane(
    solver: &mut Solver,
    knowledge: &Knowledge,
    alive: &[u16],
    weights: &[f64],
) -> Vec<(usize, f64)> {
    let u = solver.universe();
    let mut weight = vec![0.0; u.placements.len()];
    let mut set: PlacementSet = 0;
    for &i in alive {
        let d = &u.deployments[usize::from(i)];
        for p in d.planes {
            if !knowledge.downed.contains(&p) {
                weight[usize::from(p)] += weights[usize::from(i)];
                set |= 1u128 << p;
                break;
            }
        }
    }
    if set.count_ones() == 1 {
        return vec![solver.best(set)];
    }
    let total: f64 = weight.iter().sum();
    // (sum of weights, sum of squares) over a set of placements.
    let sum = |s: PlacementSet| {
        let mut s = s;
        let (mut w, mut w2) = (0.0, 0.0);
        while s != 0 {
            let x = weight[s.trailing_zeros() as usize];
            w += x;
            w2 += x * x;
            s &= s - 1;
        }
        (w, w2)
    };
    let mut support = solver.support(set);
    let mut out = Vec::new();
    while support != 0 {
        let c = support.trailing_zeros() as usize;
        support &= support - 1;
        let (hit, miss) = solver.split(set, c);
        if hit == set || miss == set {
            continue;
        }
        let ((w_hit, w2_hit), (w_miss, w2_miss)) = (sum(hit), sum(miss));
        let v = 1.0
            + (w_hit * skewed(solver.child(hit), hit.count_ones(), w_hit, w2_hit)
                + w_miss * skewed(solver.child(miss), miss.count_ones(), w_miss, w2_miss))
                / total.max(f64::MIN_POSITIVE);
        out.push((c, v));
    }
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

/// Shots per bit of information in `bayes`'s fits (`two_plane_estimate`'s and
/// `optimal::one_plane_estimate`'s slope: `0.6 log2 n`).
const SHOTS_PER_BIT: f64 = 0.6;

/// The exact uniform value `value` of a set of `count` placements (or deployments) corrected for
/// its weights (total `w`, sum of squares `w2`): less [`SHOTS_PER_BIT`] for every bit the weights
/// take off `log2 count` (`log2 (count / n_eff)`, `n_eff = w^2 / w2`), never below 1. Equal
/// weights: `value` unchanged.
fn skewed(value: f64, count: u32, w: f64, w2: f64) -> f64 {
    if count <= 1 || w <= 0.0 || w2 <= 0.0 {
        return value;
    }
    let n_eff = (w * w / w2).clamp(1.0, f64::from(count));
    (value - SHOTS_PER_BIT * (f64::from(count) / n_eff).log2()).max(1.0)
}

/// The weighted two-plane search's state.
struct Search<'a> {
    solver: &'a mut Solver,
    deadline: Option<Instant>,
    weights: &'a [f64],
}

impl Search<'_> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `bayes`'s search (`Bayes::search`) with weights: the `width` best cells, each (cell,
    /// expected shots, the `miss`/`hit` part of it times the total weight), best first; None once
    /// out of time.
    fn search(
        &mut self,
        alive: &[u16],
        public: u128,
        depth: usize,
        width: usize,
    ) -> Option<Vec<(usize, f64, f64)>> {
        let u = self.solver.universe();
        let mut ranked = self.one_step(alive, public);
        if depth <= 1 || alive.len() <= 1 {
            return Some(ranked);
        }
        let total: f64 = alive.iter().map(|&i| self.weights[usize::from(i)]).sum();
        for entry in ranked.iter_mut().take(width) {
            if self.out_of_time() {
                return None;
            }
            let bit = 1u128 << entry.0;
            let public = public | bit;
            let (mut miss, mut hit) = (Vec::new(), Vec::new());
            let (mut w_miss, mut w_hit) = (0.0, 0.0);
            for &i in alive {
                let d = &u.deployments[usize::from(i)];
                let w = self.weights[usize::from(i)];
                if d.occupied & bit == 0 {
                    miss.push(i);
                    w_miss += w;
                } else if d.heads & bit == 0 {
                    hit.push(i);
                    w_hit += w;
                }
            }
            let down_part = (entry.1 - 1.0) * total - entry.2;
            let mut deeper = 0.0;
            for (set, w) in [(&miss, w_miss), (&hit, w_hit)] {
                if !set.is_empty() {
                    let best = self
                        .search(set, public, depth - 1, DEEP_WIDTH)?
                        .first()
                        .map_or(0.0, |x| x.1);
                    deeper += w * best;
                }
            }
            entry.2 = deeper;
            entry.1 = 1.0 + (down_part + deeper) / total;
        }
        let width = width.min(ranked.len());
        ranked[..width].sort_by(|a, b| a.1.total_cmp(&b.1));
        ranked.truncate(width.max(1));
        Some(ranked)
    }

    /// `Bayes::ranked_two` with weights: one step over every cell.
    fn one_step(&mut self, alive: &[u16], public: u128) -> Vec<(usize, f64, f64)> {
        let u: &Universe = self.solver.universe();
        let mut cover = vec![(0u32, 0.0f64, 0.0f64); u.cells];
        let mut partners: Vec<PlacementSet> = vec![0; u.placements.len()];
        let mut held = vec![(0.0f64, 0.0f64); u.placements.len()];
        let mut total = (0.0, 0.0);
        for &i in alive {
            let d = &u.deployments[usize::from(i)];
            let w = self.weights[usize::from(i)];
            total.0 += w;
            total.1 += w * w;
            let mut cells = d.occupied;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                cover[c].0 += 1;
                cover[c].1 += w;
                cover[c].2 += w * w;
            }
            let [a, b] = d.planes;
            partners[usize::from(a)] |= 1u128 << b;
            partners[usize::from(b)] |= 1u128 << a;
            for p in [a, b] {
                held[usize::from(p)].0 += w;
                held[usize::from(p)].1 += w * w;
            }
        }
        let n = alive.len();
        // The weight of an outcome times the fit at its effective number of deployments.
        let estimate = |count: usize, w: f64, w2: f64| {
            if count == 0 || w <= 0.0 || w2 <= 0.0 {
                0.0
            } else {
                w * two_plane_estimate(((w * w / w2).round() as usize).clamp(1, count))
            }
        };
        let mut out = Vec::new();
        for (c, &(covered, w_cover, w2_cover)) in cover.iter().enumerate() {
            if public & (1u128 << c) != 0 || covered == 0 {
                continue;
            }
            let (mut heads, mut w_heads, mut w2_heads, mut down_total) = (0usize, 0.0, 0.0, 0.0);
            let mut at = u.headed[c];
            while at != 0 {
                let p = at.trailing_zeros() as usize;
                at &= at - 1;
                let set = partners[p];
                let k = set.count_ones() as usize;
                if k > 0 {
                    heads += k;
                    w_heads += held[p].0;
                    w2_heads += held[p].1;
                    let value = skewed(self.solver.child(set), set.count_ones(), held[p].0, held[p].1);
                    down_total += held[p].0 * value;
                }
            }
            let hits = covered as usize - heads;
            if hits == n {
                continue;
            }
            let misses = n - covered as usize;
            let fitted = estimate(hits, w_cover - w_heads, w2_cover - w2_heads)
                + estimate(misses, total.0 - w_cover, total.1 - w2_cover);
            out.push((c, 1.0 + (down_total + fitted) / total.0, fitted));
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }
}

#[cfg(test)]
mod tests {
    use skirmish_games::plane::{ShotResult, Variant};

    use super::*;
    use crate::plane::bayes::{Bayes, DOUBLE_EXACT_CAP};
    use crate::plane::deploy::close_together;

    /// A 9x9 position with two planes standing: three misses and a hit (30 consistent pairs).
    fn position() -> (Knowledge, Vec<u16>) {
        let u = Universe::of(Variant::Double);
        let d = u.deployments[777];
        let mut know = Knowledge::default();
        let mut misses = 0;
        for c in [40usize, 30, 50, 20, 60, 4, 76, 36, 44] {
            if d.occupied & (1u128 << c) == 0 && misses < 3 {
                know.record(u, c, ShotResult::Miss, None);
                misses += 1;
            }
        }
        let hit = (d.occupied & !d.heads).trailing_zeros() as usize;
        know.record(u, hit, ShotResult::Hit, None);
        let alive = know.consistent(u);
        (know, alive)
    }

    /// With every weight 1 the weighted search gives `bayes`'s own ranking (the book aside), with
    /// two planes standing and with one.
    #[test]
    fn equal_weights_give_bayes_values() {
        let u = Universe::of(Variant::Double);
        let ones = vec![1.0; u.deployments.len()];
        let (mut know, alive) = position();
        assert!(alive.len() > 20, "{}", alive.len());
        let mut solver = Solver::new(u, DOUBLE_EXACT_CAP);
        let weighted = ranked(&mut solver, None, &know, &alive, &ones);
        let plain = Bayes::with_budget(None).ranking(u, &know, &alive);
        assert_eq!(weighted.len(), plain.len());
        for (a, b) in weighted.iter().zip(&plain) {
            assert!((a.1 - b.1).abs() < 1e-9, "{a:?} vs {b:?}");
        }
        // One plane down: the one-plane solver's ranking.
        let d = u.deployments[usize::from(alive[0])];
        let p = d.planes[0];
        know.record(
            u,
            usize::from(u.placement_head[usize::from(p)]),
            ShotResult::Down,
            Some(p),
        );
        let alive = know.consistent(u);
        let weighted = ranked(&mut solver, None, &know, &alive, &ones);
        let plain = Bayes::with_budget(None).ranking(u, &know, &alive);
        assert!(
            (weighted[0].1 - plain[0].1).abs() < 1e-9,
            "{weighted:?} vs {plain:?}"
        );
    }

    /// A prior that favours close pairs (as learned from the seed paper's deployments) changes the
    /// ranking and makes the board cheaper to clear than the uniform prior says.
    #[test]
    fn a_skewed_prior_changes_the_ranking_and_lowers_the_expected_shots() {
        let u = Universe::of(Variant::Double);
        let weights: Vec<f64> = u
            .deployments
            .iter()
            .map(|d| {
                let (a, b) = (
                    u.placements[usize::from(d.planes[0])],
                    u.placements[usize::from(d.planes[1])],
                );
                if close_together(a, b, 9) { 2.0 } else { 0.3 }
            })
            .collect();
        let ones = vec![1.0; u.deployments.len()];
        let (know, alive) = position();
        let mut solver = Solver::new(u, DOUBLE_EXACT_CAP);
        let skewed = ranked(&mut solver, None, &know, &alive, &weights);
        let plain = ranked(&mut solver, None, &know, &alive, &ones);
        assert!(
            skewed[0].1 < plain[0].1 - 0.05,
            "{:?} vs {:?}",
            skewed[0],
            plain[0]
        );
        assert_ne!(
            skewed.iter().take(3).map(|x| x.0).collect::<Vec<_>>(),
            plain.iter().take(3).map(|x| x.0).collect::<Vec<_>>()
        );
    }
}
