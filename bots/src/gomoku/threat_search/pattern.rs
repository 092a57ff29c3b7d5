//! Line patterns seen from an empty point: what one more stone of a colour at that point makes
//! along one line, looked up from the 5 points on each side (a table of 3^10 entries).

use std::sync::OnceLock;

/// Nothing useful.
pub(crate) const NONE: u8 = 0;
/// Makes an open two's seed: one more stone makes an open two.
pub(crate) const FLEX1: u8 = 1;
/// Makes a closed two: one more stone makes a closed three.
pub(crate) const BLOCK2: u8 = 2;
/// Makes an open two: one more stone makes an open three.
pub(crate) const FLEX2: u8 = 3;
/// Makes a closed three: one more stone makes a (closed) four.
pub(crate) const BLOCK3: u8 = 4;
/// Makes an open three: one more stone makes a straight (open) four.
pub(crate) const FLEX3: u8 = 5;
/// Makes a closed four: exactly one point completes a five.
pub(crate) const BLOCK4: u8 = 6;
/// Makes an open (straight) four: two points five apart complete a five.
pub(crate) const FLEX4: u8 = 7;
/// Makes two fours on this one line (`x.xxx.x`).
pub(crate) const DOUBLE4: u8 = 8;
/// Makes a five (a win under the colour's rule).
pub(crate) const FIVE: u8 = 9;
/// Makes six or more in a row where only exactly five wins.
pub(crate) const OVERLINE: u8 = 10;

/// Points on each side of the centre that a pattern looks at.
pub(crate) const HALF: usize = 5;
/// Entries in a table: 3 states (empty, own, blocked) for each of the 10 neighbours.
pub(crate) const KEYS: usize = 59049;

const EMPTY: u8 = 0;
const OWN: u8 = 1;

/// The pattern table for a colour whose five must be exact (`exact`: standard, renju black) or
/// may be longer (freestyle, renju white), indexed by the key of the 10 neighbours (their states in base 3; `decode` reads one back).
pub(crate) fn table(exact: bool) -> &'static [u8] {
    static TABLES: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| [build(false), build(true)]);
    &tables[usize::from(exact)]
}

/// Digit position of line index `i` (0..11, centre 5 excluded) in a key.
fn digit(i: usize) -> usize {
    if i < HALF { i } else { i - 1 }
}

const POW3: [usize; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

fn decode(key: usize) -> [u8; 11] {
    let mut line = [0u8; 11];
    for (i, cell) in line.iter_mut().enumerate() {
        *cell = if i == HALF {
            OWN
        } else {
            ((key / POW3[digit(i)]) % 3) as u8
        };
    }
    line
}

fn run(line: &[u8; 11], i: usize) -> usize {
    let mut len = 1;
    let mut k = i;
    while k > 0 && line[k - 1] == OWN {
        len += 1;
        k -= 1;
    }
    let mut k = i;
    while k + 1 < 11 && line[k + 1] == OWN {
        len += 1;
        k += 1;
    }
    len
}

fn wins(len: usize, exact: bool) -> bool {
    if exact { len == 5 } else { len >= 5 }
}

fn build(exact: bool) -> Vec<u8> {
    let mut memo = vec![u8::MAX; KEYS];
    for key in 0..KEYS {
        classify(key, exact, &mut memo);
    }
    memo
}

/// Mirrors the renju definitions of `Board::forbidden` (a four: one more stone makes a five
/// through the centre; a three: one more stone makes a straight four), without the recursive
/// "completing point not forbidden" test, so it may see a three the referee does not.
fn classify(key: usize, exact: bool, memo: &mut [u8]) -> u8 {
    if memo[key] != u8::MAX {
        return memo[key];
    }
    let mut line = decode(key);
    let len = run(&line, HALF);
    let result = if len >= 5 {
        if wins(len, exact) { FIVE } else { OVERLINE }
    } else {
        let mut fives = [0usize; 8];
        let mut count = 0;
        for k in 1..=9 {
            if k == HALF || line[k] != EMPTY {
                continue;
            }
            let (lo, hi) = if k < HALF { (k + 1, HALF) } else { (HALF + 1, k) };
            if !(lo..hi).all(|i| line[i] == OWN) {
                continue;
            }
            line[k] = OWN;
            if wins(run(&line, HALF), exact) {
                fives[count] = k;
                count += 1;
            }
            line[k] = EMPTY;
        }
        match count {
            0 => {
                let mut best = NONE;
                for k in 1..=9 {
                    if k == HALF || line[k] != EMPTY {
                        continue;
                    }
                    let next = classify(key + POW3[digit(k)] * usize::from(OWN), exact, memo);
                    let lower = match next {
                        FLEX4 => FLEX3,
                        BLOCK4 | DOUBLE4 => BLOCK3,
                        FLEX3 => FLEX2,
                        BLOCK3 => BLOCK2,
                        FLEX2 => FLEX1,
                        _ => NONE,
                    };
                    best = best.max(lower);
                }
                best
            }
            1 => BLOCK4,
            2 if fives[1] - fives[0] == 5 => FLEX4,
            _ => DOUBLE4,
        }
    };
    memo[key] = result;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(s: &str) -> usize {
        // 11 chars, centre must be 'x'; '.' empty, 'x' own, 'o' blocked.
        let b = s.as_bytes();
        assert_eq!(b.len(), 11);
        assert_eq!(b[HALF], b'x');
        (0..11)
            .filter(|&i| i != HALF)
            .map(|i| {
                let t = match b[i] {
                    b'.' => 0,
                    b'x' => 1,
                    _ => 2,
                };
                t * POW3[digit(i)]
            })
            .sum()
    }

    #[test]
    fn known_shapes() {
        let t = table(false);
        let e = table(true);
        assert_eq!(t[key_of("...xxxxx...")], FIVE);
        assert_eq!(t[key_of("..xxxxxx...")], FIVE);
        assert_eq!(e[key_of("..xxxxxx...")], OVERLINE);
        assert_eq!(t[key_of("....xxxx...")], FLEX4);
        assert_eq!(t[key_of("...oxxxx...")], BLOCK4);
        assert_eq!(t[key_of("..x.xxx.x..")], DOUBLE4);
        assert_eq!(t[key_of("....xxx....")], FLEX3);
        assert_eq!(t[key_of("...x.xx....")], FLEX3);
        assert_eq!(t[key_of("...oxxx....")], BLOCK3);
        assert_eq!(t[key_of(".....xx....")], FLEX2);
        assert_eq!(t[key_of("....oxx....")], BLOCK2);
        // Exact five: a four next to a stone that would make six is only a closed four.
        assert_eq!(e[key_of("..x.xxxx...")], BLOCK4);
    }
}
