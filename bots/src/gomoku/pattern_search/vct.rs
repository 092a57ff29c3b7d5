//! The VCT search (victory by continuous threats): the attacker plays fours and threes, the
//! defender answers every four at its five point and every three with each of its defences,
//! until the attacker has a five, a flex four or a double four the defender cannot stop.
//!
//! A *threat* is a stone after which the attacker has a point making a flex four or two fours
//! ([`C_F4`]; under renju for black, a point the pattern check does not forbid, so the threat is
//! real). The defences searched against it are the attacker's flex-four points and the points on
//! their lines where the attacker would make a four (a stone changes a point's patterns only on
//! the lines through it, so these hold every point that stops the threat) and every four of the
//! defender's own (a counter-four, which the attacker must block before going on). Leaving out no defence
//! makes a proved win sound; the attacker's own threes are cut to the [`WIDTH`] best, which may
//! miss a win but never invents one. Every attacker node first asks the [`Vcf`] solver.
//!
//! Results are kept in the search's own transposition table, keyed by the stones, the side to
//! move, the attacker and the stone the node's threats relate to: a proved win for good, a
//! failure with the depth it was searched to.

use std::time::Instant;

use super::board::Position;
use super::line::{B4, C_B4, C_F3, C_F3X2, C_F4, C_FIVE, D4, F4, FORBIDDEN, Pat};
use super::vcf::{self, Outcome, Vcf};

/// Attacker threats (fours and threes) a root VCT may chain.
pub const ROOT_DEPTH: u32 = 8;
/// Attacker threes and fours tried at one node past the root, best first by combination and
/// line patterns.
pub const WIDTH: usize = 8;
/// Attacker threes and fours tried at the root.
pub const ROOT_WIDTH: usize = 24;
/// Attacker fours the VCF tried at each attacker node may chain.
const NODE_VCF_DEPTH: u32 = 8;
/// VCF nodes the VCF tried at each attacker node may visit.
const NODE_VCF_NODES: u64 = 200;

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    /// Attacker threats searched for a failure; `u8::MAX` for a win.
    depth: u8,
}

/// A VCT search with its own transposition table and its own [`Vcf`] solver.
pub struct Vct {
    table: Vec<Slot>,
    mask: usize,
    nodes: u64,
    limit: u64,
    /// When to stop whatever the node limit (`None`: never), looked at every
    /// [`vcf::DEADLINE_EVERY`] nodes.
    deadline: Option<Instant>,
    vcf: Vcf,
    vcf_line: Vec<usize>,
    /// Per ply, a move list (kept to save allocations).
    buffers: Vec<Vec<usize>>,
}

/// Salts mixed into keys: one for the side to move, one for the attacker (a win of white's
/// with white to move is a different fact from a win of black's with white to move).
const SIDE_SALT: u64 = 0x9e37_79b9_7f4a_7c15;
const ATTACKER_SALT: u64 = 0xc2b2_ae3d_27d4_eb4f;
const NEAR_SALT: u64 = 0x1656_67b1_9e37_79f9;

/// The order of an attacker move: its combination first, then its line patterns.
fn attack_order(pos: &Position, side: usize, i: usize) -> i32 {
    let combo = i32::from(pos.combo(side, i));
    let lines: i32 = pos.pats(side, i).iter().map(|&p| i32::from(p)).sum();
    combo * 64 + lines
}

/// Whether a line pattern makes a four (one point then makes five).
fn makes_four(p: Pat) -> bool {
    p == B4 || p == D4 || p == F4
}

impl Vct {
    /// A search with `2^bits` table slots (16 bytes each) and a VCF solver of `2^(bits - 2)`.
    ///
    /// # Panics
    /// When `bits` is under 2.
    pub fn new(bits: u32) -> Vct {
        Vct {
            table: vec![Slot { key: 0, depth: 0 }; 1 << bits],
            mask: (1 << bits) - 1,
            nodes: 0,
            limit: 0,
            deadline: None,
            vcf: Vcf::new(bits - 2),
            vcf_line: Vec::new(),
            buffers: Vec::new(),
        }
    }

    /// VCT nodes (its own and its VCF solver's) visited since the search was made.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.vcf.nodes()
    }

    /// Whether the side to move in `pos` wins by continuous threats within `depth` of its own
    /// threats, visiting at most `limit` nodes (its VCF solver's included), searched one threat
    /// deeper at a time (the win found is one of the fewest threats); on a win, `line` gets the
    /// main line (attacker and defender moves alternating, the defender's first
    /// defence each time, from the attacker's first threat to its five).
    pub fn solve(&mut self, pos: &mut Position, depth: u32, limit: u64, line: &mut Vec<usize>) -> Outcome {
        self.limit = self.nodes().saturating_add(limit);
        line.clear();
        let attacker = pos.side();
        // Deeper and deeper, so that the win found is one of the fewest threats: each stone of
        // it then leaves a shorter one, and a player following it makes progress.
        for d in 1..=depth {
            match self.attack(pos, attacker, None, d, 0, line) {
                Some(true) => return Outcome::Win,
                Some(false) => line.clear(),
                None => {
                    line.clear();
                    return Outcome::Unknown;
                }
            }
        }
        Outcome::NoWin
    }

    /// The table key of a node: the stones, the side to move, the attacker, and the stone its
    /// moves are related to (an attacker node's last threat, a defender node's threat), since
    /// past the root the attacker's threes are those on that stone's lines and a failure
    /// holds only for the same choice.
    fn key(pos: &Position, attacker: usize, near: Option<usize>) -> u64 {
        let near = near.map_or(0, |q| (q as u64 + 1).wrapping_mul(NEAR_SALT).rotate_left(17));
        pos.hash()
            ^ if pos.side() == 0 { 0 } else { SIDE_SALT }
            ^ if attacker == 0 { 0 } else { ATTACKER_SALT }
            ^ near
    }

    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(vcf::DEADLINE_EVERY)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.limit = 0;
        }
        self.nodes() <= self.limit
    }

    /// Stops every search, and its VCF solver's, from `deadline` on (`None`: node limits
    /// alone, deterministic): see [`Vcf::set_deadline`].
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.vcf.set_deadline(deadline);
    }

    fn buffer(&mut self, ply: usize) -> Vec<usize> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut b = std::mem::take(&mut self.buffers[ply]);
        b.clear();
        b
    }

    /// The table's word on `key`: `Some(true)` a win, `Some(false)` a failure at `depth` or
    /// deeper.
    fn probe(&self, key: u64, depth: u32) -> Option<bool> {
        let slot = self.table[key as usize & self.mask];
        if slot.key != key {
            return None;
        }
        if slot.depth == u8::MAX {
            Some(true)
        } else {
            (u32::from(slot.depth) >= depth).then_some(false)
        }
    }

    fn store(&mut self, key: u64, depth: u8) {
        let slot = &mut self.table[key as usize & self.mask];
        let keep_win = slot.key == key && slot.depth == u8::MAX;
        if !keep_win && (slot.key != key || depth > slot.depth) {
            *slot = Slot { key, depth };
        }
    }

    /// Stores a node's result searched to `depth`: a win for good, a failure at its depth,
    /// nothing when the node limit ran out (`None`).
    fn store_result(&mut self, key: u64, depth: u32, result: Option<bool>) {
        match result {
            Some(true) => self.store(key, u8::MAX),
            Some(false) => self.store(key, depth.min(254) as u8),
            None => {}
        }
    }

    /// The attacker (`a`, to move) looks for a threat that wins; `near` is its last threat's
    /// stone (`None` at the root). `Some(win)`, or `None` when the node limit ran out.
    fn attack(
        &mut self,
        pos: &mut Position,
        a: usize,
        near: Option<usize>,
        depth: u32,
        ply: usize,
        line: &mut Vec<usize>,
    ) -> Option<bool> {
        if !self.spend() {
            return None;
        }
        let d = a ^ 1;
        if pos.has(a, C_FIVE) > 0 {
            line.push(vcf::find(pos, a, C_FIVE, pos.last())?);
            return Some(true);
        }
        let theirs = pos.has(d, C_FIVE);
        if theirs >= 2 {
            return Some(false);
        }
        if theirs == 0 && pos.has(a, C_F4) > 0 {
            line.push(vcf::find(pos, a, C_F4, pos.last())?);
            return Some(true);
        }
        if depth == 0 {
            return Some(false);
        }
        let key = Self::key(pos, a, near);
        match self.probe(key, depth) {
            // A stored win has no line: at the top the search runs again to find one.
            Some(true) if ply > 0 => return Some(true),
            Some(false) => return Some(false),
            _ => {}
        }
        let mut moves = self.buffer(ply);
        if theirs == 1 {
            // A counter-four: the block is forced, and the attack goes on only if the threat
            // it answered is still there (or the block makes a new one).
            let block = vcf::find(pos, d, C_FIVE, pos.last())?;
            if pos.combo(a, block) == FORBIDDEN {
                self.buffers[ply] = moves;
                return Some(false);
            }
            moves.push(block);
        } else {
            match self
                .vcf
                .solve(pos, NODE_VCF_DEPTH, NODE_VCF_NODES, &mut self.vcf_line)
            {
                Outcome::Win => {
                    line.extend_from_slice(&self.vcf_line);
                    self.buffers[ply] = moves;
                    self.store(key, u8::MAX);
                    return Some(true);
                }
                Outcome::NoWin | Outcome::Unknown => {}
            }
            // Against the defender's own open three only fours can go first; past the first
            // threat, threes only on the lines through the attacker's last stone (fours
            // anywhere), as threat-space search relates each threat to the one before.
            let fours_only = pos.has(d, C_F4) > 0;
            let mut scored: Vec<(usize, i32)> = Vec::new();
            let mut consider = |i: usize, threes: bool| {
                let c = pos.combo(a, i);
                let wanted = (C_B4..=C_F4).contains(&c) || (threes && (c == C_F3 || c == C_F3X2));
                if pos.is_empty(i) && wanted && !scored.iter().any(|&(j, _)| j == i) {
                    scored.push((i, attack_order(pos, a, i)));
                }
            };
            // The order they are met in does not matter: they are sorted by a total order.
            match near {
                Some(q) if !fours_only => {
                    for i in pos.fours(a).iter() {
                        consider(i, false);
                    }
                    for i in pos.line_points(q) {
                        consider(i, true);
                    }
                }
                _ if fours_only => {
                    for i in pos.fours(a).iter() {
                        consider(i, false);
                    }
                }
                _ => {
                    for &i in pos.points() {
                        consider(i, true);
                    }
                }
            }
            scored.sort_unstable_by_key(|&(i, v)| (std::cmp::Reverse(v), i));
            // The root tries more; past it, the best few.
            let width = if near.is_some() { WIDTH } else { ROOT_WIDTH };
            moves.extend(scored.iter().take(width).map(|&(i, _)| i));
        }
        let start = line.len();
        let mut result = Some(false);
        for &m in &moves {
            line.push(m);
            pos.make(m);
            let r = self.defend(pos, a, depth - 1, ply + 1, line);
            pos.unmake();
            match r {
                Some(true) => {
                    result = Some(true);
                    break;
                }
                Some(false) => line.truncate(start),
                None => {
                    line.truncate(start);
                    result = None;
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        self.store_result(key, depth, result);
        result
    }

    /// The defender (to move; `a` attacks) answers the attacker's last stone with every
    /// defence; the attacker wins if it wins after each. `Some(win)` for the attacker, or
    /// `None` when the node limit ran out.
    fn defend(
        &mut self,
        pos: &mut Position,
        a: usize,
        depth: u32,
        ply: usize,
        line: &mut Vec<usize>,
    ) -> Option<bool> {
        if !self.spend() {
            return None;
        }
        let d = a ^ 1;
        if pos.has(d, C_FIVE) > 0 {
            return Some(false);
        }
        let fives = pos.has(a, C_FIVE);
        if fives >= 2 {
            let block = vcf::find(pos, a, C_FIVE, pos.last())?;
            pos.make(block);
            let five = vcf::find(pos, a, C_FIVE, pos.last());
            pos.unmake();
            line.extend([block, five?]);
            return Some(true);
        }
        let key = Self::key(pos, a, pos.last());
        match self.probe(key, depth) {
            Some(true) => return Some(true),
            Some(false) => return Some(false),
            None => {}
        }
        let threat = pos.last();
        let mut moves = self.buffer(ply);
        if fives == 1 {
            // A four: the one block (a forbidden one, renju black's, still counts: the
            // defences are never cut, so a proved win stays sound).
            moves.push(vcf::find(pos, a, C_FIVE, pos.last())?);
        } else if pos.has(a, C_F4) > 0 {
            // A stone changes a point's patterns only on the lines through it, so every
            // defence is a flex-four point of the attacker's or on a line through one, where
            // the attacker would make a four; or a four of the defender's own.
            let mut scored: Vec<(usize, i32)> = Vec::new();
            let add = |i: usize, scored: &mut Vec<(usize, i32)>| {
                if !scored.iter().any(|&(j, _)| j == i) {
                    let blocks = pos.pats(a, i).iter().filter(|&&p| p == F4).count() as i32;
                    scored.push((i, blocks * 1_000 + attack_order(pos, d, i)));
                }
            };
            // The order they are met in does not matter: they are sorted by a total order.
            for x in pos.fours(d).iter() {
                add(x, &mut scored);
            }
            for x in pos.fours(a).iter() {
                if pos.combo(a, x) == C_F4 {
                    add(x, &mut scored);
                    for q in pos.line_points(x) {
                        if pos.pats(a, q).iter().any(|&p| makes_four(p)) {
                            add(q, &mut scored);
                        }
                    }
                }
            }
            scored.sort_unstable_by_key(|&(i, v)| (std::cmp::Reverse(v), i));
            moves.extend(scored.iter().map(|&(i, _)| i));
        } else {
            // The attacker's stone threatened nothing.
            self.buffers[ply] = moves;
            return Some(false);
        }
        let start = line.len();
        let mut kept = None;
        let mut result = Some(true);
        for &m in &moves {
            line.push(m);
            pos.make(m);
            let r = self.attack(pos, a, threat, depth, ply + 1, line);
            pos.unmake();
            match r {
                Some(true) => {
                    // The first defence's line is the main line; the others' are dropped.
                    match kept {
                        None => kept = Some(line.len()),
                        Some(len) => line.truncate(len),
                    }
                }
                Some(false) | None => {
                    line.truncate(start);
                    result = r;
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        self.store_result(key, depth, result);
        result
    }
}
