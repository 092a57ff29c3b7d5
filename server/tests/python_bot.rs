//! The Python example bot (`examples/python/plane_bot.py`) plays a whole 2-player plane battle
//! match against a built-in bot, both connected over WebSockets. Needs `python3` with the
//! `websockets` package (`python3 -m pip install -r examples/python/requirements.txt`, as
//! `scripts/test.sh` does); the test fails, naming it, when that is missing.

mod common;

use std::process::Stdio;

use common::*;
use skirmish_games::plane::{self, Variant};
use skirmish_protocol::{ClientMsg, GameEvent, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};
use tokio::process::Command;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn the_python_example_bot_plays_a_whole_match_against_a_built_in_bot() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/python/plane_bot.py");
    let check = Command::new("python3")
        .args(["-c", "import websockets.sync.client"])
        .status()
        .await
        .expect("python3 runs");
    assert!(
        check.success(),
        "python3 needs the websockets package: python3 -m pip install -r examples/python/requirements.txt"
    );
    let server = TestServer::start().await;
    let stop = CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "built-in".into());
    options.set_strategies(&["seed-cv".into()]);
    let pool = tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    let mut python = Command::new("python3")
        .args([script, "--url", &server.ws_url(), "--name", "pybot", "--once"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the python bot starts");

    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    for _ in 0..200 {
        if matches!(alice.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() == 2)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // A whole match: 18 rounds (the default) on the 7x7 board, between the two bots.
    let mut config = room_config(Variant::Classic, 2, 18, NO_CLOCK);
    if let skirmish_protocol::GameConfig::Plane(c) = &mut config.game {
        c.format = plane::MatchFormat::default();
    }
    let room = create(&mut alice, config, false).await;
    alice.request(ClientMsg::Spectate { room }).await;
    for strategy in ["python-random", "seed-cv"] {
        let reply = alice
            .request(ClientMsg::AddBot {
                room,
                seat: None,
                strategy: Some(strategy.into()),
                level: None,
            })
            .await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "{strategy}: {reply:?}");
    }
    let ended = event(&mut alice, |e| matches!(e, plane::Event::MatchEnded { .. })).await;
    let plane::Event::MatchEnded { outcome } = ended else {
        unreachable!()
    };
    let rounds = alice
        .log
        .iter()
        .filter(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Plane(plane::Event::RoundEnded { .. }),
                    ..
                }
            )
        })
        .count();
    assert!(
        rounds >= 18,
        "a whole match of 18 rounds (or more, after a tie): {rounds}"
    );
    assert_eq!(outcome.round_wins.0.iter().sum::<u32>() as usize, rounds);
    // The Python bot saw the end too, and exits by itself (--once).
    let output = tokio::time::timeout(std::time::Duration::from_secs(20), python.wait())
        .await
        .expect("the python bot exits after the match")
        .unwrap();
    assert!(output.success(), "the python bot exits cleanly");
    let mut stdout = String::new();
    use tokio::io::AsyncReadExt;
    python
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .await
        .unwrap();
    assert!(stdout.contains("match over"), "{stdout}");
    stop.cancel();
    pool.await.unwrap().unwrap();
}
