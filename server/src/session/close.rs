//! How a connection closes: the close codes (ours, 4000 and up, and RFC 6455's), the code that
//! answers a broken socket, and the close frame for each reason.

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};

use crate::outbox::Closing;

/// Close codes: the connection did not say `hello` in time.
pub const CLOSE_NO_HELLO: u16 = 4001;
/// Close code: `hello` named a protocol version this server does not speak.
pub const CLOSE_VERSION: u16 = 4002;
/// Close code: the client did not read its messages fast enough.
pub const CLOSE_TOO_SLOW: u16 = 4008;
/// Close code: the connection sent nothing (not even a pong) for the idle timeout.
pub const CLOSE_IDLE: u16 = 4000;
/// Close code: the connection sent frames faster than its limit allows.
pub const CLOSE_RATE_LIMITED: u16 = 4029;
/// Close code: a newer connection took this one's player (a resume) or bot account over, or the
/// account's token was rotated or revoked; this connection can no longer act
/// ([`skirmish_protocol::CLOSE_REPLACED`]).
pub const CLOSE_REPLACED: u16 = skirmish_protocol::CLOSE_REPLACED;
/// Close code: the server is shutting down.
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code (RFC 6455, section 7.4.1): the client broke the WebSocket protocol (reserved bits
/// set, an unmasked frame, a bad opcode, a fragmented control frame...).
pub const CLOSE_PROTOCOL_ERROR: u16 = 1002;
/// Close code (RFC 6455): a text message that is not UTF-8.
pub const CLOSE_INVALID_DATA: u16 = 1007;
/// Close code (RFC 6455): a message over the transport's limit ([`crate::MAX_TRANSPORT_BYTES`]).
pub const CLOSE_TOO_BIG: u16 = 1009;

/// The close code that answers an error reading the socket: [`CLOSE_INVALID_DATA`] for a text
/// message that is not UTF-8, [`CLOSE_TOO_BIG`] for a message or frame over the transport's
/// limit, [`CLOSE_PROTOCOL_ERROR`] for any other breach of RFC 6455, and `None` when the
/// connection itself failed (an IO error: no close frame can go out). `err` is the error the
/// socket gave (axum's, which wraps tungstenite's; its sources are searched).
pub fn close_for(err: &(dyn std::error::Error + 'static)) -> Option<(u16, &'static str)> {
    use tungstenite::Error;
    let mut cause = Some(err);
    while let Some(err) = cause {
        if let Some(ws) = err.downcast_ref::<Error>() {
            return match ws {
                Error::Utf8(_) => Some((CLOSE_INVALID_DATA, "text frames must be UTF-8")),
                Error::Capacity(_) => Some((CLOSE_TOO_BIG, "message too big")),
                Error::Protocol(_) | Error::AttackAttempt => {
                    Some((CLOSE_PROTOCOL_ERROR, "WebSocket protocol error"))
                }
                _ => None,
            };
        }
        cause = err.source();
    }
    None
}

pub(super) fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// The close code and reason for why a connection is to close.
pub(super) fn close_code(why: Closing) -> (u16, &'static str) {
    match why {
        Closing::ShuttingDown => (CLOSE_GOING_AWAY, "server shutting down"),
        Closing::TooSlow => (CLOSE_TOO_SLOW, "too slow: reconnect to resume"),
        Closing::Replaced => (CLOSE_REPLACED, "replaced by a newer connection"),
    }
}
