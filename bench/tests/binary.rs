//! The `skirmish-bench` program itself, started as a process, as docs/performance.md and
//! scripts/soak.sh run it: `load` starts its own echo server (`skirmish-bench echo-server`, a child
//! process), measures the game and then the echo, and prints the report as JSON.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use skirmish_server::testing::TestServer;
use tokio_tungstenite::tungstenite::Message;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_measures_the_game_then_its_own_echo_process() {
    let server = TestServer::start_with(limits()).await;
    let pid = std::process::id().to_string();
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_skirmish-bench"))
        .args([
            "--log",
            "warn",
            "load",
            "--url",
            &server.ws_url(),
            "--server-pid",
            &pid,
        ])
        .args([
            "--game",
            "gomoku",
            "--rooms",
            "2",
            "--seconds",
            "1",
            "--warmup-seconds",
            "0.2",
        ])
        .arg("--json")
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("a short load run ends within a minute")
        .expect("the program starts");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is the JSON report ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(report["game"], "gomoku");
    for phase in ["game_run", "echo_run"] {
        let run = &report[phase];
        assert!(
            run["round_trips"].as_u64().unwrap() > 0,
            "{phase} measured moves: {run}"
        );
        assert_eq!(run["errors"], 0, "{phase}: {run}");
        assert_eq!(run["connections_held"], 4, "{phase}: {run}");
    }
    // The echo's /proc figures come from the child process `load` started, read by its pid.
    let echo_server = &report["echo_run"]["server"];
    assert!(echo_server["rss_kib"].as_u64().unwrap() > 0, "{echo_server}");
    assert!(report["ratios"]["latency_p50"].as_f64().unwrap() > 0.0);
    server.stop().await;
}

#[tokio::test]
async fn the_echo_server_prints_its_url_and_echoes() {
    let program = std::path::Path::new(env!("CARGO_BIN_EXE_skirmish-bench"));
    let process = skirmish_bench::load::echo::EchoProcess::spawn(program)
        .expect("the echo server starts and prints its URL");
    assert!(process.url.starts_with("ws://127.0.0.1:") && process.url.ends_with("/ws"));
    let (mut socket, _) = tokio_tungstenite::connect_async(process.url.as_str())
        .await
        .expect("the echo server accepts a WebSocket");
    let frame = r#"{"type":"echo","p":"xyz"}"#;
    socket.send(Message::text(frame)).await.unwrap();
    let back = socket.next().await.expect("a frame back").unwrap();
    assert_eq!(back, Message::text(frame));
    let pid = process.pid();
    drop(process);
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "dropping the handle kills and reaps the echo server"
    );
}
