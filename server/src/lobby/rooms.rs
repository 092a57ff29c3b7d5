//! The lobby's rooms: each room's handle and summary, and the open-room counts the room limits
//! read.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use skirmish_protocol::{PlayerId, RoomId, RoomStatus, RoomSummary};

use super::Lobby;
use super::told::{Tell, Telling, Told};
use crate::room_handle::RoomHandle;

/// How many open rooms (waiting or playing) one player and one address have created; what the
/// room limits count ([`crate::Limits::rooms_per_player`], [`crate::Limits::rooms_per_address`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenRooms {
    /// Open rooms the player owns.
    pub player: usize,
    /// Open rooms created from the address.
    pub address: usize,
}

/// A room of this node.
#[derive(Debug)]
struct Listed {
    handle: RoomHandle,
    summary: RoomSummary,
    /// When it was listed, for the newest-first order.
    order: u64,
}

/// Lowers `key`'s count by one, forgetting it at zero (a map of counts holds only what is open).
fn decrement<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: K) {
    if let Some(n) = counts.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(&key);
        }
    }
}

/// The rooms of this node.
#[derive(Debug, Default)]
pub(super) struct Rooms {
    listed: HashMap<RoomId, Listed>,
    /// The address each room was created from (rooms created over a connection).
    creators: HashMap<RoomId, IpAddr>,
    /// The rooms not finished, and how many of them each player owns and each address created:
    /// what [`Lobby::open_rooms`] reads at every `create_room`, kept as counts so that a create
    /// walks no rooms (walking the unfinished ones was 2% of the server's CPU with 1,000 rooms
    /// playing, a new room at every game's end; docs/performance.md).
    unfinished: HashSet<RoomId>,
    open_owned: HashMap<PlayerId, usize>,
    open_created: HashMap<IpAddr, usize>,
    /// Rooms listed so far.
    listings: u64,
    /// Whether this node is one of a cluster's: what changes is told to the others.
    clustered: bool,
    /// What to tell the cluster once the lock is let go.
    told: Vec<Tell>,
}

impl Telling for Rooms {
    fn take_told(&mut self) -> Vec<Tell> {
        std::mem::take(&mut self.told)
    }
}

impl Rooms {
    /// The rooms of a node of a cluster.
    pub(super) fn clustered() -> Rooms {
        Rooms {
            clustered: true,
            ..Rooms::default()
        }
    }

    fn tell(&mut self, tell: Tell) {
        if self.clustered {
            self.told.push(tell);
        }
    }

    /// Counts room `id` (listed) as open under its owner and its address; nothing if it is
    /// counted already.
    fn count_open(&mut self, id: RoomId) {
        if !self.unfinished.insert(id) {
            return;
        }
        if let Some(listed) = self.listed.get(&id) {
            *self.open_owned.entry(listed.summary.owner).or_default() += 1;
        }
        if let Some(address) = self.creators.get(&id) {
            *self.open_created.entry(*address).or_default() += 1;
        }
    }

    /// Takes room `id` out of the open counts; returns whether it was counted.
    fn uncount_open(&mut self, id: RoomId) -> bool {
        if !self.unfinished.remove(&id) {
            return false;
        }
        if let Some(listed) = self.listed.get(&id) {
            let owner = listed.summary.owner;
            decrement(&mut self.open_owned, owner);
        }
        if let Some(address) = self.creators.get(&id).copied() {
            decrement(&mut self.open_created, address);
        }
        true
    }

    /// Whether `player` owns an open room here (whose owner may come back to start it).
    pub(super) fn owns_open(&self, player: PlayerId) -> bool {
        self.open_owned.contains_key(&player)
    }
}

impl Lobby {
    fn lock_rooms(&self) -> Told<'_, Rooms> {
        Told::lock(&self.rooms, &self.cluster)
    }

    /// Whether `player` owns an open room on this node.
    pub(super) fn owns_open_room(&self, player: PlayerId) -> bool {
        self.lock_rooms().owns_open(player)
    }

    /// How many rooms this node runs.
    pub fn local_room_count(&self) -> usize {
        self.lock_rooms().listed.len()
    }

    /// The open rooms `player` owns and `address` created.
    pub fn open_rooms(&self, player: PlayerId, address: Option<IpAddr>) -> OpenRooms {
        let mut open = {
            let rooms = self.lock_rooms();
            OpenRooms {
                player: rooms.open_owned.get(&player).copied().unwrap_or(0),
                address: address
                    .and_then(|a| rooms.open_created.get(&a).copied())
                    .unwrap_or(0),
            }
        };
        // A player's rooms on the other nodes count too (an address's are counted per node).
        if let Some(replica) = &self.cluster.replica {
            open.player += replica
                .rooms()
                .iter()
                .filter(|s| s.owner == player && s.status != RoomStatus::Finished)
                .count();
        }
        open
    }

    /// Records that room `id` was created from `address`.
    pub fn created_from(&self, id: RoomId, address: IpAddr) {
        let mut rooms = self.lock_rooms();
        if rooms.listed.contains_key(&id) {
            // Counted again under its address (an open room's count moves with it).
            let open = rooms.uncount_open(id);
            rooms.creators.insert(id, address);
            if open {
                rooms.count_open(id);
            }
        }
    }

    /// Adds a room to the directory.
    pub fn add_room(&self, handle: RoomHandle, summary: RoomSummary) {
        let mut rooms = self.lock_rooms();
        rooms.listings += 1;
        let order = rooms.listings;
        rooms.tell(Tell::RoomListed(summary.clone()));
        let (id, open) = (summary.id, summary.status != RoomStatus::Finished);
        rooms.uncount_open(id);
        rooms.listed.insert(
            id,
            Listed {
                handle,
                summary,
                order,
            },
        );
        if open {
            rooms.count_open(id);
        }
    }

    /// Removes a room from the directory (a finished room some time after its end, or an expired
    /// one); its owner is forgotten if nothing else needs their record.
    pub fn remove_room(&self, id: RoomId) {
        let owner = {
            let mut rooms = self.lock_rooms();
            rooms.uncount_open(id);
            rooms.creators.remove(&id);
            let removed = rooms.listed.remove(&id);
            if removed.is_some() {
                rooms.tell(Tell::RoomUnlisted(id));
            }
            removed.map(|listed| listed.summary.owner)
        };
        self.forget_quick(id);
        if let Some(owner) = owner {
            self.release(owner);
        }
    }

    /// Replaces a room's summary (rooms call this after every change of seats or status).
    pub fn update_room(&self, summary: RoomSummary) {
        let mut rooms = self.lock_rooms();
        let id = summary.id;
        let finished = summary.status == RoomStatus::Finished;
        if rooms
            .listed
            .get(&id)
            .is_some_and(|listed| listed.summary != summary)
        {
            rooms.tell(Tell::RoomListed(summary.clone()));
            // Uncounted under the old summary, counted under the new (its owner may change).
            rooms.uncount_open(id);
            if let Some(listed) = rooms.listed.get_mut(&id) {
                listed.summary = summary;
            }
            if !finished {
                rooms.count_open(id);
            }
        }
    }

    /// The handle of a room: this node's, or another node's of the cluster (its commands then
    /// go over the bus).
    pub fn room(&self, id: RoomId) -> Option<RoomHandle> {
        self.local_room(id)
            .or_else(|| self.cluster.replica.as_ref()?.room(id))
    }

    /// The summary of a room: this node's, or another node's of the cluster.
    pub fn summary(&self, id: RoomId) -> Option<RoomSummary> {
        self.local_summary(id).or_else(|| {
            self.cluster
                .replica
                .as_ref()?
                .rooms()
                .into_iter()
                .find(|s| s.id == id)
        })
    }

    /// The summary of a room of this node only.
    pub fn local_summary(&self, id: RoomId) -> Option<RoomSummary> {
        self.lock_rooms().listed.get(&id).map(|l| l.summary.clone())
    }

    /// The handle of a room of this node only.
    pub fn local_room(&self, id: RoomId) -> Option<RoomHandle> {
        self.lock_rooms().listed.get(&id).map(|l| l.handle.clone())
    }

    /// Every room's summary, newest first (in a cluster, this node's, then the other nodes').
    pub fn rooms(&self) -> Vec<RoomSummary> {
        let mut listed: Vec<(u64, RoomSummary)> = self
            .lock_rooms()
            .listed
            .values()
            .map(|l| (l.order, l.summary.clone()))
            .collect();
        listed.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
        let mut rooms: Vec<RoomSummary> = listed.into_iter().map(|(_, s)| s).collect();
        if let Some(replica) = &self.cluster.replica {
            let here: std::collections::HashSet<RoomId> = rooms.iter().map(|s| s.id).collect();
            rooms.extend(replica.rooms().into_iter().filter(|s| !here.contains(&s.id)));
        }
        rooms
    }
}
