//! The move's path (issue 17): a move is handed to the room without a reply round trip, so a
//! refusal comes back on the connection as an `error` answering the move's `req`, in order with
//! the events before it; `your_turn` carries the seat's whole view only for a connection whose
//! `hello` asked for it (`turn_view`).
//!
//! A hostile client that pipelines moves without waiting gains nothing: each is refereed in turn,
//! each refusal answers its own request, and the game is as it was.

mod common;

use common::*;
use skirmish_games::Seat;
use skirmish_games::gomoku::{self, Rule};
use skirmish_protocol::{ClientMsg, ErrorCode, GameEvent, GameView, PROTOCOL_VERSION, RoomConfig, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

fn gomoku_room() -> RoomConfig {
    common::gomoku_room_named("move path", Rule::Freestyle, NO_CLOCK)
}

use common::place_stone as place;

/// A person's connection whose hello leaves `turn_view` out, as the peer benchmark's client does.
async fn lean(url: &str, name: &str) -> TestClient {
    let mut client = TestClient::connect(url).await;
    let welcome = client
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.to_owned(),
            bot: None,
            resume: None,
            key: None,
            token: None,
            turn_view: None,
            ladder: Vec::new(),
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    client
}

/// The text of the last `your_turn` `client` received.
fn last_your_turn(client: &TestClient) -> &str {
    client
        .texts
        .iter()
        .rev()
        .find(|t| t.starts_with(r#"{"type":"your_turn""#))
        .expect("a your_turn frame")
}

async fn your_turn(client: &mut TestClient) -> ServerMsg {
    client
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await
}

#[tokio::test]
async fn your_turn_carries_the_whole_view_only_where_the_hello_asked_for_it() {
    let server = TestServer::start().await;
    let mut alice = lean(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await; // asks for views
    let room = create(&mut alice, gomoku_room(), true).await;
    assert_eq!(join(&mut bob, room).await, Seat(1));

    let ServerMsg::YourTurn { view, seat, .. } = your_turn(&mut alice).await else {
        unreachable!()
    };
    assert_eq!((view, seat), (None, Seat(0)));
    assert!(
        !last_your_turn(&alice).contains("\"view\""),
        "{}",
        last_your_turn(&alice)
    );
    alice.send(place(room, "h8")).await;

    let ServerMsg::YourTurn { view, .. } = your_turn(&mut bob).await else {
        unreachable!()
    };
    let Some(GameView::Gomoku(view)) = view else {
        panic!("Bob asked for the view: {view:?}")
    };
    assert_eq!(view.moves.len(), 1);
    bob.send(place(room, "a1")).await;

    // Alice's view, kept from her snapshot and the events, is the server's.
    your_turn(&mut alice).await;
    let placed: Vec<String> = alice
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event {
                event: GameEvent::Gomoku(gomoku::Event::Placed { stone, .. }),
                ..
            } => Some(stone.point.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(placed, ["h8", "a1"]);
    assert!(!last_your_turn(&alice).contains("\"view\""));
}

#[tokio::test]
async fn a_refused_move_answers_its_request_after_the_events_before_it_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut alice = lean(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = create(&mut alice, gomoku_room(), true).await;
    join(&mut bob, room).await;
    your_turn(&mut alice).await;

    // A legal move and, without waiting, a second one out of turn: the first's event comes
    // before the second's refusal, which answers the second's request.
    let first = alice.send(place(room, "h8")).await;
    let second = alice.send(place(room, "h9")).await;
    let refusal = alice.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    let ServerMsg::Error { req, code, .. } = &refusal else {
        unreachable!()
    };
    assert_eq!((*req, code), (Some(second), &ErrorCode::rule("not_your_turn")));
    let placed_at = alice
        .log
        .iter()
        .position(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Gomoku(gomoku::Event::Placed { number: 1, .. }),
                    ..
                }
            )
        })
        .expect("the first move's event");
    let refused_at = alice.log.iter().position(|m| *m == refusal).expect("the refusal");
    assert!(placed_at < refused_at, "the event of request {first} comes first");
    assert!(
        !alice
            .log
            .iter()
            .any(|m| matches!(m, ServerMsg::Error { req: Some(r), .. } if *r == first)),
        "an accepted move is not answered"
    );

    // A hostile client pipelines a burst of moves out of turn: each is refused on its own
    // request, in order, and the game is as it was (Bob's move and Alice's next are legal).
    let burst: Vec<u64> = {
        let mut reqs = Vec::new();
        for i in 0..50 {
            reqs.push(alice.send(place(room, &format!("a{}", 1 + i % 15))).await);
        }
        reqs
    };
    let mut answered = Vec::new();
    while answered.len() < burst.len() {
        if let ServerMsg::Error {
            req: Some(req), code, ..
        } = alice.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await
        {
            assert_eq!(code, ErrorCode::rule("not_your_turn"));
            answered.push(req);
        }
    }
    assert_eq!(answered, burst);
    your_turn(&mut bob).await;
    bob.send(place(room, "a1")).await;
    your_turn(&mut alice).await;
    alice.send(place(room, "h9")).await;
    alice
        .recv_until(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Gomoku(gomoku::Event::Placed { number: 3, .. }),
                    ..
                }
            )
        })
        .await;
}
