//! People and bots together: bots fill seats on request and when the owner starts early.

mod common;

use common::*;
use skirmish_bots::client::{BotOptions, run};
use skirmish_games::plane::{self, PhaseView, Variant, random_deployment};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{ClientMsg, GameView, ServerMsg, codes};
use skirmish_server::testing::{TestClient, TestServer};
use tokio_util::sync::CancellationToken;

/// A person who plays legal moves: random planes, then the first open cell of the first opponent.
/// `pending` is a `your_turn` already received.
async fn play_until_over(
    client: &mut TestClient,
    room: skirmish_protocol::RoomId,
    mut pending: Option<ServerMsg>,
) -> plane::Outcome {
    let mut rng = rand::rng();
    loop {
        let msg = match pending.take() {
            Some(msg) => msg,
            None => {
                client
                    .recv_until(|m| {
                        matches!(m, ServerMsg::YourTurn { .. })
                            || matches!(
                                m,
                                ServerMsg::Event {
                                    event: skirmish_protocol::GameEvent::Plane(
                                        plane::Event::MatchEnded { .. }
                                    ),
                                    ..
                                }
                            )
                    })
                    .await
            }
        };
        let ServerMsg::YourTurn {
            view: Some(GameView::Plane(view)),
            seat,
            ..
        } = msg
        else {
            let ServerMsg::Event {
                event: skirmish_protocol::GameEvent::Plane(plane::Event::MatchEnded { outcome }),
                ..
            } = msg
            else {
                unreachable!()
            };
            return outcome;
        };
        assert_eq!(view.viewer, Viewer::Seat(seat));
        match view.phase {
            PhaseView::Deploy { .. } => {
                client
                    .send(deploy(room, random_deployment(view.config.variant, &mut rng)))
                    .await;
            }
            PhaseView::Attack { .. } => {
                let side = view.config.variant.side();
                let board = view
                    .boards
                    .iter()
                    .find(|b| b.seat != seat && b.playing && !b.knocked_out)
                    .unwrap();
                let open = (0..usize::from(side) * usize::from(side))
                    .map(|i| plane::Cell::from_index(i, side))
                    .find(|c| {
                        !board.shots.iter().any(|s| s.cell == *c)
                            && !board.downed.iter().any(|p| p.cells(side).unwrap().contains(c))
                    })
                    .unwrap();
                client.send(fire(room, board.seat.0, &open.to_string())).await;
            }
            PhaseView::Over => {}
        }
    }
}

#[tokio::test]
async fn one_person_starts_early_and_bots_fill_the_seats() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let room = create(&mut alice, room_config(Variant::Classic, 3, 2, NO_CLOCK), true).await;
    let refused = alice.request(ClientMsg::Start { room }).await;
    assert!(
        matches!(refused, ServerMsg::Error { ref code, .. } if code == codes::NO_BOT),
        "{refused:?}"
    );
    let stop = CancellationToken::new();
    let mut options = BotOptions::new(server.ws_url(), "pool".into());
    options.set_strategies(&["random".into(), "seed-cv".into()]);
    let pool = tokio::spawn(run(options, stop.clone()));
    for _ in 0..400 {
        if matches!(alice.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if !bots.is_empty())
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let reply = alice
        .request(ClientMsg::AddBot {
            room,
            seat: Some(Seat(2)),
            strategy: Some("seed-cv".into()),
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let reply = alice
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: Some("minimax".into()),
        })
        .await;
    assert!(
        matches!(reply, ServerMsg::Error { ref code, .. } if code == codes::NO_BOT),
        "{reply:?}"
    );
    let reply = alice.request(ClientMsg::Start { room }).await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let ServerMsg::Room(snapshot) = alice
        .log
        .iter()
        .rev()
        .find(|m| matches!(m, ServerMsg::Room(_)))
        .unwrap()
        .clone()
    else {
        unreachable!()
    };
    let bots: Vec<Option<String>> = snapshot
        .room
        .seats
        .iter()
        .map(|s| s.occupant.as_ref().and_then(|o| o.bot.clone()))
        .collect();
    assert_eq!(bots, vec![None, Some("random".into()), Some("seed-cv".into())]);
    let pending = alice
        .log
        .iter()
        .find(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .cloned();
    assert!(pending.is_some(), "the match started with a deployment for Alice");
    let outcome = play_until_over(&mut alice, room, pending).await;
    assert_eq!(outcome.placings[outcome.winner], 1);
    assert_eq!(
        outcome.totals.0.iter().sum::<u32>() % 3,
        0,
        "classic: every point is a knockout's 3"
    );
    stop.cancel();
    pool.await.unwrap().unwrap();
}
