//! The `skirmish-server` program itself, started as a process: its options take effect whether
//! given as flags or as environment variables, and a flag wins over its variable.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use skirmish_protocol::{ClientMsg, Clock, ErrorCode, GameConfig, GameKind, RoomConfig, ServerMsg};
use skirmish_server::testing::TestClient;
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

/// A running server process, killed on drop.
struct Server {
    child: Child,
    lines: Lines<BufReader<ChildStdout>>,
    url: String,
}

impl Server {
    /// Starts the server binary with `args` and `env`, and waits for its JSON "listening" line.
    async fn start(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_skirmish-server"));
        command
            .args(args)
            .env_remove("RUST_LOG")
            // Each server its own database file, out of the source tree.
            .env(
                "SKIRMISH_DATABASE",
                std::env::temp_dir().join(format!("skirmish-binary-{}.db", uuid::Uuid::new_v4())),
            )
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("the server binary starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let line = lines
                    .next_line()
                    .await
                    .unwrap()
                    .expect("the server logs before exiting");
                let log: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("--log-format json writes JSON lines ({e}): {line}"));
                if let Some(addr) = log["fields"]["addr"].as_str() {
                    return addr.to_owned();
                }
            }
        })
        .await
        .expect("the server says where it listens");
        Server {
            child,
            lines,
            url: format!("ws://{addr}/ws"),
        }
    }

    /// The number of bots connected, once it has settled at `expected` (or after 10 s).
    async fn bots(&self, expected: usize) -> usize {
        let (mut client, _) = TestClient::join(&self.url, "counter").await;
        let mut count = 0;
        for _ in 0..100 {
            let ServerMsg::Bots { bots, .. } = client.request(ClientMsg::ListBots).await else {
                panic!("a bot list")
            };
            count = bots.len();
            if count == expected {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        count
    }

    /// The clock of a room created without one.
    async fn default_clock(&self) -> Clock {
        let (mut client, _) = TestClient::join(&self.url, "creator").await;
        let config = RoomConfig {
            name: None,
            game: GameConfig::Gomoku(Default::default()),
            clock: None,
            on_drop: None,
        };
        let reply = client.request(ClientMsg::CreateRoom { config, sit: false }).await;
        assert!(matches!(reply, ServerMsg::RoomCreated { .. }), "{reply:?}");
        let ServerMsg::Rooms { rooms, .. } = client.request(ClientMsg::ListRooms).await else {
            panic!("a room list")
        };
        rooms[0].config.clock.expect("summaries show the clock in force")
    }

    /// The error code the server answers a `ping` padded to `bytes` bytes with (`None` for a
    /// `pong`).
    async fn answer_to_frame_of(&self, bytes: usize) -> Option<ErrorCode> {
        let (mut client, _) = TestClient::join(&self.url, "sender").await;
        let head = r#"{"type":"ping","req":7,"pad":""#;
        let text = format!("{head}{}\"}}", "x".repeat(bytes - head.len() - 2));
        assert_eq!(text.len(), bytes);
        client.send_text(text).await;
        let reply = client
            .recv_until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Pong { .. }))
            .await;
        match reply {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        }
    }
}

#[tokio::test]
async fn flags_take_effect() {
    let server = Server::start(
        &[
            "--port",
            "0",
            "--bots",
            "1",
            "--log-format",
            "json",
            // Room for the built-in bot's hello (its offer of every strategy: 310 bytes).
            "--max-frame-bytes",
            "1000",
        ],
        &[],
    )
    .await;
    assert_eq!(server.bots(1).await, 1, "--bots 1 starts one built-in bot");
    assert_eq!(
        server.answer_to_frame_of(1200).await,
        Some(ErrorCode::FrameTooLarge)
    );
    assert_eq!(server.answer_to_frame_of(200).await, None);
    drop(server);
}

#[tokio::test]
async fn environment_variables_take_effect_and_flags_win_over_them() {
    let env = [
        ("SKIRMISH_PORT", "0"),
        ("SKIRMISH_BOTS", "3"),
        ("SKIRMISH_LOG_FORMAT", "json"),
        ("SKIRMISH_MAX_FRAME_BYTES", "300"),
        ("SKIRMISH_BOT_STRATEGIES", "random"),
        ("SKIRMISH_DEFAULT_DEPLOY_MS", "4321"),
    ];
    let server = Server::start(&[], &env).await;
    assert_eq!(server.default_clock().await.deploy_ms, 4321);
    assert_eq!(server.bots(3).await, 3, "SKIRMISH_BOTS=3");
    assert_eq!(
        server.answer_to_frame_of(400).await,
        Some(ErrorCode::FrameTooLarge)
    );
    let (mut client, _) = TestClient::join(&server.url, "reader").await;
    let ServerMsg::Bots { bots, .. } = client.request(ClientMsg::ListBots).await else {
        panic!()
    };
    for bot in &bots {
        assert_eq!(bot.offer.strategies(GameKind::Plane), ["random"], "{bots:?}");
        assert_eq!(bot.offer.strategies(GameKind::Gomoku), ["random"], "{bots:?}");
    }
    drop(server);

    let server = Server::start(&["--bots", "0", "--max-frame-bytes", "1000"], &env).await;
    assert_eq!(server.bots(0).await, 0, "--bots 0 wins over SKIRMISH_BOTS=3");
    assert_eq!(server.answer_to_frame_of(400).await, None);
    drop(server);
}

#[tokio::test]
async fn json_logs_name_the_connection_and_the_room() {
    let mut server = Server::start(&["--port", "0", "--bots", "0", "--log-format", "json"], &[]).await;
    let (mut client, _) = TestClient::join(&server.url, "Alice").await;
    drop(client.request(ClientMsg::ListRooms).await);
    drop(client);
    // The session's "disconnected" line carries the connection's span with its peer address.
    let line = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let line = server.lines.next_line().await.unwrap().unwrap();
            if line.contains("disconnected") {
                return line;
            }
        }
    })
    .await
    .expect("a disconnected line");
    let log: Value = serde_json::from_str(&line).unwrap();
    let spans = log["spans"].as_array().expect("the span list");
    assert!(
        spans
            .iter()
            .any(|s| s["name"] == "connection" && s["peer"].is_string()),
        "{line}"
    );
    assert!(spans.iter().any(|s| s["name"] == "session"), "{line}");
    server.child.start_kill().unwrap();
}

#[tokio::test]
async fn with_a_bot_key_the_built_in_bots_are_admitted_and_the_key_is_never_logged() {
    let mut server = Server::start(
        &[
            "--port",
            "0",
            "--bots",
            "2",
            "--log-format",
            "json",
            "--log",
            "debug",
        ],
        &[("SKIRMISH_BOT_KEY", "operator-secret-42")],
    )
    .await;
    assert_eq!(server.bots(2).await, 2, "the pool gives the server's own key");
    let mut stranger = TestClient::connect(&server.url).await;
    let reply = stranger
        .request(ClientMsg::Hello {
            protocol: skirmish_protocol::PROTOCOL_VERSION,
            name: "stranger".into(),
            bot: Some(skirmish_protocol::BotOffer {
                games: std::collections::BTreeMap::new(),
                version: None,
            }),
            resume: None,
            key: None,
            token: None,
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert!(
        matches!(
            reply,
            ServerMsg::Error {
                code: ErrorCode::BadKey,
                ..
            }
        ),
        "{reply:?}"
    );
    server.child.start_kill().unwrap();
    let mut logged = String::new();
    while let Ok(Ok(Some(line))) =
        tokio::time::timeout(Duration::from_secs(5), server.lines.next_line()).await
    {
        logged.push_str(&line);
    }
    assert!(!logged.is_empty());
    assert!(!logged.contains("operator-secret-42"), "the key is in the log");
}
