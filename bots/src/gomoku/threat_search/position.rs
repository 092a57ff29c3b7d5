//! The search's board: stones, per-point line patterns for both colours kept up to date on every
//! make/unmake (only the points on the four lines through the move, 5 each way, are looked at
//! again), a Zobrist hash, neighbourhood counts and the evaluation sums.

use skirmish_games::gomoku::{Board, DIRECTIONS, Point, Rule, Stone};

use super::pattern::{self, BLOCK3, BLOCK4, DOUBLE4, FIVE, FLEX2, FLEX3, FLEX4, HALF, OVERLINE};

/// Colour index: 0 black, 1 white. Cells hold 0 (empty) or colour + 1.
pub(crate) type Colour = usize;
pub(crate) const BLACK: Colour = 0;

const OFF: u16 = u16::MAX;

/// Value of each pattern code in the evaluation (a point's promise for a colour), by
/// [`pattern`] code order: none, flex1, block2, flex2, block3, flex3, block4, flex4, double4,
/// five, overline. Tuned by hand.
pub(crate) const VALUE: [i32; 11] = [0, 1, 3, 8, 10, 40, 50, 300, 300, 1500, 0];

/// Extra value of a point where one stone makes threats on two lines at once, as pattern-table
/// engines (Rapfi, Embryo) score a point's four lines together rather than one by one: a four
/// with an open three, or two fours (a win unless the opponent forces first), two open threes,
/// an open three with a closed three, two open twos. Tuned by hand (issue 19).
pub(crate) const COMBO: [i32; 4] = [250, 120, 25, 12];

/// A point's value for one colour: its four lines' [`VALUE`]s plus the [`COMBO`] bonus. With
/// `renju_black`, a double four or double three is forbidden, so it earns no bonus.
pub(crate) fn point_value(p: &[u8; 4], renju_black: bool) -> i32 {
    let mut sum = 0;
    let (mut fours, mut threes, mut closed3, mut twos) = (0, 0, 0, 0);
    for &x in p {
        sum += VALUE[usize::from(x)];
        match x {
            FLEX4 | BLOCK4 => fours += 1,
            DOUBLE4 => fours += 2,
            FLEX3 => threes += 1,
            BLOCK3 => closed3 += 1,
            FLEX2 => twos += 1,
            _ => {}
        }
    }
    let bonus = if fours >= 2 {
        if renju_black { 0 } else { COMBO[0] }
    } else if fours == 1 && threes >= 1 {
        COMBO[0]
    } else if threes >= 2 {
        if renju_black { 0 } else { COMBO[1] }
    } else if threes == 1 && (closed3 >= 1 || twos >= 1) {
        COMBO[2]
    } else if twos >= 2 {
        COMBO[3]
    } else {
        0
    };
    sum + bonus
}

#[derive(Clone)]
pub(crate) struct Position {
    pub(crate) size: usize,
    pub(crate) rule: Rule,
    pub(crate) cells: Vec<u8>,
    /// `pat[colour][point][dir]`: the pattern code of one more `colour` stone at the (empty)
    /// point along `DIRECTIONS[dir]`.
    pub(crate) pat: [Vec<[u8; 4]>; 2],
    /// Stones within Chebyshev distance 2 of each point.
    pub(crate) near: Vec<u8>,
    nbr: Vec<[[u16; 10]; 4]>,
    zobrist: Vec<[u64; 2]>,
    pub(crate) hash: u64,
    /// Sum of [`point_value`] over every empty point, per colour.
    pub(crate) pot: [i32; 2],
    pub(crate) side: Colour,
    pub(crate) moves: Vec<u16>,
    tables: [&'static [u8]; 2],
}

impl Position {
    pub(crate) fn new(board: &Board, rule: Rule, side: Stone) -> Position {
        let size = usize::from(board.size());
        let n = size * size;
        let mut nbr = vec![[[OFF; 10]; 4]; n];
        for (i, lines) in nbr.iter_mut().enumerate() {
            let p = Point::from_index(i, board.size());
            for (d, &dir) in DIRECTIONS.iter().enumerate() {
                for (j, slot) in lines[d].iter_mut().enumerate() {
                    let k = if j < HALF { j as i32 - 5 } else { j as i32 - 4 };
                    if let Some(q) = p.step(dir, k, board.size()) {
                        *slot = q.index(board.size()) as u16;
                    }
                }
            }
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            // splitmix64
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let zobrist = (0..n).map(|_| [next(), next()]).collect();
        let exact = |c: Stone| match rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => c == Stone::Black,
        };
        let mut pos = Position {
            size,
            rule,
            cells: vec![0; n],
            pat: [vec![[0; 4]; n], vec![[0; 4]; n]],
            near: vec![0; n],
            nbr,
            zobrist,
            hash: 0,
            pot: [0, 0],
            side: 0,
            moves: Vec::new(),
            tables: [
                pattern::table(exact(Stone::Black)),
                pattern::table(exact(Stone::White)),
            ],
        };
        for p in board.points() {
            if let Some(stone) = board.get(p) {
                let i = p.index(board.size());
                pos.cells[i] = if stone == Stone::Black { 1 } else { 2 };
                pos.hash ^= pos.zobrist[i][usize::from(stone == Stone::White)];
                pos.bump_near(i, 1);
            }
        }
        for i in 0..n {
            if pos.cells[i] == 0 {
                for d in 0..4 {
                    pos.refresh(i, d);
                }
            }
        }
        pos.side = usize::from(side == Stone::White);
        pos
    }

    fn bump_near(&mut self, i: usize, add: i8) {
        let (x, y) = ((i % self.size) as i32, (i / self.size) as i32);
        for dy in -2..=2 {
            for dx in -2..=2 {
                let (a, b) = (x + dx, y + dy);
                if a >= 0 && b >= 0 && (a as usize) < self.size && (b as usize) < self.size {
                    let j = b as usize * self.size + a as usize;
                    self.near[j] = self.near[j].wrapping_add_signed(add);
                }
            }
        }
    }

    /// Recomputes both colours' pattern at empty point `i` along direction `d`, keeping `pot`.
    fn refresh(&mut self, i: usize, d: usize) {
        let line = &self.nbr[i][d];
        let mut keys = [0usize; 2];
        let mut pow = 1;
        for &j in line {
            let (t0, t1) = if j == OFF {
                (2, 2)
            } else {
                match self.cells[usize::from(j)] {
                    0 => (0, 0),
                    1 => (1, 2),
                    _ => (2, 1),
                }
            };
            keys[0] += t0 * pow;
            keys[1] += t1 * pow;
            pow *= 3;
        }
        for (c, &key) in keys.iter().enumerate() {
            let new = self.tables[c][key];
            if self.pat[c][i][d] == new {
                continue;
            }
            let rb = self.renju_black(c);
            let before = point_value(&self.pat[c][i], rb);
            self.pat[c][i][d] = new;
            self.pot[c] += point_value(&self.pat[c][i], rb) - before;
        }
    }

    fn refresh_lines(&mut self, i: usize) {
        for d in 0..4 {
            for k in 0..10 {
                let j = self.nbr[i][d][k];
                if j != OFF && self.cells[usize::from(j)] == 0 {
                    self.refresh(usize::from(j), d);
                }
            }
        }
    }

    /// Puts the side to move's stone on empty point `i` and passes the turn.
    pub(crate) fn make(&mut self, i: usize) {
        let c = self.side;
        debug_assert_eq!(self.cells[i], 0);
        for colour in 0..2 {
            self.pot[colour] -= point_value(&self.pat[colour][i], self.renju_black(colour));
        }
        self.cells[i] = c as u8 + 1;
        self.hash ^= self.zobrist[i][c];
        self.bump_near(i, 1);
        self.refresh_lines(i);
        self.moves.push(i as u16);
        self.side ^= 1;
    }

    /// Takes back the last [`Position::make`].
    pub(crate) fn unmake(&mut self) {
        let i = usize::from(self.moves.pop().expect("a move to take back"));
        self.side ^= 1;
        let c = self.side;
        self.cells[i] = 0;
        self.hash ^= self.zobrist[i][c];
        self.bump_near(i, -1);
        self.refresh_lines(i);
        // The point's patterns are stale (from before the stone): clear all four lines
        // before refreshing any, so that each refresh's change of `point_value` starts from 0.
        for colour in 0..2 {
            self.pat[colour][i] = [0; 4];
        }
        for d in 0..4 {
            self.refresh(i, d);
        }
    }

    /// Whether `c` is black under renju (double threats forbidden).
    fn renju_black(&self, c: Colour) -> bool {
        self.rule == Rule::Renju && c == BLACK
    }

    /// Whether `c` may play at empty point `i`: always, except black under renju on a point the
    /// fast check finds forbidden (overline, double four, or double three where a three is any
    /// line one stone from a straight four; the referee's recursive three test can only find
    /// fewer threes, so this check never allows a point the referee forbids, given the patterns
    /// see 5 points each way, which covers every shape the referee looks at).
    pub(crate) fn legal(&self, c: Colour, i: usize) -> bool {
        if self.rule != Rule::Renju || c != BLACK {
            return true;
        }
        self.forbidden_fast(i) == 0
    }

    /// 0 when allowed, else 1 overline, 2 double four, 3 double three.
    pub(crate) fn forbidden_fast(&self, i: usize) -> u8 {
        let p = &self.pat[BLACK][i];
        if p.contains(&FIVE) {
            return 0;
        }
        if p.contains(&OVERLINE) {
            return 1;
        }
        let fours: u32 = p
            .iter()
            .map(|&x| match x {
                FLEX4 | BLOCK4 => 1,
                DOUBLE4 => 2,
                _ => 0,
            })
            .sum();
        if fours >= 2 {
            return 2;
        }
        if p.iter().filter(|&&x| x == FLEX3).count() >= 2 {
            return 3;
        }
        0
    }

    /// Whether the side-to-move-independent pattern of `c` at `i` includes `code` in some line.
    pub(crate) fn has(&self, c: Colour, i: usize, code: u8) -> bool {
        self.pat[c][i].contains(&code)
    }

    /// Fours (closed or open; a double four on one line counts 2) `c` makes at `i`.
    pub(crate) fn fours(&self, c: Colour, i: usize) -> u32 {
        self.pat[c][i]
            .iter()
            .map(|&x| match x {
                FLEX4 | BLOCK4 => 1,
                DOUBLE4 => 2,
                _ => 0,
            })
            .sum()
    }

    /// Whether `c` playing at `i` wins by force in one more move: a five now is handled
    /// elsewhere; this is an open four, or two fours, played legally.
    pub(crate) fn makes_winning_four(&self, c: Colour, i: usize) -> bool {
        let p = &self.pat[c][i];
        (p.contains(&FLEX4) || self.fours(c, i) >= 2) && self.legal(c, i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The incrementally kept sums equal a fresh count after any make/unmake sequence, with the
    /// combination bonus included (a wrong delta in `refresh`, `make` or `unmake` would drift).
    #[test]
    fn incremental_sums_match_a_fresh_count() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let board = Board::new(15);
            let mut pos = Position::new(&board, rule, Stone::Black);
            let mut state = 12345u64;
            let mut next = |n: usize| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as usize % n
            };
            for step in 0..400 {
                if pos.moves.len() > 40 || (step % 7 == 6 && !pos.moves.is_empty()) {
                    pos.unmake();
                } else {
                    let i = loop {
                        let i = 4 * 15 + 4 + next(7) * 15 + next(7);
                        if pos.cells[i] == 0 {
                            break i;
                        }
                    };
                    pos.make(i);
                }
                let mut fresh = [0i32; 2];
                for (c, sum) in fresh.iter_mut().enumerate() {
                    let rb = rule == Rule::Renju && c == BLACK;
                    *sum = (0..pos.cells.len())
                        .filter(|&i| pos.cells[i] == 0)
                        .map(|i| point_value(&pos.pat[c][i], rb))
                        .sum();
                }
                assert_eq!(pos.pot, fresh, "after step {step}");
            }
        }
    }

    #[test]
    fn a_four_with_an_open_three_earns_the_combination_bonus() {
        let four_three = [BLOCK4, FLEX3, 0, 0];
        let lines: i32 = four_three.iter().map(|&x| VALUE[usize::from(x)]).sum();
        assert_eq!(point_value(&four_three, false), lines + COMBO[0]);
        // Under renju a double three is forbidden for black: no bonus.
        let double_three = [FLEX3, FLEX3, 0, 0];
        assert_eq!(point_value(&double_three, true), 2 * VALUE[usize::from(FLEX3)]);
        assert_eq!(
            point_value(&double_three, false),
            2 * VALUE[usize::from(FLEX3)] + COMBO[1]
        );
    }
}
