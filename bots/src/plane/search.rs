//! The one expectimax search by which `bayes` and `points` choose a cell on a board, under a
//! prior over the opponent's deployments ([`Prior`]): [`Uniform`] (every consistent deployment
//! equally likely, `bayes`'s) or learned weights ([`Weights`](super::weighted::Weights),
//! `points`'s, issue 19).
//!
//! - **Two planes standing** (`double`): an expectimax search [`LOOKAHEAD_DEPTH`] shots deep: one
//!   step over every cell, `1 + sum_o p_o E(S_o)` over the outcomes (`down` with each possible
//!   plane revealed, valued by the exact one-plane solver over its consistent partners; `miss`
//!   and `hit` by [`two_plane_estimate`], a fit of the expected shots left against the number of
//!   consistent pairs); then the [`LOOKAHEAD_WIDTH`] best cells get their `miss` and `hit`
//!   outcomes valued by the same search one step shallower, whose own best [`DEEP_WIDTH`] cells
//!   are searched again, and so on. This prefers informative shots over likeliest-head shots
//!   whenever the information pays for itself. An outcome's probability `p_o` is its deployments'
//!   share of the prior ([`Prior::weight`]: their number under [`Uniform`]); how an outcome's
//!   estimate reads the prior is [`Prior::fitted`] and [`Prior::last_value`] (under [`Uniform`]:
//!   the fit at the count and the exact value).
//! - **One plane standing**: [`Prior::last_plane`] (under [`Uniform`]: the exact single-plane
//!   solver, [`Solver::ranked`]).
//!
//! The search is generic over the prior, so each prior gets its own compiled copy: the uniform
//! one adds up nothing but counts (its [`Mass`] is `()` and [`Prior::WEIGHED`] false), and
//! `bayes` pays nothing for the weights (`eval --exhaustive --variant double`, whole process:
//! 0.96 of the CPU time of the copy `bayes.rs` had before).

use std::time::Instant;

use skirmish_games::plane::ShotResult;

use super::belief::{Knowledge, PlacementSet, last_plane_set};
use super::optimal::Solver;

/// How many of the best one-step cells get searched deeper with two planes standing.
pub const LOOKAHEAD_WIDTH: usize = 8;

/// How many cells of each deeper position of the search are searched deeper still.
pub const DEEP_WIDTH: usize = 3;

/// Shots of look-ahead with two planes standing (the top one included). Measured with `eval
/// --exhaustive` (no book): 1: 8.7526, 2: 8.6765, 3: 8.6722, 4: 8.6603, 5: 8.6586, 6: 8.6586.
pub const LOOKAHEAD_DEPTH: usize = 5;

/// The fitted expected number of shots to clear two planes when `n` pairs are consistent:
/// `2 + 0.6 log2 n` (a least-squares fit of the shots `bayes` still needed against `log2 n` over
/// 2,000 boards gives `1.5 + 0.63 log2 n`; this form is exact at `n = 1` and did as well in the
/// benchmark; a fit over the exact values of the positions of `bayes`'s own tree, adding the
/// entropy of the head cells, matched those values better but chose worse cells: 8.695 against
/// 8.677 with the depth-2 search).
pub fn two_plane_estimate(n: usize) -> f64 {
    2.0 + 0.6 * (n.max(1) as f64).log2()
}

/// What a prior adds up over a set of deployments besides their number (`()` for [`Uniform`]).
pub(crate) trait Mass: Copy + Default {
    /// The mass of both sets together.
    fn plus(self, other: Self) -> Self;
    /// The mass of this set without `other`, a subset of it.
    fn minus(self, other: Self) -> Self;
}

impl Mass for () {
    fn plus(self, (): ()) -> Self {}
    fn minus(self, (): ()) -> Self {}
}

/// A prior over an opponent's deployments, as the search reads it. Deployments are indices into
/// the solver's [`Universe::deployments`](super::belief::Universe::deployments).
pub(crate) trait Prior {
    /// What the prior adds up over a set of deployments.
    type Mass: Mass;
    /// Whether the search must add up masses at all (false: every mass is the default, and the
    /// search skips their bookkeeping).
    const WEIGHED: bool;
    /// The mass of deployment `i`.
    fn mass(&self, i: u16) -> Self::Mass;
    /// The (unnormalised) probability of `count` deployments of mass `mass`.
    fn weight(count: usize, mass: Self::Mass) -> f64;
    /// [`Prior::weight`] times the expected shots to clear two planes over `count` deployments of
    /// mass `mass` (both planes standing), fitted; 0 for no deployment.
    fn fitted(count: usize, mass: Self::Mass) -> f64;
    /// The expected shots to down a last plane that is one of `count` placements whose deployments
    /// have mass `mass`, given `value`, the exact value of those placements equally likely.
    fn last_value(value: f64, count: u32, mass: Self::Mass) -> f64;
    /// Every informative cell with one plane standing and its expected shots to down it (this
    /// shot included), best first; `alive` the consistent deployments (not empty).
    fn last_plane(&self, solver: &mut Solver, knowledge: &Knowledge, alive: &[u16]) -> Vec<(usize, f64)>;
}

/// The uniform prior: every consistent deployment equally likely (`bayes`'s, and what the
/// referee's random deployment draws).
pub(crate) struct Uniform;

impl Prior for Uniform {
    type Mass = ();
    const WEIGHED: bool = false;

    fn mass(&self, _: u16) -> Self::Mass {}

    fn weight(count: usize, (): ()) -> f64 {
        count as f64
    }

    fn fitted(count: usize, (): ()) -> f64 {
        count as f64 * two_plane_estimate(count)
    }

    fn last_value(value: f64, _: u32, (): ()) -> f64 {
        value
    }

    fn last_plane(&self, solver: &mut Solver, knowledge: &Knowledge, alive: &[u16]) -> Vec<(usize, f64)> {
        let set = last_plane_set(solver.universe(), knowledge, alive);
        if set.count_ones() == 1 {
            return vec![solver.best(set)];
        }
        solver.ranked(set)
    }
}

/// Every informative cell of a board with its expected shots to clear (this shot included) under
/// `prior`, best first; `knowledge` is the board's public knowledge, `alive` its consistent
/// deployments (indices into the solver's universe). With two planes standing the search stops
/// going deeper at `deadline` and ranks by one step instead. Empty when no deployment is
/// consistent (which the referee never allows).
pub(crate) fn ranked<P: Prior>(
    solver: &mut Solver,
    deadline: Option<Instant>,
    prior: &P,
    knowledge: &Knowledge,
    alive: &[u16],
) -> Vec<(usize, f64)> {
    if alive.is_empty() {
        return Vec::new();
    }
    if knowledge.planes_left(solver.universe()) <= 1 {
        return prior.last_plane(solver, knowledge, alive);
    }
    let mut search = Search {
        solver,
        deadline,
        prior,
    };
    let public = knowledge.public;
    let ranked = match search.search(alive, public, LOOKAHEAD_DEPTH, LOOKAHEAD_WIDTH) {
        Some(ranked) => ranked,
        // Out of time: a half-finished search is not comparable; one step with the estimates.
        None => search.one_step(alive, public),
    };
    ranked.into_iter().map(|(c, v, _)| (c, v)).collect()
}

/// The two-plane search's state.
struct Search<'a, P> {
    solver: &'a mut Solver,
    deadline: Option<Instant>,
    prior: &'a P,
}

impl<P: Prior> Search<'_, P> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The search `depth` shots deep over consistent deployments `alive` (`public`: the cells not
    /// to fire at): every cell valued one step ahead ([`Search::one_step`]), then the `width` best
    /// with their `miss` and `hit` outcomes valued by a search one shot shallower ([`DEEP_WIDTH`]
    /// wide). Returns those `width` cells best first, as from `one_step`; `None` once out of time.
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
        let all = alive
            .iter()
            .fold(P::Mass::default(), |m, &i| m.plus(self.prior.mass(i)));
        let total = P::weight(alive.len(), all);
        for entry in ranked.iter_mut().take(width) {
            if self.out_of_time() {
                return None;
            }
            let bit = 1u128 << entry.0;
            let public = public | bit;
            let (mut miss, mut hit) = (Vec::new(), Vec::new());
            let (mut m_miss, mut m_hit) = (P::Mass::default(), P::Mass::default());
            for &i in alive {
                let m = self.prior.mass(i);
                match u.deployments[usize::from(i)].result_at(bit) {
                    ShotResult::Miss => {
                        miss.push(i);
                        m_miss = m_miss.plus(m);
                    }
                    ShotResult::Hit => {
                        hit.push(i);
                        m_hit = m_hit.plus(m);
                    }
                    ShotResult::Down => {}
                }
            }
            // The down outcomes' share of the one-step value, kept as it was.
            let down_part = (entry.1 - 1.0) * total - entry.2;
            let mut deeper = 0.0;
            for (set, m) in [(&miss, m_miss), (&hit, m_hit)] {
                if !set.is_empty() {
                    let best = self
                        .search(set, public, depth - 1, DEEP_WIDTH)?
                        .first()
                        .map_or(0.0, |x| x.1);
                    deeper += P::weight(set.len(), m) * best;
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

    /// One step of look-ahead with two planes standing, over consistent deployments `alive`:
    /// (cell, expected shots to clear with this shot, the `miss` and `hit` outcomes' part of it
    /// times the prior's weight of `alive`), best first.
    fn one_step(&mut self, alive: &[u16], public: u128) -> Vec<(usize, f64, f64)> {
        let u = self.solver.universe();
        // Per cell: the deployments covering it, and their mass.
        let mut cover = vec![0u32; u.cells];
        let masses = |len: usize| {
            if P::WEIGHED {
                vec![P::Mass::default(); len]
            } else {
                Vec::new()
            }
        };
        let mut cover_mass = masses(u.cells);
        let mut partners: Vec<PlacementSet> = vec![0; u.placements.len()];
        // Per placement: the mass of the deployments holding it.
        let mut held = masses(u.placements.len());
        let mut all = P::Mass::default();
        // The cells some consistent deployment covers.
        let mut covered_cells = 0u128;
        for &i in alive {
            let d = &u.deployments[usize::from(i)];
            let m = self.prior.mass(i);
            all = all.plus(m);
            covered_cells |= d.occupied;
            let mut cells = d.occupied;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                cover[c] += 1;
                if P::WEIGHED {
                    cover_mass[c] = cover_mass[c].plus(m);
                }
            }
            let [a, b] = d.planes;
            partners[usize::from(a)] |= 1u128 << b;
            partners[usize::from(b)] |= 1u128 << a;
            if P::WEIGHED {
                for p in [a, b] {
                    held[usize::from(p)] = held[usize::from(p)].plus(m);
                }
            }
        }
        // The mass at `i` of `masses` (the default when the prior weighs nothing: none kept).
        let mass_at = |masses: &[P::Mass], i: usize| {
            if P::WEIGHED { masses[i] } else { P::Mass::default() }
        };
        let n = alive.len();
        let total = P::weight(n, all);
        let mut out = Vec::new();
        // Every open cell some deployment covers, in cell order.
        let mut open = covered_cells & !public;
        while open != 0 {
            let c = open.trailing_zeros() as usize;
            open &= open - 1;
            let covered = cover[c];
            let m_cover = mass_at(&cover_mass, c);
            let (mut heads, mut m_heads, mut down_total) = (0usize, P::Mass::default(), 0.0);
            let mut at = u.headed[c];
            while at != 0 {
                let p = at.trailing_zeros() as usize;
                at &= at - 1;
                let set = partners[p];
                let k = set.count_ones();
                if k > 0 {
                    heads += k as usize;
                    let m = mass_at(&held, p);
                    m_heads = m_heads.plus(m);
                    let value = P::last_value(self.solver.child(set), k, m);
                    down_total += P::weight(k as usize, m) * value;
                }
            }
            let hits = covered as usize - heads;
            if hits == n {
                continue;
            }
            let misses = n - covered as usize;
            let fitted = P::fitted(hits, m_cover.minus(m_heads)) + P::fitted(misses, all.minus(m_cover));
            out.push((c, 1.0 + (down_total + fitted) / total, fitted));
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }
}
