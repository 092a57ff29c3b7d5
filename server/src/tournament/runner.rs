//! One tournament's actor: it starts the due matches as their entrants connect, records each
//! result as it comes, schedules Swiss rounds, seals and unseals deals, and stops on cancel or
//! shutdown.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use skirmish_protocol::tournament::{
    Format, MatchId, MatchResult, MatchState, SeedCommitment, TournamentId, TournamentState,
    TournamentStatus, TournamentSummary,
};
use skirmish_protocol::{GameKind, RoomConfig, RoomId, Seat};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use super::config::{dealing_of, set_rules};
use super::rounds::{byes_of, swiss_round, to_stored};
use super::schedule;
use crate::error::ServerError;
use crate::journal::{Entry, Journal};
use crate::lobby::Lobby;
use crate::room::{MatchReport, MatchSetup, RoomHandle};
use crate::store::{Store, StoredMatch, StoredRoom, StoredTournament};

/// How often a runner looks again for entrants that are not connected, in milliseconds.
pub(crate) const RETRY_MS: u64 = 200;
/// Sealed matches by tournament, shared by the runners (which write their own) and whoever
/// checks a match (spectating, the match API).
/// The ladders write theirs here too, each under its own key ([`crate::ladder`]), so one check
/// covers every sealed game.
pub(crate) type Sealed = Arc<Mutex<HashMap<TournamentId, HashSet<MatchId>>>>;

pub(super) use crate::wall_clock::now_ms;
/// One tournament's actor.
pub(super) struct Runner {
    id: TournamentId,
    stored: StoredTournament,
    pub(super) state: TournamentState,
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
    pub(super) logs: HashMap<RoomId, StoredRoom>,
    /// Every tournament's sealed matches; this runner writes its own.
    sealed: Sealed,
}

impl Runner {
    pub(super) fn new(
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
    pub(super) fn reseal(&self) {
        let now = self.sealed_now();
        let mut sealed = self.sealed.lock().expect("not poisoned");
        if now.is_empty() {
            sealed.remove(&self.id);
        } else {
            sealed.insert(self.id, now);
        }
    }

    pub(super) fn status(&self) -> TournamentStatus {
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

    pub(super) async fn run(
        mut self,
        status: Arc<watch::Sender<TournamentStatus>>,
        shutdown: CancellationToken,
    ) {
        let (done_tx, mut done_rx) = mpsc::unbounded_channel::<(usize, Option<MatchReport>)>();
        loop {
            #[cfg(feature = "testing")]
            crate::testing::runner_fault(self.id);
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
            if let Some(opening) = &m.summary.opening
                && let Some(with) = game_config.with_opening(Some(opening))
            {
                game_config = with;
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
            // A child of the tournament's switch: a runner that dies abandons its matches with it
            // (`super::supervise`).
            let abandon = self.cancel.child_token();
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
    /// not replay is dropped, and the match is played again from the start; so is one that does
    /// not reach the match's start (deleted, as nothing of it was played).
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
            if !log.entries.iter().any(|e| matches!(e, Entry::Started)) {
                // Cut off before its start (its bots not all seated yet, or the start not
                // written: in a cluster the room waits for the directory before seating them).
                // Rebuilt, its room would wait for ever for seats nobody is asked to take, and
                // the match would show as running for ever. Nothing of it was played: its log
                // goes, and it is played from its start.
                info!(index, "match cut off before its start: played from its start");
                self.journal.discard(log.id);
                continue;
            }
            // A child of the tournament's switch: a runner that dies abandons its matches with it
            // (`super::supervise`).
            let abandon = self.cancel.child_token();
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
/// first place and score as the game says ([`GameKind::walkover_points`]: the only one present
/// wins gomoku or junqi, 1 point; no points in plane battle).
fn absent_result(game: GameKind, seats: usize, absent: &[usize]) -> MatchResult {
    let last = u8::try_from(seats).unwrap_or(u8::MAX);
    let placings = (0..seats)
        .map(|s| if absent.contains(&s) { last } else { 1 })
        .collect();
    let points = game.walkover_points(seats, absent);
    MatchResult {
        points,
        placings,
        end: "forfeit".to_owned(),
        forfeit: absent.first().map(|s| skirmish_protocol::tournament::Forfeit {
            seat: Seat(u8::try_from(*s).unwrap_or(0)),
            reason: skirmish_protocol::tournament::ForfeitReason::Absent,
            detail: None,
        }),
    }
}
