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

pub mod schedule;
pub mod standings;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use skirmish_protocol::tournament::{
    Dealing, Entrant, Format, MatchId, MatchRecord, MatchResult, MatchState, MatchSummary, SeedCommitment,
    Standings, TournamentConfig, TournamentId, TournamentState, TournamentStatus, TournamentSummary,
};
use skirmish_protocol::{Clock, GameConfig, GameKind, RoomConfig, RoomId, Seat};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, info, info_span, warn};

use crate::error::ServerError;
use crate::journal::Journal;
use crate::lobby::Lobby;
use crate::room::{MatchReport, MatchSetup, RoomHandle};
use crate::store::{Store, StoreError, StoredMatch, StoredRoom, StoredTournament};
use schedule::{Planned, SetRules};

/// How often a runner looks again for entrants that are not connected, in milliseconds.
const RETRY_MS: u64 = 200;

/// Why a tournament request was refused; each has a stable code.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The settings cannot be played.
    #[error("{0}")]
    BadConfig(String),
    /// An entrant named is not a connected bot account offering that strategy for the game.
    #[error("no connected bot account `{0}` offers the strategy `{1}` for this game")]
    UnknownEntrant(String, String),
    /// Too few entrants for the game's seats.
    #[error("{0} entrant(s): a tournament needs at least {1} (connect bots first, or name them)")]
    TooFewEntrants(usize, usize),
    /// No tournament has this id.
    #[error("no tournament {0}")]
    NoSuchTournament(TournamentId),
    /// The tournament is already over.
    #[error("the tournament is already {0}")]
    Over(&'static str),
    /// The match's deal is still being played at another table.
    #[error(
        "match {0}'s deal is still being played at another table; its record waits until the deal is over everywhere"
    )]
    DealInPlay(MatchId),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TournamentError {
    /// The stable code (`bad_config`, `unknown_entrant`, `too_few_entrants`,
    /// `no_such_tournament`, `tournament_over`, `deal_in_play`, `storage`).
    pub fn code(&self) -> &'static str {
        match self {
            TournamentError::BadConfig(_) => "bad_config",
            TournamentError::UnknownEntrant(..) => "unknown_entrant",
            TournamentError::TooFewEntrants(..) => "too_few_entrants",
            TournamentError::NoSuchTournament(_) => "no_such_tournament",
            TournamentError::Over(_) => "tournament_over",
            TournamentError::DealInPlay(_) => skirmish_protocol::codes::DEAL_IN_PLAY,
            TournamentError::Store(_) => "storage",
        }
    }
}

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

/// Sealed matches by tournament, shared by the runners (which write their own) and whoever
/// checks a match (spectating, the match API).
type Sealed = Arc<Mutex<HashMap<TournamentId, HashSet<MatchId>>>>;

impl std::fmt::Debug for Tournaments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tournaments").finish_non_exhaustive()
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
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
            tokio::spawn(
                runner
                    .run(tx, shutdown)
                    .instrument(info_span!("tournament", tournament = %id)),
            );
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

/// Checks a tournament's settings and fills in the defaults.
fn check(config: &mut TournamentConfig) -> Result<(), TournamentError> {
    let bad = |m: String| Err(TournamentError::BadConfig(m));
    if let GameConfig::Gomoku(gomoku) = &mut config.game {
        gomoku.opening = None;
        for name in &config.openings {
            let mut with = gomoku.clone();
            with.opening = Some(skirmish_protocol::gomoku::Opening::Named(name.clone()));
            crate::table::Table::new(&GameConfig::Gomoku(with))
                .map_err(|e| TournamentError::BadConfig(e.to_string()))?;
        }
    } else if !config.openings.is_empty() {
        return bad("openings are for gomoku".to_owned());
    }
    crate::table::Table::new(&config.game).map_err(|e| TournamentError::BadConfig(e.to_string()))?;
    // Duplicate by default for plane battle only: junqi entrants deploy their own layouts.
    let duplicate = match config.game.kind() {
        GameKind::Gomoku => false,
        GameKind::Plane => config.duplicate.unwrap_or(true),
        GameKind::Junqi => config.duplicate.unwrap_or(false),
    };
    config.duplicate = Some(duplicate);
    let clock = config.clock.get_or_insert(Clock {
        deploy_ms: 10_000,
        move_ms: 5_000,
        game_ms: 0,
    });
    let fine = |ms: u64| ms == 0 || (100..=3_600_000).contains(&ms);
    if !fine(clock.deploy_ms) || !fine(clock.move_ms) || !fine(clock.game_ms) {
        return bad("time limits are 100 to 3,600,000 ms, or 0 for none".to_owned());
    }
    if !(1..=100).contains(&config.games_per_pairing) {
        return bad("games_per_pairing is 1 to 100".to_owned());
    }
    if !(1..=256).contains(&config.parallel) {
        return bad("parallel is 1 to 256 matches".to_owned());
    }
    if config.grace_ms > 600_000 {
        return bad("grace_ms is at most 600,000".to_owned());
    }
    if let Format::Swiss { rounds: Some(rounds) } = config.format
        && !(1..=100).contains(&rounds)
    {
        return bad("a Swiss tournament has 1 to 100 rounds".to_owned());
    }
    let name = config.name.get_or_insert_with(|| {
        let game = match config.game.kind() {
            GameKind::Plane => "Plane battle",
            GameKind::Gomoku => "Gomoku",
            GameKind::Junqi => "Junqi",
        };
        let format = match config.format {
            Format::RoundRobin => "round robin",
            Format::Swiss { .. } => "Swiss",
        };
        format!("{game} {format}")
    });
    *name = skirmish_protocol::clean_name(name);
    if name.is_empty() || name.chars().count() > 64 {
        return bad("a tournament name has 1 to 64 characters".to_owned());
    }
    Ok(())
}

fn set_rules(config: &TournamentConfig) -> SetRules {
    SetRules {
        sets: config.games_per_pairing,
        openings: config.openings.clone(),
        dealt: config.duplicate == Some(true)
            && matches!(config.game.kind(), GameKind::Plane | GameKind::Junqi),
    }
}

/// How `config` deals, for `entrants` entrants.
fn dealing_of(config: &TournamentConfig, entrants: usize) -> Dealing {
    let seats = config.game.seats();
    if !set_rules(config).dealt {
        Dealing::Own
    } else if schedule::duplicate_possible(entrants, seats) {
        Dealing::Duplicate {
            tables: u32::try_from(entrants / seats).unwrap_or(u32::MAX),
        }
    } else {
        Dealing::Fresh {
            why: format!(
                "duplicate needs at least {} entrants (two tables of {seats} with different entrants); \
                 with {entrants}, every match is dealt fresh boards of its own",
                2 * seats
            ),
        }
    }
}

fn to_stored(planned: Vec<Planned>, first_index: usize) -> Vec<StoredMatch> {
    planned
        .into_iter()
        .enumerate()
        .map(|(i, p)| StoredMatch {
            summary: MatchSummary {
                id: MatchId::random(),
                index: u32::try_from(first_index + i).unwrap_or(u32::MAX),
                round: p.round,
                seats: p.seats,
                opening: p.opening,
                deal: p.deal,
                sealed: false,
                state: MatchState::Pending,
                room: None,
                result: None,
            },
        })
        .collect()
}

fn byes_of(byes: &[usize], first_index: usize, round: u32) -> Vec<StoredMatch> {
    byes.iter()
        .enumerate()
        .map(|(i, e)| StoredMatch {
            summary: MatchSummary {
                id: MatchId::random(),
                index: u32::try_from(first_index + i).unwrap_or(u32::MAX),
                round,
                seats: vec![*e],
                opening: None,
                deal: None,
                sealed: false,
                state: MatchState::Finished,
                room: None,
                result: Some(MatchResult {
                    points: vec![0.0],
                    placings: vec![1],
                    end: "bye".to_owned(),
                    forfeit: None,
                }),
            },
        })
        .collect()
}

/// Swiss round `round`'s matches and byes, from the results so far, with their deals numbered
/// after every deal of the rounds before. Its randomness (the draw of round 0) comes from the
/// seed and the round, so a restart schedules the same.
fn swiss_round(t: &StoredTournament, round: u32) -> (Vec<Planned>, Vec<usize>) {
    let seed = t.config.seed.unwrap_or_default();
    let mut rng = StdRng::seed_from_u64(seed ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let summaries: Vec<MatchSummary> = t.matches.iter().map(|m| m.summary.clone()).collect();
    let seats = t.config.game.seats();
    let (table, _, _) = standings::standings(t.entrants.len(), seats, &summaries);
    let mut scores = vec![0.0; t.entrants.len()];
    for line in &table {
        scores[line.entrant] = line.score;
    }
    let ranking = schedule::swiss_ranking(&scores, &mut rng);
    let mut met = HashSet::new();
    let mut had_bye = HashSet::new();
    for m in &summaries {
        if m.seats.len() == 1 {
            had_bye.insert(m.seats[0]);
        }
        for a in &m.seats {
            for b in &m.seats {
                if a < b {
                    met.insert((*a, *b));
                }
            }
        }
    }
    let (groups, byes) = schedule::swiss_groups(&ranking, seats, &met, &had_bye);
    let rules = set_rules(&t.config);
    let mut planned: Vec<Planned> = groups
        .iter()
        .flat_map(|g| schedule::pairing(g, round, &rules))
        .collect();
    let next_deal = t
        .matches
        .iter()
        .filter_map(|m| m.summary.deal)
        .max()
        .map_or(0, |d| d + 1);
    schedule::assign_deals(&mut planned, rules.dealt, next_deal);
    planned.sort_by_key(|p| p.deal);
    (planned, byes)
}

/// One tournament's actor.
struct Runner {
    id: TournamentId,
    stored: StoredTournament,
    state: TournamentState,
    store: Store,
    lobby: Lobby,
    cancel: CancellationToken,
    /// The matches being played: their index, room and abandon switch.
    running: HashMap<usize, (skirmish_protocol::RoomId, CancellationToken)>,
    /// Since when each due match has waited for an entrant that is not connected.
    waiting: HashMap<usize, Instant>,
    /// Where match rooms write their logs.
    journal: Journal,
    /// The logs of matches cut off by a stop, by room (the match's id), until they go on.
    logs: HashMap<RoomId, StoredRoom>,
    /// Every tournament's sealed matches; this runner writes its own.
    sealed: Sealed,
}

impl Runner {
    fn new(
        stored: StoredTournament,
        store: Store,
        lobby: Lobby,
        journal: Journal,
        cancel: CancellationToken,
        sealed: Sealed,
    ) -> Runner {
        Runner {
            sealed,
            journal,
            logs: HashMap::new(),
            id: stored.id,
            state: stored.state,
            stored,
            store,
            lobby,
            cancel,
            running: HashMap::new(),
            waiting: HashMap::new(),
        }
    }

    fn total(&self) -> u32 {
        let n = self.stored.entrants.len();
        let k = self.stored.config.game.seats();
        let rules = set_rules(&self.stored.config);
        let total = match self.stored.config.format {
            Format::RoundRobin => schedule::round_robin_size(n, k, &rules),
            Format::Swiss { rounds } => {
                let rounds = rounds.unwrap_or_else(|| schedule::default_swiss_rounds(n));
                usize::try_from(rounds).unwrap_or(usize::MAX)
                    * (n / k * schedule::per_pairing(k, &rules) + n % k)
            }
        };
        u32::try_from(total).unwrap_or(u32::MAX)
    }

    /// The matches of this tournament that are sealed now: those of a deal played at several
    /// tables, at least one of which is pending or running. None once the tournament is over.
    fn sealed_now(&self) -> HashSet<MatchId> {
        if self.state != TournamentState::Running {
            return HashSet::new();
        }
        let mut tables: HashMap<u32, (usize, bool)> = HashMap::new();
        for m in &self.stored.matches {
            if let Some(deal) = m.summary.deal {
                let entry = tables.entry(deal).or_default();
                entry.0 += 1;
                entry.1 |= matches!(m.summary.state, MatchState::Pending | MatchState::Running);
            }
        }
        self.stored
            .matches
            .iter()
            .filter(|m| {
                m.summary
                    .deal
                    .and_then(|d| tables.get(&d))
                    .is_some_and(|(count, open)| *count > 1 && *open)
            })
            .map(|m| m.summary.id)
            .collect()
    }

    /// Publishes which of this tournament's matches are sealed now (before any of them starts,
    /// and after every change).
    fn reseal(&self) {
        let now = self.sealed_now();
        let mut sealed = self.sealed.lock().expect("not poisoned");
        if now.is_empty() {
            sealed.remove(&self.id);
        } else {
            sealed.insert(self.id, now);
        }
    }

    fn status(&self) -> TournamentStatus {
        let sealed = self.sealed_now();
        let over = self.state != TournamentState::Running;
        let mut config = self.stored.config.clone();
        if !over {
            // The seed predicts every deal to come: secret until the end.
            config.seed = None;
        }
        let seed = self.stored.config.seed.unwrap_or_default();
        let seed_commitment = SeedCommitment {
            sha256: skirmish_protocol::commitment::digest(&self.stored.seed_salt, &seed.to_string()),
            seed: over.then_some(seed),
            salt: over.then(|| self.stored.seed_salt.clone()),
        };
        let count = |state: MatchState| {
            let n = self
                .stored
                .matches
                .iter()
                .filter(|m| m.summary.state == state)
                .count();
            u32::try_from(n).unwrap_or(u32::MAX)
        };
        TournamentStatus {
            summary: TournamentSummary {
                id: self.id,
                name: self.stored.config.name.clone().unwrap_or_default(),
                game: self.stored.config.game.kind(),
                state: self.state,
                entrants: self.stored.entrants.clone(),
                matches: u32::try_from(self.stored.matches.len()).unwrap_or(u32::MAX),
                finished: count(MatchState::Finished),
                running: count(MatchState::Running),
                total: self.total(),
                created_ms: self.stored.created_ms,
            },
            dealing: dealing_of(&self.stored.config, self.stored.entrants.len()),
            seed: seed_commitment,
            config,
            schedule: self
                .stored
                .matches
                .iter()
                .map(|m| {
                    let mut summary = m.summary.clone();
                    if sealed.contains(&summary.id) {
                        summary.sealed = true;
                        summary.room = None;
                    }
                    summary
                })
                .collect(),
        }
    }

    async fn run(mut self, status: watch::Sender<TournamentStatus>, shutdown: CancellationToken) {
        let (done_tx, mut done_rx) = mpsc::unbounded_channel::<(usize, Option<MatchReport>)>();
        loop {
            self.start_due(&done_tx, &shutdown).await;
            self.reseal();
            status.send_replace(self.status());
            let unfinished = self
                .stored
                .matches
                .iter()
                .any(|m| matches!(m.summary.state, MatchState::Pending | MatchState::Running));
            if !unfinished {
                if self.next_swiss_round().await {
                    continue;
                }
                self.state = TournamentState::Finished;
                if let Err(err) = self.store.set_state(self.id, self.state).await {
                    warn!(cause = %err, "could not store the tournament's end");
                }
                self.reseal();
                status.send_replace(self.status());
                info!("tournament finished");
                return;
            }
            tokio::select! {
                Some((index, report)) = done_rx.recv() => self.record(index, report).await,
                () = tokio::time::sleep(Duration::from_millis(RETRY_MS)) => {}
                () = self.cancel.cancelled() => {
                    for (_, (_, abandon)) in self.running.drain() {
                        abandon.cancel();
                    }
                    self.state = TournamentState::Cancelled;
                    for m in &mut self.stored.matches {
                        if m.summary.state != MatchState::Finished {
                            m.summary.state = MatchState::Cancelled;
                            m.summary.room = None;
                        }
                    }
                    if let Err(err) = self.store.set_state(self.id, self.state).await {
                        warn!(cause = %err, "could not store the cancellation");
                    }
                    self.reseal();
                    status.send_replace(self.status());
                    info!("tournament cancelled");
                    return;
                }
                () = shutdown.cancelled() => return,
            }
        }
    }

    /// Starts every due match whose entrants are connected, up to the parallel limit; a match
    /// whose entrant has been away longer than the grace period is lost by that entrant.
    async fn start_due(
        &mut self,
        done: &mpsc::UnboundedSender<(usize, Option<MatchReport>)>,
        shutdown: &CancellationToken,
    ) {
        let parallel = usize::try_from(self.stored.config.parallel).unwrap_or(usize::MAX);
        let grace = Duration::from_millis(self.stored.config.grace_ms);
        let game = self.stored.config.game.kind();
        self.resume_cut_off(done, shutdown);
        for index in 0..self.stored.matches.len() {
            if self.running.len() >= parallel {
                break;
            }
            if self.stored.matches[index].summary.state != MatchState::Pending {
                continue;
            }
            let seats = self.stored.matches[index].summary.seats.clone();
            let picks: Vec<Option<crate::lobby::BotPick>> = seats
                .iter()
                .map(|e| {
                    // A bot entered twice (two strategies) may take both seats on one connection.
                    // Seats go by the account its token proved, never by a name said.
                    let entrant = &self.stored.entrants[*e];
                    self.lobby.find_bot(&entrant.bot, game, &entrant.strategy)
                })
                .collect();
            if picks.iter().any(Option::is_none) {
                let since = *self.waiting.entry(index).or_insert_with(Instant::now);
                if since.elapsed() >= grace {
                    let absent: Vec<usize> = (0..seats.len()).filter(|s| picks[*s].is_none()).collect();
                    let result = absent_result(game, seats.len(), &absent);
                    info!(index, ?absent, "entrant(s) absent: match lost");
                    self.finish(index, result, Vec::new()).await;
                }
                continue;
            }
            self.waiting.remove(&index);
            let m = &self.stored.matches[index];
            let mut game_config = self.stored.config.game.clone();
            if let (GameConfig::Gomoku(gomoku), Some(opening)) = (&mut game_config, &m.summary.opening) {
                gomoku.opening = Some(skirmish_protocol::gomoku::Opening::Named(opening.clone()));
            }
            let config = RoomConfig {
                name: Some(format!(
                    "{} · match {}",
                    self.stored.config.name.clone().unwrap_or_default(),
                    m.summary.index + 1
                )),
                game: game_config,
                clock: self.stored.config.clock,
                on_drop: None,
            };
            let abandon = CancellationToken::new();
            let setup = MatchSetup {
                id: RoomId(m.summary.id.0),
                bots: picks.into_iter().flatten().collect(),
                deal: self.deal_seed(m),
                grace,
                cancel: abandon.clone(),
            };
            let started = crate::room::spawn_match(
                config,
                setup,
                self.lobby.clone(),
                self.journal.clone(),
                shutdown.clone(),
            );
            self.running_as(index, started, abandon, done);
        }
    }

    /// Marks match `index` running in the room `started` made, and waits for its report.
    fn running_as(
        &mut self,
        index: usize,
        started: Result<(RoomHandle, oneshot::Receiver<MatchReport>), ServerError>,
        abandon: CancellationToken,
        done: &mpsc::UnboundedSender<(usize, Option<MatchReport>)>,
    ) {
        match started {
            Ok((room, report)) => {
                info!(index, room = %room.id(), "match started");
                let m = &mut self.stored.matches[index];
                m.summary.state = MatchState::Running;
                m.summary.room = Some(room.id());
                self.running.insert(index, (room.id(), abandon));
                let done = done.clone();
                tokio::spawn(async move {
                    let _ = done.send((index, report.await.ok()));
                });
            }
            Err(err) => {
                warn!(index, cause = %err, "match could not start");
                m_cancel(&mut self.stored.matches[index]);
            }
        }
    }

    /// Goes on with every match a stop cut off whose log the journal holds: its room is rebuilt
    /// from the log, and its bots have the grace period to resume their seats. A log that does
    /// not replay is dropped, and the match is played again from the start.
    fn resume_cut_off(
        &mut self,
        done: &mpsc::UnboundedSender<(usize, Option<MatchReport>)>,
        shutdown: &CancellationToken,
    ) {
        if self.logs.is_empty() {
            return;
        }
        let grace = Duration::from_millis(self.stored.config.grace_ms);
        for index in 0..self.stored.matches.len() {
            let m = &self.stored.matches[index];
            let Some(log) = self.logs.remove(&RoomId(m.summary.id.0)) else {
                continue;
            };
            if m.summary.state != MatchState::Pending {
                self.journal.close(log.id);
                continue;
            }
            let abandon = CancellationToken::new();
            let setup = MatchSetup {
                id: log.id,
                bots: Vec::new(),
                deal: self.deal_seed(m),
                grace,
                cancel: abandon.clone(),
            };
            let id = log.id;
            match crate::room::restore_match(
                log,
                setup,
                self.lobby.clone(),
                self.journal.clone(),
                shutdown.clone(),
            ) {
                Ok(started) => {
                    info!(index, "match goes on from its log");
                    self.running_as(index, Ok(started), abandon, done);
                }
                Err(err) => {
                    warn!(index, cause = %err, "match log does not replay; the match is played again");
                    self.journal.close(id);
                }
            }
        }
    }

    /// The seed of match `m`'s deal, derived from the tournament's seed ([`skirmish_protocol::deal`]).
    fn deal_seed(&self, m: &StoredMatch) -> Option<u64> {
        let seed = self.stored.config.seed.unwrap_or_default();
        m.summary
            .deal
            .map(|n| skirmish_protocol::deal::deal_seed(seed, n))
    }

    async fn record(&mut self, index: usize, report: Option<MatchReport>) {
        if self.running.remove(&index).is_none() {
            return;
        }
        match report {
            Some(report) => {
                info!(index, result = ?report.result, "match finished");
                self.finish(index, report.result, report.events).await;
            }
            None => {
                // Abandoned (the server stops): played again later.
                let m = &mut self.stored.matches[index];
                m.summary.state = MatchState::Pending;
                m.summary.room = None;
            }
        }
    }

    async fn finish(&mut self, index: usize, result: MatchResult, events: Vec<skirmish_protocol::GameEvent>) {
        let id = self.stored.matches[index].summary.id;
        if let Err(err) = self.store.finish_match(id, result.clone(), events).await {
            warn!(index, cause = %err, "could not store the match's result; it will be played again");
            return;
        }
        let m = &mut self.stored.matches[index];
        m.summary.state = MatchState::Finished;
        m.summary.room = None;
        m.summary.result = Some(result);
    }

    /// Schedules the next Swiss round when the last is over; false when there is none.
    async fn next_swiss_round(&mut self) -> bool {
        let Format::Swiss { rounds } = self.stored.config.format else {
            return false;
        };
        let rounds = rounds.unwrap_or_else(|| schedule::default_swiss_rounds(self.stored.entrants.len()));
        let next = self
            .stored
            .matches
            .iter()
            .map(|m| m.summary.round + 1)
            .max()
            .unwrap_or(0);
        if next >= rounds {
            return false;
        }
        let (planned, byes) = swiss_round(&self.stored, next);
        let first = self.stored.matches.len();
        let mut added = to_stored(planned, first);
        added.extend(byes_of(&byes, first + added.len(), next));
        if let Err(err) = self.store.add_matches(self.id, added.clone()).await {
            warn!(cause = %err, "could not store the next Swiss round");
            return false;
        }
        info!(round = next, matches = added.len(), "Swiss round scheduled");
        self.stored.matches.extend(added);
        // Sealed before any of them starts.
        self.reseal();
        true
    }
}

fn m_cancel(m: &mut StoredMatch) {
    m.summary.state = MatchState::Cancelled;
    m.summary.room = None;
}

/// The result of a match some entrants did not come to: they are placed last; the others share
/// first place (the only one present wins gomoku or junqi: 1 point).
fn absent_result(game: GameKind, seats: usize, absent: &[usize]) -> MatchResult {
    let present = seats - absent.len();
    let last = u8::try_from(seats).unwrap_or(u8::MAX);
    let placings = (0..seats)
        .map(|s| if absent.contains(&s) { last } else { 1 })
        .collect();
    let points = (0..seats)
        .map(|s| match game {
            GameKind::Plane => 0.0,
            GameKind::Gomoku | GameKind::Junqi if absent.contains(&s) || present == 0 => 0.0,
            #[allow(clippy::cast_precision_loss)]
            GameKind::Gomoku | GameKind::Junqi => 1.0 / present as f64,
        })
        .collect();
    MatchResult {
        points,
        placings,
        end: "forfeit".to_owned(),
        forfeit: absent.first().map(|s| skirmish_protocol::tournament::Forfeit {
            seat: Seat(u8::try_from(*s).unwrap_or(0)),
            reason: skirmish_protocol::tournament::forfeit_reasons::ABSENT.to_owned(),
            detail: None,
        }),
    }
}
