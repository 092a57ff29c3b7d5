//! The load generator end to end: a short run against a real server in this process, then against
//! the echo server, for each game. It checks that moves were played and timed without errors, and
//! that the echo phase measured the same way; no speed is asserted (machines are noisy).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use skirmish_bench::load::stats::Watch;
use skirmish_bench::load::{EchoTarget, LoadArgs, LoadGame, Mode, Report};
use skirmish_server::testing::TestServer;
use tokio_util::sync::CancellationToken;

/// The server's limits raised as docs/performance.md says: people may send as fast as they like.
fn limits() -> skirmish_server::Limits {
    skirmish_server::Limits {
        messages_per_second: 1_000_000,
        message_burst: 1_000_000,
        connections_per_address: 10_000,
        upgrades_per_address: 10_000,
        http_connections_per_address: 10_000,
        rooms_per_address: 10_000,
        ..Default::default()
    }
}

fn args(url: String, game: LoadGame, mode: Mode) -> LoadArgs {
    LoadArgs {
        urls: vec![url],
        game,
        rooms: 2,
        seconds: 1.5,
        warmup_seconds: 0.5,
        matches: None,
        server_pid: Some(i32::try_from(std::process::id()).unwrap()),
        watch: Vec::new(),
        spread: skirmish_bench::load::Spread::Seats,
        mode,
        echo_url: None,
        echo_pid: None,
        echo_frame_bytes: None,
        idle: false,
        think_ms: 0,
        stall_ms: 10_000,
        json: false,
    }
}

async fn echo_server() -> (EchoTarget, CancellationToken) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    tokio::spawn(skirmish_bench::load::echo::serve(listener, shutdown.clone()));
    (EchoTarget { url, pid: None }, shutdown)
}

fn check_game(report: &Report, connections: u64) {
    let game = report.game_run.as_ref().expect("a game phase");
    assert_eq!(game.errors, 0, "errors: {:?}", game.error_kinds);
    assert!(game.round_trips > 0, "no move came back: {game:?}");
    assert_eq!(game.latency_ms.count, game.round_trips);
    assert!(game.latency_ms.p50 > 0.0 && game.latency_ms.p50 <= game.latency_ms.p99);
    assert_eq!(game.connections_held, connections);
    assert!(
        game.frames_received > game.frames_sent,
        "each act is answered by events to every seat"
    );
    let server = game.server.expect("the server's /proc figures");
    assert!(server.cpu_seconds > 0.0 && server.rss_kib > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plane_battle_then_echo() {
    let server = TestServer::start_with(limits()).await;
    let (echo, stop_echo) = echo_server().await;
    let report = skirmish_bench::load::run(&args(server.ws_url(), LoadGame::Plane2, Mode::Both), Some(echo))
        .await
        .unwrap();
    check_game(&report, 4);
    let echo = report.echo_run.as_ref().expect("an echo phase");
    assert_eq!(echo.errors, 0, "errors: {:?}", echo.error_kinds);
    assert!(echo.round_trips > 0);
    // Frames are counted inside the measurement window, and each echo room has one frame in
    // flight: one sent before the window may come back inside it, one sent inside it may come
    // back after. So the counts differ by at most one per room at each edge.
    let rooms = args(String::new(), LoadGame::Plane2, Mode::Both).rooms;
    assert!(
        echo.frames_sent.abs_diff(echo.frames_received) <= rooms,
        "every echo comes back, but for those in flight at the window's edges: {echo:?}"
    );
    assert_eq!(echo.connections_held, 4);
    let game_bytes = report.game_run.as_ref().unwrap().mean_frame_bytes;
    assert!(
        (echo.mean_frame_bytes - game_bytes).abs() <= 1.0,
        "the echo uses the game's frame size"
    );
    let ratios = report.ratios.expect("ratios");
    assert!(ratios.latency_p50 > 0.0 && ratios.messages_per_second > 0.0);
    let table = skirmish_bench::load::table(&report);
    assert!(table.contains("round trip p99 ms"), "{table}");
    stop_echo.cancel();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays() {
    let server = TestServer::start_with(limits()).await;
    for (game, seats) in [(LoadGame::Plane3, 3), (LoadGame::Gomoku, 2), (LoadGame::Junqi, 2)] {
        let mut args = args(server.ws_url(), game, Mode::Game);
        args.seconds = 1.0;
        let report = skirmish_bench::load::run(&args, None).await.unwrap();
        check_game(&report, 2 * seats);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_whole_match_and_idle_memory() {
    let server = TestServer::start_with(limits()).await;
    let mut one = args(server.ws_url(), LoadGame::Gomoku, Mode::Game);
    one.rooms = 1;
    one.matches = Some(1);
    one.seconds = 60.0;
    let report = skirmish_bench::load::run(&one, None).await.unwrap();
    let game = report.game_run.as_ref().unwrap();
    assert!(game.matches_finished >= 1, "{game:?}");
    assert!(game.seconds < 60.0);

    // With a pause before each move, round trips still exclude the pause.
    let mut paced = args(server.ws_url(), LoadGame::Plane2, Mode::Game);
    paced.think_ms = 500;
    paced.seconds = 2.0;
    let report = skirmish_bench::load::run(&paced, None).await.unwrap();
    let game = report.game_run.as_ref().unwrap();
    assert!(game.round_trips > 0 && game.errors == 0, "{game:?}");
    assert!(game.latency_ms.p50 < 500.0, "the pause is not counted: {game:?}");

    let mut idle = args(server.ws_url(), LoadGame::Plane2, Mode::Game);
    idle.idle = true;
    idle.seconds = 0.2;
    let report = skirmish_bench::load::run(&idle, None).await.unwrap();
    let memory = report.memory.expect("idle memory");
    assert_eq!((memory.connections, memory.rooms), (4, 2));
    // A room with its connections: the room's own share and its two connections' together.
    let parts = memory.per_room_kib + 2.0 * memory.per_connection_kib;
    assert!(
        (memory.per_seated_room_kib - parts).abs() < 1e-6,
        "a room with its connections is its share and its two connections': {memory:?}"
    );
    let game = report.game_run.as_ref().unwrap();
    assert_eq!(game.round_trips, 0, "idle rooms do not move");
    assert_eq!(game.errors, 0, "errors: {:?}", game.error_kinds);
    server.stop().await;
}

/// A TCP relay on a free loopback port to `to` (`host:port`), counting the connections it
/// accepts: a stand-in for one node of a cluster in front of the one test server.
async fn counting_relay(to: String) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::Relaxed);
            let to = to.clone();
            tokio::spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (format!("ws://{addr}/ws"), accepted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_urls_spread_every_rooms_seats_over_them() {
    let server = TestServer::start_with(limits()).await;
    let target = server
        .ws_url()
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .to_owned();
    let mut urls = Vec::new();
    let mut counts = Vec::new();
    for _ in 0..3 {
        let (url, count) = counting_relay(target.clone()).await;
        urls.push(url);
        counts.push(count);
    }
    let mut args = args(String::new(), LoadGame::Plane3, Mode::Game);
    args.urls = urls;
    // The "nodes" are this process (the test server): their CPU is read over the window.
    let me = i32::try_from(std::process::id()).unwrap();
    args.watch = vec![Watch {
        name: "nodes".into(),
        pids: vec![me, i32::MAX],
    }];
    args.rooms = 4;
    args.seconds = 1.0;
    let report = skirmish_bench::load::run(&args, None).await.unwrap();
    // Rooms are created through one URL and joined through the two others: they play.
    check_game(&report, 12);
    // Each room put one of its three seats on each URL.
    let accepted: Vec<usize> = counts.iter().map(|c| c.load(Ordering::Relaxed)).collect();
    assert_eq!(accepted, [4, 4, 4]);
    // The watched group: the process that could be read (not the made-up pid), busy playing.
    let watched = &report.game_run.as_ref().unwrap().watched;
    assert_eq!(watched.len(), 1);
    assert_eq!(
        (watched[0].name.as_str(), watched[0].pids.as_slice()),
        ("nodes", &[me][..])
    );
    assert!(
        watched[0].cpu_seconds > 0.0 && watched[0].rss_kib > 0,
        "{watched:?}"
    );
    assert!(skirmish_bench::load::table(&report).contains("nodes: "));
    server.stop().await;
}
