//! Gomoku rooms over real WebSockets: two people play to a five; bad input (an occupied point, a
//! point off the board, a move out of turn, a forbidden point for black under renju, another
//! game's action) gets the engine's stable code and changes nothing; the move clock decides; two
//! bots, connected over WebSockets like any client, play a whole game.

mod common;

use common::*;
use skirmish_bots::client::{BotOptions, run};
use skirmish_games::Seat;
use skirmish_games::gomoku::{self, End, Opening, Rule};
use skirmish_protocol::{
    Action, ClientMsg, Clock, ErrorCode, GameConfig, GameEvent, GameView, RoomConfig, RoomId, ServerMsg,
};
use skirmish_server::testing::{TestClient, TestServer};
use tokio_util::sync::CancellationToken;

fn gomoku_room(rule: Rule, opening: Option<Opening>, clock: Clock) -> RoomConfig {
    RoomConfig {
        name: Some("gomoku test".into()),
        game: GameConfig::Gomoku(gomoku::Config {
            size: 15,
            rule,
            opening,
        }),
        clock: Some(clock),
        on_drop: None,
    }
}

use common::place_stone as place;

async fn placed(client: &mut TestClient, number: u32) {
    client
        .recv_until(|m| {
            matches!(m, ServerMsg::Event { event: GameEvent::Gomoku(gomoku::Event::Placed { number: n, .. }), .. } if *n == number)
        })
        .await;
}

async fn view(client: &mut TestClient, room: RoomId) -> gomoku::View {
    let reply = client.request(ClientMsg::Spectate { room }).await;
    let _ = reply;
    let snapshot = client
        .log
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Room(snapshot) if snapshot.room.id == room => Some(snapshot.clone()),
            _ => None,
        })
        .expect("a room snapshot");
    let GameView::Gomoku(view) = snapshot.view else {
        panic!("a gomoku view: {snapshot:?}")
    };
    view
}

/// Waits for the game's `ended` event and returns its outcome.
async fn ended(client: &mut TestClient) -> gomoku::Outcome {
    wait_for(client, |m| match m {
        ServerMsg::Event {
            event: GameEvent::Gomoku(gomoku::Event::Ended { outcome }),
            ..
        } => Some(outcome.clone()),
        _ => None,
    })
    .await
}

fn error_code(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn two_people_play_gomoku_to_a_five_and_everyone_sees_the_line() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, gomoku_room(Rule::Freestyle, None, NO_CLOCK), true).await;
    assert_eq!(join(&mut bob, room).await, Seat(1));
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    carol.request(ClientMsg::Spectate { room }).await;
    let black = ["h8", "h9", "h10", "h11", "h12"];
    let white = ["a1", "a2", "a3", "a4"];
    for (i, point) in black.iter().enumerate() {
        your_turn(&mut alice).await;
        alice.send(place(room, point)).await;
        placed(&mut bob, u32::try_from(2 * i + 1).unwrap()).await;
        if let Some(w) = white.get(i) {
            your_turn(&mut bob).await;
            bob.send(place(room, w)).await;
            placed(&mut alice, u32::try_from(2 * i + 2).unwrap()).await;
        }
    }
    for client in [&mut alice, &mut bob, &mut carol] {
        let outcome = ended(client).await;
        assert_eq!(outcome.winner, Some(Seat(0)));
        let End::Five { line } = outcome.end else {
            panic!("a five: {:?}", outcome.end)
        };
        let line: Vec<String> = line.iter().map(ToString::to_string).collect();
        assert_eq!(line, black);
    }
}

#[tokio::test]
async fn bad_moves_get_stable_codes_and_change_nothing() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    // Renju, from kagetsu (black h8, white h9, black i9); white to move.
    let room = create(
        &mut alice,
        gomoku_room(Rule::Renju, Some(Opening::Named("kagetsu".into())), NO_CLOCK),
        true,
    )
    .await;
    join(&mut bob, room).await;
    your_turn(&mut bob).await;
    let before = view(&mut alice, room).await;
    assert_eq!(before.moves.len(), 3);
    assert_eq!(before.to_move, Some(Seat(1)));

    let out_of_turn = alice.request(place(room, "a1")).await;
    assert_eq!(error_code(&out_of_turn), ErrorCode::rule("not_your_turn"));
    let occupied = bob.request(place(room, "h8")).await;
    assert_eq!(error_code(&occupied), ErrorCode::rule("point_occupied"));
    let off_board = bob.request(place(room, "p16")).await;
    assert_eq!(error_code(&off_board), ErrorCode::rule("point_off_board"));
    let wrong_game = bob
        .request(ClientMsg::Act {
            room,
            seat: None,
            action: Action::Plane(skirmish_games::plane::Action::Fire {
                target: Seat(1),
                cell: "A1".parse().unwrap(),
            }),
            info: None,
        })
        .await;
    assert_eq!(error_code(&wrong_game), ErrorCode::WrongGame);
    assert_eq!(view(&mut alice, room).await, before);

    // Black adds j8 and j9: then j10 makes two open threes, h8-i9-j10 on the diagonal and
    // j8-j9-j10 in the column, a double-three.
    for (number, (w, b)) in [(4, ("a1", "j8")), (6, ("a3", "j9"))] {
        bob.send(place(room, w)).await;
        placed(&mut alice, number).await;
        alice.send(place(room, b)).await;
        placed(&mut bob, number + 1).await;
    }
    bob.send(place(room, "a5")).await;
    placed(&mut alice, 8).await;
    let now = view(&mut alice, room).await;
    assert!(
        now.forbidden.contains(&"j10".parse().unwrap()),
        "j10 is marked forbidden: {:?}",
        now.forbidden
    );
    let refused = alice.request(place(room, "j10")).await;
    assert_eq!(error_code(&refused), ErrorCode::rule("forbidden_point"));
    assert_eq!(view(&mut alice, room).await, now);
}

#[tokio::test]
async fn a_player_whose_move_clock_runs_out_loses() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let clock = Clock {
        deploy_ms: 0,
        move_ms: 300,
        game_ms: 0,
    };
    let room = create(&mut alice, gomoku_room(Rule::Freestyle, None, clock), true).await;
    join(&mut bob, room).await;
    let outcome = ended(&mut bob).await;
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert_eq!(outcome.end, End::TimedOut { seat: Seat(0) });
}

#[tokio::test]
async fn two_bots_play_a_whole_game_over_websockets() {
    let server = TestServer::start().await;
    let stop = CancellationToken::new();
    let mut bots = Vec::new();
    for name in ["black-bot", "white-bot"] {
        let mut options = BotOptions::new(server.ws_url(), name.into());
        options.set_strategies(&["random".into()]);
        bots.push(tokio::spawn(run(options, stop.clone())));
    }
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    for _ in 0..400 {
        if matches!(alice.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() == 2)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // A small board so that random play ends soon, by a five or a full board.
    let mut config = gomoku_room(Rule::Standard, None, NO_CLOCK);
    config.game = GameConfig::Gomoku(gomoku::Config {
        size: 9,
        rule: Rule::Standard,
        opening: None,
    });
    let room = create(&mut alice, config, false).await;
    alice.request(ClientMsg::Spectate { room }).await;
    for _ in 0..2 {
        let reply = alice
            .request(ClientMsg::AddBot {
                room,
                seat: None,
                strategy: Some("random".into()),
                level: None,
            })
            .await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    }
    let outcome = ended(&mut alice).await;
    let placed = alice
        .log
        .iter()
        .filter(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Gomoku(gomoku::Event::Placed { .. }),
                    ..
                }
            )
        })
        .count();
    assert_eq!(outcome.stones as usize, placed, "the spectator saw every stone");
    match outcome.end {
        End::Five { line } => assert_eq!(line.len(), 5, "standard: exactly five"),
        End::BoardFull => assert_eq!(placed, 81),
        other => panic!("a random game ends by a five or a full board, not {other:?}"),
    }
    stop.cancel();
    for bot in bots {
        bot.await.unwrap().unwrap();
    }
}
