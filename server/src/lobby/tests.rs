//! The lobby's parts tell the cluster what changed after letting go of their locks, in order.

use std::sync::{Arc, Mutex, OnceLock};

use skirmish_protocol::{PlayerId, RoomConfig, RoomId, RoomStatus, RoomSummary};

use super::Lobby;
use crate::outbox::Outbox;
use crate::replica::{ClusterBot, ClusterPlayer, Replica, SeatChange};
use crate::room_handle::RoomHandle;

/// A replica that writes down what it is told, and whether the lobby's parts were unlocked then.
#[derive(Debug, Default)]
struct Probe {
    node: Arc<str>,
    lobby: OnceLock<Lobby>,
    told: Mutex<Vec<String>>,
}

impl Probe {
    fn heard(&self, what: String) {
        let lobby = self.lobby.get().expect("set");
        let unlocked = lobby.rooms.try_lock().is_ok() && lobby.players.try_lock().is_ok();
        assert!(unlocked, "told {what} under a lobby lock");
        self.told.lock().unwrap().push(what);
    }
}

impl Replica for Probe {
    fn node(&self) -> &Arc<str> {
        &self.node
    }
    fn room_listed(&self, summary: &RoomSummary) {
        self.heard(format!("room {:?}", summary.status));
    }
    fn room_unlisted(&self, _: RoomId) {
        self.heard("room gone".to_owned());
    }
    fn room_known(
        &self,
        _: RoomId,
        _: std::time::Duration,
    ) -> futures_util::future::BoxFuture<'static, bool> {
        Box::pin(async { true })
    }
    fn rooms(&self) -> Vec<RoomSummary> {
        Vec::new()
    }
    fn room(&self, _: RoomId) -> Option<RoomHandle> {
        None
    }
    fn bots(&self) -> Vec<ClusterBot> {
        Vec::new()
    }
    fn bot_listed(&self, bot: &ClusterBot) {
        self.heard(format!("bot {}", bot.seats));
    }
    fn bot_unlisted(&self, _: PlayerId) {
        self.heard("bot gone".to_owned());
    }
    fn player_listed(&self, player: &ClusterPlayer) {
        self.heard(format!("player {}", player.name));
    }
    fn player_unlisted(&self, _: &str, _: Option<&str>) {
        self.heard("player gone".to_owned());
    }
    fn seat_changed(&self, _: &Arc<str>, _: SeatChange) {
        self.heard("seat".to_owned());
    }
    fn connected(&self, _: &Outbox) {
        self.heard("connected".to_owned());
    }
    fn tournament_running(&self, _: &str) {}
    fn outbox(&self, _: Arc<str>, _: u64, _: bool) -> Outbox {
        Outbox::new().0
    }
}

fn summary(id: RoomId, owner: PlayerId, status: RoomStatus) -> RoomSummary {
    let config: RoomConfig = serde_json::from_str(r#"{"game":{"game":"gomoku"}}"#).expect("a config");
    RoomSummary {
        id,
        owner,
        config,
        status,
        seats: Vec::new(),
        spectators: 0,
    }
}

#[tokio::test]
async fn each_part_tells_the_cluster_after_its_lock_in_the_order_of_its_changes() {
    let probe = Arc::new(Probe {
        node: Arc::from("a"),
        ..Probe::default()
    });
    let lobby = Lobby::clustered(probe.clone());
    probe.lobby.set(lobby.clone()).expect("once");
    let (outbox, _inbox) = Outbox::new();
    let conn = outbox.conn();
    let (alice, _) = lobby.register("Alice".to_owned(), None, outbox, None);
    let id = RoomId::random();
    let (tx, _rx) = tokio::sync::mpsc::channel(1);
    lobby.add_room(RoomHandle { id, tx }, summary(id, alice, RoomStatus::Waiting));
    assert_eq!(lobby.open_rooms(alice, None).player, 1);
    lobby.update_room(summary(id, alice, RoomStatus::Playing));
    lobby.update_room(summary(id, alice, RoomStatus::Finished));
    assert_eq!(lobby.open_rooms(alice, None).player, 0);
    lobby.disconnected(alice, conn);
    // Disconnected, seatless, owning no open room: forgotten with the room's removal.
    assert!(!lobby.knows(alice));
    lobby.remove_room(id);
    assert_eq!(
        *probe.told.lock().unwrap(),
        [
            "connected",
            "player Alice",
            "room Waiting",
            "room Playing",
            "room Finished",
            "player Alice",
            "player gone",
            "room gone",
        ]
    );
}
