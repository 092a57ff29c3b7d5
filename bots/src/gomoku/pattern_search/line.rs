//! Line patterns: what one more stone of a colour makes on one line through an empty point, read
//! from a table indexed by the ten points around it (five each side), and what a point's four
//! lines make together (four-three, double four, double three, ...), read from a second table.
//!
//! The classes follow the usual definitions of pattern-table engines (Rapfi, Embryo): a *four*
//! is a line one more stone turns into five; a *flex four* (`.xxxx.`) has two such points five
//! apart; a *three* one more stone turns into a four, a *flex three* into a flex four; and so on
//! down to a lone stone. Under renju the classes for black use "exactly five" and the RIF
//! definitions of `Board::forbidden` (a straight four counts as one four, `x.xxx.x` as two).

use std::sync::OnceLock;

/// A line pattern at an empty point for one colour: what a stone of that colour there makes on
/// that line. Ordered from worst to best (except [`OVERLINE`], which only exact-five rules
/// produce and which is worth nothing).
pub type Pat = u8;

/// No five can ever pass through the point on this line.
pub const DEAD: Pat = 0;
/// One stone with room for a five but only one way to grow to a flex two.
pub const B1: Pat = 1;
/// One stone, open.
pub const F1: Pat = 2;
/// Two stones that can become a three but not a flex three.
pub const B2: Pat = 3;
/// Two stones that can become a flex three.
pub const F2: Pat = 4;
/// A three that can become a four but not a flex four.
pub const B3: Pat = 5;
/// A flex (open) three: one more stone makes a flex four.
pub const F3: Pat = 6;
/// A four: one point then makes five.
pub const B4: Pat = 7;
/// Two fours on one line that are not a flex four (`x.xxx.x`, `xx.xx.xx`): two five points.
pub const D4: Pat = 8;
/// A flex (straight) four: two five points five apart (`.xxxx.`).
pub const F4: Pat = 9;
/// A five (exactly five under exact-five rules, five or more otherwise).
pub const FIVE: Pat = 10;
/// Six or more in a row under an exact-five rule (forbidden for renju black; nothing otherwise).
pub const OVERLINE: Pat = 11;
/// Number of line pattern codes.
pub const PATTERNS: usize = 12;

/// What a point's four lines make together for one colour. Ordered from worst to best, except
/// [`FORBIDDEN`].
pub type Combo = u8;

/// Nothing worth a threat.
pub const C_NONE: Combo = 0;
/// Some two or a closed three.
pub const C_QUIET: Combo = 1;
/// One flex three (plus any closed threes).
pub const C_F3: Combo = 2;
/// Two or more flex threes (a double three).
pub const C_F3X2: Combo = 3;
/// One four, with no flex three on another line.
pub const C_B4: Combo = 4;
/// A four and a flex three on another line (a four-three).
pub const C_B4F3: Combo = 5;
/// A flex four or two fours (double four): wins unless the opponent has a five to make.
pub const C_F4: Combo = 6;
/// A five.
pub const C_FIVE: Combo = 7;
/// Forbidden for black under renju (overline, double four, or two flex threes; stricter than
/// the rules: a three whose completing point is itself forbidden still counts here).
pub const FORBIDDEN: Combo = 8;
/// Number of combination codes.
pub const COMBOS: usize = 9;

/// Points each side of the centre a line key covers (five: enough to tell exactly five from an
/// overline).
pub const HALF: i32 = 5;
/// Bits of a line key: two per point, ten points.
pub const KEY_BITS: u32 = 20;

/// A cell in a line key: empty.
pub const EMPTY: u32 = 0;
/// A cell in a line key seen from the colour being classified: its own stone.
pub const OWN: u32 = 1;
/// A cell in a line key: the other colour's stone.
pub const OTHER: u32 = 2;
/// A cell in a line key: off the board.
pub const WALL: u32 = 3;

/// The bit shift of the cell `k` points from the centre (`k` in `-5..=5`, not 0) in a line key.
pub const fn shift(k: i32) -> u32 {
    (if k < 0 { k + HALF } else { k + HALF - 1 }) as u32 * 2
}

/// A key with black as [`OWN`] turned into the same line seen from white.
pub const fn swap_colours(key: u32) -> u32 {
    let differ = (key ^ (key >> 1)) & 0x5_5555;
    key ^ (differ | (differ << 1))
}

fn cell(key: u32, k: i32) -> u32 {
    if k == 0 { OWN } else { (key >> shift(k)) & 3 }
}

/// Own stones in a row through the centre (the centre taken as own).
fn run(key: u32) -> i32 {
    let mut n = 1;
    for dir in [-1, 1] {
        let mut k: i32 = dir;
        while k.abs() <= HALF && cell(key, k) == OWN {
            n += 1;
            k += dir;
        }
    }
    n
}

struct Builder {
    exact: bool,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

impl Builder {
    fn wins(&self, length: i32) -> bool {
        if self.exact { length == 5 } else { length >= 5 }
    }

    /// The pattern of the line `key` with an own stone at the centre.
    fn shape(&mut self, key: u32) -> Pat {
        let memo = self.memo[key as usize];
        if memo != UNKNOWN {
            return memo;
        }
        let length = run(key);
        let pat = if self.wins(length) {
            FIVE
        } else if length > 5 {
            OVERLINE
        } else {
            let mut fives = Vec::new();
            for k in (-4..=4).filter(|&k| k != 0) {
                if cell(key, k) == EMPTY && self.wins(run(key | (OWN << shift(k)))) {
                    // The new stone joins the centre's run only if it is part of the five.
                    let joined = run(key | (OWN << shift(k))) > length;
                    if joined {
                        fives.push(k);
                    }
                }
            }
            match fives.as_slice() {
                [a, b] if b - a == 5 => F4,
                [_, _, ..] => D4,
                [_] => B4,
                [] => {
                    let mut best = DEAD;
                    for k in (-4..=4).filter(|&k| k != 0) {
                        if cell(key, k) == EMPTY {
                            let down = match self.shape(key | (OWN << shift(k))) {
                                F4 => F3,
                                D4 | B4 => B3,
                                F3 => F2,
                                B3 => B2,
                                F2 => F1,
                                B2 => B1,
                                _ => DEAD,
                            };
                            best = best.max(down);
                        }
                    }
                    best
                }
            }
        };
        self.memo[key as usize] = pat;
        pat
    }
}

/// Whether the walls in `key` are where a board edge can put them: a block at the far end of
/// each side.
fn valid(key: u32) -> bool {
    for dir in [-1, 1] {
        let mut wall = false;
        for step in 1..=HALF {
            let is_wall = cell(key, dir * step) == WALL;
            if wall && !is_wall {
                return false;
            }
            wall |= is_wall;
        }
    }
    true
}

fn build(exact: bool) -> Vec<Pat> {
    let mut builder = Builder {
        exact,
        memo: vec![UNKNOWN; 1 << KEY_BITS],
    };
    for key in 0..1u32 << KEY_BITS {
        if valid(key) {
            builder.shape(key);
        }
    }
    builder
        .memo
        .into_iter()
        .map(|p| if p == UNKNOWN { DEAD } else { p })
        .collect()
}

/// The line table for "five or more wins" (`exact == false`) or "exactly five wins": entry `key`
/// (a 20-bit key, [`OWN`] the colour classified) is the [`Pat`] a stone of that colour at the
/// centre makes. Built once (about 130,000 valid keys), 1 MiB each.
pub fn line_table(exact: bool) -> &'static [Pat] {
    static LONG: OnceLock<Vec<Pat>> = OnceLock::new();
    static EXACT: OnceLock<Vec<Pat>> = OnceLock::new();
    if exact {
        EXACT.get_or_init(|| build(true))
    } else {
        LONG.get_or_init(|| build(false))
    }
}

/// Entries of a line table: one per 20-bit line key.
pub const LINE_KEYS: usize = 1 << KEY_BITS;

/// Both colours' patterns of one line key, packed: black's [`Pat`] in the low four bits,
/// white's in the high four (the key has black as [`OWN`]). `exact_black` and `exact_white` say
/// whether exactly five wins for each colour (see [`line_table`]). Built once per pair from the
/// two line tables, 1 MiB, so that a stone's update reads one byte per point and direction
/// instead of one from each colour's table. (A table over the valid keys alone, 129 KiB
/// indexed by the ranks of the key's two halves, measured slower: three dependent reads.)
pub fn pair_table(exact_black: bool, exact_white: bool) -> &'static [u8; LINE_KEYS] {
    static PAIRS: [OnceLock<Box<[u8; LINE_KEYS]>>; 4] = [const { OnceLock::new() }; 4];
    PAIRS[usize::from(exact_black) * 2 + usize::from(exact_white)].get_or_init(|| {
        let (black, white) = (line_table(exact_black), line_table(exact_white));
        (0..LINE_KEYS as u32)
            .map(|key| black[key as usize] | white[swap_colours(key) as usize] << 4)
            .collect::<Box<[u8]>>()
            .try_into()
            .expect("one entry per line key")
    })
}

/// The index of four line patterns (one per direction) in a combination table.
pub fn combo_index(pats: [Pat; 4]) -> usize {
    usize::from(pats[0]) | usize::from(pats[1]) << 4 | usize::from(pats[2]) << 8 | usize::from(pats[3]) << 12
}

/// The combination of four line patterns; `renju_black` applies black's forbidden shapes.
pub fn combine(pats: [Pat; 4], renju_black: bool) -> Combo {
    let count = |p: Pat| pats.iter().filter(|&&q| q == p).count();
    if count(FIVE) > 0 {
        return C_FIVE;
    }
    let fours = count(B4) + count(F4) + 2 * count(D4);
    let flex3 = count(F3);
    if renju_black && (count(OVERLINE) > 0 || fours >= 2 || flex3 >= 2) {
        return FORBIDDEN;
    }
    if count(F4) > 0 || fours >= 2 {
        C_F4
    } else if fours == 1 && flex3 > 0 {
        C_B4F3
    } else if fours == 1 {
        C_B4
    } else if flex3 >= 2 {
        C_F3X2
    } else if flex3 == 1 {
        C_F3
    } else if pats.iter().any(|&p| (B2..=B3).contains(&p)) {
        C_QUIET
    } else {
        C_NONE
    }
}

/// Builds every table a [`super::board::Position`] of any rule reads (once per process; the
/// calls after the first return at once), so that no decision's clock pays for them: the line
/// tables, the four pair tables and both combination tables, about 6.2 MiB.
pub fn build_all() {
    for exact_black in [false, true] {
        for exact_white in [false, true] {
            pair_table(exact_black, exact_white);
        }
        combo_table(exact_black);
    }
}

/// Entries of a combination table: one per four 4-bit line patterns.
pub const COMBO_KEYS: usize = 1 << 16;

/// The combination table (indexed by [`combo_index`]) for a colour; `renju_black` for black
/// under renju.
pub fn combo_table(renju_black: bool) -> &'static [Combo; COMBO_KEYS] {
    static PLAIN: OnceLock<Box<[Combo; COMBO_KEYS]>> = OnceLock::new();
    static RENJU: OnceLock<Box<[Combo; COMBO_KEYS]>> = OnceLock::new();
    let slot = if renju_black { &RENJU } else { &PLAIN };
    slot.get_or_init(|| {
        (0..COMBO_KEYS)
            .map(|i| {
                let pats = [0, 4, 8, 12].map(|s| ((i >> s) & 15) as Pat);
                if pats.iter().any(|&p| usize::from(p) >= PATTERNS) {
                    C_NONE
                } else {
                    combine(pats, renju_black)
                }
            })
            .collect::<Box<[Combo]>>()
            .try_into()
            .expect("one entry per combination key")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a picture of the line, centre `c` (own stone to be placed), `x` own, `o`
    /// other, `#` wall, `.` empty; eleven characters.
    fn key(line: &str) -> u32 {
        assert_eq!(line.len(), 11);
        line.chars()
            .enumerate()
            .filter(|&(i, _)| i != 5)
            .map(|(i, c)| {
                let v = match c {
                    'x' => OWN,
                    'o' => OTHER,
                    '#' => WALL,
                    _ => EMPTY,
                };
                v << shift(i as i32 - 5)
            })
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn classes_of_known_lines() {
        let long = line_table(false);
        let exact = line_table(true);
        let at = |t: &[Pat], s: &str| t[key(s) as usize];
        assert_eq!(at(long, "..xxxcx...."), FIVE);
        assert_eq!(at(long, "..xxxcx...."), FIVE);
        assert_eq!(at(exact, "..xxxcxx..."), OVERLINE);
        assert_eq!(at(long, "....xcxx..."), F4);
        assert_eq!(at(long, "...oxcxx..."), B4);
        assert_eq!(at(long, "..x.xcx.x.."), D4);
        assert_eq!(at(long, ".....cxx..."), F3);
        assert_eq!(at(long, "....ocxx..."), B3);
        assert_eq!(at(long, ".....cx...."), F2);
        assert_eq!(at(long, ".....c....."), F1);
        assert_eq!(at(long, "##oo.c.o..."), DEAD);
        // A split four: one point makes five.
        assert_eq!(at(exact, ".xx.xc....."), B4);
        assert_eq!(at(long, ".xx.xc....."), B4);
    }

    #[test]
    fn swapping_colours_twice_is_the_identity() {
        let k = key("#o.xoc.xx.o");
        assert_eq!(swap_colours(swap_colours(k)), k);
        assert_eq!(swap_colours(k), key("#x.oxc.oo.x"));
    }
}
