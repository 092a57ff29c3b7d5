//! The search's board: stones on a padded grid, and for every empty point, each direction and
//! each colour the line pattern a stone there would make ([`line`](super::line)), with the four
//! lines' combination and the number of empty points showing each pattern and combination.
//!
//! A stone changes only the ten points each side of it on its four lines, so [`Position::make`]
//! updates at most 40 (point, direction) entries, each by one read of both colours' patterns
//! ([`pair_table`]), instead of rescanning the board; it logs what it changed, and
//! [`Position::unmake`] puts that back without reading any table. The position also keeps, as
//! bitboards ([`bits`](super::bits)), the empty points near a stone and each colour's four and
//! five points, which the searches walk instead of the board.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use skirmish_games::gomoku::{Board, Point, Rule, Stone};

use super::bits::PointSet;
use super::line::{
    C_B4, C_F4, C_FIVE, COMBO_KEYS, COMBOS, Combo, EMPTY, HALF, LINE_KEYS, PATTERNS, Pat, WALL, combo_index,
    combo_table, line_table, pair_table, shift, swap_colours,
};

/// Points of padding around the board (a line key reaches five points out).
const PAD: usize = HALF as usize;

/// A colour as an index: 0 black, 1 white.
pub type Side = usize;
/// Black's [`Side`].
pub const BLACK: Side = 0;
/// White's [`Side`].
pub const WHITE: Side = 1;

/// An empty point's patterns and combinations before a stone changed them, for
/// [`Position::unmake`] to put back.
#[derive(Clone, Copy)]
struct Undo {
    point: u32,
    pat: u32,
    combo: [Combo; 2],
}

/// What [`Position::unmake`] needs of a stone beyond its [`Undo`] entries.
#[derive(Clone)]
struct Frame {
    /// The stone's padded index.
    point: usize,
    /// The length of the undo log before the stone.
    undo_len: usize,
    /// The pattern counts before the stone.
    pat_count: [[i32; 16]; 2],
    /// The combination counts before the stone.
    combo_count: [[i32; 16]; 2],
}

/// A position under search, with incrementally kept line patterns.
#[derive(Clone)]
pub struct Position {
    size: u8,
    width: usize,
    /// Per padded point: [`EMPTY`], 1 black, 2 white, or [`WALL`] (padding).
    cells: Vec<u8>,
    /// Per padded point and direction: the line key (10 points, 2 bits each), black as own.
    keys: Vec<[u32; 4]>,
    /// Per point: both colours' line patterns, four bits per direction `d` at bit `4 * d`,
    /// black's in the low 16 bits and white's in the high 16 (each half a [`combo_index`]);
    /// kept current for empty points only (an occupied point keeps the patterns it had when its
    /// stone was played, which are its patterns again when the stone is taken back).
    pat: Vec<u32>,
    /// Per colour and point: the combination of the point's four patterns.
    combo: [Vec<Combo>; 2],
    /// Per colour: how many (empty point, direction) pairs show each pattern (16 slots, so
    /// that a 4-bit pattern indexes it; the last four stay 0).
    pat_count: [[i32; 16]; 2],
    /// Per colour: how many empty points show each combination (16 slots; the last seven stay 0).
    combo_count: [[i32; 16]; 2],
    /// Per padded point: stones within two points (a 5x5 square).
    near: Vec<u8>,
    /// The empty points with a stone within two points.
    near_set: PointSet,
    /// Per colour: the empty points where it makes a four ([`C_B4`] to [`C_F4`]).
    fours: [PointSet; 2],
    /// Per colour: the empty points where it makes a five ([`C_FIVE`]).
    fives: [PointSet; 2],
    /// Direction steps in padded indices.
    steps: [isize; 4],
    /// The on-board points, as padded indices, row by row.
    points: Vec<usize>,
    zobrist: Vec<[u64; 2]>,
    hash: u64,
    /// The stones played since [`Position::new`], with what taking each back restores.
    history: Vec<Frame>,
    /// The patterns the stones in `history` changed, in the order they changed them.
    undo: Vec<Undo>,
    side: Side,
    /// The line patterns of both colours per line key ([`pair_table`]).
    pairs: &'static [u8; LINE_KEYS],
    combos: [&'static [Combo; COMBO_KEYS]; 2],
    /// The line tables of each colour, for [`Position::matches_rescan`].
    tables: [&'static [Pat]; 2],
    rule: Rule,
}

impl Position {
    /// The position of `board` with `side` to move under `rule`.
    pub fn new(board: &Board, rule: Rule, side: Side) -> Position {
        let size = board.size();
        let width = usize::from(size) + 2 * PAD;
        let mut cells = vec![WALL as u8; width * width];
        let mut points = Vec::new();
        for y in 0..usize::from(size) {
            for x in 0..usize::from(size) {
                let i = (y + PAD) * width + x + PAD;
                cells[i] = EMPTY as u8;
                points.push(i);
            }
        }
        let steps = [1, width as isize, width as isize + 1, width as isize - 1];
        let mut keys = vec![[0u32; 4]; width * width];
        for &i in &points {
            for (d, &step) in steps.iter().enumerate() {
                for k in (-HALF..=HALF).filter(|&k| k != 0) {
                    let q = (i as isize + k as isize * step) as usize;
                    if cells[q] == WALL as u8 {
                        keys[i][d] |= WALL << shift(k);
                    }
                }
            }
        }
        let exact = |stone| !rule.wins(stone, 6);
        let mut rng = SmallRng::seed_from_u64(0x5eed_907c);
        let zobrist = (0..width * width).map(|_| [rng.random(), rng.random()]).collect();
        let mut pos = Position {
            size,
            width,
            cells,
            keys,
            pat: vec![0; width * width],
            combo: [vec![0; width * width], vec![0; width * width]],
            pat_count: [[0; 16]; 2],
            combo_count: [[0; 16]; 2],
            near: vec![0; width * width],
            near_set: PointSet::default(),
            fours: [PointSet::default(); 2],
            fives: [PointSet::default(); 2],
            steps,
            points,
            zobrist,
            hash: 0,
            history: Vec::new(),
            undo: Vec::new(),
            side,
            pairs: pair_table(exact(Stone::Black), exact(Stone::White)),
            combos: [combo_table(rule == Rule::Renju), combo_table(false)],
            tables: [line_table(exact(Stone::Black)), line_table(exact(Stone::White))],
            rule,
        };
        for i in pos.points.clone() {
            pos.refresh(i);
        }
        for p in board.points() {
            if let Some(stone) = board.get(p) {
                pos.side = side_of(stone);
                pos.make(pos.index(p));
            }
        }
        pos.history.clear();
        pos.undo.clear();
        pos.side = side;
        pos
    }

    /// Lines per side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The rule played.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The padded index of a board point.
    pub fn index(&self, p: Point) -> usize {
        (usize::from(p.y) + PAD) * self.width + usize::from(p.x) + PAD
    }

    /// The board point of a padded index.
    pub fn point(&self, i: usize) -> Point {
        Point::new((i % self.width - PAD) as u8, (i / self.width - PAD) as u8)
    }

    /// The on-board points as padded indices.
    pub fn points(&self) -> &[usize] {
        &self.points
    }

    /// Whether padded point `i` is empty and on the board.
    pub fn is_empty(&self, i: usize) -> bool {
        self.cells[i] == EMPTY as u8
    }

    /// Stones within two points of `i` (a 5x5 square).
    pub fn near(&self, i: usize) -> u8 {
        self.near[i]
    }

    /// The empty points with a stone within two points (those where [`Position::near`] is
    /// above 0).
    pub fn near_points(&self) -> &PointSet {
        &self.near_set
    }

    /// The empty points where `side` makes a four: those where its [`Position::combo`] is
    /// [`C_B4`] to [`C_F4`].
    pub fn fours(&self, side: Side) -> &PointSet {
        &self.fours[side]
    }

    /// The empty points where `side` makes a five (its [`Position::combo`] is [`C_FIVE`]).
    pub fn fives(&self, side: Side) -> &PointSet {
        &self.fives[side]
    }

    /// The side to move.
    pub fn side(&self) -> Side {
        self.side
    }

    /// Stones played since [`Position::new`].
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The last stone played since [`Position::new`].
    pub fn last(&self) -> Option<usize> {
        self.history.last().map(|frame| frame.point)
    }

    /// The Zobrist hash of the stones (the side to move follows from them).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Line patterns of `side` at empty point `i`, one per direction.
    pub fn pats(&self, side: Side, i: usize) -> [Pat; 4] {
        let packed = self.packed(side, i);
        [0, 4, 8, 12].map(|s| ((packed >> s) & 15) as Pat)
    }

    /// Line patterns of `side` at empty point `i` packed four bits a direction (direction `d`
    /// at bit `4 * d`: a [`combo_index`]).
    pub fn packed(&self, side: Side, i: usize) -> u16 {
        (self.pat[i] >> (16 * side)) as u16
    }

    /// The combination of `side` at empty point `i`.
    pub fn combo(&self, side: Side, i: usize) -> Combo {
        self.combo[side][i]
    }

    /// (empty point, direction) pairs where `side` shows each pattern.
    pub fn pat_counts(&self, side: Side) -> &[i32; PATTERNS] {
        self.pat_count[side][..PATTERNS]
            .try_into()
            .expect("PATTERNS fit in 16 slots")
    }

    /// Empty points where `side` shows each combination.
    pub fn combo_counts(&self, side: Side) -> &[i32; COMBOS] {
        self.combo_count[side][..COMBOS]
            .try_into()
            .expect("COMBOS fit in 16 slots")
    }

    /// Empty points where `side` shows `combo`.
    pub fn has(&self, side: Side, combo: Combo) -> i32 {
        self.combo_count[side][usize::from(combo)]
    }

    /// The empty points along the four lines through `i`, within five points.
    pub fn line_points(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.steps.iter().flat_map(move |&step| {
            (-HALF..=HALF)
                .filter(|&k| k != 0)
                .map(move |k| (i as isize + k as isize * step) as usize)
                .filter(|&q| self.cells[q] == EMPTY as u8)
        })
    }

    /// Plays the side to move at empty point `i`.
    ///
    /// # Panics
    /// In debug builds, when `i` is not an empty board point.
    pub fn make(&mut self, i: usize) {
        debug_assert!(self.is_empty(i), "a stone goes on an empty point");
        self.history.push(Frame {
            point: i,
            undo_len: self.undo.len(),
            pat_count: self.pat_count,
            combo_count: self.combo_count,
        });
        self.count(i, -1);
        self.track(i, false);
        let colour = self.side as u32 + 1;
        self.cells[i] = colour as u8;
        self.hash ^= self.zobrist[i][self.side];
        self.relines::<true>(i, |key, k| key | colour << shift(k));
        self.touch_near(i, 1);
        self.near_set.remove(i);
        self.side ^= 1;
    }

    /// Takes back the last [`Position::make`].
    ///
    /// # Panics
    /// When nothing was played since [`Position::new`].
    pub fn unmake(&mut self) {
        let frame = self.history.pop().expect("unmake follows a make");
        let i = frame.point;
        self.side ^= 1;
        self.cells[i] = EMPTY as u8;
        self.hash ^= self.zobrist[i][self.side];
        self.relines::<false>(i, |key, k| key & !(3 << shift(k)));
        // The patterns the stone changed go back, newest first, with the sets they are in.
        while self.undo.len() > frame.undo_len {
            let undo = self.undo.pop().expect("the log is longer than the frame's start");
            let q = undo.point as usize;
            self.pat[q] = undo.pat;
            for side in [BLACK, WHITE] {
                let combo = undo.combo[side];
                if self.combo[side][q] != combo {
                    self.combo[side][q] = combo;
                    self.fours[side].set(q, (C_B4..=C_F4).contains(&combo));
                    self.fives[side].set(q, combo == C_FIVE);
                }
            }
        }
        self.pat_count = frame.pat_count;
        self.combo_count = frame.combo_count;
        self.touch_near(i, -1);
        self.near_set.set(i, self.near[i] > 0);
        // The point's patterns are those it had when the stone was played: every stone played
        // since has been taken back.
        self.track(i, true);
    }

    /// Applies `change` to the keys of the points on the four lines through `i` (within
    /// [`HALF`]; `change(key, k)` for the point `k` steps before `i`, whose key holds `i` at
    /// `shift(k)`), and when `UPDATE` updates the empty ones' patterns (logging what they
    /// were). Padding is [`HALF`] wide, so the first wall met going out ends that side.
    #[inline(always)]
    fn relines<const UPDATE: bool>(&mut self, i: usize, change: impl Fn(u32, i32) -> u32) {
        // The empty points' new patterns are all read first and applied after, so that the
        // table reads do not wait on one another's updates.
        let mut changed = [(0u32, 0u8, 0u8); 8 * HALF as usize];
        let mut n = 0;
        for d in 0..4 {
            let step = self.steps[d];
            for dir in [-1, 1] {
                for k in 1..=HALF {
                    let k = dir * k;
                    let q = (i as isize - k as isize * step) as usize;
                    let cell = self.cells[q];
                    if cell == WALL as u8 {
                        break;
                    }
                    let key = change(self.keys[q][d], k);
                    self.keys[q][d] = key;
                    if UPDATE && cell == EMPTY as u8 {
                        let pair = self.pairs[key as usize & (LINE_KEYS - 1)];
                        changed[n] = (q as u32, d as u8, pair);
                        n += 1;
                    }
                }
            }
        }
        for &(q, d, pair) in &changed[..n] {
            self.update(q as usize, usize::from(d), pair);
        }
    }

    /// Passes the move (for threat searches that let one side play twice).
    pub fn pass(&mut self) {
        self.side ^= 1;
    }

    fn touch_near(&mut self, i: usize, by: i32) {
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let q = (i as isize + dy * self.width as isize + dx) as usize;
                let near = (i32::from(self.near[q]) + by) as u8;
                self.near[q] = near;
                // An occupied point counts its own stone, so only an empty point (or the
                // padding) goes from no stone near to one, or back.
                if by > 0 && near == 1 && self.cells[q] == EMPTY as u8 {
                    self.near_set.insert(q);
                } else if near == 0 {
                    self.near_set.remove(q);
                }
            }
        }
    }

    /// Adds (`by` = 1) or removes (-1) empty point `i`'s patterns and combinations from the counts.
    fn count(&mut self, i: usize, by: i32) {
        for side in [BLACK, WHITE] {
            let packed = self.packed(side, i);
            for s in [0, 4, 8, 12] {
                self.pat_count[side][usize::from((packed >> s) & 15)] += by;
            }
            self.combo_count[side][usize::from(self.combo[side][i] & 15)] += by;
        }
    }

    /// Puts empty point `i` into the sets its combinations call for (`present`), or takes it
    /// out of them all (a stone is played there).
    fn track(&mut self, i: usize, present: bool) {
        for side in [BLACK, WHITE] {
            let combo = self.combo[side][i];
            self.fours[side].set(i, present && (C_B4..=C_F4).contains(&combo));
            self.fives[side].set(i, present && combo == C_FIVE);
        }
    }

    /// The line pattern of `side` for line key `key` (black as own), from its line table.
    fn pattern(&self, side: Side, key: u32) -> Pat {
        let key = if side == BLACK { key } else { swap_colours(key) };
        self.tables[side][key as usize]
    }

    /// Sets empty point `i`'s patterns along direction `d` to `pair` (both colours', as
    /// [`pair_table`] packs them).
    #[inline(always)]
    fn update(&mut self, i: usize, d: usize, pair: u8) {
        let pair = u32::from(pair);
        let shift = 4 * d as u32;
        let old = self.pat[i];
        let new = (old & !(0xF_000F << shift)) | (((pair & 15) | (pair >> 4) << 16) << shift);
        if new == old {
            return;
        }
        self.undo.push(Undo {
            point: i as u32,
            pat: old,
            combo: [self.combo[BLACK][i], self.combo[WHITE][i]],
        });
        self.pat[i] = new;
        for side in [BLACK, WHITE] {
            let (was, now) = (old >> (16 * side) & 0xFFFF, new >> (16 * side) & 0xFFFF);
            if was == now {
                continue;
            }
            self.pat_count[side][(was >> shift & 15) as usize] -= 1;
            self.pat_count[side][(now >> shift & 15) as usize] += 1;
            let combo = self.combos[side][now as usize];
            let before = std::mem::replace(&mut self.combo[side][i], combo);
            if combo != before {
                self.combo_count[side][usize::from(before & 15)] -= 1;
                self.combo_count[side][usize::from(combo & 15)] += 1;
                self.fours[side].set(i, (C_B4..=C_F4).contains(&combo));
                self.fives[side].set(i, combo == C_FIVE);
            }
        }
    }

    /// Recomputes all of empty point `i`'s patterns from its keys and counts them.
    fn refresh(&mut self, i: usize) {
        let mut packed = 0;
        for d in 0..4 {
            let pair = u32::from(self.pairs[self.keys[i][d] as usize & (LINE_KEYS - 1)]);
            packed |= ((pair & 15) | (pair >> 4) << 16) << (4 * d);
        }
        self.pat[i] = packed;
        for side in [BLACK, WHITE] {
            self.combo[side][i] = self.combos[side][usize::from(self.packed(side, i))];
        }
        self.count(i, 1);
        self.track(i, true);
    }

    /// The board of this position (for the rules engine's checks).
    pub fn board(&self) -> Board {
        let mut board = Board::new(self.size);
        for &i in &self.points {
            let stone = match u32::from(self.cells[i]) {
                1 => Some(Stone::Black),
                2 => Some(Stone::White),
                _ => None,
            };
            if stone.is_some() {
                board.set(self.point(i), stone);
            }
        }
        board
    }

    /// Whether every kept key, pattern, combination, count and the hash equal what a full
    /// rescan of the stones gives, reading each point's lines cell by cell (the incremental
    /// updates' reference; used by the tests).
    pub fn matches_rescan(&self) -> bool {
        let mut pat_count = [[0; PATTERNS]; 2];
        let mut combo_count = [[0; COMBOS]; 2];
        let mut hash = 0;
        for &i in &self.points {
            if !self.is_empty(i) {
                hash ^= self.zobrist[i][usize::from(self.cells[i]) - 1];
                continue;
            }
            for d in 0..4 {
                let key = (-HALF..=HALF)
                    .filter(|&k| k != 0)
                    .map(|k| {
                        let q = (i as isize + k as isize * self.steps[d]) as usize;
                        u32::from(self.cells[q]) << shift(k)
                    })
                    .fold(0, |a, b| a | b);
                if key != self.keys[i][d] {
                    return false;
                }
                for side in [BLACK, WHITE] {
                    let p = self.pattern(side, key);
                    if p != self.pats(side, i)[d] {
                        return false;
                    }
                    pat_count[side][usize::from(p)] += 1;
                }
            }
            for side in [BLACK, WHITE] {
                let combo = self.combos[side][combo_index(self.pats(side, i))];
                if combo != self.combo[side][i] {
                    return false;
                }
                combo_count[side][usize::from(combo)] += 1;
            }
        }
        let mut near_set = PointSet::default();
        let mut fours = [PointSet::default(); 2];
        let mut fives = [PointSet::default(); 2];
        for &i in self.points.iter().filter(|&&i| self.is_empty(i)) {
            near_set.set(i, self.near[i] > 0);
            for side in [BLACK, WHITE] {
                fours[side].set(i, (C_B4..=C_F4).contains(&self.combo[side][i]));
                fives[side].set(i, self.combo[side][i] == C_FIVE);
            }
        }
        near_set == self.near_set
            && fours == self.fours
            && fives == self.fives
            && pat_count == [*self.pat_counts(BLACK), *self.pat_counts(WHITE)]
            && combo_count == [*self.combo_counts(BLACK), *self.combo_counts(WHITE)]
            && hash == self.hash
    }
}

/// The [`Side`] of a stone.
pub fn side_of(stone: Stone) -> Side {
    match stone {
        Stone::Black => BLACK,
        Stone::White => WHITE,
    }
}

/// The stone of a [`Side`].
pub fn stone_of(side: Side) -> Stone {
    if side == BLACK { Stone::Black } else { Stone::White }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::pattern_search::line::FORBIDDEN;
    use proptest::prelude::*;

    fn rule_of(n: u8) -> Rule {
        [Rule::Freestyle, Rule::Standard, Rule::Renju][usize::from(n % 3)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// After every make and every unmake of a random game, the kept patterns equal a full
        /// rescan.
        #[test]
        fn incremental_patterns_equal_a_rescan(
            rule in 0u8..3,
            size in prop_oneof![Just(15u8), Just(9u8)],
            picks in proptest::collection::vec(0usize..10_000, 1..70),
        ) {
            let rule = rule_of(rule);
            let mut pos = Position::new(&Board::new(size), rule, BLACK);
            for pick in picks {
                let empty: Vec<usize> = pos.points().iter().copied().filter(|&i| pos.is_empty(i)).collect();
                if empty.is_empty() {
                    break;
                }
                pos.make(empty[pick % empty.len()]);
                prop_assert!(pos.matches_rescan(), "after make at ply {}", pos.ply());
            }
            while pos.ply() > 0 {
                pos.unmake();
                prop_assert!(pos.matches_rescan(), "after unmake to ply {}", pos.ply());
            }
        }

        /// Under renju, every point the rules engine forbids black is forbidden by the pattern
        /// check too (which may forbid a little more).
        #[test]
        fn renju_patterns_forbid_all_the_rules_forbid(
            picks in proptest::collection::vec(0usize..10_000, 10..90),
        ) {
            let mut pos = Position::new(&Board::new(15), Rule::Renju, BLACK);
            // Stones near the centre, so that lines form.
            for pick in picks {
                let empty: Vec<usize> = pos
                    .points()
                    .iter()
                    .copied()
                    .filter(|&i| pos.is_empty(i) && pos.point(i).distance(Point::new(7, 7)) <= 4)
                    .collect();
                if empty.is_empty() {
                    break;
                }
                pos.make(empty[pick % empty.len()]);
            }
            let board = pos.board();
            for &i in pos.points() {
                if pos.is_empty(i) && board.forbidden(pos.point(i)).is_some() {
                    prop_assert_eq!(pos.combo(BLACK, i), FORBIDDEN, "{}", pos.point(i));
                }
            }
        }
    }

    #[test]
    fn known_forbidden_shapes() {
        let mut board = Board::new(15);
        // A double three at (7,7): (5,7),(6,7) and (7,5),(7,6).
        for (x, y) in [(5, 7), (6, 7), (7, 5), (7, 6)] {
            board.set(Point::new(x, y), Some(Stone::Black));
        }
        board.set(Point::new(0, 0), Some(Stone::White));
        board.set(Point::new(0, 1), Some(Stone::White));
        board.set(Point::new(0, 2), Some(Stone::White));
        board.set(Point::new(0, 3), Some(Stone::White));
        let pos = Position::new(&board, Rule::Renju, BLACK);
        let centre = pos.index(Point::new(7, 7));
        assert!(board.forbidden(Point::new(7, 7)).is_some());
        assert_eq!(pos.combo(BLACK, centre), FORBIDDEN);
        let free = Position::new(&board, Rule::Freestyle, BLACK);
        assert_eq!(
            free.combo(BLACK, centre),
            crate::gomoku::pattern_search::line::C_F3X2
        );
    }
}
