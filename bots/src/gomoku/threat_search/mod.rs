//! The `threat-search` strategy: iterative-deepening PVS over threat-ordered candidates, with
//! incrementally updated line patterns, a Zobrist transposition table, killer and history
//! ordering, a VCF (victory by continuous fours) solver used at the root to win and to defend,
//! and a VCT (victory by continuous threats) solver used at the root to win.
//!
//! One move, in order: play a five; block the opponent's five; play the first move of a VCF if
//! there is one, else of a VCT (continuous fours and open threes) if there is one; drop the candidates after which the opponent has a VCF; then search the rest
//! (near stones, threat moves first) deeper and deeper until the time budget or the node limit
//! runs out. Under renju as black it never plays a forbidden point: inside the search a fast
//! pattern check prunes them, and every root candidate is checked with [`Board::forbidden`].

mod pattern;
mod position;
mod search;

use skirmish_protocol::BotInfo;
use skirmish_protocol::info::Belief;
use std::time::Instant;

use rand::RngCore;
use skirmish_games::gomoku::{Action, Board, Point, Rule, Stone, View};

use super::{Budget, GomokuStrategy, SearchStats};
use pattern::{FIVE, FLEX3, OVERLINE};
use position::Position;
use search::{Limits, Searcher, WIN, Work};

/// Fours the root VCF search may chain (for the side to move).
pub const VCF_DEPTH: u32 = 24;
/// VCF nodes for the side to move's own forced win at the root, per second of thinking time
/// (or in all with a node limit).
pub const VCF_NODES: u64 = 60_000;
/// VCF nodes for the opponent's forced win after each root candidate (the defence check), per
/// second of thinking time (or in all with a node limit).
pub const DEFENCE_VCF_NODES: u64 = 8_000;
/// Threats (fours and open threes) the root VCT search may chain.
pub const VCT_DEPTH: u32 = 7;
/// VCT work units (VCT nodes plus the VCF nodes they spend) for the side to move's forced win
/// at the root, per second of thinking time (or in all with a node limit).
pub const VCT_NODES: u64 = 40_000;
/// Root candidates searched (the best by threat ordering), in points.
pub const ROOT_WIDTH: usize = 24;
/// VCT work units for the opponent's forced win after each root candidate, when the opponent
/// threatens one (the VCT defence), per second of thinking time (or in all with a node limit).
pub const DEFENCE_VCT_NODES: u64 = 10_000;
/// Fraction of the alpha-beta search's window (from its start, after the threat solvers, to
/// its deadline at 80% of the think time) after which no new deepening iteration starts, in a
/// quiet position.
pub const SOFT_STOP: f64 = 0.375;
/// The same fraction in a sharp position (the opponent threatens a VCT, or the last iteration
/// changed the best move or lost more than [`UNSTABLE_DROP`]).
pub const SHARP_STOP: f64 = 0.6;
/// A fall of the root score between iterations, in evaluation units (an open three is 40 a
/// line), that marks the position as unstable.
pub const UNSTABLE_DROP: i32 = 60;

/// The threat-search player. With a node limit (see [`ThreatSearch::with_node_limit`]) it
/// ignores the clock and is deterministic; otherwise it thinks for about `Budget::think`.
pub struct ThreatSearch {
    node_limit: Option<u64>,
    searcher: Option<Searcher>,
    stats: Option<SearchStats>,
    /// What the last decision thought ([`GomokuStrategy::info`]), until taken.
    last: Option<BotInfo>,
}

impl Default for ThreatSearch {
    fn default() -> Self {
        ThreatSearch::new()
    }
}

impl ThreatSearch {
    /// A player that uses the time budget of each move.
    pub fn new() -> ThreatSearch {
        ThreatSearch {
            node_limit: None,
            searcher: None,
            stats: None,
            last: None,
        }
    }

    /// A player that searches `nodes` alpha-beta nodes per move (plus its VCF checks) whatever
    /// the clock says: deterministic, for tests.
    pub fn with_node_limit(nodes: u64) -> ThreatSearch {
        ThreatSearch {
            node_limit: Some(nodes),
            ..ThreatSearch::new()
        }
    }

    fn choose(&mut self, view: &View, budget: Budget) -> Option<Point> {
        let start = Instant::now();
        let me = view.stone_to_move()?;
        let board = view.board();
        let size = board.size();
        if board.stones() == 0 {
            return Some(Point::new(size / 2, size / 2));
        }
        let mut pos = Position::new(&board, view.rule, me);
        let n = pos.cells.len();
        let searcher = match &mut self.searcher {
            Some(s) if s_fits(s, n) => s,
            slot => slot.insert(Searcher::new(n)),
        };
        let black_renju = view.rule == Rule::Renju && me == Stone::Black;
        let legal = |i: usize| !black_renju || board.forbidden(Point::from_index(i, size)).is_none();
        let s = pos.side;
        let o = s ^ 1;
        let mut cands: Vec<usize> = (0..n)
            .filter(|&i| pos.cells[i] == 0 && pos.near[i] > 0)
            .filter(|&i| legal(i))
            .collect();
        if cands.is_empty() {
            cands = (0..n).filter(|&i| pos.cells[i] == 0 && legal(i)).collect();
        }
        let mut nodes = 0u64;
        // Budgets of the threat solvers scale with the thinking time (fixed with a node limit).
        let scale = if self.node_limit.is_some() {
            1.0
        } else {
            budget.think.as_secs_f64().clamp(0.02, 30.0)
        };
        let scaled = |n: u64| ((n as f64 * scale) as u64).max(50);
        let over =
            |fraction: f64| self.node_limit.is_none() && start.elapsed() > budget.think.mul_f64(fraction);
        let mut depth_done = 0;
        let pick = |i: usize| Some(Point::from_index(i, size));
        let finish = |this: &mut Option<SearchStats>, nodes: u64, depth: u32| {
            *this = Some(SearchStats {
                nodes,
                depth,
                elapsed: start.elapsed(),
            });
        };
        // A forced line's info: its score, and the move as the line (the solvers keep none).
        let forced = |last: &mut Option<BotInfo>, i: usize, score: i32, nodes: u64| {
            *last = Some(info(score, 0, nodes, &[i], size));
        };
        if cands.is_empty() {
            return None;
        }
        cands.sort_by_key(|&i| (std::cmp::Reverse(Searcher::move_score(&pos, i)), i));
        // A five.
        if let Some(&i) = cands.iter().find(|&&i| pos.pat[s][i].contains(&FIVE)) {
            finish(&mut self.stats, 0, 0);
            forced(&mut self.last, i, WIN, 0);
            return pick(i);
        }
        // The opponent's five must be blocked (if there are two, we lose anyway).
        if let Some(&i) = cands.iter().find(|&&i| pos.pat[o][i].contains(&FIVE)) {
            finish(&mut self.stats, 0, 0);
            return pick(i);
        }
        // Our own forced win by continuous fours.
        let work = |n: u64, fraction: f64| Work {
            left: scaled(n),
            deadline: self
                .node_limit
                .is_none()
                .then(|| start + budget.think.mul_f64(fraction)),
        };
        let mut vcf_work = work(VCF_NODES, 0.2);
        let found = Searcher::vcf(&mut pos, VCF_DEPTH, &mut vcf_work);
        nodes += scaled(VCF_NODES) - vcf_work.left;
        if let Some(i) = found.filter(|&i| cands.contains(&i)) {
            finish(&mut self.stats, nodes, 0);
            forced(&mut self.last, i, WIN, nodes);
            return pick(i);
        }
        // Our own forced win by continuous threats (fours and open threes).
        let mut vct_work = work(VCT_NODES, 0.35);
        let found = Searcher::vct(&mut pos, VCT_DEPTH, &mut vct_work);
        nodes += scaled(VCT_NODES) - vct_work.left;
        if let Some(i) = found.filter(|&i| cands.contains(&i)) {
            finish(&mut self.stats, nodes, 0);
            forced(&mut self.last, i, WIN, nodes);
            return pick(i);
        }
        // Defence: avoid candidates that leave the opponent a VCF.
        let mut safe = Vec::new();
        for &i in cands.iter().take(ROOT_WIDTH * 2) {
            if over(0.4) {
                // Out of time for checks: keep the rest unchecked.
                safe.push(i);
                continue;
            }
            pos.make(i);
            let mut b = work(DEFENCE_VCF_NODES, 0.45);
            let theirs = Searcher::vcf(&mut pos, VCF_DEPTH, &mut b);
            nodes += scaled(DEFENCE_VCF_NODES) - b.left;
            pos.unmake();
            if theirs.is_none() {
                safe.push(i);
            }
            if safe.len() >= ROOT_WIDTH {
                break;
            }
        }
        let mut moves = if safe.is_empty() {
            cands.iter().copied().take(ROOT_WIDTH).collect()
        } else {
            safe
        };
        // VCT defence: when the opponent, given a free move here, would have a VCT, keep only
        // the candidates after which it has none (if any does).
        let mut sharp = false;
        if moves.len() > 1 && !over(0.4) {
            pos.side ^= 1;
            let mut w = work(VCT_NODES / 2, 0.4);
            let threat = Searcher::vct(&mut pos, VCT_DEPTH, &mut w);
            nodes += scaled(VCT_NODES / 2) - w.left;
            pos.side ^= 1;
            if threat.is_some() {
                sharp = true;
                let refuting = refutations(
                    self.node_limit.is_none(),
                    &mut pos,
                    &moves,
                    &cands,
                    start,
                    budget,
                    &mut nodes,
                );
                if !refuting.is_empty() {
                    moves = refuting;
                }
            }
        }
        if moves.len() == 1 {
            finish(&mut self.stats, nodes, 0);
            return pick(moves[0]);
        }
        let think = budget.think;
        let deadline = self.node_limit.is_none().then(|| start + think.mul_f64(0.8));
        searcher.start(Limits {
            deadline,
            node_limit: self.node_limit,
        });
        let ab_start = Instant::now();
        let mut best = moves[0];
        let mut last: Option<(usize, i32)> = None;
        let mut score = 0;
        for depth in 1..=40 {
            let (m, v, complete) = root(searcher, &mut pos, &mut moves, depth);
            if let Some(m) = m {
                best = m;
            }
            if complete {
                depth_done = depth as u32;
                score = v;
            }
            if !complete || v.abs() > WIN - 200 {
                break;
            }
            // Time use: a new iteration starts while less than `SOFT_STOP` of the search's
            // window (from its start to the deadline) is spent, or `SHARP_STOP` when the
            // position is sharp (the opponent threatens a VCT, or the last iteration changed
            // its mind or lost ground); the deadline inside the search stays at 80% of the
            // think time either way.
            let unstable = last.is_some_and(|(m0, v0)| m0 != best || v < v0 - UNSTABLE_DROP);
            last = Some((best, v));
            let soft = if sharp || (depth >= 4 && unstable) {
                SHARP_STOP
            } else {
                SOFT_STOP
            };
            if deadline
                .is_some_and(|d| ab_start.elapsed() > d.saturating_duration_since(ab_start).mul_f64(soft))
            {
                break;
            }
        }
        nodes += searcher.nodes;
        finish(&mut self.stats, nodes, depth_done);
        let line = searcher.pv(&mut pos, best, PV_MOVES);
        self.last = Some(info(score, depth_done, nodes, &line, size));
        pick(best)
    }
}

/// The root candidates after which the opponent has no VCT: the searched `moves` first,
/// then any other candidate among `cands` where the opponent would make an open three or
/// more (a refutation the threat ordering left out; these are checked for a VCF too). Each
/// check spends at most [`DEFENCE_VCT_NODES`] work units per second of thinking time, and the
/// checks stop at 50% of it. The moves proved to leave no VCT within the work, or, when none
/// is proved, those whose check ran out of work without finding one (empty: every checked
/// move loses to a VCT, or none was checked).
fn refutations(
    clocked: bool,
    pos: &mut Position,
    moves: &[usize],
    cands: &[usize],
    start: Instant,
    budget: Budget,
    nodes: &mut u64,
) -> Vec<usize> {
    let scale = if clocked {
        budget.think.as_secs_f64().clamp(0.02, 30.0)
    } else {
        1.0
    };
    let per = ((DEFENCE_VCT_NODES as f64 * scale) as u64).max(50);
    let deadline = clocked.then(|| start + budget.think.mul_f64(0.5));
    let o = pos.side ^ 1;
    let extra: Vec<usize> = cands
        .iter()
        .copied()
        .filter(|i| !moves.contains(i) && pos.pat[o][*i].iter().any(|&x| x >= FLEX3 && x != OVERLINE))
        .collect();
    let mut proved = Vec::new();
    let mut unknown = Vec::new();
    for i in moves.iter().copied().chain(extra).take(ROOT_WIDTH * 2) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        pos.make(i);
        let mut w = Work { left: per, deadline };
        // A point outside `moves` has not had the VCF defence check yet.
        let vcf = !moves.contains(&i) && Searcher::vcf(pos, VCF_DEPTH, &mut w).is_some();
        let theirs = vcf || Searcher::vct(pos, VCT_DEPTH, &mut w).is_some();
        *nodes += per - w.left;
        pos.unmake();
        if !theirs {
            // Out of work, the check could not tell.
            if w.left > 0 {
                proved.push(i)
            } else {
                unknown.push(i)
            }
        }
    }
    if proved.is_empty() { unknown } else { proved }
}

/// A decision's info ([`BotInfo`]): the search's `score` (evaluation units, a won line [`WIN`])
/// and its expected result ([`eval_of`]), `depth` plies searched, `nodes` visited, and `line`
/// (point indices on a board `size` wide) as the principal variation.
fn info(score: i32, depth: u32, nodes: u64, line: &[usize], size: u8) -> BotInfo {
    BotInfo {
        score: Some(i64::from(score)),
        depth: Some(depth),
        nodes: Some(nodes),
        pv: line
            .iter()
            .map(|&i| Point::from_index(i, size).to_string())
            .collect(),
        belief: Some(Belief::Gomoku { eval: eval_of(score) }),
    }
}

fn s_fits(s: &Searcher, n: usize) -> bool {
    s.points() == n
}

/// One root iteration: the best move and its score, and whether the iteration completed. The
/// best move is moved to the front of `moves`.
fn root(
    searcher: &mut Searcher,
    pos: &mut Position,
    moves: &mut [usize],
    depth: i32,
) -> (Option<usize>, i32, bool) {
    let mut alpha = -WIN - 1;
    let beta = WIN + 1;
    let mut best: Option<(usize, usize)> = None;
    for (k, &m) in moves.iter().enumerate() {
        pos.make(m);
        let mut v;
        if k == 0 {
            v = -searcher.search(pos, depth - 1, -beta, -alpha, 1);
        } else {
            v = -searcher.search(pos, depth - 1, -alpha - 1, -alpha, 1);
            if v > alpha && !searcher.aborted {
                v = -searcher.search(pos, depth - 1, -beta, -alpha, 1);
            }
        }
        pos.unmake();
        if searcher.aborted {
            break;
        }
        if v > alpha {
            alpha = v;
            best = Some((k, m));
        }
    }
    let complete = !searcher.aborted;
    match best {
        Some((k, m)) => {
            moves[..=k].rotate_right(1);
            (Some(m), alpha, complete)
        }
        None => (None, 0, complete),
    }
}

impl GomokuStrategy for ThreatSearch {
    fn act(&mut self, view: &View, budget: Budget, _rng: &mut dyn RngCore) -> Action {
        self.last = None;
        match self.choose(view, budget) {
            Some(point) => Action::Place { point },
            None => Action::Resign {
                reason: Some("no legal point".to_owned()),
            },
        }
    }

    fn stats(&self) -> Option<SearchStats> {
        self.stats
    }

    fn info(&mut self) -> Option<BotInfo> {
        self.last.take()
    }
}

/// The longest principal variation an info carries: 12 moves (about 70 bytes).
const PV_MOVES: usize = 12;

/// The score in the info's evaluation: the expected result in thousandths,
/// `1000 · tanh(score / 400)` (400: ten open threes; a won line, [`WIN`], reads ±1000).
fn eval_of(score: i32) -> i16 {
    (1000.0 * (f64::from(score) / 400.0).tanh()).round() as i16
}

/// The search's fast renju check, for tests: whether the pattern tables forbid black's stone at
/// the empty `point` on `board` (overline, double four, or double three counted without the
/// referee's recursive test of each three's completing point, so never less strict than
/// [`Board::forbidden`]).
pub fn fast_forbidden(board: &Board, point: Point) -> bool {
    let pos = Position::new(board, Rule::Renju, Stone::Black);
    !pos.legal(position::BLACK, point.index(board.size()))
}

/// Whether the side to move on `board` (under `rule`) has a VCF within [`VCF_DEPTH`] fours and
/// `nodes` VCF nodes, and its first four, for tests and analysis.
pub fn find_vcf(board: &Board, rule: Rule, to_move: Stone, nodes: u64) -> Option<Point> {
    let mut pos = Position::new(board, rule, to_move);
    let mut budget = Work {
        left: nodes,
        deadline: None,
    };
    Searcher::vcf(&mut pos, VCF_DEPTH, &mut budget).map(|i| Point::from_index(i, board.size()))
}

/// Whether the side to move on `board` (under `rule`) has a VCT (fours and open threes) within
/// [`VCT_DEPTH`] threats and `nodes` work units, and its first threat, for tests and analysis.
pub fn find_vct(board: &Board, rule: Rule, to_move: Stone, nodes: u64) -> Option<Point> {
    let mut pos = Position::new(board, rule, to_move);
    let mut budget = Work {
        left: nodes,
        deadline: None,
    };
    Searcher::vct(&mut pos, VCT_DEPTH, &mut budget).map(|i| Point::from_index(i, board.size()))
}
