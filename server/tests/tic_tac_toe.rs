//! Tic-tac-toe rooms over real WebSockets, the fourth game, which the server referees through the
//! one refereeing interface and names nowhere: two people play to a line while a spectator
//! watches; bad input gets the engine's stable code and changes nothing; a person who plays
//! random cells against the `seed-rules` bot, connected like any client, never wins.

mod common;

use common::*;
use rand::seq::IndexedRandom;
use skirmish_games::Seat;
use skirmish_games::tic_tac_toe::{self, End};
use skirmish_protocol::{
    Action, ClientMsg, ErrorCode, GameConfig, GameEvent, GameView, RoomConfig, RoomId, ServerMsg,
};
use skirmish_server::testing::{TestClient, TestServer};

fn room_config() -> RoomConfig {
    RoomConfig {
        name: Some("tic-tac-toe test".into()),
        game: GameConfig::TicTacToe(tic_tac_toe::Config::default()),
        clock: Some(NO_CLOCK),
        on_drop: None,
    }
}

fn place(room: RoomId, cell: u8) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::TicTacToe(tic_tac_toe::Action::Place { cell }),
        info: None,
    }
}

async fn ended(client: &mut TestClient) -> tic_tac_toe::Outcome {
    wait_for(client, |m| match m {
        ServerMsg::Event {
            event: GameEvent::TicTacToe(tic_tac_toe::Event::Ended { outcome }),
            ..
        } => Some(outcome.clone()),
        _ => None,
    })
    .await
}

/// Waits until `client` sees a mark placed on `cell`.
async fn marked(client: &mut TestClient, cell: u8) {
    client
        .recv_until(|m| {
            matches!(m, ServerMsg::Event { event: GameEvent::TicTacToe(tic_tac_toe::Event::Placed { cell: c, .. }), .. } if *c == cell)
        })
        .await;
}

fn code(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("an error: {other:?}"),
    }
}

#[tokio::test]
async fn two_people_play_to_a_line_and_the_spectator_sees_every_mark() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, room_config(), true).await;
    assert_eq!(join(&mut bob, room).await, Seat(1));
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    carol.request(ClientMsg::Spectate { room }).await;
    // X: 0 4 8 (the diagonal), O: 1 2.
    for (turn, cell) in [0u8, 1, 4, 2, 8].into_iter().enumerate() {
        let client = if turn % 2 == 0 { &mut alice } else { &mut bob };
        your_turn(client).await;
        client.send(place(room, cell)).await;
        marked(client, cell).await;
    }
    for client in [&mut alice, &mut bob, &mut carol] {
        let outcome = ended(client).await;
        assert_eq!(outcome.winner, Some(Seat(0)));
        assert_eq!(outcome.end, End::Line { cells: [0, 4, 8] });
    }
    let marks = carol
        .log
        .iter()
        .filter(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::TicTacToe(tic_tac_toe::Event::Placed { .. }),
                    ..
                }
            )
        })
        .count();
    assert_eq!(marks, 5, "the spectator saw every mark");
}

#[tokio::test]
async fn bad_marks_get_stable_codes_and_change_nothing() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, room_config(), true).await;
    join(&mut bob, room).await;
    your_turn(&mut alice).await;
    alice.send(place(room, 4)).await;
    your_turn(&mut bob).await;
    assert_eq!(
        code(&bob.request(place(room, 4)).await),
        ErrorCode::rule("cell_occupied")
    );
    assert_eq!(
        code(&bob.request(place(room, 9)).await),
        ErrorCode::rule("cell_off_board")
    );
    assert_eq!(
        code(&alice.request(place(room, 0)).await),
        ErrorCode::rule("not_your_turn")
    );
    let gomoku = ClientMsg::Act {
        room,
        seat: None,
        action: Action::Gomoku(skirmish_games::gomoku::Action::Place {
            point: "h8".parse().unwrap(),
        }),
        info: None,
    };
    assert_eq!(code(&bob.request(gomoku).await), ErrorCode::WrongGame);
    // Nothing changed: the board holds one mark, and it is still O's turn.
    let reply = bob.request(ClientMsg::Spectate { room }).await;
    let _ = reply;
    let snapshot = bob
        .log
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Room(s) if s.room.id == room => Some(s.clone()),
            _ => None,
        })
        .expect("a snapshot");
    let GameView::TicTacToe(view) = snapshot.view else {
        panic!("a tic-tac-toe view")
    };
    assert_eq!(view.cells.iter().flatten().count(), 1);
    assert_eq!(view.to_move, Some(Seat(1)));
}

#[tokio::test]
async fn a_person_playing_random_cells_never_beats_seed_rules() {
    let server = TestServer::start().await;
    let bots = Bots::start(&server, &["ttt-bot"], &["seed-rules"], None).await;
    let mut rng = rand::rng();
    for game in 0..6 {
        let (mut alice, _) = TestClient::join(&server.ws_url(), &format!("Alice{game}")).await;
        let room = create(&mut alice, room_config(), true).await;
        add_bots(&mut alice, room, 1, "seed-rules").await;
        // X moves whenever the marks so far are even in number; the log holds every event, some
        // received while a request waited for its reply.
        let outcome = loop {
            let mut cells = [false; 9];
            let mut over = None;
            for m in &alice.log {
                match m {
                    ServerMsg::Event {
                        event: GameEvent::TicTacToe(tic_tac_toe::Event::Placed { cell, .. }),
                        room: r,
                        ..
                    } if *r == room => {
                        cells[usize::from(*cell)] = true;
                    }
                    ServerMsg::Event {
                        event: GameEvent::TicTacToe(tic_tac_toe::Event::Ended { outcome }),
                        room: r,
                        ..
                    } if *r == room => {
                        over = Some(outcome.clone());
                    }
                    _ => {}
                }
            }
            if let Some(outcome) = over {
                break outcome;
            }
            let marks = cells.iter().filter(|c| **c).count();
            if marks % 2 == 0 {
                let free: Vec<u8> = (0..9).filter(|c| !cells[usize::from(*c)]).collect();
                let cell = *free.choose(&mut rng).expect("a free cell on my turn");
                alice.send(place(room, cell)).await;
            }
            alice
                .recv_until(|m| matches!(m, ServerMsg::Event { room: r, .. } if *r == room))
                .await;
        };
        assert_ne!(
            outcome.winner,
            Some(Seat(0)),
            "game {game}: the person won against seed-rules"
        );
    }
    bots.stop().await;
}

#[tokio::test]
async fn a_room_whose_engine_panics_is_reported_broken_to_its_players_and_leaves_the_lobby() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, room_config(), true).await;
    join(&mut bob, room).await;
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    carol.request(ClientMsg::Spectate { room }).await;
    // A healthy room beside it, which must go on.
    let other = create(&mut bob, room_config(), true).await;

    skirmish_server::testing::fault_engine(room);
    your_turn(&mut alice).await;
    alice.send(place(room, 4)).await;
    for client in [&mut alice, &mut bob, &mut carol] {
        let msg = client
            .recv_until(|m| {
                matches!(
                    m,
                    ServerMsg::Error {
                        code: ErrorCode::RoomBroken,
                        ..
                    }
                )
            })
            .await;
        let ServerMsg::Error { message, .. } = msg else {
            unreachable!()
        };
        assert!(message.contains(&room.to_string()), "{message}");
    }
    // It left the lobby: not listed, not joinable; the other room is still there and playable.
    let ServerMsg::Rooms { rooms, .. } = carol.request(ClientMsg::ListRooms).await else {
        panic!("a room list")
    };
    assert!(
        rooms.iter().all(|r| r.id != room),
        "the broken room is still listed"
    );
    assert!(rooms.iter().any(|r| r.id == other));
    assert_eq!(
        code(&carol.request(ClientMsg::Spectate { room }).await),
        ErrorCode::NoSuchRoom
    );
    assert_eq!(code(&alice.request(place(room, 0)).await), ErrorCode::NoSuchRoom);
    // Bob's seat there is gone (a resume would not offer it); his other room plays on.
    let (mut dave, _) = TestClient::join(&server.ws_url(), "Dave").await;
    assert_eq!(join(&mut dave, other).await, Seat(1));
    your_turn(&mut bob).await;
    bob.send(place(other, 0)).await;
    marked(&mut dave, 0).await;
}
