//! The main search's transposition table: a fixed number of MiB of single-slot entries indexed
//! by the Zobrist hash, replaced depth-first (a deeper result stays unless it is from an older
//! move's search).

/// Bound of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least the stored score (a beta cut-off).
    Lower,
    /// At most the stored score (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full Zobrist hash (0 for an empty slot).
    pub key: u64,
    /// The score, mate scores relative to the stored node (see `search::to_tt`).
    pub score: i32,
    /// The best move as a padded point index (`u16::MAX` for none).
    pub mv: u16,
    /// The remaining depth searched, in plies.
    pub depth: i8,
    /// How `score` bounds the true value.
    pub bound: Bound,
    /// The [`Table::new_search`] generation that wrote it.
    pub generation: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    score: 0,
    mv: u16::MAX,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

/// A transposition table of a fixed size.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `mib` MiB (rounded down to a power of two entries, at least 1024).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.max(1) << 20;
        let wanted = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            entries: vec![EMPTY_ENTRY; len],
            mask: len - 1,
            generation: 0,
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table holds no slot (never: at least 1024).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Marks the start of a new move's search: older entries become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key).then_some(e)
    }

    /// Stores a result unless the slot holds a deeper one of this move's search for another
    /// position.
    pub fn store(&mut self, key: u64, score: i32, mv: Option<usize>, depth: i32, bound: Bound) {
        let slot = &mut self.entries[key as usize & self.mask];
        let replace = slot.key == key || slot.generation != self.generation || i32::from(slot.depth) <= depth;
        if replace {
            let mv = match mv {
                Some(m) => m as u16,
                None if slot.key == key => slot.mv,
                None => u16::MAX,
            };
            *slot = Entry {
                key,
                score,
                mv,
                depth: depth.clamp(-1, 127) as i8,
                bound,
                generation: self.generation,
            };
        }
    }
}
