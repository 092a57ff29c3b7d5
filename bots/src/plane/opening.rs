//! `bayes`'s opening book on 9x9 (`double`): the cell to fire at for the positions at the top of
//! its decision tree, where both planes stand and many deployments are still consistent.
//!
//! Those positions are few (every board starts from the same one) and cost the most to search, so
//! their shots are chosen offline by a slower and better method than the online search
//! ([`build_opening`](super::exhaustive::build_opening), behind `skirmish-bots eval --write-opening`): one round of policy improvement per
//! pass, each candidate cell valued by the *exact* expected shots of the current policy (book plus
//! search) below it, walked over every consistent deployment. The result is the generated table
//! [`OPENING`] (`opening_table.rs`).
//!
//! A position is keyed by its `miss` and `hit` cells (nothing is downed yet), brought to a
//! canonical form under the 8 symmetries of the square board (rotations and reflections map
//! placements to placements, and the uniform prior to itself). A position met in another
//! orientation gets the book's cell mapped back; when several symmetries give the canonical form
//! (the fresh board has all 8), each maps the cell back and `bayes` draws uniformly among the
//! images, so the book shows a deploying opponent no more than the search's random tie-breaks do.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::belief::{CellSet, Knowledge};

mod table;

pub use table::OPENING;

/// One symmetry of the board: (row, col, side - 1) to the image's (row, col).
type CellMap = fn(usize, usize, usize) -> (usize, usize);

/// The 8 symmetries of a `side` x `side` board as cell permutations: `perm[g][cell]` is the image
/// of bit index `cell` under symmetry `g` (0 is the identity).
fn symmetries(side: usize) -> Vec<Vec<usize>> {
    let last = side - 1;
    let maps: [CellMap; 8] = [
        |r, c, _| (r, c),
        |r, c, l| (c, l - r),
        |r, c, l| (l - r, l - c),
        |r, c, l| (l - c, r),
        |r, c, l| (r, l - c),
        |r, c, l| (l - r, c),
        |r, c, _| (c, r),
        |r, c, l| (l - c, l - r),
    ];
    maps.iter()
        .map(|f| {
            (0..side * side)
                .map(|i| {
                    let (r, c) = f(i / side, i % side, last);
                    r * side + c
                })
                .collect()
        })
        .collect()
}

/// The image of a cell set under a cell permutation.
fn map_cells(perm: &[usize], set: CellSet) -> CellSet {
    let mut out = 0u128;
    let mut s = set;
    while s != 0 {
        let c = s.trailing_zeros() as usize;
        s &= s - 1;
        out |= 1u128 << perm[c];
    }
    out
}

/// A book position: `(miss cells, hit cells)` in canonical orientation.
pub type Key = (CellSet, CellSet);

/// Positions and their cells, in canonical orientation, for one board side.
#[derive(Clone, Debug, Default)]
pub struct Book {
    side: usize,
    perms: Vec<Vec<usize>>,
    cells: HashMap<Key, u8>,
}

impl Book {
    /// An empty book for a board of `side` cells a side.
    pub fn new(side: usize) -> Book {
        Book {
            side,
            perms: symmetries(side),
            cells: HashMap::new(),
        }
    }

    /// The shipped 9x9 book ([`OPENING`]), built once.
    pub fn shipped() -> Arc<Book> {
        static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        Arc::clone(BOOK.get_or_init(|| {
            let mut book = Book::new(9);
            for &(miss, hit, cell) in OPENING {
                book.cells.insert((miss, hit), cell);
            }
            Arc::new(book)
        }))
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The canonical key of a position and the symmetries that bring it there.
    fn canonical(&self, miss: CellSet, hit: CellSet) -> (Key, Vec<usize>) {
        let mut best: Option<Key> = None;
        let mut via = Vec::new();
        for (g, perm) in self.perms.iter().enumerate() {
            let key = (map_cells(perm, miss), map_cells(perm, hit));
            match best {
                Some(b) if key > b => {}
                Some(b) if key == b => via.push(g),
                _ => {
                    best = Some(key);
                    via = vec![g];
                }
            }
        }
        (best.expect("8 symmetries"), via)
    }

    /// Whether `knowledge` is a book position at all: both planes standing, no `down` yet.
    fn applies(knowledge: &Knowledge) -> bool {
        knowledge.down == 0 && knowledge.downed.is_empty()
    }

    /// The book's cells (bit indices, in `knowledge`'s own orientation, each to be drawn with
    /// equal probability) for a position, or `None` when the book does not hold it.
    pub fn cells_for(&self, knowledge: &Knowledge) -> Option<Vec<usize>> {
        if !Self::applies(knowledge) || self.cells.is_empty() {
            return None;
        }
        let (key, via) = self.canonical(knowledge.miss, knowledge.hit);
        let cell = usize::from(*self.cells.get(&key)?);
        let mut out: Vec<usize> = via
            .iter()
            .map(|&g| {
                self.perms[g]
                    .iter()
                    .position(|&image| image == cell)
                    .expect("a permutation")
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Records `cell` (a bit index in `knowledge`'s orientation) as the book's shot there.
    ///
    /// # Panics
    /// When the position has a `down` (the book holds two-plane positions only).
    pub fn insert(&mut self, knowledge: &Knowledge, cell: usize) {
        assert!(Self::applies(knowledge), "a position with both planes standing");
        let (key, via) = self.canonical(knowledge.miss, knowledge.hit);
        let image = self.perms[via[0]][cell];
        self.cells
            .insert(key, u8::try_from(image).expect("a cell of the board"));
    }

    /// The whole book as Rust source for `opening/table.rs` (sorted, so that a rebuilt book
    /// shows as a small diff).
    pub fn to_source(&self) -> String {
        let mut rows: Vec<(&Key, &u8)> = self.cells.iter().collect();
        rows.sort();
        let mut out = String::from(
            "//! Generated by `skirmish-bots eval --write-opening bots/src/plane/opening/table.rs`\n\
             //! (see `plane::opening`): do not edit by hand.\n\n\
             /// Book positions of 9x9 `double`: (miss cells, hit cells, cell to fire at), cells as bit\n\
             /// indices `row * 9 + col`, each position in its canonical orientation.\n\
             #[rustfmt::skip]\n\
             pub const OPENING: &[(u128, u128, u8)] = &[\n",
        );
        for ((miss, hit), cell) in rows {
            out.push_str(&format!("    (0x{miss:x}, 0x{hit:x}, {cell}),\n"));
        }
        out.push_str("];\n");
        out
    }

    /// The side the book is for.
    pub fn side(&self) -> usize {
        self.side
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plane::belief::Universe;
    use skirmish_games::plane::Variant;

    #[test]
    fn symmetries_map_placements_to_placements() {
        let u = Universe::of(Variant::Double);
        for perm in symmetries(9) {
            for (i, &cells) in u.placement_cells.iter().enumerate() {
                let image = map_cells(&perm, cells);
                let head = perm[usize::from(u.placement_head[i])];
                assert!(
                    (0..u.placements.len())
                        .any(|j| u.placement_cells[j] == image && usize::from(u.placement_head[j]) == head),
                    "placement {i} has no image"
                );
            }
        }
    }

    #[test]
    fn every_shipped_position_is_possible_and_its_cell_informative() {
        let u = Universe::of(Variant::Double);
        assert!(!OPENING.is_empty());
        for &(miss, hit, cell) in OPENING {
            let k = Knowledge {
                miss,
                hit,
                public: miss | hit,
                ..Knowledge::default()
            };
            let alive = k.consistent(u);
            assert!(!alive.is_empty(), "no deployment fits {miss:x} {hit:x}");
            let bit = 1u128 << cell;
            assert_eq!(k.public & bit, 0, "cell {cell} already shot");
            // Outcomes over the consistent deployments: 0 miss, 1 hit, 2 down.
            let outcome = |i: &u16| {
                let d = &u.deployments[usize::from(*i)];
                usize::from(d.occupied & bit != 0) + usize::from(d.heads & bit != 0)
            };
            assert!(
                alive.iter().any(|i| outcome(i) != outcome(&alive[0])),
                "cell {cell} tells nothing"
            );
            assert_eq!(
                Book::shipped()
                    .cells_for(&k)
                    .map(|c| c.contains(&usize::from(cell))),
                Some(true)
            );
        }
    }

    #[test]
    fn a_book_position_is_found_in_every_orientation() {
        let mut book = Book::new(9);
        let k = Knowledge {
            miss: 1 << 30,
            hit: 1 << 41,
            ..Knowledge::default()
        };
        book.insert(&k, 42);
        for perm in symmetries(9) {
            let turned = Knowledge {
                miss: map_cells(&perm, k.miss),
                hit: map_cells(&perm, k.hit),
                ..Knowledge::default()
            };
            assert_eq!(book.cells_for(&turned), Some(vec![perm[42]]));
        }
        // The fresh board is symmetric: all 8 images of the cell, each once.
        let mut fresh = Book::new(9);
        fresh.insert(&Knowledge::default(), 30);
        assert_eq!(fresh.cells_for(&Knowledge::default()), Some(vec![30, 32, 48, 50]));
    }
}
