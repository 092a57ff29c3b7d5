//! The standing rated ladders (docs/ladder.md): one per game and variant
//! ([`skirmish_protocol::ladder::LadderId`]), each an actor (`ladder::actor`) that pairs the bot
//! accounts waiting in it, plays their games with the tournaments' machinery (match rooms that
//! seat account bots, forfeits by cause, duplicate deals under the never-twice rule, sealing,
//! logs that let a game go on after a restart), and rates every result ([`rating`]).
//!
//! A bot account joins ladders with its `hello` (`ladder`: a list of ids; only with the
//! account's token, [`ladders_of`]); every strategy it offers for a ladder's game is an entrant
//! there, with the version its offer declares, so a new version starts afresh. [`Ladders`] is the
//! directory the sessions and the HTTP API (`ladder::api`) talk to.
//!
//! In a cluster each ladder runs on one node at a time, under a lease in the cluster's directory
//! as a tournament's (`crate::cluster`): [`Ladders::adopt`] when this node wins it,
//! [`Ladders::release`] when it finds the lease names another node. Who plays in which ladder
//! is shared through the directory ([`Shared`]), so the running node seats bots connected to
//! any node; the other nodes read the ladder's table from the store (docs/cluster.md).

pub(crate) mod actor;
pub(crate) mod api;
pub mod rating;
mod table;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use skirmish_protocol::ladder::{LadderId, LadderStatus, LadderSummary, MAX_LADDERS_PER_HELLO};
use skirmish_protocol::{GameConfig, RoomId, gomoku, plane, tic_tac_toe};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{Instrument, info, info_span};

use crate::error::ServerError;
use crate::journal::Journal;
use crate::lobby::Lobby;
use crate::store::{Store, StoreError, StoredRoom};

/// The rounds of a ladder's plane battle game: 6 (a tournament's default is 18): a ladder rates
/// many short games rather than a few long ones, and a game of six rounds still lets each seat
/// attack first twice.
pub const LADDER_PLANE_ROUNDS: u32 = 6;

/// The game and settings ladder `id` plays.
pub fn game_of(id: LadderId) -> GameConfig {
    let plane = |players| {
        GameConfig::Plane(plane::Config {
            players,
            format: plane::MatchFormat::Rounds(LADDER_PLANE_ROUNDS),
            ..plane::Config::default()
        })
    };
    match id {
        LadderId::Plane2 => plane(2),
        LadderId::Plane3 => plane(3),
        LadderId::GomokuFreestyle => GameConfig::Gomoku(gomoku::Config::default()),
        LadderId::GomokuRenju => GameConfig::Gomoku(gomoku::Config {
            rule: gomoku::Rule::Renju,
            ..gomoku::Config::default()
        }),
        LadderId::Junqi => GameConfig::Junqi(skirmish_protocol::junqi::Config::default()),
        LadderId::TicTacToe => GameConfig::TicTacToe(tic_tac_toe::Config::default()),
    }
}

/// The ladders a `hello` names, checked: only a bot account (`account`) may name any, each
/// must be one of [`LadderId::ALL`], at most [`MAX_LADDERS_PER_HELLO`], and a name said twice
/// counts once.
///
/// # Errors
/// [`ServerError::LadderNeedsAccount`] without an account; [`ServerError::NoSuchLadder`] for an
/// unknown id or too many.
pub fn ladders_of(names: &[String], account: Option<&str>) -> Result<Vec<LadderId>, ServerError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    if account.is_none() {
        return Err(ServerError::LadderNeedsAccount);
    }
    if names.len() > MAX_LADDERS_PER_HELLO {
        return Err(ServerError::NoSuchLadder(format!(
            "a hello names at most {MAX_LADDERS_PER_HELLO} ladders"
        )));
    }
    let mut ladders = Vec::new();
    for name in names {
        let id: LadderId = name.parse().map_err(|_| {
            let known: Vec<&str> = LadderId::ALL.iter().map(|l| l.as_str()).collect();
            let shown: String = name.chars().take(32).collect();
            ServerError::NoSuchLadder(format!("no ladder is called `{shown}`: {}", known.join(", ")))
        })?;
        if !ladders.contains(&id) {
            ladders.push(id);
        }
    }
    Ok(ladders)
}

/// What a node of a cluster shares of the ladders with the other nodes, implemented on the
/// cluster's directory (`crate::cluster`): who plays in which ladder, whichever node their
/// `hello` came to, and which node holds each ladder's lease. Methods must not wait (what goes
/// to the bus is queued) and must not call the ladders back.
pub trait Shared: Send + Sync {
    /// Publishes that bot account `account` plays in `ladders` (empty: in none), from its
    /// latest `hello` on this node (at most [`MAX_LADDERS_PER_HELLO`], checked by
    /// [`ladders_of`]).
    fn joined(&self, account: &str, ladders: &[LadderId]);
    /// The bot accounts in ladder `id`, by account name, whichever node they said hello to.
    fn members(&self, id: LadderId) -> HashSet<String>;
    /// The id of the node holding ladder `id`'s lease now, if any.
    fn runner(&self, id: LadderId) -> Option<String>;
}

/// The ladders each bot account asked for in its last `hello`, by account name: this node's
/// own record on a single server, the cluster's directory ([`Shared`]) on a node of a cluster.
/// One entry per account (accounts are made only with the admin key), so its size is bounded
/// by the accounts.
#[derive(Clone, Default)]
pub(crate) struct Members {
    /// A std `Mutex`: held only to read or replace an entry, never across `.await`.
    local: Arc<Mutex<HashMap<String, HashSet<LadderId>>>>,
    shared: Option<Arc<dyn Shared>>,
}

impl Members {
    /// Sets the ladders of `account` (empty: none).
    fn set(&self, account: &str, ladders: Vec<LadderId>) {
        if let Some(shared) = &self.shared {
            shared.joined(account, &ladders);
            return;
        }
        let mut members = self.local.lock().expect("not poisoned");
        if ladders.is_empty() {
            members.remove(account);
        } else {
            members.insert(account.to_owned(), ladders.into_iter().collect());
        }
    }

    /// The accounts in ladder `id`.
    pub(crate) fn of(&self, id: LadderId) -> HashSet<String> {
        if let Some(shared) = &self.shared {
            return shared.members(id);
        }
        self.local
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|(_, ladders)| ladders.contains(&id))
            .map(|(account, _)| account.clone())
            .collect()
    }
}

/// The ladders' options ([`crate::Limits`]'s `ladder_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LadderOptions {
    /// The most games one pair of accounts plays on a ladder in any 24 hours.
    pub pair_games_per_day: u32,
    /// The most games a ladder plays at once.
    pub concurrent: u32,
    /// Games lost in a row by an engine failure or a clock running out that pause an entrant.
    pub pause_after: u32,
    /// How long a paused entrant waits before it is paired again, in milliseconds.
    pub cooldown_ms: u64,
    /// Each move's time, in milliseconds.
    pub move_ms: u64,
    /// Each deployment's time (plane battle, junqi), in milliseconds.
    pub deploy_ms: u64,
    /// How long a seat whose bot dropped has to come back, in milliseconds.
    pub grace_ms: u64,
}

/// How often a node of a cluster reads again from the store the tables of the ladders another
/// node runs (1 s: about as often as the running node publishes its own, every pairing).
pub const REFRESH: Duration = Duration::from_secs(1);

/// How long a graceful stop waits for this node's ladders to store what they were doing (5 s:
/// an actor's last write is one transaction).
pub const STOP_WAIT: Duration = Duration::from_secs(5);

/// One ladder's table, and its actor while this node runs it.
struct Board {
    index: usize,
    status: watch::Sender<LadderStatus>,
    /// Stops the actor; `None` while this node does not run the ladder. A std `Mutex`: held
    /// only to read or replace it.
    running: Mutex<Option<CancellationToken>>,
}

/// Every ladder of this server. Cheap to clone.
#[derive(Clone)]
pub struct Ladders {
    members: Members,
    boards: Arc<HashMap<LadderId, Board>>,
    start: Arc<LadderStart>,
    /// The actors running here, awaited by a graceful stop ([`Ladders::stopped`]).
    tasks: TaskTracker,
}

impl std::fmt::Debug for Ladders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ladders").finish_non_exhaustive()
    }
}

/// What the ladders need to start.
pub(crate) struct LadderStart {
    /// The database.
    pub(crate) store: Store,
    /// The lobby, to find the entrants' connections.
    pub(crate) lobby: Lobby,
    /// Where game rooms write their logs.
    pub(crate) journal: Journal,
    /// Cancelled when the server stops.
    pub(crate) shutdown: CancellationToken,
    /// The map of sealed matches the tournaments share ([`crate::tournament::Tournaments`]).
    pub(crate) sealed: crate::tournament::SealedMap,
    /// The options.
    pub(crate) options: LadderOptions,
}

impl Ladders {
    /// Takes out of `rooms` (the match rooms the journal holds open) those of ladder games
    /// stored as running: they go on when the ladders start; the rest are
    /// returned, for the tournaments.
    ///
    /// # Errors
    /// A storage error reading the running games.
    pub async fn own_logs(
        store: &Store,
        rooms: Vec<StoredRoom>,
    ) -> Result<(HashMap<RoomId, StoredRoom>, Vec<StoredRoom>), StoreError> {
        let mut running = HashSet::new();
        for id in LadderId::ALL {
            for game in store.running_ladder_games(id).await? {
                running.insert(RoomId(game.id.0));
            }
        }
        let (ours, rest): (Vec<_>, Vec<_>) = rooms.into_iter().partition(|r| running.contains(&r.id));
        Ok((ours.into_iter().map(|r| (r.id, r)).collect(), rest))
    }

    /// Starts the ladders. On a single server (`shared` is `None`) every ladder's actor
    /// starts, its games cut off by a stop going on from `logs` or, without a log, void. On a
    /// node of a cluster none starts here: each runs where its lease is won
    /// ([`Ladders::adopt`], called by `crate::cluster`), `logs` are left to that node, and the
    /// tables of the ladders other nodes run are read from the store every [`REFRESH`].
    ///
    /// # Errors
    /// A storage error reading a ladder.
    pub(crate) async fn start(
        start: LadderStart,
        mut logs: HashMap<RoomId, StoredRoom>,
        shared: Option<Arc<dyn Shared>>,
    ) -> Result<Ladders, StoreError> {
        let clustered = shared.is_some();
        let members = Members {
            local: Arc::default(),
            shared,
        };
        let mut boards = HashMap::new();
        let mut actors = Vec::new();
        for (index, id) in LadderId::ALL.into_iter().enumerate() {
            let status = if clustered {
                table::stored_status(id, &start.store, &start.lobby, &members).await?
            } else {
                let actor = actor::Actor::load(id, index, &start, members.clone(), &mut logs).await?;
                let status = actor.status();
                actors.push(actor);
                status
            };
            boards.insert(
                id,
                Board {
                    index,
                    status: watch::Sender::new(status),
                    running: Mutex::new(None),
                },
            );
        }
        if !clustered {
            for (id, _) in logs {
                // A ladder game's log whose game is not running: nothing goes on with it.
                start.journal.close(id);
            }
        }
        let ladders = Ladders {
            members,
            boards: Arc::new(boards),
            start: Arc::new(start),
            tasks: TaskTracker::new(),
        };
        for actor in actors {
            ladders.run_here(actor);
        }
        if clustered {
            tokio::spawn(ladders.clone().refresh());
        }
        Ok(ladders)
    }

    /// Starts every ladder, with no games cut off by a stop to go
    /// on with (a fresh server, or one whose logs were read already), sharing the tournaments'
    /// sealed matches.
    ///
    /// # Errors
    /// A storage error reading a ladder.
    pub async fn open(
        store: Store,
        lobby: Lobby,
        journal: Journal,
        shutdown: CancellationToken,
        tournaments: &crate::tournament::Tournaments,
        options: LadderOptions,
    ) -> Result<Ladders, StoreError> {
        let start = LadderStart {
            store,
            lobby,
            journal,
            shutdown,
            sealed: tournaments.sealed_map(),
            options,
        };
        Ladders::start(start, HashMap::new(), None).await
    }

    /// Runs `actor` on this node until the server stops or [`Ladders::release`].
    fn run_here(&self, actor: actor::Actor) {
        let id = actor.id();
        let Some(board) = self.boards.get(&id) else {
            return;
        };
        let stop = self.start.shutdown.child_token();
        *board.running.lock().expect("not poisoned") = Some(stop.clone());
        let boards = Arc::clone(&self.boards);
        self.tasks.spawn(
            async move {
                let board = &boards[&id];
                actor.run(&board.status, stop.clone()).await;
                let mut running = board.running.lock().expect("not poisoned");
                if running.as_ref().is_some_and(CancellationToken::is_cancelled) {
                    *running = None;
                }
            }
            .instrument(info_span!("ladder", ladder = %id)),
        );
    }

    /// Takes ladder `id` over on this node of a cluster, once its lease is won: it is loaded
    /// from the store and goes on here, its games cut off by the loss of their node going on
    /// from their logs in the shared journal (or, without one, void). Does nothing when it runs
    /// here already.
    ///
    /// # Errors
    /// A storage error reading it; it does not run here then.
    pub async fn adopt(&self, id: LadderId) -> Result<(), StoreError> {
        if self.runs(id) {
            return Ok(());
        }
        let Some(board) = self.boards.get(&id) else {
            return Ok(());
        };
        let store = &self.start.store;
        let games: HashSet<RoomId> = store
            .running_ladder_games(id)
            .await?
            .into_iter()
            .map(|g| RoomId(g.id.0))
            .collect();
        let mut logs: HashMap<RoomId, StoredRoom> = store
            .open_rooms()
            .await?
            .into_iter()
            .filter(|r| games.contains(&r.id))
            .map(|r| (r.id, r))
            .collect();
        let actor = actor::Actor::load(id, board.index, &self.start, self.members.clone(), &mut logs).await?;
        info!(ladder = %id, "ladder taken over; going on");
        self.run_here(actor);
        Ok(())
    }

    /// Whether this node runs ladder `id` now.
    pub fn runs(&self, id: LadderId) -> bool {
        self.boards.get(&id).is_some_and(|b| {
            b.running
                .lock()
                .expect("not poisoned")
                .as_ref()
                .is_some_and(|r| !r.is_cancelled())
        })
    }

    /// Stops ladder `id` here (its lease names another node): its games being played are
    /// abandoned, left running in the store with their logs for the node that holds the lease.
    pub fn release(&self, id: LadderId) {
        if let Some(stop) = self
            .boards
            .get(&id)
            .and_then(|b| b.running.lock().expect("not poisoned").take())
        {
            tracing::warn!(ladder = %id, "the ladder's lease names another node: it stops here");
            stop.cancel();
        }
    }

    /// Waits until the actors running here have stopped (after the server's stop), so that
    /// what they store is stored before another node of a cluster takes their ladders over.
    pub async fn stopped(&self) {
        self.tasks.close();
        self.tasks.wait().await;
    }

    /// A node of a cluster: reads the tables of the ladders it does not run from the store,
    /// every [`REFRESH`], until the server stops.
    async fn refresh(self) {
        let mut tick = tokio::time::interval(REFRESH);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = self.start.shutdown.cancelled() => return,
            }
            for (id, board) in self.boards.iter() {
                if self.runs(*id) {
                    continue;
                }
                match table::stored_status(*id, &self.start.store, &self.start.lobby, &self.members).await {
                    Ok(status) => {
                        // Its runner may have started meanwhile: its own table wins.
                        if !self.runs(*id) {
                            board.status.send_replace(status);
                        }
                    }
                    Err(cause) => tracing::warn!(ladder = %id, %cause, "a ladder's table could not be read"),
                }
            }
        }
    }

    /// Sets the ladders bot account `account` plays in (from its latest `hello`; empty: none).
    pub fn join(&self, account: &str, ladders: Vec<LadderId>) {
        self.members.set(account, ladders);
    }

    /// The node running ladder `id` (in a cluster).
    fn runner(&self, id: LadderId) -> Option<String> {
        self.members.shared.as_ref().and_then(|s| s.runner(id))
    }

    /// Every ladder's summary, in [`LadderId::ALL`]'s order.
    pub fn list(&self) -> Vec<LadderSummary> {
        LadderId::ALL
            .iter()
            .filter_map(|id| {
                let mut summary = self.boards.get(id)?.status.borrow().summary.clone();
                summary.node = self.runner(*id);
                Some(summary)
            })
            .collect()
    }

    /// Ladder `id`'s table now (in a cluster, as the store holds it within [`REFRESH`] when
    /// another node runs it).
    pub fn status(&self, id: LadderId) -> Option<LadderStatus> {
        let mut status = self.boards.get(&id)?.status.borrow().clone();
        status.summary.node = self.runner(id);
        Some(status)
    }

    /// The database the ladders are stored in (for the entrant pages).
    pub(crate) fn store(&self) -> &Store {
        &self.start.store
    }
}
