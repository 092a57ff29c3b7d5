//! The `skirmish-bots` program itself, started as a process: its connection options take effect
//! whether given as flags or as environment variables, and a flag wins over its variable.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use skirmish_protocol::{BotSummary, ClientMsg, GameKind, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

/// A bot process, killed when dropped.
struct Bot(Child);

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn play(args: &[&str], env: &[(&str, &str)]) -> Bot {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skirmish-bots"));
    command.arg("play").args(args).stdout(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    Bot(command.spawn().expect("the bot program starts"))
}

/// The connected bots, once there are `count` of them (or after 10 s).
async fn bots(client: &mut TestClient, count: usize) -> Vec<BotSummary> {
    let mut bots = Vec::new();
    for _ in 0..100 {
        let ServerMsg::Bots { bots: now, .. } = client.request(ClientMsg::ListBots).await else {
            panic!("a bot list")
        };
        bots = now;
        if bots.len() == count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bots
}

#[tokio::test]
async fn environment_variables_set_the_connection_and_flags_win() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let env = [
        ("SKIRMISH_URL", url.as_str()),
        ("SKIRMISH_BOT_NAME", "envbot"),
        ("SKIRMISH_BOT_COUNT", "2"),
        ("SKIRMISH_STRATEGIES", "seed-cv"),
        ("SKIRMISH_LOG_FORMAT", "json"),
    ];
    let (mut client, _) = TestClient::join(&url, "watcher").await;
    let bot = play(&[], &env);
    let mut seen = bots(&mut client, 2).await;
    seen.sort_by(|a, b| a.name.cmp(&b.name));
    let names: Vec<&str> = seen.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        ["envbot-1", "envbot-2"],
        "SKIRMISH_BOT_COUNT=2 with SKIRMISH_BOT_NAME"
    );
    for b in &seen {
        assert_eq!(b.offer.strategies(GameKind::Plane), ["seed-cv"]);
        assert!(
            b.offer.strategies(GameKind::Gomoku).is_empty(),
            "no gomoku strategy named"
        );
    }
    drop(bot);
    assert!(bots(&mut client, 0).await.is_empty(), "the bots left");

    let bot = play(
        &["--name", "flagbot", "--count", "1", "--strategies", "random"],
        &env,
    );
    let seen = bots(&mut client, 1).await;
    assert_eq!(seen.len(), 1, "--count 1 wins over SKIRMISH_BOT_COUNT=2");
    assert_eq!(seen[0].name, "flagbot");
    assert_eq!(seen[0].offer.strategies(GameKind::Plane), ["random"]);
    drop(bot);
}
