//! The VCF solver (victory by continuous fours): the attacker plays fours, the defender must
//! block each at its one five point, until the attacker has a flex four, two fours or a five.
//! A counter-four (the defender's block making a four of its own) must be answered at once, and
//! only by a move that is itself a four; a position where the defender already has a five to
//! make is refused unless that block is a four.
//!
//! Results are kept in the solver's own transposition table: a proved win for good, a failure
//! with the depth it was searched to.

use std::time::Instant;

use super::board::Position;
use super::line::{C_B4, C_B4F3, C_F4, C_FIVE};

/// Attacker fours a root VCF may chain (20 fours: 40 plies, past the 20 plies the engine
/// promises never to miss).
pub const ROOT_DEPTH: u32 = 20;

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    /// Depth searched for a failure; `u8::MAX` for a win.
    depth: u8,
}

/// A VCF solver with its own transposition table.
pub struct Vcf {
    table: Vec<Slot>,
    mask: usize,
    nodes: u64,
    limit: u64,
    /// When to stop whatever the node limit (`None`: never), looked at every
    /// [`DEADLINE_EVERY`] nodes.
    deadline: Option<Instant>,
    /// Per remaining depth, the attacker's fours with their combinations (kept to save
    /// allocations: the depth falls by one a level, so a line of the search uses each once).
    buffers: Vec<Vec<(usize, u8)>>,
}

/// The outcome of a bounded VCF search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker wins by continuous fours.
    Win,
    /// No VCF within the depth.
    NoWin,
    /// The node limit ran out first.
    Unknown,
}

/// Nodes between two looks at the deadline (well under a millisecond of work).
pub const DEADLINE_EVERY: u64 = 1_024;

/// A salt mixed into keys so that a win for one side is not read for the other.
const SIDE_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

impl Vcf {
    /// A solver with `2^bits` table slots (16 bytes each).
    pub fn new(bits: u32) -> Vcf {
        Vcf {
            table: vec![Slot { key: 0, depth: 0 }; 1 << bits],
            mask: (1 << bits) - 1,
            nodes: 0,
            limit: 0,
            deadline: None,
            buffers: Vec::new(),
        }
    }

    /// Stops every search from `deadline` on (`None`: node limits alone, deterministic), as
    /// the decision's clock says: on a loaded machine a node budget can take far longer than
    /// the time it was sized for.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Counts a node; whether the node limit or the deadline has passed (the limit is then
    /// spent, so the search unwinds at once).
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(DEADLINE_EVERY) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.limit = 0;
        }
        self.nodes > self.limit
    }

    /// VCF nodes visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move in `pos` wins by continuous fours within `depth` of its own
    /// fours, visiting at most `limit` nodes; on a win, `line` gets the sequence (attacker and
    /// defender moves alternating, from the attacker's first four to its five).
    pub fn solve(&mut self, pos: &mut Position, depth: u32, limit: u64, line: &mut Vec<usize>) -> Outcome {
        self.limit = self.nodes.saturating_add(limit);
        line.clear();
        match self.search(pos, depth, line) {
            Some(true) => Outcome::Win,
            Some(false) => Outcome::NoWin,
            None => Outcome::Unknown,
        }
    }

    fn key(pos: &Position) -> u64 {
        pos.hash() ^ if pos.side() == 0 { 0 } else { SIDE_SALT }
    }

    /// `Some(win)`, or `None` when the node limit ran out.
    fn search(&mut self, pos: &mut Position, depth: u32, line: &mut Vec<usize>) -> Option<bool> {
        if self.spent() {
            return None;
        }
        let a = pos.side();
        let d = a ^ 1;
        if pos.has(a, C_FIVE) > 0 {
            line.push(find(pos, a, C_FIVE, None)?);
            return Some(true);
        }
        if depth == 0 {
            return Some(false);
        }
        let key = Self::key(pos);
        let slot = self.table[key as usize & self.mask];
        if slot.key == key && (slot.depth == u8::MAX || u32::from(slot.depth) >= depth) {
            if slot.depth == u8::MAX {
                // A stored win has no line: inside a line the caller has its first move, at the
                // top the search runs again to find one.
                if !line.is_empty() {
                    return Some(true);
                }
            } else {
                return Some(false);
            }
        }
        let slot = depth as usize;
        if self.buffers.len() <= slot {
            self.buffers.resize_with(slot + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[slot]);
        moves.clear();
        if pos.has(d, C_FIVE) > 0 {
            // A counter-four: the only move is its five point, and it must be a four.
            if pos.has(d, C_FIVE) > 1 {
                self.buffers[slot] = moves;
                return Some(false);
            }
            let block = find(pos, d, C_FIVE, pos.last())?;
            if !(C_B4..=C_F4).contains(&pos.combo(a, block)) {
                self.buffers[slot] = moves;
                return Some(false);
            }
            moves.push((block, 0));
        } else {
            moves.extend(pos.fours(a).iter().map(|i| (i, pos.combo(a, i))));
            moves.sort_unstable_by_key(|&(i, c)| (std::cmp::Reverse(c), i));
        }
        let mut result = Some(false);
        for &(four, _) in &moves {
            line.push(four);
            pos.make(four);
            // The attacker had no five before this four, so its five points now are the
            // four's (on the four's lines), in board order.
            let fives = {
                let mut fives = pos.fives(a).iter();
                (fives.next(), fives.next())
            };
            let r = match fives {
                // A flex four or two fours: the defender blocks one five point, the attacker
                // plays the other.
                (Some(block), Some(five)) => {
                    line.extend([block, five]);
                    Some(true)
                }
                (Some(block), None) => {
                    line.push(block);
                    pos.make(block);
                    let r = self.search(pos, depth - 1, line);
                    pos.unmake();
                    if r != Some(true) {
                        line.pop();
                    }
                    r
                }
                (None, _) => Some(false),
            };
            pos.unmake();
            if r != Some(true) {
                line.pop();
            }
            if r != Some(false) {
                result = r;
                break;
            }
        }
        self.buffers[slot] = moves;
        match result {
            Some(true) => self.store(key, u8::MAX),
            Some(false) => self.store(key, depth.min(254) as u8),
            None => {}
        }
        result
    }

    fn store(&mut self, key: u64, depth: u8) {
        let slot = &mut self.table[key as usize & self.mask];
        // A proved win for this position stays; otherwise another position's entry or a
        // shallower failure gives way.
        let keep_win = slot.key == key && slot.depth == u8::MAX;
        if !keep_win && (slot.key != key || depth > slot.depth) {
            *slot = Slot { key, depth };
        }
    }
}

/// An empty point where `side` shows `combo`, looked for on the lines through `near` first,
/// then on the whole board.
pub fn find(pos: &Position, side: usize, combo: u8, near: Option<usize>) -> Option<usize> {
    let count = pos.has(side, combo);
    if count == 0 {
        return None;
    }
    if combo == C_FIVE && count == 1 {
        return pos.fives(side).iter().next();
    }
    if let Some(i) = near.and_then(|p| pos.line_points(p).find(|&i| pos.combo(side, i) == combo)) {
        return Some(i);
    }
    if combo == C_FIVE {
        return pos.fives(side).iter().next();
    }
    pos.points()
        .iter()
        .copied()
        .find(|&i| pos.is_empty(i) && pos.combo(side, i) == combo)
}

/// Whether `combo` is a four of some kind for VCF purposes (a four, a four-three, a flex four).
pub fn is_four(combo: u8) -> bool {
    combo == C_B4 || combo == C_B4F3 || combo == C_F4
}
