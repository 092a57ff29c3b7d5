//! Beliefs about one opponent's hidden board: every deployment of the variant as bit masks, and the
//! filter that keeps those consistent with the board's public results (docs/rules.md, plane battle, "Attack").
//!
//! Cells are bits of a `u128` (bit `row * side + col`); placements are indices into
//! [`placements`]`(side)` (48 on 7x7, 120 on 9x9), so a set of placements is also a `u128`.

use std::sync::OnceLock;

use skirmish_games::plane::{BoardView, Cell, Placement, ShotResult, Variant, placements};

/// A set of cells: bit `row * side + col`.
pub type CellSet = u128;
/// A set of single-plane placements: bit `i` is `placements(side)[i]`.
pub type PlacementSet = u128;

/// One deployment of an opponent's planes, as masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deployment {
    /// Placement indices of its planes; for `classic` both entries are the same plane.
    pub planes: [u8; 2],
    /// Every cell its planes cover (10 or 20 cells).
    pub occupied: CellSet,
    /// Its head cells (1 or 2 cells).
    pub heads: CellSet,
}

impl Deployment {
    /// The result a shot at the cell whose bit is `bit` (one bit set) gets on this deployment.
    pub fn result_at(&self, bit: CellSet) -> ShotResult {
        if self.occupied & bit == 0 {
            ShotResult::Miss
        } else if self.heads & bit == 0 {
            ShotResult::Hit
        } else {
            ShotResult::Down
        }
    }
}

/// Every deployment of a variant, with per-placement and per-cell lookup tables.
///
/// 48 deployments for `classic`, 2,352 unordered non-overlapping pairs for `double` (docs/rules.md
/// section 1, "Boards and counts"); shared by every strategy through [`Universe::of`].
#[derive(Debug)]
pub struct Universe {
    /// The variant.
    pub variant: Variant,
    /// Board side in cells (7 or 9).
    pub side: u8,
    /// Number of cells, `side * side`.
    pub cells: usize,
    /// Every single-plane placement, in [`placements`] order.
    pub placements: Vec<Placement>,
    /// The cells of each placement.
    pub placement_cells: Vec<CellSet>,
    /// The head cell index of each placement.
    pub placement_head: Vec<u8>,
    /// Per cell: the placements covering it.
    pub covering: Vec<PlacementSet>,
    /// Per cell: the placements whose head is there (at most 4, one per facing).
    pub headed: Vec<PlacementSet>,
    /// Every deployment, each unordered pair once for `double`.
    pub deployments: Vec<Deployment>,
}

impl Universe {
    /// The shared universe of `variant`, built on first use.
    pub fn of(variant: Variant) -> &'static Universe {
        static CLASSIC: OnceLock<Universe> = OnceLock::new();
        static DOUBLE: OnceLock<Universe> = OnceLock::new();
        match variant {
            Variant::Classic => CLASSIC.get_or_init(|| Universe::build(variant)),
            Variant::Double => DOUBLE.get_or_init(|| Universe::build(variant)),
        }
    }

    fn build(variant: Variant) -> Universe {
        let side = variant.side();
        let cells = usize::from(side) * usize::from(side);
        let placements = placements(side);
        let mut placement_cells = Vec::with_capacity(placements.len());
        let mut placement_head = Vec::with_capacity(placements.len());
        let mut covering = vec![0u128; cells];
        let mut headed = vec![0u128; cells];
        for (i, p) in placements.iter().enumerate() {
            let body = p.cells(side).expect("placements() lists only fitting planes");
            let mut mask = 0u128;
            for c in body {
                mask |= 1u128 << c.index(side);
                covering[c.index(side)] |= 1u128 << i;
            }
            headed[p.head.index(side)] |= 1u128 << i;
            placement_cells.push(mask);
            placement_head.push(p.head.index(side) as u8);
        }
        let mut deployments = Vec::new();
        let n = placements.len();
        match variant {
            Variant::Classic => {
                for i in 0..n {
                    deployments.push(Deployment {
                        planes: [i as u8, i as u8],
                        occupied: placement_cells[i],
                        heads: 1u128 << placement_head[i],
                    });
                }
            }
            Variant::Double => {
                for i in 0..n {
                    for j in i + 1..n {
                        if placement_cells[i] & placement_cells[j] == 0 {
                            deployments.push(Deployment {
                                planes: [i as u8, j as u8],
                                occupied: placement_cells[i] | placement_cells[j],
                                heads: (1u128 << placement_head[i]) | (1u128 << placement_head[j]),
                            });
                        }
                    }
                }
            }
        }
        Universe {
            variant,
            side,
            cells,
            placements,
            placement_cells,
            placement_head,
            covering,
            headed,
            deployments,
        }
    }

    /// The index of `placement` in [`Universe::placements`], if it fits the board.
    pub fn placement_index(&self, placement: Placement) -> Option<u8> {
        self.placements
            .iter()
            .position(|p| *p == placement)
            .map(|i| i as u8)
    }

    /// The bit of `cell`.
    pub fn bit(&self, cell: Cell) -> CellSet {
        1u128 << cell.index(self.side)
    }

    /// The cell of bit index `index`.
    pub fn cell(&self, index: usize) -> Cell {
        Cell::from_index(index, self.side)
    }
}

/// What is public about one board: its shots by result and its downed planes (docs/rules.md, plane battle:
/// `miss`, `hit`, `down`; a downed plane is revealed whole).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// Cells shot with result `miss`.
    pub miss: CellSet,
    /// Cells shot with result `hit` (a plane cell other than a head).
    pub hit: CellSet,
    /// Cells shot with result `down` (a head).
    pub down: CellSet,
    /// Placement indices of the downed planes.
    pub downed: Vec<u8>,
    /// Cells whose content is public: shot, or part of a downed plane. These cannot be fired at.
    pub public: CellSet,
}

impl Knowledge {
    /// The public knowledge of `board` (an opponent's board in a player's view).
    pub fn of_board(universe: &Universe, board: &BoardView) -> Knowledge {
        let mut k = Knowledge::default();
        for shot in &board.shots {
            let bit = universe.bit(shot.cell);
            match shot.result {
                ShotResult::Miss => k.miss |= bit,
                ShotResult::Hit => k.hit |= bit,
                ShotResult::Down => k.down |= bit,
            }
            k.public |= bit;
        }
        for plane in &board.downed {
            if let Some(i) = universe.placement_index(*plane) {
                k.downed.push(i);
                k.public |= universe.placement_cells[usize::from(i)];
            }
        }
        k
    }

    /// Adds the result of a shot at cell bit index `cell`; `plane` is the placement index revealed
    /// by a `down`.
    pub fn record(&mut self, universe: &Universe, cell: usize, result: ShotResult, plane: Option<u8>) {
        let bit = 1u128 << cell;
        match result {
            ShotResult::Miss => self.miss |= bit,
            ShotResult::Hit => self.hit |= bit,
            ShotResult::Down => self.down |= bit,
        }
        self.public |= bit;
        if let Some(p) = plane {
            self.downed.push(p);
            self.public |= universe.placement_cells[usize::from(p)];
        }
    }

    /// Whether `d` agrees with every public result.
    pub fn admits(&self, d: &Deployment) -> bool {
        d.occupied & self.miss == 0
            && self.hit & !(d.occupied & !d.heads) == 0
            && self.down & !d.heads == 0
            && self.downed.iter().all(|p| d.planes.contains(p))
    }

    /// Indices into [`Universe::deployments`] of the deployments consistent with this knowledge.
    pub fn consistent(&self, universe: &Universe) -> Vec<u16> {
        universe
            .deployments
            .iter()
            .enumerate()
            .filter(|(_, d)| self.admits(d))
            .map(|(i, _)| i as u16)
            .collect()
    }

    /// The number of planes not yet downed, out of `variant.planes()`.
    pub fn planes_left(&self, universe: &Universe) -> usize {
        universe.variant.planes().saturating_sub(self.downed.len())
    }
}

/// The placements still possible for the last plane standing, given consistent deployments
/// `alive` and the downed planes: the partner of the downed plane in each consistent pair (or
/// the plane itself for `classic`).
pub fn last_plane_set(universe: &Universe, knowledge: &Knowledge, alive: &[u16]) -> PlacementSet {
    let mut set = 0u128;
    for &i in alive {
        let d = &universe.deployments[usize::from(i)];
        for p in d.planes {
            if !knowledge.downed.contains(&p) {
                set |= 1u128 << p;
            }
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deployment_counts() {
        assert_eq!(Universe::of(Variant::Classic).deployments.len(), 48);
        assert_eq!(Universe::of(Variant::Double).deployments.len(), 2352);
        let fresh = Knowledge::default();
        assert_eq!(fresh.consistent(Universe::of(Variant::Classic)).len(), 48);
        assert_eq!(fresh.consistent(Universe::of(Variant::Double)).len(), 2352);
    }

    #[test]
    fn per_cell_tables_agree_with_placements() {
        let u = Universe::of(Variant::Double);
        for (i, p) in u.placements.iter().enumerate() {
            let head = p.head.index(9);
            assert!(u.headed[head] & (1u128 << i) != 0);
            for c in p.cells(9).unwrap() {
                assert!(u.covering[c.index(9)] & (1u128 << i) != 0);
            }
        }
        assert_eq!(u.headed.iter().map(|h| h.count_ones()).sum::<u32>(), 120);
    }
}
