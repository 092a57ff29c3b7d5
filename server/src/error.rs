//! The server's one boundary error on the WebSocket: every refusal a client can get, with its
//! stable protocol code, turned into the protocol's `error` message in one place
//! ([`ServerError::to_msg`]).

use skirmish_protocol::{ErrorCode, FrameError, PROTOCOL_VERSION, RoomId, ServerMsg};
use thiserror::Error;

/// A request the server refused. Client mistakes, not server faults: they are answered, not logged
/// as errors, and the state they touched is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ServerError {
    /// A text frame that could not be read as a client message (its code says why:
    /// `bad_json`, `bad_message`, `unknown_type`, `frame_too_large`, `too_deep`).
    #[error("{}", .0.message)]
    Frame(FrameError),
    /// A binary frame: the protocol has none.
    #[error("binary frames are not part of the protocol; send JSON text")]
    BinaryFrame,
    /// More frames than the connection's rate allows (frames a second, on average); the
    /// connection is closed after this refusal.
    #[error("more than {0} messages a second on average: reconnect and slow down")]
    RateLimited(u32),
    /// Anything but `hello` before the hello.
    #[error("say hello first")]
    HelloFirst,
    /// A second `hello`.
    #[error("hello is said once per connection")]
    AlreadyHello,
    /// A `hello` naming another protocol version than [`PROTOCOL_VERSION`]; the connection is
    /// closed after this refusal.
    #[error("this server speaks protocol {PROTOCOL_VERSION}, not {0}")]
    UnsupportedVersion(u32),
    /// A bot's offer over the size limits: what is wrong, for people.
    #[error("{0}")]
    BadOffer(String),
    /// A `hello` naming ladders without an account token.
    #[error("only bot accounts play in ladders: say hello with the account's token")]
    LadderNeedsAccount,
    /// A `hello` naming a ladder the server does not have, or too many.
    #[error("{0}")]
    NoSuchLadder(String),
    /// A display name with no printable character, or over 32 characters.
    #[error("a name has 1 to 32 printable characters")]
    BadName,
    /// A bot account's token with another name than the account's (the account's name).
    #[error("this token is the bot account `{0}`'s: say hello as `{0}`")]
    NotAccountName(String),
    /// A name that is a bot account's (as registered), said without the account's token.
    #[error("`{0}` is a bot account's name: only its token may use it")]
    NameTaken(String),
    /// An account token the server did not issue, or revoked or rotated since.
    #[error("this account token is not (or no longer) valid here")]
    BadToken,
    /// An account token in the `hello` of a client that is not a bot.
    #[error("an account token is for a bot: say hello with `bot`")]
    TokenForPerson,
    /// An anonymous bot on a server that admits only bots with an account token.
    #[error("this server admits only bots with an account token (the bot's --token)")]
    TokenRequired,
    /// An anonymous bot without the server's bot key.
    #[error("this server admits anonymous bots only with its key (the bot's --key)")]
    BadKey,
    /// The accounts could not be read (storage failed): the `hello` may be tried again.
    #[error("accounts cannot be read now; try again")]
    AccountsUnavailable,
    /// A resume token of a bot account's player, in a `hello` without the account's token.
    #[error("that resume token is a bot account's: say hello with the account's token")]
    ResumeOtherAccount,
    /// A resume token the server does not know: not a refusal of the `hello`, which goes on
    /// with a new player, but said before its `welcome`.
    #[error("unknown resume token; you are a new player")]
    UnknownResume,
    /// A room the player held a seat in could not be restored after a restart: said after
    /// `welcome`, the seat is gone.
    #[error(
        "room {0} could not be restored after the server restarted; it is kept for inspection, and your seat there is gone"
    )]
    RoomBroken(RoomId),
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
    /// An offer the room's game does not have.
    #[error("this game has no {0}: draw offers and takebacks are gomoku's")]
    OfferNotInGame(&'static str),
    /// A draw offer or takeback in a tournament match.
    #[error("a tournament match has no draw offers and no takebacks")]
    CasualOnly,
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
    /// An `act`'s `info` over [`skirmish_protocol::MAX_INFO_BYTES`]: this many bytes.
    #[error("the act's info takes {0} bytes as compact JSON; at most {max} are kept", max = skirmish_protocol::MAX_INFO_BYTES)]
    InfoTooLarge(usize),
    /// An `act`'s `info` that is ill-formed: what is wrong.
    #[error("the act's info is refused: {0}")]
    BadInfo(String),
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
            ServerError::Frame(err) => err.code.clone(),
            ServerError::BinaryFrame => ErrorCode::BinaryFrame,
            ServerError::RateLimited(_) => ErrorCode::RateLimited,
            ServerError::HelloFirst => ErrorCode::HelloFirst,
            ServerError::AlreadyHello => ErrorCode::AlreadyHello,
            ServerError::UnsupportedVersion(_) => ErrorCode::UnsupportedVersion,
            ServerError::BadOffer(_) => ErrorCode::BadOffer,
            ServerError::LadderNeedsAccount => ErrorCode::LadderNeedsAccount,
            ServerError::NoSuchLadder(_) => ErrorCode::NoSuchLadder,
            ServerError::BadName | ServerError::NotAccountName(_) => ErrorCode::BadName,
            ServerError::NameTaken(_) => ErrorCode::NameTaken,
            ServerError::BadToken | ServerError::TokenForPerson => ErrorCode::BadToken,
            ServerError::TokenRequired => ErrorCode::TokenRequired,
            ServerError::BadKey => ErrorCode::BadKey,
            ServerError::AccountsUnavailable | ServerError::Unavailable => ErrorCode::Unavailable,
            ServerError::ResumeOtherAccount | ServerError::UnknownResume => ErrorCode::BadResume,
            ServerError::RoomBroken(_) => ErrorCode::RoomBroken,
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
            ServerError::OfferNotInGame(_) => ErrorCode::OfferNotInGame,
            ServerError::CasualOnly => ErrorCode::CasualOnly,
            ServerError::Rule { code, .. } => ErrorCode::rule(code),
            ServerError::TooManyRooms(_) => ErrorCode::TooManyRooms,
            ServerError::TooManyRoomsFromAddress(_) => ErrorCode::TooManyRoomsFromAddress,
            ServerError::BadChat(_) => ErrorCode::BadChat,
            ServerError::ChatTooFast => ErrorCode::ChatTooFast,
            ServerError::StorageUnavailable => ErrorCode::StorageUnavailable,
            ServerError::DealInPlay => ErrorCode::DealInPlay,
            ServerError::InfoTooLarge(_) => ErrorCode::InfoTooLarge,
            ServerError::BadInfo(_) => ErrorCode::BadInfo,
            ServerError::Relayed { code, .. } => code.clone(),
        }
    }

    /// The `error` message answering request `req` (`None` for a frame that could not be read as
    /// a request, or a notice that answers none): the one place a refusal becomes a message.
    pub fn to_msg(&self, req: Option<u64>) -> ServerMsg {
        ServerMsg::Error {
            req,
            code: self.code(),
            message: self.to_string(),
        }
    }
}

impl From<FrameError> for ServerError {
    fn from(err: FrameError) -> Self {
        ServerError::Frame(err)
    }
}
