//! The shapes of a snapshot as one viewer is shown it. What goes into them is decided by the
//! referee's [`crate::Game::view`] for [`super::PlaneBattle`], which with
//! [`super::Event::audience`] is where plane battle decides visibility (both in `plane/mod.rs`).

use super::config::Config;
use super::geometry::Placement;
use super::record::{Outcome, RoundResult, ShotRecord};
use crate::{PerSeat, Seat, Viewer};

/// The phase a viewer sees.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "phase", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PhaseView {
    /// Secret deployment.
    Deploy {
        /// The seats that have deployed.
        ready: Vec<Seat>,
    },
    /// Shots.
    Attack {
        /// Whose turn it is.
        attacker: Seat,
    },
    /// The match is over.
    Over,
}

/// One seat's board as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardView {
    /// Whose board.
    pub seat: Seat,
    /// Whether the seat plays the current round.
    pub playing: bool,
    /// Whether it has been knocked out of the current round.
    pub knocked_out: bool,
    /// Every shot fired at it this round, in order.
    pub shots: Vec<ShotRecord>,
    /// Its planes shot down this round, revealed whole.
    pub downed: Vec<Placement>,
    /// All its planes: present only for the viewer's own board.
    pub planes: Option<Vec<Placement>>,
    /// Points the seat scored this round.
    pub points: u32,
}

/// What one viewer may know of a match now.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// The match's settings.
    pub config: Config,
    /// Who this view is for.
    pub viewer: Viewer,
    /// The current round, 0-based (the last one once the match is over).
    pub round: u32,
    /// Whether the current round is an extra round.
    pub extra: bool,
    /// The phase.
    pub phase: PhaseView,
    /// Every seat's board, in seat order.
    pub boards: Vec<BoardView>,
    /// Match totals so far, per seat.
    pub totals: PerSeat<u32>,
    /// Rounds won so far, per seat.
    pub round_wins: PerSeat<u32>,
    /// Every finished round, in order.
    pub history: Vec<RoundResult>,
    /// The result, once the match is over.
    pub outcome: Option<Outcome>,
}
