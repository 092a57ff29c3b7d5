//! One entry of a room's log ([`crate::journal`]): a room's input, as the room's actor took it.

use serde::{Deserialize, Serialize};
use skirmish_protocol::{Action, BotInfo, BotLevel, PlayerId, Seat};

/// One thing that happened to a room, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A player or bot took a seat.
    Seated {
        /// The seat.
        seat: Seat,
        /// Who.
        player: PlayerId,
        /// Their display name.
        name: String,
        /// For a bot, the strategy it plays there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<String>,
        /// The digest of their resume token ([`skirmish_protocol::ResumeToken::digest`]), so that
        /// they can resume the seat after a restart.
        token: String,
        /// For a bot taking a dropped player's seat over, that player's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        took_over_from: Option<String>,
        /// For a bot account's bot, the account, so that after a restart the account's token
        /// takes the seat back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<String>,
        /// For a bot seated by level, the level (what people call it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<BotLevel>,
    },
    /// A seat was given up before the start.
    Unseated {
        /// The seat.
        seat: Seat,
    },
    /// The match started.
    Started,
    /// The rules engine applied `seat`'s action.
    Acted {
        /// The seat.
        seat: Seat,
        /// The action.
        action: Action,
        /// Milliseconds the seat's game clock was charged for the turn.
        spent_ms: u64,
        /// What the bot thought, as its `act` carried it (checked then), sealed until the
        /// match's record is kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        info: Option<Box<BotInfo>>,
    },
    /// `seat`'s turn ran out and the referee acted for it (docs/rules.md: a random legal deployment or
    /// shot, or a loss on time).
    TimedOut {
        /// The seat.
        seat: Seat,
        /// Milliseconds the seat's game clock was charged for the turn.
        spent_ms: u64,
    },
    /// `seat` forfeited the match.
    Forfeited {
        /// The seat.
        seat: Seat,
        /// Why: `timed_out` (its game clock ran out), `disconnected` (its grace period did), or
        /// `engine_failure` (its bot said so).
        reason: String,
        /// What happened, for people (the bot's words for an `engine_failure`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
}
