//! Rooms as the wire shows them: the game and its settings, clocks, drop policy, seats,
//! summaries, snapshots, the per-game actions, views and events, and the chat's lines.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::commitment::{Commitment, Reveal};
use crate::ids::{PlayerId, RoomId};
use crate::{GameConfig, GameEvent, GameView, Seat};

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
    /// The room's chat, the newest lines, oldest first: at most [`CHAT_HISTORY_LINES`] lines and
    /// [`CHAT_HISTORY_CHARS`] characters of text, so that a page opened or reloaded shows what
    /// was said. The same for every person in the room; empty for a seat held by a bot. Kept in
    /// memory only: after a server restart a room's chat starts empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
}

/// One line of a room's chat. A room has one chat: everyone in it who is a person (seated
/// players, people waiting to sit, spectators) reads every line and may say lines; seats held by
/// bots are sent none. Whatever a spectator may read is public, so a line is public: the server
/// puts nothing in it but what its speaker typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChatLine {
    /// The room's number of the line, from 1, one more for each line said (a page counts the
    /// lines it has not shown by it). Numbers start again from 1 when the server restarts.
    pub n: u64,
    /// The speaker's seat when the line was said; absent for someone not seated then (a
    /// spectator, or a person who had not sat yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The speaker's display name, as the server knows it (a client cannot choose it per line).
    /// Text, never markup.
    pub name: String,
    /// What was said: at most [`MAX_CHAT_CHARS`] characters, control characters made spaces.
    /// Text, never markup.
    pub text: String,
}

/// The longest chat line, in characters (Unicode scalar values): a short remark, as on lichess.
pub const MAX_CHAT_CHARS: usize = 200;

/// How many chat lines one player may say in a room per [`CHAT_WINDOW_MS`].
pub const CHAT_BURST: usize = 5;

/// The window of the chat's rate limit, in milliseconds: [`CHAT_BURST`] lines per 10 s.
pub const CHAT_WINDOW_MS: u64 = 10_000;

/// How many chat lines a room keeps, the newest, for snapshots ([`RoomSnapshot::chat`]): about
/// five screens of the room page's chat panel (ten lines in view), more than a match's chat
/// usually holds. A line past it drops the oldest.
pub const CHAT_HISTORY_LINES: usize = 50;

/// How many characters of text ([`ChatLine::text`]) the lines a room keeps hold together at
/// most: the room drops its oldest lines until the newest fit. 25 lines of the longest kind
/// ([`MAX_CHAT_CHARS`]), so that long lines cannot make a room keep 50 × 200: a room's chat
/// history then costs at most 5,000 characters of text plus one name (at most 32 characters) a
/// line, under 27 KB in UTF-8, and stays well inside one snapshot frame.
pub const CHAT_HISTORY_CHARS: usize = 5_000;

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
