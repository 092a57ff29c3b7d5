//! The lobby: the directory of rooms, players and bots.
//!
//! It knows every room (with a summary each room keeps up to date), every player's identity and
//! the digest of their resume token (never the token itself), the seats each player holds, and
//! the connected bots with their load, so it can hand bot seats to the least loaded bot that
//! plays the game and strategy asked for. It is a plain directory, not an actor: no call awaits.
//!
//! It has two parts, each behind its own short lock: the rooms (`rooms.rs`: their handles and
//! summaries, and the open-room counts the room limits read) and the players (`players.rs`: their
//! records, resume tokens, bot accounts and seats; the bots are players with an offer,
//! `bots.rs`). A call that needs both takes the players' lock first, never the other way round.
//!
//! In a cluster ([`Lobby::clustered`]) each part gathers what it changed for the other nodes
//! while it holds its lock, and tells the [`Replica`] right after letting the lock go
//! (`told.rs`), in the order the changes were made. What the other nodes hold (their rooms and
//! bots) is read from the replica outside the parts' locks.

use std::sync::{Arc, Mutex};

mod bots;
pub mod levels;
mod players;
mod quick;
mod rooms;
mod told;

pub use bots::{BotPick, BotWish};
pub use players::{PlayerRecord, ResumeRefused};
pub use quick::{QUICK_MATCH_LEVEL, quick_config};
pub use rooms::OpenRooms;

use self::players::Players;
use self::rooms::Rooms;
use self::told::Cluster;
use crate::replica::Replica;

/// The shared directory. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Lobby {
    /// The rooms of this node. A std mutex, as for the players: every critical section is a few
    /// map operations and none awaits.
    rooms: Arc<Mutex<Rooms>>,
    /// The players this node knows.
    players: Arc<Mutex<Players>>,
    /// The rest of the cluster, when this node is one of several.
    cluster: Cluster,
    /// The rooms quick match made, waiting for players ([`quick`]).
    quick: Arc<quick::QuickRooms>,
}

impl Lobby {
    /// The lobby of one node of a cluster: it shares its rooms, bots and players with the other
    /// nodes through `replica`, and lists theirs.
    pub fn clustered(replica: Arc<dyn Replica>) -> Lobby {
        Lobby {
            rooms: Arc::new(Mutex::new(Rooms::clustered())),
            players: Arc::new(Mutex::new(Players::clustered(Arc::clone(replica.node())))),
            cluster: Cluster::new(replica),
            quick: Arc::default(),
        }
    }

    /// The rest of the cluster, when this node is one of several.
    pub fn replica(&self) -> Option<Arc<dyn Replica>> {
        self.cluster.replica.clone()
    }
}

#[cfg(test)]
mod tests;
