//! Rooms over real WebSockets: playing, bad input, reconnecting, clocks and hidden boards.

mod common;

use common::*;
use skirmish_games::plane::{self, Facing, PhaseView, Variant};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{
    Action, ClientMsg, Clock, ErrorCode, GameEvent, GameView, PROTOCOL_VERSION, RoomStatus, ServerMsg,
};
use skirmish_server::testing::{TestClient, TestServer};

fn error_code(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn two_people_play_a_classic_match_to_its_end() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    let rooms = bob.request(ClientMsg::ListRooms).await;
    let ServerMsg::Rooms { rooms, .. } = rooms else {
        panic!()
    };
    assert_eq!(rooms[0].id, room);
    assert_eq!(rooms[0].status, RoomStatus::Waiting);
    assert_eq!(join(&mut bob, room).await, Seat(1));
    your_turn(&mut alice).await;
    your_turn(&mut bob).await;
    let a = plane("C1", Facing::Up);
    let b = plane("D4", Facing::Up);
    alice.send(deploy(room, vec![a])).await;
    bob.send(deploy(room, vec![b])).await;
    let turn = your_turn(&mut alice).await;
    let ServerMsg::YourTurn {
        view: Some(GameView::Plane(view)),
        ..
    } = turn
    else {
        panic!()
    };
    assert_eq!(view.phase, PhaseView::Attack { attacker: Seat(0) });
    assert_eq!(view.boards[0].planes, Some(vec![a]), "Alice sees her own plane");
    assert_eq!(view.boards[1].planes, None, "but not Bob's");
    alice.send(fire(room, 1, "A1")).await;
    let shot = event(&mut bob, |e| matches!(e, plane::Event::Shot { .. })).await;
    assert!(matches!(
        shot,
        plane::Event::Shot {
            result: plane::ShotResult::Miss,
            ..
        }
    ));
    your_turn(&mut bob).await;
    bob.send(fire(room, 0, "C1")).await;
    for client in [&mut alice, &mut bob] {
        let ended = event(client, |e| matches!(e, plane::Event::MatchEnded { .. })).await;
        let plane::Event::MatchEnded { outcome } = ended else {
            unreachable!()
        };
        assert_eq!(outcome.winner, Seat(1));
        assert_eq!(outcome.totals.0, vec![0, 3]);
    }
    // Bob never saw Alice's plane before it was shot down.
    let before_down = bob
        .texts
        .iter()
        .take_while(|t| !t.contains("\"result\":\"down\""))
        .count();
    for text in &bob.texts[..before_down] {
        let mut seen = Vec::new();
        placements_in(&serde_json::from_str(text).unwrap(), &mut seen);
        assert!(!seen.contains(&a), "Alice's plane leaked to Bob: {text}");
    }
    let ServerMsg::Rooms { rooms, .. } = alice.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    assert_eq!(rooms[0].status, RoomStatus::Finished);
}

#[tokio::test]
async fn bad_input_gets_a_stable_code_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut early = TestClient::connect(&server.ws_url()).await;
    early.send(ClientMsg::ListRooms).await;
    assert_eq!(error_code(&early.recv().await), ErrorCode::HelloFirst);
    let reply = early
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "   ".into(),
            bot: None,
            resume: None,
            key: None,
            token: None,
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert_eq!(error_code(&reply), ErrorCode::BadName);

    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (mut eve, _) = TestClient::join(&server.ws_url(), "Eve").await;
    alice.send_text("{not json".into()).await;
    assert_eq!(error_code(&alice.recv().await), ErrorCode::BadJson);
    alice.send_text(r#"{"type":"teleport","req":41}"#.into()).await;
    let reply = alice.recv().await;
    assert_eq!(error_code(&reply), ErrorCode::UnknownType);
    assert!(
        matches!(reply, ServerMsg::Error { req: Some(41), .. }),
        "the error names the request"
    );
    // The right message with fields of the wrong types.
    alice
        .send_text(r#"{"type":"act","req":43,"room":7,"action":"fire"}"#.into())
        .await;
    let reply = alice.recv().await;
    assert_eq!(error_code(&reply), ErrorCode::BadMessage);
    assert!(matches!(reply, ServerMsg::Error { req: Some(43), .. }));
    alice
        .send_text(format!(
            r#"{{"type":"ping","req":42,"pad":"{}"}}"#,
            "x".repeat(100_000)
        ))
        .await;
    assert_eq!(error_code(&alice.recv().await), ErrorCode::FrameTooLarge);
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "Again".into(),
        bot: None,
        resume: None,
        key: None,
        token: None,
        turn_view: Some(true),
        ladder: Vec::new(),
    };
    assert_eq!(error_code(&alice.request(hello).await), ErrorCode::AlreadyHello);
    let bad_config = room_config(Variant::Double, 5, 18, NO_CLOCK);
    assert_eq!(
        error_code(
            &alice
                .request(ClientMsg::CreateRoom {
                    config: bad_config,
                    sit: true
                })
                .await
        ),
        ErrorCode::BadConfig
    );

    let room = create(&mut alice, room_config(Variant::Double, 2, 1, NO_CLOCK), true).await;
    let a = plane("C1", Facing::Up);
    let b = plane("E6", Facing::Up);
    assert_eq!(
        error_code(&alice.request(deploy(room, vec![a, b])).await),
        ErrorCode::NotStarted
    );
    join(&mut bob, room).await;
    assert_eq!(
        error_code(&eve.request(ClientMsg::JoinRoom { room, seat: None }).await),
        ErrorCode::RoomStarted
    );
    assert_eq!(
        error_code(&eve.request(deploy(room, vec![a, b])).await),
        ErrorCode::NotSeated
    );
    let nowhere = skirmish_protocol::RoomId::random();
    assert_eq!(
        error_code(&eve.request(ClientMsg::Spectate { room: nowhere }).await),
        ErrorCode::NoSuchRoom
    );
    assert_eq!(
        error_code(&bob.request(ClientMsg::Start { room }).await),
        ErrorCode::NotOwner
    );
    assert_eq!(
        error_code(&alice.request(deploy(room, vec![a, a])).await),
        ErrorCode::rule("overlapping_planes")
    );
    alice.send(deploy(room, vec![a, b])).await;
    assert_eq!(
        error_code(&alice.request(deploy(room, vec![a, b])).await),
        ErrorCode::rule("already_deployed")
    );
    bob.send(deploy(room, vec![a, b])).await;
    your_turn(&mut alice).await;
    assert_eq!(
        error_code(&bob.request(fire(room, 0, "A1")).await),
        ErrorCode::rule("not_your_turn")
    );
    assert_eq!(
        error_code(&alice.request(fire(room, 0, "A1")).await),
        ErrorCode::rule("own_board")
    );
    // Acting for a seat one does not hold: Bob's, while it is Alice's turn.
    let for_bob = ClientMsg::Act {
        room,
        seat: Some(Seat(1)),
        action: Action::Plane(plane::Action::Fire {
            target: Seat(0),
            cell: cell("B2"),
        }),
        info: None,
    };
    assert_eq!(error_code(&alice.request(for_bob).await), ErrorCode::NotSeated);
    assert_eq!(
        error_code(&alice.request(fire(room, 1, "Z1")).await),
        ErrorCode::rule("cell_off_board")
    );
    alice.send(fire(room, 1, "A1")).await;
    your_turn(&mut bob).await;
    bob.send(fire(room, 0, "A1")).await;
    let turn = your_turn(&mut alice).await;
    let ServerMsg::YourTurn {
        view: Some(GameView::Plane(before)),
        ..
    } = turn
    else {
        panic!()
    };
    assert_eq!(
        error_code(&alice.request(fire(room, 1, "A1")).await),
        ErrorCode::rule("cell_public")
    );
    // Nothing changed: a fresh snapshot shows the same game, and Alice still has the turn.
    eve.request(ClientMsg::Spectate { room }).await;
    let snapshot = eve.log.iter().rev().find_map(|m| match m {
        ServerMsg::Room(s) => Some(s.clone()),
        _ => None,
    });
    let snapshot = snapshot.expect("a snapshot before `done`");
    let GameView::Plane(after) = snapshot.view else {
        panic!("a plane battle view")
    };
    assert_eq!(after.phase, PhaseView::Attack { attacker: Seat(0) });
    assert_eq!(after.boards[1].shots, before.boards[1].shots);
    assert_eq!(after.boards[1].planes, None, "a spectator sees no hidden plane");
    assert!(
        matches!(alice.request(ClientMsg::Ping).await, ServerMsg::Pong { .. }),
        "the connection goes on"
    );
    alice.send(fire(room, 1, "B1")).await;
    event(
        &mut bob,
        |e| matches!(e, plane::Event::Shot { cell, .. } if cell.to_string() == "B1"),
    )
    .await;
}

#[tokio::test]
async fn a_reconnecting_player_gets_the_seat_and_board_back() {
    let server = TestServer::start().await;
    let (mut alice, welcome) = TestClient::join(&server.ws_url(), "Alice").await;
    let ServerMsg::Welcome { resume, player, .. } = welcome else {
        panic!()
    };
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, room_config(Variant::Double, 2, 2, NO_CLOCK), true).await;
    join(&mut bob, room).await;
    let mine = vec![plane("C1", Facing::Up), plane("E6", Facing::Up)];
    alice.send(deploy(room, mine.clone())).await;
    event(&mut alice, |e| matches!(e, plane::Event::Deployment { .. })).await;
    drop(alice);
    let seat_info = bob
        .recv_until(|m| matches!(m, ServerMsg::Room(s) if s.room.seats[0].occupant.as_ref().is_some_and(|o| !o.connected)))
        .await;
    assert!(
        matches!(seat_info, ServerMsg::Room(_)),
        "Bob sees Alice disconnected"
    );
    bob.send(deploy(
        room,
        vec![plane("C1", Facing::Up), plane("E6", Facing::Up)],
    ))
    .await;
    event(&mut bob, |e| matches!(e, plane::Event::Turn { .. })).await;

    let mut alice = TestClient::connect(&server.ws_url()).await;
    let welcome = alice
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "Alice".into(),
            bot: None,
            resume: Some(resume),
            key: None,
            token: None,
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    let ServerMsg::Welcome {
        player: again, seats, ..
    } = welcome
    else {
        panic!("{welcome:?}")
    };
    assert_eq!(again, player, "the same player");
    assert_eq!(seats.len(), 1);
    assert_eq!(seats[0].room, room);
    let ServerMsg::Room(snapshot) = alice.recv_until(|m| matches!(m, ServerMsg::Room(_))).await else {
        panic!()
    };
    assert_eq!(snapshot.you, Some(Seat(0)));
    let GameView::Plane(view) = snapshot.view else {
        panic!("a plane battle view")
    };
    assert_eq!(view.viewer, Viewer::Seat(Seat(0)));
    assert_eq!(view.boards[0].planes, Some(mine), "her board as it was");
    assert_eq!(view.phase, PhaseView::Attack { attacker: Seat(0) });
    your_turn(&mut alice).await;
    alice.send(fire(room, 1, "A1")).await;
    event(&mut bob, |e| matches!(e, plane::Event::Shot { .. })).await;
}

#[tokio::test]
async fn the_clock_deploys_for_a_player_who_runs_out_of_time() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let clock = Clock {
        deploy_ms: 300,
        move_ms: 0,
        game_ms: 0,
    };
    let room = create(&mut alice, room_config(Variant::Classic, 2, 1, clock), true).await;
    join(&mut bob, room).await;
    let ServerMsg::YourTurn { deadline_ms, .. } = your_turn(&mut bob).await else {
        unreachable!()
    };
    assert!(deadline_ms.is_some_and(|ms| ms <= 300));
    alice.send(deploy(room, vec![plane("C1", Facing::Up)])).await;
    let ready = event(&mut alice, |e| {
        matches!(e, plane::Event::Ready { seat: Seat(1), .. })
    })
    .await;
    assert_eq!(
        ready,
        plane::Event::Ready {
            seat: Seat(1),
            by_default: true
        }
    );
    let own = event(&mut bob, |e| matches!(e, plane::Event::Deployment { .. })).await;
    assert!(
        matches!(own, plane::Event::Deployment { seat: Seat(1), .. }),
        "Bob is shown the deployment made for him"
    );
    let late = bob.request(deploy(room, vec![plane("C1", Facing::Up)])).await;
    assert_eq!(error_code(&late), ErrorCode::rule("deployment_closed"));
}

#[tokio::test]
async fn the_clock_fires_for_a_player_who_runs_out_of_time() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let clock = Clock {
        deploy_ms: 0,
        move_ms: 200,
        game_ms: 0,
    };
    // Two planes each, so that the referee's random shot cannot knock Bob out and end the match.
    let room = create(&mut alice, room_config(Variant::Double, 2, 1, clock), true).await;
    join(&mut bob, room).await;
    let two = || vec![plane("C1", Facing::Up), plane("E6", Facing::Up)];
    alice.send(deploy(room, two())).await;
    bob.send(deploy(room, two())).await;
    // Alice never fires: the referee fires a random legal shot for her, then it is Bob's turn.
    let shot = event(&mut bob, |e| matches!(e, plane::Event::Shot { .. })).await;
    assert!(matches!(
        shot,
        plane::Event::Shot {
            attacker: Seat(0),
            target: Seat(1),
            by_default: true,
            ..
        }
    ));
    let turn = event(&mut bob, |e| matches!(e, plane::Event::Turn { .. })).await;
    assert_eq!(turn, plane::Event::Turn { attacker: Seat(1) });
}

#[tokio::test]
async fn leaving_a_waiting_room_frees_the_seat() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    let room = create(&mut alice, room_config(Variant::Double, 3, 1, NO_CLOCK), true).await;
    assert_eq!(join(&mut bob, room).await, Seat(1));
    assert_eq!(
        error_code(&bob.request(ClientMsg::JoinRoom { room, seat: None }).await),
        ErrorCode::AlreadySeated
    );
    assert!(matches!(
        bob.request(ClientMsg::LeaveRoom { room }).await,
        ServerMsg::Done { .. }
    ));
    assert_eq!(
        error_code(&bob.request(ClientMsg::LeaveRoom { room }).await),
        ErrorCode::NotSeated
    );
    let taken = carol
        .request(ClientMsg::JoinRoom {
            room,
            seat: Some(Seat(0)),
        })
        .await;
    assert_eq!(error_code(&taken), ErrorCode::SeatTaken);
    assert_eq!(join(&mut carol, room).await, Seat(1), "Bob's seat is free again");
    let ServerMsg::Rooms { rooms, .. } = carol.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    let ServerMsg::Welcome { player: alice_id, .. } = alice.log[0].clone() else {
        panic!("welcome first")
    };
    assert_eq!(rooms[0].owner, alice_id, "the creator owns the room");
    let names: Vec<Option<String>> = rooms[0]
        .seats
        .iter()
        .map(|s| s.occupant.as_ref().map(|o| o.name.clone()))
        .collect();
    assert_eq!(names, vec![Some("Alice".into()), Some("Carol".into()), None]);
}

#[tokio::test]
async fn a_players_stream_does_not_depend_on_hidden_boards() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (seat0_a, seat1_a) = seat_zero_stream([&url, &url, &url], 0).await;
    let (seat0_b, seat1_b) = seat_zero_stream([&url, &url, &url], 1).await;
    assert!(seat0_a.len() > 10);
    assert_eq!(
        seat0_a, seat0_b,
        "seat 0 can tell the opponents' hidden boards apart"
    );
    assert_ne!(
        seat1_a, seat1_b,
        "the test is blind: seat 1's own stream shows its own planes"
    );
}

#[tokio::test]
async fn spectators_see_public_information_only() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (mut watcher, _) = TestClient::join(&server.ws_url(), "Watcher").await;
    let room = create(&mut alice, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    watcher.request(ClientMsg::Spectate { room }).await;
    join(&mut bob, room).await;
    let a = plane("C1", Facing::Up);
    let b = plane("D4", Facing::Up);
    alice.send(deploy(room, vec![a])).await;
    bob.send(deploy(room, vec![b])).await;
    your_turn(&mut alice).await;
    alice.send(fire(room, 1, "D4")).await;
    event(&mut watcher, |e| matches!(e, plane::Event::MatchEnded { .. })).await;
    let down_at = watcher
        .texts
        .iter()
        .position(|t| t.contains("\"result\":\"down\""))
        .unwrap();
    for text in &watcher.texts[..down_at] {
        let mut seen = Vec::new();
        placements_in(&serde_json::from_str(text).unwrap(), &mut seen);
        assert!(seen.is_empty(), "a hidden plane reached a spectator: {text}");
    }
    assert!(watcher.log.iter().all(|m| !matches!(
        m,
        ServerMsg::Event {
            event: GameEvent::Plane(plane::Event::Deployment { .. }),
            ..
        }
    )));
}

#[tokio::test]
async fn a_token_the_server_never_issued_is_refused_and_the_client_starts_afresh() {
    let server = TestServer::start().await;
    let mut client = TestClient::connect(&server.ws_url()).await;
    let forged: skirmish_protocol::ResumeToken =
        serde_json::from_str("\"0b9ff1ca-42b3-4fe9-99cd-b49eb0e5b04e\"").unwrap();
    client
        .send(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "Mallory".into(),
            bot: None,
            resume: Some(forged.clone()),
            key: None,
            token: None,
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    let refused = client.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert_eq!(error_code(&refused), ErrorCode::BadResume);
    let welcome = client
        .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }))
        .await;
    let ServerMsg::Welcome { resume, seats, .. } = welcome else {
        unreachable!()
    };
    assert_ne!(resume, forged, "a fresh token");
    assert_eq!(resume.as_str().len(), 64);
    assert!(seats.is_empty());
}

#[tokio::test]
async fn names_lose_their_control_characters_and_markup_stays_text() {
    let server = TestServer::start().await;
    let (_, welcome) = TestClient::join(&server.ws_url(), "  Eve\n\u{1b}[31m\t ").await;
    let ServerMsg::Welcome { name, .. } = welcome else {
        panic!("welcome: {welcome:?}")
    };
    assert_eq!(name, "Eve[31m");
    // Markup is a name like any other: kept as it is, for clients to show as text.
    let markup = "<img src=x onerror=alert(1)>";
    let (_, welcome) = TestClient::join(&server.ws_url(), markup).await;
    assert!(matches!(welcome, ServerMsg::Welcome { ref name, .. } if name == markup));
    let mut empty = TestClient::connect(&server.ws_url()).await;
    let reply = empty
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "\n\u{7}\t".into(),
            bot: None,
            resume: None,
            key: None,
            token: None,
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert_eq!(error_code(&reply), ErrorCode::BadName);
}
