//! The stable codes of refusals: every code a client can read in an `error` or `room_closed`
//! message, or in the body of a refused HTTP request, as one enum.

use std::borrow::Cow;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// Named only by intra-doc links in the doc comments below, whose text the committed JSON schema
// repeats word for word (`schema/server.json`), so the links stay short rather than `crate::` paths.
#[allow(unused_imports)]
use crate::{BotOffer, CHAT_BURST, CHAT_WINDOW_MS, MAX_CHAT_CHARS, MAX_FRAME_BYTES, MAX_INFO_BYTES};

/// Writes [`ErrorCode`] from one line per code, `Variant => "text"` under its doc: the enum,
/// [`ErrorCode::ALL`] and [`ErrorCode::as_str`] (whose text a test checks against serde's).
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])+ $variant:ident => $text:literal,)+) => {
        /// Why a request was refused: a stable snake_case string (`room_full`), one of the
        /// protocol's own codes or, for a refusal by a game's rules, the engine's code (such as
        /// `cell_public`). A code a reader does not know reads as an engine's code, so reading
        /// a message never fails on its code.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $($(#[doc = $doc])+ $variant,)+
            /// A game's rule refused the action: the engine's code (`cell_public`,
            /// `point_occupied`, ...; each engine's `RuleError::code`), or a code this version
            /// does not know.
            #[serde(untagged)]
            Rule(Cow<'static, str>),
        }

        impl ErrorCode {
            /// Every code of the protocol's own, in the order listed (not [`ErrorCode::Rule`]).
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)+];

            /// The code as the wire writes it (`room_full`, `cell_public`).
            pub fn as_str(&self) -> &str {
                match self {
                    $(ErrorCode::$variant => $text,)+
                    ErrorCode::Rule(code) => code,
                }
            }
        }
    };
}

error_codes! {
    /// The frame is not JSON; over HTTP, a body that is not the JSON expected.
    BadJson => "bad_json",
    /// JSON, but not a message of this protocol (missing or ill-typed fields).
    BadMessage => "bad_message",
    /// A `type` this protocol does not have.
    UnknownType => "unknown_type",
    /// A frame over [`MAX_FRAME_BYTES`].
    FrameTooLarge => "frame_too_large",
    /// The frame nests JSON arrays and objects deeper than the server reads.
    TooDeep => "too_deep",
    /// The player already has as many open rooms (waiting or playing) as one player may create.
    TooManyRooms => "too_many_rooms",
    /// Binary frames are not part of the protocol.
    BinaryFrame => "binary_frame",
    /// `hello` named another protocol version.
    UnsupportedVersion => "unsupported_version",
    /// Anything before `hello`.
    HelloFirst => "hello_first",
    /// A second `hello`.
    AlreadyHello => "already_hello",
    /// A display name that is empty or over 32 characters, or not the bot account's own; over
    /// HTTP, an account name that is.
    BadName => "bad_name",
    /// A resume token the server does not know (the player gets a new identity).
    BadResume => "bad_resume",
    /// A `hello` as a bot without the key the server requires of bots (or with another); over
    /// HTTP, a request without the tournament or admin key the server requires.
    BadKey => "bad_key",
    /// A `hello` with an account token the server did not issue, or revoked or rotated since.
    BadToken => "bad_token",
    /// A `hello` without an account token naming a bot account's name (names of accounts are
    /// theirs alone, compared without regard to case), or a name registered already.
    NameTaken => "name_taken",
    /// A `hello` as a bot without an account token, on a server started with
    /// `--anonymous-bots deny`.
    TokenRequired => "token_required",
    /// No room with that id.
    NoSuchRoom => "no_such_room",
    /// No free seat.
    RoomFull => "room_full",
    /// That seat is taken, or does not exist.
    SeatTaken => "seat_taken",
    /// The player already holds a seat in this room.
    AlreadySeated => "already_seated",
    /// The action needs a seat in this room.
    NotSeated => "not_seated",
    /// Only the room's owner may do that.
    NotOwner => "not_owner",
    /// The room's match has started (or ended): seats are fixed.
    RoomStarted => "room_started",
    /// The room's match has not started.
    NotStarted => "not_started",
    /// No connected bot offers that game and strategy.
    NoBot => "no_bot",
    /// The action is for another game than the room's.
    WrongGame => "wrong_game",
    /// An `offer` (or `answer`) the room's game does not have: draw offers and takebacks are
    /// gomoku's; plane battle and junqi have none (a shot or a collision has already told the
    /// other side something).
    OfferNotInGame => "offer_not_in_game",
    /// A draw offer or a takeback in a tournament match: only casual rooms have them.
    CasualOnly => "casual_only",
    /// The room's config cannot be played; over HTTP, the tournament's settings.
    BadConfig => "bad_config",
    /// Too many messages too fast.
    RateLimited => "rate_limited",
    /// A chat line that is empty or longer than [`MAX_CHAT_CHARS`].
    BadChat => "bad_chat",
    /// More chat lines than [`CHAT_BURST`] in [`CHAT_WINDOW_MS`].
    ChatTooFast => "chat_too_fast",
    /// The server is shutting down or the room is gone.
    Unavailable => "unavailable",
    /// A bot's offer over the size limits ([`BotOffer::check`]).
    BadOffer => "bad_offer",
    /// The address already has as many open rooms as the server lets one address create.
    TooManyRoomsFromAddress => "too_many_rooms_from_address",
    /// A room waited longer than the server's expiry without starting (in `room_closed`).
    RoomExpired => "room_expired",
    /// A tournament match was abandoned before its end: its tournament was cancelled or stopped
    /// (in `room_closed`).
    MatchAbandoned => "match_abandoned",
    /// The server's storage is failing: the request (an action, a seat, a new room) would have to
    /// be written to a room's log and was refused, changing nothing; try again shortly
    /// (docs/reliability.md, "What a player can count on").
    StorageUnavailable => "storage_unavailable",
    /// Sent after `welcome`, without `req`, for each room the player held a seat in that could
    /// not be restored after a restart: the room is kept on the server for inspection and will
    /// not be played on.
    RoomBroken => "room_broken",
    /// A tournament match whose deal is still being played at another table: it cannot be
    /// watched (nor its record read) until the deal is over everywhere.
    DealInPlay => "deal_in_play",
    /// HTTP only: a tournament's entrant is not a connected bot account offering that strategy
    /// for the game.
    UnknownEntrant => "unknown_entrant",
    /// HTTP only: too few entrants for the game's seats.
    TooFewEntrants => "too_few_entrants",
    /// HTTP only: no tournament has this id.
    NoSuchTournament => "no_such_tournament",
    /// A `hello` naming ladders without a bot account's token: only account bots enter ladders
    /// (docs/ladder.md).
    LadderNeedsAccount => "ladder_needs_account",
    /// A `hello` or an HTTP request naming a ladder the server does not have, or a `hello`
    /// naming more than [`crate::ladder::MAX_LADDERS_PER_HELLO`].
    NoSuchLadder => "no_such_ladder",
    /// HTTP only: the ladder has no entrant with this number.
    NoSuchEntrant => "no_such_entrant",
    /// HTTP only: no finished match has this id.
    NoSuchMatch => "no_such_match",
    /// HTTP only: the tournament is already over.
    TournamentOver => "tournament_over",
    /// HTTP only: no bot account has this name.
    NoSuchAccount => "no_such_account",
    /// HTTP only: the server has no admin key, so bot accounts cannot be managed over HTTP.
    AdminDisabled => "admin_disabled",
    /// HTTP only: the server's storage failed to read or write.
    Storage => "storage",
    /// An `act` whose `info` is over [`MAX_INFO_BYTES`] as compact JSON: the act is refused
    /// whole, changing nothing.
    InfoTooLarge => "info_too_large",
    /// An `act` whose `info` is ill-formed (a probability over 1000, an evaluation beyond ±1000,
    /// a belief of another game than the room's): the act is refused whole, changing nothing.
    BadInfo => "bad_info",
    /// HTTP only: the room's match is still being played (or waits for its players): its
    /// replay exists once the match is over.
    MatchInPlay => "match_in_play",
    /// HTTP only: the server already runs as many tournaments at once as it allows
    /// (`--max-tournaments`); try again when one is over.
    TooManyTournaments => "too_many_tournaments",
    /// HTTP only: on a server with open tournaments, this address already runs as many
    /// tournaments at once as one address may (`--tournaments-per-address`).
    TooManyTournamentsFromAddress => "too_many_tournaments_from_address",
}

impl ErrorCode {
    /// A game's rule code (`ErrorCode::rule("cell_public")`), as an engine's
    /// `RuleCode::code` gives it.
    pub const fn rule(code: &'static str) -> ErrorCode {
        ErrorCode::Rule(Cow::Borrowed(code))
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_code_reads_and_writes_as_its_text() {
        for code in ErrorCode::ALL {
            let text = serde_json::to_string(code).unwrap();
            assert_eq!(text, format!("\"{}\"", code.as_str()));
            assert_eq!(&serde_json::from_str::<ErrorCode>(&text).unwrap(), code);
            assert_eq!(code.to_string(), code.as_str());
        }
    }

    #[test]
    fn the_protocols_codes_are_not_rule_codes() {
        let code: ErrorCode = serde_json::from_str("\"bad_json\"").unwrap();
        assert_eq!(code, ErrorCode::BadJson);
        let code: ErrorCode = serde_json::from_str("\"cell_public\"").unwrap();
        assert_eq!(code, ErrorCode::rule("cell_public"));
        assert_eq!(serde_json::to_string(&code).unwrap(), "\"cell_public\"");
        assert_eq!(code.as_str(), "cell_public");
    }

    #[test]
    fn the_schema_lists_every_code() {
        let schema = serde_json::to_string(&schemars::schema_for!(ErrorCode)).unwrap();
        for code in ErrorCode::ALL {
            assert!(schema.contains(&format!("\"const\":\"{code}\"")), "{code}");
        }
        assert_eq!(schema.matches("\"const\":").count(), ErrorCode::ALL.len());
    }
}
