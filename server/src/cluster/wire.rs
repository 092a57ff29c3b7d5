//! What nodes say to each other on the bus: a room's commands from a node holding a player's
//! connection to the node owning the room, their replies, the directory's entries, and the
//! notices to a player's node. JSON, like the protocol; nodes of one cluster run one version.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use skirmish_protocol::{ErrorCode, ForfeitCause, PlayerId, RoomId, RoomSummary, Seat};

use crate::error::ServerError;
use crate::replica::SeatChange;
use crate::room_handle::Play;

/// A connection as another node reaches it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct WireConn {
    /// The node holding it.
    pub node: Arc<str>,
    /// Its number there.
    pub conn: u64,
    /// `hello`'s `turn_view`.
    pub turn_view: bool,
}

/// A player as a room of another node needs them: who, and what its seat stores (the resume
/// token's digest and the bot account, for a take-over of the room).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct WireMember {
    pub id: PlayerId,
    pub name: String,
    pub token: String,
    pub account: Option<String>,
    pub conn: WireConn,
}

/// A command for room `room`, sent to the node that owns it.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireRequest {
    pub room: RoomId,
    pub command: WireCommand,
}

/// The commands of [`crate::room_handle::Command`], with connections in place of outboxes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum WireCommand {
    Join {
        member: WireMember,
        seat: Option<Seat>,
        req: Option<u64>,
    },
    Spectate {
        member: WireMember,
    },
    Attach {
        member: WireMember,
    },
    Detach {
        player: PlayerId,
        conn: u64,
    },
    Leave {
        player: PlayerId,
    },
    AddBot {
        by: PlayerId,
        seat: Option<Seat>,
        strategy: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<skirmish_protocol::BotLevel>,
    },
    Start {
        by: PlayerId,
    },
    Chat {
        player: PlayerId,
        text: String,
    },
    Act {
        player: PlayerId,
        seat: Option<Seat>,
        action: Play,
        req: Option<u64>,
        conn: WireConn,
    },
    Forfeit {
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        cause: ForfeitCause,
        detail: Option<String>,
    },
}

impl WireCommand {
    /// Whether the sender waits for a reply (the others are published and forgotten, as their
    /// local counterparts are sent without one).
    pub(crate) fn asks(&self) -> bool {
        !matches!(
            self,
            WireCommand::Attach { .. } | WireCommand::Detach { .. } | WireCommand::Act { .. }
        )
    }
}

/// A refusal as it crosses the bus.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireError {
    pub code: ErrorCode,
    pub message: String,
}

impl From<&ServerError> for WireError {
    fn from(err: &ServerError) -> Self {
        WireError {
            code: err.code(),
            message: err.to_string(),
        }
    }
}

impl From<WireError> for ServerError {
    fn from(err: WireError) -> Self {
        ServerError::Relayed {
            code: err.code,
            message: err.message,
        }
    }
}

/// A room's reply: the seat taken (for a join), or nothing, or the refusal.
pub(crate) type WireReply = Result<Option<Seat>, WireError>;

/// A room in the directory: the node that owns it (its lease: taken over when that node is
/// gone) and its summary.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RoomEntry {
    pub node: Arc<str>,
    pub summary: RoomSummary,
}

/// A running tournament's lease in the directory: the node running it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct TournamentEntry {
    pub node: Arc<str>,
}

/// A ladder's lease in the directory (`skirmish_ladders`, keyed by the ladder's id): the node
/// running it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct LadderEntry {
    pub node: Arc<str>,
}

/// The ladders a bot account plays in, from its latest `hello` on any node
/// (`skirmish_ladder_members`, keyed by the account's name key in hex): at most
/// [`skirmish_protocol::ladder::MAX_LADDERS_PER_HELLO`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Membership {
    pub account: String,
    pub ladders: Vec<skirmish_protocol::ladder::LadderId>,
}

/// A node's presence, put again every [`super::lease::HEARTBEAT`]: its load, for placing work.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct NodeEntry {
    /// Rooms it owns.
    pub rooms: usize,
    /// When it was put, milliseconds since the Unix epoch (for people reading the bucket).
    pub at_ms: u64,
}

/// A notice to the node holding a player's connection.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum HomeNotice {
    /// The player gained or lost a seat in a room of the sender.
    Seat(SeatChange),
    /// The player resumed on the sender: forget them here.
    Moved { player: PlayerId },
}

/// A room changed owner (taken over from a node that is gone): every node gives it back the
/// connections of its players there.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Moved {
    pub room: RoomId,
}
