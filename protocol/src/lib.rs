//! Every message on Skirmish's wire, as serde types, and nothing else.
//!
//! JSON text frames, one message per frame, each an object with a `type` tag. A client sends
//! [`ClientFrame`]s (a [`ClientMsg`] with an optional request number `req`); the server sends
//! [`ServerMsg`]s, and echoes `req` in the reply or [`ServerMsg::Error`] that answers a request.
//! The first message on a connection is [`ClientMsg::Hello`] with [`PROTOCOL_VERSION`].
//!
//! These types are the one source of truth: `schema/client.json` and `schema/server.json` are
//! generated from them ([`client_schema`], [`server_schema`]; a test fails when they are stale),
//! and `README.md` beside this crate shows a whole 3-player round as a transcript.

pub mod accounts;
pub mod asyncapi;
pub mod commitment;
pub mod deal;
mod error_code;
mod frame;
mod games;
mod ids;
pub mod info;
pub mod ladder;
mod messages;
mod room;
pub mod tournament;

pub use commitment::{Commitment, Reveal};
pub use error_code::ErrorCode;
pub use ids::{AccessKey, AccountToken, MatchId, ParseIdError, PlayerId, ResumeToken, RoomId, TournamentId};
pub use info::{BotInfo, MAX_INFO_BYTES, MoveInfo};
pub use skirmish_games::referee::Offer;
pub use skirmish_games::{Seat, Viewer, gomoku, junqi, plane, tic_tac_toe};

// The wire's types, one file per concern, re-exported here whole so that the crate's paths stay
// `skirmish_protocol::Name`.
pub use frame::*;
pub use games::*;
pub use messages::*;
pub use room::*;

/// The protocol version a client names in `hello`; the server refuses any other.
pub const PROTOCOL_VERSION: u32 = 1;

/// WebSocket close code: this connection was replaced by a newer one of the same player (a
/// `hello` resuming its token on another connection) or of the same bot account (a `hello` with
/// the account's token). The older connection can no longer act; a client closed with it should
/// not reconnect, since the newer connection plays its seats now.
pub const CLOSE_REPLACED: u16 = 4009;
