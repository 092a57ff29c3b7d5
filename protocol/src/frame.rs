//! Reading a client's text frame: size and depth limits, the error a bad frame gets, and the
//! JSON schemas generated from the message types.

use crate::ErrorCode;
use crate::messages::{ClientFrame, ServerMsg};

/// The largest text frame the server reads, in bytes (64 KiB); a larger one is answered with
/// [`ErrorCode::FrameTooLarge`] and dropped.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The deepest nesting of JSON arrays and objects the server reads by default (32; the deepest
/// message of the protocol nests 5 levels); a deeper frame is answered with [`ErrorCode::TooDeep`]
/// and dropped.
pub const MAX_JSON_DEPTH: usize = 32;
/// Why a text frame could not be read as a [`ClientFrame`]; a server answers it with an `error`
/// carrying its `req`, `code` and `message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// The request number, when the frame was JSON with a numeric `req`.
    pub req: Option<u64>,
    /// [`ErrorCode::BadJson`], [`ErrorCode::BadMessage`], [`ErrorCode::UnknownType`],
    /// [`ErrorCode::FrameTooLarge`] or [`ErrorCode::TooDeep`].
    pub code: ErrorCode,
    /// What was wrong, for people.
    pub message: String,
}

/// Reads one text frame from a client.
///
/// # Errors
/// A [`FrameError`] with a stable code: the frame is too large, not JSON, has an unknown `type`, or
/// does not match that type's fields. `req` is recovered whenever the frame is a JSON object.
pub fn parse_client_frame(text: &str) -> Result<ClientFrame, FrameError> {
    parse_client_frame_within(text, MAX_FRAME_BYTES, MAX_JSON_DEPTH)
}

/// Reads one text frame from a client, refusing one over `max_bytes` bytes or nesting arrays and
/// objects deeper than `max_depth` (a server's configured limits; [`MAX_FRAME_BYTES`] and
/// [`MAX_JSON_DEPTH`] by default).
///
/// # Errors
/// As [`parse_client_frame`], and [`ErrorCode::TooDeep`].
pub fn parse_client_frame_within(
    text: &str,
    max_bytes: usize,
    max_depth: usize,
) -> Result<ClientFrame, FrameError> {
    if text.len() > max_bytes {
        return Err(FrameError {
            req: None,
            code: ErrorCode::FrameTooLarge,
            message: format!(
                "frames are limited to {max_bytes} bytes; this one has {}",
                text.len()
            ),
        });
    }
    if json_depth(text) > max_depth {
        return Err(FrameError {
            req: None,
            code: ErrorCode::TooDeep,
            message: format!("frames nest arrays and objects at most {max_depth} deep"),
        });
    }
    // One parse on the way every good frame takes; only a frame that does not read is parsed
    // again, as a JSON value, to say which request it was and what is wrong with it.
    if let Ok(frame) = serde_json::from_str::<ClientFrame>(text) {
        return Ok(frame);
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| FrameError {
        req: None,
        code: ErrorCode::BadJson,
        message: format!("not JSON: {e}"),
    })?;
    let req = value.get("req").and_then(serde_json::Value::as_u64);
    let Some(kind) = value.get("type").and_then(serde_json::Value::as_str) else {
        return Err(FrameError {
            req,
            code: ErrorCode::BadMessage,
            message: "a message is a JSON object with a string `type`".to_owned(),
        });
    };
    // A `type` the protocol does not have is told apart by the tag alone, before its fields are
    // read: what serde says about the rest of such a frame does not decide its code.
    if !CLIENT_TYPES.contains(&kind) {
        return Err(FrameError {
            req,
            code: ErrorCode::UnknownType,
            message: format!("unknown message type `{kind}`"),
        });
    }
    let kind = kind.to_owned();
    serde_json::from_value(value).map_err(|e| FrameError {
        req,
        code: ErrorCode::BadMessage,
        message: format!("bad `{kind}`: {e}"),
    })
}

/// The `type` tags of [`ClientMsg`](crate::ClientMsg), which tell a frame of an unknown type
/// (`unknown_type`) from a malformed one (`bad_message`); kept in step with the schema by a test.
pub const CLIENT_TYPES: &[&str] = &[
    "hello",
    "list_rooms",
    "create_room",
    "join_room",
    "leave_room",
    "spectate",
    "add_bot",
    "quick_match",
    "start",
    "act",
    "offer",
    "answer",
    "chat",
    "forfeit",
    "list_bots",
    "ping",
];

/// The JSON Schema of every client frame ([`ClientFrame`]), as committed in `schema/client.json`.
pub fn client_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ClientFrame)).expect("a schema is JSON")
}

/// The JSON Schema of every server message ([`ServerMsg`]), as committed in `schema/server.json`.
pub fn server_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ServerMsg)).expect("a schema is JSON")
}

/// The deepest nesting of arrays and objects in `text`, counted before parsing (so that a deeply
/// nested frame costs one linear scan and no recursion). Brackets inside strings do not count.
fn json_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in text.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}
