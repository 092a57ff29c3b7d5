//! The VCF solver (victory by continuous fours): the attacker plays fours, the defender must
//! block each at its one five point, until the attacker has a flex four, two fours or a five.
//! A counter-four (the defender's block making a four of its own) must be answered at once, and
//! only by a move that is itself a four; a position where the defender already has a five to
//! make is refused unless that block is a four.
//!
//! Results are kept in the solver's own transposition table: a proved win for good, a failure
//! with the depth it was searched to.

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
        }
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
        self.nodes += 1;
        if self.nodes > self.limit {
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
        let moves: Vec<usize> = if pos.has(d, C_FIVE) > 0 {
            // A counter-four: the only move is its five point, and it must be a four.
            if pos.has(d, C_FIVE) > 1 {
                return Some(false);
            }
            let block = find(pos, d, C_FIVE, pos.last())?;
            if !(C_B4..=C_F4).contains(&pos.combo(a, block)) {
                return Some(false);
            }
            vec![block]
        } else {
            let mut fours: Vec<(usize, u8)> = pos
                .points()
                .iter()
                .copied()
                .filter(|&i| pos.is_empty(i) && (C_B4..=C_F4).contains(&pos.combo(a, i)))
                .map(|i| (i, pos.combo(a, i)))
                .collect();
            fours.sort_by_key(|&(i, c)| (std::cmp::Reverse(c), i));
            fours.into_iter().map(|(i, _)| i).collect()
        };
        for four in moves {
            line.push(four);
            pos.make(four);
            let mut fives: Vec<usize> = pos
                .line_points(four)
                .filter(|&i| pos.combo(a, i) == C_FIVE)
                .collect();
            fives.sort_unstable();
            fives.dedup();
            let result = match fives.as_slice() {
                // A flex four or two fours: the defender blocks one five point, the attacker
                // plays the other.
                [block, five, ..] => {
                    line.extend([*block, *five]);
                    Some(true)
                }
                [block] => {
                    line.push(*block);
                    pos.make(*block);
                    let r = self.search(pos, depth - 1, line);
                    pos.unmake();
                    if r != Some(true) {
                        line.pop();
                    }
                    r
                }
                [] => Some(false),
            };
            pos.unmake();
            match result {
                Some(true) => {
                    self.store(key, u8::MAX);
                    return Some(true);
                }
                Some(false) => {
                    line.pop();
                }
                None => {
                    line.pop();
                    return None;
                }
            }
        }
        self.store(key, depth.min(254) as u8);
        Some(false)
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
    if let Some(i) = near.and_then(|p| pos.line_points(p).find(|&i| pos.combo(side, i) == combo)) {
        return Some(i);
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
