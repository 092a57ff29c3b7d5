//! A set of padded point indices as a bitboard, kept by [`Position`](super::board::Position)
//! for the points the search looks for at every node (empty points near a stone, fours,
//! fives), so that it walks a few words instead of the whole board. Its points come out in
//! increasing index order, which is the board's row-by-row order.

/// The largest board, in lines (the rules engine accepts 5 to 26).
const MAX_SIZE: usize = 26;
/// Padded indices a set may hold: the largest board with its padding of five points a side
/// (`board::PAD`).
const MAX_POINTS: usize = (MAX_SIZE + 10) * (MAX_SIZE + 10);
/// 64-bit words of a set.
const WORDS: usize = MAX_POINTS.div_ceil(64);

/// A set of padded point indices (each below 1,296: a 26x26 board with its padding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointSet {
    words: [u64; WORDS],
}

impl PointSet {
    /// Adds `i`.
    ///
    /// # Panics
    /// When `i` is past the largest padded board.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Removes `i`.
    ///
    /// # Panics
    /// When `i` is past the largest padded board.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Adds `i` when `on`, removes it otherwise.
    #[inline]
    pub fn set(&mut self, i: usize, on: bool) {
        if on {
            self.insert(i);
        } else {
            self.remove(i);
        }
    }

    /// Whether `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The points in either set.
    #[inline]
    pub fn union(&self, other: &PointSet) -> PointSet {
        PointSet {
            words: std::array::from_fn(|k| self.words[k] | other.words[k]),
        }
    }

    /// Points held.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set holds no point.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The points, in increasing index order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A set holds what was put in and not taken out, in increasing order.
        #[test]
        fn holds_what_a_sorted_list_holds(ops in proptest::collection::vec((0usize..MAX_POINTS, any::<bool>()), 0..200)) {
            let mut set = PointSet::default();
            let mut list = std::collections::BTreeSet::new();
            for (i, on) in ops {
                set.set(i, on);
                if on { list.insert(i); } else { list.remove(&i); }
            }
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), list.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(set.len(), list.len());
            prop_assert_eq!(set.is_empty(), list.is_empty());
            for i in 0..MAX_POINTS {
                prop_assert_eq!(set.contains(i), list.contains(&i));
            }
        }
    }
}
