//! Points, stones, the board, fives and renju's forbidden points (docs/rules.md, gomoku).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// An intersection of a gomoku board: column `x` from the left and row `y` from the bottom, both
/// 0-based, as renju diagrams draw them.
///
/// Written for people (and serialized) as column letter + row number from 1: `a1` is the bottom
/// left corner, `h8` the centre of a 15x15 board, `j10` the centre of a 19x19 one (renju's letters keep `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "String", try_from = "String")
)]
pub struct Point {
    /// Column, 0 at the left (`a`).
    pub x: u8,
    /// Row, 0 at the bottom (`1`).
    pub y: u8,
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Point {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Point".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[a-zA-Z][1-9][0-9]?$",
            "description": "An intersection as column letter + row number from 1 at the bottom: a1 is the bottom left corner, h8 the centre of a 15x15 board."
        })
    }
}

impl Point {
    /// The point in column `x`, row `y` (0-based, row 0 at the bottom).
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Whether the point lies on a board `size` lines wide.
    pub fn on_board(self, size: u8) -> bool {
        self.x < size && self.y < size
    }

    /// Index into a row-major grid `size` lines wide.
    pub fn index(self, size: u8) -> usize {
        usize::from(self.y) * usize::from(size) + usize::from(self.x)
    }

    /// The point at a row-major index into a grid `size` lines wide.
    pub fn from_index(index: usize, size: u8) -> Point {
        let size = usize::from(size);
        Point::new(
            u8::try_from(index % size).expect("index within the board"),
            u8::try_from(index / size).expect("index within the board"),
        )
    }

    /// The point `k` steps from this one along `dir`, if it is on a board `size` lines wide.
    pub fn step(self, dir: (i8, i8), k: i32, size: u8) -> Option<Point> {
        let x = i32::from(self.x) + i32::from(dir.0) * k;
        let y = i32::from(self.y) + i32::from(dir.1) * k;
        let size = i32::from(size);
        if (0..size).contains(&x) && (0..size).contains(&y) {
            Some(Point::new(x as u8, y as u8))
        } else {
            None
        }
    }

    /// Chebyshev distance (moves of a king) between two points.
    pub fn distance(self, other: Point) -> u8 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.x), u32::from(self.y) + 1)
    }
}

/// A point name that is not column letter + row number (`h8`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a point: expected a column letter and a row number, such as h8")]
pub struct ParsePointError(pub String);

impl FromStr for Point {
    type Err = ParsePointError;
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let (column, row) = crate::letter_and_number(s).ok_or_else(|| ParsePointError(s.to_owned()))?;
        Ok(Point::new(column, row))
    }
}

impl From<Point> for String {
    fn from(point: Point) -> String {
        point.to_string()
    }
}

impl TryFrom<String> for Point {
    type Error = ParsePointError;
    fn try_from(s: String) -> Result<Point, ParsePointError> {
        s.parse()
    }
}

/// A stone's colour. Black moves first and sits in seat 0; white sits in seat 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Stone {
    /// The first player (seat 0).
    Black,
    /// The second player (seat 1).
    White,
}

impl Stone {
    /// The other colour.
    pub fn other(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }

    /// The seat that plays this colour: 0 for black, 1 for white.
    pub fn seat(self) -> crate::Seat {
        match self {
            Stone::Black => crate::Seat(0),
            Stone::White => crate::Seat(1),
        }
    }

    /// The colour `seat` plays, if it is seat 0 or 1.
    pub fn of_seat(seat: crate::Seat) -> Option<Stone> {
        match seat.0 {
            0 => Some(Stone::Black),
            1 => Some(Stone::White),
            _ => None,
        }
    }
}

/// What wins (docs/rules.md, gomoku, "Rule sets").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Rule {
    /// Five or more in a row wins; no forbidden points (the seed paper's rule, *default*).
    #[default]
    Freestyle,
    /// Exactly five wins, for both colours; six or more does not.
    Standard,
    /// Black wins with exactly five and may not make a double-three, a double-four or an overline;
    /// white wins with five or more.
    Renju,
}

impl Rule {
    /// Whether a line of `length` stones of `stone` wins under this rule.
    pub fn wins(self, stone: Stone, length: usize) -> bool {
        match (self, stone) {
            (Rule::Freestyle, _) | (Rule::Renju, Stone::White) => length >= 5,
            (Rule::Standard, _) | (Rule::Renju, Stone::Black) => length == 5,
        }
    }
}

/// A shape black may not make under renju (docs/rules.md, gomoku).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Forbidden {
    /// Two or more threes at once, each able to become a straight four through a point that is
    /// not itself forbidden.
    DoubleThree,
    /// Two or more fours at once, on different lines or on one line (`x.xxx.x`).
    DoubleFour,
    /// Six or more black stones in a row.
    Overline,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::DoubleThree => "double-three",
            Forbidden::DoubleFour => "double-four",
            Forbidden::Overline => "overline",
        })
    }
}

/// The four line directions: horizontal, vertical, and the two diagonals.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// How deep the "a three counts only if its completing point is not itself forbidden" rule
/// recurses before a completing point is taken as allowed. Real positions need two or three
/// levels; the cap only keeps contrived ones finite.
const MAX_FORBIDDEN_DEPTH: u8 = 8;

/// A square gomoku board of `size` x `size` intersections.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    cells: Vec<Option<Stone>>,
    stones: usize,
}

impl Board {
    /// An empty board `size` lines wide.
    pub fn new(size: u8) -> Board {
        Board {
            size,
            cells: vec![None; usize::from(size) * usize::from(size)],
            stones: 0,
        }
    }

    /// Lines per side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The stone at `point`, if any (`None` off the board too).
    pub fn get(&self, point: Point) -> Option<Stone> {
        if point.on_board(self.size) {
            self.cells[point.index(self.size)]
        } else {
            None
        }
    }

    /// Puts `stone` at `point` (or clears it with `None`).
    ///
    /// # Panics
    /// When `point` is off the board.
    pub fn set(&mut self, point: Point, stone: Option<Stone>) {
        assert!(
            point.on_board(self.size),
            "{point} is off a {0}x{0} board",
            self.size
        );
        let cell = &mut self.cells[point.index(self.size)];
        match (cell.is_some(), stone.is_some()) {
            (false, true) => self.stones += 1,
            (true, false) => self.stones -= 1,
            _ => {}
        }
        *cell = stone;
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Whether every intersection holds a stone.
    pub fn is_full(&self) -> bool {
        self.stones == self.cells.len()
    }

    /// Every point of the board, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let size = self.size;
        (0..usize::from(size) * usize::from(size)).map(move |i| Point::from_index(i, size))
    }

    /// Every empty point.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.points().filter(|&p| self.get(p).is_none())
    }

    /// The stones of `stone`'s colour in the line through `point` along `dir`, contiguous with
    /// `point` and counting `point` itself (whatever it holds), from one end to the other.
    pub fn line_through(&self, point: Point, dir: (i8, i8), stone: Stone) -> Vec<Point> {
        let mut back = 0;
        while point
            .step(dir, -(back + 1), self.size)
            .is_some_and(|p| self.get(p) == Some(stone))
        {
            back += 1;
        }
        let mut ahead = 0;
        while point
            .step(dir, ahead + 1, self.size)
            .is_some_and(|p| self.get(p) == Some(stone))
        {
            ahead += 1;
        }
        (-back..=ahead)
            .map(|k| point.step(dir, k, self.size).expect("counted on the board"))
            .collect()
    }

    /// The length of [`Board::line_through`].
    pub fn run_length(&self, point: Point, dir: (i8, i8), stone: Stone) -> usize {
        let mut length = 1;
        for sign in [-1, 1] {
            let mut k = 1;
            while point
                .step(dir, sign * k, self.size)
                .is_some_and(|p| self.get(p) == Some(stone))
            {
                length += 1;
                k += 1;
            }
        }
        length
    }

    /// The winning line through `point` for `stone` under `rule`, taking `point` as holding
    /// `stone`: the whole run, in order along its direction, or `None`.
    pub fn winning_line(&self, point: Point, stone: Stone, rule: Rule) -> Option<Vec<Point>> {
        DIRECTIONS
            .iter()
            .find(|&&dir| rule.wins(stone, self.run_length(point, dir, stone)))
            .map(|&dir| self.line_through(point, dir, stone))
    }

    /// Why black may not play at the empty `point` under renju, or `None` when black may (a five,
    /// exactly, is always allowed, even when it makes a forbidden shape at the same time).
    ///
    /// Follows the RIF definitions: a *four* is a line that one more black stone turns into
    /// exactly five; a *straight four* has two such points five apart (`.xxxx.`) and counts as one
    /// four; a *three* is a line that one more black stone turns into a straight four, where that
    /// stone's point must not itself be forbidden (checked recursively, with `point` taken).
    ///
    /// # Panics
    /// When `point` is off the board or not empty.
    pub fn forbidden(&self, point: Point) -> Option<Forbidden> {
        assert!(
            self.get(point).is_none() && point.on_board(self.size),
            "{point} must be empty"
        );
        self.clone().forbidden_at(point, 0)
    }

    fn forbidden_at(&mut self, point: Point, depth: u8) -> Option<Forbidden> {
        self.set(point, Some(Stone::Black));
        let verdict = self.shape_at(point, depth);
        self.set(point, None);
        verdict
    }

    /// The forbidden shape black's stone at `point` (already placed) makes.
    fn shape_at(&mut self, point: Point, depth: u8) -> Option<Forbidden> {
        let lengths = DIRECTIONS.map(|dir| self.run_length(point, dir, Stone::Black));
        if lengths.contains(&5) {
            return None;
        }
        if lengths.iter().any(|&l| l > 5) {
            return Some(Forbidden::Overline);
        }
        let mut fours = 0;
        let mut threes = 0;
        for dir in DIRECTIONS {
            let line_fours = self.fours(point, dir);
            if line_fours > 0 {
                fours += line_fours;
            } else if self.is_three(point, dir, depth) {
                threes += 1;
            }
        }
        if fours >= 2 {
            Some(Forbidden::DoubleFour)
        } else if threes >= 2 {
            Some(Forbidden::DoubleThree)
        } else {
            None
        }
    }

    /// Offsets (along `dir`, from `point`) of the empty points where one more black stone makes
    /// exactly five together with `point`.
    fn five_points(&mut self, point: Point, dir: (i8, i8)) -> Vec<i32> {
        let mut found = Vec::new();
        for k in (-4..=4).filter(|&k| k != 0) {
            let Some(q) = point.step(dir, k, self.size) else {
                continue;
            };
            if self.get(q).is_some() {
                continue;
            }
            // q makes a five with `point` only if every stone between them is black.
            let between_black = (1..k.abs()).all(|i| {
                let p = point
                    .step(dir, i * k.signum(), self.size)
                    .expect("between two points on the board");
                self.get(p) == Some(Stone::Black)
            });
            if !between_black {
                continue;
            }
            self.set(q, Some(Stone::Black));
            if self.run_length(q, dir, Stone::Black) == 5 {
                found.push(k);
            }
            self.set(q, None);
        }
        found
    }

    /// The number of fours through black's `point` along `dir`: 0, 1 (a four or a straight
    /// four) or 2 (two fours on one line, as in `x.xxx.x`).
    fn fours(&mut self, point: Point, dir: (i8, i8)) -> u32 {
        let found = self.five_points(point, dir);
        match found.as_slice() {
            [] => 0,
            [a, b] if (b - a).abs() == 5 => 1,
            points => points.len() as u32,
        }
    }

    /// Whether black's `point` makes a three along `dir`: one more stone, on a point that is not
    /// forbidden, makes a straight four through `point`.
    fn is_three(&mut self, point: Point, dir: (i8, i8), depth: u8) -> bool {
        for k in (-4..=4).filter(|&k| k != 0) {
            let Some(q) = point.step(dir, k, self.size) else {
                continue;
            };
            if self.get(q).is_some() {
                continue;
            }
            self.set(q, Some(Stone::Black));
            let straight = matches!(self.five_points(point, dir).as_slice(), [a, b] if (b - a).abs() == 5)
                && self.run_length(q, dir, Stone::Black) == 4;
            self.set(q, None);
            if straight && (depth >= MAX_FORBIDDEN_DEPTH || self.forbidden_at(q, depth + 1).is_none()) {
                return true;
            }
        }
        false
    }
}
