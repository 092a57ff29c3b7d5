//! Presence, leases and take-over: a node that dies does not take its games with it.
//!
//! Every node puts its presence in the `skirmish_nodes` bucket every [`HEARTBEAT`]; every node
//! reads, every heartbeat, the presence of each node that owns something in the directory, and
//! counts it alive while its entry's revision changed within [`LEASE`], by its own clock (no
//! clocks are compared between machines). A room's (and a running tournament's)
//! lease is its directory entry naming its node, valid while that node is alive: one lease per
//! node to renew, not one per room. When a node is gone (its presence deleted by a graceful
//! stop, or not renewed for [`LEASE`] after a `kill -9`), every other node tries to take its rooms
//! and tournaments over; a take-over is a compare-and-swap of the entry's revision, so exactly
//! one node wins each, rebuilds it from the shared journal ([`crate::room::restore`],
//! [`crate::tournament::Tournaments::adopt`]) and tells every node ([`super::home::MOVED`]),
//! whose connected players then attach again: a player sees a fresh snapshot, their seat kept.
//!
//! Each ladder ([`LadderId`]) has a lease the same way: its entry in `skirmish_ladders` names
//! the node running it. Every heartbeat a node claims the ladders no node holds (a create, so
//! one node wins each) and takes over those whose node is gone (a compare-and-swap, only while
//! the entry still names that node), then runs them from the store
//! ([`crate::ladder::Ladders::adopt`]); a node that finds a ladder it runs leased to another
//! stops it there ([`crate::ladder::Ladders::release`]).
//!
//! A node that cannot renew its own presence for half a lease (the bus is unreachable from it)
//! stops itself, flushing its journal, before any other node may take its rooms over: two nodes
//! never run one room.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_nats::jetstream::kv;
use skirmish_protocol::RoomId;
use skirmish_protocol::ladder::LadderId;

use super::{Cluster, home, wire};
use crate::journal::Journal;
use crate::store::Store;
use crate::wall_clock::now_ms;

/// How often a node renews its presence (1 s).
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long a node's presence lasts without renewal (5 s: five heartbeats); then its rooms and
/// tournaments are taken over. A node stops itself when it could not renew for half of it.
pub const LEASE: Duration = Duration::from_secs(5);

/// A room stored as open but absent from the directory is taken over at a node's start only
/// when it is older than this (10 s): a younger one may be a room whose node has not listed it
/// yet.
const ORPHAN_AGE: Duration = Duration::from_secs(10);

/// The nodes read in the presence bucket: each node's last revision and when this node first
/// read it.
#[derive(Debug, Default)]
pub(super) struct Nodes {
    seen: HashMap<String, (u64, Instant)>,
}

impl Nodes {
    /// Records that `node`'s presence is at `revision` (`None`: it has none); whether the node
    /// is alive: it has a presence that changed within the lease, by this node's clock.
    fn read(&mut self, node: &str, revision: Option<u64>) -> bool {
        let Some(revision) = revision else {
            self.seen.remove(node);
            return false;
        };
        let seen = self
            .seen
            .entry(node.to_owned())
            .or_insert((revision, Instant::now()));
        if seen.0 != revision {
            *seen = (revision, Instant::now());
        }
        seen.1.elapsed() < LEASE
    }
}

/// What a node needs to take rooms and tournaments over.
pub(super) struct Keeper {
    pub store: Store,
    pub journal: Journal,
    pub tournaments: crate::tournament::Tournaments,
    pub ladders: crate::ladder::Ladders,
    pub expiry: Option<Duration>,
}

async fn put_presence(cluster: &Cluster) -> Result<(), String> {
    let entry = wire::NodeEntry {
        rooms: cluster.lobby().local_room_count(),
        at_ms: now_ms(),
    };
    let bytes = serde_json::to_vec(&entry).expect("presence serializes");
    cluster
        .0
        .buckets
        .nodes
        .put(&*cluster.0.node, bytes.into())
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Puts this node's presence and starts the heartbeat and the keeper.
pub(super) async fn start(cluster: &Cluster, keeper: Keeper) -> Result<(), String> {
    put_presence(cluster).await?;
    let c = cluster.clone();
    tokio::spawn(async move {
        let mut renewed = Instant::now();
        let mut tick = tokio::time::interval(HEARTBEAT);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = c.0.shutdown.cancelled() => return,
            }
            c.sweep_connections();
            match put_presence(&c).await {
                Ok(()) => renewed = Instant::now(),
                Err(cause) => {
                    tracing::warn!(%cause, "this node's presence could not be renewed");
                    if renewed.elapsed() >= LEASE / 2 {
                        tracing::error!(
                            "the bus has been unreachable for half a lease: this node stops, so that another can take its rooms over"
                        );
                        c.0.fenced.store(true, std::sync::atomic::Ordering::SeqCst);
                        c.0.shutdown.cancel();
                        return;
                    }
                }
            }
        }
    });
    let c = cluster.clone();
    tokio::spawn(async move {
        // Every other node's presence is seen (or missed) before anything is taken over.
        tokio::time::sleep(2 * HEARTBEAT).await;
        tokio::select! {
            () = orphans(&c, &keeper) => {}
            () = c.0.shutdown.cancelled() => return,
        }
        let mut tick = tokio::time::interval(HEARTBEAT);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = c.0.shutdown.cancelled() => return,
            }
            // A node that stops (or fenced itself) takes nothing over, even when a take-over
            // it began waits on the bus until the bus is back: dropped there. An entry it
            // already swapped to itself is its own stale entry, taken back at its next start.
            tokio::select! {
                () = take_over(&c, &keeper) => {}
                () = c.0.shutdown.cancelled() => return,
            }
        }
    });
    Ok(())
}

/// A graceful stop's last step: this node's presence goes, and its rooms' leases with it.
pub(super) async fn leave(cluster: &Cluster) {
    if let Err(cause) = cluster.0.buckets.nodes.delete(&*cluster.0.node).await {
        tracing::warn!(%cause, "this node's presence could not be deleted; the others take over after the lease");
    }
}

/// Whether a directory entry naming `node` needs a new owner: its node is gone, or it is this
/// node while this node does not run it (a restart under the same id after a `kill -9`).
fn orphaned(cluster: &Cluster, alive: &HashSet<String>, node: &str, here: bool) -> bool {
    if node == &*cluster.0.node {
        !here
    } else {
        !alive.contains(node)
    }
}

/// Reads the presence of every node that owns something in the directory; the nodes alive.
async fn alive_owners(cluster: &Cluster) -> HashSet<String> {
    let owners: HashSet<String> = {
        let cache = cluster.0.cache.lock().expect("not poisoned");
        cache
            .rooms
            .values()
            .map(|r| r.node.to_string())
            .chain(cache.tournaments.values().map(ToString::to_string))
            .chain(cache.ladders.values().map(ToString::to_string))
            .filter(|n| **n != *cluster.0.node)
            .collect()
    };
    let mut alive = HashSet::new();
    for node in owners {
        let revision = match cluster.0.buckets.nodes.entry(&node).await {
            Ok(Some(entry)) if entry.operation == kv::Operation::Put => Some(entry.revision),
            Ok(_) => None,
            // The bus failing here says nothing of that node: counted alive this time.
            Err(_) => {
                alive.insert(node);
                continue;
            }
        };
        if cluster
            .0
            .nodes
            .lock()
            .expect("not poisoned")
            .read(&node, revision)
        {
            alive.insert(node);
        }
    }
    alive
}

/// Takes over every room and running tournament whose node is gone.
async fn take_over(cluster: &Cluster, keeper: &Keeper) {
    let alive = alive_owners(cluster).await;
    let lobby = cluster.lobby();
    // Read under the cache's lock, decided after it: the lobby's lock is never taken while the
    // cache's is held (the lobby takes the cache's under its own: the other order deadlocks).
    type Owned<T> = Vec<(T, Arc<str>)>;
    let (rooms, tournaments): (Owned<RoomId>, Owned<String>) = {
        let cache = cluster.0.cache.lock().expect("not poisoned");
        let rooms = cache
            .rooms
            .iter()
            // A match room goes with its tournament.
            .filter(|(_, r)| r.summary.owner != crate::room::MATCH_OWNER)
            .map(|(id, r)| (*id, Arc::clone(&r.node)))
            .collect();
        let tournaments = cache
            .tournaments
            .iter()
            .map(|(id, node)| (id.clone(), Arc::clone(node)))
            .collect();
        (rooms, tournaments)
    };
    let rooms: Vec<RoomId> = rooms
        .into_iter()
        .filter(|(id, node)| orphaned(cluster, &alive, node, lobby.local_room(*id).is_some()))
        .map(|(id, _)| id)
        .collect();
    let tournaments: Vec<String> = tournaments
        .into_iter()
        .filter(|(id, node)| orphaned(cluster, &alive, node, keeper.tournaments.runs(id)))
        .map(|(id, _)| id)
        .collect();
    for id in rooms {
        claim_room(cluster, keeper, id).await;
    }
    for id in tournaments {
        claim_tournament(cluster, keeper, &id).await;
    }
    let ladders: Vec<(LadderId, Option<Arc<str>>)> = {
        let cache = cluster.0.cache.lock().expect("not poisoned");
        LadderId::ALL
            .into_iter()
            .map(|id| (id, cache.ladders.get(&id).cloned()))
            .collect()
    };
    for (id, node) in ladders {
        let here = keeper.ladders.runs(id);
        match node {
            // No node holds it (a cluster's first start, or its node gave it up).
            None => claim_ladder(cluster, keeper, id, None).await,
            Some(node) if here && node != cluster.0.node => lost_ladder(cluster, keeper, id).await,
            Some(node) if orphaned(cluster, &alive, &node, here) => {
                claim_ladder(cluster, keeper, id, Some(&node)).await;
            }
            Some(_) => {}
        }
    }
}

/// At a node's start: rooms and running tournaments the store holds as open that no node lists
/// (the directory was lost with its NATS server), taken over like a gone node's.
async fn orphans(cluster: &Cluster, keeper: &Keeper) {
    let rooms = match keeper.store.open_room_ids().await {
        Ok(rooms) => rooms,
        Err(cause) => {
            tracing::warn!(%cause, "the open rooms could not be read");
            return;
        }
    };
    let old = now_ms().saturating_sub(u64::try_from(ORPHAN_AGE.as_millis()).unwrap_or(u64::MAX));
    let listed: HashSet<RoomId> = cluster
        .0
        .cache
        .lock()
        .expect("not poisoned")
        .rooms
        .keys()
        .copied()
        .collect();
    for (id, owner, created_ms) in rooms {
        if owner != crate::room::MATCH_OWNER && !listed.contains(&id) && created_ms < old {
            claim_room(cluster, keeper, id).await;
        }
    }
    let running = keeper.tournaments.running_stored().await;
    let leased: HashSet<String> = cluster
        .0
        .cache
        .lock()
        .expect("not poisoned")
        .tournaments
        .keys()
        .cloned()
        .collect();
    for id in running {
        if !leased.contains(&id) {
            claim_tournament(cluster, keeper, &id).await;
        }
    }
}

/// Swaps the entry at `key` to name this node when it still is `seen` (or absent): whether this
/// node won it.
async fn claim(store: &kv::Store, key: &str, value: bytes::Bytes) -> bool {
    match store.entry(key).await {
        Ok(Some(entry)) if entry.operation == kv::Operation::Put => {
            store.update(key, value, entry.revision).await.is_ok()
        }
        Ok(_) => store.create(key, value).await.is_ok(),
        Err(_) => false,
    }
}

/// Takes room `id` over: wins its entry, rebuilds it from the journal, tells every node.
async fn claim_room(cluster: &Cluster, keeper: &Keeper, id: RoomId) {
    let key = id.to_string();
    let summary = cluster
        .0
        .cache
        .lock()
        .expect("not poisoned")
        .rooms
        .get(&id)
        .map(|r| r.summary.clone());
    let stored = match keeper.store.open_room(id).await {
        Ok(Some(stored)) => stored,
        Ok(None) => {
            // Over: nothing to take, the entry goes.
            let _ = cluster.0.buckets.rooms.delete(&key).await;
            return;
        }
        Err(cause) => {
            tracing::warn!(room = %id, %cause, "a room to take over could not be read");
            return;
        }
    };
    let summary = summary.unwrap_or_else(|| skirmish_protocol::RoomSummary {
        id,
        owner: stored.owner,
        config: stored.config.clone(),
        status: skirmish_protocol::RoomStatus::Waiting,
        seats: Vec::new(),
        spectators: 0,
    });
    let entry = wire::RoomEntry {
        node: Arc::clone(&cluster.0.node),
        summary,
    };
    let value = serde_json::to_vec(&entry).expect("entries serialize").into();
    if !claim(&cluster.0.buckets.rooms, &key, value).await {
        return;
    }
    tracing::info!(room = %id, "taking a room over");
    let lobby = cluster.lobby();
    let holders = crate::room::seat_holders(&stored);
    match crate::room::restore(
        stored,
        lobby.clone(),
        keeper.journal.clone(),
        cluster.0.shutdown.clone(),
        keeper.expiry,
    ) {
        Ok(Some(_)) => {
            let payload = serde_json::to_vec(&wire::Moved { room: id }).expect("serializes");
            let _ = cluster.0.client.publish(home::MOVED, payload.into()).await;
        }
        Ok(None) => {
            let _ = cluster.0.buckets.rooms.delete(&key).await;
        }
        Err(err) => {
            tracing::error!(room = %id, cause = %err, "a room taken over could not be restored; it is kept as broken");
            let _ = keeper.store.mark_broken(id, err.to_string(), now_ms()).await;
            for holder in holders {
                lobby.restore_player(
                    holder.player,
                    &holder.name,
                    &holder.token,
                    holder.account.as_deref(),
                );
                lobby.room_broken(holder.player, id);
            }
            let _ = cluster.0.buckets.rooms.delete(&key).await;
        }
    }
}

/// Takes ladder `id` over (or claims it, when no node holds it: `gone` is `None`): wins its
/// entry by a create or a compare-and-swap of its revision, only while the entry still names
/// `gone` (a node this one saw die, or none), then runs the ladder here from the store.
async fn claim_ladder(cluster: &Cluster, keeper: &Keeper, id: LadderId, gone: Option<&str>) {
    let store = &cluster.0.buckets.ladders;
    let key = id.as_str();
    let entry = wire::LadderEntry {
        node: Arc::clone(&cluster.0.node),
    };
    let value: bytes::Bytes = serde_json::to_vec(&entry).expect("entries serialize").into();
    let won = match store.entry(key).await {
        Ok(Some(current)) if current.operation == kv::Operation::Put => {
            let holder = serde_json::from_slice::<wire::LadderEntry>(&current.value).ok();
            // Claimed meanwhile by a node this one has not heard of yet: left to it.
            if holder.as_ref().map(|h| &*h.node) != gone {
                return;
            }
            store.update(key, value, current.revision).await.is_ok()
        }
        Ok(_) => store.create(key, value).await.is_ok(),
        Err(_) => false,
    };
    if !won {
        return;
    }
    cluster
        .0
        .cache
        .lock()
        .expect("not poisoned")
        .ladders
        .insert(id, Arc::clone(&cluster.0.node));
    tracing::info!(ladder = %id, from = gone.unwrap_or("no node"), "taking a ladder over");
    if let Err(cause) = keeper.ladders.adopt(id).await {
        // Its entry stays this node's: the next round of take-overs tries again.
        tracing::warn!(ladder = %id, %cause, "a ladder to take over could not be read");
    }
}

/// Stops ladder `id` here when its entry, read again from the directory (the cache may lag),
/// names another node: two nodes never run one ladder.
async fn lost_ladder(cluster: &Cluster, keeper: &Keeper, id: LadderId) {
    let Ok(Some(current)) = cluster.0.buckets.ladders.entry(id.as_str()).await else {
        return;
    };
    let holder = serde_json::from_slice::<wire::LadderEntry>(&current.value).ok();
    if current.operation == kv::Operation::Put && holder.is_some_and(|h| h.node != cluster.0.node) {
        keeper.ladders.release(id);
    }
}

/// Takes running tournament `id` over, with its matches cut off.
async fn claim_tournament(cluster: &Cluster, keeper: &Keeper, id: &str) {
    let entry = wire::TournamentEntry {
        node: Arc::clone(&cluster.0.node),
    };
    let value = serde_json::to_vec(&entry).expect("entries serialize").into();
    if !claim(&cluster.0.buckets.tournaments, id, value).await {
        return;
    }
    tracing::info!(tournament = %id, "taking a tournament over");
    match keeper.tournaments.adopt(id).await {
        Ok(true) => {}
        Ok(false) => {
            let _ = cluster.0.buckets.tournaments.delete(id).await;
        }
        Err(cause) => tracing::warn!(tournament = %id, %cause, "a tournament to take over could not be read"),
    }
}
