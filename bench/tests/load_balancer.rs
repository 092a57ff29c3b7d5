//! The load balancer of a cluster, `deploy/haproxy.cfg` (docs/cluster.md, "The load balancer"),
//! run by the real HAProxy (Debian's `haproxy`, as scripts/cluster.sh runs it) in front of a test
//! server and a node that is dead: the load generator's games pass through it as WebSockets, every
//! connection the dead node refuses goes on to the live one (with `balance leastconn`, the dead
//! node, holding none, is tried first each time), and one client address holds no more
//! connections than the configured limit.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use skirmish_bench::load::{LoadArgs, LoadGame, Mode};
use skirmish_server::testing::TestServer;
use tokio::process::{Child, Command};

/// Connections one client address may hold through the load balancer in this test.
const PER_ADDRESS: u64 = 6;

/// A free loopback port (bound, then released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// HAProxy with deploy/haproxy.cfg on `port`, in front of `nodes` (`host:port`), balanced as
/// scripts/cluster.sh's backend is but without its health checks: at start HAProxy would mark a
/// dead node down on its first check, and this test is about what carries a connection past a
/// node that died before the checks noticed (deploy/haproxy.cfg's `retries` and `option
/// redispatch`). Killed when dropped.
async fn haproxy(port: u16, nodes: &[String], folder: &Path) -> Child {
    let cfg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/haproxy.cfg");
    let mut backend = String::from("backend nodes\n    balance leastconn\n");
    for (k, node) in nodes.iter().enumerate() {
        backend.push_str(&format!("    server node{} {node}\n", k + 1));
    }
    let nodes_cfg = folder.join("nodes.cfg");
    std::fs::write(&nodes_cfg, backend).unwrap();
    // Debian puts it in /usr/sbin, which a user's PATH (under sudo) may not hold.
    let program = if Path::new("/usr/sbin/haproxy").exists() {
        "/usr/sbin/haproxy"
    } else {
        "haproxy"
    };
    let child = Command::new(program)
        .arg("-f")
        .arg(&cfg)
        .arg("-f")
        .arg(&nodes_cfg)
        .env("SKIRMISH_LB_BIND", format!("127.0.0.1:{port}"))
        .env("SKIRMISH_LB_CONNECTIONS_PER_ADDRESS", PER_ADDRESS.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("haproxy runs (apt-get install haproxy; scripts/cluster.sh installs it)");
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("HAProxy never listened on {port}");
}

/// Waits (at most 10 s) until the node at `host_port` reports no open WebSocket connection on
/// `/metrics`.
///
/// # Panics
/// If it still has some after 10 s.
async fn wait_for_no_connections(host_port: &str) {
    for _ in 0..200 {
        let text = reqwest::get(format!("http://{host_port}/metrics"))
            .await
            .expect("the node answers /metrics")
            .text()
            .await
            .expect("the metrics are text");
        let open = text.lines().find_map(|line| {
            line.strip_prefix("skirmish_connections ")?
                .trim()
                .parse::<f64>()
                .ok()
        });
        if open == Some(0.0) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the node still holds connections after 10 s");
}

fn args(url: String, rooms: u64) -> LoadArgs {
    LoadArgs {
        urls: vec![url],
        game: LoadGame::Gomoku,
        rooms,
        seconds: 1.0,
        warmup_seconds: 0.2,
        matches: None,
        server_pid: None,
        watch: Vec::new(),
        spread: skirmish_bench::load::Spread::Seats,
        mode: Mode::Game,
        echo_url: None,
        echo_pid: None,
        echo_frame_bytes: None,
        idle: false,
        think_ms: 0,
        stall_ms: 10_000,
        json: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_pass_through_haproxy_past_a_dead_node_within_the_per_address_limit() {
    let limits = skirmish_server::Limits {
        messages_per_second: 1_000_000,
        message_burst: 1_000_000,
        connections_per_address: 10_000,
        upgrades_per_address: 10_000,
        http_connections_per_address: 10_000,
        rooms_per_address: 10_000,
        ..Default::default()
    };
    let server = TestServer::start_with(limits).await;
    let live = server
        .ws_url()
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .to_owned();
    // Nothing listens there: a node that was killed, before the health checks notice.
    let dead = format!("127.0.0.1:{}", free_port());
    let folder = std::env::temp_dir().join(format!("skirmish-lb-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let port = free_port();
    let lb = haproxy(port, &[dead, live.clone()], &folder).await;
    let url = format!("ws://127.0.0.1:{port}/ws");

    // Every connection reaches the live node, whichever node HAProxy tried first: the games play.
    let seats = 2;
    let report = skirmish_bench::load::run(&args(url.clone(), PER_ADDRESS / seats), None)
        .await
        .unwrap();
    let game = report.game_run.as_ref().unwrap();
    assert_eq!(game.errors, 0, "errors: {:?}", game.error_kinds);
    assert_eq!(game.connections_held, PER_ADDRESS);
    assert!(game.round_trips > 0, "{game:?}");

    // HAProxy counts a connection until both its ends are closed, and the node closes its end
    // once the session has left its rooms: wait for the node to have closed them all, or the
    // first run's connections may still count against the address (a busy machine did that).
    wait_for_no_connections(&live).await;

    // One room more than the limit allows from this address: the connections past the limit
    // are refused at HAProxy, and the rooms that got theirs play.
    let report = skirmish_bench::load::run(&args(url, PER_ADDRESS / seats + 1), None)
        .await
        .unwrap();
    let game = report.game_run.as_ref().unwrap();
    assert!(game.peak_connections <= PER_ADDRESS, "{game:?}");
    assert!(
        game.error_kinds.get("connect").copied().unwrap_or(0) >= 1,
        "{game:?}"
    );
    assert!(game.round_trips > 0, "{game:?}");

    drop(lb);
    let _ = std::fs::remove_dir_all(&folder);
    server.stop().await;
}
