//! A room: an actor that owns one game, its seats, its viewers and its clock.
//!
//! [`spawn`] starts the actor and returns a [`RoomHandle`]. The actor is the only writer of its
//! game: it takes `Command`s from an `mpsc` inbox (answering through `oneshot` where a reply is
//! needed), applies actions through the rules engine, sends each event only to the viewers its
//! audience includes, and runs the deploy and move deadlines with `tokio::time`. It ends when every
//! handle is dropped or the server shuts down.
//!
//! Every room writes its log to the [`Journal`] as it goes; [`restore`] (and, for a tournament
//! match, [`restore_match`]) rebuilds a room still open after a restart from that log. Its seats
//! then wait for their players as after any drop: for the grace period of the room's
//! [`DropPolicy`](skirmish_protocol::DropPolicy), after which a bot takes the seat over or the seat forfeits (in a tournament
//! match, the seat forfeits).
//!
//! What a room says (events, snapshots, replies) is serialised once, in the room's task, into
//! finished frames, and held there until the journal has on disk the write it follows
//! ([`Journal::committed`]); the actor wakes on each commit and sends it, in the order said: every
//! event a player has been sent is on disk. A room that ends first waits for its last write and
//! sends what it still holds. While storage is failing ([`Journal::available`]) the room
//! refuses whatever would write to its log with `storage_unavailable`, changing nothing, and its
//! clocks wait.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng;
use skirmish_games::{Audience, PerSeat, Seat, Viewer};
use skirmish_protocol::info::InfoError;
use skirmish_protocol::{Commitment, NumberedEvent, Offer, PlayerId, Reveal, RoomConfig, RoomId, RoomStatus};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info, info_span};

mod broken;
mod clock;
mod dispatch;
mod ending;
mod held;
mod infos;
mod keep;
mod log;
mod matches;
mod seats;

use self::clock::SeatClock;
use self::held::Held;
pub use self::infos::MAX_MATCH_INFO_BYTES;
pub use self::log::{SeatHolder, seat_holders};
use self::matches::MatchRoom;
pub use self::matches::{MATCH_OWNER, MatchReport, MatchSetup, restore_match, spawn_match};
use crate::chat::{ChatHistory, ChatLimiter};
use crate::error::ServerError;
use crate::journal::{Entry, Journal};
use crate::lobby::{BotWish, Lobby};
use crate::room_handle::{Command, Play};
pub use crate::room_handle::{Member, RoomHandle};
use crate::store::StoredRoom;
use crate::table::Table;

/// How long a finished room stays in the lobby (to be looked at, its page reloaded, its record
/// read by spectators) before it is dropped and its memory freed: 10 minutes.
pub const FINISHED_ROOM_LINGER: Duration = Duration::from_secs(600);

/// Who holds a seat.
#[derive(Debug, Clone)]
struct Holder {
    member: Member,
    connected: bool,
    bot: Option<String>,
    /// For a bot that took the seat over, the name of the player it replaced.
    took_over_from: Option<String>,
    /// For a bot seated by level, the level.
    level: Option<skirmish_protocol::BotLevel>,
}

/// One seat's state in the room: who holds it and its clocks.
#[derive(Debug, Clone, Default)]
struct SeatState {
    /// Who holds the seat; `None` while it is free.
    holder: Option<Holder>,
    /// The seat's turn and game clock.
    clock: SeatClock,
    /// When the seat's grace period ends, while its player is away.
    dropped: Option<Instant>,
}

struct Room {
    id: RoomId,
    config: RoomConfig,
    /// A casual room or a tournament's match.
    kind: Kind,
    status: RoomStatus,
    table: Table,
    seq: u64,
    /// Each seat: its holder and its clocks.
    seats: PerSeat<SeatState>,
    spectators: HashMap<PlayerId, Member>,
    lobby: Lobby,
    /// The room's randomness: the referee's default actions and commitment salts. ChaCha12, so
    /// salts cannot be predicted and the stream for a seed is fixed by the algorithm, not by a
    /// version of `rand` (it is the stream `rand` 0.9's `StdRng` gave, so rooms stored before
    /// restore the same); seeded with [`Room::seed`].
    rng: ChaCha12Rng,
    /// The seed of `rng`, drawn from the operating system and kept in the room's stored record,
    /// so that replaying the room's log draws the same salts and default actions.
    seed: [u8; 32],
    /// Where the room writes its log; `None` while the room is being rebuilt from it.
    journal: Option<Journal>,
    /// Entries written to the log so far.
    logged: u64,
    /// The number of the last journal write the room made: what it says now is held until the
    /// journal has committed it ([`Journal::committed`]).
    written: u64,
    /// What the room says, held until the journal writes before it are on disk.
    out: Held,
    /// Every commitment made so far, in order.
    commitments: Vec<Commitment>,
    /// Commitments not yet opened, with what opens them.
    sealed: Vec<Reveal>,
    /// Every reveal sent so far, in order.
    reveals: Vec<Reveal>,
    /// Each player's recent chat lines, for the chat's rate limit.
    chat_limit: ChatLimiter,
    /// The chat's newest lines, for snapshots' [`RoomSnapshot::chat`](skirmish_protocol::RoomSnapshot::chat).
    chat: ChatHistory,
    /// The newest events with their audiences (at most `dispatch::HISTORY`), for snapshots'
    /// [`RoomSnapshot::history`](skirmish_protocol::RoomSnapshot::history).
    history: VecDeque<(Audience, NumberedEvent)>,
    /// When a finished room leaves the lobby and ends.
    closes_at: Option<Instant>,
    /// A casual match's record for its replay, from its start to its end (boxed: one pointer in
    /// a room that keeps none).
    keeping: Option<Box<keep::Keeping>>,
    /// What the bots thought, sealed until the match's record is kept ([`infos`]).
    thoughts: infos::Thoughts,
}

/// What a room is for.
enum Kind {
    /// A room a player made, who starts it.
    Casual {
        /// Who made it.
        owner: PlayerId,
        /// When it closes if its match has not started ([`crate::Limits::room_expiry_ms`]);
        /// `None` without a limit, and once the match starts.
        expires_at: Option<Instant>,
    },
    /// A tournament's match: its seats are the entrants', its owner nobody ([`MATCH_OWNER`]).
    Match(MatchRoom),
}

impl Kind {
    /// A casual room of `owner`'s that closes at `expires_at` unless its match starts.
    fn casual(owner: PlayerId, expires_at: Option<Instant>) -> Kind {
        Kind::Casual { owner, expires_at }
    }

    /// Who owns the room: its maker, or nobody for a match.
    fn owner(&self) -> PlayerId {
        match self {
            Kind::Casual { owner, .. } => *owner,
            Kind::Match(_) => MATCH_OWNER,
        }
    }

    /// The tournament's part of a match room.
    fn tournament(&self) -> Option<&MatchRoom> {
        match self {
            Kind::Casual { .. } => None,
            Kind::Match(m) => Some(m),
        }
    }

    /// The tournament's part of a match room, to change.
    fn tournament_mut(&mut self) -> Option<&mut MatchRoom> {
        match self {
            Kind::Casual { .. } => None,
            Kind::Match(m) => Some(m),
        }
    }

    /// When a casual room closes unless its match starts.
    fn expires_at(&self) -> Option<Instant> {
        match self {
            Kind::Casual { expires_at, .. } => *expires_at,
            Kind::Match(_) => None,
        }
    }

    /// The match started: a casual room no longer expires.
    fn started(&mut self) {
        if let Kind::Casual { expires_at, .. } = self {
            *expires_at = None;
        }
    }
}

/// Starts a room's actor owned by `owner`. If its match has not started after `expiry` (`None`:
/// no limit), the room closes: everyone in it and its owner get `room_closed`, and it leaves the
/// lobby and the journal.
///
/// # Errors
/// [`ServerError::BadConfig`] when the game's config cannot be played.
pub fn spawn(
    config: RoomConfig,
    owner: PlayerId,
    lobby: Lobby,
    journal: Journal,
    shutdown: CancellationToken,
    expiry: Option<Duration>,
) -> Result<RoomHandle, ServerError> {
    if !journal.available() {
        return Err(ServerError::StorageUnavailable);
    }
    let (mut room, (tx, inbox)) = Room::new(
        config,
        Kind::casual(owner, expiry.map(|e| Instant::now() + e)),
        lobby.clone(),
        RoomId::random(),
        rand::rng().random(),
    )?;
    room.open_log(journal);
    Ok(start_room(room, (tx, inbox), &lobby, shutdown))
}

/// Lists `room` in the lobby and starts its actor, which runs until `shutdown`.
fn start_room(room: Room, (tx, inbox): Channel, lobby: &Lobby, shutdown: CancellationToken) -> RoomHandle {
    let handle = RoomHandle { id: room.id, tx };
    lobby.add_room(handle.clone(), room.summary());
    tokio::spawn(
        Box::new(room)
            .run(inbox, shutdown)
            .instrument(info_span!("room", room = %handle.id)),
    );
    handle
}

/// Rebuilds a room from its stored log (after a restart) and starts its actor, which goes on
/// writing to `journal`. Its players are known to the lobby again, not connected: each gets their
/// seat back by resuming with their token. In a match, each seat has the room's grace period
/// from now to come back, after which the room's [`DropPolicy`](skirmish_protocol::DropPolicy) applies. Returns `None` for a
/// room whose log ends its match (it is then closed in the journal).
///
/// # Errors
/// [`ServerError::BadConfig`] when the stored config cannot be played, or an entry of the log
/// does not apply (the log is not this room's, or the rules changed since).
pub fn restore(
    stored: StoredRoom,
    lobby: Lobby,
    journal: Journal,
    shutdown: CancellationToken,
    expiry: Option<Duration>,
) -> Result<Option<RoomHandle>, ServerError> {
    let (mut room, channel) = Room::rebuild(stored, lobby.clone(), journal, None)?;
    if room.status == RoomStatus::Finished {
        return Ok(None);
    }
    if room.status == RoomStatus::Waiting {
        // A waiting room gets the whole expiry again from the restart: its players were cut off.
        room.kind = Kind::casual(room.kind.owner(), expiry.map(|e| Instant::now() + e));
    }
    Ok(Some(start_room(room, channel, &lobby, shutdown)))
}

/// A room's command channel: its sending and receiving ends.
type Channel = (mpsc::Sender<Box<Command>>, mpsc::Receiver<Box<Command>>);

impl Room {
    fn new(
        config: RoomConfig,
        kind: Kind,
        lobby: Lobby,
        id: RoomId,
        seed: [u8; 32],
    ) -> Result<(Room, Channel), ServerError> {
        let (table, _opening) = Table::new(&config.game)?;
        let seats = config.game.seats();
        let bank = (config.clock().game_ms > 0).then(|| Duration::from_millis(config.clock().game_ms));
        let room = Room {
            id,
            config,
            kind,
            status: RoomStatus::Waiting,
            table,
            seq: 0,
            seats: PerSeat::filled(
                seats,
                SeatState {
                    clock: SeatClock::new(bank),
                    ..SeatState::default()
                },
            ),
            spectators: HashMap::new(),
            lobby,
            rng: ChaCha12Rng::from_seed(seed),
            seed,
            journal: None,
            logged: 0,
            written: 0,
            out: Held::default(),
            commitments: Vec::new(),
            sealed: Vec::new(),
            reveals: Vec::new(),
            history: VecDeque::new(),
            chat_limit: ChatLimiter::default(),
            chat: ChatHistory::default(),
            closes_at: None,
            keeping: None,
            thoughts: infos::Thoughts::default(),
        };
        Ok((room, mpsc::channel(256)))
    }
}

impl Room {
    /// Every seat's holder, in seat order (free seats left out).
    fn holders(&self) -> impl Iterator<Item = &Holder> {
        self.seats.values().filter_map(|s| s.holder.as_ref())
    }

    /// The actor's loop. The room comes boxed: an `async fn` keeps its argument and the local
    /// it moves into, and the room inline (1,376 bytes) sat twice in every room's task
    /// (docs/performance.md, "Idle memory").
    async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<Box<Command>>, shutdown: CancellationToken) {
        info!(config = ?self.config, "room opened");
        // One wait for the shutdown for the actor's life, on a token of the room's own: a wait
        // made at every command on the server's token, which every room and session shares,
        // took its locks at every move.
        let shutdown = shutdown.child_token();
        let stopped = shutdown.cancelled();
        tokio::pin!(stopped);
        'actor: loop {
            self.out.let_out(self.written);
            let next_deadline = self
                .seats
                .values()
                .flat_map(|s| [s.clock.deadline(), s.dropped])
                .flatten()
                .min();
            let deadline = sleep_until_some(next_deadline);
            let closes = sleep_until_some(self.closes_at);
            let expires = sleep_until_some(self.kind.expires_at());
            tokio::pin!(deadline, closes, expires);
            // Everything the actor does runs guarded: a panic breaks this room down, not the server.
            let worked = loop {
                tokio::select! {
                    () = &mut stopped => break 'actor,
                    cmd = rx.recv() => match cmd {
                        Some(cmd) => break self.guarded(|room| room.handle(*cmd)),
                        None => break 'actor,
                    },
                    () = &mut deadline => break self.guarded(Room::on_deadline),
                    // What the room holds is on disk now. Nothing else changed: the room's
                    // timers are kept (a commit wakes the room once a move, as a command does).
                    () = self.out.on_disk() => self.out.let_out(self.written),
                    () = &mut closes => {
                        self.lobby.remove_room(self.id);
                        break 'actor;
                    }
                    () = &mut expires => {
                        let _ = self.guarded(Room::expire);
                        break 'actor;
                    }
                }
            };
            if worked.is_err() {
                break;
            }
        }
        // No command is taken from here on: a handle's caller gets the dead actor's error at
        // once rather than wait for the disk.
        drop(rx);
        // The room's last words (a final move's events, the result) reach its players once on disk.
        self.out.let_out_last(self.written).await;
        debug!("room closed");
    }

    /// Handles one command; a refusal is answered, never fatal to the actor.
    fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join {
                member,
                seat,
                req,
                reply,
            } => {
                let result = self.join(*member, seat, req);
                self.out.reply(reply, result);
            }
            Command::Spectate { member, reply } => {
                self.send_snapshot(&member.outbox, Viewer::Spectator);
                self.spectators.insert(member.id, *member);
                self.out.reply(reply, Ok(()));
                self.publish_summary();
            }
            Command::Abandon => self.abandon(),
            Command::Attach { member } => self.attach(*member),
            Command::Detach { player, conn } => self.detach(player, conn),
            Command::Leave { player, reply } => {
                let result = self.leave(player);
                self.out.reply(reply, result);
            }
            Command::AddBot {
                by,
                seat,
                wish,
                reply,
            } => {
                let result = self
                    .check_owner_waiting(by)
                    .and_then(|()| self.writable())
                    .and_then(|()| self.add_bot(seat, &wish));
                self.out.reply(reply, result);
                self.start_if_full();
            }
            Command::QuickFill { level } => self.quick_fill(level),
            Command::Chat { player, text, reply } => {
                let result = self.chat(player, &text);
                self.out.reply(reply, result);
            }
            Command::Start { by, reply } => {
                let result = self
                    .check_owner_waiting(by)
                    .and_then(|()| self.writable())
                    .and_then(|()| {
                        while self.seats.values().any(|s| s.holder.is_none()) {
                            self.add_bot(None, &BotWish::default())?;
                        }
                        Ok(())
                    });
                self.out.reply(reply, result);
                self.start_if_full();
            }
            Command::Act {
                player,
                seat,
                action,
                req,
                outbox,
                received,
                refereed,
            } => {
                match self.act(player, outbox.conn(), seat, action) {
                    Ok(()) => refereed.observe(received.elapsed().as_secs_f64()),
                    // Nothing was written: said at once, not held behind the journal.
                    Err(err @ ServerError::StorageUnavailable) => {
                        outbox.send(err.to_msg(req));
                    }
                    Err(err) => {
                        debug!(player = %player, cause = %err, "action refused");
                        self.out.say(&outbox, &err.to_msg(req));
                    }
                }
            }
            Command::Forfeit {
                player,
                conn,
                seat,
                cause,
                detail,
                reply,
            } => {
                let result = self.acting_seat(player, conn, seat).and_then(|seat| {
                    if self.status != RoomStatus::Playing {
                        return Err(ServerError::NotStarted);
                    }
                    self.forfeit(seat, cause.into(), detail);
                    Ok(())
                });
                self.out.reply(reply, result);
            }
        }
    }

    /// Plays `player`'s action (or offer, or answer to one) in `seat`, the seat's own or its
    /// only one here.
    fn act(
        &mut self,
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        play: Play,
    ) -> Result<(), ServerError> {
        let seat = self.acting_seat(player, conn, seat)?;
        if self.status == RoomStatus::Waiting {
            return Err(ServerError::NotStarted);
        }
        let (action, info) = match play {
            Play::Act(action, info) => (action, info),
            Play::Offer { offer, answer } => (
                self.table
                    .offer_action(offer, answer)
                    .ok_or(ServerError::OfferNotInGame(offer_name(offer)))?,
                None,
            ),
        };
        // Checked before anything changes: a refused info refuses the act whole.
        let info_bytes = match &info {
            Some(info) => Some(info.check(self.config.game.kind()).map_err(|e| match e {
                InfoError::TooLarge(bytes) => ServerError::InfoTooLarge(bytes),
                InfoError::Bad(what) => ServerError::BadInfo(what),
            })?),
            None => None,
        };
        // Past the seat's share of a match's infos: the act is played, its info dropped.
        let info = info
            .zip(info_bytes)
            .filter(|(_, bytes)| self.info_fits(seat, *bytes));
        let offer = self.table.offer_of(&action);
        if offer.is_some() && self.kind.tournament().is_some() {
            return Err(ServerError::CasualOnly);
        }
        self.writable()?;
        #[cfg(feature = "testing")]
        crate::testing::engine_fault(self.id);
        let applied = self.table.apply(seat, action.clone())?;
        // An offer or its answer is no move: the turn and its clock go on (a takeback granted
        // starts the asker's turn afresh, as the engine says).
        let spent_ms = if offer.is_none() { self.charge(seat) } else { 0 };
        self.record(Entry::Acted {
            seat,
            action,
            spent_ms,
            info: info.as_ref().map(|(info, _)| info.clone()),
        });
        if let Some((info, bytes)) = info {
            self.note_info(seat, *info, bytes);
        }
        self.dispatch(applied);
        if offer.is_some() {
            self.answer_for_bots();
        }
        Ok(())
    }

    /// Answers at once, for every seat a bot holds, the offer waiting for it (docs/rules.md):
    /// a takeback is granted, a draw declined. Each answer is written to the log as that seat's
    /// action, like any other, and replays as one.
    fn answer_for_bots(&mut self) {
        for seat in self.seats.seats() {
            let bot = self.seats[seat].holder.as_ref().is_some_and(|h| h.bot.is_some());
            let Some(offer) = self.table.offer_to(seat).filter(|_| bot) else {
                continue;
            };
            let accept = offer == Offer::Takeback;
            let Some(action) = self.table.offer_action(offer, Some(accept)) else {
                continue;
            };
            if let Ok(applied) = self.table.apply(seat, action.clone()) {
                self.record(Entry::Acted {
                    seat,
                    action,
                    spent_ms: 0,
                    info: None,
                });
                self.dispatch(applied);
            }
        }
    }
}

/// An offer's name in a refusal, for people.
fn offer_name(offer: Offer) -> &'static str {
    match offer {
        Offer::Draw => "draw offer",
        Offer::Takeback => "takeback",
    }
}

async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
