//! The server's one boundary error: every refusal a client can get, with its stable protocol code.

use skirmish_protocol::{ErrorCode, RoomId, ServerMsg};
use thiserror::Error;

/// A request the server refused. Client mistakes, not server faults: they are answered, not logged
/// as errors, and the state they touched is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ServerError {
    /// No room with that id.
    #[error("there is no room {0}")]
    NoSuchRoom(RoomId),
    /// No free seat.
    #[error("the room is full")]
    RoomFull,
    /// That seat is taken or does not exist.
    #[error("that seat is taken or does not exist")]
    SeatTaken,
    /// The player already has a seat here.
    #[error("you already hold a seat in this room")]
    AlreadySeated,
    /// The request needs a seat in this room.
    #[error("you hold no seat in this room")]
    NotSeated,
    /// Only the owner may do this.
    #[error("only the room's owner may do that")]
    NotOwner,
    /// Seats are fixed once the match starts.
    #[error("the match has started; seats are fixed")]
    RoomStarted,
    /// The match has not started.
    #[error("the match has not started")]
    NotStarted,
    /// No bot offers what was asked.
    #[error("no connected bot plays {0}")]
    NoBot(String),
    /// The room's config cannot be played.
    #[error("bad room config: {0}")]
    BadConfig(String),
    /// The action is for another game.
    #[error("this room plays another game")]
    WrongGame,
    /// The rules refused the action: the engine's stable code (such as `cell_public` or
    /// `point_occupied`) and its explanation.
    #[error("{message}")]
    Rule {
        /// The engine's code.
        code: &'static str,
        /// The engine's explanation.
        message: String,
    },
    /// The player has as many open rooms as one player may create.
    #[error("you have {0} open rooms, the most one player may create; start one or let it expire first")]
    TooManyRooms(usize),
    /// The client's address has as many open rooms as one address may create.
    #[error("your address has {0} open rooms, the most one address may create")]
    TooManyRoomsFromAddress(usize),
    /// The room's actor is gone (server shutting down).
    #[error("the room is not available")]
    Unavailable,
    /// A chat line that is empty or too long.
    #[error("{0}")]
    BadChat(String),
    /// Too many chat lines too fast.
    #[error("too many chat lines: at most {burst} per {seconds} s", burst = skirmish_protocol::CHAT_BURST, seconds = skirmish_protocol::CHAT_WINDOW_MS / 1000)]
    ChatTooFast,
    /// Storage is failing: what would be written to the room's log is refused, and nothing
    /// changed; play goes on by itself once storage works again.
    #[error("storage is failing on the server; nothing was changed, try again shortly")]
    StorageUnavailable,
    /// A tournament match whose deal is still being played at another table cannot be watched.
    #[error(
        "this match's deal is still being played at another table; it can be watched once the deal is over everywhere"
    )]
    DealInPlay,
    /// A refusal from a room on another node of the cluster, as that node said it: its stable
    /// code and message.
    #[error("{message}")]
    Relayed {
        /// The code.
        code: ErrorCode,
        /// The message.
        message: String,
    },
}

impl ServerError {
    /// The stable code sent in the protocol's `error` message.
    pub fn code(&self) -> ErrorCode {
        match self {
            ServerError::NoSuchRoom(_) => ErrorCode::NoSuchRoom,
            ServerError::RoomFull => ErrorCode::RoomFull,
            ServerError::SeatTaken => ErrorCode::SeatTaken,
            ServerError::AlreadySeated => ErrorCode::AlreadySeated,
            ServerError::NotSeated => ErrorCode::NotSeated,
            ServerError::NotOwner => ErrorCode::NotOwner,
            ServerError::RoomStarted => ErrorCode::RoomStarted,
            ServerError::NotStarted => ErrorCode::NotStarted,
            ServerError::NoBot(_) => ErrorCode::NoBot,
            ServerError::BadConfig(_) => ErrorCode::BadConfig,
            ServerError::WrongGame => ErrorCode::WrongGame,
            ServerError::Rule { code, .. } => ErrorCode::rule(code),
            ServerError::TooManyRooms(_) => ErrorCode::TooManyRooms,
            ServerError::TooManyRoomsFromAddress(_) => ErrorCode::TooManyRoomsFromAddress,
            ServerError::Unavailable => ErrorCode::Unavailable,
            ServerError::BadChat(_) => ErrorCode::BadChat,
            ServerError::ChatTooFast => ErrorCode::ChatTooFast,
            ServerError::StorageUnavailable => ErrorCode::StorageUnavailable,
            ServerError::DealInPlay => ErrorCode::DealInPlay,
            ServerError::Relayed { code, .. } => code.clone(),
        }
    }

    /// The `error` message answering request `req`.
    pub fn to_msg(&self, req: Option<u64>) -> ServerMsg {
        ServerMsg::Error {
            req,
            code: self.code(),
            message: self.to_string(),
        }
    }
}
