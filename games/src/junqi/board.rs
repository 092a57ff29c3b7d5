//! The junqi board as a graph: 60 posts, road links, railway links (docs/rules.md, junqi, "Board").
//!
//! Every figure here is computed once from the table in docs/rules.md and checked by the tests: 60 posts,
//! 133 links (101 orthogonal, 32 diagonal), 35 of them railway links.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use thiserror::Error;

use crate::Seat;

/// Rows on the board (A to L).
pub const ROWS: u8 = 12;
/// Columns on the board (0 to 4).
pub const COLUMNS: u8 = 5;
/// Posts on the board.
pub const POSTS: usize = ROWS as usize * COLUMNS as usize;

/// A post of the board: row `A` (top, seat 1's back row) to `L` (bottom, seat 0's back row), column
/// 0 to 4 from the left as seat 0 sees it. Written `G0`, as the CAAI protocol writes posts.
///
/// Posts on the wire are always in this absolute frame, whoever looks; seat 1's own frame (the board
/// turned 180 degrees, as CAAI engines see it) is [`Post::turned`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "String", try_from = "String")
)]
pub struct Post(u8);

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Post {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Post".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[A-La-l][0-4]$",
            "description": "A junqi post: row A (top, seat 1's back row) to L (bottom, seat 0's back row), then column 0 to 4 from seat 0's left."
        })
    }
}

impl Post {
    /// The post in `row` (0 = A) and `column` (0 to 4), if both are on the board.
    pub const fn new(row: u8, column: u8) -> Option<Post> {
        if row < ROWS && column < COLUMNS {
            Some(Post(row * COLUMNS + column))
        } else {
            None
        }
    }

    /// The post at index 0..60 (row-major from A0).
    ///
    /// # Panics
    /// When `index` is 60 or more.
    pub fn from_index(index: usize) -> Post {
        assert!(index < POSTS, "a post index is below 60, not {index}");
        Post(u8::try_from(index).expect("below 60"))
    }

    /// Index 0..60, row-major from A0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, 0 (A) to 11 (L).
    pub const fn row(self) -> u8 {
        self.0 / COLUMNS
    }

    /// Column, 0 to 4.
    pub const fn column(self) -> u8 {
        self.0 % COLUMNS
    }

    /// Every post, A0 to L4.
    pub fn all() -> impl Iterator<Item = Post> {
        (0..POSTS).map(Post::from_index)
    }

    /// The same post with the board turned 180 degrees: seat 1's own frame, where its back row is
    /// L. `A0` turns into `L4`; turning twice gives the post back.
    pub const fn turned(self) -> Post {
        Post(59 - self.0)
    }

    /// This post as `seat` sees it: itself for seat 0, [`Post::turned`] for seat 1.
    pub fn in_frame_of(self, seat: Seat) -> Post {
        if seat.0 == 1 { self.turned() } else { self }
    }

    /// What stands here.
    pub fn kind(self) -> PostKind {
        GRAPH.kinds[self.index()]
    }

    /// The seat whose half this is: seat 1 for rows A-F, seat 0 for rows G-L.
    pub fn half(self) -> Seat {
        if self.row() < 6 { Seat(1) } else { Seat(0) }
    }

    /// How far from `seat`'s own back row: 0 on the back row, 5 on the front row, 6 and more in
    /// the enemy half.
    pub fn depth(self, seat: Seat) -> u8 {
        11 - self.in_frame_of(seat).row()
    }

    /// Whether the post is a camp (行营), where a piece cannot be attacked.
    pub fn is_camp(self) -> bool {
        self.kind() == PostKind::Camp
    }

    /// Whether the post is a headquarters (大本营).
    pub fn is_headquarters(self) -> bool {
        self.kind() == PostKind::Headquarters
    }

    /// Whether the post is on a railway line.
    pub fn on_railway(self) -> bool {
        self.kind() == PostKind::Railway
    }

    /// Posts joined to this one by a road link (railway links included), in a fixed order.
    pub fn neighbours(self) -> &'static [Post] {
        &GRAPH.roads[self.index()]
    }

    /// Posts joined to this one by a railway link.
    pub fn railway_neighbours(self) -> &'static [Post] {
        &GRAPH.railways[self.index()]
    }

    /// The next post along a railway in `direction`, if a railway link goes that way.
    pub fn railway_step(self, direction: Direction) -> Option<Post> {
        GRAPH.railway_steps[self.index()][direction as usize]
    }
}

impl fmt::Display for Post {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.row()), self.column())
    }
}

/// Text that is not a post.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a junqi post (a row letter A to L, then a column 0 to 4, like G0)")]
pub struct ParsePostError(pub String);

impl FromStr for Post {
    type Err = ParsePostError;
    fn from_str(s: &str) -> Result<Post, ParsePostError> {
        let bytes = s.as_bytes();
        let err = || ParsePostError(s.chars().take(16).collect());
        if bytes.len() != 2 {
            return Err(err());
        }
        let row = bytes[0].to_ascii_uppercase().wrapping_sub(b'A');
        let column = bytes[1].wrapping_sub(b'0');
        Post::new(row, column).ok_or_else(err)
    }
}

impl From<Post> for String {
    fn from(post: Post) -> String {
        post.to_string()
    }
}

impl TryFrom<String> for Post {
    type Error = ParsePostError;
    fn try_from(s: String) -> Result<Post, ParsePostError> {
        s.parse()
    }
}

/// What kind of post a post is (docs/rules.md, junqi, "Board").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PostKind {
    /// A road post (兵站).
    Road,
    /// A post on the railway.
    Railway,
    /// A camp (行营): a piece here cannot be attacked.
    Camp,
    /// A headquarters (大本营): a piece that enters never moves again.
    Headquarters,
}

/// A straight direction on the board, in the absolute frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards row A.
    Up = 0,
    /// Towards row L.
    Down = 1,
    /// Towards column 0.
    Left = 2,
    /// Towards column 4.
    Right = 3,
}

impl Direction {
    /// The four directions.
    pub const ALL: [Direction; 4] = [Direction::Up, Direction::Down, Direction::Left, Direction::Right];

    fn offset(self) -> (i8, i8) {
        match self {
            Direction::Up => (-1, 0),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
            Direction::Right => (0, 1),
        }
    }
}

/// A link between two posts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// One end (the lower index).
    pub a: Post,
    /// The other end.
    pub b: Post,
    /// Whether the link is diagonal (a camp's link to a diagonal neighbour).
    pub diagonal: bool,
    /// Whether the link lies on a railway line.
    pub railway: bool,
}

/// Every link of the board, each once, lower post first.
pub fn links() -> &'static [Link] {
    &GRAPH.links
}

struct Graph {
    kinds: [PostKind; POSTS],
    links: Vec<Link>,
    roads: Vec<Vec<Post>>,
    railways: Vec<Vec<Post>>,
    railway_steps: Vec<[Option<Post>; 4]>,
}

static GRAPH: LazyLock<Graph> = LazyLock::new(Graph::build);

/// The board's rows as docs/rules.md draws them, top (A) to bottom (L).
const LAYOUT: [&str; 12] = [
    "SHSHS", "RRRRR", "RCSCR", "RSCSR", "RCSCR", "RRRRR", "RRRRR", "RCSCR", "RSCSR", "RCSCR", "RRRRR",
    "SHSHS",
];

/// Whether the orthogonal link between `a` and `b` lies on a railway line: rows B, F, G, K; columns
/// 0 and 4 from B to K; and the centre crossing F2-G2.
fn railway_link(a: Post, b: Post) -> bool {
    let railway_row = |r: u8| matches!(r, 1 | 5 | 6 | 10);
    if a.row() == b.row() {
        railway_row(a.row())
    } else {
        let (top, bottom) = (a.row().min(b.row()), a.row().max(b.row()));
        let column = a.column();
        ((column == 0 || column == 4) && top >= 1 && bottom <= 10) || (column == 2 && top == 5 && bottom == 6)
    }
}

/// Whether the orthogonal link is cut by a mountain (F1-G1 and F3-G3).
fn mountain(a: Post, b: Post) -> bool {
    a.column() == b.column()
        && (a.column() == 1 || a.column() == 3)
        && a.row().min(b.row()) == 5
        && a.row().max(b.row()) == 6
}

impl Graph {
    fn build() -> Graph {
        let mut kinds = [PostKind::Road; POSTS];
        for post in Post::all() {
            kinds[post.index()] = match LAYOUT[usize::from(post.row())].as_bytes()[usize::from(post.column())]
            {
                b'S' => PostKind::Road,
                b'R' => PostKind::Railway,
                b'C' => PostKind::Camp,
                _ => PostKind::Headquarters,
            };
        }
        let step = |post: Post, dr: i8, dc: i8| {
            let row = post.row().checked_add_signed(dr)?;
            let column = post.column().checked_add_signed(dc)?;
            Post::new(row, column)
        };
        let mut links = Vec::new();
        for a in Post::all() {
            for (dr, dc) in [(0, 1), (1, 0)] {
                if let Some(b) = step(a, dr, dc)
                    && !mountain(a, b)
                {
                    links.push(Link {
                        a,
                        b,
                        diagonal: false,
                        railway: railway_link(a, b),
                    });
                }
            }
            for (dr, dc) in [(1, -1), (1, 1)] {
                if let Some(b) = step(a, dr, dc)
                    && (kinds[a.index()] == PostKind::Camp || kinds[b.index()] == PostKind::Camp)
                {
                    links.push(Link {
                        a,
                        b,
                        diagonal: true,
                        railway: false,
                    });
                }
            }
        }
        let mut roads = vec![Vec::new(); POSTS];
        let mut railways = vec![Vec::new(); POSTS];
        let mut railway_steps = vec![[None; 4]; POSTS];
        for link in &links {
            roads[link.a.index()].push(link.b);
            roads[link.b.index()].push(link.a);
            if link.railway {
                railways[link.a.index()].push(link.b);
                railways[link.b.index()].push(link.a);
                for direction in Direction::ALL {
                    let (dr, dc) = direction.offset();
                    if step(link.a, dr, dc) == Some(link.b) {
                        railway_steps[link.a.index()][direction as usize] = Some(link.b);
                    }
                    if step(link.b, dr, dc) == Some(link.a) {
                        railway_steps[link.b.index()][direction as usize] = Some(link.a);
                    }
                }
            }
        }
        Graph {
            kinds,
            links,
            roads,
            railways,
            railway_steps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(s: &str) -> Post {
        s.parse().unwrap()
    }

    #[test]
    fn the_board_has_the_rule_books_figures() {
        assert_eq!(Post::all().count(), 60);
        let links = links();
        assert_eq!(links.len(), 133);
        assert_eq!(links.iter().filter(|l| !l.diagonal).count(), 101);
        assert_eq!(links.iter().filter(|l| l.diagonal).count(), 32);
        assert_eq!(links.iter().filter(|l| l.railway).count(), 35);
        let count = |kind| Post::all().filter(|p| p.kind() == kind).count();
        assert_eq!(count(PostKind::Camp), 10);
        assert_eq!(count(PostKind::Headquarters), 4);
        let camps: Vec<String> = Post::all()
            .filter(|p| p.is_camp())
            .map(|p| p.to_string())
            .collect();
        assert_eq!(
            camps,
            ["C1", "C3", "D2", "E1", "E3", "H1", "H3", "I2", "J1", "J3"]
        );
        let hqs: Vec<String> = Post::all()
            .filter(|p| p.is_headquarters())
            .map(|p| p.to_string())
            .collect();
        assert_eq!(hqs, ["A1", "A3", "L1", "L3"]);
    }

    #[test]
    fn camps_link_to_their_four_diagonal_neighbours_and_mountains_cut_the_front() {
        let mut c1: Vec<String> = post("C1")
            .neighbours()
            .iter()
            .filter(|p| p.row() != 2 && p.column() != 1)
            .map(|p| p.to_string())
            .collect();
        c1.sort();
        assert_eq!(c1, ["B0", "B2", "D0", "D2"]);
        assert_eq!(post("D2").neighbours().len(), 8);
        assert!(!post("F1").neighbours().contains(&post("G1")));
        assert!(!post("F3").neighbours().contains(&post("G3")));
        assert!(post("F2").railway_neighbours().contains(&post("G2")));
        assert!(post("F0").railway_neighbours().contains(&post("G0")));
        assert!(!post("A0").railway_neighbours().contains(&post("B0")));
        assert!(!post("K2").railway_neighbours().contains(&post("L2")));
        assert_eq!(post("G2").railway_step(Direction::Up), Some(post("F2")));
        assert_eq!(post("G2").railway_step(Direction::Down), None);
        // Links are symmetric.
        for p in Post::all() {
            for q in p.neighbours() {
                assert!(q.neighbours().contains(&p));
            }
        }
    }

    #[test]
    fn posts_parse_print_and_turn() {
        assert_eq!(post("g0").to_string(), "G0");
        assert_eq!(post("A0").turned(), post("L4"));
        assert_eq!(post("F2").turned(), post("G2"));
        for p in Post::all() {
            assert_eq!(p.turned().turned(), p);
            assert_eq!(p.to_string().parse::<Post>().unwrap(), p);
        }
        for bad in ["", "M0", "A5", "G", "G00", "é0", "A-"] {
            assert!(bad.parse::<Post>().is_err(), "{bad}");
        }
        assert_eq!(post("L0").depth(Seat(0)), 0);
        assert_eq!(post("G0").depth(Seat(0)), 5);
        assert_eq!(post("A0").depth(Seat(1)), 0);
        assert_eq!(post("F0").depth(Seat(1)), 5);
    }
}
