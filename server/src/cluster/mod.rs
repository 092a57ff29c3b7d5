//! Several nodes as one server (issue 20; the design and its arguments: docs/cluster.md).
//!
//! Each room lives on one node, its owner. The nodes share a **directory** and a **bus**, both on
//! NATS: the directory is JetStream key-value buckets (rooms with their owner and summary, bots
//! with the node holding their connection, players' resume entries, running tournaments, the
//! ladders' leases and members, and the nodes' presence), which every node watches into a local cache; the bus is NATS core
//! subjects:
//!
//! | subject | what | who listens |
//! |---|---|---|
//! | `skirmish.node.<node>.rooms` | a room's commands (request-reply for those that answer) | the owner |
//! | `skirmish.conn.<node>.<conn>` | frames for a connection, already filtered for its viewer | the node holding it |
//! | `skirmish.ctl.<node>.<conn>` | `kick` or `replaced` for a connection | the node holding it |
//! | `skirmish.home.<node>` | seat changes and moves of its players | that node |
//! | `skirmish.moved` | a room changed owner | every node |
//!
//! Visibility stays decided by the engines on the owning node: the owner's room filters every
//! event for its viewer ([`crate::room`]), and only that viewer's frame crosses the bus, to the
//! node holding that viewer's connection. Nothing else of a room's state leaves its owner.

mod directory;
mod gateway;
mod home;
mod lease;
mod wire;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use skirmish_protocol::{PlayerId, RoomId, RoomSummary};
use tokio_util::sync::CancellationToken;

use crate::journal::Journal;
use crate::lobby::Lobby;
use crate::outbox::{Outbox, Relay, WeakOutbox};
use crate::replica::{ClusterBot, ClusterPlayer, Replica, SeatChange};
use crate::room_handle::RoomHandle;
use crate::store::Store;

pub use gateway::REQUEST_TIMEOUT;
pub use lease::{HEARTBEAT, LEASE};

/// How to join a cluster (`--cluster`, `--node-id`).
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server's URL (`nats://host:4222`); JetStream must be enabled on it.
    pub url: String,
    /// This node's id: unique in the cluster, the same across restarts of the node (a node
    /// that comes back under its id takes back what no other node took over). Letters, digits,
    /// `-` and `_`.
    pub node: String,
}

/// Why joining a cluster failed.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The node id has characters a NATS subject or key cannot hold.
    #[error("a node id is 1 to 64 letters, digits, `-` or `_`, not {0:?}")]
    BadNodeId(String),
    /// NATS could not be reached, or refused.
    #[error("the bus (NATS) at {url}: {cause}")]
    Bus {
        /// The URL.
        url: String,
        /// What went wrong.
        cause: String,
    },
}

/// What a node keeps of the rest of the cluster, from the directory's buckets. Its lock is taken
/// under the lobby's (the lobby calls [`Replica`] under its own): code holding it must never take
/// the lobby's.
#[derive(Debug, Default)]
struct Cache {
    rooms: HashMap<RoomId, wire::RoomEntry>,
    bots: HashMap<PlayerId, ClusterBot>,
    /// The running tournaments' leases: tournament id (text) to node.
    tournaments: HashMap<String, Arc<str>>,
    /// The ladders' leases: the node running each.
    ladders: HashMap<skirmish_protocol::ladder::LadderId, Arc<str>>,
    /// The bot accounts' ladders, by key ([`directory::account_key`]): one entry per account.
    members: HashMap<String, wire::Membership>,
    /// The newest revision applied per bucket and key (`bucket/key`): an older one read late
    /// is not applied over it.
    revisions: HashMap<String, u64>,
    /// Whether the directory's values at the start have been read (then only the watches write).
    seeded: bool,
}

/// One node's part of the cluster. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Cluster(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    node: Arc<str>,
    client: async_nats::Client,
    buckets: directory::Buckets,
    cache: Mutex<Cache>,
    /// The nodes seen in the presence bucket ([`lease`]).
    nodes: Mutex<lease::Nodes>,
    /// Handles to other nodes' rooms, each with its forwarding task ([`gateway::forward`]).
    forwarders: Mutex<HashMap<RoomId, RoomHandle>>,
    /// This node's connections that rooms of other nodes write to, by number.
    connections: Mutex<HashMap<u64, WeakOutbox>>,
    /// Frames and notices for other nodes' connections, published by [`home::relay`].
    relay: Relay,
    /// Directory writes waiting for [`directory::write`], the newest per key.
    pending: directory::Pending,
    /// Notices to other nodes about their players, published in order by [`home::notify`].
    notices: tokio::sync::mpsc::UnboundedSender<(Arc<str>, wire::HomeNotice)>,
    lobby: OnceLock<Lobby>,
    shutdown: CancellationToken,
    /// This node's connections watching rooms of other nodes, by room: given to the room
    /// again when it changes owner ([`home::reattach`]). Weak, swept with the connections, and
    /// dropped when the spectator detaches.
    spectators: Mutex<HashMap<RoomId, Vec<Spectator>>>,
    /// Set when this node stopped itself because it lost the bus ([`lease`]): it then waits
    /// for the bus and starts again ([`Cluster::fenced`]).
    fenced: std::sync::atomic::AtomicBool,
}

/// A connection of this node watching a room of another node.
#[derive(Debug)]
struct Spectator {
    player: PlayerId,
    name: String,
    outbox: crate::outbox::WeakOutbox,
}

/// The most frames for other nodes' connections waiting to be published (65,536, about 50 MB of
/// frames at most): past it, the connection a frame was for is kicked, as a local connection
/// whose outbox is full is.
const RELAY_CAPACITY: usize = 1 << 16;

impl Cluster {
    /// Connects to the bus at `config.url`, makes the directory's buckets when missing, and
    /// starts the tasks that keep this node's cache of the directory and publish what this node
    /// changes. The node serves nothing of the cluster's until [`Cluster::start`].
    ///
    /// # Errors
    /// [`ClusterError::BadNodeId`], or [`ClusterError::Bus`] when NATS (with JetStream) cannot
    /// be reached.
    pub async fn join(config: &ClusterConfig, shutdown: CancellationToken) -> Result<Cluster, ClusterError> {
        let id = &config.node;
        if id.is_empty()
            || id.len() > 64
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ClusterError::BadNodeId(id.clone()));
        }
        let bus = |cause: String| ClusterError::Bus {
            url: config.url.clone(),
            cause,
        };
        let client = async_nats::ConnectOptions::new()
            .name(format!("skirmish-{id}"))
            .retry_on_initial_connect()
            .connect(&config.url);
        let client = tokio::time::timeout(std::time::Duration::from_secs(10), client)
            .await
            .map_err(|_| bus("not reached within 10 s".to_owned()))?
            .map_err(|e| bus(e.to_string()))?;
        let buckets = directory::Buckets::open(&client).await.map_err(bus)?;
        let (relay, relayed) = Relay::new(RELAY_CAPACITY);
        let (notices, notices_rx) = tokio::sync::mpsc::unbounded_channel();
        let cluster = Cluster(Arc::new(Inner {
            node: Arc::from(id.as_str()),
            client,
            buckets,
            cache: Mutex::default(),
            nodes: Mutex::default(),
            forwarders: Mutex::default(),
            connections: Mutex::default(),
            relay,
            pending: directory::Pending::default(),
            notices,
            lobby: OnceLock::new(),
            shutdown,
            fenced: std::sync::atomic::AtomicBool::new(false),
            spectators: Mutex::default(),
        }));
        directory::watch(&cluster).await.map_err(bus)?;
        tokio::spawn(home::relay(cluster.clone(), relayed));
        tokio::spawn(home::notify(cluster.clone(), notices_rx));
        tokio::spawn(directory::write(cluster.clone()));
        Ok(cluster)
    }

    /// Whether this node stopped itself because it could not renew its presence for half a
    /// lease (it lost the bus): its rooms may be taken over by now, so it must not serve them
    /// again from memory. The program then waits for the bus ([`wait_for_bus`]) and starts
    /// afresh, as a restarted node (docs/cluster.md, "What each outage does").
    pub fn fenced(&self) -> bool {
        self.0.fenced.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// This node's lobby, sharing its rooms, bots and players with the cluster.
    pub fn lobby(&self) -> Lobby {
        self.0
            .lobby
            .get_or_init(|| Lobby::clustered(Arc::new(self.clone())))
            .clone()
    }

    /// Starts serving the cluster: this node's rooms' commands from other nodes, frames for
    /// its connections, its presence, the take-over of rooms, tournaments and ladders whose
    /// node is gone (restored from `store`, written to `journal`), and the claim of the ladders
    /// no node runs.
    ///
    /// # Errors
    /// When the bus refuses the subscriptions.
    pub async fn start(
        &self,
        store: Store,
        journal: Journal,
        tournaments: crate::tournament::Tournaments,
        ladders: crate::ladder::Ladders,
        expiry: Option<std::time::Duration>,
        refereed: prometheus_client::metrics::histogram::Histogram,
    ) -> Result<(), ClusterError> {
        let bus = |cause: String| ClusterError::Bus {
            url: "the cluster's NATS".to_owned(),
            cause,
        };
        gateway::serve(self, refereed).await.map_err(bus)?;
        home::serve(self).await.map_err(bus)?;
        lease::start(
            self,
            lease::Keeper {
                store,
                journal,
                tournaments,
                ladders,
                expiry,
            },
        )
        .await
        .map_err(bus)?;
        Ok(())
    }

    /// Leaves the cluster at the end of a graceful stop, once the journal is written: this
    /// node's presence goes, so that the other nodes take its rooms and tournaments over at once
    /// rather than after the lease.
    pub async fn leave(&self) {
        directory::flush(self).await;
        lease::leave(self).await;
        let _ = self.0.client.flush().await;
    }

    /// This node's connection `outbox` may be written to by rooms of other nodes.
    fn reachable(&self, outbox: &Outbox) {
        if outbox.node().is_none() {
            self.0
                .connections
                .lock()
                .expect("not poisoned")
                .insert(outbox.conn(), outbox.downgrade());
        }
    }

    /// Forgets the closed connections among those other nodes' rooms could write to.
    fn sweep_connections(&self) {
        self.0
            .connections
            .lock()
            .expect("not poisoned")
            .retain(|_, outbox| outbox.upgrade().is_some());
        let mut spectators = self.0.spectators.lock().expect("not poisoned");
        for watching in spectators.values_mut() {
            watching.retain(|s| s.outbox.upgrade().is_some());
        }
        spectators.retain(|_, watching| !watching.is_empty());
    }

    /// Notes that `member`, a connection of this node, watches room `room` of another node.
    fn spectating(&self, room: RoomId, member: &crate::room_handle::Member) {
        if member.outbox.node().is_some() {
            return;
        }
        let mut spectators = self.0.spectators.lock().expect("not poisoned");
        let watching = spectators.entry(room).or_default();
        watching.retain(|s| s.outbox.upgrade().is_some() && s.player != member.id);
        watching.push(Spectator {
            player: member.id,
            name: member.name.clone(),
            outbox: member.outbox.downgrade(),
        });
    }

    /// Notes that `player`'s connection `conn` no longer watches room `room`.
    fn stopped_spectating(&self, room: RoomId, player: PlayerId, conn: Option<u64>) {
        let mut spectators = self.0.spectators.lock().expect("not poisoned");
        if let Some(watching) = spectators.get_mut(&room) {
            watching.retain(|s| {
                s.player != player || conn.is_some_and(|c| s.outbox.upgrade().is_some_and(|o| o.conn() != c))
            });
            if watching.is_empty() {
                spectators.remove(&room);
            }
        }
    }

    /// The connections of this node that watch room `room`, still open.
    fn spectators_of(&self, room: RoomId) -> Vec<crate::room_handle::Member> {
        let spectators = self.0.spectators.lock().expect("not poisoned");
        spectators
            .get(&room)
            .into_iter()
            .flatten()
            .filter_map(|s| {
                Some(crate::room_handle::Member {
                    id: s.player,
                    name: s.name.clone(),
                    outbox: s.outbox.upgrade()?,
                })
            })
            .collect()
    }

    /// The connection `conn` of this node, while it lives.
    fn connection(&self, conn: u64) -> Option<Outbox> {
        let mut connections = self.0.connections.lock().expect("not poisoned");
        let outbox = connections.get(&conn)?.upgrade();
        if outbox.is_none() {
            connections.remove(&conn);
        }
        outbox
    }

    /// Takes a player whose resume token (`token`, a digest) or bot `account` this node does not
    /// know from the directory, with their seats in every room of the cluster: the node that held
    /// their connection closes it (4009) and forgets them. Returns whether the player is known
    /// here now.
    pub async fn adopt_player(&self, token: Option<&str>, account: Option<&str>) -> bool {
        let entry = match (token, account) {
            (Some(token), _) => directory::player_by_token(self, token).await,
            (None, Some(account)) => directory::player_by_account(self, account).await,
            (None, None) => None,
        };
        let Some(entry) = entry else {
            return false;
        };
        let lobby = self.lobby();
        lobby.restore_player(entry.player, &entry.name, &entry.token, entry.account.as_deref());
        let seats: Vec<_> = {
            let cache = self.0.cache.lock().expect("not poisoned");
            cache
                .rooms
                .values()
                .filter(|r| r.summary.status != skirmish_protocol::RoomStatus::Finished)
                .flat_map(|r| {
                    r.summary.seats.iter().filter_map(|s| {
                        let o = s.occupant.as_ref().filter(|o| o.player == entry.player)?;
                        Some((r.summary.id, s.seat, o.bot.clone()))
                    })
                })
                .collect()
        };
        for (room, seat, strategy) in seats {
            lobby.seated(entry.player, room, seat, strategy.as_deref());
        }
        if let Some((node, conn)) = entry.connection
            && node != self.0.node
        {
            home::tell(self, &node, &wire::HomeNotice::Moved { player: entry.player }).await;
            let _ = self
                .0
                .client
                .publish(home::ctl_subject(&node, conn), "replaced".into())
                .await;
        }
        true
    }

    /// Writes this node's room `id` to the directory now and waits for it (at most 1 s): a room's
    /// id is given out only once any node can find it (another player joins through another
    /// node within milliseconds; the queued write could come after).
    pub async fn list_now(&self, id: RoomId) {
        let entry = self.0.cache.lock().expect("not poisoned").rooms.get(&id).cloned();
        let Some(entry) = entry else { return };
        let bytes = serde_json::to_vec(&entry).expect("directory entries serialize");
        let put = self.0.buckets.rooms.put(id.to_string(), bytes.into());
        if !matches!(
            tokio::time::timeout(std::time::Duration::from_secs(1), put).await,
            Ok(Ok(_))
        ) {
            tracing::warn!(room = %id, "a new room could not be written to the directory at once");
        }
    }

    /// Reads room `id`'s directory entry when this node's cache does not have it yet (a room
    /// made on another node a moment ago, whose entry the watch has not brought): whether the
    /// directory has it. One read of the bus per call: callers are rate-limited connections.
    pub async fn fetch_room(&self, id: RoomId) -> bool {
        let Ok(Some(bytes)) = self.0.buckets.rooms.get(id.to_string()).await else {
            return false;
        };
        let Ok(entry) = serde_json::from_slice::<wire::RoomEntry>(&bytes) else {
            return false;
        };
        self.0
            .cache
            .lock()
            .expect("not poisoned")
            .rooms
            .entry(id)
            .or_insert(entry);
        true
    }

    /// This node's id.
    pub fn id(&self) -> &str {
        &self.0.node
    }
}

impl Replica for Cluster {
    fn node(&self) -> &Arc<str> {
        &self.0.node
    }

    fn room_listed(&self, summary: &RoomSummary) {
        let entry = wire::RoomEntry {
            node: Arc::clone(&self.0.node),
            summary: summary.clone(),
        };
        let before = self
            .0
            .cache
            .lock()
            .expect("not poisoned")
            .rooms
            .insert(summary.id, entry.clone());
        // Listed here while the directory named another node: taken over (a tournament's
        // match rebuilt with its tournament). Every node gives it its players' connections.
        if before.is_some_and(|b| b.node != self.0.node) {
            let payload = serde_json::to_vec(&wire::Moved { room: summary.id }).expect("serializes");
            let client = self.0.client.clone();
            tokio::spawn(async move {
                let _ = client.publish(home::MOVED, payload.into()).await;
            });
        }
        self.0
            .pending
            .put(directory::Bucket::Rooms, summary.id.to_string(), &entry);
    }

    fn room_known(
        &self,
        id: RoomId,
        within: std::time::Duration,
    ) -> futures_util::future::BoxFuture<'static, bool> {
        let rooms = self.0.buckets.rooms.clone();
        Box::pin(async move {
            let key = id.to_string();
            let start = std::time::Instant::now();
            loop {
                if let Ok(Ok(Some(entry))) =
                    tokio::time::timeout(std::time::Duration::from_secs(1), rooms.entry(&key)).await
                    && entry.operation == async_nats::jetstream::kv::Operation::Put
                {
                    return true;
                }
                if start.elapsed() >= within {
                    tracing::warn!(room = %id, "the room is not in the directory yet; its players are seated anyway");
                    return false;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        })
    }

    fn room_unlisted(&self, id: RoomId) {
        self.0.cache.lock().expect("not poisoned").rooms.remove(&id);
        self.0.pending.delete(directory::Bucket::Rooms, id.to_string());
    }

    fn rooms(&self) -> Vec<RoomSummary> {
        let cache = self.0.cache.lock().expect("not poisoned");
        cache
            .rooms
            .values()
            .filter(|r| r.node != self.0.node)
            .map(|r| r.summary.clone())
            .collect()
    }

    fn room(&self, id: RoomId) -> Option<RoomHandle> {
        {
            let cache = self.0.cache.lock().expect("not poisoned");
            cache.rooms.get(&id).filter(|r| r.node != self.0.node)?;
        }
        let mut forwarders = self.0.forwarders.lock().expect("not poisoned");
        if let Some(handle) = forwarders.get(&id)
            && !handle.tx.is_closed()
        {
            return Some(handle.clone());
        }
        let handle = gateway::forward(self.clone(), id);
        forwarders.insert(id, handle.clone());
        Some(handle)
    }

    fn bots(&self) -> Vec<ClusterBot> {
        let cache = self.0.cache.lock().expect("not poisoned");
        cache
            .bots
            .values()
            .filter(|b| b.node != self.0.node)
            .cloned()
            .collect()
    }

    fn bot_listed(&self, bot: &ClusterBot) {
        self.0
            .pending
            .put(directory::Bucket::Bots, bot.player.to_string(), bot);
    }

    fn bot_unlisted(&self, player: PlayerId) {
        self.0.pending.delete(directory::Bucket::Bots, player.to_string());
    }

    fn player_listed(&self, player: &ClusterPlayer) {
        self.0.pending.put(
            directory::Bucket::Players,
            directory::token_key(&player.token),
            player,
        );
        if let Some(account) = &player.account {
            self.0.pending.put(
                directory::Bucket::Players,
                directory::account_key(account),
                player,
            );
        }
    }

    fn player_unlisted(&self, token: &str, account: Option<&str>) {
        self.0
            .pending
            .delete(directory::Bucket::Players, directory::token_key(token));
        if let Some(account) = account {
            self.0
                .pending
                .delete(directory::Bucket::Players, directory::account_key(account));
        }
    }

    fn seat_changed(&self, home: &Arc<str>, change: SeatChange) {
        // In order: a seat gained and then lost must not arrive the other way round.
        let _ = self
            .0
            .notices
            .send((Arc::clone(home), wire::HomeNotice::Seat(change)));
    }

    fn connected(&self, outbox: &Outbox) {
        self.reachable(outbox);
    }

    fn tournament_running(&self, id: &str) {
        self.0.pending.put(
            directory::Bucket::Tournaments,
            id.to_owned(),
            &wire::TournamentEntry {
                node: Arc::clone(&self.0.node),
            },
        );
    }

    fn outbox(&self, node: Arc<str>, conn: u64, turn_view: bool) -> Outbox {
        Outbox::remote(node, conn, turn_view, self.0.relay.clone())
    }
}

impl crate::ladder::Shared for Cluster {
    fn joined(&self, account: &str, ladders: &[skirmish_protocol::ladder::LadderId]) {
        let key = directory::account_key(account);
        let mut cache = self.0.cache.lock().expect("not poisoned");
        if ladders.is_empty() {
            cache.members.remove(&key);
            drop(cache);
            self.0.pending.delete(directory::Bucket::Members, key);
        } else {
            let membership = wire::Membership {
                account: account.to_owned(),
                ladders: ladders.to_vec(),
            };
            cache.members.insert(key.clone(), membership.clone());
            drop(cache);
            self.0.pending.put(directory::Bucket::Members, key, &membership);
        }
    }

    fn members(&self, id: skirmish_protocol::ladder::LadderId) -> std::collections::HashSet<String> {
        let cache = self.0.cache.lock().expect("not poisoned");
        cache
            .members
            .values()
            .filter(|m| m.ladders.contains(&id))
            .map(|m| m.account.clone())
            .collect()
    }

    fn runner(&self, id: skirmish_protocol::ladder::LadderId) -> Option<String> {
        let cache = self.0.cache.lock().expect("not poisoned");
        cache.ladders.get(&id).map(ToString::to_string)
    }
}

/// Waits until the bus at `url` answers again, JetStream included: connects (each try at most
/// 2 s) and asks for the JetStream account's information, once a second until both succeed.
/// For a node that fenced itself ([`Cluster::fenced`]) before it starts again.
pub async fn wait_for_bus(url: &str) {
    loop {
        let attempt = async {
            let client = async_nats::ConnectOptions::new()
                .name("skirmish-rejoin")
                .connect(url)
                .await
                .map_err(|e| e.to_string())?;
            // The presence bucket's stream answers, or JetStream says it has no such stream (a
            // bus that lost its store): JetStream is up. Any other answer (JetStream still
            // recovering its store, say) or none: not yet. (Not `query_account`: NATS 2.9's
            // answer does not parse.)
            match async_nats::jetstream::new(client)
                .get_stream("KV_skirmish_nodes")
                .await
            {
                Ok(_) => Ok(()),
                Err(e) => match e.kind() {
                    async_nats::jetstream::context::GetStreamErrorKind::JetStream(js)
                        if js.error_code() == async_nats::jetstream::ErrorCode::STREAM_NOT_FOUND =>
                    {
                        Ok(())
                    }
                    _ => Err(e.to_string()),
                },
            }
        };
        match tokio::time::timeout(std::time::Duration::from_secs(2), attempt).await {
            Ok(Ok(())) => return,
            Ok(Err(cause)) => tracing::info!(%cause, "the bus is not back yet"),
            Err(_) => tracing::info!("the bus is not back yet (no answer within 2 s)"),
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}
