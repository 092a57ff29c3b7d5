//! The journal's writer is watched: a writer that panics (a bug) leaves storage failing for good,
//! so that rooms refuse what they would write (`storage_unavailable`) and `/healthz` answers 503,
//! rather than every room waiting in silence for commits that never come. Alone in its test
//! binary: the fault switch is the process's.

mod common;

use std::time::Duration;

use skirmish_protocol::{Action, ClientMsg, ErrorCode, GameConfig, RoomConfig, RoomId, ServerMsg, gomoku};
use skirmish_server::testing::{TestClient, TestServer};

fn place(room: RoomId, x: u8, y: u8) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Gomoku(gomoku::Action::Place {
            point: gomoku::Point { x, y },
        }),
        info: None,
    }
}

/// A gomoku room without a clock.
fn gomoku_room() -> RoomConfig {
    RoomConfig {
        name: None,
        game: GameConfig::Gomoku(gomoku::Config::default()),
        clock: None,
        on_drop: None,
    }
}

async fn health(server: &TestServer) -> u16 {
    reqwest::get(server.http_url("/healthz"))
        .await
        .expect("the server answers")
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_journal_writer_that_panics_leaves_storage_failing_and_says_so() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let room = common::create(&mut alice, gomoku_room(), true).await;
    common::join(&mut bob, room).await;
    common::your_turn(&mut alice).await;
    assert_eq!(health(&server).await, 200);

    skirmish_server::testing::fault_journal();
    // The move's entry is in the batch the writer dies on: the move is never on disk, so its
    // event is never sent.
    alice.send(place(room, 7, 7)).await;
    let mut failing = false;
    for _ in 0..200 {
        if health(&server).await == 503 {
            failing = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(failing, "/healthz never said storage is failing");
    let body = reqwest::get(server.http_url("/healthz"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("restart"), "{body}");
    // Whatever would be written is refused, with the code players know from storage outages.
    for (client, point) in [(&mut bob, (0, 0)), (&mut alice, (1, 1))] {
        let reply = client.request(place(room, point.0, point.1)).await;
        assert!(
            matches!(
                &reply,
                ServerMsg::Error {
                    code: ErrorCode::StorageUnavailable,
                    ..
                }
            ),
            "{reply:?}"
        );
    }
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    let reply = carol
        .request(ClientMsg::CreateRoom {
            config: gomoku_room(),
            sit: true,
        })
        .await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::StorageUnavailable,
                ..
            }
        ),
        "{reply:?}"
    );
}
