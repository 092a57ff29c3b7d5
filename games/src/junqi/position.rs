//! Pieces, layouts, moves and combat: a junqi position with every piece known, as the referee holds
//! it and as a bot imagines it when it searches over guessed enemy pieces (docs/rules.md, junqi,
//! "Pieces", "Deployment", "Moves", "Combat").

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand::seq::SliceRandom;
use thiserror::Error;

use super::board::{Direction, POSTS, Post};
use crate::Seat;

/// A piece's rank, from the field marshal down to the flag, with its CAAI letter (`a` to `l`).
///
/// The derived order is the CAAI order: officers first, highest first, so for two officers
/// `a < b` means `a` outranks `b`. Use [`Rank::beats`] rather than comparing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Rank {
    /// 司令, `a`.
    FieldMarshal,
    /// 军长, `b`.
    General,
    /// 师长, `c`.
    MajorGeneral,
    /// 旅长, `d`.
    Brigadier,
    /// 团长, `e`.
    Colonel,
    /// 营长, `f`.
    Major,
    /// 连长, `g`.
    Captain,
    /// 排长, `h`.
    Lieutenant,
    /// 工兵, `i`: the lowest officer; turns along railways and clears landmines.
    Engineer,
    /// 地雷, `j`: never moves; removes any attacker but an engineer or a bomb.
    Landmine,
    /// 炸弹, `k`: removed together with whatever it meets.
    Bomb,
    /// 军旗, `l`: never moves; its loss loses the game.
    Flag,
}

impl Rank {
    /// Every rank in CAAI order (`a` to `l`).
    pub const ALL: [Rank; 12] = [
        Rank::FieldMarshal,
        Rank::General,
        Rank::MajorGeneral,
        Rank::Brigadier,
        Rank::Colonel,
        Rank::Major,
        Rank::Captain,
        Rank::Lieutenant,
        Rank::Engineer,
        Rank::Landmine,
        Rank::Bomb,
        Rank::Flag,
    ];

    /// How many of this rank each side has: 1 1 2 2 2 2 3 3 3 3 2 1 (docs/rules.md, "Pieces"), 25 in all.
    pub const fn count(self) -> u8 {
        match self {
            Rank::FieldMarshal | Rank::General | Rank::Flag => 1,
            Rank::MajorGeneral | Rank::Brigadier | Rank::Colonel | Rank::Major | Rank::Bomb => 2,
            Rank::Captain | Rank::Lieutenant | Rank::Engineer | Rank::Landmine => 3,
        }
    }

    /// The CAAI letter, `a` (field marshal) to `l` (flag).
    pub fn letter(self) -> char {
        char::from(b'a' + self as u8)
    }

    /// The rank a CAAI letter stands for.
    pub fn from_letter(letter: char) -> Option<Rank> {
        let i = u32::from(letter).checked_sub(u32::from('a'))?;
        Rank::ALL.get(usize::try_from(i).ok()?).copied()
    }

    /// Whether the piece can ever move (everything but the flag and landmines).
    pub fn movable(self) -> bool {
        !matches!(self, Rank::Flag | Rank::Landmine)
    }

    /// Whether this is an officer (field marshal to engineer), ranked against other officers.
    pub fn is_officer(self) -> bool {
        self <= Rank::Engineer
    }

    /// What happens when a piece of this rank attacks one of `defender`'s rank (docs/rules.md,
    /// "Combat").
    pub fn attack(self, defender: Rank) -> MoveResult {
        match (self, defender) {
            (Rank::Bomb, _) | (_, Rank::Bomb) => MoveResult::Traded,
            (_, Rank::Flag) => MoveResult::Won,
            (Rank::Engineer, Rank::Landmine) => MoveResult::Won,
            (_, Rank::Landmine) => MoveResult::Lost,
            (a, d) if a == d => MoveResult::Traded,
            (a, d) if a.beats(d) => MoveResult::Won,
            _ => MoveResult::Lost,
        }
    }

    /// Whether this officer outranks the officer `other` (false when either is not an officer).
    pub fn beats(self, other: Rank) -> bool {
        self.is_officer() && other.is_officer() && self < other
    }

    /// The English name, for people.
    pub fn name(self) -> &'static str {
        match self {
            Rank::FieldMarshal => "field marshal",
            Rank::General => "general",
            Rank::MajorGeneral => "major general",
            Rank::Brigadier => "brigadier",
            Rank::Colonel => "colonel",
            Rank::Major => "major",
            Rank::Captain => "captain",
            Rank::Lieutenant => "lieutenant",
            Rank::Engineer => "engineer",
            Rank::Landmine => "landmine",
            Rank::Bomb => "bomb",
            Rank::Flag => "flag",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a move did, from the mover's side (docs/rules.md, "What the referee tells"). Both players and
/// spectators see it; it says nothing of either piece's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MoveResult {
    /// No collision: the destination was empty.
    Moved,
    /// The attacker removed the defender and moved onto its post.
    Won,
    /// The defender removed the attacker and stayed.
    Lost,
    /// Both were removed.
    Traded,
}

impl MoveResult {
    /// Whether there was a collision (anything but [`MoveResult::Moved`]); collisions reset the
    /// no-attack count.
    pub fn collided(self) -> bool {
        self != MoveResult::Moved
    }

    /// The CAAI result digit from the mover's side: 0 its piece died, 1 it removed the other, 2
    /// both, 3 no collision.
    pub fn caai_digit(self) -> u8 {
        match self {
            MoveResult::Lost => 0,
            MoveResult::Won => 1,
            MoveResult::Traded => 2,
            MoveResult::Moved => 3,
        }
    }

    /// The result a CAAI digit stands for.
    pub fn from_caai_digit(digit: u8) -> Option<MoveResult> {
        Some(match digit {
            0 => MoveResult::Lost,
            1 => MoveResult::Won,
            2 => MoveResult::Traded,
            3 => MoveResult::Moved,
            _ => return None,
        })
    }
}

/// A piece: whose it is, and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub owner: Seat,
    /// Its rank.
    pub rank: Rank,
}

/// The 25 posts of a side's layout in CAAI order, in seat 0's frame: front row first, left to
/// right, skipping camps (G0-G4, H0 H2 H4, I0 I1 I3 I4, J0 J2 J4, K0-K4, L0-L4). Seat 1's are the
/// same posts turned ([`Post::turned`]).
pub const LAYOUT_POSTS: [&str; 25] = [
    "G0", "G1", "G2", "G3", "G4", "H0", "H2", "H4", "I0", "I1", "I3", "I4", "J0", "J2", "J4", "K0", "K1",
    "K2", "K3", "K4", "L0", "L1", "L2", "L3", "L4",
];

/// The post of a layout's `slot` (0 to 24) for `seat`, in the absolute frame.
///
/// # Panics
/// When `slot` is 25 or more.
pub fn layout_post(seat: Seat, slot: usize) -> Post {
    let post: Post = LAYOUT_POSTS[slot].parse().expect("layout posts are posts");
    post.in_frame_of(seat)
}

/// One side's deployment as written: 25 ranks in [`LAYOUT_POSTS`] order, in the owner's own frame,
/// so the same layout means the same formation for either seat. Written as the CAAI 25 letters
/// (`abccddeeffggghhhiiijjkklj`); `ARRAY ` before them is accepted when parsing.
///
/// A `Layout` is syntax: any 25 ranks. [`Layout::check`] says whether it obeys the deployment rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "String", try_from = "String")
)]
pub struct Layout(pub [Rank; 25]);

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Layout {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Layout".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[a-l]{25}$",
            "description": "A junqi deployment as the CAAI protocol writes it: 25 piece letters (a field marshal ... l flag) for the owner's posts front row first, left to right as the owner sees them, camps skipped: G0-G4, H0 H2 H4, I0 I1 I3 I4, J0 J2 J4, K0-K4, L0-L4 in the owner's frame."
        })
    }
}

/// Why a layout breaks the deployment rules (docs/rules.md, junqi, "Deployment").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DeploymentError {
    /// The layout does not hold exactly each rank's count.
    #[error("a layout holds exactly 1 1 2 2 2 2 3 3 3 3 2 1 pieces of ranks a to l; it has {found} {rank}s")]
    PieceCount {
        /// The first rank whose count is wrong.
        rank: Rank,
        /// How many the layout has.
        found: u8,
    },
    /// The flag is not in one of the two headquarters.
    #[error("the flag must stand in a headquarters (L1 or L3 in one's own frame), not {0}")]
    FlagNotInHeadquarters(&'static str),
    /// A landmine is outside the last two rows.
    #[error("landmines stand only in one's last two rows (K and L in one's own frame), not {0}")]
    LandmineOutOfBackRows(&'static str),
    /// A bomb is in the front row.
    #[error("bombs may not stand in one's front row (G in one's own frame), as at {0}")]
    BombInFrontRow(&'static str),
}

impl DeploymentError {
    /// A stable machine-readable code for the error.
    pub fn code(&self) -> &'static str {
        match self {
            DeploymentError::PieceCount { .. } => "layout_piece_count",
            DeploymentError::FlagNotInHeadquarters(_) => "flag_not_in_headquarters",
            DeploymentError::LandmineOutOfBackRows(_) => "landmine_out_of_back_rows",
            DeploymentError::BombInFrontRow(_) => "bomb_in_front_row",
        }
    }
}

impl Layout {
    /// The CAAI championship's example layout, `abccddeeffggghhhiiijjkklj` (docs/rules.md): flag at L3,
    /// landmines at K4, L0 and L4, bombs at L1 and L2.
    pub fn example() -> Layout {
        "abccddeeffggghhhiiijjkklj"
            .parse()
            .expect("the example layout parses")
    }

    /// Whether the layout obeys every deployment rule.
    ///
    /// # Errors
    /// The first rule it breaks, checked in docs/rules.md's order: piece counts, the flag in a
    /// headquarters, landmines in the last two rows, no bomb in the front row.
    pub fn check(&self) -> Result<(), DeploymentError> {
        for rank in Rank::ALL {
            let found = u8::try_from(self.0.iter().filter(|&&r| r == rank).count()).expect("25 slots");
            if found != rank.count() {
                return Err(DeploymentError::PieceCount { rank, found });
            }
        }
        for (slot, &rank) in self.0.iter().enumerate() {
            let post = LAYOUT_POSTS[slot];
            match rank {
                Rank::Flag if !layout_post(Seat(0), slot).is_headquarters() => {
                    return Err(DeploymentError::FlagNotInHeadquarters(post));
                }
                Rank::Landmine if layout_post(Seat(0), slot).depth(Seat(0)) > 1 => {
                    return Err(DeploymentError::LandmineOutOfBackRows(post));
                }
                Rank::Bomb if layout_post(Seat(0), slot).depth(Seat(0)) == 5 => {
                    return Err(DeploymentError::BombInFrontRow(post));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A uniformly random layout obeying the deployment rules: the referee's deployment for a seat
    /// whose deployment time ran out, and the `random` bot's.
    pub fn random(rng: &mut (impl Rng + ?Sized)) -> Layout {
        loop {
            let mut ranks: Vec<Rank> = Rank::ALL
                .iter()
                .flat_map(|&r| std::iter::repeat_n(r, usize::from(r.count())))
                .collect();
            ranks.shuffle(rng);
            let layout = Layout(ranks.try_into().expect("25 pieces"));
            // About 1 shuffle in 200 is valid; rejection keeps the draw uniform.
            if layout.check().is_ok() {
                return layout;
            }
        }
    }

    /// Each piece with its absolute post, for `seat`.
    pub fn pieces(&self, seat: Seat) -> impl Iterator<Item = (Post, Rank)> + '_ {
        self.0
            .iter()
            .enumerate()
            .map(move |(slot, &rank)| (layout_post(seat, slot), rank))
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|r| write!(f, "{}", r.letter()))
    }
}

/// Text that is not 25 piece letters.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "a layout is 25 piece letters a to l, optionally after `ARRAY ` (like ARRAY abccddeeffggghhhiiijjkklj)"
)]
pub struct ParseLayoutError;

impl FromStr for Layout {
    type Err = ParseLayoutError;
    fn from_str(s: &str) -> Result<Layout, ParseLayoutError> {
        let s = s.trim();
        let letters = s.strip_prefix("ARRAY").map_or(s, str::trim_start);
        let ranks: Vec<Rank> = letters
            .chars()
            .map(Rank::from_letter)
            .collect::<Option<_>>()
            .ok_or(ParseLayoutError)?;
        Ok(Layout(ranks.try_into().map_err(|_| ParseLayoutError)?))
    }
}

impl From<Layout> for String {
    fn from(layout: Layout) -> String {
        layout.to_string()
    }
}

impl TryFrom<String> for Layout {
    type Error = ParseLayoutError;
    fn try_from(s: String) -> Result<Layout, ParseLayoutError> {
        s.parse()
    }
}

/// A move: a piece goes from one post to another (possibly attacking what stands there). Written
/// `G0F0` in the CAAI text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Move {
    /// Where the piece stands.
    pub from: Post,
    /// Where it goes, or the piece it attacks.
    pub to: Post,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = super::board::ParsePostError;
    fn from_str(s: &str) -> Result<Move, Self::Err> {
        let s = s.trim();
        match (s.get(..2), s.get(2..)) {
            (Some(from), Some(to)) => Ok(Move {
                from: from.parse()?,
                to: to.parse()?,
            }),
            _ => Err(super::board::ParsePostError(s.chars().take(16).collect())),
        }
    }
}

impl Move {
    /// The same move with the board turned 180 degrees (into or out of seat 1's frame).
    pub fn turned(self) -> Move {
        Move {
            from: self.from.turned(),
            to: self.to.turned(),
        }
    }
}

/// Why a move is illegal in a position. Each has a stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveError {
    /// No piece of the mover stands on the from post.
    #[error("you have no piece on {0}")]
    NoPieceOfYours(Post),
    /// The piece is a flag or a landmine, which never move.
    #[error("the piece on {0} never moves (a flag or a landmine)")]
    ImmovablePiece(Post),
    /// The piece stands in a headquarters, which it never leaves.
    #[error("the piece on {0} is in a headquarters and never moves again")]
    InHeadquarters(Post),
    /// The destination holds one of the mover's own pieces.
    #[error("{0} holds one of your own pieces")]
    OwnPiece(Post),
    /// The destination is a camp with an enemy piece in it.
    #[error("the piece in the camp at {0} cannot be attacked")]
    CampProtected(Post),
    /// Only an engineer turns along the railway.
    #[error("only an engineer turns along the railway; {from} to {to} needs a turn")]
    RailwayTurn {
        /// The piece's post.
        from: Post,
        /// The destination.
        to: Post,
    },
    /// No road step or railway run (through empty posts) leads there.
    #[error("the piece on {from} cannot reach {to}")]
    Unreachable {
        /// The piece's post.
        from: Post,
        /// The destination.
        to: Post,
    },
}

impl MoveError {
    /// A stable machine-readable code for the error.
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::NoPieceOfYours(_) => "no_piece_of_yours",
            MoveError::ImmovablePiece(_) => "immovable_piece",
            MoveError::InHeadquarters(_) => "piece_in_headquarters",
            MoveError::OwnPiece(_) => "own_piece_at_destination",
            MoveError::CampProtected(_) => "camp_protected",
            MoveError::RailwayTurn { .. } => "railway_turn",
            MoveError::Unreachable { .. } => "unreachable_post",
        }
    }
}

/// A position with every piece known: whose turn it is, every piece with its rank, and the count of
/// moves since the last collision. The referee holds the true one; a bot builds guessed ones.
///
/// Cheap to copy (about 130 bytes): search copies it freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; POSTS],
    to_move: Seat,
    quiet: u16,
}

impl Position {
    /// The position at the start of the battle: both layouts in place, seat 0 to move.
    pub fn new(layouts: [&Layout; 2]) -> Position {
        let mut board = [None; POSTS];
        for (i, layout) in layouts.iter().enumerate() {
            let owner = Seat(u8::try_from(i).expect("two seats"));
            for (post, rank) in layout.pieces(owner) {
                board[post.index()] = Some(Piece { owner, rank });
            }
        }
        Position {
            board,
            to_move: Seat(0),
            quiet: 0,
        }
    }

    /// An empty board with `to_move` to move, to build positions piece by piece with
    /// [`Position::put`].
    pub fn empty(to_move: Seat) -> Position {
        Position {
            board: [None; POSTS],
            to_move,
            quiet: 0,
        }
    }

    /// Puts `piece` on `post` (or clears it with `None`), whatever stood there.
    pub fn put(&mut self, post: Post, piece: Option<Piece>) {
        self.board[post.index()] = piece;
    }

    /// Sets the number of consecutive moves without a collision.
    pub fn set_quiet_moves(&mut self, quiet: u16) {
        self.quiet = quiet;
    }

    /// The piece on `post`.
    pub fn at(&self, post: Post) -> Option<Piece> {
        self.board[post.index()]
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Consecutive moves (both sides counted) since the last collision.
    pub fn quiet_moves(&self) -> u16 {
        self.quiet
    }

    /// Every piece with its post, A0 to L4.
    pub fn pieces(&self) -> impl Iterator<Item = (Post, Piece)> + '_ {
        Post::all().filter_map(|p| self.at(p).map(|piece| (p, piece)))
    }

    /// Where `seat`'s flag stands, if it is still on the board.
    pub fn flag(&self, seat: Seat) -> Option<Post> {
        self.pieces()
            .find(|(_, p)| p.owner == seat && p.rank == Rank::Flag)
            .map(|(post, _)| post)
    }

    /// Whether `mover` may put a piece onto `to`: empty, or an enemy piece outside a camp.
    fn enterable(&self, mover: Seat, to: Post) -> bool {
        match self.at(to) {
            None => true,
            Some(piece) => piece.owner != mover && !to.is_camp(),
        }
    }

    /// Every post the piece on `from` may move to (or attack), each once, appended to `out`.
    /// Nothing for an empty post, a flag, a landmine or a piece in a headquarters.
    pub fn destinations_into(&self, from: Post, out: &mut Vec<Post>) {
        let Some(piece) = self.at(from) else { return };
        if !piece.rank.movable() || from.is_headquarters() {
            return;
        }
        let start = out.len();
        let mover = piece.owner;
        for &to in from.neighbours() {
            if self.enterable(mover, to) {
                out.push(to);
            }
        }
        if from.on_railway() {
            if piece.rank == Rank::Engineer {
                self.engineer_runs(from, mover, out);
            } else {
                for direction in Direction::ALL {
                    let mut at = from;
                    while let Some(next) = at.railway_step(direction) {
                        match self.at(next) {
                            None => out.push(next),
                            Some(other) => {
                                if other.owner != mover {
                                    out.push(next);
                                }
                                break;
                            }
                        }
                        at = next;
                    }
                }
            }
        }
        // Road steps and railway runs overlap; keep each destination once, in first-found order.
        let mut seen = [false; POSTS];
        let mut kept = start;
        for i in start..out.len() {
            let p = out[i];
            if !seen[p.index()] {
                seen[p.index()] = true;
                out[kept] = p;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// An engineer's railway moves from `from` for `mover`, appended to `out`: every empty
    /// railway post reachable through empty railway posts, and every enemy piece next to such a
    /// path (docs/rules.md, "Moves" 4). Each post once; `from` itself is not one.
    pub fn engineer_runs(&self, from: Post, mover: Seat, out: &mut Vec<Post>) {
        let mut seen = [false; POSTS];
        let mut queue = [from; POSTS];
        let (mut head, mut tail) = (0, 1);
        seen[from.index()] = true;
        while head < tail {
            let at = queue[head];
            head += 1;
            for &next in at.railway_neighbours() {
                if seen[next.index()] {
                    continue;
                }
                seen[next.index()] = true;
                match self.at(next) {
                    None => {
                        out.push(next);
                        queue[tail] = next;
                        tail += 1;
                    }
                    Some(other) if other.owner != mover => out.push(next),
                    Some(_) => {}
                }
            }
        }
    }

    /// Every post the piece on `from` may move to.
    pub fn destinations(&self, from: Post) -> Vec<Post> {
        let mut out = Vec::new();
        self.destinations_into(from, &mut out);
        out
    }

    /// Every legal move of `seat`, by from post (A0 to L4), then in [`Position::destinations`] order.
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        let mut to = Vec::with_capacity(32);
        for (from, piece) in self.pieces() {
            if piece.owner == seat {
                to.clear();
                self.destinations_into(from, &mut to);
                moves.extend(to.iter().map(|&to| Move { from, to }));
            }
        }
        moves
    }

    /// Whether `seat` has any legal move.
    pub fn has_legal_move(&self, seat: Seat) -> bool {
        let mut to = Vec::with_capacity(32);
        self.pieces().any(|(from, piece)| {
            piece.owner == seat && {
                to.clear();
                self.destinations_into(from, &mut to);
                !to.is_empty()
            }
        })
    }

    /// Whether `mv` is legal for `seat` (whoever is to move).
    ///
    /// # Errors
    /// The most precise [`MoveError`] for why not.
    pub fn check_move(&self, seat: Seat, mv: Move) -> Result<(), MoveError> {
        let piece = match self.at(mv.from) {
            Some(piece) if piece.owner == seat => piece,
            _ => return Err(MoveError::NoPieceOfYours(mv.from)),
        };
        if !piece.rank.movable() {
            return Err(MoveError::ImmovablePiece(mv.from));
        }
        if mv.from.is_headquarters() {
            return Err(MoveError::InHeadquarters(mv.from));
        }
        match self.at(mv.to) {
            Some(other) if other.owner == seat => return Err(MoveError::OwnPiece(mv.to)),
            Some(_) if mv.to.is_camp() => return Err(MoveError::CampProtected(mv.to)),
            _ => {}
        }
        if self.destinations(mv.from).contains(&mv.to) {
            return Ok(());
        }
        if mv.from.on_railway() && piece.rank != Rank::Engineer {
            let mut runs = Vec::new();
            self.engineer_runs(mv.from, seat, &mut runs);
            if runs.contains(&mv.to) {
                return Err(MoveError::RailwayTurn {
                    from: mv.from,
                    to: mv.to,
                });
            }
        }
        Err(MoveError::Unreachable {
            from: mv.from,
            to: mv.to,
        })
    }

    /// Plays `mv` for the seat to move, resolving any collision with the true ranks, and passes
    /// the turn. Returns the result and, when the move removed pieces, which (the mover's first).
    ///
    /// The move must be legal ([`Position::check_move`]); an illegal one leaves a position the
    /// rules never reach.
    pub fn play(&mut self, mv: Move) -> Played {
        let attacker = self.board[mv.from.index()]
            .take()
            .expect("a legal move starts on a piece");
        let result = match self.at(mv.to) {
            None => MoveResult::Moved,
            Some(defender) => attacker.rank.attack(defender.rank),
        };
        let defender = self.at(mv.to);
        let mut removed = [None, None];
        match result {
            MoveResult::Moved => self.board[mv.to.index()] = Some(attacker),
            MoveResult::Won => {
                removed[1] = defender;
                self.board[mv.to.index()] = Some(attacker);
            }
            MoveResult::Lost => removed[0] = Some(attacker),
            MoveResult::Traded => {
                removed = [Some(attacker), defender];
                self.board[mv.to.index()] = None;
            }
        }
        self.quiet = if result.collided() {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        self.to_move = Seat(1 - self.to_move.0);
        Played { result, removed }
    }
}

/// What [`Position::play`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The result, from the mover's side.
    pub result: MoveResult,
    /// The pieces removed: the mover's, then the defender's.
    pub removed: [Option<Piece>; 2],
}

#[cfg(test)]
mod tests;
