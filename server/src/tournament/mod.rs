//! Tournaments: one actor each, playing a schedule of matches between bot entrants over the
//! network, many at once, storing every result as it comes, and ranking the entrants.
//!
//! [`Tournaments`] is the directory the HTTP API talks to: it creates tournaments (checking the
//! settings and the entrants), lists them, gives each one's status and standings, cancels, and on
//! start-up restores from storage every tournament that was running ([`Tournaments::restore`]),
//! so a restarted server goes on where it stopped: finished matches are kept; a match that was
//! being played goes on from its room's log (see [`crate::journal`]), or, without one, is played
//! again from the start.
//!
//! An entrant is a bot account and a strategy, not a connection: when a match is due, the runner
//! seats the account's connection (the one whose `hello` carried the account's token;
//! [`crate::accounts`]) when it offers that strategy, so a bot may reconnect, or the server
//! restart, between matches. No other connection, whatever name it says, is handed the seat, and
//! anonymous bots never enter. An entrant not connected when its
//! match is due has the grace period to appear; then it loses that match (`absent`). In a match,
//! a seat whose bot drops and stays away past the grace period, or runs out of time, loses
//! ([`crate::room::spawn_match`]). Either way the tournament goes on.
//!
//! Duplicate (plane battle, and junqi when asked): every deal is played at several tables by
//! different entrants, never twice by one ([`schedule::assign_deals`]). While a deal is not over
//! at every table, its matches are *sealed*: no one may watch them (`deal_in_play`), the status
//! leaves out their rooms, and their records are refused ([`Tournaments::sealed`]). The seed is
//! secret while the tournament runs: the status carries the commitment to it, and the seed and
//! salt once the tournament is over, so every dealt board can be checked
//! ([`skirmish_protocol::deal`]). Neither the seed nor a deal's seed is ever logged.

mod config;
mod error;
mod rounds;
mod runner;
pub mod schedule;
pub mod standings;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use rand::Rng;
use skirmish_protocol::RoomId;
use skirmish_protocol::tournament::{
    Entrant, Format, MatchId, MatchRecord, MatchState, Standings, TournamentConfig, TournamentId,
    TournamentState, TournamentStatus, TournamentSummary,
};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, error, info, info_span, warn};

use crate::journal::Journal;
use crate::lobby::Lobby;
use crate::store::{Store, StoreError, StoredRoom, StoredTournament};
use config::{check, set_rules};
pub use error::TournamentError;
use rounds::{byes_of, swiss_round, to_stored};
pub(crate) use runner::RETRY_MS;
/// The map of sealed matches, by tournament (or by ladder, under keys of their own).
pub(crate) type SealedMap = runner::Sealed;
use runner::{Runner, Sealed, now_ms};

struct Entry {
    status: watch::Receiver<TournamentStatus>,
    cancel: CancellationToken,
}

/// Every tournament on this server. Cheap to clone.
#[derive(Clone)]
pub struct Tournaments {
    entries: Arc<Mutex<HashMap<TournamentId, Entry>>>,
    store: Store,
    lobby: Lobby,
    journal: Journal,
    shutdown: CancellationToken,
    /// The sealed matches of each tournament: those whose deal is played at several tables and
    /// is not over at all of them.
    sealed: Sealed,
}
impl std::fmt::Debug for Tournaments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tournaments").finish_non_exhaustive()
    }
}
impl Tournaments {
    /// The directory over `store`, with every stored tournament back: the running ones go on.
    /// `rooms` are the match rooms the journal holds as open (the room of a match has the match's
    /// id): a match cut off by the stop goes on from its log; one without a log is played again.
    ///
    /// # Errors
    /// A storage error reading them.
    pub async fn restore(
        store: Store,
        lobby: Lobby,
        journal: Journal,
        shutdown: CancellationToken,
        rooms: Vec<StoredRoom>,
    ) -> Result<Tournaments, StoreError> {
        let tournaments = Tournaments {
            entries: Arc::default(),
            store: store.clone(),
            lobby,
            journal,
            shutdown,
            sealed: Arc::default(),
        };
        let mut rooms: HashMap<RoomId, StoredRoom> = rooms.into_iter().map(|r| (r.id, r)).collect();
        // A node of a cluster runs only the tournaments it takes (their leases,
        // crate::cluster): the others' matches are left alone.
        let clustered = tournaments.lobby.replica().is_some();
        for stored in store.tournaments().await? {
            if clustered && stored.state == TournamentState::Running {
                for m in &stored.matches {
                    rooms.remove(&RoomId(m.summary.id.0));
                }
                continue;
            }
            if stored.state == TournamentState::Running {
                info!(tournament = %stored.id, "tournament restored; going on");
            }
            let mut logs: HashMap<RoomId, StoredRoom> = stored
                .matches
                .iter()
                .filter_map(|m| rooms.remove(&RoomId(m.summary.id.0)))
                .map(|r| (r.id, r))
                .collect();
            if stored.state != TournamentState::Running {
                // Abandoned when the tournament was cancelled: nothing goes on with them.
                for id in std::mem::take(&mut logs).into_keys() {
                    tournaments.journal.close(id);
                }
            }
            tournaments.launch(stored, logs);
        }
        for room in rooms.into_values() {
            // A match room whose tournament is over or gone: nothing goes on with it.
            tournaments.journal.close(room.id);
        }
        Ok(tournaments)
    }

    /// Tournament `id` as the store holds it, for a tournament another node of a cluster runs:
    /// its matches as last stored (one being played shows as pending), sealed deals and the
    /// seed kept secret as in [`Tournaments::status`].
    ///
    /// # Errors
    /// A storage error reading it.
    pub async fn stored_status(&self, id: TournamentId) -> Result<Option<TournamentStatus>, StoreError> {
        let Some(stored) = self.store.tournaments().await?.into_iter().find(|t| t.id == id) else {
            return Ok(None);
        };
        let runner = Runner::new(
            stored,
            self.store.clone(),
            self.lobby.clone(),
            self.journal.clone(),
            CancellationToken::new(),
            Sealed::default(),
        );
        Ok(Some(runner.status()))
    }

    /// Whether this node runs tournament `id` (its id as text) now.
    pub fn runs(&self, id: &str) -> bool {
        let Ok(id) = id.parse::<TournamentId>() else {
            return false;
        };
        let entries = self.entries.lock().expect("not poisoned");
        entries
            .get(&id)
            .is_some_and(|e| e.status.borrow().summary.state == TournamentState::Running)
    }

    /// The ids of the tournaments stored as running (any node's).
    pub async fn running_stored(&self) -> Vec<String> {
        match self.store.tournaments().await {
            Ok(stored) => stored
                .into_iter()
                .filter(|t| t.state == TournamentState::Running)
                .map(|t| t.id.to_string())
                .collect(),
            Err(cause) => {
                warn!(%cause, "the stored tournaments could not be read");
                Vec::new()
            }
        }
    }

    /// Takes tournament `id` over from a node of the cluster that is gone: it goes on here from
    /// the store, its matches cut off going on from their logs. Returns `false` when it is not
    /// stored as running (over, or unknown).
    ///
    /// # Errors
    /// A storage error reading it.
    pub async fn adopt(&self, id: &str) -> Result<bool, StoreError> {
        let Ok(id) = id.parse::<TournamentId>() else {
            return Ok(false);
        };
        let Some(stored) = self
            .store
            .tournaments()
            .await?
            .into_iter()
            .find(|t| t.id == id && t.state == TournamentState::Running)
        else {
            return Ok(false);
        };
        let ids: HashSet<RoomId> = stored.matches.iter().map(|m| RoomId(m.summary.id.0)).collect();
        let logs = self
            .store
            .open_rooms()
            .await?
            .into_iter()
            .filter(|r| ids.contains(&r.id))
            .map(|r| (r.id, r))
            .collect();
        info!(tournament = %id, "tournament taken over; going on");
        self.launch(stored, logs);
        Ok(true)
    }

    /// Starts the runner of `stored` (one that is over just shows its status), with the logs of
    /// its matches cut off by a stop.
    fn launch(&self, stored: StoredTournament, logs: HashMap<RoomId, StoredRoom>) {
        let id = stored.id;
        if stored.state == TournamentState::Running
            && let Some(replica) = self.lobby.replica()
        {
            replica.tournament_running(&id.to_string());
        }
        let cancel = CancellationToken::new();
        let mut runner = Runner::new(
            stored,
            self.store.clone(),
            self.lobby.clone(),
            self.journal.clone(),
            cancel.clone(),
            self.sealed.clone(),
        );
        runner.logs = logs;
        // Sealed before any of its matches can start.
        runner.reseal();
        let (tx, rx) = watch::channel(runner.status());
        self.entries.lock().expect("not poisoned").insert(
            id,
            Entry {
                status: rx,
                cancel: cancel.clone(),
            },
        );
        if runner.state == TournamentState::Running {
            let shutdown = self.shutdown.clone();
            let tx = Arc::new(tx);
            let task = tokio::spawn(
                runner
                    .run(Arc::clone(&tx), shutdown)
                    .instrument(info_span!("tournament", tournament = %id)),
            );
            tokio::spawn(supervise(task, id, tx, cancel, self.store.clone()));
        }
    }

    /// Makes a tournament and starts it: checks the settings, fills in the defaults and the
    /// seed, takes the entrants (named, or every connected bot account's strategies for the game),
    /// schedules, stores, and starts playing.
    ///
    /// # Errors
    /// [`TournamentError::BadConfig`], [`TournamentError::UnknownEntrant`],
    /// [`TournamentError::TooFewEntrants`], or a storage error; nothing is made then.
    pub async fn create(&self, mut config: TournamentConfig) -> Result<TournamentStatus, TournamentError> {
        check(&mut config)?;
        let game = config.game.kind();
        let seats = config.game.seats();
        // Account bots only: an anonymous bot never enters a tournament.
        let bots: Vec<_> = self.lobby.bots().into_iter().filter(|b| b.account).collect();
        let entrants: Vec<Entrant> = if config.entrants.is_empty() {
            let mut all: Vec<Entrant> = bots
                .iter()
                .flat_map(|b| {
                    b.offer.strategies(game).iter().map(|s| Entrant {
                        bot: b.name.clone(),
                        strategy: s.clone(),
                        version: b.offer.version.clone(),
                    })
                })
                .collect();
            all.sort();
            all.dedup_by(|a, b| a.bot == b.bot && a.strategy == b.strategy);
            all
        } else {
            let mut named = Vec::new();
            for wanted in &config.entrants {
                let bot = bots
                    .iter()
                    .find(|b| b.name == wanted.bot && b.offer.strategies(game).contains(&wanted.strategy))
                    .ok_or_else(|| {
                        TournamentError::UnknownEntrant(wanted.bot.clone(), wanted.strategy.clone())
                    })?;
                if named
                    .iter()
                    .any(|e: &Entrant| e.bot == wanted.bot && e.strategy == wanted.strategy)
                {
                    return Err(TournamentError::BadConfig(format!("{wanted} is named twice")));
                }
                named.push(Entrant {
                    bot: wanted.bot.clone(),
                    strategy: wanted.strategy.clone(),
                    version: bot.offer.version.clone(),
                });
            }
            named
        };
        if entrants.len() < seats {
            return Err(TournamentError::TooFewEntrants(entrants.len(), seats));
        }
        config.entrants.clone_from(&entrants);
        // Under 2^53, so that JavaScript reads it exactly.
        config
            .seed
            .get_or_insert_with(|| rand::rng().random::<u64>() >> 11);
        let seed_salt = skirmish_protocol::commitment::new_salt(&mut rand::rng());
        let id = TournamentId::random();
        let rules = set_rules(&config);
        let planned = match config.format {
            Format::RoundRobin => schedule::round_robin(entrants.len(), seats, &rules),
            Format::Swiss { .. } => Vec::new(),
        };
        let stored = StoredTournament {
            id,
            config,
            seed_salt,
            entrants,
            state: TournamentState::Running,
            created_ms: now_ms(),
            matches: to_stored(planned, 0),
        };
        let mut stored = stored;
        if matches!(stored.config.format, Format::Swiss { .. }) {
            let (planned, byes) = swiss_round(&stored, 0);
            stored.matches = to_stored(planned, 0);
            stored.matches.extend(byes_of(&byes, stored.matches.len(), 0));
        }
        self.store.create_tournament(stored.clone()).await?;
        info!(tournament = %id, matches = stored.matches.len(), "tournament created");
        self.launch(stored, HashMap::new());
        self.status(id).ok_or(TournamentError::NoSuchTournament(id))
    }

    /// Every tournament, newest first.
    pub fn list(&self) -> Vec<TournamentSummary> {
        let mut list: Vec<TournamentSummary> = self
            .entries
            .lock()
            .expect("not poisoned")
            .values()
            .map(|e| e.status.borrow().summary.clone())
            .collect();
        list.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id)));
        list
    }

    /// A tournament's status now.
    pub fn status(&self, id: TournamentId) -> Option<TournamentStatus> {
        self.entries
            .lock()
            .expect("not poisoned")
            .get(&id)
            .map(|e| e.status.borrow().clone())
    }

    /// A tournament's standings from its finished matches.
    pub fn standings(&self, id: TournamentId) -> Option<Standings> {
        let status = self.status(id)?;
        Some(standings_of(&status))
    }

    /// Cancels a running tournament: matches being played are abandoned and no more start;
    /// finished ones are kept.
    ///
    /// # Errors
    /// [`TournamentError::NoSuchTournament`], [`TournamentError::Over`].
    pub async fn cancel(&self, id: TournamentId) -> Result<TournamentStatus, TournamentError> {
        let (cancel, mut rx) = {
            let entries = self.entries.lock().expect("not poisoned");
            let entry = entries.get(&id).ok_or(TournamentError::NoSuchTournament(id))?;
            (entry.cancel.clone(), entry.status.clone())
        };
        match rx.borrow().summary.state {
            TournamentState::Running => {}
            TournamentState::Finished => return Err(TournamentError::Over("finished")),
            TournamentState::Cancelled => return Err(TournamentError::Over("cancelled")),
        }
        cancel.cancel();
        // The runner stores the cancellation and publishes it.
        while rx.borrow_and_update().summary.state == TournamentState::Running {
            if rx.changed().await.is_err() {
                break;
            }
        }
        self.status(id).ok_or(TournamentError::NoSuchTournament(id))
    }

    /// A finished match's full record, for a replay.
    ///
    /// # Errors
    /// [`TournamentError::DealInPlay`] while the match is [sealed](Tournaments::sealed), or a
    /// storage error.
    pub async fn match_record(&self, id: MatchId) -> Result<Option<MatchRecord>, TournamentError> {
        if self.sealed(id) {
            return Err(TournamentError::DealInPlay(id));
        }
        Ok(self.store.match_record(id).await?)
    }

    /// The shared map of sealed matches, for the ladders to publish their sealed games in
    /// ([`crate::ladder`]), each under a key of its own that no tournament has.
    pub(crate) fn sealed_map(&self) -> SealedMap {
        Arc::clone(&self.sealed)
    }

    /// Whether match `id` is sealed: its deal is played at several tables and is not over at
    /// all of them, so no one may watch it or read its record yet. (A room's id is its match's
    /// id: `MatchId(room.0)`.)
    pub fn sealed(&self, id: MatchId) -> bool {
        self.sealed
            .lock()
            .expect("not poisoned")
            .values()
            .any(|matches| matches.contains(&id))
    }
}
/// The standings of a tournament in the state `status` shows.
pub fn standings_of(status: &TournamentStatus) -> Standings {
    let seats = status.config.game.seats();
    let (table, crosstable, matches) =
        standings::standings(status.summary.entrants.len(), seats, &status.schedule);
    Standings {
        tournament: status.summary.id,
        state: status.summary.state,
        entrants: status.summary.entrants.clone(),
        table,
        crosstable,
        matches,
        dealing: status.dealing.clone(),
    }
}

/// Watches the runner of tournament `id`: one that panics stops its tournament as a cancel does,
/// rather than leaving it listed as running with nothing playing it. Its matches in play are
/// abandoned (their switches are children of `cancel`), the state `cancelled` is stored and shown
/// in `status`, and the finished matches are kept. The panic is logged as an error.
async fn supervise(
    task: JoinHandle<()>,
    id: TournamentId,
    status: Arc<watch::Sender<TournamentStatus>>,
    cancel: CancellationToken,
    store: Store,
) {
    let Err(err) = task.await else {
        return;
    };
    if !err.is_panic() {
        return;
    }
    error!(tournament = %id, cause = %err, "the tournament's runner panicked: the tournament is stopped, its finished matches kept");
    cancel.cancel();
    if let Err(cause) = store.set_state(id, TournamentState::Cancelled).await {
        warn!(tournament = %id, %cause, "could not store the stopped tournament's state");
    }
    status.send_modify(|status| {
        status.summary.state = TournamentState::Cancelled;
        for m in &mut status.schedule {
            if m.state != MatchState::Finished {
                m.state = MatchState::Cancelled;
                m.room = None;
            }
        }
    });
}
