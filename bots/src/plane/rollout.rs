//! A one-step Monte Carlo over the order of play, for `points` with two opponents left (issue 19):
//! for each board it may fire at now, play the rest of the round out many times and keep the
//! board that brought it the most points on average.
//!
//! Each rollout draws the opponents' hidden deployments among those consistent with their
//! boards' public results, uniformly (a dealt board is uniform among legal deployments,
//! docs/rules.md plane battle "Deploy") or in proportion to the opponent's learned habits
//! ([`Priors`], [`super::habits`]); the seat's own planes are its own view's. Then it plays the round
//! through, turn by turn in seat order (docs/rules.md, "Attack"), scoring 1 a plane and 3 a
//! knockout ("Scoring"):
//! - each opponent plays `seed-cv`'s rule as [`super::rivals`] models it (safe board, or the
//!   single leader with probability [`RISKY_PROBABILITY`]; [`PROBES`] probes a board drawn from
//!   the fresh CV, then the largest CV, ties at random);
//! - the seat itself plays `points`'s own rule (a last plane's head from [`SNIPE_HEAD`], else the
//!   board that turns the attackers away; the largest-CV cell as a cheap stand-in for `bayes`'s).
//!
//! Every candidate board meets the same drawn deployments and the same random numbers (common
//! random numbers), so the comparison is not blurred by the draws. A board's consistent
//! deployments are a set of 2,352 bits (37 words) that a shot's result filters 64 at a time
//! through per-cell masks; the CV is kept as counts per placement, and a shot takes what the
//! deployments it drops gave to the counts and to the CV of their open cells (a `down` recounts).
//! A rollout from a fresh round costs some 34 µs of CPU (87 µs with the deployments as a list
//! filtered one by one and the CV summed anew after every shot). The search reads the clock
//! after every rollout and stops at its time budget.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};
use skirmish_games::Seat;
use skirmish_games::plane::{ShotResult, View};

use super::belief::{Deployment, Knowledge, Universe};
use super::deployset::{Bits, MAX_PLACEMENTS, Masks, WORDS, bits_of};
use super::seed_cv::{HEAD_WEIGHT, PROBES, RISKY_PROBABILITY, cube_values};

/// The head probability from which `points` fires at a board's last plane's likeliest head
/// whatever else it would do (a knockout, 3 points, that the next attacker may take otherwise),
/// in its own play and in its rollouts alike (one rule; `points` takes it from here). 0.3, 0.5
/// and 0.7 measured alike (`skirmish-bots eval`, 3-player matches); 0.5 is the middle.
pub const SNIPE_HEAD: f64 = 0.5;

/// One board in a simulated round.
#[derive(Clone, Debug)]
struct SimBoard {
    /// Still in the round (playing and not knocked out).
    in_round: bool,
    /// Its true deployment (drawn for an opponent, known for the seat itself).
    truth: Deployment,
    /// What is public about it.
    know: Knowledge,
    /// Consistent deployments: bit `i` is `universe.deployments[i]`.
    alive: Bits,
    /// How many deployments are consistent (the bits set in `alive`).
    live: u32,
    /// Per placement: the consistent deployments holding it standing (0 for a downed one); the
    /// CV and head counts are sums of these over each cell's placements.
    count: Vec<u32>,
    /// CV per cell (0 on public cells), as `seed-cv` computes it.
    cv: Vec<u32>,
    /// Consistent deployments with a standing head on each cell.
    heads: Vec<u32>,
    /// Shots fired at it this round by each seat.
    shots_by: [usize; 3],
}

impl SimBoard {
    /// Largest head probability (`seed-cv`'s "safety").
    fn safety(&self) -> f64 {
        let top = self.heads.iter().copied().max().unwrap_or(0);
        f64::from(top) / f64::from(self.live.max(1))
    }

    fn planes_left(&self, universe: &Universe) -> usize {
        self.know.planes_left(universe)
    }

    /// The consistent deployments, as indices into the universe, in order.
    fn alive_list(&self) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.live as usize);
        for (w, &word) in self.alive.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push((w * 64 + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
            }
        }
        out
    }

    /// Keeps in `alive` only the deployments agreeing with the result just recorded of a shot at
    /// `cell` (`plane`: the placement a `down` revealed), one word of 64 deployments at a time;
    /// after a `miss` or `hit` takes the dropped ones out of the placement counts, after a `down`
    /// recounts (the revealed plane's count goes to 0).
    fn keep_consistent(&mut self, universe: &Universe, cell: usize, result: ShotResult, plane: Option<u8>) {
        let masks = Masks::of(universe);
        let (cover, head) = (&masks.cover[cell], &masks.head[cell]);
        let mut live = 0;
        // Per placement: how many of the deployments dropped held it standing.
        let mut dropped_of = [0u32; MAX_PLACEMENTS];
        let check_downed = !self.know.downed.is_empty();
        for w in 0..WORDS {
            let keep = match (result, plane) {
                (ShotResult::Miss, _) => !cover[w],
                (ShotResult::Hit, _) => cover[w] & !head[w],
                (ShotResult::Down, Some(p)) => masks.has[usize::from(p)][w],
                (ShotResult::Down, None) => head[w],
            };
            let mut dropped = self.alive[w] & !keep;
            self.alive[w] &= keep;
            live += self.alive[w].count_ones();
            if result == ShotResult::Down {
                continue;
            }
            while dropped != 0 {
                let i = w * 64 + dropped.trailing_zeros() as usize;
                dropped &= dropped - 1;
                let [a, b] = masks.planes[i];
                // A downed plane is counted 0 (every consistent deployment holds it).
                if !(check_downed && self.know.downed.contains(&a)) {
                    dropped_of[usize::from(a)] += 1;
                }
                if b != a && !(check_downed && self.know.downed.contains(&b)) {
                    dropped_of[usize::from(b)] += 1;
                }
            }
        }
        self.live = live;
        if result == ShotResult::Down {
            self.recount(universe);
            self.refresh(universe);
            return;
        }
        // The CV and head counts lose what the dropped deployments gave them; the shot cell is
        // public now (its CV 0, no standing head there).
        let public = self.know.public;
        for (p, &n) in dropped_of.iter().enumerate().take(universe.placements.len()) {
            if n == 0 {
                continue;
            }
            self.count[p] -= n;
            let mut cells = universe.placement_cells[p] & !public;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                self.cv[c] -= n;
            }
            let h = usize::from(universe.placement_head[p]);
            if public & (1u128 << h) == 0 {
                self.cv[h] -= n * (HEAD_WEIGHT - 1);
                self.heads[h] -= n;
            }
        }
        self.cv[cell] = 0;
        self.heads[cell] = 0;
    }

    /// Recounts the placements from `alive` (at the start, and after a `down`, which reveals a
    /// plane).
    fn recount(&mut self, universe: &Universe) {
        self.count.iter_mut().for_each(|v| *v = 0);
        for (w, &word) in self.alive.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let d = &universe.deployments[w * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
                self.count[usize::from(d.planes[0])] += 1;
                if d.planes[1] != d.planes[0] {
                    self.count[usize::from(d.planes[1])] += 1;
                }
            }
        }
        for &p in &self.know.downed {
            self.count[usize::from(p)] = 0;
        }
    }

    /// Recomputes the CV and head counts from the placement counts (what `seed_cv::cube_values`
    /// computes from the consistent deployments).
    fn refresh(&mut self, universe: &Universe) {
        self.cv.iter_mut().for_each(|v| *v = 0);
        self.heads.iter_mut().for_each(|v| *v = 0);
        for (p, &n) in self.count.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let mut cells = universe.placement_cells[p] & !self.know.public;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                self.cv[c] += n;
            }
            let head = usize::from(universe.placement_head[p]);
            self.cv[head] += n * (HEAD_WEIGHT - 1);
            self.heads[head] += n;
        }
    }
}

/// A round in play, as the seat sees it plus drawn hidden deployments.
#[derive(Clone, Debug)]
pub struct Sim {
    universe: &'static Universe,
    me: Seat,
    boards: Vec<SimBoard>,
    totals: [u32; 3],
    /// Points the seat itself scored since the simulation started.
    gained: u32,
}

/// The largest-value open cells of `values` (all open cells when every value is 0).
fn best_cells(values: &[u32], public: u128, out: &mut Vec<usize>) {
    out.clear();
    let mut best = 0;
    for (c, &v) in values.iter().enumerate() {
        if public & (1u128 << c) != 0 {
            continue;
        }
        if v > best {
            best = v;
            out.clear();
        }
        if v == best {
            out.push(c);
        }
    }
}

impl Sim {
    /// The round of `view` (3 seats, the seat's own board among them) with the opponents'
    /// deployments drawn from their consistent ones, or None when the view is not a 3-player
    /// round in play or the seat's own planes are not in it.
    pub fn draw(view: &View, rng: &mut dyn RngCore) -> Option<Sim> {
        let me = super::me(view);
        let universe = Universe::of(view.config.variant);
        if view.boards.len() != 3 {
            return None;
        }
        let mut boards = Vec::with_capacity(3);
        for b in &view.boards {
            let know = Knowledge::of_board(universe, b);
            let alive = know.consistent(universe);
            let truth = if b.seat == me {
                let planes = b.planes.as_ref()?;
                let idx: Vec<u8> = planes
                    .iter()
                    .map(|p| universe.placement_index(*p))
                    .collect::<Option<_>>()?;
                let (a, z) = match idx[..] {
                    [a] => (a, a),
                    [a, z] => (a.min(z), a.max(z)),
                    _ => return None,
                };
                *universe.deployments.iter().find(|d| d.planes == [a, z])?
            } else if alive.is_empty() {
                return None;
            } else {
                universe.deployments[usize::from(alive[rng.random_range(0..alive.len())])]
            };
            let mut shots_by = [0usize; 3];
            for s in &b.shots {
                if let Some(n) = shots_by.get_mut(s.by.index()) {
                    *n += 1;
                }
            }
            let mut board = SimBoard {
                in_round: b.playing && !b.knocked_out,
                truth,
                know,
                alive: bits_of(&alive),
                live: alive.len() as u32,
                count: vec![0; universe.placements.len()],
                cv: vec![0; universe.cells],
                heads: vec![0; universe.cells],
                shots_by,
            };
            board.recount(universe);
            board.refresh(universe);
            boards.push(board);
        }
        let totals = [view.totals[Seat(0)], view.totals[Seat(1)], view.totals[Seat(2)]];
        Some(Sim {
            universe,
            me,
            boards,
            totals,
            gained: 0,
        })
    }

    /// Redraws the opponents' hidden deployments (the public state is kept): uniformly among the
    /// consistent ones, or in proportion to a board's prior weights when `priors` has them
    /// (`priors` is [`Priors::of`] this simulation, whose consistent deployments it lists).
    pub fn redraw(&mut self, rng: &mut dyn RngCore, priors: &Priors) {
        for (i, b) in self.boards.iter_mut().enumerate() {
            let Some(list) = priors.alive.get(i) else {
                continue;
            };
            if i == self.me.index() || list.is_empty() {
                continue;
            }
            let k = match priors.cumulative.get(i).filter(|c| !c.is_empty()) {
                Some(cumulative) => {
                    let total = cumulative[cumulative.len() - 1];
                    let x = rng.random::<f64>() * total;
                    cumulative.partition_point(|&c| c <= x).min(cumulative.len() - 1)
                }
                None => rng.random_range(0..list.len()),
            };
            b.truth = self.universe.deployments[usize::from(list[k])];
        }
    }
}

/// What a simulation's draws are made from, for [`Sim::redraw`]: per seat, the board's consistent
/// deployments at the start and the running sums of their prior weights (empty: uniform).
#[derive(Clone, Debug, Default)]
pub struct Priors {
    alive: Vec<Vec<u16>>,
    cumulative: Vec<Vec<f64>>,
}

impl Priors {
    /// The priors of `sim`'s boards from `weights` (per seat, per deployment of the universe, as
    /// [`super::habits::weights_by_seat`] gives them; None or missing: uniform).
    pub fn of(sim: &Sim, weights: &[Option<Vec<f64>>]) -> Priors {
        let alive: Vec<Vec<u16>> = sim.boards.iter().map(SimBoard::alive_list).collect();
        let cumulative = alive
            .iter()
            .enumerate()
            .map(|(i, list)| match weights.get(i) {
                Some(Some(w)) if i != sim.me.index() => {
                    let mut acc = 0.0;
                    list.iter()
                        .map(|&d| {
                            acc += w[usize::from(d)];
                            acc
                        })
                        .collect()
                }
                _ => Vec::new(),
            })
            .collect();
        Priors { alive, cumulative }
    }
}

impl Sim {
    /// The boards the seat may fire at now (in round, not its own), in seat order.
    pub fn targets(&self, shooter: Seat) -> Vec<Seat> {
        (0..3)
            .filter(|&i| i != shooter.index() && self.boards[i].in_round)
            .map(|i| Seat(i as u8))
            .collect()
    }

    fn left(&self) -> usize {
        self.boards.iter().filter(|b| b.in_round).count()
    }

    /// Fires `shooter`'s shot at `cell` (bit index) of `target`: the result, the points and the
    /// knowledge updated as the referee would.
    fn fire(&mut self, shooter: Seat, target: Seat, cell: usize) {
        let universe = self.universe;
        let board = &mut self.boards[target.index()];
        let bit = 1u128 << cell;
        let truth = board.truth;
        let mut plane = None;
        let result = if truth.heads & bit != 0 {
            plane = truth
                .planes
                .iter()
                .copied()
                .find(|&p| usize::from(universe.placement_head[usize::from(p)]) == cell);
            ShotResult::Down
        } else if truth.occupied & bit != 0 {
            ShotResult::Hit
        } else {
            ShotResult::Miss
        };
        board.know.record(universe, cell, result, plane);
        board.shots_by[shooter.index()] += 1;
        board.keep_consistent(universe, cell, result, plane);
        if result == ShotResult::Down {
            let out = board.planes_left(universe) == 0;
            let points = if out { 3 } else { 1 };
            if out {
                board.in_round = false;
            }
            self.totals[shooter.index()] += points;
            if shooter == self.me {
                self.gained += points;
            }
        }
    }

    /// The probability that a `seed-cv` at `shooter` fires at each of its targets next
    /// ([`super::rivals::seed_cv_targets`]'s rule on the simulated boards).
    fn seed_cv_targets(&self, shooter: Seat) -> Vec<(Seat, f64)> {
        let targets = self.targets(shooter);
        if targets.len() < 2 {
            return targets.into_iter().map(|t| (t, 1.0)).collect();
        }
        let safe = *targets
            .iter()
            .max_by(|a, b| {
                self.boards[a.index()]
                    .safety()
                    .total_cmp(&self.boards[b.index()].safety())
            })
            .expect("two targets");
        let top = targets.iter().map(|t| self.totals[t.index()]).max().unwrap_or(0);
        let leaders: Vec<Seat> = targets
            .iter()
            .copied()
            .filter(|t| self.totals[t.index()] == top)
            .collect();
        targets
            .iter()
            .map(|&t| {
                let mut p = if t == safe { 1.0 } else { 0.0 };
                if leaders.len() == 1 {
                    p *= 1.0 - RISKY_PROBABILITY;
                    if t == leaders[0] {
                        p += RISKY_PROBABILITY;
                    }
                }
                (t, p)
            })
            .collect()
    }

    /// `seed-cv`'s shot for `shooter` (its target rule, its probes, its largest CV).
    fn seed_cv_shot(
        &self,
        shooter: Seat,
        rng: &mut SmallRng,
        initial: &[u32],
        scratch: &mut Vec<usize>,
    ) -> (Seat, usize) {
        let targets = self.targets(shooter);
        let target = if targets.len() == 1 {
            targets[0]
        } else {
            let probs = self.seed_cv_targets(shooter);
            let x: f64 = rng.random();
            let mut acc = 0.0;
            let mut pick = probs[probs.len() - 1].0;
            for (t, p) in &probs {
                acc += p;
                if x < acc {
                    pick = *t;
                    break;
                }
            }
            pick
        };
        let board = &self.boards[target.index()];
        if board.shots_by[shooter.index()] < PROBES {
            let total: u64 = (0..initial.len())
                .filter(|&c| board.know.public & (1u128 << c) == 0 && board.cv[c] > 0)
                .map(|c| u64::from(initial[c]))
                .sum();
            if total > 0 {
                let mut x = rng.random_range(0..total);
                for (c, &w) in initial.iter().enumerate() {
                    if board.know.public & (1u128 << c) != 0 || board.cv[c] == 0 {
                        continue;
                    }
                    if x < u64::from(w) {
                        return (target, c);
                    }
                    x -= u64::from(w);
                }
            }
        }
        best_cells(&board.cv, board.know.public, scratch);
        (target, scratch[rng.random_range(0..scratch.len())])
    }

    /// The cell the seat's own rollout policy fires at on `target`: a last plane's likeliest
    /// head from [`SNIPE_HEAD`], else the largest CV (ties at random).
    fn my_cell(&self, target: Seat, rng: &mut SmallRng, scratch: &mut Vec<usize>) -> usize {
        let board = &self.boards[target.index()];
        let values = if board.planes_left(self.universe) == 1 && board.safety() >= SNIPE_HEAD {
            &board.heads
        } else {
            &board.cv
        };
        best_cells(values, board.know.public, scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// The seat's own rollout shot: `points`'s rule (a knockout within reach, else the board
    /// whose owner is not the one predicted to fire at it; ties to the safer board, then the
    /// higher total).
    fn my_shot(&self, rng: &mut SmallRng, scratch: &mut Vec<usize>) -> (Seat, usize) {
        let me = self.me;
        let targets = self.targets(me);
        if targets.len() == 1 {
            return (targets[0], self.my_cell(targets[0], rng, scratch));
        }
        let snipe = targets
            .iter()
            .copied()
            .filter(|t| {
                let b = &self.boards[t.index()];
                b.planes_left(self.universe) == 1 && b.safety() >= SNIPE_HEAD
            })
            .max_by(|a, b| {
                self.boards[a.index()]
                    .safety()
                    .total_cmp(&self.boards[b.index()].safety())
            });
        let target = snipe.unwrap_or_else(|| {
            let at_me = |shooter: Seat| {
                self.seed_cv_targets(shooter)
                    .into_iter()
                    .find(|(s, _)| *s == me)
                    .map_or(0.0, |(_, p)| p)
            };
            let key = |t: Seat| {
                let other = targets.iter().copied().find(|s| *s != t).unwrap_or(t);
                (
                    at_me(other),
                    self.boards[t.index()].safety(),
                    self.totals[t.index()],
                )
            };
            let (a, b) = (targets[0], targets[1]);
            let (ka, kb) = (key(a), key(b));
            if (kb.0, kb.1, kb.2)
                .partial_cmp(&(ka.0, ka.1, ka.2))
                .is_some_and(|o| o.is_gt())
            {
                b
            } else {
                a
            }
        });
        (target, self.my_cell(target, rng, scratch))
    }

    /// Plays the round out from `first`'s shot at `cell` of `target` (the seat's own), every
    /// later turn by the rollout policies; the points the seat gained.
    fn play_out(mut self, target: Seat, cell: usize, rng: &mut SmallRng, initial: &[u32]) -> u32 {
        let mut scratch = Vec::with_capacity(81);
        self.fire(self.me, target, cell);
        let mut shooter = self.me;
        // At most every cell of every board is shot once.
        for _ in 0..3 * self.universe.cells {
            if self.left() < 2 || !self.boards[self.me.index()].in_round {
                break;
            }
            shooter = (1..=3)
                .map(|k| Seat(((shooter.index() + k) % 3) as u8))
                .find(|s| self.boards[s.index()].in_round)
                .expect("two players left");
            let (t, c) = if shooter == self.me {
                self.my_shot(rng, &mut scratch)
            } else {
                self.seed_cv_shot(shooter, rng, initial, &mut scratch)
            };
            self.fire(shooter, t, c);
        }
        self.gained
    }
}

/// Per cell, the prior weight (`weights`, per deployment, scaled to integers: 1.0 is 1,000) of
/// the consistent deployments `alive` with a standing head there.
fn weighted_heads(universe: &Universe, know: &Knowledge, alive: &[u16], weights: &[f64]) -> Vec<u32> {
    let mut heads = vec![0.0f64; universe.cells];
    for &i in alive {
        let d = &universe.deployments[usize::from(i)];
        for (k, &p) in d.planes.iter().enumerate() {
            if (k == 0 || p != d.planes[0]) && !know.downed.contains(&p) {
                heads[usize::from(universe.placement_head[usize::from(p)])] += weights[usize::from(i)];
            }
        }
    }
    heads.iter().map(|&h| (h * 1000.0).round() as u32).collect()
}

/// A candidate first shot and what the rollouts gave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The board fired at.
    pub target: Seat,
    /// The cell (bit index) fired at in the rollouts.
    pub cell: usize,
    /// Mean points the seat gained over the rollouts.
    pub mean: f64,
}

/// The search's result: each candidate's mean and the number of rollouts each got.
#[derive(Clone, Debug)]
pub struct Search {
    /// One per candidate first shot, in the order tried.
    pub candidates: Vec<Candidate>,
    /// Rollouts per candidate.
    pub rollouts: usize,
}

impl Search {
    /// The candidate with the highest mean (the first on a tie).
    pub fn best(&self) -> Option<Candidate> {
        self.candidates
            .iter()
            .copied()
            .reduce(|a, b| if b.mean > a.mean { b } else { a })
    }
}

/// Runs the Monte Carlo for the seat of `view` (its turn, two opponents left): candidates are,
/// on each target board, the rollout policy's largest-CV cell and, when different, the likeliest
/// head; each gets up to `max_rollouts` rollouts within `budget` of wall time from `started`.
/// None when the view is not such a round.
pub fn search(
    view: &View,
    rng: &mut dyn RngCore,
    max_rollouts: usize,
    started: Instant,
    budget: Duration,
    weights: &[Option<Vec<f64>>],
) -> Option<Search> {
    if max_rollouts == 0 {
        return None;
    }
    let me = super::me(view);
    let mut root = Sim::draw(view, rng)?;
    let targets = root.targets(me);
    if targets.len() != 2 {
        return None;
    }
    let universe = root.universe;
    let (initial, _, _) = cube_values(universe, &Knowledge::default());
    let priors = Priors::of(&root, weights);
    let mut scratch = Vec::new();
    let mut firsts: Vec<(Seat, usize)> = Vec::new();
    for &t in &targets {
        let b = &root.boards[t.index()];
        best_cells(&b.cv, b.know.public, &mut scratch);
        firsts.push((t, scratch[0]));
        let heads = match weights.get(t.index()) {
            Some(Some(w)) => weighted_heads(universe, &b.know, &b.alive_list(), w),
            _ => b.heads.clone(),
        };
        best_cells(&heads, b.know.public, &mut scratch);
        if heads.iter().any(|&h| h > 0) && !firsts.contains(&(t, scratch[0])) {
            firsts.push((t, scratch[0]));
        }
    }
    let mut sums = vec![0u64; firsts.len()];
    let mut rollouts = 0;
    while rollouts < max_rollouts && (rollouts < 2 || started.elapsed() < budget) {
        root.redraw(rng, &priors);
        let seed = rng.next_u64();
        for (k, &(t, c)) in firsts.iter().enumerate() {
            let mut r = SmallRng::seed_from_u64(seed);
            sums[k] += u64::from(root.clone().play_out(t, c, &mut r, &initial));
        }
        rollouts += 1;
    }
    let n = rollouts.max(1) as f64;
    Some(Search {
        candidates: firsts
            .iter()
            .zip(&sums)
            .map(|(&(target, cell), &s)| Candidate {
                target,
                cell,
                mean: s as f64 / n,
            })
            .collect(),
        rollouts,
    })
}

#[cfg(test)]
pub(super) mod tests;
