//! What the lobby of one node of a cluster shares with the others (docs/cluster.md).
//!
//! The lobby stays the node's directory; with a [`Replica`] it also tells
//! the cluster what changed here (its rooms, bots and players) and reads what the other nodes
//! have (their rooms and bots). The cluster's code (`crate::cluster`) implements it on the bus;
//! the lobby knows only this interface, so nothing here depends on the bus, and the cluster may
//! use the lobby without an import circle. The lobby tells the replica what changed after letting
//! go of the lock the change was made under, but under the lock that keeps its news in order
//! (`lobby/told.rs`): a method must not call the lobby back, nor wait (what goes to the bus is
//! queued).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use skirmish_protocol::{BotOffer, BotSummary, PlayerId, RoomId, RoomSummary, SeatRef};

use crate::outbox::Outbox;
use crate::room_handle::RoomHandle;

/// A bot connected to some node, as the cluster's directory holds it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClusterBot {
    /// The bot's player.
    pub player: PlayerId,
    /// Its name.
    pub name: String,
    /// What it plays.
    pub offer: BotOffer,
    /// Seats it holds (its load: seats go to the least loaded bot).
    pub seats: u32,
    /// The bot account it is, if any (tournament seats go by it).
    pub account: Option<String>,
    /// The digest of its resume token, which a room stores with its seat.
    pub token: String,
    /// The node that holds its connection.
    pub node: Arc<str>,
    /// The connection's number on that node.
    pub conn: u64,
    /// Whether its `your_turn` carries the whole view (`hello`'s `turn_view`).
    pub turn_view: bool,
}

impl ClusterBot {
    /// The bot as `list_bots` shows it.
    pub fn summary(&self) -> BotSummary {
        BotSummary {
            player: self.player,
            name: self.name.clone(),
            offer: self.offer.clone(),
            seats: self.seats,
            account: self.account.is_some(),
        }
    }
}

/// A player any node may take back on `hello` with their resume token (or bot account), as the
/// cluster's directory holds it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClusterPlayer {
    /// The player.
    pub player: PlayerId,
    /// Display name.
    pub name: String,
    /// The digest of their resume token ([`skirmish_protocol::ResumeToken::digest`]).
    pub token: String,
    /// The bot account they are, if any.
    pub account: Option<String>,
    /// The node that holds their connection, and its number there, while connected.
    pub connection: Option<(Arc<str>, u64)>,
}

/// A seat a player gained or lost in a room of another node than the one holding their
/// connection, told to that node so that its lobby knows the player's seats (for a resume, and
/// to leave the rooms when the connection closes).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SeatChange {
    /// The player.
    pub player: PlayerId,
    /// The seat.
    pub seat: SeatRef,
    /// Held now (`true`) or not any more.
    pub held: bool,
}

/// The rest of the cluster, as one node's lobby sees it.
pub trait Replica: Send + Sync + std::fmt::Debug {
    /// This node's id.
    fn node(&self) -> &Arc<str>;
    /// A room of this node was listed, or its summary changed.
    fn room_listed(&self, summary: &RoomSummary);
    /// A room of this node left the lobby.
    fn room_unlisted(&self, id: RoomId);
    /// Resolves once room `id` of this node (listed already) is in the shared directory, so
    /// that every node finds it when a player it seated acts there (`true`), or after
    /// `within` without it (`false`: the bus is failing).
    fn room_known(
        &self,
        id: RoomId,
        within: std::time::Duration,
    ) -> futures_util::future::BoxFuture<'static, bool>;
    /// The rooms of the other nodes.
    fn rooms(&self) -> Vec<RoomSummary>;
    /// A handle to room `id` of another node: its commands go over the bus.
    fn room(&self, id: RoomId) -> Option<RoomHandle>;
    /// The bots connected to the other nodes.
    fn bots(&self) -> Vec<ClusterBot>;
    /// A bot connected here was listed, or its load changed.
    fn bot_listed(&self, bot: &ClusterBot);
    /// A bot connected here is gone.
    fn bot_unlisted(&self, player: PlayerId);
    /// A player of this node may be taken back anywhere with `player.token`.
    fn player_listed(&self, player: &ClusterPlayer);
    /// A player of this node is forgotten (their token and account key stop naming them).
    fn player_unlisted(&self, token: &str, account: Option<&str>);
    /// Tells `home`, the node holding a player's connection, of a seat they gained or lost here.
    fn seat_changed(&self, home: &Arc<str>, change: SeatChange);
    /// This node's connection `outbox` said hello: rooms of other nodes may write to it.
    fn connected(&self, outbox: &Outbox);
    /// Tournament `id` runs on this node (its lease in the directory).
    fn tournament_running(&self, id: &str);
    /// The outbox of connection `conn` held by `node`.
    fn outbox(&self, node: Arc<str>, conn: u64, turn_view: bool) -> Outbox;
}
