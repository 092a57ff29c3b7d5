//! A room: an actor that owns one game, its seats, its viewers and its clock.
//!
//! [`spawn`] starts the actor and returns a [`RoomHandle`]. The actor is the only writer of its
//! game: it takes [`Command`]s from an `mpsc` inbox (answering through `oneshot` where a reply is
//! needed), applies actions through the rules engine, sends each event only to the viewers its
//! audience includes, and runs the deploy and move deadlines with `tokio::time`. It ends when every
//! handle is dropped or the server shuts down.
//!
//! Every room writes its log to the [`Journal`] as it goes; [`restore`] (and, for a tournament
//! match, [`restore_match`]) rebuilds a room still open after a restart from that log. Its seats
//! then wait for their players as after any drop: for the grace period of the room's
//! [`DropPolicy`], after which a bot takes the seat over or the seat forfeits (in a tournament
//! match, the seat forfeits).
//!
//! What a room says (events, snapshots, replies) after writing to its log is held until the
//! journal has that write on disk ([`Journal::committed`]), then let out in order: every event a
//! player has been sent is on disk. While storage is failing ([`Journal::available`]) the room
//! refuses whatever would write to its log with `storage_unavailable`, changing nothing, and its
//! clocks wait.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use skirmish_games::{Audience, Seat, Viewer};
use skirmish_protocol::tournament::{Forfeit, MatchResult, forfeit_reasons};
use skirmish_protocol::{
    Action, AfterGrace, ChatChannel, Commitment, DropPolicy, ForfeitCause, GameEvent, NumberedEvent,
    Occupant, PlayerId, Reveal, RoomConfig, RoomId, RoomSnapshot, RoomStatus, RoomSummary, SNAPSHOT_HISTORY,
    SeatInfo, ServerMsg,
};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info, info_span};

mod held;

use self::held::Held;
use crate::chat::{ChatLimiter, clean_line};
use crate::error::ServerError;
use crate::journal::{Entry, Journal};
use crate::lobby::{BotPick, Lobby};
use crate::outbox::Outbox;
use crate::store::StoredRoom;
use crate::table::{Applied, Table, TurnKind};

/// How long a room's clocks wait before looking again when a deadline passes while storage is
/// failing (the time-out or forfeit would have to be written): 250 ms.
const STORAGE_WAIT: Duration = Duration::from_millis(250);

/// How long a finished room stays in the lobby (to be looked at, its page reloaded, its record
/// read by spectators) before it is dropped and its memory freed: 10 minutes.
pub const FINISHED_ROOM_LINGER: Duration = Duration::from_secs(600);

/// How many events a room keeps for snapshots, whatever their audience: twice what a snapshot
/// carries ([`SNAPSHOT_HISTORY`]), so the events meant for one seat (its deployment: one a
/// round) do not shorten what a snapshot can carry.
const HISTORY: usize = 2 * SNAPSHOT_HISTORY;

/// A player as a room sees it: who, and where to send their messages.
#[derive(Debug, Clone)]
pub struct Member {
    /// The player.
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// Their connection.
    pub outbox: Outbox,
}

/// What a room's actor can be asked. The members are boxed: the command queue allocates its
/// slots 32 at a time, each the size of the largest command, for every room, idle or not.
#[derive(Debug)]
enum Command {
    Join {
        member: Box<Member>,
        seat: Option<Seat>,
        req: Option<u64>,
        reply: oneshot::Sender<Result<Seat, ServerError>>,
    },
    Spectate {
        member: Box<Member>,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Attach {
        member: Box<Member>,
    },
    Detach {
        player: PlayerId,
        conn: u64,
    },
    Leave {
        player: PlayerId,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    AddBot {
        by: PlayerId,
        seat: Option<Seat>,
        strategy: Option<String>,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Start {
        by: PlayerId,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Chat {
        player: PlayerId,
        text: String,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Act {
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        action: Action,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Forfeit {
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        cause: ForfeitCause,
        detail: Option<String>,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
}

/// A handle to a room's actor. Methods return [`ServerError::Unavailable`] when the actor is gone;
/// they never hang.
#[derive(Debug, Clone)]
pub struct RoomHandle {
    id: RoomId,
    tx: mpsc::Sender<Command>,
}

impl RoomHandle {
    /// The room's id.
    pub fn id(&self) -> RoomId {
        self.id
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, ServerError>>) -> Command,
    ) -> Result<T, ServerError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| ServerError::Unavailable)?;
        answer.await.map_err(|_| ServerError::Unavailable)?
    }

    /// Seats `member` (in `seat`, or the first free one); the room sends them `seated` (answering
    /// `req`) and a snapshot.
    ///
    /// # Errors
    /// [`ServerError::RoomStarted`], [`ServerError::RoomFull`], [`ServerError::SeatTaken`],
    /// [`ServerError::AlreadySeated`].
    pub async fn join(
        &self,
        member: Member,
        seat: Option<Seat>,
        req: Option<u64>,
    ) -> Result<Seat, ServerError> {
        self.ask(|reply| Command::Join {
            member: Box::new(member),
            seat,
            req,
            reply,
        })
        .await
    }

    /// Adds `member` as a spectator and sends them a snapshot.
    ///
    /// # Errors
    /// [`ServerError::Unavailable`] when the room is gone.
    pub async fn spectate(&self, member: Member) -> Result<(), ServerError> {
        self.ask(|reply| Command::Spectate {
            member: Box::new(member),
            reply,
        })
        .await
    }

    /// Gives a reconnected seated player their connection back, with a fresh snapshot.
    pub async fn attach(&self, member: Member) {
        let _ = self
            .tx
            .send(Command::Attach {
                member: Box::new(member),
            })
            .await;
    }

    /// Tells the room that connection `conn` of `player` closed.
    pub async fn detach(&self, player: PlayerId, conn: u64) {
        let _ = self.tx.send(Command::Detach { player, conn }).await;
    }

    /// Leaves the room (see `leave_room` in the protocol).
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] when the player neither sits nor watches here.
    pub async fn leave(&self, player: PlayerId) -> Result<(), ServerError> {
        self.ask(|reply| Command::Leave { player, reply }).await
    }

    /// Seats a bot (owner only, while waiting).
    ///
    /// # Errors
    /// [`ServerError::NotOwner`], [`ServerError::RoomStarted`], [`ServerError::RoomFull`],
    /// [`ServerError::SeatTaken`], [`ServerError::NoBot`].
    pub async fn add_bot(
        &self,
        by: PlayerId,
        seat: Option<Seat>,
        strategy: Option<String>,
    ) -> Result<(), ServerError> {
        self.ask(|reply| Command::AddBot {
            by,
            seat,
            strategy,
            reply,
        })
        .await
    }

    /// Fills every empty seat with a bot and starts the match (owner only).
    ///
    /// # Errors
    /// [`ServerError::NotOwner`], [`ServerError::RoomStarted`], [`ServerError::NoBot`].
    pub async fn start(&self, by: PlayerId) -> Result<(), ServerError> {
        self.ask(|reply| Command::Start { by, reply }).await
    }

    /// Says `text` in the room's chat that `player` belongs to: the players' chat for a seated
    /// player, the spectators' for a spectator.
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] when the player neither sits nor watches here,
    /// [`ServerError::BadChat`], [`ServerError::ChatTooFast`].
    pub async fn chat(&self, player: PlayerId, text: String) -> Result<(), ServerError> {
        self.ask(|reply| Command::Chat { player, text, reply }).await
    }

    /// Plays `player`'s action in `seat` (or, when absent, in the player's seat whose turn it is),
    /// sent on the connection `conn` ([`Outbox::conn`]): only the connection that holds the seat
    /// now may act in it, not an older one a resume replaced.
    ///
    /// # Errors
    /// [`ServerError::NotSeated`], [`ServerError::NotStarted`], [`ServerError::WrongGame`], or the
    /// rules' refusal ([`ServerError::Rule`]); the game is then unchanged.
    pub async fn act(
        &self,
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        action: Action,
    ) -> Result<(), ServerError> {
        self.ask(|reply| Command::Act {
            player,
            conn,
            seat,
            action,
            reply,
        })
        .await
    }

    /// `player`'s seat `seat` (or its only seat here) gives up the match for `cause`, sent on
    /// the connection `conn`: the seat loses as by resigning, and a tournament books a forfeit by
    /// that cause.
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] (not this connection's seat), [`ServerError::NotStarted`].
    pub async fn forfeit(
        &self,
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        cause: ForfeitCause,
        detail: Option<String>,
    ) -> Result<(), ServerError> {
        self.ask(|reply| Command::Forfeit {
            player,
            conn,
            seat,
            cause,
            detail,
            reply,
        })
        .await
    }
}

/// Who holds a seat.
#[derive(Debug, Clone)]
struct Holder {
    member: Member,
    connected: bool,
    bot: Option<String>,
    /// For a bot that took the seat over, the name of the player it replaced.
    took_over_from: Option<String>,
}

struct Room {
    id: RoomId,
    config: RoomConfig,
    owner: PlayerId,
    status: RoomStatus,
    table: Table,
    seq: u64,
    seats: Vec<Option<Holder>>,
    spectators: HashMap<PlayerId, Member>,
    deadlines: Vec<Option<Instant>>,
    lobby: Lobby,
    /// The room's randomness: the referee's default actions and commitment salts. ChaCha-based,
    /// so salts cannot be predicted, seeded with [`Room::seed`].
    rng: StdRng,
    /// The seed of `rng`, drawn from the operating system and kept in the room's stored record,
    /// so that replaying the room's log draws the same salts and default actions.
    seed: [u8; 32],
    /// Where the room writes its log; `None` while the room is being rebuilt from it.
    journal: Option<Journal>,
    /// Entries written to the log so far.
    logged: u64,
    /// The number of the last journal write the room made ([`Journal::committed`]).
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
    chat: ChatLimiter,
    /// The newest events with their audiences (at most [`HISTORY`]), for snapshots'
    /// [`RoomSnapshot::history`].
    history: VecDeque<(Audience, NumberedEvent)>,
    /// What each seat has left of its game clock ([`skirmish_protocol::Clock::game_ms`]);
    /// `None` without one.
    banks: Vec<Option<Duration>>,
    /// When each seat's current turn began, to charge its game clock.
    turn_started: Vec<Option<Instant>>,
    /// When each dropped seat's grace period ends.
    dropped: Vec<Option<Instant>>,
    /// Set for a tournament match.
    tournament: Option<MatchRoom>,
    /// When a finished room leaves the lobby and ends.
    closes_at: Option<Instant>,
    /// When a room still waiting for its players closes ([`crate::Limits::room_expiry_ms`]);
    /// cleared when its match starts.
    expires_at: Option<Instant>,
}

/// What a tournament match room adds to a room.
struct MatchRoom {
    /// Seed of the dealt deployments (duplicate matches).
    deal: Option<u64>,
    /// How long a dropped seat has to come back before it forfeits.
    grace: Duration,
    /// Every event so far, secret ones included: the match's record.
    log: Vec<GameEvent>,
    /// The seat that forfeited, if one did.
    forfeit: Option<Forfeit>,
    /// Where the result goes.
    report: Option<oneshot::Sender<MatchReport>>,
}

/// How a tournament match room is set up: [`spawn_match`].
#[derive(Debug)]
pub struct MatchSetup {
    /// The room's id: the match's own (its log is found by it after a restart).
    pub id: RoomId,
    /// The bot in each seat ([`restore_match`] ignores them: the log says who sits where).
    pub bots: Vec<BotPick>,
    /// Seed of the dealt deployments (plane battle and junqi duplicate matches); `None`: the
    /// bots deploy for themselves.
    pub deal: Option<u64>,
    /// How long a seat whose bot dropped has to come back before it forfeits.
    pub grace: Duration,
    /// Cancelled to abandon the match (the tournament was cancelled or the server stops).
    pub cancel: CancellationToken,
}

/// A finished match, as its room reports it.
#[derive(Debug, Clone)]
pub struct MatchReport {
    /// The result, with the forfeit if a seat lost by one.
    pub result: MatchResult,
    /// Every event of the match, secret ones included.
    pub events: Vec<GameEvent>,
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
        owner,
        lobby.clone(),
        RoomId::random(),
        rand::rng().random(),
    )?;
    room.expires_at = expiry.map(|e| Instant::now() + e);
    room.open_log(journal);
    Ok(start_room(room, (tx, inbox), &lobby, shutdown))
}

/// Lists `room` in the lobby and starts its actor, which runs until `shutdown`.
fn start_room(room: Room, (tx, inbox): Channel, lobby: &Lobby, shutdown: CancellationToken) -> RoomHandle {
    let handle = RoomHandle { id: room.id, tx };
    lobby.add_room(handle.clone(), room.summary());
    tokio::spawn(
        room.run(inbox, shutdown)
            .instrument(info_span!("room", room = %handle.id)),
    );
    handle
}

/// Rebuilds a room from its stored log (after a restart) and starts its actor, which goes on
/// writing to `journal`. Its players are known to the lobby again, not connected: each gets their
/// seat back by resuming with their token. In a match, each seat has the room's grace period
/// from now to come back, after which the room's [`DropPolicy`] applies. Returns `None` for a
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
        room.expires_at = expiry.map(|e| Instant::now() + e);
    }
    Ok(Some(start_room(room, channel, &lobby, shutdown)))
}

/// The players holding a seat at the end of a stored room's log, with their names and token
/// digests (as the log's `seated` entries give them), whether or not the log replays: whom to
/// tell when it does not ([`Lobby::room_broken`]).
pub fn seat_holders(stored: &StoredRoom) -> Vec<SeatHolder> {
    let mut seats: HashMap<Seat, SeatHolder> = HashMap::new();
    for entry in &stored.entries {
        match entry {
            Entry::Seated {
                seat,
                player,
                name,
                token,
                account,
                ..
            } => {
                let holder = SeatHolder {
                    player: *player,
                    name: name.clone(),
                    token: token.clone(),
                    account: account.clone(),
                };
                seats.insert(*seat, holder);
            }
            Entry::Unseated { seat } => {
                seats.remove(seat);
            }
            _ => {}
        }
    }
    let mut holders: Vec<_> = seats.into_values().collect();
    holders.sort_by_key(|h| h.player);
    holders.dedup_by_key(|h| h.player);
    holders
}

/// Who held a seat in a stored room, as its log says ([`seat_holders`]).
#[derive(Debug, Clone)]
pub struct SeatHolder {
    /// The player.
    pub player: PlayerId,
    /// Their display name.
    pub name: String,
    /// The digest of their resume token.
    pub token: String,
    /// The bot account they are, if any.
    pub account: Option<String>,
}

/// A room's command channel: its sending and receiving ends.
type Channel = (mpsc::Sender<Command>, mpsc::Receiver<Command>);

/// Starts a tournament match: a room owned by no player whose seats are given to `setup.bots` at
/// once and whose match starts at once. A seat that runs out of time, or whose bot stays away
/// longer than the grace period, forfeits (loses) the match. The receiver gets the result when
/// the match is over; it is dropped unanswered when the match is abandoned.
///
/// # Errors
/// [`ServerError::BadConfig`] when the game's config cannot be played, or the bots do not fill
/// the seats.
pub fn spawn_match(
    config: RoomConfig,
    setup: MatchSetup,
    lobby: Lobby,
    journal: Journal,
    shutdown: CancellationToken,
) -> Result<(RoomHandle, oneshot::Receiver<MatchReport>), ServerError> {
    let (mut room, (tx, inbox)) =
        Room::new(config, MATCH_OWNER, lobby.clone(), setup.id, rand::rng().random())?;
    if setup.bots.len() != room.seats.len() {
        return Err(ServerError::BadConfig(format!(
            "{} bots for {} seats",
            setup.bots.len(),
            room.seats.len()
        )));
    }
    let (report, answer) = oneshot::channel();
    room.tournament = Some(MatchRoom {
        deal: setup.deal,
        grace: setup.grace,
        log: Vec::new(),
        forfeit: None,
        report: Some(report),
    });
    room.open_log(journal);
    let handle = RoomHandle { id: room.id, tx };
    lobby.add_room(handle.clone(), room.summary());
    for (i, pick) in setup.bots.into_iter().enumerate() {
        room.seat_bot(Seat(u8::try_from(i).expect("few seats")), pick, None);
    }
    room.start_if_full();
    run_match(room, inbox, &handle, setup.cancel, shutdown);
    Ok((handle, answer))
}

/// Rebuilds a tournament match from its stored log (after a restart) and goes on with it, as
/// [`restore`] does for a room: its bots get their seats back by resuming with their tokens
/// within `setup.grace` of now, or forfeit. The receiver gets the result when the match is over
/// (at once, when the log ends it).
///
/// # Errors
/// As [`restore`].
pub fn restore_match(
    stored: StoredRoom,
    setup: MatchSetup,
    lobby: Lobby,
    journal: Journal,
    shutdown: CancellationToken,
) -> Result<(RoomHandle, oneshot::Receiver<MatchReport>), ServerError> {
    let (report, answer) = oneshot::channel();
    let tournament = MatchRoom {
        deal: setup.deal,
        grace: setup.grace,
        log: Vec::new(),
        forfeit: None,
        report: Some(report),
    };
    let (room, (tx, inbox)) = Room::rebuild(stored, lobby.clone(), journal, Some(tournament))?;
    let handle = RoomHandle { id: room.id, tx };
    if room.status != RoomStatus::Finished {
        lobby.add_room(handle.clone(), room.summary());
        run_match(room, inbox, &handle, setup.cancel, shutdown);
    }
    Ok((handle, answer))
}

/// The owner of tournament match rooms: nobody (the nil id).
pub const MATCH_OWNER: PlayerId = PlayerId(uuid::Uuid::nil());

/// Runs a match room's actor until the match is over, `cancel` abandons it, or the server stops.
fn run_match(
    room: Room,
    inbox: mpsc::Receiver<Command>,
    handle: &RoomHandle,
    cancel: CancellationToken,
    shutdown: CancellationToken,
) {
    let stop = CancellationToken::new();
    {
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = shutdown.cancelled() => {}
                () = cancel.cancelled() => {}
            }
            stop.cancel();
        });
    }
    tokio::spawn(
        room.run(inbox, stop)
            .instrument(info_span!("room", room = %handle.id)),
    );
}

impl Room {
    fn new(
        config: RoomConfig,
        owner: PlayerId,
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
            owner,
            status: RoomStatus::Waiting,
            table,
            seq: 0,
            seats: vec![None; seats],
            spectators: HashMap::new(),
            deadlines: vec![None; seats],
            lobby,
            rng: StdRng::from_seed(seed),
            seed,
            journal: None,
            logged: 0,
            written: 0,
            out: Held::default(),
            commitments: Vec::new(),
            sealed: Vec::new(),
            reveals: Vec::new(),
            history: VecDeque::new(),
            chat: ChatLimiter::default(),
            banks: vec![bank; seats],
            turn_started: vec![None; seats],
            dropped: vec![None; seats],
            tournament: None,
            closes_at: None,
            expires_at: None,
        };
        Ok((room, mpsc::channel(256)))
    }

    /// Records the new room in the journal and writes its log there from now on.
    fn open_log(&mut self, journal: Journal) {
        let created_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        self.written = journal.open(
            StoredRoom {
                id: self.id,
                config: self.config.clone(),
                owner: self.owner,
                seed: self.seed,
                entries: Vec::new(),
                unreadable: None,
            },
            created_ms,
        );
        self.journal = Some(journal);
    }

    /// The room `stored` describes, its log replayed (with `tournament` set for a match), writing
    /// to `journal` from now on. In a match, every seat has the grace period from now to be
    /// taken back. A room whose log ends its match is closed in the journal.
    fn rebuild(
        stored: StoredRoom,
        lobby: Lobby,
        journal: Journal,
        tournament: Option<MatchRoom>,
    ) -> Result<(Room, Channel), ServerError> {
        let (mut room, channel) =
            Room::new(stored.config.clone(), stored.owner, lobby, stored.id, stored.seed)?;
        room.tournament = tournament;
        let entries = stored.entries.len();
        let mut replayed = stored
            .entries
            .iter()
            .cloned()
            .enumerate()
            .try_for_each(|(n, entry)| {
                room.replay(entry)
                    .map_err(|e| format!("entry {n} of the room's log: {e}"))
            });
        if let (Ok(()), Some(unreadable)) = (&replayed, &stored.unreadable) {
            replayed = Err(format!("the room's log after entry {entries}: {unreadable}"));
        }
        // Nobody is connected yet: nothing said while replaying reached anyone.
        room.out.forget_said();
        if let Err(err) = replayed {
            // The seats taken while replaying are not the players' any more.
            for holder in room.seats.iter().flatten() {
                room.lobby.unseated(holder.member.id, room.id);
            }
            return Err(ServerError::BadConfig(err));
        }
        room.logged = u64::try_from(entries).unwrap_or(u64::MAX);
        if room.status == RoomStatus::Finished {
            journal.close(room.id);
            return Ok((room, channel));
        }
        room.journal = Some(journal);
        if room.status == RoomStatus::Playing
            && let Some(grace) = room.grace()
        {
            for (seat, holder) in room.seats.iter().enumerate() {
                if holder.is_some() {
                    room.dropped[seat] = Some(Instant::now() + grace);
                }
            }
        }
        info!(room = %room.id, entries, status = ?room.status, "room restored from its log");
        Ok((room, channel))
    }
}

impl Room {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, shutdown: CancellationToken) {
        info!(config = ?self.config, "room opened");
        loop {
            self.out.let_out(self.written, self.journal.as_ref());
            let next_deadline = self
                .deadlines
                .iter()
                .chain(&self.dropped)
                .flatten()
                .min()
                .copied();
            let on_disk = self.out.on_disk(self.journal.as_ref());
            tokio::select! {
                () = shutdown.cancelled() => break,
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd),
                    None => break,
                },
                () = sleep_until_some(next_deadline) => self.on_deadline(),
                () = on_disk => {}
                () = sleep_until_some(self.closes_at.filter(|_| self.out.is_empty())) => {
                    self.lobby.remove_room(self.id);
                    break;
                }
                () = sleep_until_some(self.expires_at) => {
                    self.expire();
                    break;
                }
            }
        }
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
            Command::Attach { member } => self.attach(*member),
            Command::Detach { player, conn } => self.detach(player, conn),
            Command::Leave { player, reply } => {
                let result = self.leave(player);
                self.out.reply(reply, result);
            }
            Command::AddBot {
                by,
                seat,
                strategy,
                reply,
            } => {
                let result = self
                    .check_owner_waiting(by)
                    .and_then(|()| self.writable())
                    .and_then(|()| self.add_bot(seat, strategy));
                self.out.reply(reply, result);
                self.start_if_full();
            }
            Command::Chat { player, text, reply } => {
                let result = self.chat(player, &text);
                self.out.reply(reply, result);
            }
            Command::Start { by, reply } => {
                let result = self
                    .check_owner_waiting(by)
                    .and_then(|()| self.writable())
                    .and_then(|()| {
                        while self.seats.iter().any(Option::is_none) {
                            self.add_bot(None, None)?;
                        }
                        Ok(())
                    });
                self.out.reply(reply, result);
                self.start_if_full();
            }
            Command::Act {
                player,
                conn,
                seat,
                action,
                reply,
            } => {
                let result = self.act(player, conn, seat, action);
                if let Err(err) = &result {
                    debug!(player = %player, cause = %err, "action refused");
                }
                self.out.reply(reply, result);
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
                    self.forfeit(seat, cause.as_str(), detail);
                    Ok(())
                });
                let _ = reply.send(result);
            }
        }
    }

    fn summary(&self) -> RoomSummary {
        RoomSummary {
            id: self.id,
            owner: self.owner,
            config: self.config.clone(),
            status: self.status,
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, holder)| SeatInfo {
                    seat: Seat(u8::try_from(i).expect("few seats")),
                    occupant: holder.as_ref().map(|h| Occupant {
                        player: h.member.id,
                        name: h.member.name.clone(),
                        bot: h.bot.clone(),
                        connected: h.connected,
                        took_over_from: h.took_over_from.clone(),
                    }),
                })
                .collect(),
            spectators: u32::try_from(self.spectators.len()).unwrap_or(u32::MAX),
        }
    }

    fn publish_summary(&self) {
        self.lobby.update_room(self.summary());
    }

    /// The seats `player` holds here, in seat order (a bot may hold several).
    fn seats_of(&self, player: PlayerId) -> Vec<Seat> {
        Seat::all(self.seats.len())
            .filter(|s| {
                self.seats[s.index()]
                    .as_ref()
                    .is_some_and(|h| h.member.id == player)
            })
            .collect()
    }

    fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats_of(player).first().copied()
    }

    fn snapshot(&self, viewer: Viewer) -> ServerMsg {
        ServerMsg::Room(Box::new(RoomSnapshot {
            room: self.summary(),
            you: match viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            },
            seq: self.seq,
            view: self.table.view(viewer),
            commitments: self.commitments.clone(),
            reveals: self.reveals.clone(),
            history: self.history_for(viewer),
            deadlines_ms: self.deadlines_ms(),
        }))
    }

    /// The newest events `viewer` may see (the engine's audience of each decides), oldest first,
    /// at most [`SNAPSHOT_HISTORY`].
    fn history_for(&self, viewer: Viewer) -> Vec<NumberedEvent> {
        let mut seen: Vec<NumberedEvent> = self
            .history
            .iter()
            .rev()
            .filter(|(audience, _)| audience.includes(viewer))
            .take(SNAPSHOT_HISTORY)
            .map(|(_, event)| event.clone())
            .collect();
        seen.reverse();
        seen
    }

    /// Per seat, the milliseconds left of its current turn; empty unless the match is on.
    fn deadlines_ms(&self) -> Vec<Option<u64>> {
        if self.status != RoomStatus::Playing {
            return Vec::new();
        }
        let now = Instant::now();
        self.deadlines
            .iter()
            .map(|d| {
                d.map(|d| u64::try_from(d.saturating_duration_since(now).as_millis()).unwrap_or(u64::MAX))
            })
            .collect()
    }

    fn send_snapshot(&self, outbox: &Outbox, viewer: Viewer) {
        self.out.say(outbox, self.snapshot(viewer));
    }

    /// Sends every viewer a fresh snapshot (after a change of seats or status).
    fn broadcast_snapshots(&self) {
        for (i, holder) in self.seats.iter().enumerate() {
            if let Some(h) = holder.as_ref().filter(|h| h.connected) {
                self.send_snapshot(
                    &h.member.outbox,
                    Viewer::Seat(Seat(u8::try_from(i).expect("few seats"))),
                );
            }
        }
        if !self.spectators.is_empty() {
            let snapshot = Arc::new(self.snapshot(Viewer::Spectator));
            for member in self.spectators.values() {
                self.out.say_shared(&member.outbox, snapshot.clone());
            }
        }
        self.publish_summary();
    }

    fn free_seat(&self, wanted: Option<Seat>) -> Result<Seat, ServerError> {
        match wanted {
            Some(seat) if self.seats.get(seat.index()).is_some_and(Option::is_none) => Ok(seat),
            Some(_) => Err(ServerError::SeatTaken),
            None => self
                .seats
                .iter()
                .position(Option::is_none)
                .map(|i| Seat(u8::try_from(i).expect("few seats")))
                .ok_or(ServerError::RoomFull),
        }
    }

    fn join(&mut self, member: Member, wanted: Option<Seat>, req: Option<u64>) -> Result<Seat, ServerError> {
        if self.status != RoomStatus::Waiting {
            return Err(ServerError::RoomStarted);
        }
        if self.seat_of(member.id).is_some() {
            return Err(ServerError::AlreadySeated);
        }
        let seat = self.free_seat(wanted)?;
        self.writable()?;
        self.out.say(
            &member.outbox,
            ServerMsg::Seated {
                req,
                room: self.id,
                seat,
                strategy: None,
            },
        );
        self.spectators.remove(&member.id);
        self.lobby.seated(member.id, self.id, seat, None);
        info!(player = %member.id, seat = seat.0, "seated");
        self.record(Entry::Seated {
            seat,
            player: member.id,
            name: member.name.clone(),
            bot: None,
            token: self.lobby.token_digest(member.id).unwrap_or_default(),
            took_over_from: None,
            account: None,
        });
        self.seats[seat.index()] = Some(Holder {
            member,
            connected: true,
            bot: None,
            took_over_from: None,
        });
        self.broadcast_snapshots();
        self.start_if_full();
        Ok(seat)
    }

    fn check_owner_waiting(&self, by: PlayerId) -> Result<(), ServerError> {
        if by != self.owner {
            return Err(ServerError::NotOwner);
        }
        if self.status != RoomStatus::Waiting {
            return Err(ServerError::RoomStarted);
        }
        Ok(())
    }

    fn add_bot(&mut self, wanted: Option<Seat>, strategy: Option<String>) -> Result<(), ServerError> {
        let seat = self.free_seat(wanted)?;
        let here: Vec<PlayerId> = self.seats.iter().flatten().map(|h| h.member.id).collect();
        let game = self.config.game.kind();
        let pick = self
            .lobby
            .pick_any_bot(game, strategy.as_deref(), &here)
            .ok_or_else(|| ServerError::NoBot(strategy.clone().unwrap_or_else(|| format!("{game:?}"))))?;
        self.seat_bot(seat, pick, None);
        Ok(())
    }

    /// Gives `seat` to the bot picked, telling it which strategy to play; `took_over_from` names
    /// the dropped player it replaces mid-match.
    fn seat_bot(&mut self, seat: Seat, pick: BotPick, took_over_from: Option<String>) {
        self.out.say(
            &pick.outbox,
            ServerMsg::Seated {
                req: None,
                room: self.id,
                seat,
                strategy: Some(pick.strategy.clone()),
            },
        );
        self.lobby
            .seated(pick.player, self.id, seat, Some(&pick.strategy));
        info!(bot = %pick.player, seat = seat.0, strategy = %pick.strategy, "bot seated");
        self.record(Entry::Seated {
            seat,
            player: pick.player,
            name: pick.name.clone(),
            bot: Some(pick.strategy.clone()),
            token: self.lobby.token_digest(pick.player).unwrap_or_default(),
            took_over_from: took_over_from.clone(),
            account: self.lobby.account_of(pick.player),
        });
        let member = Member {
            id: pick.player,
            name: pick.name,
            outbox: pick.outbox,
        };
        self.seats[seat.index()] = Some(Holder {
            member,
            connected: true,
            bot: Some(pick.strategy),
            took_over_from,
        });
        self.broadcast_snapshots();
    }

    fn start_if_full(&mut self) {
        if self.status != RoomStatus::Waiting || self.seats.iter().any(Option::is_none) {
            return;
        }
        self.status = RoomStatus::Playing;
        self.expires_at = None;
        self.record(Entry::Started);
        info!("match started");
        let (table, opening) = Table::new(&self.config.game).expect("the config was checked at creation");
        self.table = table;
        self.broadcast_snapshots();
        self.dispatch(opening);
    }

    fn attach(&mut self, member: Member) {
        let seats = self.seats_of(member.id);
        for seat in &seats {
            let holder = self.seats[seat.index()].as_mut().expect("seats_of found it");
            holder.member.outbox = member.outbox.clone();
            holder.connected = true;
            self.dropped[seat.index()] = None;
            info!(player = %member.id, seat = seat.0, "reconnected");
        }
        if !seats.is_empty() {
            self.broadcast_snapshots();
            seats.into_iter().for_each(|seat| self.send_your_turn(seat));
        }
    }

    fn detach(&mut self, player: PlayerId, conn: u64) {
        if self
            .spectators
            .get(&player)
            .is_some_and(|m| m.outbox.conn() == conn)
        {
            self.spectators.remove(&player);
            self.publish_summary();
        }
        let mut changed = false;
        for seat in self.seats_of(player) {
            let holder = self.seats[seat.index()].as_mut().expect("seats_of found it");
            if holder.member.outbox.conn() == conn && holder.connected {
                holder.connected = false;
                info!(player = %player, seat = seat.0, "disconnected");
                changed = true;
                if self.status == RoomStatus::Playing
                    && let Some(grace) = self.grace()
                {
                    self.dropped[seat.index()] = Some(Instant::now() + grace);
                }
            }
        }
        if changed {
            self.broadcast_snapshots();
        }
    }

    fn leave(&mut self, player: PlayerId) -> Result<(), ServerError> {
        let watched = self.spectators.remove(&player).is_some();
        let Some(seat) = self.seat_of(player) else {
            if watched {
                self.publish_summary();
                return Ok(());
            }
            return Err(ServerError::NotSeated);
        };
        if self.status == RoomStatus::Waiting {
            self.writable()?;
            self.seats[seat.index()] = None;
            self.lobby.unseated(player, self.id);
            self.record(Entry::Unseated { seat });
        } else {
            // During a match the seat stays, as after a drop: the clock plays for it, and the
            // room's drop policy applies when the grace period ends.
            self.seats[seat.index()]
                .as_mut()
                .expect("seat_of found it")
                .connected = false;
            if self.status == RoomStatus::Playing
                && let Some(grace) = self.grace()
            {
                self.dropped[seat.index()] = Some(Instant::now() + grace);
            }
        }
        self.broadcast_snapshots();
        Ok(())
    }

    /// The seat `player`'s connection `conn` acts in: `seat` when it holds it, else the one of
    /// its seats here whose turn it is (or its first).
    fn acting_seat(&self, player: PlayerId, conn: u64, seat: Option<Seat>) -> Result<Seat, ServerError> {
        // Only the connection holding the seat now: one that a resume replaced acts no more.
        let held: Vec<Seat> = self
            .seats_of(player)
            .into_iter()
            .filter(|s| {
                self.seats[s.index()]
                    .as_ref()
                    .is_some_and(|h| h.member.outbox.conn() == conn)
            })
            .collect();
        Ok(match seat {
            Some(seat) if held.contains(&seat) => seat,
            Some(_) => return Err(ServerError::NotSeated),
            // A client with several seats here acts in the one whose turn it is.
            None => {
                let to_act = self.table.to_act();
                *held
                    .iter()
                    .find(|s| to_act.contains(s))
                    .or(held.first())
                    .ok_or(ServerError::NotSeated)?
            }
        })
    }

    fn act(
        &mut self,
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        action: Action,
    ) -> Result<(), ServerError> {
        let seat = self.acting_seat(player, conn, seat)?;
        if self.status == RoomStatus::Waiting {
            return Err(ServerError::NotStarted);
        }
        self.writable()?;
        let applied = self.table.apply(seat, action.clone())?;
        let spent_ms = self.charge(seat);
        self.record(Entry::Acted {
            seat,
            action,
            spent_ms,
        });
        self.dispatch(applied);
        Ok(())
    }

    /// Takes the time `seat` spent on its turn off its game clock; returns it, in milliseconds.
    fn charge(&mut self, seat: Seat) -> u64 {
        let spent = self.turn_started[seat.index()]
            .take()
            .map(|started| u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        if let Some(spent) = spent {
            self.charge_ms(seat, spent);
        }
        spent.unwrap_or(0)
    }

    /// Takes `ms` milliseconds off `seat`'s game clock.
    fn charge_ms(&mut self, seat: Seat, ms: u64) {
        self.turn_started[seat.index()] = None;
        if let Some(bank) = self.banks[seat.index()].as_mut() {
            *bank = bank.saturating_sub(Duration::from_millis(ms));
        }
    }

    /// Writes `entry` to the room's log.
    fn record(&mut self, entry: Entry) {
        if let Some(journal) = &self.journal {
            self.written = journal.append(self.id, self.logged, entry);
            self.logged += 1;
        }
    }

    /// `Ok` unless storage is failing: what would write to the log is refused then.
    fn writable(&self) -> Result<(), ServerError> {
        match &self.journal {
            Some(journal) if !journal.available() => Err(ServerError::StorageUnavailable),
            _ => Ok(()),
        }
    }

    /// How long a dropped seat waits for its player: the tournament's grace period, or the
    /// room's drop policy's; `None` when the seat waits for the rest of the match.
    fn grace(&self) -> Option<Duration> {
        match &self.tournament {
            Some(m) => Some(m.grace),
            None => {
                let policy: DropPolicy = self.config.on_drop();
                (policy.then != AfterGrace::Wait).then(|| Duration::from_millis(policy.grace_ms))
            }
        }
    }

    /// A dropped seat's grace period ran out: the room's policy applies (a tournament match's
    /// seat always forfeits).
    fn grace_over(&mut self, seat: Seat) {
        if self.status != RoomStatus::Playing || self.seats[seat.index()].as_ref().is_none_or(|h| h.connected)
        {
            return;
        }
        if self.tournament.is_none() && self.config.on_drop().then == AfterGrace::Bot && self.take_over(seat)
        {
            return;
        }
        self.forfeit(seat, forfeit_reasons::DISCONNECTED, None);
    }

    /// A bot takes `seat` over from its dropped player and plays the match out; `false` when no
    /// bot is connected that plays the game.
    fn take_over(&mut self, seat: Seat) -> bool {
        let here: Vec<PlayerId> = self.seats.iter().flatten().map(|h| h.member.id).collect();
        let Some(pick) = self.lobby.pick_any_bot(self.config.game.kind(), None, &here) else {
            return false;
        };
        let Some(dropped) = self.seats[seat.index()].take() else {
            return false;
        };
        info!(seat = seat.0, player = %dropped.member.id, bot = %pick.player, "a bot takes the seat over");
        self.lobby.unseated_from(dropped.member.id, self.id, seat);
        self.seat_bot(seat, pick, Some(dropped.member.name));
        self.send_your_turn(seat);
        true
    }

    /// Applies one entry of the room's stored log, as the room did when it was written.
    fn replay(&mut self, entry: Entry) -> Result<(), String> {
        let seats = self.seats.len();
        let check = |seat: Seat| {
            if seat.index() < seats {
                Ok(())
            } else {
                Err(format!("seat {} in a room of {seats}", seat.0))
            }
        };
        match entry {
            Entry::Seated {
                seat,
                player,
                name,
                bot,
                token,
                took_over_from,
                account,
            } => {
                check(seat)?;
                if let Some(old) = self.seats[seat.index()].take() {
                    self.lobby.unseated_from(old.member.id, self.id, seat);
                }
                self.lobby
                    .restore_player(player, &name, &token, account.as_deref());
                self.lobby.seated(player, self.id, seat, bot.as_deref());
                self.seats[seat.index()] = Some(Holder {
                    member: Member {
                        id: player,
                        name,
                        outbox: Outbox::closed(),
                    },
                    connected: false,
                    bot,
                    took_over_from,
                });
            }
            Entry::Unseated { seat } => {
                check(seat)?;
                if let Some(old) = self.seats[seat.index()].take() {
                    self.lobby.unseated_from(old.member.id, self.id, seat);
                }
            }
            Entry::Started => {
                self.start_if_full();
                if self.status == RoomStatus::Waiting {
                    return Err("started with a seat empty".to_owned());
                }
            }
            Entry::Acted {
                seat,
                action,
                spent_ms,
            } => {
                check(seat)?;
                let applied = self.table.apply(seat, action).map_err(|e| e.to_string())?;
                self.charge_ms(seat, spent_ms);
                self.dispatch(applied);
            }
            Entry::TimedOut { seat, spent_ms } => {
                check(seat)?;
                self.charge_ms(seat, spent_ms);
                let applied = self.table.time_out(seat, &mut self.rng);
                self.dispatch(applied);
            }
            Entry::Forfeited { seat, reason, detail } => {
                check(seat)?;
                self.forfeit(seat, &reason, detail);
            }
        }
        Ok(())
    }

    /// `seat` loses the match without playing it out (a tournament's forfeit), for `reason` (one
    /// of [`skirmish_protocol::tournament::forfeit_reasons`]); `detail` says more, for people.
    fn forfeit(&mut self, seat: Seat, reason: &str, detail: Option<String>) {
        if self.status != RoomStatus::Playing {
            return;
        }
        let detail = detail.map(|d| clean_detail(&d)).filter(|d| !d.is_empty());
        info!(
            seat = seat.0,
            reason,
            detail = detail.as_deref().unwrap_or(""),
            "forfeit"
        );
        self.record(Entry::Forfeited {
            seat,
            reason: reason.to_owned(),
            detail: detail.clone(),
        });
        // The game's resignation says the cause first, then the detail: the whole end reason.
        let said = match &detail {
            Some(detail) => clean_detail(&format!("{reason}: {detail}")),
            None => reason.to_owned(),
        };
        if let Some(m) = self.tournament.as_mut() {
            m.forfeit = Some(Forfeit {
                seat,
                reason: reason.to_owned(),
                detail,
            });
        }
        let applied = self.table.resign(seat, &said);
        self.dispatch(applied);
    }

    fn on_deadline(&mut self) {
        let now = Instant::now();
        if self.writable().is_err() {
            // A time-out or forfeit would have to be written: the clocks wait for storage.
            for deadline in self.deadlines.iter_mut().chain(self.dropped.iter_mut()).flatten() {
                if *deadline <= now {
                    *deadline = now + STORAGE_WAIT;
                }
            }
            return;
        }
        for seat in Seat::all(self.seats.len()) {
            if self.dropped[seat.index()].is_some_and(|d| d <= now) {
                self.dropped[seat.index()] = None;
                self.grace_over(seat);
            }
            if self.deadlines[seat.index()].is_some_and(|d| d <= now) {
                self.deadlines[seat.index()] = None;
                if self.table.to_act().contains(&seat) {
                    info!(seat = seat.0, "time ran out");
                    let spent_ms = self.charge(seat);
                    let bank_empty = self.banks[seat.index()].is_some_and(|b| b.is_zero());
                    if bank_empty || self.tournament.is_some() {
                        self.forfeit(seat, forfeit_reasons::TIMED_OUT, None);
                    } else {
                        self.record(Entry::TimedOut { seat, spent_ms });
                        let applied = self.table.time_out(seat, &mut self.rng);
                        self.dispatch(applied);
                    }
                }
            }
        }
    }

    /// Relays a chat line to the members of the speaker's chat only: seated players hear seated
    /// players, spectators hear spectators. The name is the room's record of the speaker.
    fn chat(&mut self, player: PlayerId, text: &str) -> Result<(), ServerError> {
        let (channel, seat, name) = if let Some(seat) = self.seat_of(player) {
            let holder = self.seats[seat.index()].as_ref().ok_or(ServerError::NotSeated)?;
            (ChatChannel::Players, Some(seat), holder.member.name.clone())
        } else if let Some(member) = self.spectators.get(&player) {
            (ChatChannel::Spectators, None, member.name.clone())
        } else {
            return Err(ServerError::NotSeated);
        };
        let text = clean_line(text)?;
        self.chat.allow(player, Instant::now())?;
        let msg = Arc::new(ServerMsg::Chat {
            room: self.id,
            channel,
            seat,
            name,
            text,
        });
        match channel {
            ChatChannel::Players => {
                for holder in self.seats.iter().flatten().filter(|h| h.connected) {
                    self.out.say_shared(&holder.member.outbox, msg.clone());
                }
            }
            ChatChannel::Spectators => {
                for member in self.spectators.values() {
                    self.out.say_shared(&member.outbox, msg.clone());
                }
            }
        }
        Ok(())
    }

    /// Sends `msg` to every connected seat and spectator.
    fn broadcast(&self, msg: ServerMsg) {
        let msg = Arc::new(msg);
        let seated = self
            .seats
            .iter()
            .flatten()
            .filter(|h| h.connected)
            .map(|h| &h.member);
        for member in seated.chain(self.spectators.values()) {
            self.out.say_shared(&member.outbox, msg.clone());
        }
    }

    /// Commits to `seat`'s deployment of `round` (see [`skirmish_protocol::commitment`]).
    fn commit(&mut self, seat: Seat, round: u32, deployment: String) {
        let (commitment, reveal) = Reveal::seal(seat, round, deployment, &mut self.rng);
        self.commitments.push(commitment.clone());
        self.sealed.push(reveal);
        self.broadcast(ServerMsg::Commitment {
            room: self.id,
            commitment,
        });
    }

    /// Opens every commitment of `round`, which the game has just revealed.
    fn reveal(&mut self, round: u32) {
        let (now, later) = std::mem::take(&mut self.sealed)
            .into_iter()
            .partition(|r| r.round == round);
        self.sealed = later;
        for reveal in now {
            self.reveals.push(reveal.clone());
            self.broadcast(ServerMsg::Reveal {
                room: self.id,
                reveal,
            });
        }
    }

    /// Sends each event to the viewers its audience includes, commits to and reveals
    /// deployments, then updates the clock.
    fn dispatch(&mut self, applied: Applied) {
        let mut sealed = applied.sealed.into_iter().peekable();
        for (index, (audience, event)) in applied.events.into_iter().enumerate() {
            if let Some(m) = self.tournament.as_mut() {
                m.log.push(event.clone());
            }
            self.seq += 1;
            if self.history.len() == HISTORY {
                self.history.pop_front();
            }
            self.history.push_back((
                audience,
                NumberedEvent {
                    seq: self.seq,
                    event: event.clone(),
                },
            ));
            let msg = Arc::new(ServerMsg::Event {
                room: self.id,
                seq: self.seq,
                event,
            });
            for (i, holder) in self.seats.iter().enumerate() {
                let viewer = Viewer::Seat(Seat(u8::try_from(i).expect("few seats")));
                if let Some(h) = holder
                    .as_ref()
                    .filter(|h| h.connected && audience.includes(viewer))
                {
                    self.out.say_shared(&h.member.outbox, msg.clone());
                }
            }
            if audience == Audience::Everyone {
                for member in self.spectators.values() {
                    self.out.say_shared(&member.outbox, msg.clone());
                }
            }
            while let Some((_, seat, round, deployment)) = sealed.next_if(|s| s.0 == index) {
                self.commit(seat, round, deployment);
            }
            if let Some((_, round)) = applied.revealed.filter(|r| r.0 == index) {
                self.reveal(round);
            }
        }
        if self.table.is_over() {
            self.finish();
            return;
        }
        // Duplicate matches: the referee deploys for each seat from the deal, one at a time.
        if let Some(seed) = self.tournament.as_ref().and_then(|m| m.deal)
            && let Some(dealt) = self
                .table
                .to_act()
                .into_iter()
                .find_map(|seat| self.table.deal(seat, seed))
        {
            self.dispatch(dealt);
            return;
        }
        let to_act = self.table.to_act();
        let now = Instant::now();
        for seat in Seat::all(self.seats.len()) {
            if !to_act.contains(&seat) {
                self.deadlines[seat.index()] = None;
                self.turn_started[seat.index()] = None;
            } else if applied.new_turn {
                let bank = self.banks[seat.index()];
                let limit = match (self.limit().map(Duration::from_millis), bank) {
                    (Some(limit), Some(bank)) => Some(limit.min(bank)),
                    (limit, bank) => limit.or(bank),
                };
                self.deadlines[seat.index()] = limit.map(|limit| now + limit);
                self.turn_started[seat.index()] = Some(now);
                self.send_your_turn(seat);
            }
        }
    }

    /// The time limit for the current turn kind, in milliseconds; `None` for no limit.
    fn limit(&self) -> Option<u64> {
        let ms = match self.table.turn_kind() {
            TurnKind::Deploy => self.config.clock().deploy_ms,
            TurnKind::Move => self.config.clock().move_ms,
        };
        (ms > 0).then_some(ms)
    }

    fn send_your_turn(&self, seat: Seat) {
        if !self.table.to_act().contains(&seat) || self.status != RoomStatus::Playing {
            return;
        }
        if let Some(h) = self.seats[seat.index()].as_ref().filter(|h| h.connected) {
            let deadline_ms = self.deadlines[seat.index()].map(|d| {
                u64::try_from(d.saturating_duration_since(Instant::now()).as_millis()).unwrap_or(u64::MAX)
            });
            self.out.say(
                &h.member.outbox,
                ServerMsg::YourTurn {
                    room: self.id,
                    seat,
                    deadline_ms,
                    view: self.table.view(Viewer::Seat(seat)),
                },
            );
        }
    }

    /// Closes a room whose match never started, at its expiry: tells its owner and everyone in
    /// it (`room_closed` with `room_expired`), frees its seats, deletes it from the journal and
    /// takes it out of the lobby. Waiting rooms were never bounded in time (issue 16, finding 2:
    /// 2,000 rooms made in 9 s stayed listed and stored for good).
    fn expire(&mut self) {
        info!("room expired before its match started");
        let notice = ServerMsg::RoomClosed {
            room: self.id,
            code: skirmish_protocol::codes::ROOM_EXPIRED.to_owned(),
            message: "the room waited too long for its players and is closed; create another".to_owned(),
        };
        let mut told = std::collections::HashSet::new();
        for holder in self.seats.iter().flatten() {
            if told.insert(holder.member.id) {
                holder.member.outbox.send(notice.clone());
            }
            self.lobby.unseated(holder.member.id, self.id);
        }
        for (id, member) in &self.spectators {
            if told.insert(*id) {
                member.outbox.send(notice.clone());
            }
        }
        if told.insert(self.owner)
            && let Some(outbox) = self.lobby.outbox_of(self.owner)
        {
            outbox.send(notice);
        }
        if let Some(journal) = &self.journal {
            journal.discard(self.id);
        }
        self.lobby.remove_room(self.id);
    }

    fn finish(&mut self) {
        self.status = RoomStatus::Finished;
        self.deadlines.iter_mut().for_each(|d| *d = None);
        for holder in self.seats.iter().flatten() {
            self.lobby.unseated(holder.member.id, self.id);
        }
        self.dropped.iter_mut().for_each(|d| *d = None);
        self.closes_at = Some(Instant::now() + FINISHED_ROOM_LINGER);
        // Whatever the game has not revealed yet (a match ended mid-round) is no secret now.
        let rounds: Vec<u32> = self.sealed.iter().map(|r| r.round).collect();
        for round in rounds {
            self.reveal(round);
        }
        info!("match finished");
        if let Some(journal) = &self.journal {
            self.written = journal.close(self.id);
        }
        self.publish_summary();
        if let Some(m) = self.tournament.as_mut()
            && let Some(report) = m.report.take()
            && let Some(mut result) = self.table.result()
        {
            if let Some(forfeit) = m.forfeit.take() {
                result.end = "forfeit".to_owned();
                result.forfeit = Some(forfeit);
            }
            let _ = report.send(MatchReport {
                result,
                events: std::mem::take(&mut m.log),
            });
        }
    }
}

/// A forfeit's detail as kept and shown: what a name may not carry dropped
/// ([`skirmish_protocol::clean_name`]: control characters and bidirectional overrides), at most
/// [`skirmish_games::gomoku::MAX_REASON_BYTES`] (200) bytes, the most a game's resignation reason
/// may have, cut at a character boundary.
fn clean_detail(text: &str) -> String {
    let mut clean = skirmish_protocol::clean_name(text);
    let max = skirmish_games::gomoku::MAX_REASON_BYTES.min(skirmish_games::junqi::MAX_REASON_BYTES);
    if clean.len() > max {
        let mut end = max;
        while !clean.is_char_boundary(end) {
            end -= 1;
        }
        clean.truncate(end);
    }
    clean.trim_end().to_owned()
}

async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::clean_detail;

    #[test]
    fn a_forfeit_detail_loses_hidden_characters_and_is_bounded() {
        assert_eq!(clean_detail(" crashed\n\u{1b}[31m \u{202E}x "), "crashed[31m x");
        let long = clean_detail(&"é".repeat(500));
        assert!(long.len() <= 200 && long.chars().all(|c| c == 'é'), "{long}");
    }
}
