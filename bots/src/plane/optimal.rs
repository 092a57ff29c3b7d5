//! The exact optimal attack on one plane: a memoised search over sets of still-possible placements
//! (a `u128` bitset over [`Universe::placements`]), minimising the expected number of shots until
//! the head is hit.
//!
//! `E(S) = 1` for a single placement, and otherwise `E(S) = 1 + min_c sum_o p_o E(S_o)` over the
//! cells `c` whose outcome is not the same for every placement of `S`, where `o` runs over the
//! non-head outcomes (`miss`, `hit`) and `p_o = |S_o| / |S|` (placements equally likely a priori).
//! On `classic` (7x7, 48 placements) this is the whole game; on `double` it solves the last plane
//! once the first is down, up to a size cap beyond which a fitted estimate stands in.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use super::belief::{PlacementSet, Universe};

/// A fast hasher for `u128` set keys (the keys are already well mixed bit patterns).
#[derive(Default)]
pub(crate) struct SetHasher(u64);

impl Hasher for SetHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, x: u128) {
        let folded = (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
        self.0 = (self.0 ^ folded).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 31;
    }
}

/// Per set: its exact value (`true`) or a proven lower bound (`false`).
type Memo = HashMap<PlacementSet, (f64, bool), BuildHasherDefault<SetHasher>>;

/// Entries kept before the memo is cleared (about 40 bytes each).
const MEMO_LIMIT: usize = 4_000_000;

/// How many set visits of the exact search pass between two looks at the clock (one visit takes
/// well under a microsecond, so the deadline is overrun by far less than a millisecond).
const CLOCK_EVERY: u32 = 256;

/// The fitted expected number of shots to down one plane among `n` equally likely placements when
/// the set is too large to solve exactly: `1 + 0.6 log2 n` (exact values of 9x9 sets lie close to
/// it; a least-squares fit of the shots `bayes` still needed gives `0.9 + 0.59 log2 n`).
pub fn one_plane_estimate(n: u32) -> f64 {
    1.0 + 0.6 * f64::from(n.max(1)).log2()
}

/// Exact values of single-plane sets, memoised across calls (one solver per strategy object).
pub struct Solver {
    universe: &'static Universe,
    memo: Memo,
    /// Sets larger than this are estimated with [`one_plane_estimate`] instead of solved
    /// (`u32::MAX`: always exact).
    cap: u32,
    /// When the current decision must end: past it, sets are estimated, not solved.
    deadline: Option<Instant>,
    /// Set visits since the clock was last read.
    visits: u32,
    /// Whether the deadline passed (sticky until [`Solver::set_deadline`]).
    timed_out: bool,
}

impl Solver {
    /// A solver for `universe`'s board, exact for sets of at most `cap` placements.
    pub fn new(universe: &'static Universe, cap: u32) -> Solver {
        Solver {
            universe,
            memo: Memo::default(),
            cap,
            deadline: None,
            visits: 0,
            timed_out: false,
        }
    }

    /// Sets the deadline of the decision that starts now (`None`: none). Past it, [`Solver::child`]
    /// and [`Solver::value`] fall back to [`one_plane_estimate`] and an exact search under way
    /// stops at once, keeping in the memo only what it finished; values are then approximate.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.visits = 0;
        self.timed_out = false;
    }

    /// Whether the deadline set by [`Solver::set_deadline`] has passed (read every
    /// `CLOCK_EVERY` set visits, and at each call here).
    pub fn timed_out(&mut self) -> bool {
        if !self.timed_out && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
        }
        self.timed_out
    }

    /// Counts one set visit; whether the search must stop.
    fn tick(&mut self) -> bool {
        self.visits += 1;
        if self.visits >= CLOCK_EVERY {
            self.visits = 0;
            return self.timed_out();
        }
        self.timed_out
    }

    /// The universe solved over.
    pub fn universe(&self) -> &'static Universe {
        self.universe
    }

    /// The outcome split of a shot at cell `c` on set `set`: (hit set, miss set), heads excluded.
    pub fn split(&self, set: PlacementSet, c: usize) -> (PlacementSet, PlacementSet) {
        let u = self.universe;
        (set & u.covering[c] & !u.headed[c], set & !u.covering[c])
    }

    /// Cells where placements of `set` can lie (the only cells that may be informative).
    pub fn support(&self, set: PlacementSet) -> u128 {
        let mut cells = 0u128;
        let mut s = set;
        while s != 0 {
            let p = s.trailing_zeros() as usize;
            s &= s - 1;
            cells |= self.universe.placement_cells[p];
        }
        cells
    }

    /// The expected shots to down the plane when it is uniformly one of `set`, playing optimally
    /// (exactly when `|set| <= cap`, else by one step of look-ahead over estimated children).
    /// 0 for the empty set.
    pub fn value(&mut self, set: PlacementSet) -> f64 {
        let n = set.count_ones();
        if n <= 1 {
            return f64::from(n);
        }
        if n > self.cap || self.timed_out() {
            return self.best(set).1;
        }
        self.exact(set)
    }

    /// The value used for a child set during look-ahead: exact when at most `cap` placements, else
    /// [`one_plane_estimate`]. 0 for the empty set.
    pub fn child(&mut self, set: PlacementSet) -> f64 {
        let n = set.count_ones();
        if n <= 1 {
            return f64::from(n);
        }
        if n <= self.cap && !self.timed_out {
            let v = self.exact(set);
            if !self.timed_out {
                return v;
            }
        }
        one_plane_estimate(n)
    }

    /// Every informative cell of `set` with its expected shots (this shot included), best first
    /// ties in cell order. Empty only for a set of at most one placement with no cell to learn.
    pub fn ranked(&mut self, set: PlacementSet) -> Vec<(usize, f64)> {
        let n = f64::from(set.count_ones());
        let mut support = self.support(set);
        let mut out = Vec::new();
        while support != 0 {
            let c = support.trailing_zeros() as usize;
            support &= support - 1;
            let (hit, miss) = self.split(set, c);
            if hit == set || miss == set {
                continue;
            }
            let v = 1.0
                + (f64::from(hit.count_ones()) * self.child(hit)
                    + f64::from(miss.count_ones()) * self.child(miss))
                    / n;
            out.push((c, v));
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }

    /// The best cell of `set` and its value (one step of look-ahead, children exact when small).
    ///
    /// # Panics
    /// For the empty set.
    pub fn best(&mut self, set: PlacementSet) -> (usize, f64) {
        assert!(set != 0, "a consistent placement exists");
        if set.count_ones() == 1 {
            let p = set.trailing_zeros() as usize;
            return (usize::from(self.universe.placement_head[p]), 1.0);
        }
        self.ranked(set)
            .first()
            .copied()
            .expect("two placements differ somewhere")
    }

    /// [`depth_bound`] of `set`: 0 empty, else a lower bound on its exact value.
    fn lower_bound(&self, set: PlacementSet) -> f64 {
        let n = set.count_ones();
        if n <= 1 {
            return f64::from(n);
        }
        let mut most = 1;
        let mut heads = 0u128;
        let mut s = set;
        while s != 0 {
            let p = s.trailing_zeros() as usize;
            s &= s - 1;
            heads |= 1u128 << self.universe.placement_head[p];
        }
        while heads != 0 {
            let c = heads.trailing_zeros() as usize;
            heads &= heads - 1;
            most = most.max((set & self.universe.headed[c]).count_ones());
        }
        depth_bound(n, most)
    }

    /// The exact optimum of `set`, memoised.
    fn exact(&mut self, set: PlacementSet) -> f64 {
        self.bounded(set, f64::INFINITY)
    }

    /// The exact optimum of `set` if it is below `beta`; otherwise some lower bound on it that is at
    /// least `beta` (a branch-and-bound search whose budget shrinks as better cells are found).
    /// The memo keeps exact values and proven lower bounds.
    fn bounded(&mut self, set: PlacementSet, beta: f64) -> f64 {
        let n = set.count_ones();
        if n <= 1 {
            return f64::from(n);
        }
        let mut floor = 0.0;
        if let Some(&(v, exact)) = self.memo.get(&set) {
            if exact || v >= beta {
                return v;
            }
            floor = v;
        }
        if self.tick() {
            // Out of time: the answer no longer matters (the caller estimates instead).
            return floor;
        }
        let nf = f64::from(n);
        // Candidate cells, most balanced split first so the bound bites early.
        let mut support = self.support(set);
        let mut cands: Vec<(u32, PlacementSet, PlacementSet, f64)> = Vec::new();
        while support != 0 {
            let c = support.trailing_zeros() as usize;
            support &= support - 1;
            let (hit, miss) = self.split(set, c);
            if hit == set || miss == set {
                continue;
            }
            let (h, m) = (hit.count_ones(), miss.count_ones());
            let lb =
                1.0 + (f64::from(h) * self.lower_bound(hit) + f64::from(m) * self.lower_bound(miss)) / nf;
            cands.push((h.max(m), hit, miss, lb));
        }
        cands.sort_unstable_by(|a, b| a.3.total_cmp(&b.3).then(a.0.cmp(&b.0)));
        let lowest = cands.first().map_or(f64::INFINITY, |x| x.3).max(floor);
        if lowest >= beta {
            return lowest;
        }
        let mut best = beta;
        let mut found = false;
        for (_, hit, miss, lb) in cands {
            if lb >= best - 1e-12 {
                break;
            }
            let (h, m) = (f64::from(hit.count_ones()), f64::from(miss.count_ones()));
            let lm = self.lower_bound(miss);
            let vh = self.bounded(hit, ((best - 1.0) * nf - m * lm) / h);
            if 1.0 + (h * vh + m * lm) / nf >= best - 1e-12 {
                continue;
            }
            let vm = self.bounded(miss, ((best - 1.0) * nf - h * vh) / m);
            let v = 1.0 + (h * vh + m * vm) / nf;
            if v < best - 1e-12 {
                best = v;
                found = true;
            }
        }
        if self.timed_out {
            // Cut short: neither an exact value nor a proven bound; remember nothing.
            return if found { best } else { beta.max(lowest) };
        }
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        if found {
            self.memo.insert(set, (best, true));
            best
        } else {
            let lb = beta.max(lowest);
            self.memo.insert(set, (lb, false));
            lb
        }
    }
}

/// A lower bound on the exact value of a set of `n` placements in which no cell is the head of
/// more than `most` of them: a shot ends at most `most` placements, and at depth `k` of the
/// decision tree there are at most `2^(k-1)` shots (only `miss` and `hit` go on), so at most
/// `most * (2^k - 1)` placements are downed within `k` shots.
fn depth_bound(n: u32, most: u32) -> f64 {
    let mut left = n;
    let mut total = 0u64;
    let mut depth = 1u64;
    let mut width = u64::from(most.max(1));
    while left > 0 {
        let here = width.min(u64::from(left)) as u32;
        total += depth * u64::from(here);
        left -= here;
        depth += 1;
        width = width.saturating_mul(2);
    }
    total as f64 / f64::from(n.max(1))
}
