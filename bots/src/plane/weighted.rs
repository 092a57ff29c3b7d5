//! The learned-weights prior of the search ([`super::search`]): an opponent's deployments
//! weighted by its learned habits ([`super::habits`]), every outcome's probability the weight of
//! its consistent deployments instead of their number (issue 19). `points` fires by it.
//!
//! How the estimates read the weights, to stay within the decision's budget:
//! - **Two planes standing**: the search's one-step values and its look-ahead
//!   ([`LOOKAHEAD_DEPTH`](super::search::LOOKAHEAD_DEPTH) shots) with outcome probabilities by
//!   weight; a `down` outcome's remaining plane is valued by the exact one-plane solver as if
//!   uniform over its partners ([`Solver`] assumes a uniform set) less 0.6 shots for every bit
//!   the weights take off (`bayes`'s fits' slope), and `miss`/`hit` outcomes by
//!   [`two_plane_estimate`] at the outcome's effective number of deployments (`W^2 / sum w^2`,
//!   which is the count when the weights are equal). The opening book, chosen for the uniform
//!   prior, is not used.
//! - **One plane standing**: one step over every informative cell, the `hit` and `miss`
//!   outcomes' probabilities by weight and their values from the exact uniform solver, corrected
//!   the same way.
//!
//! With every weight equal the search gives `bayes`'s own values exactly (but for the book), so a
//! weight close to 1 costs close to nothing.

use super::belief::{Knowledge, PlacementSet};
use super::optimal::Solver;
use super::search::{Mass, Prior, two_plane_estimate};

/// Prior weights per deployment of the solver's universe (as
/// [`Habits::weights`](super::habits::Habits::weights) gives them), for [`super::search::ranked`].
pub(crate) struct Weights<'a>(pub(crate) &'a [f64]);

/// The sum of a set's weights and of their squares.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Moments {
    w: f64,
    w2: f64,
}

impl Mass for Moments {
    fn plus(self, other: Moments) -> Moments {
        Moments {
            w: self.w + other.w,
            w2: self.w2 + other.w2,
        }
    }

    fn minus(self, other: Moments) -> Moments {
        Moments {
            w: self.w - other.w,
            w2: self.w2 - other.w2,
        }
    }
}

impl Prior for Weights<'_> {
    type Mass = Moments;
    const WEIGHED: bool = true;

    /// # Panics
    /// When `i` is past the weights.
    fn mass(&self, i: u16) -> Moments {
        let w = self.0[usize::from(i)];
        Moments { w, w2: w * w }
    }

    fn weight(_: usize, mass: Moments) -> f64 {
        mass.w
    }

    /// The weight times the fit at the effective number of deployments `W^2 / sum w^2`.
    fn fitted(count: usize, m: Moments) -> f64 {
        if count == 0 || m.w <= 0.0 || m.w2 <= 0.0 {
            0.0
        } else {
            m.w * two_plane_estimate(((m.w * m.w / m.w2).round() as usize).clamp(1, count))
        }
    }

    fn last_value(value: f64, count: u32, m: Moments) -> f64 {
        skewed(value, count, m.w, m.w2)
    }

    /// The standing plane's placements weighted by the deployments holding them, one step over
    /// each informative cell with exact uniform children ([`skewed`]).
    fn last_plane(&self, solver: &mut Solver, knowledge: &Knowledge, alive: &[u16]) -> Vec<(usize, f64)> {
        let weights = self.0;
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

#[cfg(test)]
mod tests {
    use skirmish_games::plane::{ShotResult, Variant};

    use super::*;
    use crate::plane::bayes::{Bayes, DOUBLE_EXACT_CAP};
    use crate::plane::belief::Universe;
    use crate::plane::deploy::close_together;
    use crate::plane::search::ranked;

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

    /// With every weight 1 the weighted prior gives `bayes`'s own ranking to the bit (the book
    /// aside: the same arithmetic on sums of ones), with two planes standing and with one.
    #[test]
    fn equal_weights_give_bayes_values() {
        let u = Universe::of(Variant::Double);
        let ones = vec![1.0; u.deployments.len()];
        let (know, alive) = position();
        assert!(alive.len() > 20, "{}", alive.len());
        let mut solver = Solver::new(u, DOUBLE_EXACT_CAP);
        let weighted = ranked(&mut solver, None, &Weights(&ones), &know, &alive);
        let plain = Bayes::with_budget(None).ranking(u, &know, &alive);
        assert!(plain.len() > 1, "{plain:?}");
        assert_eq!(weighted, plain);
        // One plane down (on a fresh board, so that many partners stand): the one-plane solver's
        // ranking.
        let p = u.deployments[usize::from(alive[0])].planes[0];
        let mut know = Knowledge::default();
        know.record(
            u,
            usize::from(u.placement_head[usize::from(p)]),
            ShotResult::Down,
            Some(p),
        );
        let alive = know.consistent(u);
        let weighted = ranked(&mut solver, None, &Weights(&ones), &know, &alive);
        let plain = Bayes::with_budget(None).ranking(u, &know, &alive);
        assert!(plain.len() > 1, "{plain:?}");
        assert_eq!(weighted, plain);
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
        let skewed = ranked(&mut solver, None, &Weights(&weights), &know, &alive);
        let plain = ranked(&mut solver, None, &Weights(&ones), &know, &alive);
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
