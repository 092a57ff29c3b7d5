//! People and bots together: bots fill seats on request and when the owner starts early.

mod common;

use common::*;
use skirmish_bots::client::{BotOptions, run};
use skirmish_games::Seat;
use skirmish_games::plane::Variant;
use skirmish_protocol::{ClientMsg, ErrorCode, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn one_person_starts_early_and_bots_fill_the_seats() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let room = create(&mut alice, room_config(Variant::Classic, 3, 2, NO_CLOCK), true).await;
    let refused = alice.request(ClientMsg::Start { room }).await;
    assert!(
        matches!(
            refused,
            ServerMsg::Error {
                code: ErrorCode::NoBot,
                ..
            }
        ),
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
            level: None,
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let reply = alice
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: Some("minimax".into()),
            level: None,
        })
        .await;
    assert!(
        matches!(
            reply,
            ServerMsg::Error {
                code: ErrorCode::NoBot,
                ..
            }
        ),
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
