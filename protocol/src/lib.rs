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
pub mod commitment;
pub mod deal;
mod ids;
pub mod tournament;

pub use commitment::{Commitment, Reveal};
pub use ids::{AccessKey, AccountToken, MatchId, ParseIdError, PlayerId, ResumeToken, RoomId, TournamentId};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
pub use skirmish_games::{Seat, Viewer, gomoku, junqi, plane};

/// The protocol version a client names in `hello`; the server refuses any other.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest text frame the server reads, in bytes (64 KiB); a larger one is answered with
/// [`codes::FRAME_TOO_LARGE`] and dropped.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The deepest nesting of JSON arrays and objects the server reads by default (32; the deepest
/// message of the protocol nests 5 levels); a deeper frame is answered with [`codes::TOO_DEEP`]
/// and dropped.
pub const MAX_JSON_DEPTH: usize = 32;

/// WebSocket close code: this connection was replaced by a newer one of the same player (a
/// `hello` resuming its token on another connection) or of the same bot account (a `hello` with
/// the account's token). The older connection can no longer act; a client closed with it should
/// not reconnect, since the newer connection plays its seats now.
pub const CLOSE_REPLACED: u16 = 4009;

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
        /// The strategy wanted; any the bots offer if absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strategy: Option<String>,
    },
    /// Starts the room now, filling every empty seat with a bot (owner only). Answered by `done`.
    Start {
        /// The room.
        room: RoomId,
    },
    /// Says a line in a room's chat: the players' chat for a seated player, the spectators' chat
    /// for a spectator (each chat reaches only its own members). At most [`MAX_CHAT_CHARS`]
    /// characters; control characters become spaces. At most [`CHAT_BURST`] lines per
    /// [`CHAT_WINDOW_MS`]. Answered by `done`; `bad_chat`, `chat_too_fast` or `not_seated`
    /// otherwise.
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
    /// A line of a room's chat, sent to the members of that chat only.
    Chat {
        /// The room.
        room: RoomId,
        /// Whose chat: the players' or the spectators'.
        channel: ChatChannel,
        /// The speaker's seat, in the players' chat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The speaker's display name, as the server knows it (a client cannot choose it per
        /// line). Text, never markup.
        name: String,
        /// What was said (text, never markup).
        text: String,
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
        /// A stable snake_case code: one of [`codes`], or a rule's code such as `cell_public`.
        code: String,
        /// A message for people.
        message: String,
    },
    /// The answer to `ping`.
    Pong {
        /// The request answered.
        req: Option<u64>,
    },
    /// A room closed before its match was played: sent to everyone seated in it or watching it,
    /// who no longer hold a seat there. `code` says why: [`codes::ROOM_EXPIRED`] for a room that
    /// waited longer than the server's `--room-expiry-ms` without starting.
    RoomClosed {
        /// The room, now gone from the lobby.
        room: RoomId,
        /// Why it closed, a stable snake_case code.
        code: String,
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
    /// What is wrong, for people; the server answers it with [`codes::BAD_OFFER`].
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
/// a bidirectional formatting character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
/// U+2069, which reorder the text shown around them, as in Trojan Source, CVE-2021-42574).
pub fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
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

/// The games Skirmish referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Plane battle (docs/rules.md, plane battle).
    Plane,
    /// Gomoku (docs/rules.md, gomoku).
    Gomoku,
    /// Junqi (docs/rules.md, junqi).
    Junqi,
}

/// A room's settings: the game with its config, and the clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomConfig {
    /// A name for people; the server makes one up if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game and its settings.
    pub game: GameConfig,
    /// Time limits; when absent the server's defaults apply, and room summaries always show the
    /// clock in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// What happens to a seat whose player dropped (or left) mid-match and did not come back
    /// within the grace period; when absent the server's default applies, and room summaries
    /// always show the policy in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_drop: Option<DropPolicy>,
}

impl RoomConfig {
    /// The clock in force: this config's, or [`Clock::default`] when it names none.
    pub fn clock(&self) -> Clock {
        self.clock.unwrap_or_default()
    }

    /// The drop policy in force: this config's, or [`DropPolicy::default`] when it names none.
    pub fn on_drop(&self) -> DropPolicy {
        self.on_drop.unwrap_or_default()
    }
}

/// A room's policy for a seat whose player dropped mid-match: how long the seat waits for them,
/// and what happens after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DropPolicy {
    /// Milliseconds a dropped player has to reconnect (with their resume token) and take their
    /// seat back. Default 60,000. Meanwhile the clock runs for the seat as usual.
    pub grace_ms: u64,
    /// What happens when the grace period ends.
    pub then: AfterGrace,
}

impl Default for DropPolicy {
    fn default() -> Self {
        DropPolicy {
            grace_ms: 60_000,
            then: AfterGrace::Bot,
        }
    }
}

/// What a room does with a seat whose grace period ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AfterGrace {
    /// A bot takes the seat over and plays the match out; the seat's occupant then names the
    /// player it replaced ([`Occupant::took_over_from`]). When no bot is connected, the seat
    /// forfeits.
    Bot,
    /// The seat forfeits: it resigns (reason `disconnected`) and the match ends.
    Forfeit,
    /// Nothing: the seat waits for its player for the rest of the match, the clock playing for
    /// it when a turn runs out.
    Wait,
}

/// Time limits. When one runs out in plane battle the referee acts for the seat (a uniformly
/// random legal deployment or shot, docs/rules.md, plane battle); in gomoku the seat loses on time; in junqi
/// a seat that runs out of deployment time gets a uniformly random legal layout, and one that runs
/// out of move time loses (docs/rules.md, junqi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Clock {
    /// Milliseconds to deploy each round (0: no limit). Default 60,000.
    pub deploy_ms: u64,
    /// Milliseconds for each shot or stone (0: no limit). Default 30,000.
    pub move_ms: u64,
    /// Milliseconds of thinking each seat has for the whole match, deployments and moves
    /// together (0, the default: no limit). A seat whose game clock runs out loses the match,
    /// whatever the game.
    #[serde(skip_serializing_if = "is_zero")]
    pub game_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            deploy_ms: 60_000,
            move_ms: 30_000,
            game_ms: 0,
        }
    }
}

/// A game and its settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameConfig {
    /// Plane battle.
    Plane(plane::Config),
    /// Gomoku.
    Gomoku(gomoku::Config),
    /// Junqi.
    Junqi(junqi::Config),
}

impl GameConfig {
    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            GameConfig::Plane(_) => GameKind::Plane,
            GameConfig::Gomoku(_) => GameKind::Gomoku,
            GameConfig::Junqi(_) => GameKind::Junqi,
        }
    }

    /// Seats at the table.
    pub fn seats(&self) -> usize {
        match self {
            GameConfig::Plane(config) => usize::from(config.players),
            GameConfig::Gomoku(_) | GameConfig::Junqi(_) => 2,
        }
    }
}

/// An action in a room, tagged by game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum Action {
    /// A plane battle action: `{"game": "plane", "kind": "fire", "target": 1, "cell": "E5"}`.
    Plane(plane::Action),
    /// A gomoku action: `{"game": "gomoku", "kind": "place", "point": "h8"}`.
    Gomoku(gomoku::Action),
    /// A junqi action: `{"game": "junqi", "kind": "move", "from": "G0", "to": "F0"}` or
    /// `{"game": "junqi", "kind": "deploy", "layout": "abccddeeffggghhhiiijjkklj"}`.
    Junqi(junqi::Action),
}

/// What one viewer may see of a game, tagged by game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameView {
    /// Plane battle.
    Plane(plane::View),
    /// Gomoku.
    Gomoku(gomoku::View),
    /// Junqi.
    Junqi(junqi::View),
}

/// A game event, tagged by game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameEvent {
    /// Plane battle.
    Plane(plane::Event),
    /// Gomoku.
    Gomoku(gomoku::Event),
    /// Junqi.
    Junqi(junqi::Event),
}

/// Whether a room waits for players, plays, or is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Seats are open; the match starts when all are taken (or the owner starts it).
    Waiting,
    /// The match is on.
    Playing,
    /// The match is over.
    Finished,
}

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Occupant {
    /// The player.
    pub player: PlayerId,
    /// Display name.
    pub name: String,
    /// For a bot, the strategy it plays here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Whether the player is connected now.
    pub connected: bool,
    /// For a bot that took the seat over mid-match ([`AfterGrace::Bot`]), the name of the
    /// player it replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took_over_from: Option<String>,
}

/// One seat of a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// Its occupant, if taken.
    pub occupant: Option<Occupant>,
}

/// A room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomSummary {
    /// The room.
    pub id: RoomId,
    /// Its owner: the player who created it, who may add bots and start it.
    pub owner: PlayerId,
    /// Its settings.
    pub config: RoomConfig,
    /// Waiting, playing or finished.
    pub status: RoomStatus,
    /// Every seat, in seat order.
    pub seats: Vec<SeatInfo>,
    /// Connected spectators.
    pub spectators: u32,
}

/// A full snapshot of one room for one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomSnapshot {
    /// The room, as the lobby lists it.
    pub room: RoomSummary,
    /// The viewer's seat; absent for a spectator.
    pub you: Option<Seat>,
    /// The last event number of the room at this snapshot; later `event`s continue from it.
    pub seq: u64,
    /// What this viewer may see of the game.
    pub view: GameView,
    /// Every commitment made in this match so far, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commitments: Vec<Commitment>,
    /// Every reveal so far, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveals: Vec<Reveal>,
    /// The newest events of the room this viewer may see, oldest first, at most
    /// [`SNAPSHOT_HISTORY`]: the same events, numbers and audiences as the `event` messages
    /// (a spectator gets only public ones), so a page opened or reloaded mid-match rebuilds its
    /// event log.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<NumberedEvent>,
    /// Per seat, in seat order, the milliseconds left on the clock of that seat's current turn
    /// (`null` for a seat that is not to act, or with no clock); empty before and after the
    /// match. Deadlines are public: the page shows everyone the time left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deadlines_ms: Vec<Option<u64>>,
}

/// Which chat of a room: the seated players' or the spectators'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// The seated players (bots included).
    Players,
    /// The spectators.
    Spectators,
}

/// The longest chat line, in characters (Unicode scalar values): a short remark, as on lichess.
pub const MAX_CHAT_CHARS: usize = 200;

/// How many chat lines one player may say in a room per [`CHAT_WINDOW_MS`].
pub const CHAT_BURST: usize = 5;

/// The window of the chat's rate limit, in milliseconds: [`CHAT_BURST`] lines per 10 s.
pub const CHAT_WINDOW_MS: u64 = 10_000;

/// How many past events a `room` snapshot carries at most ([`RoomSnapshot::history`]): the
/// web client's event log keeps 300 lines; a plane battle round has about 100 events.
pub const SNAPSHOT_HISTORY: usize = 300;

/// One past event of a room, as an `event` message carried it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NumberedEvent {
    /// The room's event number, from 1.
    pub seq: u64,
    /// What happened.
    pub event: GameEvent,
}

/// The protocol's own error codes (rule refusals use the engine's codes, such as `cell_public`).
pub mod codes {
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
}

/// Why a text frame could not be read as a [`ClientFrame`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// The request number, when the frame was JSON with a numeric `req`.
    pub req: Option<u64>,
    /// [`codes::BAD_JSON`], [`codes::BAD_MESSAGE`], [`codes::UNKNOWN_TYPE`] or [`codes::FRAME_TOO_LARGE`].
    pub code: &'static str,
    /// What was wrong, for people.
    pub message: String,
}

impl FrameError {
    /// The `error` message that answers this frame.
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::Error {
            req: self.req,
            code: self.code.to_owned(),
            message: self.message.clone(),
        }
    }
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
/// As [`parse_client_frame`], and [`codes::TOO_DEEP`].
pub fn parse_client_frame_within(
    text: &str,
    max_bytes: usize,
    max_depth: usize,
) -> Result<ClientFrame, FrameError> {
    if text.len() > max_bytes {
        return Err(FrameError {
            req: None,
            code: codes::FRAME_TOO_LARGE,
            message: format!(
                "frames are limited to {max_bytes} bytes; this one has {}",
                text.len()
            ),
        });
    }
    if json_depth(text) > max_depth {
        return Err(FrameError {
            req: None,
            code: codes::TOO_DEEP,
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
        code: codes::BAD_JSON,
        message: format!("not JSON: {e}"),
    })?;
    let req = value.get("req").and_then(serde_json::Value::as_u64);
    let Some(kind) = value.get("type").and_then(serde_json::Value::as_str) else {
        return Err(FrameError {
            req,
            code: codes::BAD_MESSAGE,
            message: "a message is a JSON object with a string `type`".to_owned(),
        });
    };
    let kind = kind.to_owned();
    serde_json::from_value(value).map_err(|e| {
        let unknown = e.to_string().starts_with("unknown variant") && !CLIENT_TYPES.contains(&kind.as_str());
        FrameError {
            req,
            code: if unknown {
                codes::UNKNOWN_TYPE
            } else {
                codes::BAD_MESSAGE
            },
            message: if unknown {
                format!("unknown message type `{kind}`")
            } else {
                format!("bad `{kind}`: {e}")
            },
        }
    })
}

/// The `type` tags of [`ClientMsg`]; kept in step by a test.
pub const CLIENT_TYPES: &[&str] = &[
    "hello",
    "list_rooms",
    "create_room",
    "join_room",
    "leave_room",
    "spectate",
    "add_bot",
    "start",
    "act",
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
