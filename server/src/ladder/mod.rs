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
//! In a cluster the ladders do not run yet (their tables are read from the shared store): they
//! need a lease as tournaments have, which is to come.

pub(crate) mod actor;
pub(crate) mod api;
pub mod rating;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use skirmish_protocol::ladder::{LadderId, LadderStatus, LadderSummary, MAX_LADDERS_PER_HELLO};
use skirmish_protocol::{GameConfig, RoomId, gomoku, plane, tic_tac_toe};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

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

/// The ladders each connected bot account asked for in its last `hello`, by account name. One
/// entry per account (accounts are made only with the admin key), so its size is bounded by
/// the accounts. A std `Mutex`: held only to read or replace an entry, never across `.await`.
pub(crate) type Members = Arc<Mutex<HashMap<String, HashSet<LadderId>>>>;

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

struct Board {
    status: watch::Receiver<LadderStatus>,
}

/// Every ladder of this server. Cheap to clone.
#[derive(Clone)]
pub struct Ladders {
    members: Members,
    boards: Arc<HashMap<LadderId, Board>>,
    store: Store,
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

    /// Starts every ladder's actor (on a single server; a node of a cluster only reads the
    /// tables), its games cut off by a stop going on from `logs` or, without a log, void.
    ///
    /// # Errors
    /// A storage error reading a ladder.
    pub(crate) async fn start(
        start: LadderStart,
        mut logs: HashMap<RoomId, StoredRoom>,
    ) -> Result<Ladders, StoreError> {
        let members = Members::default();
        let mut boards = HashMap::new();
        let clustered = start.lobby.replica().is_some();
        for (index, id) in LadderId::ALL.into_iter().enumerate() {
            let actor = actor::Actor::load(id, index, &start, Arc::clone(&members), &mut logs).await?;
            let (tx, rx) = watch::channel(actor.status());
            boards.insert(id, Board { status: rx });
            if !clustered {
                actor.spawn(tx, start.shutdown.clone());
            }
        }
        for (id, _) in logs {
            // A ladder game's log whose game is not running: nothing goes on with it.
            start.journal.close(id);
        }
        Ok(Ladders {
            members,
            boards: Arc::new(boards),
            store: start.store,
        })
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
        Ladders::start(start, HashMap::new()).await
    }

    /// Sets the ladders bot account `account` plays in (from its latest `hello`; empty: none).
    pub fn join(&self, account: &str, ladders: Vec<LadderId>) {
        let mut members = self.members.lock().expect("not poisoned");
        if ladders.is_empty() {
            members.remove(account);
        } else {
            members.insert(account.to_owned(), ladders.into_iter().collect());
        }
    }

    /// Every ladder's summary, in [`LadderId::ALL`]'s order.
    pub fn list(&self) -> Vec<LadderSummary> {
        LadderId::ALL
            .iter()
            .filter_map(|id| self.boards.get(id))
            .map(|b| b.status.borrow().summary.clone())
            .collect()
    }

    /// Ladder `id`'s table now.
    pub fn status(&self, id: LadderId) -> Option<LadderStatus> {
        self.boards.get(&id).map(|b| b.status.borrow().clone())
    }

    /// The database the ladders are stored in (for the entrant pages).
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }
}
