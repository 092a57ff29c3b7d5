//! A plane battle room's settings: board and plane count, match format, who attacks first
//! (docs/rules.md, plane battle), and why a configuration is refused.

use thiserror::Error;

/// The board and plane count (docs/rules.md, plane battle, "Boards and counts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Variant {
    /// 7x7 board, one plane each: 48 deployments.
    Classic,
    /// 9x9 board, two non-overlapping planes each: 2,352 unordered deployments (*default*).
    #[default]
    Double,
}

impl Variant {
    /// The board's side, in cells.
    pub fn side(self) -> u8 {
        match self {
            Variant::Classic => 7,
            Variant::Double => 9,
        }
    }

    /// Planes per player.
    pub fn planes(self) -> usize {
        match self {
            Variant::Classic => 1,
            Variant::Double => 2,
        }
    }
}

/// How the match is decided (docs/rules.md, plane battle, "Scoring" and "Alternative match format").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MatchFormat {
    /// A fixed number of scored rounds (18 by default); the highest total wins, and a tie for
    /// first is broken by extra rounds among the tied players.
    Rounds(u32),
    /// The first player to win this many rounds wins (10: the seed paper's best of 19).
    FirstTo(u32),
}

impl Default for MatchFormat {
    fn default() -> Self {
        MatchFormat::Rounds(18)
    }
}

/// Who attacks first in each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum FirstAttacker {
    /// Round k (0-based) starts with the k-th player of the round, mod their count (*default*).
    #[default]
    Rotating,
    /// The first player of the round (seat 0 when all play) starts every round, as the seed paper's
    /// question supposes.
    Fixed,
}

/// A plane battle match's settings, as a room asks for them; checked by [`super::PlaneBattle::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Config {
    /// Board and plane count.
    pub variant: Variant,
    /// Number of players: 2 or 3.
    pub players: u8,
    /// How the match is decided.
    pub format: MatchFormat,
    /// Who starts each round.
    pub first_attacker: FirstAttacker,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            variant: Variant::Double,
            players: 3,
            format: MatchFormat::default(),
            first_attacker: FirstAttacker::Rotating,
        }
    }
}

/// A [`Config`] the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// Plane battle takes 2 or 3 players.
    #[error("plane battle takes 2 or 3 players, not {0}")]
    Players(u8),
    /// A match needs at least one round (or one round win).
    #[error("a match needs at least one round")]
    NoRounds,
    /// At most 1,000 rounds (or round wins), to keep a match finite.
    #[error("at most 1000 rounds, not {0}")]
    TooManyRounds(u32),
}
