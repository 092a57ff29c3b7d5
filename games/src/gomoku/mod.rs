//! Gomoku (五子棋) for two players: freestyle, standard and renju rules, on 15x15 or 19x19 boards,
//! from an empty board or a named opening (docs/rules.md, gomoku).
//!
//! [`Gomoku`] is the referee. Black sits in seat 0 and moves first; white sits in seat 1. Nothing is
//! hidden: every event goes to everyone ([`Event::audience`]), and every viewer gets the same
//! [`View`] apart from its `viewer` field.
//!
//! Decisions this module makes where the sources are silent (docs/rules.md, "Our decisions"):
//! - a player whose move clock runs out loses ([`Gomoku::time_out`]), as in junqi (docs/rules.md
//!   section 3) and in Gomocup;
//! - either player may resign at any time, with an optional reason (a bot adapter records why its
//!   engine failed);
//! - under renju, if black is to move and every empty point is forbidden, the game is drawn;
//! - either player may offer a draw, and ask to take back their last move (悔棋), which the other
//!   accepts or declines ([`offers`]; a server allows these in casual rooms only).

mod board;
pub mod offers;
pub mod openings;

use rand::Rng;
use rand::seq::IteratorRandom;
use thiserror::Error;

pub use board::{Board, DIRECTIONS, Forbidden, ParsePointError, Point, Rule, Stone};
pub use offers::{MAX_TAKEBACKS, Offers};
pub use openings::{NamedOpening, named_opening};

use crate::{Audience, Game, Seat, Viewer};

/// Longest resignation reason accepted, in bytes.
pub const MAX_REASON_BYTES: usize = 200;

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(untagged)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Opening {
    /// A named opening from [`openings`], such as `"kansei"` or `"slanted-three"`.
    Named(String),
    /// Stones in the order they were played, black first and alternating, such as
    /// `["h8", "h9", "h10"]`.
    Moves(Vec<Point>),
}

/// A gomoku game's settings, as a room asks for them; checked by [`Gomoku::new`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Config {
    /// Lines per side: 15 (*default*) or 19, or anything from 5 to 26 for experiments.
    pub size: u8,
    /// What wins.
    pub rule: Rule,
    /// The starting position; an empty board when absent.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub opening: Option<Opening>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            size: 15,
            rule: Rule::Freestyle,
            opening: None,
        }
    }
}

/// A [`Config`] the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// Boards are 5 to 26 lines wide (15 and 19 are the standard ones).
    #[error("a board is 5 to 26 lines wide, not {0}")]
    Size(u8),
    /// No opening has this name.
    #[error("no opening is called `{0}`")]
    UnknownOpening(String),
    /// An opening's stone is off the board or on another stone.
    #[error("the opening's stone {0} is off the board or on another stone")]
    OpeningPoint(Point),
    /// The opening already contains a winning line.
    #[error("the opening is already won")]
    OpeningDecided,
}

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Action {
    /// Put one's stone on an empty point, on one's turn.
    Place {
        /// The point.
        point: Point,
    },
    /// Give up the game, at any time.
    Resign {
        /// Why, for the record (at most [`MAX_REASON_BYTES`] bytes).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        reason: Option<String>,
    },
    /// Offer the other player a draw, at any time; it lapses when the other player places a
    /// stone. At most once between two of one's own stones.
    OfferDraw,
    /// Accept (`true`) or decline (`false`) the other player's draw offer.
    AnswerDraw {
        /// Whether the game ends drawn.
        accept: bool,
    },
    /// Ask to take back one's last stone (and the other player's reply after it, if any), so that
    /// it is one's turn again; it lapses when anyone places a stone. At most once between two of
    /// one's own stones, and granted at most [`MAX_TAKEBACKS`] times a game.
    AskTakeback,
    /// Grant (`true`) or refuse (`false`) the other player's takeback.
    AnswerTakeback {
        /// Whether the stones come off the board.
        accept: bool,
    },
}

/// Why an action was refused. The state is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Gomoku has seats 0 (black) and 1 (white) only.
    #[error("{0} is not at this table")]
    NoSuchSeat(Seat),
    /// The other player is to move.
    #[error("it is {to_move}'s turn")]
    NotYourTurn {
        /// The seat to move.
        to_move: Seat,
    },
    /// The point is not on the board.
    #[error("{0} is off the board")]
    OffBoard(Point),
    /// The point already holds a stone.
    #[error("{0} already holds a stone")]
    Occupied(Point),
    /// Under renju, black may not play here.
    #[error("{point} is forbidden for black: {shape}")]
    Forbidden {
        /// The point.
        point: Point,
        /// The shape it would make.
        shape: Forbidden,
    },
    /// A resignation's reason is longer than [`MAX_REASON_BYTES`].
    #[error("a resignation's reason is at most {MAX_REASON_BYTES} bytes")]
    ReasonTooLong,
    /// A draw offer is waiting for its answer already (answer the other player's instead).
    #[error("a draw offer is waiting for its answer already")]
    DrawPending,
    /// This seat offered a draw since its last stone: it may offer again after its next one.
    #[error("you offered a draw since your last stone; offer again after your next one")]
    DrawOfferedAlready,
    /// No draw offer is waiting for this seat's answer (one's own offer is the other's to answer).
    #[error("no draw offer is waiting for your answer")]
    NoDrawOffer,
    /// A takeback is waiting for its answer already.
    #[error("a takeback is waiting for its answer already")]
    TakebackPending,
    /// This seat asked for a takeback since its last stone: it may ask again after its next one.
    #[error("you asked for a takeback since your last stone; ask again after your next one")]
    TakebackAskedAlready,
    /// This seat has no stone of its own on the board since the opening to take back.
    #[error("you have no stone of your own to take back")]
    NothingToTakeBack,
    /// This seat was granted [`MAX_TAKEBACKS`] takebacks this game already.
    #[error("at most {MAX_TAKEBACKS} takebacks a game")]
    TakebackLimit,
    /// No takeback is waiting for this seat's answer (one's own request is the other's to answer).
    #[error("no takeback is waiting for your answer")]
    NoTakeback,
}

impl RuleError {
    /// A stable machine-readable code for the error, as sent in protocol `error` messages.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat(_) => "no_such_seat",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::OffBoard(_) => "point_off_board",
            RuleError::Occupied(_) => "point_occupied",
            RuleError::Forbidden { .. } => "forbidden_point",
            RuleError::ReasonTooLong => "reason_too_long",
            RuleError::DrawPending => "draw_pending",
            RuleError::DrawOfferedAlready => "draw_offered_already",
            RuleError::NoDrawOffer => "no_draw_offer",
            RuleError::TakebackPending => "takeback_pending",
            RuleError::TakebackAskedAlready => "takeback_asked_already",
            RuleError::NothingToTakeBack => "nothing_to_take_back",
            RuleError::TakebackLimit => "takeback_limit",
            RuleError::NoTakeback => "no_takeback",
        }
    }
}

/// One stone as played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Move {
    /// Its colour.
    pub stone: Stone,
    /// Where.
    pub point: Point,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum End {
    /// A winning line: its stones, in order along the line.
    Five {
        /// The line (five, or more where the rule lets more win).
        line: Vec<Point>,
    },
    /// The board filled up with no winner: a draw.
    BoardFull,
    /// Renju: black is to move and every empty point is forbidden: a draw.
    NoLegalPoint,
    /// A player resigned.
    Resigned {
        /// Who.
        seat: Seat,
        /// Why, when given.
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        reason: Option<String>,
    },
    /// A player's move clock ran out.
    TimedOut {
        /// Who.
        seat: Seat,
    },
    /// A player accepted the other's draw offer: a draw.
    DrawAgreed {
        /// Who offered it.
        offered_by: Seat,
    },
}

/// The result once the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Seat>,
    /// How it ended.
    pub end: End,
    /// Stones on the board at the end, opening included.
    pub stones: u32,
}

/// What happened. Everything in gomoku is public.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Event {
    /// The game began, from this position.
    Started {
        /// Lines per side.
        size: u8,
        /// What wins.
        rule: Rule,
        /// The opening's stones, in order (empty for an empty board).
        opening: Vec<Move>,
        /// The seat to move first.
        to_move: Seat,
    },
    /// A stone was placed.
    Placed {
        /// By whom.
        seat: Seat,
        /// The stone and its point.
        #[cfg_attr(feature = "serde", serde(flatten))]
        stone: Move,
        /// Its number in the game, from 1, counting the opening's stones.
        number: u32,
    },
    /// A player offered a draw.
    DrawOffered {
        /// Who.
        seat: Seat,
    },
    /// A player declined the other's draw offer.
    DrawDeclined {
        /// Who declined.
        seat: Seat,
    },
    /// A player asked to take back their last stone.
    TakebackAsked {
        /// Who.
        seat: Seat,
    },
    /// A player refused the other's takeback.
    TakebackDeclined {
        /// Who refused.
        seat: Seat,
    },
    /// Stones came off the board: `seat`'s takeback was granted, and it is `seat`'s turn.
    TakenBack {
        /// Who asked (and is to move now).
        seat: Seat,
        /// The stones taken off, in the order they had been played (one or two).
        moves: Vec<Move>,
    },
    /// The game is over.
    Ended {
        /// The result.
        outcome: Outcome,
    },
}

impl Event {
    /// Who may see this event: everyone, as gomoku hides nothing. This is the one place that
    /// decides gomoku's event visibility.
    pub fn audience(&self) -> Audience {
        Audience::Everyone
    }
}

/// What a viewer may know: the whole game, as gomoku hides nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// Lines per side.
    pub size: u8,
    /// What wins.
    pub rule: Rule,
    /// Every stone in the order played, the opening's first.
    pub moves: Vec<Move>,
    /// How many of `moves` are the opening position.
    pub opening: usize,
    /// The seat to move; `None` once the game is over.
    pub to_move: Option<Seat>,
    /// Under renju with black to move: the points black may not play, to mark them.
    pub forbidden: Vec<Point>,
    /// The result once the game is over.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub outcome: Option<Outcome>,
    /// The draw offer and takeback waiting for an answer, and the takebacks granted so far.
    #[cfg_attr(feature = "serde", serde(default))]
    pub offers: Offers,
}

impl View {
    /// The position the view shows.
    pub fn board(&self) -> Board {
        let mut board = Board::new(self.size);
        for m in &self.moves {
            board.set(m.point, Some(m.stone));
        }
        board
    }

    /// The colour to move, if the game is not over.
    pub fn stone_to_move(&self) -> Option<Stone> {
        self.to_move.and_then(Stone::of_seat)
    }
}

/// The referee of one gomoku game.
#[derive(Clone, Debug)]
pub struct Gomoku {
    config: Config,
    board: Board,
    moves: Vec<Move>,
    opening: usize,
    outcome: Option<Outcome>,
    offers: Offers,
    /// Per seat, whether it offered a draw and asked for a takeback since its last stone.
    asked: [Asked; 2],
}

/// What one seat asked for since its last stone (each may be asked once between two stones).
#[derive(Clone, Copy, Debug, Default)]
struct Asked {
    draw: bool,
    takeback: bool,
}

impl Gomoku {
    /// A game from `config`'s opening position, with the event that opens it.
    ///
    /// # Errors
    /// A board size outside 5 to 26, an unknown opening name, an opening stone off the board or on
    /// another stone, or an opening that is already won.
    pub fn new(config: Config) -> Result<(Gomoku, Vec<Event>), ConfigError> {
        if !(5..=26).contains(&config.size) {
            return Err(ConfigError::Size(config.size));
        }
        let points = match &config.opening {
            None => Vec::new(),
            Some(Opening::Moves(points)) => points.clone(),
            Some(Opening::Named(name)) => {
                let opening = named_opening(name).ok_or_else(|| ConfigError::UnknownOpening(name.clone()))?;
                // Named openings are drawn on 15x15; centre them on other boards.
                let shift = i32::from(config.size) / 2 - 7;
                opening
                    .moves
                    .iter()
                    .map(|m| {
                        let p: Point = m.parse().expect("named openings are valid points");
                        let x = i32::from(p.x) + shift;
                        let y = i32::from(p.y) + shift;
                        u8::try_from(x)
                            .ok()
                            .zip(u8::try_from(y).ok())
                            .map(|(x, y)| Point::new(x, y))
                            .ok_or(ConfigError::Size(config.size))
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        let mut board = Board::new(config.size);
        let mut moves = Vec::with_capacity(points.len());
        for (i, &point) in points.iter().enumerate() {
            if !point.on_board(config.size) || board.get(point).is_some() {
                return Err(ConfigError::OpeningPoint(point));
            }
            let stone = if i % 2 == 0 { Stone::Black } else { Stone::White };
            board.set(point, Some(stone));
            if board.winning_line(point, stone, config.rule).is_some() {
                return Err(ConfigError::OpeningDecided);
            }
            moves.push(Move { stone, point });
        }
        let opening = moves.len();
        let game = Gomoku {
            config,
            board,
            moves,
            opening,
            outcome: None,
            offers: Offers::default(),
            asked: [Asked::default(); 2],
        };
        let started = Event::Started {
            size: game.config.size,
            rule: game.config.rule,
            opening: game.moves.clone(),
            to_move: game.stone_to_move().seat(),
        };
        Ok((game, vec![started]))
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The position now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every stone in the order played, the opening's first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The colour whose turn it is (even after the game is over: the one that would move next).
    pub fn stone_to_move(&self) -> Stone {
        if self.moves.len().is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        }
    }

    /// Why the colour to move may not play at `point`, or `Ok` when it may.
    ///
    /// # Errors
    /// [`RuleError::OffBoard`], [`RuleError::Occupied`], or [`RuleError::Forbidden`] for black
    /// under renju.
    pub fn check_point(&self, point: Point) -> Result<(), RuleError> {
        if !point.on_board(self.config.size) {
            return Err(RuleError::OffBoard(point));
        }
        if self.board.get(point).is_some() {
            return Err(RuleError::Occupied(point));
        }
        if self.config.rule == Rule::Renju
            && self.stone_to_move() == Stone::Black
            && let Some(shape) = self.board.forbidden(point)
        {
            return Err(RuleError::Forbidden { point, shape });
        }
        Ok(())
    }

    /// Black's forbidden points now, under renju with black to move (empty otherwise).
    pub fn forbidden_points(&self) -> Vec<Point> {
        if self.config.rule != Rule::Renju || self.stone_to_move() != Stone::Black || self.outcome.is_some() {
            return Vec::new();
        }
        self.board
            .empty_points()
            .filter(|&p| self.near_black(p) && self.board.forbidden(p).is_some())
            .collect()
    }

    /// Whether a black stone lies within 4 lines of `point` on one of its lines: only such points
    /// can be forbidden.
    fn near_black(&self, point: Point) -> bool {
        DIRECTIONS.iter().any(|&dir| {
            (-4..=4).any(|k| {
                k != 0
                    && point
                        .step(dir, k, self.config.size)
                        .is_some_and(|p| self.board.get(p) == Some(Stone::Black))
            })
        })
    }

    /// Ends the game because `seat`'s move clock ran out: `seat` loses. Does nothing (no events)
    /// when the game is over or it is not `seat`'s turn.
    pub fn time_out(&mut self, seat: Seat) -> Vec<Event> {
        if self.outcome.is_some() || seat != self.stone_to_move().seat() {
            return Vec::new();
        }
        self.finish(Some(other(seat)), End::TimedOut { seat })
    }

    /// A uniformly random legal point for the colour to move, if there is one.
    pub fn random_point(&self, rng: &mut (impl Rng + ?Sized)) -> Option<Point> {
        if self.outcome.is_some() {
            return None;
        }
        let mut points: Vec<Point> = self.board.empty_points().collect();
        while !points.is_empty() {
            let i = (0..points.len()).choose(rng).expect("not empty");
            let point = points.swap_remove(i);
            if self.check_point(point).is_ok() {
                return Some(point);
            }
        }
        None
    }

    fn finish(&mut self, winner: Option<Seat>, end: End) -> Vec<Event> {
        let outcome = Outcome {
            winner,
            end,
            stones: u32::try_from(self.moves.len()).expect("a board holds under 2^32 stones"),
        };
        self.outcome = Some(outcome.clone());
        // Nothing waits for an answer in a game that is over.
        self.offers.draw = None;
        self.offers.takeback = None;
        vec![Event::Ended { outcome }]
    }

    fn place(&mut self, seat: Seat, point: Point) -> Result<Vec<Event>, RuleError> {
        let to_move = self.stone_to_move().seat();
        if seat != to_move {
            return Err(RuleError::NotYourTurn { to_move });
        }
        self.check_point(point)?;
        let stone = self.stone_to_move();
        self.board.set(point, Some(stone));
        self.moves.push(Move { stone, point });
        self.offers.placed(seat);
        self.asked[seat.index()] = Asked::default();
        let mut events = vec![Event::Placed {
            seat,
            stone: Move { stone, point },
            number: u32::try_from(self.moves.len()).expect("a board holds under 2^32 stones"),
        }];
        if let Some(line) = self.board.winning_line(point, stone, self.config.rule) {
            events.extend(self.finish(Some(seat), End::Five { line }));
        } else if self.board.is_full() {
            events.extend(self.finish(None, End::BoardFull));
        } else if self.config.rule == Rule::Renju
            && stone == Stone::White
            && self
                .board
                .empty_points()
                .all(|p| self.near_black(p) && self.board.forbidden(p).is_some())
        {
            events.extend(self.finish(None, End::NoLegalPoint));
        }
        Ok(events)
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

impl Game for Gomoku {
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = RuleError;
    type Outcome = Outcome;

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_some() {
            Vec::new()
        } else {
            vec![self.stone_to_move().seat()]
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        if seat.0 > 1 {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        match action {
            Action::Place { point } => self.place(seat, point),
            Action::Resign { reason } => {
                if reason.as_ref().is_some_and(|r| r.len() > MAX_REASON_BYTES) {
                    return Err(RuleError::ReasonTooLong);
                }
                Ok(self.finish(Some(other(seat)), End::Resigned { seat, reason }))
            }
            Action::OfferDraw => self.offer_draw(seat),
            Action::AnswerDraw { accept } => self.answer_draw(seat, accept),
            Action::AskTakeback => self.ask_takeback(seat),
            Action::AnswerTakeback { accept } => self.answer_takeback(seat, accept),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        View {
            viewer,
            size: self.config.size,
            rule: self.config.rule,
            moves: self.moves.clone(),
            opening: self.opening,
            to_move: self.to_act().first().copied(),
            forbidden: self.forbidden_points(),
            outcome: self.outcome.clone(),
            offers: self.offers,
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

#[cfg(feature = "serde")]
mod referee;
