//! `/metrics` in the Prometheus text format, read from a real server while clients play: the
//! figures follow what happened (connections, rooms by game and state, messages, errors by code,
//! refereed moves, bots).

mod common;

use axum::body::Bytes;
use common::*;
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use skirmish_games::gomoku::{self, Rule};
use skirmish_protocol::{Action, ClientMsg, GameConfig, RoomConfig, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

async fn metrics(server: &TestServer) -> String {
    let client = Client::builder(TokioExecutor::new()).build_http::<Empty<Bytes>>();
    let response = client
        .get(server.http_url("/metrics").parse().unwrap())
        .await
        .expect("GET /metrics");
    assert!(response.status().is_success());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(body.to_vec()).unwrap()
}

/// The value of the sample whose name and labels are exactly `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test]
async fn metrics_follow_what_happens() {
    let server = TestServer::start().await;
    let before = metrics(&server).await;
    assert_eq!(sample(&before, "skirmish_connections"), Some(0.0), "{before}");
    assert_eq!(sample(&before, "skirmish_bots"), Some(0.0));

    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let config = RoomConfig {
        name: None,
        game: GameConfig::Gomoku(gomoku::Config {
            rule: Rule::Freestyle,
            ..gomoku::Config::default()
        }),
        clock: Some(NO_CLOCK),
        on_drop: None,
    };
    let room = create(&mut alice, config, true).await;
    join(&mut bob, room).await;
    your_turn(&mut alice).await;
    alice
        .send(ClientMsg::Act {
            room,
            seat: None,
            action: Action::Gomoku(gomoku::Action::Place {
                point: "h8".parse().unwrap(),
            }),
            info: None,
        })
        .await;
    your_turn(&mut bob).await;
    bob.send_text("{not json".into()).await;
    bob.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;

    let after = metrics(&server).await;
    assert_eq!(sample(&after, "skirmish_connections"), Some(2.0), "{after}");
    assert_eq!(
        sample(&after, r#"skirmish_rooms{game="gomoku",state="playing"}"#),
        Some(1.0),
        "{after}"
    );
    assert_eq!(
        sample(&after, r#"skirmish_errors_total{code="bad_json"}"#),
        Some(1.0)
    );
    assert_eq!(sample(&after, "skirmish_move_seconds_count"), Some(1.0));
    // hello x2, create_room, join_room, act, the bad frame.
    assert_eq!(sample(&after, "skirmish_messages_in_total"), Some(6.0));
    let out = sample(&after, "skirmish_messages_out_total").unwrap();
    assert!(out >= 8.0, "{out}");

    drop(alice);
    drop(bob);
    for _ in 0..100 {
        if sample(&metrics(&server).await, "skirmish_connections") == Some(0.0) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the connections gauge came back to 0");
}
