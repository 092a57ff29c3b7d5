//! Per-connection limits, each an option with a default: JSON nesting, message rate, open rooms,
//! connections per address, idle connections, the hello deadline and the protocol version. Each is
//! tried against a real server.

mod common;

use std::time::Duration;

use common::*;
use futures_util::StreamExt;
use skirmish_games::plane::Variant;
use skirmish_protocol::{ClientMsg, ErrorCode, ServerMsg};
use skirmish_server::Limits;
use skirmish_server::session::{CLOSE_IDLE, CLOSE_NO_HELLO, CLOSE_RATE_LIMITED, CLOSE_VERSION};
use skirmish_server::testing::{TestClient, TestServer};

fn error_code(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn deep_nesting_is_refused_and_the_connection_goes_on() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let deep = format!(
        r#"{{"type":"ping","req":3,"x":{}{}}}"#,
        "[".repeat(40),
        "]".repeat(40)
    );
    alice.send_text(deep).await;
    let reply = alice.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert_eq!(error_code(&reply), ErrorCode::TooDeep);
    // Brackets inside strings are not nesting, and the connection still works.
    let shallow = format!(r#"{{"type":"ping","req":4,"x":"{}"}}"#, "[".repeat(40));
    alice.send_text(shallow).await;
    let pong = alice.recv_until(|m| matches!(m, ServerMsg::Pong { .. })).await;
    assert!(matches!(pong, ServerMsg::Pong { req: Some(4) }));
}

#[tokio::test]
async fn a_flood_is_cut_off_with_close_code_4029() {
    let limits = Limits {
        messages_per_second: 5,
        message_burst: 10,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let (mut polite, _) = TestClient::join(&server.ws_url(), "Polite").await;
    let (mut flood, _) = TestClient::join(&server.ws_url(), "Flood").await;
    for _ in 0..50 {
        flood.send_text(r#"{"type":"ping"}"#.into()).await;
    }
    let mut codes_seen = Vec::new();
    while let Some(msg) = flood.try_recv().await {
        if let ServerMsg::Error { code, .. } = msg {
            codes_seen.push(code);
        }
    }
    assert_eq!(flood.closed, Some(CLOSE_RATE_LIMITED));
    assert_eq!(codes_seen, [ErrorCode::RateLimited]);
    // Someone within the limit is unaffected.
    for _ in 0..5 {
        let reply = polite.request(ClientMsg::Ping).await;
        assert!(matches!(reply, ServerMsg::Pong { .. }));
    }
}

#[tokio::test]
async fn a_player_may_hold_only_so_many_open_rooms() {
    let limits = Limits {
        rooms_per_player: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    for _ in 0..2 {
        create(&mut alice, room_config(Variant::Classic, 2, 1, NO_CLOCK), false).await;
    }
    let refused = alice
        .request(ClientMsg::CreateRoom {
            config: room_config(Variant::Classic, 2, 1, NO_CLOCK),
            sit: false,
        })
        .await;
    assert_eq!(error_code(&refused), ErrorCode::TooManyRooms);
    let ServerMsg::Rooms { rooms, .. } = alice.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    assert_eq!(rooms.len(), 2, "the refused room was not made");
    // Another player has their own allowance.
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    create(&mut bob, room_config(Variant::Classic, 2, 1, NO_CLOCK), false).await;
}

#[tokio::test]
async fn an_address_may_hold_only_so_many_connections() {
    let limits = Limits {
        connections_per_address: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let first = TestClient::connect(&server.ws_url()).await;
    let _second = TestClient::connect(&server.ws_url()).await;
    let third = tokio_tungstenite::connect_async(server.ws_url()).await;
    match third {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429);
        }
        other => panic!("the third connection is refused with 429: {other:?}"),
    }
    // Closing one frees a place.
    drop(first);
    for _ in 0..500 {
        if tokio_tungstenite::connect_async(server.ws_url()).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("a place came free");
}

#[tokio::test]
async fn an_idle_connection_is_closed_but_a_quiet_one_that_answers_pings_stays() {
    let limits = Limits {
        idle_timeout_ms: 2_000,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    // A socket nobody reads never answers the server's pings.
    let (mut silent, _) = tokio_tungstenite::connect_async(server.ws_url()).await.unwrap();
    use futures_util::SinkExt;
    let hello = r#"{"type":"hello","protocol":1,"name":"Silent"}"#;
    silent
        .send(tokio_tungstenite::tungstenite::Message::text(hello))
        .await
        .unwrap();
    // A client that keeps reading answers pings by itself.
    let (mut quiet, _) = TestClient::join(&server.ws_url(), "Quiet").await;
    let kept = tokio::time::timeout(Duration::from_millis(5_000), quiet.try_recv()).await;
    assert!(
        kept.is_err(),
        "the reading client is still connected after 5 s: {kept:?}"
    );
    let mut code = None;
    while let Some(Ok(frame)) = silent.next().await {
        if let tokio_tungstenite::tungstenite::Message::Close(Some(close)) = frame {
            code = Some(u16::from(close.code));
        }
    }
    assert_eq!(code, Some(CLOSE_IDLE));
}

#[tokio::test]
async fn another_protocol_version_is_refused_with_close_code_4002() {
    let server = TestServer::start().await;
    let mut client = TestClient::connect(&server.ws_url()).await;
    client
        .send_text(r#"{"type":"hello","req":1,"protocol":99,"name":"Future"}"#.into())
        .await;
    let reply = client.try_recv().await.expect("an answer");
    assert_eq!(error_code(&reply), ErrorCode::UnsupportedVersion);
    assert!(client.try_recv().await.is_none());
    assert_eq!(client.closed, Some(CLOSE_VERSION));
}

#[tokio::test]
async fn a_connection_that_never_says_hello_is_closed_with_4001() {
    let limits = Limits {
        hello_timeout_ms: 1_000,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let mut silent = TestClient::connect(&server.ws_url()).await;
    assert!(silent.try_recv().await.is_none());
    assert_eq!(silent.closed, Some(CLOSE_NO_HELLO));
    // One that says hello in time stays.
    let (mut prompt, _) = TestClient::join(&server.ws_url(), "Prompt").await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(matches!(
        prompt.request(ClientMsg::Ping).await,
        ServerMsg::Pong { .. }
    ));
}

#[tokio::test]
async fn a_server_with_a_bot_key_admits_only_bots_that_give_it() {
    let key: skirmish_protocol::AccessKey = "s3cret-operator-key".parse().unwrap();
    let limits = Limits {
        bot_key: Some(key.clone()),
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let offer = || {
        Some(skirmish_protocol::BotOffer {
            games: std::collections::BTreeMap::new(),
            version: None,
        })
    };
    let hello = |key: Option<&str>| ClientMsg::Hello {
        protocol: skirmish_protocol::PROTOCOL_VERSION,
        name: "bot".into(),
        bot: offer(),
        resume: None,
        key: key.map(|k| k.parse().unwrap()),
        token: None,
        turn_view: Some(true),
        ladder: Vec::new(),
    };
    for wrong in [None, Some("guess"), Some("s3cret-operator-ke")] {
        let mut bot = TestClient::connect(&server.ws_url()).await;
        let reply = bot.request(hello(wrong)).await;
        assert_eq!(error_code(&reply), ErrorCode::BadKey, "{wrong:?}");
    }
    // People need no key, and see no bot yet.
    let (mut person, welcome) = TestClient::join(&server.ws_url(), "Person").await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }));
    assert!(
        matches!(person.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.is_empty())
    );
    // The bot client with the key is admitted.
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "keyed".into());
    options.key = Some(key);
    let stop = tokio_util::sync::CancellationToken::new();
    let bot = tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    let mut admitted = false;
    for _ in 0..800 {
        if matches!(person.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() == 1)
        {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(admitted, "the bot with the key is listed");
    assert!(
        !format!(
            "{:?}",
            Limits {
                bot_key: "s3cret-operator-key".parse().ok(),
                ..Limits::default()
            }
        )
        .contains("s3cret")
    );
    stop.cancel();
    bot.await.unwrap().unwrap();
}
