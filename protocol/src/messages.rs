//! The messages themselves: what a client sends ([`ClientFrame`], [`ClientMsg`]) and what the
//! server sends ([`ServerMsg`]), with the bot offers and summaries they carry.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ErrorCode;
use crate::Offer;
use crate::Seat;
use crate::commitment::{Commitment, Reveal};
use crate::games::{Action, GameEvent, GameKind, GameView};
use crate::ids::{AccessKey, AccountToken, PlayerId, ResumeToken, RoomId};
use crate::info::BotInfo;
use crate::room::{BotLevel, ChatLine, RoomConfig, RoomSnapshot, RoomSummary};

// Named only by intra-doc links in the doc comments below, whose text the committed JSON schema
// repeats word for word (`schema/*.json`), so the links stay short rather than `crate::` paths.
#[allow(unused_imports)]
use crate::{CHAT_BURST, CHAT_WINDOW_MS, CLOSE_REPLACED, MAX_CHAT_CHARS, PROTOCOL_VERSION, commitment};

/// A message from a client, with the request number the server echoes in its answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClientFrame {
    /// A number the client picks to match the server's answer (`done`, `error`, ...) to this request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub req: Option<u64>,
    /// The message.
    #[serde(flatten)]
    pub msg: ClientMsg,
}

/// Client to server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message on a connection: who is here, and as what. Answered by `welcome`.
    Hello {
        /// Must be [`PROTOCOL_VERSION`].
        protocol: u32,
        /// Display name, 1 to 32 characters.
        name: String,
        /// Present when this client is a bot: what it can play. Bots are handed seats by the server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<BotOffer>,
        /// The token from an earlier `welcome`, to take back one's seats after a reconnect.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resume: Option<ResumeToken>,
        /// The operator's key, which a server started with `--bot-key` requires of every
        /// anonymous bot (refused with `bad_key` otherwise); bots with an account token and people
        /// need none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<AccessKey>,
        /// A bot account's secret token: this connection is that account's bot, and `name` must
        /// be the account's. Only account bots enter tournaments. An account has one connection
        /// at a time: a newer `hello` with its token takes over the account's seats and the
        /// older connection is closed with [`CLOSE_REPLACED`]. Refused with `bad_token` when the
        /// server did not issue it or it was revoked or rotated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<AccountToken>,
        /// Whether each `your_turn` on this connection carries the seat's whole view: `true` for
        /// a client that decides or draws from the view alone; `false` for one that keeps its
        /// view from the `room` snapshot it gets on joining and resuming and the `event`s after
        /// it. Absent: `true` for a bot (a hello with `bot`), `false` for a person. The whole view
        /// grows over a match (every stone of a gomoku game), and a move costs what its frames
        /// cost (docs/performance.md).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn_view: Option<bool>,
        /// The ladders this bot account plays in (`["gomoku-freestyle", "plane-3"]`,
        /// [`crate::ladder::LadderId`]; at most [`crate::ladder::MAX_LADDERS_PER_HELLO`]): every
        /// strategy it offers for a ladder's game is an entrant there, with the offer's version,
        /// paired while this connection lasts. Each `hello` says them anew (absent or empty:
        /// none). Refused with `ladder_needs_account` without `token`, `no_such_ladder` for an
        /// id the server does not have.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ladder: Vec<String>,
    },
    /// Asks for the list of rooms. Answered by `rooms`.
    ListRooms,
    /// Creates a room; the creator owns it (may add bots and start it). Answered by `room_created`,
    /// then `seated` (when `sit`) and a `room` snapshot.
    CreateRoom {
        /// The game and its settings.
        config: RoomConfig,
        /// Whether the creator takes seat 0 (default); otherwise the creator watches.
        #[serde(default = "yes")]
        sit: bool,
    },
    /// Takes a seat in a waiting room. Answered by `seated` and a `room` snapshot.
    JoinRoom {
        /// The room.
        room: RoomId,
        /// The seat wanted; the first free one if absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Leaves a room: frees the seat while the room waits; during a match the seat stays, played by
    /// the clock's default actions. Answered by `done`.
    LeaveRoom {
        /// The room.
        room: RoomId,
    },
    /// Watches a room, seeing public information only. Answered by a `room` snapshot, then `done`.
    Spectate {
        /// The room.
        room: RoomId,
    },
    /// Asks the server to seat a bot (owner only, while the room waits). Answered by `done`.
    AddBot {
        /// The room.
        room: RoomId,
        /// The seat; the first free one if absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The strategy wanted; any the bots offer if absent (with `level`: the level's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strategy: Option<String>,
        /// The level wanted, as people choose a bot: the server plays the level's built-in
        /// strategy with the level's thinking budget (bots/README.md, "Levels"); with
        /// `strategy` too, that strategy with the level's budget. When no connected bot offers
        /// the level's strategy, a bot's own strategies stand in, by rank (its strongest for
        /// `hard`, its weakest for `easy`). The seat's occupant then shows the level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<BotLevel>,
    },
    /// Seats this person in a waiting room of `game` made by quick match, or makes one and seats
    /// them there: one with a free seat, not started, of the same game; the first of them, so
    /// people quick-matching the same game meet. A room it makes has the game's quickest
    /// settings, is owned by this person (counted by the open-room limits as `create_room` is),
    /// and, when its seats are not all taken after the server's quick-match wait
    /// (`--quick-match-wait-ms`, 15 s by default), starts with bots of the `medium` level in the
    /// empty seats. Quick match never seats anyone in a room a person made with `create_room`.
    /// A person already seated in a waiting quick-match room of `game` gets that seat again, not
    /// a second room. Answered by `seated` and a `room` snapshot, as `join_room` is.
    QuickMatch {
        /// The game.
        game: GameKind,
        /// The name of the room if one is made (in the person's language; 1 to 64 characters),
        /// else one the server makes up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Starts the room now, filling every empty seat with a bot (owner only). Answered by `done`.
    Start {
        /// The room.
        room: RoomId,
    },
    /// Says a line in a room's chat, which every person in the room reads (seated players,
    /// people waiting to sit, spectators; seats held by bots are sent none), from a seat or from
    /// a spectator of the room. At most [`MAX_CHAT_CHARS`] characters; control characters become
    /// spaces. At most [`CHAT_BURST`] lines per [`CHAT_WINDOW_MS`]. Answered by `done`;
    /// `bad_chat`, `chat_too_fast`, or `not_seated` from a client that neither sits nor watches
    /// there, otherwise (a refused line reaches nobody).
    Chat {
        /// The room.
        room: RoomId,
        /// What to say.
        text: String,
    },
    /// Plays an action in a room where this client holds the seat to act. No answer on success:
    /// the resulting `event`s are the confirmation; `error` otherwise.
    Act {
        /// The room.
        room: RoomId,
        /// The seat acting; needed only by a client holding several seats in the room (a bot).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The action.
        action: Action,
        /// What the bot thought when it chose the action ([`BotInfo`]): at most
        /// [`MAX_INFO_BYTES`](crate::MAX_INFO_BYTES) as compact JSON, kept sealed with the
        /// match's record and sent to no one during the match (not the opponents, spectators,
        /// nor the sender); the replay shows it once the match, and a duplicate tournament
        /// match's deal at every table, is over. An act whose `info` is too large
        /// (`info_too_large`) or ill-formed (`bad_info`) is refused whole, changing nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        info: Option<Box<BotInfo>>,
    },
    /// Offers the other side a draw, or asks to take back one's last move (悔棋), in a casual room
    /// where this client holds a seat in the match; the other side answers with `answer`. Only
    /// games that have the offer allow it (gomoku has both; others refuse with
    /// `offer_not_in_game`), never in a tournament match (`casual_only`). No answer on success:
    /// the game's events are the confirmation (gomoku's `draw_offered`, `takeback_asked`);
    /// `error` otherwise. A takeback asked of a bot is granted at once, a draw offered to a bot
    /// declined at once, by the server.
    Offer {
        /// The room.
        room: RoomId,
        /// The seat offering; needed only by a client holding several seats in the room.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// What is offered.
        offer: Offer,
    },
    /// Accepts or declines the offer waiting for this seat's answer (see `offer`). No answer on
    /// success: the game's events are the confirmation; `error` otherwise (gomoku's
    /// `no_draw_offer`, `no_takeback` when no such offer waits for this seat: one's own offer is
    /// the other side's to answer).
    Answer {
        /// The room.
        room: RoomId,
        /// The seat answering; needed only by a client holding several seats in the room.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The offer answered.
        offer: Offer,
        /// Whether it is accepted.
        accept: bool,
    },
    /// Gives up a seat's match for a cause the seat's own player knows and the server cannot
    /// see: its outside engine failed (crashed, hung, or answered with something illegal or
    /// unreadable). The seat loses as by resigning, and a tournament books the loss as a forfeit
    /// by that cause. A client can only forfeit its own seats. No answer on success: the
    /// resulting `event`s are the confirmation; `error` otherwise.
    Forfeit {
        /// The room.
        room: RoomId,
        /// The seat giving up; needed only by a client holding several seats in the room.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// Why.
        cause: ForfeitCause,
        /// What happened, for people (at most 200 bytes; control characters are dropped).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// Asks for the connected bots and the strategies they offer. Answered by `bots`.
    ListBots,
    /// Liveness check. Answered by `pong`.
    Ping,
}

fn yes() -> bool {
    true
}

/// Why a client gives up a seat ([`ClientMsg::Forfeit`]). The other causes of a forfeit
/// (`timed_out`, `disconnected`, `absent`) are the server's to decide, never a client's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitCause {
    /// The seat's outside engine failed: it crashed, did not answer in time, or answered with an
    /// illegal or unreadable move.
    EngineFailure,
}

impl ForfeitCause {
    /// The cause as the protocol writes it (`engine_failure`).
    pub fn as_str(self) -> &'static str {
        match self {
            ForfeitCause::EngineFailure => "engine_failure",
        }
    }
}

/// Server to client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`.
    Welcome {
        /// The protocol version in use.
        protocol: u32,
        /// This player's id (public: it names the player in rooms).
        player: PlayerId,
        /// The display name in use.
        name: String,
        /// A secret token: send it in a later `hello` to get this player's seats back.
        resume: ResumeToken,
        /// The rooms this player is seated in (non-empty after a resume).
        seats: Vec<SeatRef>,
    },
    /// The rooms, answering `list_rooms`.
    Rooms {
        /// The request answered.
        req: Option<u64>,
        /// Every room, newest first.
        rooms: Vec<RoomSummary>,
    },
    /// A room was created, answering `create_room`.
    RoomCreated {
        /// The request answered.
        req: Option<u64>,
        /// The new room.
        room: RoomId,
    },
    /// This client now holds a seat (answering `join_room`/`create_room`, or handed to a bot).
    Seated {
        /// The request answered, if any.
        req: Option<u64>,
        /// The room.
        room: RoomId,
        /// The seat.
        seat: Seat,
        /// For a bot: the strategy to play in this seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strategy: Option<String>,
        /// For a bot seated by level: the longest to think about one move in this seat, in
        /// milliseconds (the level's budget; a bot keeps to the shorter of this and its own
        /// limit). Absent: the bot's own limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        think_ms: Option<u64>,
    },
    /// A request succeeded that has no other answer (`leave_room`, `spectate`, `add_bot`, `start`).
    Done {
        /// The request answered.
        req: Option<u64>,
    },
    /// A full snapshot of what this viewer may see of a room; sent on joining, spectating,
    /// reconnecting, and whenever the seats change.
    Room(Box<RoomSnapshot>),
    /// A seat's secret deployment is fixed: its digest, sent to every player and spectator (see
    /// [`commitment`]).
    Commitment {
        /// The room.
        room: RoomId,
        /// The commitment.
        #[serde(flatten)]
        commitment: Commitment,
    },
    /// A committed deployment, opened once the game has revealed it (the end of a plane battle
    /// round, the end of a junqi game): check it with [`Reveal::verify`].
    Reveal {
        /// The room.
        room: RoomId,
        /// The opened deployment.
        #[serde(flatten)]
        reveal: Reveal,
    },
    /// Something happened in a room that this viewer may see.
    Event {
        /// The room.
        room: RoomId,
        /// The room's event number, from 1. Numbers of events this viewer may not see are skipped.
        seq: u64,
        /// What happened.
        event: GameEvent,
    },
    /// A line of a room's chat, sent to every person in the room (seated, waiting to sit, or
    /// watching) and to no seat held by a bot.
    Chat {
        /// The room.
        room: RoomId,
        /// The line: its number, the speaker's seat and name, the text.
        #[serde(flatten)]
        line: ChatLine,
    },
    /// This seat must act now.
    YourTurn {
        /// The room.
        room: RoomId,
        /// The seat to act.
        seat: Seat,
        /// Milliseconds left before the referee acts for the seat; absent when there is no clock.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline_ms: Option<u64>,
        /// What the seat's player may see now (the same as a fresh `room` snapshot's view), for a
        /// connection whose `hello` asked for it (`turn_view`); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<GameView>,
    },
    /// The connected bots, answering `list_bots`.
    Bots {
        /// The request answered.
        req: Option<u64>,
        /// Every connected bot.
        bots: Vec<BotSummary>,
    },
    /// A request was refused; nothing changed.
    Error {
        /// The request answered, when it could be read.
        req: Option<u64>,
        /// A stable snake_case code: one of the protocol's, or a rule's code such as `cell_public`.
        code: ErrorCode,
        /// A message for people.
        message: String,
    },
    /// The answer to `ping`.
    Pong {
        /// The request answered.
        req: Option<u64>,
    },
    /// A room closed before its match was played: sent to everyone seated in it or watching it,
    /// who no longer hold a seat there. `code` says why: `room_expired` for a room that
    /// waited longer than the server's `--room-expiry-ms` without starting.
    RoomClosed {
        /// The room, now gone from the lobby.
        room: RoomId,
        /// Why it closed, a stable snake_case code.
        code: ErrorCode,
        /// A message for people.
        message: String,
    },
}

/// A seat held by a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatRef {
    /// The room.
    pub room: RoomId,
    /// The seat.
    pub seat: Seat,
    /// The strategy a bot was seated to play there (as in its `seated`), so that a bot program
    /// started again and resuming with its token plays each seat as it was asked to; absent for
    /// people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
}

/// What a bot can play, announced in `hello`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BotOffer {
    /// The games it plays, each with the strategy names it offers for that game, strongest first:
    /// `{"plane": ["bayes", "seed-cv", "random"], "gomoku": ["threat-search", "random"]}`. A game
    /// with no strategy is not offered.
    pub games: std::collections::BTreeMap<GameKind, Vec<String>>,
    /// The bot program's version, as its author numbers it (shown in tournament entrants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl BotOffer {
    /// The most strategies a bot may offer for one game (16; the built-in bots offer at most 7).
    pub const MAX_STRATEGIES: usize = 16;
    /// The longest strategy name or version, in characters (32, as a display name).
    pub const MAX_LABEL_CHARS: usize = 32;

    /// The strategies offered for `game`, strongest first (empty when the game is not offered).
    pub fn strategies(&self, game: GameKind) -> &[String] {
        self.games.get(&game).map_or(&[], Vec::as_slice)
    }

    /// Checks the offer's size: at most [`Self::MAX_STRATEGIES`] strategies per game, each name
    /// (and the version) 1 to [`Self::MAX_LABEL_CHARS`] characters with no control or
    /// bidirectional-formatting character, no name twice for one game. So an offer is at most
    /// about 3 games x 16 x 32 characters: a server keeps it while the bot is connected.
    ///
    /// # Errors
    /// What is wrong, for people; the server answers it with [`ErrorCode::BadOffer`].
    pub fn check(&self) -> Result<(), String> {
        let label_ok = |s: &str| {
            let n = s.chars().count();
            (1..=Self::MAX_LABEL_CHARS).contains(&n) && s.chars().all(|c| !is_hidden_char(c))
        };
        for (game, strategies) in &self.games {
            if strategies.len() > Self::MAX_STRATEGIES {
                return Err(format!(
                    "at most {} strategies per game; {} offered for {game:?}",
                    Self::MAX_STRATEGIES,
                    strategies.len()
                ));
            }
            for (i, name) in strategies.iter().enumerate() {
                if !label_ok(name) {
                    return Err(format!(
                        "a strategy name has 1 to {} printable characters",
                        Self::MAX_LABEL_CHARS
                    ));
                }
                if strategies[..i].contains(name) {
                    return Err(format!("strategy `{name}` offered twice for {game:?}"));
                }
            }
        }
        if let Some(version) = &self.version
            && !label_ok(version)
        {
            return Err(format!(
                "a version has 1 to {} printable characters",
                Self::MAX_LABEL_CHARS
            ));
        }
        Ok(())
    }
}

/// Whether `c` is a character a name the server repeats must not carry: a control character
/// (newlines, tabs, ESC and the other C0/C1 codes, which can rewrite a terminal or a log line) or
/// one of Unicode's default-ignorable code points (`Default_Ignorable_Code_Point`, from ICU4X's
/// data): characters shown as nothing, such as the zero-width space U+200B and joiners, the
/// soft hyphen, variation selectors, the Hangul fillers, and the bidirectional formatting
/// characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) that reorder the text
/// around them, as in Trojan Source, CVE-2021-42574. A name made only of these is empty.
pub fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || icu_properties::CodePointSetData::new::<icu_properties::props::DefaultIgnorableCodePoint>()
            .contains(c)
}

/// A name as the server repeats it (player, bot, room and tournament names): every
/// [`is_hidden_char`] removed, then spaces trimmed at both ends. The caller checks the length of
/// what is left.
pub fn clean_name(name: &str) -> String {
    let kept: String = name.chars().filter(|&c| !is_hidden_char(c)).collect();
    kept.trim().to_owned()
}

/// A connected bot, as `list_bots` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BotSummary {
    /// The bot connection's player id.
    pub player: PlayerId,
    /// Its display name.
    pub name: String,
    /// What it plays.
    pub offer: BotOffer,
    /// Seats it holds now, across all rooms.
    pub seats: u32,
    /// Whether it is a bot account's connection (its `hello` carried the account's token; its
    /// name is the account's). Only account bots enter tournaments.
    #[serde(default)]
    pub account: bool,
}
