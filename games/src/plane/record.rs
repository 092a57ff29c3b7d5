//! The public record: each shot and its result, each round's and the match's outcome.

use super::geometry::{Cell, Placement};
use crate::{PerSeat, Seat};

/// The public result of one shot (docs/rules.md, plane battle, "Attack").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ShotResult {
    /// No plane there.
    Miss,
    /// A plane cell other than a head.
    Hit,
    /// A head: that plane is shot down and revealed.
    Down,
}

/// One shot on a board, as everybody saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ShotRecord {
    /// Who fired.
    pub by: Seat,
    /// Where.
    pub cell: Cell,
    /// What it found.
    pub result: ShotResult,
}

/// A finished round.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoundResult {
    /// Round number, 0-based.
    pub round: u32,
    /// Whether it was an extra round.
    pub extra: bool,
    /// The last player left in it.
    pub survivor: Seat,
    /// Points scored in it, per seat (0 for seats not playing it).
    pub points: PerSeat<u32>,
    /// Every seat's planes in that round (empty for seats not playing it), revealed at its end.
    pub deployments: PerSeat<Vec<Placement>>,
}

/// The final result of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The winner.
    pub winner: Seat,
    /// Total points per seat, extra rounds included.
    pub totals: PerSeat<u32>,
    /// Rounds won (last player left) per seat.
    pub round_wins: PerSeat<u32>,
    /// Place per seat, 1 for the winner; seats with equal totals below first share a place.
    pub placings: PerSeat<u8>,
    /// The seat that resigned, ending the match: it is placed last whatever its points.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub resigned: Option<Seat>,
}
