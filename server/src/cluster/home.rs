//! The node holding a connection: frames for it from rooms of other nodes, kicks and
//! replacements, and notices about its players' seats.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::{Cluster, wire};
use crate::outbox::{Frame, Relayed};

/// The subject of frames for connection `conn` of `node`.
fn conn_subject(node: &str, conn: u64) -> String {
    format!("skirmish.conn.{node}.{conn}")
}

/// The subject of `kick` and `replaced` for connection `conn` of `node`.
pub(super) fn ctl_subject(node: &str, conn: u64) -> String {
    format!("skirmish.ctl.{node}.{conn}")
}

/// The subject of notices to `node` about its players.
fn home_subject(node: &str) -> String {
    format!("skirmish.home.{node}")
}

/// The subject every node hears a room's take-over on.
pub(super) const MOVED: &str = "skirmish.moved";

/// Publishes what this node's rooms send to other nodes' connections, in order, for ever.
pub(super) async fn relay(cluster: Cluster, mut relayed: mpsc::Receiver<Relayed>) {
    let client = cluster.0.client.clone();
    while let Some(item) = relayed.recv().await {
        let (subject, payload) = match item {
            Relayed::Frame { node, conn, text } => (
                conn_subject(&node, conn),
                bytes::Bytes::copy_from_slice(text.as_str().as_bytes()),
            ),
            Relayed::Kick { node, conn } => (ctl_subject(&node, conn), "kick".into()),
            Relayed::Replaced { node, conn } => (ctl_subject(&node, conn), "replaced".into()),
        };
        if let Err(cause) = client.publish(subject, payload).await {
            tracing::warn!(%cause, "a frame for another node's connection was not published");
        }
        for (node, conn) in cluster.0.relay.take_kicks() {
            let _ = client.publish(ctl_subject(&node, conn), "kick".into()).await;
        }
    }
}

/// Tells `node` of `notice`.
pub(super) async fn tell(cluster: &Cluster, node: &str, notice: &wire::HomeNotice) {
    let payload = serde_json::to_vec(notice).expect("notices serialize");
    if let Err(cause) = cluster.0.client.publish(home_subject(node), payload.into()).await {
        tracing::warn!(%cause, "a notice to another node was not published");
    }
}

/// Publishes the queued notices to other nodes, in order, for ever.
pub(super) async fn notify(
    cluster: Cluster,
    mut notices: mpsc::UnboundedReceiver<(Arc<str>, wire::HomeNotice)>,
) {
    while let Some((node, notice)) = notices.recv().await {
        tell(&cluster, &node, &notice).await;
    }
}

/// Subscribes to this node's connections' frames and controls, its players' notices, and the
/// rooms' take-overs.
pub(super) async fn serve(cluster: &Cluster) -> Result<(), String> {
    let client = &cluster.0.client;
    let node = &cluster.0.node;
    let bus = |e: async_nats::SubscribeError| e.to_string();
    let mut frames = client
        .subscribe(format!("skirmish.conn.{node}.*"))
        .await
        .map_err(bus)?;
    let mut controls = client
        .subscribe(format!("skirmish.ctl.{node}.*"))
        .await
        .map_err(bus)?;
    let mut notices = client.subscribe(home_subject(node)).await.map_err(bus)?;
    let mut moves = client.subscribe(MOVED).await.map_err(bus)?;
    let conn_of = |subject: &str| subject.rsplit('.').next().and_then(|c| c.parse::<u64>().ok());
    let c = cluster.clone();
    tokio::spawn(async move {
        while let Some(msg) = frames.next().await {
            let Some(outbox) = conn_of(&msg.subject).and_then(|conn| c.connection(conn)) else {
                continue;
            };
            let Ok(text) = String::from_utf8(msg.payload.to_vec()) else {
                continue;
            };
            outbox.send_frame(Frame::from_text(Utf8Bytes::from(text)));
        }
    });
    let c = cluster.clone();
    tokio::spawn(async move {
        while let Some(msg) = controls.next().await {
            let Some(outbox) = conn_of(&msg.subject).and_then(|conn| c.connection(conn)) else {
                continue;
            };
            match &msg.payload[..] {
                b"kick" => outbox.kick(),
                b"replaced" => outbox.close_replaced(),
                _ => {}
            }
        }
    });
    let c = cluster.clone();
    tokio::spawn(async move {
        while let Some(msg) = notices.next().await {
            let lobby = c.lobby();
            match serde_json::from_slice::<wire::HomeNotice>(&msg.payload) {
                Ok(wire::HomeNotice::Seat(change)) => {
                    let seat = change.seat;
                    if change.held {
                        lobby.seated(change.player, seat.room, seat.seat, seat.strategy.as_deref());
                    } else {
                        lobby.unseated_from(change.player, seat.room, seat.seat);
                    }
                }
                Ok(wire::HomeNotice::Moved { player }) => lobby.moved_away(player),
                Err(cause) => tracing::warn!(%cause, "a notice from another node does not read"),
            }
        }
    });
    let c = cluster.clone();
    tokio::spawn(async move {
        while let Some(msg) = moves.next().await {
            let Ok(moved) = serde_json::from_slice::<wire::Moved>(&msg.payload) else {
                continue;
            };
            reattach(&c, moved.room).await;
        }
    });
    Ok(())
}

/// Gives room `room`, which changed owner, the connections of this node's players seated there.
pub(super) async fn reattach(cluster: &Cluster, room: skirmish_protocol::RoomId) {
    let lobby = cluster.lobby();
    let Some(handle) = lobby.room(room) else {
        return;
    };
    for member in lobby.members_connected_here(room) {
        handle.attach(member).await;
    }
    // Spectators watch again: each gets the new owner's snapshot, and the events after it.
    for member in cluster.spectators_of(room) {
        let player = member.id;
        if let Err(cause) = handle.spectate(member).await {
            tracing::info!(%room, %player, %cause, "a spectator of a room that moved could not watch it again");
        }
    }
}
