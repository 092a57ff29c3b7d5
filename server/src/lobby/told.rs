//! What a part of the lobby tells the rest of the cluster: gathered while the part's lock is held,
//! told right after it is let go, in the order the changes were made.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use skirmish_protocol::{PlayerId, RoomId, RoomSummary};

use crate::outbox::Outbox;
use crate::replica::{ClusterBot, ClusterPlayer, Replica, SeatChange};

/// One thing to tell the cluster: a call of [`Replica`]'s.
#[derive(Debug)]
pub(super) enum Tell {
    /// [`Replica::room_listed`].
    RoomListed(RoomSummary),
    /// [`Replica::room_unlisted`].
    RoomUnlisted(RoomId),
    /// [`Replica::player_listed`].
    PlayerListed(ClusterPlayer),
    /// [`Replica::player_unlisted`]: the digest of the player's old token, and their account.
    PlayerUnlisted(String, Option<String>),
    /// [`Replica::bot_listed`].
    BotListed(ClusterBot),
    /// [`Replica::bot_unlisted`].
    BotUnlisted(PlayerId),
    /// [`Replica::seat_changed`]: the node holding the player's connection, and the change.
    SeatChanged(Arc<str>, SeatChange),
    /// [`Replica::connected`].
    Connected(Outbox),
}

impl Tell {
    fn tell(self, replica: &dyn Replica) {
        match self {
            Tell::RoomListed(summary) => replica.room_listed(&summary),
            Tell::RoomUnlisted(id) => replica.room_unlisted(id),
            Tell::PlayerListed(player) => replica.player_listed(&player),
            Tell::PlayerUnlisted(token, account) => replica.player_unlisted(&token, account.as_deref()),
            Tell::BotListed(bot) => replica.bot_listed(&bot),
            Tell::BotUnlisted(player) => replica.bot_unlisted(player),
            Tell::SeatChanged(home, change) => replica.seat_changed(&home, change),
            Tell::Connected(outbox) => replica.connected(&outbox),
        }
    }
}

/// A part of the lobby that gathers what it has to tell the cluster.
pub(super) trait Telling {
    /// What the part gathered since it was last told, taken out of it.
    fn take_told(&mut self) -> Vec<Tell>;
}

/// The lobby's link to the rest of the cluster: the replica, when this node is one of several,
/// and the lock that keeps what the parts tell in order.
#[derive(Debug, Clone, Default)]
pub(super) struct Cluster {
    /// The rest of the cluster.
    pub(super) replica: Option<Arc<dyn Replica>>,
    /// Taken before a part's lock is let go and held while what the part gathered is told: a
    /// later change of the same part (made once its lock is free) is told after it. The
    /// replica keeps the newest value per key, so an older value told last would win. Nothing
    /// takes a part's lock while holding this one (the replica never calls the lobby).
    order: Arc<Mutex<()>>,
}

impl Cluster {
    /// The link to `replica`.
    pub(super) fn new(replica: Arc<dyn Replica>) -> Cluster {
        Cluster {
            replica: Some(replica),
            order: Arc::default(),
        }
    }
}

/// A part of the lobby, locked; letting it go tells the cluster what the part gathered
/// meanwhile, after the part's lock is free.
pub(super) struct Told<'a, T: Telling> {
    guard: Option<MutexGuard<'a, T>>,
    cluster: &'a Cluster,
}

impl<'a, T: Telling> Told<'a, T> {
    /// Locks `part`, whose news go to `cluster`.
    pub(super) fn lock(part: &'a Mutex<T>, cluster: &'a Cluster) -> Told<'a, T> {
        Told {
            guard: Some(part.lock().expect("lobby lock not poisoned")),
            cluster,
        }
    }
}

impl<T: Telling> Deref for Told<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.guard.as_deref().expect("held until dropped")
    }
}

impl<T: Telling> DerefMut for Told<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.guard.as_deref_mut().expect("held until dropped")
    }
}

impl<T: Telling> Drop for Told<'_, T> {
    fn drop(&mut self) {
        let Some(mut guard) = self.guard.take() else {
            return;
        };
        let Some(replica) = &self.cluster.replica else {
            return;
        };
        let told = guard.take_told();
        if told.is_empty() {
            return;
        }
        let order = self.cluster.order.lock().unwrap_or_else(PoisonError::into_inner);
        drop(guard);
        for tell in told {
            tell.tell(replica.as_ref());
        }
        drop(order);
    }
}
