//! No lost games: a room's log is written as it goes, so a match survives its server being killed.
//! Two people play plane battle on the server program; it is killed with SIGKILL mid-round, then
//! later stopped with SIGTERM mid-round; each time it is started again on the same database, both
//! players resume their seats with their tokens, find the match exactly where it was (boards,
//! event numbers, commitments) and play it to its end. A finished room is not brought back.

mod common;

use common::{NO_CLOCK, ServerProcess, deploy, event, fire, plane, room_config};
use skirmish_games::plane::{self, Facing, PhaseView, Placement, Variant};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{Commitment, GameView, ResumeToken, Reveal, RoomId, RoomSnapshot, ServerMsg};
use skirmish_server::testing::TestClient;

/// Says hello with `resume`; checks the welcome gives back the seat in `room`, and returns the
/// room's snapshot that follows.
async fn resume(url: &str, name: &str, token: &ResumeToken, room: RoomId) -> (TestClient, RoomSnapshot) {
    let (mut client, welcome) = TestClient::resume(url, name, token.clone()).await;
    let ServerMsg::Welcome { seats, .. } = welcome else {
        panic!("{name} is welcomed back: {welcome:?}")
    };
    assert_eq!(seats.len(), 1, "{name} holds a seat again");
    assert_eq!(seats[0].room, room);
    let ServerMsg::Room(snapshot) = client.recv_until(|m| matches!(m, ServerMsg::Room(_))).await else {
        unreachable!()
    };
    (client, *snapshot)
}

fn token(welcome: &ServerMsg) -> ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("a welcome: {welcome:?}")
    };
    resume.clone()
}

fn commitments(client: &TestClient) -> Vec<Commitment> {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Commitment { commitment, .. } => Some(commitment.clone()),
            _ => None,
        })
        .collect()
}

fn last_seq(client: &TestClient) -> u64 {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event { seq, .. } => Some(*seq),
            ServerMsg::Room(snapshot) => Some(snapshot.seq),
            _ => None,
        })
        .max()
        .expect("events seen")
}

fn planes(snapshot: &RoomSnapshot, board: usize) -> Option<Vec<Placement>> {
    let GameView::Plane(view) = &snapshot.view else {
        panic!("a plane battle view")
    };
    view.boards[board].planes.clone()
}

/// Waits for the round's deployments to be over and returns whose shot it is.
async fn attacker(client: &mut TestClient) -> Seat {
    let plane::Event::Turn { attacker } = event(client, |e| matches!(e, plane::Event::Turn { .. })).await
    else {
        unreachable!()
    };
    attacker
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_survives_a_sigkill_and_a_sigterm_of_its_server() {
    let dir = std::env::temp_dir().join(format!("skirmish-room-restart-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    survives_restarts(dir.join("skirmish.db").to_str().expect("a UTF-8 path")).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same on PostgreSQL: the room's log written through PostgreSQL survives the server's
/// SIGKILL and SIGTERM and replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_journaled_in_postgres_survives_a_sigkill_and_a_sigterm_of_its_server() {
    let pg = common::postgres::Postgres::start().await;
    survives_restarts(&pg.database().await).await;
}

/// Plays a match on a server storing in `database`, killing and stopping it mid-round.
async fn survives_restarts(database: &str) {
    let port = common::free_port();
    // A long grace period: this test is about the restore, not the drop policy.
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");

    // Round 1: both deploy; each misses once.
    let (mut alice, welcome) = TestClient::join(&url, "Alice").await;
    let alice_token = token(&welcome);
    let (mut bob, welcome) = TestClient::join(&url, "Bob").await;
    let bob_token = token(&welcome);
    let room = common::create(&mut alice, room_config(Variant::Classic, 2, 2, NO_CLOCK), true).await;
    common::join(&mut bob, room).await;
    let alice_plane = plane("C1", Facing::Up);
    let bob_plane = plane("D4", Facing::Up);
    alice.send(deploy(room, vec![alice_plane])).await;
    bob.send(deploy(room, vec![bob_plane])).await;
    assert_eq!(attacker(&mut alice).await, Seat(0));
    alice.send(fire(room, 1, "A1")).await;
    event(&mut bob, |e| matches!(e, plane::Event::Shot { .. })).await;
    bob.send(fire(room, 0, "A1")).await;
    // The shot, then the turn that follows it: the last event of the room.
    for client in [&mut alice, &mut bob] {
        event(client, |e| matches!(e, plane::Event::Turn { attacker: Seat(0) })).await;
    }
    // Some events are for one seat only (a deployment): the room's count is the larger.
    let seq = last_seq(&alice).max(last_seq(&bob));
    let committed = commitments(&alice);
    assert_eq!(committed.len(), 2, "both round-1 deployments committed");
    assert_eq!(commitments(&bob), committed);

    // The journal commits what rooms hand it within milliseconds; a SIGKILL may lose only that,
    // so wait until it holds both seats, the start, two deployments and two shots.
    common::journaled(database, room, 7).await;
    server.kill();
    drop((alice, bob));
    let mut server = ServerProcess::start(port, database, &args).await;

    let (mut alice, snapshot) = resume(&url, "Alice", &alice_token, room).await;
    assert_eq!(snapshot.seq, seq, "the match goes on from the last event");
    assert_eq!(snapshot.commitments, committed, "the same commitments");
    assert!(snapshot.reveals.is_empty(), "nothing revealed mid-round");
    assert_eq!(
        planes(&snapshot, 0),
        Some(vec![alice_plane]),
        "Alice's board is back"
    );
    assert_eq!(planes(&snapshot, 1), None, "and Bob's is still hidden from her");
    let GameView::Plane(view) = &snapshot.view else {
        unreachable!()
    };
    assert_eq!(view.viewer, Viewer::Seat(Seat(0)));
    assert_eq!(view.phase, PhaseView::Attack { attacker: Seat(0) });
    let bob_seat = snapshot.room.seats[1]
        .occupant
        .as_ref()
        .expect("Bob's seat is kept");
    assert_eq!(bob_seat.name, "Bob");
    let (mut bob, snapshot) = resume(&url, "Bob", &bob_token, room).await;
    assert_eq!(snapshot.seq, seq);
    assert_eq!(planes(&snapshot, 1), Some(vec![bob_plane]), "Bob's board is back");
    assert_eq!(planes(&snapshot, 0), None);

    // Alice shoots Bob's plane down: round 1 is hers, and its deployments are revealed.
    common::your_turn(&mut alice).await;
    alice.send(fire(room, 1, "D4")).await;
    event(&mut alice, |e| matches!(e, plane::Event::RoundEnded { .. })).await;
    let mut reveals: Vec<Reveal> = Vec::new();
    while reveals.len() < 2 {
        if let ServerMsg::Reveal { reveal, .. } =
            alice.recv_until(|m| matches!(m, ServerMsg::Reveal { .. })).await
        {
            reveals.push(reveal);
        }
    }
    for reveal in &reveals {
        assert!(
            committed.iter().any(|c| reveal.verify(c)),
            "a deployment revealed after the restart opens a commitment made before it"
        );
    }

    // Round 2: both deploy, one shot; then SIGTERM, which writes everything logged before exit.
    alice.send(deploy(room, vec![plane("D4", Facing::Up)])).await;
    bob.send(deploy(room, vec![plane("C1", Facing::Up)])).await;
    let first = attacker(&mut bob).await;
    let (shooter, target) = if first == Seat(0) {
        (&mut alice, 1)
    } else {
        (&mut bob, 0)
    };
    shooter.send(fire(room, target, "A1")).await;
    let next = Seat(1 - first.0);
    for client in [&mut alice, &mut bob] {
        event(
            client,
            |e| matches!(e, plane::Event::Turn { attacker } if *attacker == next),
        )
        .await;
    }
    let seq = last_seq(&alice).max(last_seq(&bob));
    assert!(server.terminate(), "the server exits cleanly on SIGTERM");
    while alice.try_recv().await.is_some() {}
    assert_eq!(
        alice.closed,
        Some(1001),
        "clients are told the server is going away"
    );
    drop((alice, bob));
    let mut server = ServerProcess::start(port, database, &args).await;

    let (mut alice, snapshot) = resume(&url, "Alice", &alice_token, room).await;
    assert_eq!(snapshot.seq, seq, "nothing lost on SIGTERM");
    assert_eq!(planes(&snapshot, 0), Some(vec![plane("D4", Facing::Up)]));
    let (mut bob, _) = resume(&url, "Bob", &bob_token, room).await;
    // The other seat shoots the first one's plane down: the match ends, 3 points each.
    let (shooter, cell) = if first == Seat(0) {
        (&mut bob, "D4")
    } else {
        (&mut alice, "C1")
    };
    common::your_turn(shooter).await;
    shooter.send(fire(room, 1 - target, cell)).await;
    for client in [&mut alice, &mut bob] {
        let plane::Event::MatchEnded { outcome } =
            event(client, |e| matches!(e, plane::Event::MatchEnded { .. })).await
        else {
            unreachable!()
        };
        assert_eq!(
            outcome.totals.0.iter().sum::<u32>(),
            6,
            "two rounds won, 3 points each"
        );
    }
    drop((alice, bob));

    // A finished room is over in storage too: it does not come back.
    assert!(server.terminate());
    let _server = ServerProcess::start(port, database, &args).await;
    let rooms: serde_json::Value = reqwest::get(format!("http://127.0.0.1:{port}/api/rooms"))
        .await
        .expect("the lobby answers")
        .json()
        .await
        .expect("JSON");
    assert_eq!(rooms.as_array().map(Vec::len), Some(0), "{rooms}");
}
