//! What a stranger can hold of the server (issue 16, findings 1 to 3), tried against a real server
//! over real sockets: memory after thousands of closed bot connections, sockets that never finish
//! a request or a hello, requests in flight, and rooms made and abandoned.

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::raw;
use common::*;
use skirmish_games::plane::Variant;
use skirmish_protocol::{BotOffer, ClientMsg, ErrorCode, GameKind, ServerMsg};
use skirmish_server::Limits;
use skirmish_server::testing::{TestClient, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// This process's resident memory, in KiB (the server runs in it).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A gauge's value from `/metrics`.
async fn gauge(server: &TestServer, name: &str) -> i64 {
    let text = reqwest::get(server.http_url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("{name} in /metrics"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Waits until `/metrics` shows `name` at `value`.
async fn gauge_reaches(server: &TestServer, name: &str, value: i64) {
    for _ in 0..400 {
        if gauge(server, name).await == value {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{name} never came to {value}: {}", gauge(server, name).await);
}

fn bot_hello(name: &str, strategies: Vec<String>) -> ClientMsg {
    let offer = BotOffer {
        games: [GameKind::Plane, GameKind::Gomoku, GameKind::Junqi]
            .into_iter()
            .map(|g| (g, strategies.clone()))
            .collect::<BTreeMap<_, _>>(),
        version: Some("v".repeat(BotOffer::MAX_LABEL_CHARS)),
    };
    common::bot_hello(name, offer, None)
}

/// `n` bot connections, one after another: hello with the largest offer allowed (every other
/// one with a 60 KB offer, which is refused), then gone without a close.
async fn churn(server: &TestServer, n: usize) {
    let largest: Vec<String> = (0..BotOffer::MAX_STRATEGIES)
        .map(|i| format!("{i:0>32}"))
        .collect();
    // 20 KB for each of the three games: a 60 KB offer, under the 64 KiB frame limit.
    let huge = vec!["s".repeat(20 * 1024)];
    for i in 0..n {
        let mut bot = TestClient::connect(&server.ws_url()).await;
        let reply = if i % 2 == 0 {
            bot.request(bot_hello(&format!("bot-{i}"), largest.clone())).await
        } else {
            bot.request(bot_hello(&format!("bot-{i}"), huge.clone())).await
        };
        match (i % 2, &reply) {
            (0, ServerMsg::Welcome { .. }) => {}
            (
                1,
                ServerMsg::Error {
                    code: ErrorCode::BadOffer,
                    ..
                },
            ) => {}
            _ => panic!("connection {i}: {reply:?}"),
        }
    }
}

#[tokio::test]
async fn thousands_of_closed_bot_connections_leave_nothing_behind() {
    let server = TestServer::start().await;
    // Warm up first: the allocator's arenas, the runtime's and the metrics' first allocations.
    churn(&server, 200).await;
    gauge_reaches(&server, "skirmish_connections", 0).await;
    gauge_reaches(&server, "skirmish_players", 0).await;
    let before = rss_kib();
    churn(&server, 2_000).await;
    gauge_reaches(&server, "skirmish_connections", 0).await;
    // The lobby forgot every bot: nothing of theirs is kept (it kept each, offer and all).
    gauge_reaches(&server, "skirmish_players", 0).await;
    assert_eq!(gauge(&server, "skirmish_bots").await, 0);
    let after = rss_kib();
    let grown = after.saturating_sub(before);
    eprintln!("resident memory: {before} KiB before 2,000 closed bot connections, {after} KiB after");
    assert!(
        grown < 4 * 1024,
        "2,000 closed bot connections grew the resident memory by {grown} KiB ({before} -> {after})"
    );
}

const SHORT: Duration = Duration::from_millis(500);

/// Limits with the header and hello timeouts at [`SHORT`].
fn short_timeouts() -> Limits {
    Limits {
        header_read_timeout_ms: 500,
        hello_timeout_ms: 500,
        ..Limits::default()
    }
}

/// Whether the server closes `tcp` within `within` while `trickle` keeps sending it a byte every
/// 100 ms (a slow peer that never finishes).
async fn closed_while_trickling(tcp: TcpStream, within: Duration, trickle: &'static [u8]) -> bool {
    let (mut read, mut write) = tcp.into_split();
    let writer = tokio::spawn(async move {
        for byte in trickle.iter().cycle() {
            if write.write_all(&[*byte]).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let mut buf = [0u8; 256];
    let deadline = tokio::time::Instant::now() + within;
    let closed = loop {
        match tokio::time::timeout_at(deadline, read.read(&mut buf)).await {
            Err(_) => break false,
            Ok(Ok(0) | Err(_)) => break true,
            Ok(Ok(_)) => {}
        }
    };
    writer.abort();
    closed
}

#[tokio::test]
async fn half_open_peers_are_dropped_within_the_timeout() {
    let server = TestServer::start_with(short_timeouts()).await;
    let within = SHORT * 4;
    // A TCP connection that sends nothing.
    let started = Instant::now();
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert!(
        raw::closed_within(&mut silent, within).await,
        "a silent connection is closed"
    );
    assert!(
        started.elapsed() >= SHORT - Duration::from_millis(50),
        "not before the timeout"
    );
    // A request whose headers never end, one byte at a time.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    assert!(
        closed_while_trickling(slow, within, b"X-Slow: still coming\r\n").await,
        "a slow-header request is closed"
    );
    // An upgrade request that never ends.
    let mut upgrade = TcpStream::connect(server.addr).await.unwrap();
    let request = raw::upgrade_request(server.addr);
    upgrade
        .write_all(&request.as_bytes()[..request.len() - 2])
        .await
        .unwrap();
    assert!(
        closed_while_trickling(upgrade, within, b"X").await,
        "an unfinished upgrade request is closed"
    );
    // An upgrade answered with 101 that never says hello.
    let mut upgraded = raw::upgrade(server.addr).await;
    assert_eq!(
        raw::close_code(&mut upgraded).await,
        Some(skirmish_server::session::CLOSE_NO_HELLO)
    );
    assert!(raw::closed_within(&mut upgraded, within).await);
    // A well-behaved client on a keep-alive connection is served, request after request.
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let ok = client.get(server.http_url("/healthz")).send().await.unwrap();
        assert_eq!(ok.status(), 200);
        tokio::time::sleep(SHORT / 5).await;
    }
}

/// Sends a GET for `path` on a fresh connection and returns the status line.
async fn status_of(server: &TestServer, path: &str) -> String {
    let mut tcp = TcpStream::connect(server.addr).await.unwrap();
    tcp.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let head = raw::read_head(&mut tcp).await;
    head.lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn an_address_may_hold_only_so_many_http_connections() {
    let limits = Limits {
        http_connections_per_address: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let first = TcpStream::connect(server.addr).await.unwrap();
    let _second = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    assert!(
        raw::closed_within(&mut third, Duration::from_secs(2)).await,
        "a third HTTP connection is closed at once"
    );
    drop(first);
    for _ in 0..200 {
        let mut tcp = TcpStream::connect(server.addr).await.unwrap();
        tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        if raw::read_head(&mut tcp).await.starts_with("HTTP/1.1 200") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("a place came free");
}

#[tokio::test]
async fn an_address_may_have_only_so_many_requests_in_flight_and_each_has_a_deadline() {
    let limits = Limits {
        requests_per_address: 2,
        request_timeout_ms: 1_000,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    // Two requests whose bodies never come: in flight until the request timeout.
    let mut pending = Vec::new();
    for _ in 0..2 {
        let mut tcp = TcpStream::connect(server.addr).await.unwrap();
        tcp.write_all(
            b"POST /api/tournaments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"game\":",
        )
        .await
        .unwrap();
        pending.push(tcp);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    assert_eq!(
        status_of(&server, "/healthz").await,
        "HTTP/1.1 429 Too Many Requests"
    );
    for tcp in &mut pending {
        let head = raw::read_head(tcp).await;
        assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    }
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(status_of(&server, "/healthz").await, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn an_address_may_hold_only_so_many_websockets_that_have_not_said_hello() {
    let limits = Limits {
        upgrades_per_address: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let mut first = raw::upgrade(server.addr).await;
    let _second = raw::upgrade(server.addr).await;
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    third
        .write_all(raw::upgrade_request(server.addr).as_bytes())
        .await
        .unwrap();
    let head = raw::read_head(&mut third).await;
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    // Once one says hello, another may come.
    first
        .write_all(&raw::text(r#"{"type":"hello","protocol":1,"name":"First"}"#))
        .await
        .unwrap();
    assert!(matches!(raw::next(&mut first).await, raw::Got::Text(t) if t.contains("welcome")));
    let _fourth = raw::upgrade(server.addr).await;
}

fn token(welcome: &ServerMsg) -> skirmish_protocol::ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("{welcome:?}")
    };
    resume.clone()
}

async fn try_create(client: &mut TestClient) -> ServerMsg {
    client
        .request(ClientMsg::CreateRoom {
            config: room_config(Variant::Classic, 2, 1, NO_CLOCK),
            sit: false,
        })
        .await
}

fn refused_with(msg: &ServerMsg, expected: ErrorCode) -> bool {
    matches!(msg, ServerMsg::Error { code, .. } if *code == expected)
}

#[tokio::test]
async fn the_open_room_limit_follows_the_player_across_reconnects() {
    let limits = Limits {
        rooms_per_player: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let (mut alice, welcome) = TestClient::join(&server.ws_url(), "Alice").await;
    for _ in 0..2 {
        assert!(matches!(
            try_create(&mut alice).await,
            ServerMsg::RoomCreated { .. }
        ));
    }
    assert!(refused_with(
        &try_create(&mut alice).await,
        ErrorCode::TooManyRooms
    ));
    drop(alice);
    // Back with her token, she is the same player, with the same two rooms open.
    let (mut again, _) = TestClient::resume(&server.ws_url(), "Alice", token(&welcome)).await;
    assert!(refused_with(
        &try_create(&mut again).await,
        ErrorCode::TooManyRooms
    ));
    let ServerMsg::Rooms { rooms, .. } = again.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    assert_eq!(rooms.len(), 2);
}

#[tokio::test]
async fn an_address_may_have_only_so_many_open_rooms_whoever_says_hello() {
    let limits = Limits {
        rooms_per_address: 3,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    // A spammer reconnecting as a new player each time.
    for i in 0..3 {
        let (mut spammer, _) = TestClient::join(&server.ws_url(), &format!("Spam {i}")).await;
        assert!(matches!(
            try_create(&mut spammer).await,
            ServerMsg::RoomCreated { .. }
        ));
    }
    let (mut spammer, _) = TestClient::join(&server.ws_url(), "Spam 4").await;
    assert!(refused_with(
        &try_create(&mut spammer).await,
        ErrorCode::TooManyRoomsFromAddress
    ));
    let ServerMsg::Rooms { rooms, .. } = spammer.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    assert_eq!(rooms.len(), 3, "the refused room was not made");
}

#[tokio::test]
async fn a_finished_room_no_longer_counts_against_its_owner_or_its_address() {
    // The lobby keeps the open rooms as counts per player and per address (no walk over the
    // rooms at each create): a room that finishes must leave both counts, and one that is still
    // open must stay in them.
    let limits = Limits {
        rooms_per_player: 1,
        rooms_per_address: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    let room = create(&mut alice, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    assert!(refused_with(
        &try_create(&mut alice).await,
        ErrorCode::TooManyRooms
    ));
    let seat = join(&mut bob, room).await;
    // Bob's own room fills the address's allowance of two; Carol, from the same address, is
    // refused.
    assert!(matches!(
        try_create(&mut bob).await,
        ServerMsg::RoomCreated { .. }
    ));
    assert!(refused_with(
        &try_create(&mut carol).await,
        ErrorCode::TooManyRoomsFromAddress
    ));
    // Bob gives up the match: Alice's room is finished.
    bob.send(ClientMsg::Forfeit {
        room,
        seat: Some(seat),
        cause: skirmish_protocol::ForfeitCause::EngineFailure,
        detail: None,
    })
    .await;
    let mut created = None;
    for _ in 0..200 {
        if let ServerMsg::RoomCreated { .. } = try_create(&mut alice).await {
            created = Some(());
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        created.is_some(),
        "Alice may open a room again once hers is finished"
    );
    // Her new room took the place the finished one left: the address is full again.
    assert!(refused_with(
        &try_create(&mut carol).await,
        ErrorCode::TooManyRoomsFromAddress
    ));
}

#[tokio::test]
async fn a_waiting_room_expires_its_owner_is_told_and_it_leaves_lobby_and_database() {
    let database = std::env::temp_dir().join(format!("skirmish-expiry-{}.db", uuid::Uuid::new_v4()));
    let store = skirmish_server::store::Store::open(&database).await.unwrap();
    let limits = Limits {
        room_expiry_ms: 1_500,
        ..Limits::default()
    };
    let server = TestServer::start_with_store(limits, store).await;
    let (mut owner, _) = TestClient::join(&server.ws_url(), "Owner").await;
    let (mut guest, _) = TestClient::join(&server.ws_url(), "Guest").await;
    let (mut watcher, _) = TestClient::join(&server.ws_url(), "Watcher").await;
    // The owner does not sit in the room; a guest does, and someone watches.
    let mut three = room_config(Variant::Classic, 3, 1, NO_CLOCK);
    three.name = Some("never started".into());
    let waiting = create(&mut owner, three, false).await;
    join(&mut guest, waiting).await;
    assert!(matches!(
        watcher.request(ClientMsg::Spectate { room: waiting }).await,
        ServerMsg::Done { .. }
    ));
    // A room that starts before its expiry is not touched by it.
    let (mut other, _) = TestClient::join(&server.ws_url(), "Other").await;
    let playing = create(&mut owner, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    join(&mut other, playing).await;
    journaled(&database, waiting, 1).await;
    let started = Instant::now();
    for client in [&mut owner, &mut guest, &mut watcher] {
        let closed = wait_for(client, |m| match m {
            ServerMsg::RoomClosed { room, code, .. } if *room == waiting => Some(code.clone()),
            _ => None,
        })
        .await;
        assert_eq!(closed, ErrorCode::RoomExpired);
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    let ServerMsg::Rooms { rooms, .. } = owner.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    let ids: Vec<_> = rooms.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        [playing],
        "the expired room left the lobby; the started one stayed"
    );
    // The guest's seat went with it: they may join another room.
    let third = create(&mut owner, room_config(Variant::Classic, 2, 1, NO_CLOCK), false).await;
    join(&mut guest, third).await;
    // And the database: no row of it is left.
    let db = rusqlite::Connection::open(&database).unwrap();
    let mut left = -1;
    for _ in 0..200 {
        left = db
            .query_row(
                "SELECT (SELECT COUNT(*) FROM rooms WHERE id = ?1) + (SELECT COUNT(*) FROM room_log WHERE room = ?1)",
                [waiting.to_string()],
                |row| row.get::<_, i64>(0),
            )
            .unwrap();
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(left, 0, "the expired room's rows are deleted");
    server.stop().await;
    let _ = std::fs::remove_file(&database);
}
