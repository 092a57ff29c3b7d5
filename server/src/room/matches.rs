//! Tournament match rooms: a room owned by no player, its seats given to the scheduled bots, its
//! result reported to the tournament ([`crate::tournament`]).

use std::time::Duration;

use rand::Rng;
use skirmish_protocol::tournament::{Forfeit, MatchResult};
use skirmish_protocol::{GameEvent, PlayerId, RoomConfig, RoomId, RoomStatus};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, info_span};

use super::{Command, Kind, Room, RoomHandle};
use crate::error::ServerError;
use crate::journal::Journal;
use crate::lobby::{BotPick, Lobby};
use crate::store::StoredRoom;

/// What a tournament match room adds to a room.
pub(super) struct MatchRoom {
    /// Seed of the dealt deployments (duplicate matches).
    pub(super) deal: Option<u64>,
    /// How long a dropped seat has to come back before it forfeits.
    pub(super) grace: Duration,
    /// Every event so far, secret ones included: the match's record.
    pub(super) log: Vec<GameEvent>,
    /// The seat that forfeited, if one did.
    pub(super) forfeit: Option<Forfeit>,
    /// Where the result goes.
    pub(super) report: Option<oneshot::Sender<MatchReport>>,
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
    let tournament = MatchRoom {
        deal: setup.deal,
        grace: setup.grace,
        log: Vec::new(),
        forfeit: None,
        report: None,
    };
    let (mut room, (tx, inbox)) = Room::new(
        config,
        Kind::Match(tournament),
        lobby.clone(),
        setup.id,
        rand::rng().random(),
    )?;
    if setup.bots.len() != room.seats.len() {
        return Err(ServerError::BadConfig(format!(
            "{} bots for {} seats",
            setup.bots.len(),
            room.seats.len()
        )));
    }
    let (report, answer) = oneshot::channel();
    if let Some(m) = room.kind.tournament_mut() {
        m.report = Some(report);
    }
    room.open_log(journal);
    let handle = RoomHandle { id: room.id, tx };
    lobby.add_room(handle.clone(), room.summary());
    // In a cluster, a bot connected to another node is seated only once the room is in the
    // shared directory: its node must find the room when the bot acts there, or the bot would
    // be refused `no_such_room` and lose on time for the server's fault (docs/cluster.md).
    let known = lobby
        .replica()
        .filter(|_| setup.bots.iter().any(|b| b.outbox.node().is_some()))
        .map(|replica| replica.room_known(room.id, DIRECTORY_WAIT));
    let bots = setup.bots;
    run_match(
        room,
        inbox,
        &handle,
        setup.cancel,
        shutdown,
        Box::new(move |room: &mut Room| {
            for (seat, pick) in room.seats.seats().zip(bots) {
                room.seat_bot(seat, pick, None);
            }
            room.start_if_full();
        }),
        known,
    );
    Ok((handle, answer))
}

/// How long a match room made in a cluster waits for its directory entry before seating bots
/// of other nodes anyway (5 s: the directory's writer puts it within milliseconds while the bus
/// answers).
const DIRECTORY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Rebuilds a tournament match from its stored log (after a restart) and goes on with it, as
/// [`restore`](super::restore) does for a room: its bots get their seats back by resuming with their tokens
/// within `setup.grace` of now, or forfeit. The receiver gets the result when the match is over
/// (at once, when the log ends it).
///
/// # Errors
/// As [`restore`](super::restore).
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
        run_match(
            room,
            inbox,
            &handle,
            setup.cancel,
            shutdown,
            Box::new(|_: &mut Room| {}),
            None,
        );
    }
    Ok((handle, answer))
}

/// The owner of tournament match rooms: nobody (the nil id).
pub const MATCH_OWNER: PlayerId = PlayerId(uuid::Uuid::nil());

/// Runs a match room's actor until the match is over, `cancel` abandons it, or the server stops.
fn run_match(
    room: Room,
    inbox: mpsc::Receiver<Box<Command>>,
    handle: &RoomHandle,
    cancel: CancellationToken,
    shutdown: CancellationToken,
    first: Box<dyn FnOnce(&mut Room) + Send>,
    known: Option<futures_util::future::BoxFuture<'static, bool>>,
) {
    {
        let handle = handle.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = shutdown.cancelled() => {}
                () = handle.gone() => {}
                () = cancel.cancelled() => handle.abandon().await,
            }
        });
    }
    tokio::spawn(
        async move {
            if let Some(known) = known {
                known.await;
            }
            let mut room = Box::new(room);
            first(&mut room);
            room.run(inbox, shutdown).await;
        }
        .instrument(info_span!("room", room = %handle.id)),
    );
}
