//! What a `room` snapshot carries for a page opened or reloaded mid-match: the events its viewer
//! was sent (and only those) and the time left of each seat's turn.

mod common;

use common::*;
use skirmish_games::Seat;
use skirmish_games::plane::{self, Facing, Variant};
use skirmish_protocol::{ClientMsg, Clock, GameEvent, NumberedEvent, RoomId, RoomSnapshot, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

const CLOCK: Clock = Clock {
    deploy_ms: 60_000,
    move_ms: 30_000,
    game_ms: 0,
};

async fn snapshot(client: &mut TestClient, room: RoomId) -> RoomSnapshot {
    let msg = client
        .recv_until(|m| matches!(m, ServerMsg::Room(s) if s.room.id == room))
        .await;
    let ServerMsg::Room(snap) = msg else {
        unreachable!()
    };
    *snap
}

fn deployments(history: &[NumberedEvent]) -> Vec<Seat> {
    history
        .iter()
        .filter_map(|e| match &e.event {
            GameEvent::Plane(plane::Event::Deployment { seat, .. }) => Some(*seat),
            _ => None,
        })
        .collect()
}

/// Two players deploy and Alice misses once. A spectator who arrives then gets the public events
/// (the shot) and the attacker's clock, but no deployment and no plane anywhere in the history; Alice,
/// coming back with her token, gets her own deployment and not Bob's.
#[tokio::test]
async fn a_snapshot_carries_the_viewers_history_and_the_time_left() {
    let server = TestServer::start().await;
    let (mut alice, welcome) = TestClient::join(&server.ws_url(), "Alice").await;
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("welcome: {welcome:?}")
    };
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, room_config(Variant::Classic, 2, 3, CLOCK), true).await;
    join(&mut bob, room).await;
    // Before the match: nothing to replay, no clock.
    let (mut early, _) = TestClient::join(&server.ws_url(), "Early").await;
    early.send(ClientMsg::Spectate { room }).await;
    let waiting = snapshot(&mut early, room).await;
    let a = plane("C1", Facing::Up);
    let b = plane("D4", Facing::Up);
    alice.send(deploy(room, vec![a])).await;
    bob.send(deploy(room, vec![b])).await;
    your_turn(&mut alice).await;
    alice.send(fire(room, 1, "A1")).await;
    event(&mut bob, |e| matches!(e, plane::Event::Shot { .. })).await;
    your_turn(&mut bob).await;
    assert!(
        waiting
            .history
            .iter()
            .all(|e| !matches!(e.event, GameEvent::Plane(plane::Event::Shot { .. }))),
        "a snapshot holds only what happened before it: {:?}",
        waiting.history
    );

    let (mut watcher, _) = TestClient::join(&server.ws_url(), "Watcher").await;
    watcher.send(ClientMsg::Spectate { room }).await;
    let seen = snapshot(&mut watcher, room).await;
    assert!(
        seen.history.iter().any(|e| matches!(
            e.event,
            GameEvent::Plane(plane::Event::Shot {
                attacker: Seat(0),
                ..
            })
        )),
        "the spectator's history has Alice's shot: {:?}",
        seen.history
    );
    assert!(
        seen.history
            .iter()
            .any(|e| matches!(e.event, GameEvent::Plane(plane::Event::RoundStarted { .. }))),
        "and the round's start: {:?}",
        seen.history
    );
    assert_eq!(
        deployments(&seen.history),
        vec![],
        "no deployment reaches a spectator"
    );
    let mut placements = Vec::new();
    placements_in(&serde_json::to_value(&seen.history).unwrap(), &mut placements);
    assert!(
        placements.is_empty(),
        "no plane in a spectator's history: {placements:?}"
    );
    let seqs: Vec<u64> = seen.history.iter().map(|e| e.seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "in order: {seqs:?}");
    assert!(
        seqs.last().is_some_and(|&last| last <= seen.seq),
        "{seqs:?} up to {}",
        seen.seq
    );
    // Bob is to fire: his clock runs (at most the 30 s a shot), Alice's does not.
    assert_eq!(seen.deadlines_ms.len(), 2, "{:?}", seen.deadlines_ms);
    assert_eq!(seen.deadlines_ms[0], None);
    assert!(
        seen.deadlines_ms[1].is_some_and(|ms| ms > 0 && ms <= 30_000),
        "Bob's time left: {:?}",
        seen.deadlines_ms
    );

    // Alice reloads: the same public events, plus her own deployment only.
    drop(alice);
    let (mut again, _) = TestClient::resume(&server.ws_url(), "Alice", resume).await;
    let mine = snapshot(&mut again, room).await;
    assert_eq!(mine.you, Some(Seat(0)));
    assert_eq!(deployments(&mine.history), vec![Seat(0)], "{:?}", mine.history);
    let mut placements = Vec::new();
    placements_in(&serde_json::to_value(&mine.history).unwrap(), &mut placements);
    assert_eq!(placements, vec![a], "only Alice's own plane: {placements:?}");
    let public: Vec<u64> = mine
        .history
        .iter()
        .filter(|e| !matches!(e.event, GameEvent::Plane(plane::Event::Deployment { .. })))
        .map(|e| e.seq)
        .collect();
    assert_eq!(public, seqs, "the public events are the spectator's");
}
