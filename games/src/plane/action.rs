//! What a seat may do (deploy, shoot, resign) and why the referee refuses an action, each
//! refusal with a stable code.

use thiserror::Error;

use super::geometry::{Cell, Placement};
use crate::Seat;

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Action {
    /// Place one's planes for this round (1 for `classic`, 2 for `double`), secretly.
    Deploy {
        /// The planes, in any order.
        planes: Vec<Placement>,
    },
    /// Fire one shot at a cell of an opponent's board.
    Fire {
        /// The opponent: a seat still in the round, not one's own.
        target: Seat,
        /// A cell whose content is not yet public.
        cell: Cell,
    },
    /// Give the match up, at any time: the match ends at once and this seat is placed last
    /// (the room's forfeit uses it too).
    Resign,
}

/// Why an action was refused. The state is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The match is over.
    #[error("the match is over")]
    MatchOver,
    /// This seat is not at the table.
    #[error("{0} is not at this table")]
    NoSuchSeat(Seat),
    /// The seat does not play this round (an extra round among tied players only).
    #[error("{0} does not play this round")]
    NotInRound(Seat),
    /// Planes are being deployed; nobody fires yet.
    #[error("planes are being deployed; nobody fires yet")]
    DeployPhase,
    /// Shots are being fired; deployments are closed (a player who ran out of time was given one).
    #[error("deployments are closed for this round")]
    DeploymentClosed,
    /// This seat has already deployed this round.
    #[error("{0} has already deployed this round")]
    AlreadyDeployed(Seat),
    /// Wrong number of planes for the variant.
    #[error("{expected} plane(s) to deploy, not {got}")]
    PlaneCount {
        /// Planes the variant asks for.
        expected: usize,
        /// Planes sent.
        got: usize,
    },
    /// A plane does not lie wholly on the board.
    #[error("the plane at {0} does not fit on the board")]
    PlaneOffBoard(Placement),
    /// Two planes share a cell.
    #[error("planes {0} and {1} overlap")]
    Overlap(Placement, Placement),
    /// Another seat is the attacker.
    #[error("it is {attacker}'s turn to fire")]
    NotYourTurn {
        /// The seat whose turn it is.
        attacker: Seat,
    },
    /// A player may not fire at their own board.
    #[error("you cannot fire at your own board")]
    OwnBoard,
    /// The target is out of the round (knocked out, or not playing it).
    #[error("{0} is out of this round")]
    TargetOut(Seat),
    /// The cell is not on the board.
    #[error("{0} is off the board")]
    CellOffBoard(Cell),
    /// The cell's content is already public (shot before, or part of a downed plane).
    #[error("{0} is already known")]
    CellPublic(Cell),
}

impl RuleError {
    /// The stable, snake_case code of this refusal, as sent in the protocol's `error` message.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::MatchOver => "match_over",
            RuleError::NoSuchSeat(_) => "no_such_seat",
            RuleError::NotInRound(_) => "not_in_round",
            RuleError::DeployPhase => "deploy_phase",
            RuleError::DeploymentClosed => "deployment_closed",
            RuleError::AlreadyDeployed(_) => "already_deployed",
            RuleError::PlaneCount { .. } => "plane_count",
            RuleError::PlaneOffBoard(_) => "plane_off_board",
            RuleError::Overlap(..) => "overlapping_planes",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::OwnBoard => "own_board",
            RuleError::TargetOut(_) => "target_out",
            RuleError::CellOffBoard(_) => "cell_off_board",
            RuleError::CellPublic(_) => "cell_public",
        }
    }
}
