//! Cells, facings, placements and the plane's shape (docs/rules.md, plane battle, "The plane").

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A cell of a plane battle board: (row, col), 0-based, row 0 at the top.
///
/// Written for people as column letter + row number counting from 1 (`A1` = row 0, col 0;
/// `C7` = row 6, col 2), and serialized that way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "String", try_from = "String")
)]
pub struct Cell {
    /// Row, 0 at the top.
    pub row: u8,
    /// Column, 0 at the left.
    pub col: u8,
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Cell {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cell".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[A-Z][1-9][0-9]?$",
            "description": "A cell as column letter + row number from 1 at the top: A1 is row 0, col 0; C7 is row 6, col 2."
        })
    }
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// Index into a row-major grid `side` cells wide.
    pub fn index(self, side: u8) -> usize {
        usize::from(self.row) * usize::from(side) + usize::from(self.col)
    }

    /// The cell at a row-major index into a grid `side` cells wide.
    pub fn from_index(index: usize, side: u8) -> Cell {
        let side = usize::from(side);
        Cell::new(
            u8::try_from(index / side).expect("index within the board"),
            u8::try_from(index % side).expect("index within the board"),
        )
    }

    /// Whether the cell lies on a square board `side` cells wide.
    pub fn on_board(self, side: u8) -> bool {
        self.row < side && self.col < side
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col), u32::from(self.row) + 1)
    }
}

/// A cell name that is not column letter + row number (`E5`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a cell: expected a column letter and a row number, such as E5")]
pub struct ParseCellError(pub String);

impl FromStr for Cell {
    type Err = ParseCellError;
    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let (col, row) = crate::letter_and_number(s).ok_or_else(|| ParseCellError(s.to_owned()))?;
        Ok(Cell::new(row, col))
    }
}

impl From<Cell> for String {
    fn from(cell: Cell) -> String {
        cell.to_string()
    }
}

impl TryFrom<String> for Cell {
    type Error = ParseCellError;
    fn try_from(s: String) -> Result<Cell, ParseCellError> {
        s.parse()
    }
}

/// Where a plane's head points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Facing {
    /// Head on the top row of a 4x5 box (the drawing in docs/rules.md).
    Up,
    /// Head on the right edge of a 5x4 box.
    Right,
    /// Head on the bottom row of a 4x5 box.
    Down,
    /// Head on the left edge of a 5x4 box.
    Left,
}

impl Facing {
    /// The four facings, clockwise from up.
    pub const ALL: [Facing; 4] = [Facing::Up, Facing::Right, Facing::Down, Facing::Left];

    /// The next facing clockwise.
    pub fn clockwise(self) -> Facing {
        match self {
            Facing::Up => Facing::Right,
            Facing::Right => Facing::Down,
            Facing::Down => Facing::Left,
            Facing::Left => Facing::Up,
        }
    }

    /// Turns an offset (rows down, cols right) from a head facing up into this facing.
    fn rotate(self, (dr, dc): (i8, i8)) -> (i8, i8) {
        match self {
            Facing::Up => (dr, dc),
            Facing::Right => (dc, -dr),
            Facing::Down => (-dr, -dc),
            Facing::Left => (-dc, dr),
        }
    }
}

/// The 10 cells of a plane facing up, as (row, col) offsets from its head; the head is first.
/// docs/rules.md, plane battle: head, five wings, body, three tail cells.
const SHAPE_UP: [(i8, i8); 10] = [
    (0, 0),
    (1, -2),
    (1, -1),
    (1, 0),
    (1, 1),
    (1, 2),
    (2, 0),
    (3, -1),
    (3, 0),
    (3, 1),
];

/// One plane on a board: its head cell and its facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Placement {
    /// The head cell: a shot here downs the plane.
    pub head: Cell,
    /// Where the head points.
    pub facing: Facing,
}

impl Placement {
    /// A plane with its head at `head`, pointing `facing`.
    pub const fn new(head: Cell, facing: Facing) -> Placement {
        Placement { head, facing }
    }

    /// The plane's 10 cells, head first, or `None` if any of them is off a board `side` cells wide.
    pub fn cells(self, side: u8) -> Option<[Cell; 10]> {
        let mut out = [self.head; 10];
        for (slot, offset) in out.iter_mut().zip(SHAPE_UP) {
            let (dr, dc) = self.facing.rotate(offset);
            let row = i16::from(self.head.row) + i16::from(dr);
            let col = i16::from(self.head.col) + i16::from(dc);
            if !(0..i16::from(side)).contains(&row) || !(0..i16::from(side)).contains(&col) {
                return None;
            }
            *slot = Cell::new(row as u8, col as u8);
        }
        Some(out)
    }

    /// Whether the whole plane lies on a board `side` cells wide.
    pub fn fits(self, side: u8) -> bool {
        self.cells(side).is_some()
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.head, self.facing)
    }
}

/// Every placement of one plane that fits on a board `side` cells wide, in a fixed order
/// (facing, then head row, then head column). 48 on 7x7 and 120 on 9x9 (docs/rules.md, plane battle).
pub fn placements(side: u8) -> Vec<Placement> {
    let mut out = Vec::new();
    for facing in Facing::ALL {
        for row in 0..side {
            for col in 0..side {
                let p = Placement::new(Cell::new(row, col), facing);
                if p.fits(side) {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        assert_eq!("A1".parse::<Cell>().unwrap(), Cell::new(0, 0));
        assert_eq!("E5".parse::<Cell>().unwrap(), Cell::new(4, 4));
        assert_eq!("C7".parse::<Cell>().unwrap(), Cell::new(6, 2));
        assert_eq!("c7".parse::<Cell>().unwrap(), Cell::new(6, 2));
        assert_eq!(Cell::new(8, 8).to_string(), "I9");
        for bad in ["", "A", "1A", "A0", "A-1", "A100", "ÄA1", " A1"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shapes_follow_the_drawing() {
        // Facing up with the head at C1 on 7x7: the wings fill row 2, the tail B4-D4.
        let up = Placement::new("C1".parse().unwrap(), Facing::Up)
            .cells(7)
            .unwrap();
        let names: Vec<String> = up.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["C1", "A2", "B2", "C2", "D2", "E2", "C3", "B4", "C4", "D4"]
        );
        // Facing left: head on the left edge, body to its right.
        let left = Placement::new("A3".parse().unwrap(), Facing::Left)
            .cells(7)
            .unwrap();
        assert!(left.contains(&"C3".parse().unwrap()), "body right of the head");
        assert!(left.contains(&"B1".parse().unwrap()) && left.contains(&"B5".parse().unwrap()));
        assert!(left.contains(&"D2".parse().unwrap()) && left.contains(&"D4".parse().unwrap()));
        // Facing down near the bottom right, facing right near the right edge.
        assert!(Placement::new("E7".parse().unwrap(), Facing::Down).fits(7));
        assert!(Placement::new("G4".parse().unwrap(), Facing::Right).fits(7));
        assert!(!Placement::new("G4".parse().unwrap(), Facing::Left).fits(7));
    }

    #[test]
    fn placement_counts() {
        assert_eq!(placements(7).len(), 48);
        assert_eq!(placements(9).len(), 120);
        for p in placements(9) {
            let cells = p.cells(9).unwrap();
            let mut sorted = cells.to_vec();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 10, "{p} has 10 distinct cells");
        }
    }
}
