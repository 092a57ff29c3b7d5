//! Tic-tac-toe (井字棋) for two players on 3x3 cells (docs/rules.md, tic-tac-toe): the smallest
//! game Skirmish referees, and the smallest for a bot author's first bot.
//!
//! [`TicTacToe`] is the referee. Seat 0 plays X and moves first; seat 1 plays O. Three of one's
//! marks in a row, a column or a diagonal win; nine marks with no line draw. Nothing is hidden:
//! every event goes to everyone. Cells are numbered 0 to 8 row by row from the top left, as the
//! seed paper's `Grid(0..8)` numbers them (`../shared/seeds/003_0f0e4e705e3a46d3.txt`).
//!
//! Decisions where the sources are silent, as in gomoku: a player whose move clock runs out
//! loses, and either player may resign at any time.

#[cfg(feature = "serde")]
mod referee;

use thiserror::Error;

use crate::{Audience, Game, Seat, Viewer};

/// Longest resignation reason accepted, in bytes.
pub const MAX_REASON_BYTES: usize = 200;

/// Cells on the board.
pub const CELLS: u8 = 9;

/// The eight lines of three cells: rows, columns, then the two diagonals.
pub const LINES: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A tic-tac-toe game's settings: there are none yet (`{"game": "tic_tac_toe"}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Config {}

/// Why a config cannot be played (none can fail yet).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {}

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Action {
    /// Put one's mark in an empty cell (0 to 8, row by row from the top left), on one's turn.
    Place {
        /// The cell.
        cell: u8,
    },
    /// Give up the game, at any time.
    Resign {
        /// Why, for the record (at most [`MAX_REASON_BYTES`] bytes).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        reason: Option<String>,
    },
}

/// Why an action was refused. The state is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Tic-tac-toe has seats 0 (X) and 1 (O) only.
    #[error("{0} is not at this table")]
    NoSuchSeat(Seat),
    /// The other player is to move.
    #[error("it is {to_move}'s turn")]
    NotYourTurn {
        /// The seat to move.
        to_move: Seat,
    },
    /// The cell is not on the board.
    #[error("cell {0} is off the board (cells are 0 to 8)")]
    OffBoard(u8),
    /// The cell already holds a mark.
    #[error("cell {0} already holds a mark")]
    Occupied(u8),
    /// A resignation's reason is longer than [`MAX_REASON_BYTES`].
    #[error("a resignation's reason is at most {MAX_REASON_BYTES} bytes")]
    ReasonTooLong,
}

impl RuleError {
    /// A stable machine-readable code for the error, as sent in protocol `error` messages.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat(_) => "no_such_seat",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::OffBoard(_) => "cell_off_board",
            RuleError::Occupied(_) => "cell_occupied",
            RuleError::ReasonTooLong => "reason_too_long",
        }
    }
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
    /// Three in a line: its cells.
    Line {
        /// The line's cells, in [`LINES`] order.
        cells: [u8; 3],
    },
    /// Nine marks and no line: a draw.
    BoardFull,
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
}

/// What happened. Everything in tic-tac-toe is public.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Event {
    /// The game began: X (seat 0) is to move.
    Started,
    /// A seat put its mark in a cell.
    Placed {
        /// Who.
        seat: Seat,
        /// Where.
        cell: u8,
    },
    /// The game is over.
    Ended {
        /// The result.
        outcome: Outcome,
    },
}

impl Event {
    /// Who may see this event: everyone, as tic-tac-toe hides nothing.
    pub fn audience(&self) -> Audience {
        Audience::Everyone
    }
}

/// What a viewer may know: the whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// Each cell's mark: the seat that put it there, or `None`; 9 cells, row by row.
    pub cells: Vec<Option<Seat>>,
    /// The seat to move; `None` once the game is over.
    pub to_move: Option<Seat>,
    /// The result once the game is over.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub outcome: Option<Outcome>,
}

/// The referee of one tic-tac-toe game. Cheap to copy (bots search over copies).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    cells: [Option<Seat>; 9],
    outcome: Option<Outcome>,
}

impl TicTacToe {
    /// A new game, X to move, with the event that opens it.
    ///
    /// # Errors
    /// None yet: every [`Config`] can be played.
    pub fn new(_config: Config) -> Result<(TicTacToe, Vec<Event>), ConfigError> {
        Ok((TicTacToe::from_cells([None; 9]), vec![Event::Started]))
    }

    /// A game in the position `cells` (a bot's search, a test), over when it has a line or is full.
    pub fn from_cells(cells: [Option<Seat>; 9]) -> TicTacToe {
        let mut game = TicTacToe { cells, outcome: None };
        if let Some((seat, line)) = game.line() {
            game.outcome = Some(Outcome {
                winner: Some(seat),
                end: End::Line { cells: line },
            });
        } else if cells.iter().all(Option::is_some) {
            game.outcome = Some(Outcome {
                winner: None,
                end: End::BoardFull,
            });
        }
        game
    }

    /// Each cell's mark, row by row.
    pub fn cells(&self) -> &[Option<Seat>; 9] {
        &self.cells
    }

    /// The seat to move by the count of marks (X when they are equal), whether or not the game is
    /// over.
    pub fn seat_to_move(&self) -> Seat {
        let marks = self.cells.iter().flatten().count();
        Seat(u8::from(marks % 2 == 1))
    }

    /// Ends the game because `seat`'s move clock ran out: `seat` loses. No events when the game
    /// is over or it is not `seat`'s turn.
    pub fn time_out(&mut self, seat: Seat) -> Vec<Event> {
        if self.outcome.is_some() || seat != self.seat_to_move() {
            return Vec::new();
        }
        self.finish(Some(other(seat)), End::TimedOut { seat })
    }

    /// The first line of three marks of one seat, in [`LINES`] order.
    fn line(&self) -> Option<(Seat, [u8; 3])> {
        LINES.iter().find_map(|line| {
            let [a, b, c] = line.map(|i| self.cells[usize::from(i)]);
            match (a, b, c) {
                (Some(a), Some(b), Some(c)) if a == b && b == c => Some((a, *line)),
                _ => None,
            }
        })
    }

    fn finish(&mut self, winner: Option<Seat>, end: End) -> Vec<Event> {
        let outcome = Outcome { winner, end };
        self.outcome = Some(outcome.clone());
        vec![Event::Ended { outcome }]
    }

    fn place(&mut self, seat: Seat, cell: u8) -> Result<Vec<Event>, RuleError> {
        let to_move = self.seat_to_move();
        if seat != to_move {
            return Err(RuleError::NotYourTurn { to_move });
        }
        if cell >= CELLS {
            return Err(RuleError::OffBoard(cell));
        }
        if self.cells[usize::from(cell)].is_some() {
            return Err(RuleError::Occupied(cell));
        }
        self.cells[usize::from(cell)] = Some(seat);
        let mut events = vec![Event::Placed { seat, cell }];
        if let Some((winner, line)) = self.line() {
            events.extend(self.finish(Some(winner), End::Line { cells: line }));
        } else if self.cells.iter().all(Option::is_some) {
            events.extend(self.finish(None, End::BoardFull));
        }
        Ok(events)
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

impl Game for TicTacToe {
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = RuleError;
    type Outcome = Outcome;

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_some() {
            Vec::new()
        } else {
            vec![self.seat_to_move()]
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
            Action::Place { cell } => self.place(seat, cell),
            Action::Resign { reason } => {
                if reason.as_ref().is_some_and(|r| r.len() > MAX_REASON_BYTES) {
                    return Err(RuleError::ReasonTooLong);
                }
                Ok(self.finish(Some(other(seat)), End::Resigned { seat, reason }))
            }
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        View {
            viewer,
            cells: self.cells.to_vec(),
            to_move: self.to_act().first().copied(),
            outcome: self.outcome.clone(),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
