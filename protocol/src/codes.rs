//! The protocol's own error codes (rule refusals use the engine's codes, such as `cell_public`).

/// The frame is not JSON.
pub const BAD_JSON: &str = "bad_json";
/// JSON, but not a message of this protocol (missing or ill-typed fields).
pub const BAD_MESSAGE: &str = "bad_message";
/// A `type` this protocol does not have.
pub const UNKNOWN_TYPE: &str = "unknown_type";
/// A frame over [`MAX_FRAME_BYTES`](crate::MAX_FRAME_BYTES).
pub const FRAME_TOO_LARGE: &str = "frame_too_large";
/// The frame nests JSON arrays and objects deeper than the server reads.
pub const TOO_DEEP: &str = "too_deep";
/// The player already has as many open rooms (waiting or playing) as one player may create.
pub const TOO_MANY_ROOMS: &str = "too_many_rooms";
/// Binary frames are not part of the protocol.
pub const BINARY_FRAME: &str = "binary_frame";
/// `hello` named another protocol version.
pub const UNSUPPORTED_VERSION: &str = "unsupported_version";
/// Anything before `hello`.
pub const HELLO_FIRST: &str = "hello_first";
/// A second `hello`.
pub const ALREADY_HELLO: &str = "already_hello";
/// A display name that is empty or over 32 characters.
pub const BAD_NAME: &str = "bad_name";
/// A resume token the server does not know (the player gets a new identity).
pub const BAD_RESUME: &str = "bad_resume";
/// A `hello` as a bot without the key the server requires of bots (or with another).
pub const BAD_KEY: &str = "bad_key";
/// A `hello` with an account token the server did not issue, or revoked or rotated since.
pub const BAD_TOKEN: &str = "bad_token";
/// A `hello` without an account token naming a bot account's name (names of accounts are
/// theirs alone, compared without regard to case), or a name registered already.
pub const NAME_TAKEN: &str = "name_taken";
/// A `hello` as a bot without an account token, on a server started with
/// `--anonymous-bots deny`.
pub const TOKEN_REQUIRED: &str = "token_required";
/// No room with that id.
pub const NO_SUCH_ROOM: &str = "no_such_room";
/// No free seat.
pub const ROOM_FULL: &str = "room_full";
/// That seat is taken, or does not exist.
pub const SEAT_TAKEN: &str = "seat_taken";
/// The player already holds a seat in this room.
pub const ALREADY_SEATED: &str = "already_seated";
/// The action needs a seat in this room.
pub const NOT_SEATED: &str = "not_seated";
/// Only the room's owner may do that.
pub const NOT_OWNER: &str = "not_owner";
/// The room's match has started (or ended): seats are fixed.
pub const ROOM_STARTED: &str = "room_started";
/// The room's match has not started.
pub const NOT_STARTED: &str = "not_started";
/// No connected bot offers that game and strategy.
pub const NO_BOT: &str = "no_bot";
/// The action is for another game than the room's.
pub const WRONG_GAME: &str = "wrong_game";
/// The room's config cannot be played.
pub const BAD_CONFIG: &str = "bad_config";
/// Too many messages too fast.
pub const RATE_LIMITED: &str = "rate_limited";
/// A chat line that is empty or longer than [`MAX_CHAT_CHARS`](crate::MAX_CHAT_CHARS).
pub const BAD_CHAT: &str = "bad_chat";
/// More chat lines than [`CHAT_BURST`](crate::CHAT_BURST) in
/// [`CHAT_WINDOW_MS`](crate::CHAT_WINDOW_MS).
pub const CHAT_TOO_FAST: &str = "chat_too_fast";
/// The server is shutting down or the room is gone.
pub const UNAVAILABLE: &str = "unavailable";
/// A bot's offer over the size limits ([`BotOffer::check`](crate::BotOffer::check)).
pub const BAD_OFFER: &str = "bad_offer";
/// The address already has as many open rooms as the server lets one address create.
pub const TOO_MANY_ROOMS_FROM_ADDRESS: &str = "too_many_rooms_from_address";
/// A room waited longer than the server's expiry without starting (in `room_closed`).
pub const ROOM_EXPIRED: &str = "room_expired";
/// A tournament match was abandoned before its end: its tournament was cancelled or stopped
/// (in `room_closed`).
pub const MATCH_ABANDONED: &str = "match_abandoned";
/// The server's storage is failing: the request (an action, a seat, a new room) would have to
/// be written to a room's log and was refused, changing nothing; try again shortly
/// (docs/reliability.md, "What a player can count on").
pub const STORAGE_UNAVAILABLE: &str = "storage_unavailable";
/// Sent after `welcome`, without `req`, for each room the player held a seat in that could
/// not be restored after a restart: the room is kept on the server for inspection and will
/// not be played on.
pub const ROOM_BROKEN: &str = "room_broken";
/// A tournament match whose deal is still being played at another table: it cannot be
/// watched (nor its record read) until the deal is over everywhere.
pub const DEAL_IN_PLAY: &str = "deal_in_play";
