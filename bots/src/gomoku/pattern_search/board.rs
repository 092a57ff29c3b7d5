//! The search's board: stones on a padded grid, and for every empty point, each direction and
//! each colour the line pattern a stone there would make ([`line`](super::line)), with the four
//! lines' combination and the number of empty points showing each pattern and combination.
//!
//! A stone changes only the ten points each side of it on its four lines, so [`Position::make`]
//! and [`Position::unmake`] update at most 80 (point, direction) entries, each by two table
//! reads, instead of rescanning the board.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use skirmish_games::gomoku::{Board, Point, Rule, Stone};

use super::line::{
    COMBOS, Combo, EMPTY, HALF, PATTERNS, Pat, WALL, combo_index, combo_table, line_table, shift,
    swap_colours,
};

/// Points of padding around the board (a line key reaches five points out).
const PAD: usize = HALF as usize;

/// A colour as an index: 0 black, 1 white.
pub type Side = usize;
/// Black's [`Side`].
pub const BLACK: Side = 0;
/// White's [`Side`].
pub const WHITE: Side = 1;

/// A position under search, with incrementally kept line patterns.
#[derive(Clone)]
pub struct Position {
    size: u8,
    width: usize,
    /// Per padded point: [`EMPTY`], 1 black, 2 white, or [`WALL`] (padding).
    cells: Vec<u8>,
    /// Per padded point and direction: the line key (10 points, 2 bits each), black as own.
    keys: Vec<[u32; 4]>,
    /// Per colour, point and direction: the line pattern (kept current for empty points only).
    pat: [Vec<[Pat; 4]>; 2],
    /// Per colour and point: the combination of the point's four patterns.
    combo: [Vec<Combo>; 2],
    /// Per colour: how many (empty point, direction) pairs show each pattern.
    pat_count: [[i32; PATTERNS]; 2],
    /// Per colour: how many empty points show each combination.
    combo_count: [[i32; COMBOS]; 2],
    /// Per padded point: stones within two points (a 5x5 square).
    near: Vec<u8>,
    /// Direction steps in padded indices.
    steps: [isize; 4],
    /// The on-board points, as padded indices, row by row.
    points: Vec<usize>,
    zobrist: Vec<[u64; 2]>,
    hash: u64,
    history: Vec<usize>,
    side: Side,
    tables: [&'static [Pat]; 2],
    combos: [&'static [Combo]; 2],
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
            pat: [vec![[0; 4]; width * width], vec![[0; 4]; width * width]],
            combo: [vec![0; width * width], vec![0; width * width]],
            pat_count: [[0; PATTERNS]; 2],
            combo_count: [[0; COMBOS]; 2],
            near: vec![0; width * width],
            steps,
            points,
            zobrist,
            hash: 0,
            history: Vec::new(),
            side,
            tables: [line_table(exact(Stone::Black)), line_table(exact(Stone::White))],
            combos: [combo_table(rule == Rule::Renju), combo_table(false)],
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
        self.history.last().copied()
    }

    /// The Zobrist hash of the stones (the side to move follows from them).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Line patterns of `side` at empty point `i`, one per direction.
    pub fn pats(&self, side: Side, i: usize) -> [Pat; 4] {
        self.pat[side][i]
    }

    /// The combination of `side` at empty point `i`.
    pub fn combo(&self, side: Side, i: usize) -> Combo {
        self.combo[side][i]
    }

    /// (empty point, direction) pairs where `side` shows each pattern.
    pub fn pat_counts(&self, side: Side) -> &[i32; PATTERNS] {
        &self.pat_count[side]
    }

    /// Empty points where `side` shows each combination.
    pub fn combo_counts(&self, side: Side) -> &[i32; COMBOS] {
        &self.combo_count[side]
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
        self.count(i, -1);
        let colour = self.side as u32 + 1;
        self.cells[i] = colour as u8;
        self.hash ^= self.zobrist[i][self.side];
        for d in 0..4 {
            let step = self.steps[d];
            for k in (-HALF..=HALF).filter(|&k| k != 0) {
                let q = (i as isize - k as isize * step) as usize;
                if self.cells[q] == WALL as u8 {
                    continue;
                }
                self.keys[q][d] |= colour << shift(k);
                if self.cells[q] == EMPTY as u8 {
                    self.update(q, d);
                }
            }
        }
        self.touch_near(i, 1);
        self.history.push(i);
        self.side ^= 1;
    }

    /// Takes back the last [`Position::make`].
    ///
    /// # Panics
    /// When nothing was played since [`Position::new`].
    pub fn unmake(&mut self) {
        let i = self.history.pop().expect("unmake follows a make");
        self.side ^= 1;
        self.cells[i] = EMPTY as u8;
        self.hash ^= self.zobrist[i][self.side];
        for d in 0..4 {
            let step = self.steps[d];
            for k in (-HALF..=HALF).filter(|&k| k != 0) {
                let q = (i as isize - k as isize * step) as usize;
                if self.cells[q] == WALL as u8 {
                    continue;
                }
                self.keys[q][d] &= !(3 << shift(k));
                if self.cells[q] == EMPTY as u8 {
                    self.update(q, d);
                }
            }
        }
        self.touch_near(i, -1);
        self.refresh(i);
    }

    /// Passes the move (for threat searches that let one side play twice).
    pub fn pass(&mut self) {
        self.side ^= 1;
    }

    fn touch_near(&mut self, i: usize, by: i32) {
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let q = (i as isize + dy * self.width as isize + dx) as usize;
                self.near[q] = (i32::from(self.near[q]) + by) as u8;
            }
        }
    }

    /// Adds (`by` = 1) or removes (-1) empty point `i`'s patterns and combinations from the counts.
    fn count(&mut self, i: usize, by: i32) {
        for side in [BLACK, WHITE] {
            for p in self.pat[side][i] {
                self.pat_count[side][usize::from(p)] += by;
            }
            self.combo_count[side][usize::from(self.combo[side][i])] += by;
        }
    }

    fn pattern(&self, side: Side, key: u32) -> Pat {
        let key = if side == BLACK { key } else { swap_colours(key) };
        self.tables[side][key as usize]
    }

    /// Recomputes empty point `i`'s pattern along direction `d` (its key changed).
    fn update(&mut self, i: usize, d: usize) {
        let key = self.keys[i][d];
        for side in [BLACK, WHITE] {
            let new = self.pattern(side, key);
            let old = self.pat[side][i][d];
            if new == old {
                continue;
            }
            self.pat_count[side][usize::from(old)] -= 1;
            self.pat_count[side][usize::from(new)] += 1;
            self.pat[side][i][d] = new;
            let combo = self.combos[side][combo_index(self.pat[side][i])];
            let was = std::mem::replace(&mut self.combo[side][i], combo);
            self.combo_count[side][usize::from(was)] -= 1;
            self.combo_count[side][usize::from(combo)] += 1;
        }
    }

    /// Recomputes all of empty point `i`'s patterns from its keys and counts them.
    fn refresh(&mut self, i: usize) {
        for side in [BLACK, WHITE] {
            for d in 0..4 {
                self.pat[side][i][d] = self.pattern(side, self.keys[i][d]);
            }
            self.combo[side][i] = self.combos[side][combo_index(self.pat[side][i])];
        }
        self.count(i, 1);
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
                    if p != self.pat[side][i][d] {
                        return false;
                    }
                    pat_count[side][usize::from(p)] += 1;
                }
            }
            for side in [BLACK, WHITE] {
                let combo = self.combos[side][combo_index(self.pat[side][i])];
                if combo != self.combo[side][i] {
                    return false;
                }
                combo_count[side][usize::from(combo)] += 1;
            }
        }
        pat_count == self.pat_count && combo_count == self.combo_count && hash == self.hash
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
