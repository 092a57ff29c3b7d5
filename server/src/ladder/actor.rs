//! One ladder's actor: it sees which entrants wait (their bot connected, in the ladder, not in a
//! game, not paused), pairs them, starts their games as tournament matches, and when a game ends
//! rates it and stores result, ratings, history and replay in one transaction.
//!
//! Pairing, every [`RETRY_MS`] and after every game: the waiting entrants with the fewest games
//! first; each is grouped with the waiting entrants of other accounts it has met least in the
//! last 24 hours, under the cap per pair and day. Seats rotate: a group plays its seat orders
//! ([`schedule::seat_orders`]) in turn, so colours and first moves alternate. The tables paired
//! at one moment share a deal where the game is dealt ([`schedule::assign_deals`]: never two
//! tables with a common entrant, so no entrant plays a deal twice), and their games are sealed
//! until every table of the deal is over.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use rand::seq::SliceRandom;
use skirmish_games::referee::Dealing as GameDealing;
use skirmish_protocol::ladder::{LadderEntrant, LadderId, LadderStatus, RatingSystem};
use skirmish_protocol::tournament::{ForfeitReason, MatchId, MatchResult, TournamentId};
use skirmish_protocol::{Clock, GameConfig, RoomConfig, RoomId};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use super::table::{Summed, games_of, offers, table};
use super::{LadderOptions, LadderStart, Members, game_of, rating};
use crate::journal::Journal;
use crate::lobby::Lobby;
use crate::room::MatchReport;
use crate::store::{
    EntrantStats, KeptMatch, LadderFinish, ReplaySeat, ReplaySummary, Store, StoreError, StoredEntrant,
    StoredLadderGame, StoredRoom,
};
use crate::tournament::schedule::{self, Planned};
use crate::tournament::{RETRY_MS, SealedMap};
use crate::wall_clock::now_ms;

/// The most entrants one account may have on a ladder: 64 (its strategies times the versions
/// it declared). Past it a new strategy or version is not entered (logged): a bot that declares a
/// new version at every connection cannot grow the table and the store without end.
pub(crate) const MAX_ENTRANTS_PER_ACCOUNT: usize = 64;

/// A day, in milliseconds: the window of the cap on games per pair.
const DAY_MS: u64 = 24 * 3600 * 1000;

/// The key a ladder's sealed games are published under in the shared map: a fixed id per
/// ladder (`5c1a0000-...-000000000000` plus its index) that no tournament's random id takes.
fn seal_key(index: usize) -> TournamentId {
    TournamentId(uuid::Uuid::from_u128(
        0x5c1a_0000_0000_4000_8000_0000_0000_0000 + index as u128,
    ))
}

/// A game being played.
struct Running {
    seats: Vec<u64>,
    deal: Option<u32>,
    abandon: CancellationToken,
}

/// One ladder's actor.
pub(crate) struct Actor {
    id: LadderId,
    game: GameConfig,
    system: RatingSystem,
    seats: usize,
    dealt: bool,
    store: Store,
    lobby: Lobby,
    journal: Journal,
    members: Members,
    options: LadderOptions,
    seed: u64,
    next_deal: u32,
    /// Every entrant, by number.
    entrants: HashMap<u64, StoredEntrant>,
    /// Entrants whose bot is connected and in the ladder now.
    present: HashSet<u64>,
    running: HashMap<MatchId, Running>,
    /// The games that ended in the last 24 hours: when, and who sat where.
    recent: VecDeque<(u64, Vec<u64>)>,
    /// Games played by each group (its entrants sorted), for the seat rotation.
    orders: HashMap<Vec<u64>, usize>,
    /// The tables of each deal still open somewhere: its games, and how many are running.
    deals: HashMap<u32, (Vec<MatchId>, usize)>,
    games: u64,
    sealed: SealedMap,
    seal_key: TournamentId,
    /// Logs of games cut off by a stop, to go on from.
    logs: HashMap<RoomId, StoredRoom>,
    /// Entrants not entered for their account's cap, logged once each (forgotten past 1,024).
    refused: HashSet<(String, String, String)>,
}

impl Actor {
    /// Ladder `id` as the store holds it; its running games take their logs out of `logs`, and
    /// those without one are made void.
    pub(crate) async fn load(
        id: LadderId,
        index: usize,
        start: &LadderStart,
        members: Members,
        logs: &mut HashMap<RoomId, StoredRoom>,
    ) -> Result<Actor, StoreError> {
        let store = start.store.clone();
        let game = game_of(id);
        let seats = game.seats();
        // Under 2^53, as tournaments' seeds.
        let fresh = rand::rng().random::<u64>() >> 11;
        let seed = store.ladder_seed(id, fresh).await?;
        let entrants = store
            .ladder_entrants(id)
            .await?
            .into_iter()
            .map(|e| (e.entrant.id, e))
            .collect();
        let now = now_ms();
        let finished = store
            .finished_ladder_games(id, now.saturating_sub(DAY_MS))
            .await?;
        let running = store.running_ladder_games(id).await?;
        let mut actor = Actor {
            id,
            dealt: game.kind().dealing() == GameDealing::ByDefault,
            system: rating::system_for(seats),
            seats,
            game,
            store,
            lobby: start.lobby.clone(),
            journal: start.journal.clone(),
            members,
            options: start.options,
            seed,
            next_deal: 0,
            entrants,
            present: HashSet::new(),
            running: HashMap::new(),
            recent: VecDeque::new(),
            orders: HashMap::new(),
            deals: HashMap::new(),
            games: 0,
            sealed: Arc::clone(&start.sealed),
            seal_key: seal_key(index),
            logs: HashMap::new(),
            refused: HashSet::new(),
        };
        actor.games = games_of(actor.entrants.values(), seats);
        for g in &finished {
            actor.recent.push_back((g.finished_ms, g.seats.clone()));
            actor.count_order(&g.seats);
        }
        for g in running.iter().chain(&finished) {
            if let Some(deal) = g.deal {
                actor.next_deal = actor.next_deal.max(deal + 1);
            }
        }
        for g in running {
            let room = RoomId(g.id.0);
            match logs.remove(&room) {
                Some(log) => {
                    actor.logs.insert(room, log);
                    actor.resume(&g);
                }
                None => {
                    warn!(ladder = %id, game = %g.id, "a game cut off by a stop has no log: void, not rated");
                    store_void(&actor.store, g.id).await;
                }
            }
        }
        // Deals still open: the finished tables of a deal some game still plays stay sealed.
        for g in &finished {
            if let Some((tables, _)) = g.deal.and_then(|d| actor.deals.get_mut(&d)) {
                tables.push(g.id);
            }
        }
        Ok(actor)
    }

    /// Notes a running game cut off by a stop (its room is rebuilt when the actor runs).
    fn resume(&mut self, g: &StoredLadderGame) {
        if let Some(deal) = g.deal {
            let entry = self.deals.entry(deal).or_default();
            entry.0.push(g.id);
            entry.1 += 1;
        }
        self.running.insert(
            g.id,
            Running {
                seats: g.seats.clone(),
                deal: g.deal,
                abandon: CancellationToken::new(),
            },
        );
    }

    fn count_order(&mut self, seats: &[u64]) {
        let mut group = seats.to_vec();
        group.sort_unstable();
        *self.orders.entry(group).or_default() += 1;
    }

    /// The ladder's id.
    pub(crate) fn id(&self) -> LadderId {
        self.id
    }

    /// Runs the actor until `shutdown` (the server stops, or this node lost the ladder's lease),
    /// publishing its table in `status`. Its games being played are abandoned then, left
    /// running in the store to go on from their logs.
    pub(crate) async fn run(mut self, status: &watch::Sender<LadderStatus>, shutdown: CancellationToken) {
        let (done_tx, mut done_rx) = mpsc::unbounded_channel::<(MatchId, Option<MatchReport>)>();
        self.resume_cut_off(&done_tx, &shutdown);
        loop {
            self.see_present().await;
            self.pair(&done_tx, &shutdown).await;
            self.reseal();
            status.send_replace(self.status());
            tokio::select! {
                Some((id, report)) = done_rx.recv() => self.record(id, report).await,
                () = tokio::time::sleep(Duration::from_millis(RETRY_MS)) => {}
                () = shutdown.cancelled() => {
                    for (_, running) in self.running.drain() {
                        running.abandon.cancel();
                    }
                    self.sealed.lock().expect("not poisoned").remove(&self.seal_key);
                    return;
                }
            }
        }
    }

    /// Rebuilds the rooms of the games a stop cut off, from their logs; their bots have the
    /// grace period to resume their seats. A log that does not replay makes its game void.
    fn resume_cut_off(
        &mut self,
        done: &mpsc::UnboundedSender<(MatchId, Option<MatchReport>)>,
        shutdown: &CancellationToken,
    ) {
        for (room, log) in std::mem::take(&mut self.logs) {
            let id = MatchId(room.0);
            let Some(running) = self.running.get(&id) else {
                self.journal.close(room);
                continue;
            };
            if !log
                .entries
                .iter()
                .any(|e| matches!(e, crate::entry::Entry::Started))
            {
                // Cut off before its match started (its bots not all seated yet, or their seats
                // never written): rebuilt, its room would wait for ever for seats nobody is
                // asked to take, and keep its entrants busy. Void, not rated.
                warn!(game = %id, "a ladder game cut off before it started: void, not rated");
                self.journal.close(room);
                let _ = done.send((id, None));
                let store = self.store.clone();
                tokio::spawn(async move { store_void(&store, id).await });
                continue;
            }
            let setup = crate::room::MatchSetup {
                id: room,
                bots: Vec::new(),
                deal: running
                    .deal
                    .map(|d| skirmish_protocol::deal::deal_seed(self.seed, d)),
                grace: Duration::from_millis(self.options.grace_ms),
                cancel: running.abandon.clone(),
            };
            match crate::room::restore_match(
                log,
                setup,
                self.lobby.clone(),
                self.journal.clone(),
                shutdown.clone(),
            ) {
                Ok((_, report)) => {
                    info!(game = %id, "ladder game goes on from its log");
                    let done = done.clone();
                    tokio::spawn(async move {
                        let _ = done.send((id, report.await.ok()));
                    });
                }
                Err(err) => {
                    warn!(game = %id, cause = %err, "a ladder game's log does not replay: void, not rated");
                    self.journal.close(room);
                    let _ = done.send((id, None));
                    let store = self.store.clone();
                    tokio::spawn(async move { store_void(&store, id).await });
                }
            }
        }
    }

    /// Finds the entrants whose bot is connected and in this ladder, making new entrants for
    /// new strategies and versions.
    async fn see_present(&mut self) {
        let now = now_ms();
        let mut present = HashSet::new();
        for (bot, strategy, version) in offers(&self.lobby, &self.members, self.id, self.game.kind()) {
            let known = self.entrants.values().find(|e| {
                e.entrant.bot == bot && e.entrant.strategy == strategy && e.entrant.version == version
            });
            let id = match known {
                Some(e) => e.entrant.id,
                None if self.entrants.values().filter(|e| e.entrant.bot == bot).count()
                    >= MAX_ENTRANTS_PER_ACCOUNT =>
                {
                    if self.refused.len() >= 1024 {
                        self.refused.clear();
                    }
                    if self
                        .refused
                        .insert((bot.clone(), strategy.clone(), version.clone()))
                    {
                        warn!(
                            bot,
                            strategy,
                            version,
                            "the account has as many ladder entrants as allowed: not entered"
                        );
                    }
                    continue;
                }
                None => match self.add_entrant(&bot, &strategy, &version, now).await {
                    Some(id) => id,
                    None => continue,
                },
            };
            present.insert(id);
        }
        for id in &present {
            if let Some(e) = self.entrants.get_mut(id) {
                e.stats.last_seen_ms = now;
            }
        }
        self.present = present;
    }

    async fn add_entrant(&mut self, bot: &str, strategy: &str, version: &str, now: u64) -> Option<u64> {
        let id = self.entrants.keys().max().map_or(1, |m| m + 1);
        let entrant = StoredEntrant {
            entrant: LadderEntrant {
                id,
                bot: bot.to_owned(),
                strategy: strategy.to_owned(),
                version: version.to_owned(),
            },
            stats: rating::fresh(self.system, now),
        };
        if let Err(cause) = self.store.add_ladder_entrant(self.id, &entrant).await {
            warn!(%cause, bot, strategy, "a new ladder entrant could not be stored");
            return None;
        }
        info!(entrant = id, bot, strategy, version, "new ladder entrant");
        self.entrants.insert(id, entrant);
        Some(id)
    }

    /// The entrants waiting to be paired: present, not playing, not paused. A pause that is
    /// over is lifted here.
    fn waiting(&mut self, now: u64) -> Vec<u64> {
        let busy: HashSet<u64> = self
            .running
            .values()
            .flat_map(|r| r.seats.iter().copied())
            .collect();
        let mut waiting = Vec::new();
        for id in &self.present {
            if busy.contains(id) {
                continue;
            }
            let Some(e) = self.entrants.get_mut(id) else {
                continue;
            };
            if e.stats.paused_until_ms > now {
                continue;
            }
            if e.stats.paused_until_ms != 0 {
                // The cool-down is over: paired again, the count starts afresh.
                e.stats.paused_until_ms = 0;
                e.stats.fail_streak = 0;
            }
            waiting.push(*id);
        }
        waiting
    }

    /// Games between entrants `a` and `b` in the last 24 hours.
    fn met_today(&self, a: u64, b: u64) -> u32 {
        let n = self
            .recent
            .iter()
            .filter(|(_, seats)| seats.contains(&a) && seats.contains(&b))
            .count()
            + self
                .running
                .values()
                .filter(|r| r.seats.contains(&a) && r.seats.contains(&b))
                .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// Whether `a` and `b` sat at `a`'s last game.
    fn last_met(&self, a: u64, b: u64) -> bool {
        self.recent
            .iter()
            .rev()
            .find(|(_, seats)| seats.contains(&a))
            .is_some_and(|(_, seats)| seats.contains(&b))
    }

    fn account(&self, id: u64) -> Option<String> {
        self.entrants
            .get(&id)
            .map(|e| crate::accounts::name_key(&e.entrant.bot))
    }

    /// Pairs the waiting entrants into groups of the game's seats and starts their games.
    async fn pair(
        &mut self,
        done: &mpsc::UnboundedSender<(MatchId, Option<MatchReport>)>,
        shutdown: &CancellationToken,
    ) {
        let now = now_ms();
        while self.recent.front().is_some_and(|(at, _)| *at + DAY_MS < now) {
            self.recent.pop_front();
        }
        let room_for = usize::try_from(self.options.concurrent)
            .unwrap_or(usize::MAX)
            .saturating_sub(self.running.len());
        if room_for == 0 {
            return;
        }
        let mut waiting = self.waiting(now);
        if waiting.len() < self.seats {
            return;
        }
        waiting.shuffle(&mut rand::rng());
        waiting.sort_by_key(|id| self.entrants.get(id).map_or(0, |e| e.stats.games));
        // No rematch at once while others are in the ladder: two fast bots would otherwise play
        // each other for ever while the slow ones are busy. When that leaves nobody to pair and
        // nothing is playing, rematches are allowed.
        let mut groups = self.groups(&waiting, room_for, self.present.len() > self.seats);
        if groups.is_empty() && self.running.is_empty() {
            groups = self.groups(&waiting, room_for, false);
        }
        if groups.is_empty() {
            return;
        }
        let mut planned: Vec<Planned> = groups
            .into_iter()
            .map(|mut group| {
                group.sort_unstable();
                let played = self.orders.get(&group).copied().unwrap_or(0);
                let orders = schedule::seat_orders(
                    &group
                        .iter()
                        .map(|g| usize::try_from(*g).unwrap_or(0))
                        .collect::<Vec<_>>(),
                );
                Planned {
                    round: 0,
                    seats: orders[played % orders.len()].clone(),
                    opening: None,
                    deal: None,
                }
            })
            .collect();
        self.next_deal = schedule::assign_deals(&mut planned, self.dealt, self.next_deal);
        for p in planned {
            let seats: Vec<u64> = p.seats.iter().map(|s| *s as u64).collect();
            self.start_game(seats, p.deal, now, done, shutdown).await;
        }
    }

    /// Groups `waiting` (in the order to serve them) into at most `room_for` tables: each with
    /// the entrants it met least today, never two of one account, never a pair past its daily
    /// cap, and, with `no_rematch`, never one of its last game's opponents.
    fn groups(&self, waiting: &[u64], room_for: usize, no_rematch: bool) -> Vec<Vec<u64>> {
        let mut used: HashSet<u64> = HashSet::new();
        let mut groups: Vec<Vec<u64>> = Vec::new();
        for &first in waiting {
            if groups.len() >= room_for {
                break;
            }
            if used.contains(&first) {
                continue;
            }
            let mut group = vec![first];
            let mut accounts: HashSet<String> = self.account(first).into_iter().collect();
            let mut candidates: Vec<u64> = waiting
                .iter()
                .copied()
                .filter(|c| !used.contains(c) && *c != first)
                .collect();
            candidates.sort_by_key(|c| self.met_today(first, *c));
            for c in candidates {
                if group.len() == self.seats {
                    break;
                }
                let Some(account) = self.account(c) else {
                    continue;
                };
                // Never an account against itself; never a pair past its cap for the day.
                if accounts.contains(&account)
                    || group
                        .iter()
                        .any(|g| self.met_today(*g, c) >= self.options.pair_games_per_day)
                    || (no_rematch && group.iter().any(|g| self.last_met(*g, c)))
                {
                    continue;
                }
                accounts.insert(account);
                group.push(c);
            }
            if group.len() == self.seats {
                used.extend(group.iter().copied());
                groups.push(group);
            }
        }
        groups
    }

    /// Starts one game: stored as running first, then its room opened with the entrants' bots.
    async fn start_game(
        &mut self,
        seats: Vec<u64>,
        deal: Option<u32>,
        now: u64,
        done: &mpsc::UnboundedSender<(MatchId, Option<MatchReport>)>,
        shutdown: &CancellationToken,
    ) {
        let game = self.game.kind();
        let picks: Vec<_> = seats
            .iter()
            .filter_map(|id| self.entrants.get(id))
            .filter_map(|e| self.lobby.find_bot(&e.entrant.bot, game, &e.entrant.strategy))
            .collect();
        if picks.len() != seats.len() {
            // A bot left between the look and the pairing: paired again next time.
            return;
        }
        let id = MatchId::random();
        let stored = StoredLadderGame {
            id,
            seats: seats.clone(),
            deal,
            result: None,
            created_ms: now,
            finished_ms: 0,
        };
        if let Err(cause) = self.store.start_ladder_game(self.id, &stored).await {
            warn!(%cause, "a ladder game could not be stored; not started");
            return;
        }
        let abandon = shutdown.child_token();
        let config = RoomConfig {
            name: Some(format!("Ladder {}", self.id)),
            game: self.game.clone(),
            clock: Some(Clock {
                deploy_ms: self.options.deploy_ms,
                move_ms: self.options.move_ms,
                game_ms: 0,
            }),
            on_drop: None,
        };
        let setup = crate::room::MatchSetup {
            id: RoomId(id.0),
            bots: picks,
            deal: deal.map(|d| skirmish_protocol::deal::deal_seed(self.seed, d)),
            grace: Duration::from_millis(self.options.grace_ms),
            cancel: abandon.clone(),
        };
        match crate::room::spawn_match(
            config,
            setup,
            self.lobby.clone(),
            self.journal.clone(),
            shutdown.clone(),
        ) {
            Ok((room, report)) => {
                info!(game = %id, room = %room.id(), ?seats, ?deal, "ladder game started");
                if let Some(deal) = deal {
                    let entry = self.deals.entry(deal).or_default();
                    entry.0.push(id);
                    entry.1 += 1;
                }
                self.running.insert(id, Running { seats, deal, abandon });
                let done = done.clone();
                tokio::spawn(async move {
                    let _ = done.send((id, report.await.ok()));
                });
            }
            Err(err) => {
                warn!(game = %id, cause = %err, "a ladder game could not start: void");
                store_void(&self.store, id).await;
            }
        }
    }

    /// Publishes which games are sealed: those of a deal at several tables, one still running.
    fn reseal(&mut self) {
        self.deals.retain(|_, (_, open)| *open > 0);
        let now: HashSet<MatchId> = self
            .deals
            .values()
            .filter(|(tables, _)| tables.len() > 1)
            .flat_map(|(tables, _)| tables.iter().copied())
            .collect();
        let mut sealed = self.sealed.lock().expect("not poisoned");
        if now.is_empty() {
            sealed.remove(&self.seal_key);
        } else {
            sealed.insert(self.seal_key, now);
        }
    }

    /// Rates and stores a game that ended; a game abandoned (the server stops) is left running
    /// in the store, to go on from its log after the restart.
    async fn record(&mut self, id: MatchId, report: Option<MatchReport>) {
        let Some(running) = self.running.remove(&id) else {
            return;
        };
        if let Some((_, open)) = running.deal.and_then(|d| self.deals.get_mut(&d)) {
            *open = open.saturating_sub(1);
        }
        let Some(report) = report else {
            return;
        };
        let now = now_ms();
        let Some(after) = self.rated(&running.seats, &report.result, now) else {
            return;
        };
        let kept = KeptMatch {
            summary: ReplaySummary {
                id: RoomId(id.0),
                game: self.game.clone(),
                seats: running
                    .seats
                    .iter()
                    .filter_map(|s| self.entrants.get(s))
                    .map(|e| ReplaySeat {
                        name: e.entrant.bot.clone(),
                        bot: Some(e.entrant.strategy.clone()),
                        took_over_from: None,
                    })
                    .collect(),
                result: Some(report.result.clone()),
                finished_ms: now,
            },
            events: report.events,
            players: Vec::new(),
        };
        let finish = LadderFinish {
            entrants: running.seats.iter().copied().zip(after.iter().cloned()).collect(),
            kept: Some(kept),
        };
        match self
            .store
            .finish_ladder_game(self.id, id, &report.result, now, finish)
            .await
        {
            Ok(true) => {
                info!(game = %id, result = ?report.result.placings, "ladder game rated");
                for (seat, stats) in running.seats.iter().zip(after) {
                    if let Some(e) = self.entrants.get_mut(seat) {
                        e.stats = stats;
                    }
                }
                self.recent.push_back((now, running.seats.clone()));
                self.count_order(&running.seats);
                self.games += 1;
            }
            Ok(false) => {
                // Counted by another node that ran this ladder before (a take-over): its
                // entrants' stats are read again, so that the next game's starts from them.
                info!(game = %id, "ladder game already counted");
                if let Ok(stored) = self.store.ladder_entrants(self.id).await {
                    for e in stored {
                        if running.seats.contains(&e.entrant.id) {
                            self.entrants.insert(e.entrant.id, e);
                        }
                    }
                }
            }
            Err(cause) => warn!(game = %id, %cause, "a ladder game's result could not be stored: not rated"),
        }
    }

    /// The stats of each seat's entrant after `result`: ratings, counts, forfeits by cause, and
    /// a pause for an entrant whose engine keeps failing.
    fn rated(&self, seats: &[u64], result: &MatchResult, now: u64) -> Option<Vec<EntrantStats>> {
        if result.placings.len() != seats.len() {
            warn!(?seats, placings = ?result.placings, "a result with the wrong number of seats: not rated");
            return None;
        }
        let before: Vec<EntrantStats> = seats
            .iter()
            .map(|s| self.entrants.get(s).map(|e| e.stats.clone()))
            .collect::<Option<_>>()?;
        let ratings: Vec<(f64, f64, f64)> = before
            .iter()
            .map(|s| (s.rating, s.deviation, s.volatility))
            .collect();
        let new = rating::rate(self.system, &ratings, &result.placings);
        let best = result.placings.iter().copied().min().unwrap_or(1);
        let firsts = result.placings.iter().filter(|p| **p == best).count();
        Some(
            before
                .into_iter()
                .zip(new)
                .enumerate()
                .map(|(seat, (mut stats, (r, d, v)))| {
                    stats.rating = r;
                    stats.deviation = d;
                    stats.volatility = v;
                    stats.games += 1;
                    stats.last_seen_ms = now;
                    match (result.placings[seat] == best, firsts) {
                        (true, 1) => stats.wins += 1,
                        (true, _) => stats.draws += 1,
                        (false, _) => stats.losses += 1,
                    }
                    let forfeit = result
                        .forfeit
                        .as_ref()
                        .filter(|f| usize::from(f.seat.0) == seat)
                        .map(|f| f.reason);
                    if let Some(reason) = forfeit {
                        let counts = &mut stats.forfeits;
                        match reason {
                            ForfeitReason::TimedOut => counts.timed_out += 1,
                            ForfeitReason::Disconnected => counts.disconnected += 1,
                            ForfeitReason::Absent => counts.absent += 1,
                            ForfeitReason::EngineFailure => counts.engine_failure += 1,
                            ForfeitReason::Other => counts.other += 1,
                        }
                    }
                    match forfeit {
                        Some(reason @ (ForfeitReason::EngineFailure | ForfeitReason::TimedOut)) => {
                            stats.fail_streak += 1;
                            stats.last_fail = Some(reason);
                            if stats.fail_streak >= self.options.pause_after {
                                stats.paused_until_ms = now.saturating_add(self.options.cooldown_ms);
                            }
                        }
                        _ => stats.fail_streak = 0,
                    }
                    stats
                })
                .collect(),
        )
    }

    /// The ladder's table now.
    pub(crate) fn status(&self) -> LadderStatus {
        table(
            Summed {
                id: self.id,
                game: &self.game,
                system: self.system,
                games: self.games,
                running: self.running.len(),
            },
            self.entrants.values(),
            &self.present,
        )
    }
}

async fn store_void(store: &Store, id: MatchId) {
    if let Err(cause) = store.void_ladder_game(id).await {
        warn!(game = %id, %cause, "a ladder game could not be marked void");
    }
}
