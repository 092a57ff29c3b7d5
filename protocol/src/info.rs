//! What a bot thought when it acted: the optional `info` of an `act` ([`BotInfo`]), kept sealed
//! with the match's record and shown in its replay once the match (and, for a duplicate
//! tournament match, its deal at every table) is over.
//!
//! The shape is typed, and closed: a field this version does not list is refused
//! (`bad_message`), so that a record holds only what the replay page can show and its size is
//! what [`BotInfo::check`] measured.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use skirmish_games::Seat;
use skirmish_games::junqi::{Post, Rank};

use crate::games::GameKind;

/// The most bytes an `info` may take, written back as compact JSON by the server: 4 KiB. Enough
/// for a 3-player 9x9 plane battle's two opponent boards at a probability per mille per cell
/// (about 1.7 KiB) or a rank guess on each of junqi's 25 enemy pieces (about 1.2 KiB), small
/// enough that a whole match's infos stay within its record's cap.
pub const MAX_INFO_BYTES: usize = 4096;

/// A probability in thousandths: 0 (never) to 1000 (certain).
pub type PerMille = u16;

/// What a bot thought when it chose its action: common search figures and, per game, a picture
/// of its belief. Every field is optional; an empty object is valid and means nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BotInfo {
    /// The engine's score of the position after its action, from its own side (positive: good
    /// for it), in the engine's own units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// How deep it searched, in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// How many positions (or samples) it looked at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The line it expects, its own action first, each move in the game's short notation
    /// (gomoku `h8`, plane battle `c5`, junqi `E2-F2`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
    /// What it believed of what it cannot see (or, in gomoku, its evaluation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belief: Option<Belief>,
}

/// A bot's picture of the game, one shape per game (`game` names it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum Belief {
    /// Plane battle: for each opponent's board, the probability that each cell holds part of a
    /// plane.
    Plane {
        /// One entry per opponent board the bot has an opinion of.
        boards: Vec<BoardOdds>,
    },
    /// Junqi: a rank guess for each enemy piece whose rank is hidden.
    Junqi {
        /// One guess per enemy piece, by where it stands.
        pieces: Vec<RankGuess>,
    },
    /// Gomoku: the engine's evaluation of the position after its stone.
    Gomoku {
        /// The expected result for the side that moved, in thousandths from -1000 (a sure loss)
        /// through 0 (even) to 1000 (a sure win).
        eval: i16,
    },
}

/// Plane battle: the odds on one opponent's board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardOdds {
    /// Whose board.
    pub seat: Seat,
    /// For each cell, row by row from the top left (`size` × `size` values), the probability
    /// that it holds part of a plane.
    pub cells: Vec<PerMille>,
}

/// Junqi: the guess on one enemy piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RankGuess {
    /// Where the piece stands when the bot chose its action.
    pub post: Post,
    /// The rank the bot thinks most likely.
    pub rank: Rank,
    /// How likely it thinks that rank is.
    pub chance: PerMille,
}

/// One act's `info` as a finished match's record keeps it (the replay API's `infos`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MoveInfo {
    /// The seat that acted.
    pub seat: Seat,
    /// Where the act's events start in the record's events (0-based): the info is what the bot
    /// thought when it chose the action that caused events `at`, `at + 1`, ...
    pub at: u32,
    /// What it thought.
    pub info: BotInfo,
}

/// Why an `info` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoError {
    /// Over [`MAX_INFO_BYTES`] written back as compact JSON: this many bytes.
    TooLarge(usize),
    /// A probability over 1000, or a belief of another game than the room's: what is wrong.
    Bad(String),
}

impl BotInfo {
    /// Checks an `info` sent with an action in a room of `game`: at most [`MAX_INFO_BYTES`] as
    /// compact JSON, every probability 0 to 1000, a belief of the room's game.
    ///
    /// # Errors
    /// [`InfoError::TooLarge`] or [`InfoError::Bad`]; the act it came with is refused whole.
    pub fn check(&self, game: GameKind) -> Result<usize, InfoError> {
        let bytes = serde_json::to_string(self).map_or(usize::MAX, |text| text.len());
        if bytes > MAX_INFO_BYTES {
            return Err(InfoError::TooLarge(bytes));
        }
        let over = |p: &PerMille| *p > 1000;
        let wrong = match &self.belief {
            None => None,
            Some(Belief::Plane { boards }) if game == GameKind::Plane => boards
                .iter()
                .flat_map(|b| &b.cells)
                .any(over)
                .then_some("a cell's probability over 1000"),
            Some(Belief::Junqi { pieces }) if game == GameKind::Junqi => pieces
                .iter()
                .any(|g| over(&g.chance))
                .then_some("a rank's chance over 1000"),
            Some(Belief::Gomoku { eval }) if game == GameKind::Gomoku => {
                (eval.unsigned_abs() > 1000).then_some("an evaluation beyond ±1000")
            }
            Some(_) => {
                return Err(InfoError::Bad(format!(
                    "a belief of another game than {}",
                    game.name()
                )));
            }
        };
        if let Some(wrong) = wrong {
            return Err(InfoError::Bad(wrong.to_owned()));
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_three_player_nine_by_nine_picture_fits() {
        let board = |seat| BoardOdds {
            seat: Seat(seat),
            cells: vec![1000; 81],
        };
        let info = BotInfo {
            score: Some(-123_456),
            depth: Some(12),
            nodes: Some(1_000_000),
            pv: vec!["c5".into(); 8],
            belief: Some(Belief::Plane {
                boards: vec![board(1), board(2)],
            }),
        };
        let bytes = info.check(GameKind::Plane).unwrap();
        assert!(bytes < MAX_INFO_BYTES / 2, "{bytes}");
        assert!(matches!(info.check(GameKind::Gomoku), Err(InfoError::Bad(_))));
    }

    #[test]
    fn too_large_and_out_of_range_are_refused() {
        let info = BotInfo {
            pv: vec!["x".repeat(100); 50],
            ..BotInfo::default()
        };
        assert!(matches!(info.check(GameKind::Gomoku), Err(InfoError::TooLarge(n)) if n > MAX_INFO_BYTES));
        let info = BotInfo {
            belief: Some(Belief::Gomoku { eval: 1001 }),
            ..BotInfo::default()
        };
        assert!(matches!(info.check(GameKind::Gomoku), Err(InfoError::Bad(_))));
    }

    #[test]
    fn unknown_fields_are_refused() {
        assert!(serde_json::from_str::<BotInfo>(r#"{"score":1,"mood":"smug"}"#).is_err());
        let info: BotInfo = serde_json::from_str(r#"{"belief":{"game":"gomoku","eval":-250}}"#).unwrap();
        assert_eq!(info.belief, Some(Belief::Gomoku { eval: -250 }));
    }
}
