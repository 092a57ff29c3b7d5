//! The cluster's directory: JetStream key-value buckets on the bus's NATS server, watched by
//! every node into its cache, written by the node a record belongs to.
//!
//! | bucket | key | value | written by |
//! |---|---|---|---|
//! | `skirmish_rooms` | room id | owner node and summary ([`wire::RoomEntry`]) | the owner (a take-over compares and swaps) |
//! | `skirmish_bots` | player id | the bot and the node holding it ([`ClusterBot`]) | that node |
//! | `skirmish_players` | `t.<token digest>`, `a.<account, hex>` | a resume entry ([`ClusterPlayer`]) | the node holding the player |
//! | `skirmish_tournaments` | tournament id | the node running it ([`wire::TournamentEntry`]) | that node (a take-over compares and swaps) |
//! | `skirmish_ladders` | ladder id | the node running it ([`wire::LadderEntry`]) | that node (claimed by compare and swap) |
//! | `skirmish_ladder_members` | `a.<account, hex>` | the ladders the bot account plays in ([`wire::Membership`]) | the node its latest `hello` came to |
//! | `skirmish_nodes` | node id | presence and load ([`wire::NodeEntry`]) | that node, every [`super::HEARTBEAT`] |
//!
//! Writes from the lobby (under its lock, which must not wait) are queued here, the newest value
//! per key, and written by one task: the queue is bounded by the number of keys.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_nats::jetstream::{self, kv};
use bytes::Bytes;
use futures_util::StreamExt;
use serde::Serialize;
use tokio::sync::Notify;

use super::{Cluster, wire};
use crate::replica::{ClusterBot, ClusterPlayer};

/// The buckets.
#[derive(Debug)]
pub(super) struct Buckets {
    js: jetstream::Context,
    pub rooms: kv::Store,
    pub bots: kv::Store,
    pub players: kv::Store,
    pub tournaments: kv::Store,
    pub ladders: kv::Store,
    pub members: kv::Store,
    pub nodes: kv::Store,
}

/// Which bucket a queued write goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Bucket {
    Rooms,
    Bots,
    Players,
    Tournaments,
    Members,
}

impl Buckets {
    /// Opens the buckets, making those missing (one value per key, kept on the NATS server's
    /// disk: a restarted NATS keeps the directory).
    pub(super) async fn open(client: &async_nats::Client) -> Result<Buckets, String> {
        let js = jetstream::new(client.clone());
        // The bucket's stream is made here as the key-value convention lays it out (ADR-8: one
        // stream `KV_<bucket>` on `$KV.<bucket>.>`, the last value per key, roll-ups allowed,
        // direct gets) rather than with `create_key_value`: that call first reads the account's
        // JetStream limits in a form NATS 2.9 (Debian's) does not send, and fails there.
        let open = |name: &'static str| {
            let js = js.clone();
            async move {
                js.get_or_create_stream(jetstream::stream::Config {
                    name: format!("KV_{name}"),
                    subjects: vec![format!("$KV.{name}.>")],
                    max_messages_per_subject: 1,
                    storage: jetstream::stream::StorageType::File,
                    allow_rollup: true,
                    deny_delete: true,
                    allow_direct: true,
                    num_replicas: 1,
                    discard: jetstream::stream::DiscardPolicy::New,
                    ..Default::default()
                })
                .await
                .map_err(|e| format!("bucket {name}: {e}"))?;
                js.get_key_value(name)
                    .await
                    .map_err(|e| format!("bucket {name}: {e}"))
            }
        };
        Ok(Buckets {
            js: js.clone(),
            rooms: open("skirmish_rooms").await?,
            bots: open("skirmish_bots").await?,
            players: open("skirmish_players").await?,
            tournaments: open("skirmish_tournaments").await?,
            ladders: open("skirmish_ladders").await?,
            members: open("skirmish_ladder_members").await?,
            nodes: open("skirmish_nodes").await?,
        })
    }

    fn store(&self, bucket: Bucket) -> &kv::Store {
        match bucket {
            Bucket::Rooms => &self.rooms,
            Bucket::Bots => &self.bots,
            Bucket::Players => &self.players,
            Bucket::Tournaments => &self.tournaments,
            Bucket::Members => &self.members,
        }
    }
}

/// The key of a resume entry by its token's digest.
pub(super) fn token_key(digest: &str) -> String {
    format!("t.{digest}")
}

/// The key of a resume entry by its bot account (the account's name key, in hex: a name may
/// hold characters a key cannot).
pub(super) fn account_key(account: &str) -> String {
    format!("a.{}", hex::encode(crate::accounts::name_key(account)))
}

/// Directory writes waiting to be made: the newest value per key (`None`: delete).
#[derive(Debug, Default)]
pub(super) struct Pending {
    writes: Mutex<HashMap<(Bucket, String), Option<Bytes>>>,
    ready: Notify,
}

impl Pending {
    /// Queues putting `value` at `key`.
    pub(super) fn put<T: Serialize>(&self, bucket: Bucket, key: String, value: &T) {
        let bytes = Bytes::from(serde_json::to_vec(value).expect("directory entries serialize"));
        self.writes
            .lock()
            .expect("not poisoned")
            .insert((bucket, key), Some(bytes));
        self.ready.notify_one();
    }

    /// Queues deleting `key`.
    pub(super) fn delete(&self, bucket: Bucket, key: String) {
        self.writes
            .lock()
            .expect("not poisoned")
            .insert((bucket, key), None);
        self.ready.notify_one();
    }

    fn take(&self) -> HashMap<(Bucket, String), Option<Bytes>> {
        std::mem::take(&mut *self.writes.lock().expect("not poisoned"))
    }
}

/// Writes the queued directory writes, for ever (a write that fails is tried again a second
/// later, unless a newer one for its key came meanwhile).
pub(super) async fn write(cluster: Cluster) {
    let held_back = write_delay_fault();
    loop {
        cluster.0.pending.ready.notified().await;
        if let Some(delay) = held_back {
            tokio::time::sleep(delay).await;
        }
        write_pending(&cluster).await;
    }
}

/// Debug builds only, for the tests of what a slow directory must not break
/// (`server/tests/cluster_outages.rs`): `SKIRMISH_FAULT_DIRECTORY_DELAY_MS` holds every batch
/// of directory writes back that long, as a loaded bus would. A release build never reads it.
fn write_delay_fault() -> Option<std::time::Duration> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let ms: u64 = std::env::var("SKIRMISH_FAULT_DIRECTORY_DELAY_MS")
        .ok()?
        .parse()
        .ok()?;
    Some(std::time::Duration::from_millis(ms))
}

async fn write_pending(cluster: &Cluster) {
    for ((bucket, key), value) in cluster.0.pending.take() {
        let store = cluster.0.buckets.store(bucket);
        let written = match &value {
            Some(bytes) => store
                .put(&key, bytes.clone())
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            // A bot goes from the directory only while its entry is this node's: one that
            // resumed on another node meanwhile (its account said hello there) keeps the entry
            // that node put, or no node could seat it.
            None if bucket == Bucket::Bots => delete_own_bot(cluster, store, &key).await,
            None => store.delete(&key).await.map_err(|e| e.to_string()),
        };
        if let Err(cause) = written {
            tracing::warn!(%key, %cause, "a directory write failed; trying again");
            let mut writes = cluster.0.pending.writes.lock().expect("not poisoned");
            writes.entry((bucket, key)).or_insert(value);
            drop(writes);
            let pending = Arc::clone(&cluster.0);
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                pending.pending.ready.notify_one();
            });
        }
    }
}

/// Deletes bot entry `key` when it names this node (compared and deleted at its revision).
async fn delete_own_bot(cluster: &Cluster, store: &kv::Store, key: &str) -> Result<(), String> {
    let entry = store.entry(key).await.map_err(|e| e.to_string())?;
    let Some(entry) = entry.filter(|e| e.operation == kv::Operation::Put) else {
        return Ok(());
    };
    let mine = serde_json::from_slice::<ClusterBot>(&entry.value).map_or(true, |b| b.node == cluster.0.node);
    if !mine {
        return Ok(());
    }
    store
        .delete_expect_revision(key, Some(entry.revision))
        .await
        .map_err(|e| e.to_string())
}

/// Writes what is queued now (a stopping node's last word).
pub(super) async fn flush(cluster: &Cluster) {
    write_pending(cluster).await;
}

/// Starts watching the rooms, bots, tournaments, ladders and ladder members buckets into the node's cache, then reads
/// what they hold now, so that a node that starts serving knows the directory. (The watch
/// delivers the changes from now on; the values already there are read key by key, because
/// NATS 2.9 does not deliver them to a watch that asks for its history: an entry read this way
/// is kept only if the watch has not brought a newer one.) The presence bucket is read by
/// [`super::lease`].
pub(super) async fn watch(cluster: &Cluster) -> Result<(), String> {
    let buckets = &cluster.0.buckets;
    for (name, bucket, store) in [
        ("rooms", "skirmish_rooms", &buckets.rooms),
        ("bots", "skirmish_bots", &buckets.bots),
        ("tournaments", "skirmish_tournaments", &buckets.tournaments),
        ("ladders", "skirmish_ladders", &buckets.ladders),
        ("members", "skirmish_ladder_members", &buckets.members),
    ] {
        let mut watch = store
            .watch_all()
            .await
            .map_err(|e| format!("watching {name}: {e}"))?;
        let c = cluster.clone();
        tokio::spawn(async move {
            while let Some(entry) = watch.next().await {
                match entry {
                    Ok(entry) => apply(&c, name, &entry),
                    Err(cause) => tracing::warn!(bucket = name, %cause, "directory watch"),
                }
            }
            tracing::error!(bucket = name, "the directory's watch ended");
        });
        let stream = buckets
            .js
            .get_stream(format!("KV_{bucket}"))
            .await
            .map_err(|e| format!("bucket {name}: {e}"))?;
        let prefix = format!("$KV.{bucket}.");
        let mut subjects = stream
            .info_with_subjects(format!("{prefix}>"))
            .await
            .map_err(|e| format!("bucket {name}: {e}"))?;
        let mut keys = Vec::new();
        while let Some(subject) = subjects.next().await {
            let (subject, _) = subject.map_err(|e| format!("bucket {name}: {e}"))?;
            if let Some(key) = subject.strip_prefix(&prefix) {
                keys.push(key.to_owned());
            }
        }
        for key in keys {
            if let Ok(Some(entry)) = store.entry(key).await {
                apply(cluster, name, &entry);
            }
        }
    }
    // Read: from now on only the watch writes the cache, in order; the revisions can go.
    let mut cache = cluster.0.cache.lock().expect("not poisoned");
    cache.seeded = true;
    cache.revisions = std::collections::HashMap::new();
    Ok(())
}

/// Applies one entry of bucket `name` to the cache.
fn apply(cluster: &Cluster, name: &str, entry: &kv::Entry) {
    let put = entry.operation == kv::Operation::Put;
    let mut cache = cluster.0.cache.lock().expect("not poisoned");
    if !cache.seeded {
        let newest = cache
            .revisions
            .entry(format!("{name}/{}", entry.key))
            .or_insert(0);
        if entry.revision < *newest {
            return;
        }
        *newest = entry.revision;
    }
    match name {
        "rooms" => {
            let Ok(id) = entry.key.parse() else { return };
            match serde_json::from_slice::<wire::RoomEntry>(&entry.value) {
                Ok(room) if put => {
                    let moved = room.node != cluster.0.node
                        && cache
                            .rooms
                            .get(&id)
                            .is_some_and(|before| before.node != room.node);
                    cache.rooms.insert(id, room);
                    drop(cache);
                    if moved {
                        // Taken over by another node: this node's players there are attached
                        // to the new owner (again when its `moved` notice comes, once the room
                        // is rebuilt: an attach that came before is dropped there).
                        let c = cluster.clone();
                        tokio::spawn(async move { super::home::reattach(&c, id).await });
                    }
                }
                _ => {
                    cache.rooms.remove(&id);
                    drop(cache);
                    // Its forwarding task ends once the handles in use are dropped.
                    cluster.0.forwarders.lock().expect("not poisoned").remove(&id);
                }
            }
        }
        "bots" => {
            let Ok(id) = entry.key.parse() else { return };
            let lost = match serde_json::from_slice::<ClusterBot>(&entry.value) {
                Ok(bot) if put => {
                    let other = bot.node != cluster.0.node;
                    cache.bots.insert(id, bot);
                    other
                }
                _ => {
                    cache.bots.remove(&id);
                    true
                }
            };
            drop(cache);
            // The entry of a bot connected here went, or names another node: a node that gave
            // the bot up wrote after the node it moved to (their queues are not ordered with
            // each other), and no node could seat it. It is written again.
            if lost
                && !cluster.fenced()
                && let Some(lobby) = cluster.0.lobby.get()
            {
                lobby.relist_bot(id);
            }
        }
        "ladders" => {
            let Ok(id) = entry.key.parse() else { return };
            match serde_json::from_slice::<wire::LadderEntry>(&entry.value) {
                Ok(l) if put => {
                    cache.ladders.insert(id, l.node);
                }
                _ => {
                    cache.ladders.remove(&id);
                }
            }
        }
        "members" => match serde_json::from_slice::<wire::Membership>(&entry.value) {
            Ok(mut m) if put && entry.key == account_key(&m.account) => {
                m.ladders
                    .truncate(skirmish_protocol::ladder::MAX_LADDERS_PER_HELLO);
                cache.members.insert(entry.key.clone(), m);
            }
            _ => {
                cache.members.remove(&entry.key);
            }
        },
        _ => match serde_json::from_slice::<wire::TournamentEntry>(&entry.value) {
            Ok(t) if put => {
                cache.tournaments.insert(entry.key.clone(), t.node);
            }
            _ => {
                cache.tournaments.remove(&entry.key);
            }
        },
    }
}

async fn player_at(cluster: &Cluster, key: String) -> Option<ClusterPlayer> {
    let bytes = cluster.0.buckets.players.get(key).await.ok()??;
    serde_json::from_slice(&bytes).ok()
}

/// The resume entry of the player whose token has `digest`.
pub(super) async fn player_by_token(cluster: &Cluster, digest: &str) -> Option<ClusterPlayer> {
    player_at(cluster, token_key(digest)).await
}

/// The resume entry of bot account `account`'s player.
pub(super) async fn player_by_account(cluster: &Cluster, account: &str) -> Option<ClusterPlayer> {
    player_at(cluster, account_key(account))
        .await
        .filter(|p| p.account.as_deref() == Some(account))
}
