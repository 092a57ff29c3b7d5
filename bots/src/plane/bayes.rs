//! The `bayes` strategy: exact Bayesian filtering of an opponent's deployments, and shots chosen to
//! minimise the expected number of shots to clear the board.
//!
//! Every deployment consistent with the board's public results is equally likely (a uniform prior
//! over placements for `classic`, over unordered non-overlapping pairs for `double`). Then:
//!
//! - **One plane left** (all of `classic`; `double` after the first plane is down): the plane is one
//!   of a set of at most 120 placements and [`optimal::Solver`] plays the exact optimum, a memoised
//!   search over sets (for sets above a size cap on 9x9: one step of look-ahead over exact or fitted
//!   children).
//! - **Two planes left** (`double`): one step of look-ahead, `1 + sum_o p_o E(S_o)` over the
//!   outcomes of each cell: `miss` and `hit` (valued by [`two_plane_estimate`], a fit of the
//!   expected shots left against the number of consistent pairs) and `down` with each possible
//!   plane revealed (valued exactly by the one-plane solver over its consistent partners). This
//!   prefers informative shots over likeliest-head shots whenever the information pays for itself.
//! - **Target** (two opponents left): the board with the best rate of points per expected shot to
//!   its next downed plane, counting 3 points for a knockout (RULES.md section 1, "Scoring"); a tie
//!   goes to the opponent with the higher match total.
//! - **Deployment**: uniformly random among legal ones (against an attacker that assumes a uniform
//!   prior, any bias can only help it).

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::plane::{BoardView, Cell, Placement, Variant, View, random_deployment};

use super::belief::{Knowledge, PlacementSet, Universe, last_plane_set};
use super::optimal::Solver;
use super::{PlaneStrategy, pick, targets};

/// Exact single-plane solving on 9x9 up to this many placements (beyond: fitted estimates).
pub const DOUBLE_EXACT_CAP: u32 = 32;

/// The fitted expected number of shots to clear two planes when `n` pairs are consistent:
/// `2 + 0.6 log2 n`.
pub fn two_plane_estimate(n: usize) -> f64 {
    2.0 + 0.6 * (n.max(1) as f64).log2()
}

/// The `bayes` strategy; caches its single-plane solver (a memo of exact values) across turns.
#[derive(Default)]
pub struct Bayes {
    solver: Option<Solver>,
}

/// One board as `bayes` sees it.
struct BoardState {
    universe: &'static Universe,
    knowledge: Knowledge,
    alive: Vec<u16>,
}

impl BoardState {
    fn new(variant: Variant, board: &BoardView) -> BoardState {
        let universe = Universe::of(variant);
        let knowledge = Knowledge::of_board(universe, board);
        let alive = knowledge.consistent(universe);
        BoardState {
            universe,
            knowledge,
            alive,
        }
    }
}

impl Bayes {
    fn solver(&mut self, universe: &'static Universe) -> &mut Solver {
        if self
            .solver
            .as_ref()
            .is_none_or(|s| !std::ptr::eq(s.universe(), universe))
        {
            let cap = match universe.variant {
                Variant::Classic => u32::MAX,
                Variant::Double => DOUBLE_EXACT_CAP,
            };
            self.solver = Some(Solver::new(universe, cap));
        }
        self.solver.as_mut().expect("just set")
    }

    /// Every informative cell of a board with its expected shots to clear (this shot included),
    /// best first. Empty when no deployment is consistent (which the referee never allows).
    fn ranked(&mut self, state: &BoardState) -> Vec<(usize, f64)> {
        let u = state.universe;
        if state.alive.is_empty() {
            return Vec::new();
        }
        if state.knowledge.planes_left(u) <= 1 {
            let set = last_plane_set(u, &state.knowledge, &state.alive);
            let solver = self.solver(u);
            if set.count_ones() == 1 {
                return vec![solver.best(set)];
            }
            return solver.ranked(set);
        }
        self.ranked_two(state)
    }

    /// One step of look-ahead with two planes standing.
    fn ranked_two(&mut self, state: &BoardState) -> Vec<(usize, f64)> {
        let u = state.universe;
        let n = state.alive.len();
        let mut cover = vec![0u32; u.cells];
        let mut partners: Vec<PlacementSet> = vec![0; u.placements.len()];
        for &i in &state.alive {
            let d = &u.deployments[usize::from(i)];
            let mut cells = d.occupied;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                cover[c] += 1;
            }
            let [a, b] = d.planes;
            partners[usize::from(a)] |= 1u128 << b;
            partners[usize::from(b)] |= 1u128 << a;
        }
        let solver = self.solver(u);
        let nf = n as f64;
        let mut out = Vec::new();
        for (c, &covered) in cover.iter().enumerate() {
            if state.knowledge.public & (1u128 << c) != 0 || covered == 0 {
                continue;
            }
            let mut heads = 0usize;
            let mut down_total = 0.0;
            let mut at = u.headed[c];
            while at != 0 {
                let p = at.trailing_zeros() as usize;
                at &= at - 1;
                let set = partners[p];
                let k = set.count_ones() as usize;
                if k > 0 {
                    heads += k;
                    down_total += k as f64 * solver.child(set);
                }
            }
            let hits = covered as usize - heads;
            let misses = n - covered as usize;
            if hits == n {
                continue;
            }
            let v = 1.0
                + (down_total
                    + hits as f64 * two_plane_estimate(hits)
                    + misses as f64 * two_plane_estimate(misses))
                    / nf;
            out.push((c, v));
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }

    /// The cell to fire at on one board: a best cell, ties at random.
    fn cell_on(&mut self, state: &BoardState, rng: &mut dyn RngCore) -> Cell {
        let u = state.universe;
        let ranked = self.ranked(state);
        match ranked.first() {
            Some(&(_, best)) => {
                let ties: Vec<usize> = ranked
                    .iter()
                    .take_while(|(_, v)| *v <= best + 1e-9)
                    .map(|(c, _)| *c)
                    .collect();
                u.cell(pick(&ties, rng))
            }
            None => {
                let open: Vec<usize> = (0..u.cells)
                    .filter(|c| state.knowledge.public & (1u128 << c) == 0)
                    .collect();
                u.cell(pick(&open, rng))
            }
        }
    }

    /// Points per expected shot to the next downed plane on a board (3 for a knockout, else 1).
    fn rate(&mut self, state: &BoardState) -> f64 {
        let u = state.universe;
        let left = state.knowledge.planes_left(u);
        let (points, shots) = if left <= 1 {
            let best = self.ranked(state).first().map_or(1.0, |x| x.1);
            (3.0, best)
        } else {
            (1.0, two_plane_estimate(state.alive.len()) / 2.0)
        };
        points / shots.max(1.0)
    }

    /// The expected shots to clear a board uniformly deployed and not yet shot at, playing this
    /// strategy's first decision (exact for `classic`).
    pub fn opening_value(&mut self, variant: Variant) -> f64 {
        let board = BoardView {
            seat: Seat(1),
            playing: true,
            knocked_out: false,
            shots: Vec::new(),
            downed: Vec::new(),
            planes: None,
            points: 0,
        };
        let state = BoardState::new(variant, &board);
        self.ranked(&state).first().map_or(0.0, |x| x.1)
    }
}

impl PlaneStrategy for Bayes {
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement> {
        random_deployment(view.config.variant, rng)
    }

    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell) {
        let variant = view.config.variant;
        let boards = targets(view);
        let mut states: Vec<(Seat, BoardState)> = boards
            .iter()
            .map(|b| (b.seat, BoardState::new(variant, b)))
            .collect();
        let index = if states.len() == 1 {
            0
        } else {
            let mut best = (f64::NEG_INFINITY, 0u32, 0usize);
            for (i, (seat, state)) in states.iter().enumerate() {
                let key = (self.rate(state), view.totals[*seat], i);
                if key.0 > best.0 + 1e-9 || ((key.0 - best.0).abs() <= 1e-9 && key.1 > best.1) {
                    best = key;
                }
            }
            best.2
        };
        let (seat, state) = states.swap_remove(index);
        (seat, self.cell_on(&state, rng))
    }
}
