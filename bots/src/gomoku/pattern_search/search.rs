//! The main search: principal variation search with iterative deepening and aspiration windows
//! over threat-aware candidates (a forced block, the defences against an open three, else the
//! points near stones best first by pattern value), a transposition table, killer and history
//! ordering, late move reductions, and at the leaves the static score when it already reaches
//! beta (standing pat), else a VCF probe and, against an open three, the search of its answers
//! instead of a static score (a quiescence search of threats).

use super::board::Position;
use super::eval::{WIN, WIN_THRESHOLD, Weights, evaluate};
use super::line::{B4, C_B4, C_B4F3, C_F3, C_F4, C_FIVE, FIVE, FORBIDDEN, OVERLINE};
use super::time::Clock;
use super::tt::{Bound, Table};
use super::vcf::{self, Outcome, Vcf};
use super::vct::Vct;

/// Deepest ply the search reaches (iterations stop before it).
pub const MAX_PLY: usize = 64;
/// Candidates searched in a node without threats, best first by pattern value.
pub const WIDTH: usize = 14;
/// Attacker fours the VCF probe at a leaf may chain.
pub const LEAF_VCF_DEPTH: u32 = 8;
/// VCF nodes the probe at a leaf may visit.
pub const LEAF_VCF_NODES: u64 = 200;
/// Plies from the root within which the defences against an open three are searched without
/// spending depth, also past the nominal depth: a leaf facing an open three is not scored
/// statically (measured in CHANGELOG.md, issue 38).
pub const THREAT_EXTENSION_PLIES: usize = 16;
/// Slots of the VCT search's table, as a power of two (2^18 slots of 16 bytes: 4 MiB).
pub const VCT_TABLE_BITS: u32 = 18;
/// Half-width of the first aspiration window around the last iteration's score, in centipawns.
pub const ASPIRATION: i32 = 50;

/// Move-ordering value of each line pattern (`line::Pat`), for a point's own and opponent
/// patterns alike: fours and flex threes first, then twos.
const ORDER: [i32; 12] = [0, 1, 3, 6, 20, 25, 120, 100, 400, 400, 10_000, 0];
/// Move-ordering bonus of each combination (`line::Combo`).
const COMBO_ORDER: [i32; 9] = [0, 0, 0, 500, 800, 2_000, 5_000, 20_000, 0];

/// Limits of one decision.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub max_depth: u32,
    /// Main-search nodes allowed in one [`Searcher::iterate`] (`u64::MAX`: none), checked every
    /// 256 nodes.
    pub node_limit: u64,
}

/// What a decision found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The move, a padded point index.
    pub best: Option<usize>,
    /// Its score for the side to move, in centipawns (`±(WIN - plies)` for a forced result).
    pub score: i32,
    /// The last completed iteration's depth, in plies (0 when a threat rule decided).
    pub depth: u32,
    /// The principal variation, padded point indices from the move.
    pub pv: Vec<usize>,
    /// The root's moves as the last completed iteration left them (as given when none
    /// completed): its best first, then the moves that were best before it, then the rest in
    /// the order given (padded point indices). A later partial iteration's `best` may stand
    /// elsewhere in it.
    pub order: Vec<usize>,
}

/// Searcher state kept across moves (the tables).
pub struct Searcher {
    tt: Table,
    vcf: Vcf,
    vct: Vct,
    vcf_line: Vec<usize>,
    killers: [[usize; 2]; MAX_PLY],
    history: [Vec<i32>; 2],
    buffers: Vec<Vec<(usize, i32)>>,
    pv: [[usize; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    /// `nodes` when the current [`Searcher::iterate`] began: its node limit counts from there.
    nodes_at_start: u64,
    limits: Limits,
    clock: Clock,
    stopped: bool,
    /// The VCF node count at which the clock is looked at next.
    next_check: u64,
    weights: &'static Weights,
    /// Static score of each node on the current line by ply (`i32::MIN`: none), for `improving`.
    static_eval: [i32; MAX_PLY],
}

/// A mate score relative to the root turned relative to the node at `ply` (for the table).
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// Plies by which the `n`-th candidate (from 0) of a node `depth` plies from its horizon is
/// searched shallower first (a late-move reduction; the caller applies it to quiet moves from
/// the second on at 2 plies or more): ln(depth) x ln(n + 1), one ply more in a null-window node
/// whose static score is not above the one two plies up (`improving`) when that is over a ply,
/// rounded, leaving at least 1 ply. The shape is Rapfi's (its `reduction`, factor 1.0 for
/// freestyle). With the leaves' standing pat, the engine with it scored 60.2% over 108 games at
/// 200 ms a move against the engine with neither (the ln(depth) x ln(n) / 1.5 reductions it
/// replaced, from the fourth move at 3 plies or more); at 1 s, both with standing pat, 50.9% over
/// 54 (CHANGELOG.md, issue 38).
fn reduction(depth: i32, n: usize, pv_node: bool, improving: bool) -> i32 {
    let base = f64::from(depth).ln() * ((n + 1) as f64).ln();
    let extra = if !pv_node && !improving && base > 1.0 {
        1.0
    } else {
        0.0
    };
    ((base + extra + 0.5) as i32).clamp(0, (depth - 1).max(0))
}

/// The ordering value of `side` playing empty point `i`: its own patterns (weighted up a
/// quarter: attack first) and the opponent's it blocks.
pub fn move_score(pos: &Position, side: usize, i: usize) -> i32 {
    let v = |s: usize| -> i32 {
        let packed = pos.packed(s, i);
        [0, 4, 8, 12]
            .iter()
            .map(|&shift| ORDER[usize::from((packed >> shift) & 15).min(ORDER.len() - 1)])
            .sum::<i32>()
            + COMBO_ORDER[usize::from(pos.combo(s, i)).min(7)]
    };
    v(side) * 5 / 4 + v(side ^ 1)
}

impl Searcher {
    /// A searcher with a `tt_mib` MiB transposition table.
    pub fn new(tt_mib: usize, weights: &'static Weights) -> Searcher {
        Searcher {
            tt: Table::new(tt_mib),
            vcf: Vcf::new(16),
            vct: Vct::new(VCT_TABLE_BITS),
            vcf_line: Vec::new(),
            killers: [[usize::MAX; 2]; MAX_PLY],
            history: [Vec::new(), Vec::new()],
            buffers: vec![Vec::new(); MAX_PLY],
            pv: [[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            nodes: 0,
            nodes_at_start: 0,
            limits: Limits {
                max_depth: MAX_PLY as u32 - 4,
                node_limit: u64::MAX,
            },
            clock: Clock::new(None),
            stopped: false,
            next_check: 0,
            weights,
            static_eval: [i32::MIN; MAX_PLY],
        }
    }

    /// Main-search, VCF and VCT nodes visited since the searcher was made.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.vcf.nodes() + self.vct.nodes()
    }

    /// Stops the VCF and VCT solvers from `deadline` on, whatever their node budgets (`None`:
    /// node budgets alone, as node-limited play needs to stay deterministic).
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.vcf.set_deadline(deadline);
        self.vct.set_deadline(deadline);
    }

    /// The VCT search (its own table), for the root's threat checks.
    pub fn vct(&mut self) -> &mut Vct {
        &mut self.vct
    }

    /// The VCF solver (shared table), for the root's threat checks.
    pub fn vcf(&mut self) -> &mut Vcf {
        &mut self.vcf
    }

    /// The candidates of the side to move, threat-aware: only the opponent's five point when it
    /// has one; against a flex-four threat (an open three, a four-three...) only the points
    /// where either side makes a four or better; else the points within two of a stone (and any
    /// farther four), best first, at most [`WIDTH`] when `cap`. Black's forbidden points under
    /// renju (by the pattern check, which forbids a little more than the rules) are left out.
    pub fn candidates(pos: &Position, out: &mut Vec<(usize, i32)>, cap: bool) {
        Self::gather(pos, out, cap);
        out.sort_unstable_by_key(|&(i, v)| (std::cmp::Reverse(v), i));
    }

    /// The points [`Searcher::candidates`] gives, in no particular order.
    fn gather(pos: &Position, out: &mut Vec<(usize, i32)>, cap: bool) {
        out.clear();
        let s = pos.side();
        let o = s ^ 1;
        let allowed = |i: usize| pos.combo(s, i) != FORBIDDEN;
        if pos.has(o, C_FIVE) > 0 {
            out.extend(pos.fives(o).iter().filter(|&i| allowed(i)).map(|i| (i, 0)));
            return;
        }
        let threatened = pos.has(o, C_F4) > 0;
        if threatened {
            for &i in pos.points() {
                if !pos.is_empty(i) || !allowed(i) {
                    continue;
                }
                let mine = pos.combo(s, i);
                if vcf::is_four(mine)
                    || mine == C_FIVE
                    || pos.pats(o, i).iter().any(|&p| p >= B4 && p != OVERLINE)
                {
                    out.push((i, move_score(pos, s, i)));
                }
            }
            return;
        }
        // The points near a stone, and any farther four or five (`combo >= C_B4`; a
        // forbidden point is not allowed).
        let near = pos.near_points().union(pos.fours(s)).union(pos.fives(s));
        out.extend(
            near.iter()
                .filter(|&i| allowed(i))
                .map(|i| (i, move_score(pos, s, i))),
        );
        if cap && out.len() > WIDTH {
            out.select_nth_unstable_by_key(WIDTH - 1, |&(i, v)| (std::cmp::Reverse(v), i));
            out.truncate(WIDTH);
        }
    }

    fn check_stop(&mut self) {
        if self.nodes - self.nodes_at_start >= self.limits.node_limit || self.clock.hard_stop() {
            self.stopped = true;
        }
    }

    /// Searches `root` (the root's candidates, best first, padded indices; not empty) by
    /// iterative deepening under `limits` and `clock` (`sharp`: the position starts sharp, see
    /// [`super::time::SHARP_SHARE`]); returns the last completed iteration's move, score, depth
    /// and principal variation (or a later partial iteration's move when it beat the previous
    /// best).
    pub fn iterate(
        &mut self,
        pos: &mut Position,
        root: &[usize],
        limits: Limits,
        clock: Clock,
        sharp: bool,
    ) -> Report {
        self.limits = limits;
        self.nodes_at_start = self.nodes;
        self.clock = clock;
        self.stopped = false;
        self.tt.new_search();
        let cells = pos.points().last().map_or(0, |&i| i + 1) + 8 * usize::from(pos.size());
        for h in &mut self.history {
            if h.len() < cells {
                *h = vec![0; cells];
            }
            h.iter_mut().for_each(|v| *v /= 8);
        }
        self.killers = [[usize::MAX; 2]; MAX_PLY];
        let mut moves: Vec<usize> = root.to_vec();
        let mut report = Report {
            best: moves.first().copied(),
            order: root.to_vec(),
            ..Report::default()
        };
        let mut score: i32 = 0;
        let mut sharp = sharp;
        for depth in 1..=limits.max_depth.min(MAX_PLY as u32 - 4) {
            if depth > 1 && !self.clock.may_deepen(sharp) {
                break;
            }
            let mut window = ASPIRATION;
            let (mut alpha, mut beta) = if depth >= 3 && score.abs() < WIN_THRESHOLD {
                (score - window, score + window)
            } else {
                (-WIN - 1, WIN + 1)
            };
            let result = loop {
                let r = self.root_search(pos, &mut moves, alpha, beta, depth as i32);
                if self.stopped {
                    break r;
                }
                if r <= alpha && alpha > -WIN - 1 {
                    window *= 4;
                    alpha = if window > 1000 { -WIN - 1 } else { r - window };
                } else if r >= beta && beta < WIN + 1 {
                    window *= 4;
                    beta = if window > 1000 { WIN + 1 } else { r + window };
                } else {
                    break r;
                }
            };
            if self.stopped {
                // A partial iteration counts when its first (the previous best) move was
                // searched and another beat it.
                if depth > 1 && moves.first() != report.best.as_ref() && result > score {
                    report.best = moves.first().copied();
                    report.pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                break;
            }
            let changed = moves.first() != report.best.as_ref();
            sharp = changed || result < score - super::time::UNSTABLE_DROP;
            score = result;
            report.best = moves.first().copied();
            report.score = score;
            report.depth = depth;
            report.pv = self.pv[0][..self.pv_len[0]].to_vec();
            report.order.clone_from(&moves);
            if score.abs() > WIN_THRESHOLD && depth as i32 > WIN - score.abs() + 1 {
                break;
            }
        }
        report
    }

    fn root_search(
        &mut self,
        pos: &mut Position,
        moves: &mut [usize],
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        let mut best = -WIN - 1;
        self.pv_len[0] = 0;
        for n in 0..moves.len() {
            let m = moves[n];
            pos.make(m);
            let mut score;
            if n == 0 {
                score = -self.pvs(pos, -beta, -alpha, depth - 1, 1);
            } else {
                score = -self.pvs(pos, -alpha - 1, -alpha, depth - 1, 1);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(pos, -beta, -alpha, depth - 1, 1);
                }
            }
            pos.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(0, m);
                    moves[..=n].rotate_right(1);
                }
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    fn set_pv(&mut self, ply: usize, m: usize) {
        self.pv[ply][ply] = m;
        let child = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child;
    }

    fn pvs(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        // Leaf VCF probes count too: a thousand main nodes may hold many VCF nodes.
        if self.nodes & 255 == 0 || self.vcf.nodes() >= self.next_check {
            self.next_check = self.vcf.nodes() + 2_048;
            self.check_stop();
        }
        if self.stopped {
            return 0;
        }
        let s = pos.side();
        let o = s ^ 1;
        let p = ply as i32;
        if pos.has(s, C_FIVE) > 0 {
            return WIN - p - 1;
        }
        let their_fives = pos.has(o, C_FIVE);
        if their_fives >= 2 {
            return -(WIN - p - 2);
        }
        if their_fives == 0 && pos.has(s, C_F4) > 0 {
            return WIN - p - 3;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos, self.weights);
        }
        if depth <= 0 && their_fives == 0 {
            // Standing pat: a static score already at beta ends the line (a four of its own can
            // only raise it); not against an open three, which the static score misreads.
            // The probe below leaves the position as it found it, so the score stays valid.
            let calm = pos.has(o, C_F4) == 0;
            let stand = calm.then(|| evaluate(pos, self.weights));
            if let Some(score) = stand
                && score >= beta
            {
                return score;
            }
            if pos.has(s, C_B4) + pos.has(s, C_B4F3) > 0 {
                let outcome = self
                    .vcf
                    .solve(pos, LEAF_VCF_DEPTH, LEAF_VCF_NODES, &mut self.vcf_line);
                if outcome == Outcome::Win {
                    return WIN - p - self.vcf_line.len() as i32;
                }
            }
            // Facing an open three (a flex four to make), the side to move may not stand pat:
            // its answers (the blocks and its own fours) are searched on, as near the root.
            if calm || ply >= THREAT_EXTENSION_PLIES {
                return stand.unwrap_or_else(|| evaluate(pos, self.weights));
            }
        }
        let key = pos.hash();
        let mut tt_move = usize::MAX;
        if let Some(e) = self.tt.probe(key) {
            tt_move = usize::from(e.mv);
            if i32::from(e.depth) >= depth && beta - alpha == 1 {
                let sc = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => sc >= beta,
                    Bound::Upper => sc <= alpha,
                };
                if cut {
                    return sc;
                }
            }
        }
        // The static score for `improving` (against a threat: the parent's, negated).
        let static_eval = if their_fives > 0 || pos.has(o, C_F4) > 0 {
            match self.static_eval[ply - 1] {
                i32::MIN => i32::MIN,
                parent => -parent,
            }
        } else {
            evaluate(pos, self.weights)
        };
        self.static_eval[ply] = static_eval;
        let improving = ply >= 2
            && static_eval != i32::MIN
            && self.static_eval[ply - 2] != i32::MIN
            && static_eval > self.static_eval[ply - 2];
        let pv_node = beta - alpha > 1;
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        // In no order yet: sorted once the table move, killers and history are added.
        Self::gather(pos, &mut moves, true);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return if their_fives > 0 {
                -(WIN - p - 2)
            } else {
                evaluate(pos, self.weights)
            };
        }
        for (m, v) in moves.iter_mut() {
            if *m == tt_move {
                *v = i32::MAX;
            } else {
                if self.killers[ply].contains(m) {
                    *v += 3_000;
                }
                *v += self.history[s][*m].min(2_000);
            }
        }
        moves.sort_unstable_by_key(|&(i, v)| (std::cmp::Reverse(v), i));
        // Forced replies cost no depth: the block of a four, and (while the line is short
        // enough that counter-threats cannot run away) the defences against an open three.
        let threatened = their_fives == 0 && pos.has(o, C_F4) > 0;
        let extension =
            i32::from(their_fives == 1 || (threatened && moves.len() <= 5 && ply < THREAT_EXTENSION_PLIES));
        let alpha_orig = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        for n in 0..moves.len() {
            let m = moves[n].0;
            let quiet = pos.combo(s, m) < C_F3 && !pos.pats(o, m).iter().any(|&q| (B4..=FIVE).contains(&q));
            let new_depth = depth - 1 + extension;
            pos.make(m);
            let mut score;
            if n == 0 {
                score = -self.pvs(pos, -beta, -alpha, new_depth, ply + 1);
            } else {
                let r = if depth >= 2 && quiet {
                    reduction(depth, n, pv_node, improving)
                } else {
                    0
                };
                score = -self.pvs(pos, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.pvs(pos, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(pos, -beta, -alpha, new_depth, ply + 1);
                }
            }
            pos.unmake();
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            self.history[s][m] += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, to_tt(best, ply), best_move, depth, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::reduction;

    #[test]
    fn reductions_grow_with_depth_and_move_number_and_always_leave_a_ply() {
        // ln 2 x ln 2 rounds to nothing: the second move at 2 plies is searched in full.
        assert_eq!(reduction(2, 1, true, true), 0);
        // ln 6 x ln 11 = 4.3 plies.
        assert_eq!(reduction(6, 10, true, true), 4);
        // A null-window node that is not improving reduces one ply more.
        assert_eq!(reduction(6, 10, false, false), 5);
        assert_eq!(reduction(6, 10, false, true), 4);
        // However late the move, at least one ply is left.
        assert_eq!(reduction(3, 60, false, false), 2);
        assert_eq!(reduction(1, 60, false, false), 0);
        for depth in 1..40 {
            for n in 0..80 {
                let r = reduction(depth, n, n % 2 == 0, n % 3 == 0);
                assert!((0..depth.max(1)).contains(&r), "depth {depth} n {n}: {r}");
            }
        }
    }
}
