//! Protocol violations answered properly (issue 16, finding 7), against a real server over raw
//! sockets: each breach of RFC 6455 gets its close code (a close frame, not a dropped TCP
//! connection), a binary frame gets `binary_frame` and the connection goes on, names lose their
//! control and bidirectional-formatting characters, and bot offers have size limits.

mod common;

use std::collections::BTreeMap;

use common::raw::{self, Got};
use common::*;
use skirmish_games::plane::Variant;
use skirmish_protocol::{BotOffer, ClientMsg, ErrorCode, GameKind, ServerMsg};
use skirmish_server::session::{CLOSE_INVALID_DATA, CLOSE_PROTOCOL_ERROR, CLOSE_TOO_BIG};
use skirmish_server::testing::{TestClient, TestServer};
use tokio::io::AsyncWriteExt;

const HELLO: &str = r#"{"type":"hello","protocol":1,"name":"Raw"}"#;

/// A raw connection, welcomed when `hello` is set.
async fn connection(server: &TestServer, hello: bool) -> tokio::net::TcpStream {
    let mut tcp = raw::upgrade(server.addr).await;
    if hello {
        tcp.write_all(&raw::text(HELLO)).await.unwrap();
        match raw::next(&mut tcp).await {
            Got::Text(text) => assert!(text.contains(r#""type":"welcome""#), "{text}"),
            other => panic!("welcome: {other:?}"),
        }
    }
    tcp
}

#[tokio::test]
async fn each_breach_of_the_websocket_protocol_gets_its_close_code() {
    let server = TestServer::start().await;
    let violations: [(&str, Vec<u8>, u16); 5] = [
        (
            "a text frame that is not UTF-8",
            raw::frame(0x81, &[b'{', 0xff, 0xfe, b'}'], None),
            CLOSE_INVALID_DATA,
        ),
        (
            "a reserved bit set",
            raw::frame(0xC1, HELLO.as_bytes(), None),
            CLOSE_PROTOCOL_ERROR,
        ),
        (
            "an unknown opcode",
            raw::frame(0x83, b"x", None),
            CLOSE_PROTOCOL_ERROR,
        ),
        ("an unmasked frame", vec![0x81, 0x01, b'x'], CLOSE_PROTOCOL_ERROR),
        // Only the header of a 2 MiB frame: refused from its declared length, before its payload.
        (
            "a frame over 1 MiB",
            raw::frame(0x81, b"", Some(2 << 20)),
            CLOSE_TOO_BIG,
        ),
    ];
    for (what, bytes, code) in violations {
        for hello in [false, true] {
            let mut tcp = connection(&server, hello).await;
            tcp.write_all(&bytes).await.unwrap();
            assert_eq!(
                raw::close_code(&mut tcp).await,
                Some(code),
                "{what} (after hello: {hello})"
            );
            assert!(
                raw::closed_within(&mut tcp, std::time::Duration::from_secs(5)).await,
                "{what}: the connection ends after the close frame"
            );
        }
    }
    // A message over 1 MiB in fragments, each under the limit, is refused the same way.
    let mut tcp = connection(&server, true).await;
    let chunk = vec![b' '; 600 * 1024];
    tcp.write_all(&raw::frame(0x01, &chunk, None)).await.unwrap();
    let _ = tcp.write_all(&raw::frame(0x80, &chunk, None)).await;
    assert_eq!(raw::close_code(&mut tcp).await, Some(CLOSE_TOO_BIG));
}

#[tokio::test]
async fn a_binary_frame_is_answered_with_binary_frame_and_the_connection_goes_on() {
    let server = TestServer::start().await;
    for hello in [false, true] {
        let mut tcp = connection(&server, hello).await;
        tcp.write_all(&raw::frame(0x82, b"\x00\x01", None)).await.unwrap();
        match raw::next(&mut tcp).await {
            Got::Text(text) => {
                let msg: ServerMsg = serde_json::from_str(&text).unwrap();
                assert!(
                    matches!(
                        &msg,
                        ServerMsg::Error {
                            code: ErrorCode::BinaryFrame,
                            ..
                        }
                    ),
                    "{msg:?}"
                );
            }
            other => panic!("an error for the binary frame (after hello: {hello}): {other:?}"),
        }
        // Still open: hello (or a ping after it) is answered.
        let next = if hello {
            r#"{"type":"ping","req":7}"#
        } else {
            HELLO
        };
        tcp.write_all(&raw::text(next)).await.unwrap();
        match raw::next(&mut tcp).await {
            Got::Text(text) => assert!(text.contains("pong") || text.contains("welcome"), "{text}"),
            other => panic!("the connection goes on: {other:?}"),
        }
    }
}

/// Every character a name must not carry, in a name.
const HOSTILE: &str = "\u{202E}Al\u{1b}[31mi\u{2066}c\u{200F}e\n\r\t\u{7}\u{9b}";

#[tokio::test]
async fn names_the_server_repeats_lose_control_and_bidi_characters() {
    let server = TestServer::start().await;
    let (mut alice, welcome) = TestClient::join(&server.ws_url(), HOSTILE).await;
    let ServerMsg::Welcome { name, .. } = welcome else {
        panic!("{welcome:?}")
    };
    assert_eq!(name, "Al[31mice");
    let mut config = room_config(Variant::Classic, 2, 1, NO_CLOCK);
    config.name = Some(format!("  Spam\nroom \u{1b}]0;title\u{7}{HOSTILE}\u{2069} "));
    let room = create(&mut alice, config, true).await;
    let ServerMsg::Rooms { rooms, .. } = alice.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    let listed = rooms.iter().find(|r| r.id == room).unwrap();
    assert_eq!(listed.config.name.as_deref(), Some("Spamroom ]0;titleAl[31mice"));
    let seat = listed.seats[0].occupant.as_ref().unwrap();
    assert_eq!(seat.name, "Al[31mice");
    // Nothing but hidden characters is no name at all.
    let (_, refused) = TestClient::join(&server.ws_url(), "\u{202E}\u{1b}\n").await;
    assert!(matches!(
        refused,
        ServerMsg::Error {
            code: ErrorCode::BadName,
            ..
        }
    ));
    // A bot's name is cleaned the same way: what list_bots shows.
    let mut bot = TestClient::connect(&server.ws_url()).await;
    let welcome = bot
        .request(bot_hello(&format!("bot{HOSTILE}"), offer(1, "random"), None))
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let ServerMsg::Bots { bots, .. } = alice.request(ClientMsg::ListBots).await else {
        panic!()
    };
    assert_eq!(bots[0].name, "botAl[31mice");
}

fn offer(strategies: usize, name: &str) -> BotOffer {
    let names = (0..strategies).map(|i| format!("{name}{i}")).collect();
    BotOffer {
        games: BTreeMap::from([(GameKind::Plane, names)]),
        version: None,
    }
}

#[tokio::test]
async fn bot_offers_over_the_size_limits_are_refused_with_bad_offer() {
    let server = TestServer::start().await;
    let huge = "s".repeat(60 * 1024);
    let mut versioned = offer(1, "random");
    versioned.version = Some("v".repeat(33));
    let mut twice = offer(1, "random");
    twice
        .games
        .get_mut(&GameKind::Plane)
        .unwrap()
        .push("random0".to_owned());
    let refused = [
        (
            "17 strategies for a game",
            offer(BotOffer::MAX_STRATEGIES + 1, "s"),
        ),
        ("a 33-character strategy", offer(1, &"s".repeat(32))),
        ("a 60 KB strategy", offer(1, &huge)),
        ("an escape in a strategy", offer(1, "\u{1b}[2J")),
        ("a 33-character version", versioned),
        ("a strategy twice", twice),
    ];
    for (what, offer) in refused {
        let mut bot = TestClient::connect(&server.ws_url()).await;
        let reply = bot.request(bot_hello("bot", offer, None)).await;
        assert!(
            matches!(
                &reply,
                ServerMsg::Error {
                    code: ErrorCode::BadOffer,
                    ..
                }
            ),
            "{what}: {reply:?}"
        );
    }
    // The largest offer allowed is welcome.
    let mut bot = TestClient::connect(&server.ws_url()).await;
    let reply = bot
        .request(bot_hello(
            "bot",
            offer(BotOffer::MAX_STRATEGIES, &"s".repeat(30)),
            None,
        ))
        .await;
    assert!(matches!(reply, ServerMsg::Welcome { .. }), "{reply:?}");
}
