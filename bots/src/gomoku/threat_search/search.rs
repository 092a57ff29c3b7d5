//! Iterative-deepening PVS over threat-ordered candidates, with a transposition table, killer and
//! history move ordering, and a VCF (victory by continuous fours) solver.

use std::time::Instant;

use super::pattern::{BLOCK4, DOUBLE4, FIVE, FLEX3, FLEX4};
use super::position::{Colour, Position, VALUE};

/// Score of a win at the root; a win found `ply` plies deep scores `WIN - ply`.
pub(crate) const WIN: i32 = 30_000;
const MATE_BOUND: i32 = WIN - 200;
const MAX_PLY: usize = 64;
/// Moves searched at an unforced inner node (the best by threat ordering).
const WIDTH: usize = 14;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i8,
    bound: u8, // 0 exact, 1 lower, 2 upper
    best: u16,
}

pub(crate) struct Limits {
    pub(crate) deadline: Option<Instant>,
    pub(crate) node_limit: Option<u64>,
}

pub(crate) struct Searcher {
    tt: Vec<Entry>,
    history: Vec<u32>,
    killers: [[u16; 2]; MAX_PLY + 1],
    pub(crate) nodes: u64,
    pub(crate) aborted: bool,
    limits: Limits,
}

const NO_MOVE: u16 = u16::MAX;

/// The weight of the side to move's promise in the evaluation, in fifths of the opponent's: the
/// side to move has the initiative, so its points count more. 7: against figrid 1.2.0 built with
/// `codebook-eval`, freestyle, 1 s a move, 54 games, 7 scored best of 4, 6, 7 and 8 (the
/// command is in bots/README.md, "Gomoku benchmark").
const INITIATIVE: i32 = 7;

impl Searcher {
    pub(crate) fn new(points: usize) -> Searcher {
        Searcher {
            tt: vec![Entry::default(); 1 << 20],
            history: vec![0; points],
            killers: [[NO_MOVE; 2]; MAX_PLY + 1],
            nodes: 0,
            aborted: false,
            limits: Limits {
                deadline: None,
                node_limit: None,
            },
        }
    }

    pub(crate) fn points(&self) -> usize {
        self.history.len()
    }

    pub(crate) fn start(&mut self, limits: Limits) {
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        for h in &mut self.history {
            *h /= 8;
        }
        self.killers = [[NO_MOVE; 2]; MAX_PLY + 1];
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        let out_of_nodes = self.limits.node_limit.is_some_and(|n| self.nodes >= n);
        let out_of_time =
            self.nodes.is_multiple_of(512) && self.limits.deadline.is_some_and(|d| Instant::now() >= d);
        self.aborted = out_of_nodes || out_of_time;
        self.aborted
    }

    /// Static evaluation from the side to move's point of view, in pattern value units: the
    /// side to move's promise weighted [`INITIATIVE`] fifths, minus the opponent's.
    fn evaluate(pos: &Position) -> i32 {
        let s = pos.side;
        pos.pot[s] * INITIATIVE / 5 - pos.pot[s ^ 1]
    }

    /// Ordering score of empty point `i` for the side to move: attack plus defence, with
    /// bonuses for double threats.
    pub(crate) fn move_score(pos: &Position, i: usize) -> i32 {
        let s = pos.side;
        let o = s ^ 1;
        let mine = &pos.pat[s][i];
        let theirs = &pos.pat[o][i];
        let mut score = 0;
        for d in 0..4 {
            score += VALUE[usize::from(mine[d])] * 2 + VALUE[usize::from(theirs[d])];
        }
        let combo = |c: Colour| {
            let fours = pos.fours(c, i);
            let threes = pos.pat[c][i].iter().filter(|&&x| x == FLEX3).count();
            if fours >= 2 || (fours >= 1 && threes >= 1) {
                2000
            } else if threes >= 2 {
                800
            } else {
                0
            }
        };
        score + combo(s) * 2 + combo(o)
    }

    /// Candidate moves: empty points near stones, legal for the side to move.
    pub(crate) fn candidates(pos: &Position) -> Vec<usize> {
        let s = pos.side;
        (0..pos.cells.len())
            .filter(|&i| pos.cells[i] == 0 && pos.near[i] > 0 && pos.legal(s, i))
            .collect()
    }

    /// The forced situation at a node, if any: `Ok(score)` when decided, `Err(moves)` for the
    /// only moves worth searching (blocks), `Ok` never for a quiet node.
    fn threats(pos: &Position, ply: usize) -> Threats {
        let s = pos.side;
        let o = s ^ 1;
        let mut opp_fives = Vec::new();
        let mut opp_threes = false;
        let mut my_win = false;
        for i in 0..pos.cells.len() {
            if pos.cells[i] != 0 || pos.near[i] == 0 {
                continue;
            }
            let mine = &pos.pat[s][i];
            if mine.contains(&FIVE) {
                return Threats::Score(WIN - ply as i32 - 1);
            }
            if pos.pat[o][i].contains(&FIVE) {
                opp_fives.push(i);
            }
            if !my_win && pos.makes_winning_four(s, i) {
                my_win = true;
            }
            if !opp_threes {
                let t = &pos.pat[o][i];
                if (t.contains(&FLEX4) || pos.fours(o, i) >= 2) && pos.legal(o, i) {
                    opp_threes = true;
                }
            }
        }
        if !opp_fives.is_empty() {
            let blocks: Vec<usize> = opp_fives.iter().copied().filter(|&i| pos.legal(s, i)).collect();
            if blocks.is_empty() || opp_fives.len() >= 2 {
                return Threats::Score(-(WIN - ply as i32 - 2));
            }
            return Threats::Forced(blocks);
        }
        if my_win {
            return Threats::Score(WIN - ply as i32 - 3);
        }
        if opp_threes {
            // Defend: my fours, or points on the opponent's threat lines.
            let moves = (0..pos.cells.len())
                .filter(|&i| {
                    pos.cells[i] == 0
                        && pos.near[i] > 0
                        && (pos.fours(s, i) > 0
                            || pos.pat[o][i]
                                .iter()
                                .any(|&x| matches!(x, FLEX4 | BLOCK4 | DOUBLE4)))
                        && pos.legal(s, i)
                })
                .collect();
            return Threats::Defend(moves);
        }
        Threats::Quiet
    }

    fn order(&self, pos: &Position, moves: &mut [usize], tt_move: u16, ply: usize) {
        let mut keyed: Vec<(i64, usize)> = moves
            .iter()
            .map(|&m| {
                let mut k = i64::from(Self::move_score(pos, m)) * 1024 + i64::from(self.history[m].min(1023));
                if m as u16 == tt_move {
                    k = i64::MAX;
                } else if self.killers[ply].contains(&(m as u16)) {
                    k += 200 * 1024;
                }
                (k, m)
            })
            .collect();
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
    }

    /// Negamax alpha-beta with principal variation search. Returns the score for the side to
    /// move; meaningless once `aborted`.
    pub(crate) fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let mut moves = match Self::threats(pos, ply) {
            Threats::Score(v) => return v,
            Threats::Forced(m) => m,
            Threats::Defend(m) => {
                // The opponent threatens an open four: answer it even at the horizon (a
                // quiescence extension), unless the defence is wide open.
                if depth <= 0 && (m.len() > 8 || ply >= MAX_PLY) {
                    return Self::evaluate(pos) - 200;
                }
                m
            }
            Threats::Quiet => {
                if depth <= 0 || ply >= MAX_PLY {
                    return Self::evaluate(pos);
                }
                Vec::new()
            }
        };
        if ply >= MAX_PLY {
            return Self::evaluate(pos);
        }
        let forced = moves.len() == 1 || depth <= 0;
        let slot = (pos.hash as usize) & (self.tt.len() - 1);
        let entry = self.tt[slot];
        let mut tt_move = NO_MOVE;
        if entry.key == pos.hash {
            tt_move = entry.best;
            if i32::from(entry.depth) >= depth && ply > 0 {
                let v = from_tt(entry.score, ply);
                match entry.bound {
                    0 => return v,
                    1 if v >= beta => return v,
                    2 if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        if moves.is_empty() {
            moves = Self::candidates(pos);
            if moves.is_empty() {
                return 0;
            }
            self.order(pos, &mut moves, tt_move, ply);
            moves.truncate(WIDTH);
        } else {
            self.order(pos, &mut moves, tt_move, ply);
        }
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        let next_depth = if forced { depth } else { depth - 1 };
        for (k, &m) in moves.iter().enumerate() {
            pos.make(m);
            let mut v;
            if k == 0 {
                v = -self.search(pos, next_depth, -beta, -alpha, ply + 1);
            } else {
                v = -self.search(pos, next_depth, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.search(pos, next_depth, -beta, -alpha, ply + 1);
                }
            }
            pos.unmake();
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if !self.killers[ply].contains(&(m as u16)) {
                    self.killers[ply] = [m as u16, self.killers[ply][0]];
                }
                self.history[m] += (depth.max(1) * depth.max(1)) as u32;
                break;
            }
        }
        let bound = if best <= alpha0 {
            2
        } else if best >= beta {
            1
        } else {
            0
        };
        self.tt[slot] = Entry {
            key: pos.hash,
            score: to_tt(best, ply),
            depth: depth.clamp(-1, 100) as i8,
            bound,
            best: best_move as u16,
        };
        best
    }

    /// The principal variation after `first` in `pos` (each point's index): `first`, then the
    /// best move the transposition table holds for each position that follows, while it holds
    /// one for an empty point, at most `max` moves in all. `pos` is left as it was.
    pub(crate) fn pv(&self, pos: &mut Position, first: usize, max: usize) -> Vec<usize> {
        let mut line = vec![first];
        pos.make(first);
        while line.len() < max {
            let entry = self.tt[(pos.hash as usize) & (self.tt.len() - 1)];
            let m = usize::from(entry.best);
            if entry.key != pos.hash || entry.best == NO_MOVE || m >= pos.cells.len() || pos.cells[m] != 0 {
                break;
            }
            pos.make(m);
            line.push(m);
        }
        for _ in 0..line.len() {
            pos.unmake();
        }
        line
    }

    /// A VCF for the side to move: a first four from which continuous fours force a five,
    /// within `depth` fours and the node budget `budget`. The attacker's fours only; each four's
    /// reply is the one forced block.
    pub(crate) fn vcf(pos: &mut Position, depth: u32, budget: &mut Work) -> Option<usize> {
        let s = pos.side;
        let o = s ^ 1;
        if budget.done() {
            return None;
        }
        budget.spend(1);
        let mut opp_five = None;
        let mut fours = Vec::new();
        for i in 0..pos.cells.len() {
            if pos.cells[i] != 0 || pos.near[i] == 0 {
                continue;
            }
            if pos.pat[s][i].contains(&FIVE) {
                return Some(i);
            }
            if pos.pat[o][i].contains(&FIVE) {
                if opp_five.is_some() {
                    return None;
                }
                opp_five = Some(i);
            }
            if pos.fours(s, i) > 0 && pos.legal(s, i) {
                fours.push(i);
            }
        }
        if let Some(block) = opp_five {
            // We must block; it only continues the VCF if the block is itself a four.
            if !fours.contains(&block) {
                return None;
            }
            fours = vec![block];
        }
        if depth == 0 {
            return None;
        }
        for &f in &fours {
            if pos.makes_winning_four(s, f) {
                return Some(f);
            }
        }
        // Fours that also make an open three first.
        fours.sort_by_key(|&i| std::cmp::Reverse(pos.has(s, i, FLEX3) as u8));
        for &f in &fours {
            pos.make(f);
            let defender_five =
                (0..pos.cells.len()).any(|i| pos.cells[i] == 0 && pos.pat[o][i].contains(&FIVE));
            if defender_five {
                pos.unmake();
                continue;
            }
            // The defender must block our five point.
            let mut blocks =
                (0..pos.cells.len()).filter(|&i| pos.cells[i] == 0 && pos.pat[s][i].contains(&FIVE));
            let block = blocks.next();
            let more = blocks.next().is_some();
            let win = match block {
                None => false,
                Some(_) if more => true,
                Some(b) if !pos.legal(o, b) => true,
                Some(b) => {
                    pos.make(b);
                    let r = Self::vcf(pos, depth - 1, budget).is_some();
                    pos.unmake();
                    r
                }
            };
            pos.unmake();
            if win {
                return Some(f);
            }
            if budget.done() {
                return None;
            }
        }
        None
    }
}

impl Searcher {
    /// A VCT (victory by continuous threats) for the side to move: fours and open threes, each
    /// answered by every defence (the block of a four; for a three, the points of its line and
    /// the defender's own fours), within `depth` threats and the node budget `budget`. Black
    /// under renju uses fours only, since a three whose completion is forbidden is no threat.
    pub(crate) fn vct(pos: &mut Position, depth: u32, budget: &mut Work) -> Option<usize> {
        if budget.done() {
            return None;
        }
        let s = pos.side;
        let o = s ^ 1;
        let mut sub = Work {
            left: budget.left.min(300),
            deadline: budget.deadline,
        };
        let before = sub.left;
        let vcf = Self::vcf(pos, 12, &mut sub);
        budget.spend((before - sub.left).max(1));
        if vcf.is_some() {
            return vcf;
        }
        if depth == 0 {
            return None;
        }
        let threes_allowed =
            !(pos.rule == skirmish_games::gomoku::Rule::Renju && s == super::position::BLACK);
        let mut opp_five = None;
        let mut opp_fives = 0;
        let mut opp_three = false;
        let mut attacks = Vec::new();
        for i in 0..pos.cells.len() {
            if pos.cells[i] != 0 || pos.near[i] == 0 {
                continue;
            }
            if pos.pat[o][i].contains(&FIVE) {
                opp_five = Some(i);
                opp_fives += 1;
            }
            if pos.pat[o][i].contains(&FLEX4) && pos.legal(o, i) {
                opp_three = true;
            }
            let four = pos.fours(s, i) > 0;
            let three = threes_allowed && pos.has(s, i, FLEX3);
            if (four || three) && pos.legal(s, i) {
                attacks.push(i);
            }
        }
        if let Some(block) = opp_five {
            // The defender countered with a four. Block it (the VCF check above tried blocks
            // that are fours); the attack goes on only if an open three of ours still stands, so
            // that the defender must answer it again.
            if opp_fives > 1 || !pos.legal(s, block) {
                return None;
            }
            pos.make(block);
            let d = pos.side;
            let a = d ^ 1;
            let threat = (0..pos.cells.len()).any(|i| {
                pos.cells[i] == 0
                    && (pos.pat[a][i].contains(&FIVE) || (pos.pat[a][i].contains(&FLEX4) && pos.legal(a, i)))
            });
            let mut all = threat;
            if threat {
                match Self::defences(pos) {
                    None => all = false,
                    Some(replies) => {
                        for r in replies {
                            if budget.done() {
                                all = false;
                                break;
                            }
                            pos.make(r);
                            let ok = Self::vct(pos, depth - 1, budget).is_some();
                            pos.unmake();
                            if !ok {
                                all = false;
                                break;
                            }
                        }
                    }
                }
            }
            pos.unmake();
            return all.then_some(block);
        }
        if opp_three {
            attacks.retain(|&i| pos.fours(s, i) > 0);
        }
        attacks.sort_by_key(|&i| (std::cmp::Reverse(Self::move_score(pos, i)), i));
        attacks.truncate(10);
        for &a in &attacks {
            pos.make(a);
            // `None`: the defender has a five, the attack fails; an empty list: no legal
            // defence, the attack wins.
            let replies = Self::defences(pos);
            let mut all = replies.is_some();
            let replies = replies.unwrap_or_default();
            for &r in &replies {
                if budget.done() {
                    all = false;
                    break;
                }
                pos.make(r);
                let ok = Self::vct(pos, depth - 1, budget).is_some();
                pos.unmake();
                if !ok {
                    all = false;
                    break;
                }
            }
            pos.unmake();
            if all {
                return Some(a);
            }
            if budget.done() {
                return None;
            }
        }
        None
    }

    /// The defender's (side to move's) answers to the attacker's last threat: the block(s) of a
    /// four, or against a three the points of its line and the defender's own fours, all legal
    /// for the defender. `None` when the defender has a five (the attack failed).
    fn defences(pos: &Position) -> Option<Vec<usize>> {
        let d = pos.side;
        let a = d ^ 1;
        let mut blocks = Vec::new();
        for i in 0..pos.cells.len() {
            if pos.cells[i] != 0 || pos.near[i] == 0 {
                continue;
            }
            if pos.pat[d][i].contains(&FIVE) {
                return None;
            }
            if pos.pat[a][i].contains(&FIVE) {
                blocks.push(i);
            }
        }
        if !blocks.is_empty() {
            return Some(blocks.into_iter().filter(|&i| pos.legal(d, i)).collect());
        }
        Some(
            (0..pos.cells.len())
                .filter(|&i| {
                    pos.cells[i] == 0
                        && pos.near[i] > 0
                        && (pos.fours(d, i) > 0
                            || pos.pat[a][i]
                                .iter()
                                .any(|&x| matches!(x, FLEX4 | BLOCK4 | DOUBLE4)))
                        && pos.legal(d, i)
                })
                .collect(),
        )
    }
}

/// Work left for a threat solver: nodes, and optionally a wall-clock deadline (checked each time
/// the work left crosses a multiple of 256 nodes) after which it gives up.
pub(crate) struct Work {
    pub(crate) left: u64,
    pub(crate) deadline: Option<Instant>,
}

impl Work {
    fn done(&self) -> bool {
        self.left == 0
    }

    fn spend(&mut self, n: u64) {
        let before = self.left;
        self.left = before.saturating_sub(n);
        // A VCT spends a whole sub-search at once, which can step over a multiple of 256: the
        // clock is read whenever one is crossed, not only when one is hit.
        if before / 256 != self.left / 256 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.left = 0;
        }
    }
}

pub(crate) enum Threats {
    Score(i32),
    Forced(Vec<usize>),
    Defend(Vec<usize>),
    Quiet,
}

fn to_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v + ply as i32
    } else if v < -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v - ply as i32
    } else if v < -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spending in steps that never land on a multiple of 256 still reads the clock: a past
    /// deadline stops the work at the first multiple crossed.
    #[test]
    fn the_clock_is_read_when_the_work_crosses_a_multiple_of_256() {
        let mut work = Work {
            left: 1000,
            deadline: Some(Instant::now()),
        };
        let mut steps = 0;
        while !work.done() {
            work.spend(7);
            steps += 1;
        }
        // 1000 - 7k first drops below 768 at k = 34.
        assert_eq!(steps, 34);
        let mut unlimited = Work {
            left: 1000,
            deadline: None,
        };
        unlimited.spend(7);
        assert_eq!(unlimited.left, 993);
    }
}
