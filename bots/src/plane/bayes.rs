//! The `bayes` strategy: exact Bayesian filtering of an opponent's deployments, and shots chosen to
//! minimise the expected number of shots to clear the board.
//!
//! Every deployment consistent with the board's public results is equally likely (a uniform prior
//! over placements for `classic`, over unordered non-overlapping pairs for `double`, which is what
//! the referee's random deployment draws). Then:
//!
//! - **One plane left** (all of `classic`; `double` after the first plane is down): the plane is one
//!   of a set of at most 120 placements and [`Solver`] plays the exact optimum, a memoised search
//!   over sets (for sets above [`DOUBLE_EXACT_CAP`] on 9x9: one step of look-ahead over
//!   exact or fitted children).
//! - **Two planes left** (`double`): positions at the top of the tree take their cell from the
//!   opening book ([`opening`](super::opening), chosen offline by policy improvement against exact
//!   values). Elsewhere the expectimax search of `plane::search` under the uniform prior,
//!   [`LOOKAHEAD_DEPTH`] shots deep: every cell valued one step ahead (`down` outcomes
//!   exactly by the one-plane solver, `miss` and `hit` by [`two_plane_estimate`]), the
//!   [`LOOKAHEAD_WIDTH`] best searched deeper. `points` runs the same search under learned
//!   weights (`Bayes::cell_at_weighted`).
//! - **Target** (two opponents left): the board with the best rate of points per expected shot to
//!   its next downed plane, counting 3 points for a knockout (docs/rules.md, plane battle, "Scoring"); a tie
//!   goes to the opponent with the higher match total.
//! - **Deployment**: uniformly random among legal ones (against an attacker that assumes a uniform
//!   prior, any bias can only help it).
//!
//! Unclocked ([`Bayes::with_budget`]`(None)`), a decision depends on the public results alone but
//! for a uniform draw among tied cells; `plane::exhaustive` walks the whole decision tree to give
//! the exact expected shots (`bots/README.md`, "One board").

use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::plane::{BoardView, Cell, Placement, Variant, View, random_deployment};

use std::sync::Arc;

use skirmish_protocol::BotInfo;

use super::belief::{Knowledge, Universe};
use super::opening::Book;
use super::optimal::Solver;
use super::search::{self, Prior, Uniform};
pub use super::search::{DEEP_WIDTH, LOOKAHEAD_DEPTH, LOOKAHEAD_WIDTH, two_plane_estimate};
use super::weighted::Weights;
use super::{PlaneStrategy, pick, targets};

/// Exact single-plane solving on 9x9 up to this many placements (beyond: fitted estimates).
/// Measured with `eval --exhaustive` (depth-2 search, no book): 24 gave 8.6901 shots, 32 8.6854,
/// 40 8.6765, and 60 or 120 no better than 40.
pub const DOUBLE_EXACT_CAP: u32 = 40;

/// The longest one decision of [`Bayes::default`] takes, in wall time: its search stops at
/// [`TIME_SHARE`] of it. Plane battle rooms have no per-move think time for bots to share, so
/// this is the strategy's own. The slowest decision is a fresh strategy's first on 7x7, which
/// solves the whole board from a cold memo; later ones reuse the memo.
pub const DECISION_BUDGET: Duration = Duration::from_millis(300);

/// The share of the budget the search may use before it falls back to the estimates.
pub const TIME_SHARE: f64 = 0.75;

/// The `bayes` strategy; caches its single-plane solver (a memo of exact values) across turns.
pub struct Bayes {
    solver: Option<Solver>,
    /// The time one decision may take (`None`: no limit, deterministic).
    budget: Option<Duration>,
    /// When the current decision must end.
    deadline: Option<Instant>,
    /// The opening book of 9x9 positions (`None`: search every position).
    book: Option<Arc<Book>>,
}

impl Default for Bayes {
    /// A `bayes` that decides within [`DECISION_BUDGET`].
    fn default() -> Bayes {
        Bayes::with_budget(Some(DECISION_BUDGET))
    }
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
    /// A `bayes` whose decisions take at most `budget` of wall time (its search stops at
    /// [`TIME_SHARE`] of it): past that, exact single-plane values give way to the fitted estimates and the
    /// second step of look-ahead is dropped. `None`: no limit, so play depends on the random
    /// source alone (benchmarks and tests that check the exact optimum use this).
    pub fn with_budget(budget: Option<Duration>) -> Bayes {
        Bayes {
            solver: None,
            budget,
            deadline: None,
            book: Some(Book::shipped()),
        }
    }

    /// This strategy with `book` as its 9x9 opening book instead of the shipped
    /// [`OPENING`](super::opening::OPENING) (`None`: none, every position searched).
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Bayes {
        self.book = book;
        self
    }

    /// Starts a decision's clock: the search stops at [`TIME_SHARE`] of the budget, the rest is
    /// left for what follows (ranking with the estimates) and a busy machine's scheduling.
    fn start_clock(&mut self) {
        self.deadline = self.budget.map(|b| Instant::now() + b.mul_f64(TIME_SHARE));
        if let Some(solver) = self.solver.as_mut() {
            solver.set_deadline(self.deadline);
        }
    }

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
            let mut solver = Solver::new(universe, cap);
            solver.set_deadline(self.deadline);
            self.solver = Some(solver);
        }
        self.solver.as_mut().expect("just set")
    }

    /// Every informative cell of a board with its expected shots to clear (this shot included)
    /// under the uniform prior, best first. Empty when no deployment is consistent (which the
    /// referee never allows).
    fn ranked(&mut self, state: &BoardState) -> Vec<(usize, f64)> {
        self.ranked_under(state, &Uniform)
    }

    /// [`search::ranked`] on a board under `prior`, with this strategy's solver and clock.
    fn ranked_under<P: Prior>(&mut self, state: &BoardState, prior: &P) -> Vec<(usize, f64)> {
        let deadline = self.deadline;
        let solver = self.solver(state.universe);
        search::ranked(solver, deadline, prior, &state.knowledge, &state.alive)
    }

    /// The cells (bit indices) `bayes` chooses among, uniformly, on one board: the best ones,
    /// ties within 1e-9 shots; every open cell when no deployment is consistent.
    fn choices_on(&mut self, state: &BoardState) -> Vec<usize> {
        let u = state.universe;
        if u.variant == Variant::Double
            && let Some(book) = &self.book
            && let Some(cells) = book.cells_for(&state.knowledge)
        {
            let open: Vec<usize> = cells
                .into_iter()
                .filter(|c| state.knowledge.public & (1u128 << c) == 0)
                .collect();
            if !open.is_empty() {
                return open;
            }
        }
        best_cells(state, &self.ranked(state))
    }

    /// The cell to fire at on one board: a best cell, ties at random.
    fn cell_on(&mut self, state: &BoardState, rng: &mut dyn RngCore) -> Cell {
        let choices = self.choices_on(state);
        state.universe.cell(pick(&choices, rng))
    }

    /// The search's ranking of a lone board's cells, best first, with each one's expected shots to
    /// clear (this shot included), ignoring the opening book; `knowledge` and `alive` as for
    /// [`Bayes::choices`]. Starts the decision's clock. The opening book's builder draws its
    /// candidate cells from it.
    pub fn ranking(
        &mut self,
        universe: &'static Universe,
        knowledge: &Knowledge,
        alive: &[u16],
    ) -> Vec<(usize, f64)> {
        self.start_clock();
        let state = BoardState {
            universe,
            knowledge: knowledge.clone(),
            alive: alive.to_vec(),
        };
        self.ranked(&state)
    }

    /// One whole decision on a lone board: the cells (bit indices, see [`Universe::cell`]) among
    /// which [`PlaneStrategy::fire`] draws uniformly when `knowledge` is public and `alive` (indices
    /// into [`Universe::deployments`], as [`Knowledge::consistent`] gives them) are the consistent
    /// deployments. Starts the decision's clock. The exhaustive benchmark walks the policy's whole
    /// decision tree through this.
    pub fn choices(
        &mut self,
        universe: &'static Universe,
        knowledge: &Knowledge,
        alive: &[u16],
    ) -> Vec<usize> {
        self.start_clock();
        let state = BoardState {
            universe,
            knowledge: knowledge.clone(),
            alive: alive.to_vec(),
        };
        self.choices_on(&state)
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

impl Bayes {
    /// Starts a decision's clock (call once per decision, before [`Bayes::rates`] and
    /// [`Bayes::cell_at`]).
    pub(crate) fn start_decision(&mut self) {
        self.start_clock();
    }

    /// Every target board of `view` with `bayes`'s rate (points per expected shot to its next
    /// downed plane), in seat order.
    pub(crate) fn rates(&mut self, view: &View) -> Vec<(Seat, f64)> {
        let variant = view.config.variant;
        targets(view)
            .into_iter()
            .map(|b| (b.seat, self.rate(&BoardState::new(variant, b))))
            .collect()
    }

    /// `bayes`'s cell on `target`'s board.
    ///
    /// # Panics
    /// When `target` is not a board of `view`.
    pub(crate) fn cell_at(&mut self, view: &View, target: Seat, rng: &mut dyn RngCore) -> Cell {
        let board = &view.boards[target.index()];
        let state = BoardState::new(view.config.variant, board);
        self.cell_on(&state, rng)
    }
}

impl Bayes {
    /// The cell on `target`'s board under prior `weights` over its deployments (per deployment
    /// of the variant's [`Universe`], as [`super::habits::Habits::weights`] gives them):
    /// [`search::ranked`] under [`Weights`], best cell, ties at random. `None`: [`Bayes::cell_at`]
    /// (the uniform prior, the book and the search unchanged).
    ///
    /// # Panics
    /// When `target` is not a board of `view`, or `weights` is shorter than the universe's
    /// deployments.
    pub(crate) fn cell_at_weighted(
        &mut self,
        view: &View,
        target: Seat,
        weights: Option<&[f64]>,
        rng: &mut dyn RngCore,
    ) -> Cell {
        let Some(weights) = weights else {
            return self.cell_at(view, target, rng);
        };
        let board = &view.boards[target.index()];
        let state = BoardState::new(view.config.variant, board);
        let ranked = self.ranked_under(&state, &Weights(weights));
        state.universe.cell(pick(&best_cells(&state, &ranked), rng))
    }
}

/// The best cells of a board's ranking `ranked` (ties within 1e-9 shots); every open cell when
/// the ranking is empty (no deployment consistent).
fn best_cells(state: &BoardState, ranked: &[(usize, f64)]) -> Vec<usize> {
    match ranked.first() {
        Some(&(_, best)) => ranked
            .iter()
            .take_while(|(_, v)| *v <= best + 1e-9)
            .map(|(c, _)| *c)
            .collect(),
        None => (0..state.universe.cells)
            .filter(|c| state.knowledge.public & (1u128 << c) == 0)
            .collect(),
    }
}

impl PlaneStrategy for Bayes {
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement> {
        random_deployment(view.config.variant, rng)
    }

    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell) {
        self.start_clock();
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

    /// The filter's odds on every target board, under the uniform prior it plays by.
    fn info(&mut self, view: &View) -> Option<BotInfo> {
        Some(super::odds::board_odds(view, &|_| None))
    }
}
