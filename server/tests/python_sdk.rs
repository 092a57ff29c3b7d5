//! The Python SDK (`sdk/python`): its example bots play whole games against built-in bots over
//! WebSockets, its messages validate against the committed JSON Schemas, its arena command plays
//! a bot against the built-in bots on a real `skirmish-server` process and reports, and the
//! server serves the AsyncAPI document the SDK's docs point to.
//!
//! The SDK runs from the source tree (`PYTHONPATH=sdk/python/src`), so these tests always test the
//! checked-out code; Python 3.11 needs the SDK's dependencies (`websockets`, and `jsonschema` for
//! the schema check): `python3 -m pip install './sdk/python[test]'`, as `scripts/test.sh` does.

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use common::*;
use serde_json::Value;
use skirmish_games::plane::{self, Variant};
use skirmish_protocol::{ClientMsg, GameConfig, RoomConfig, RoomId, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};
use tokio::io::AsyncReadExt;
use tokio::process::Command;
use tokio_util::sync::CancellationToken;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `python3` with the SDK's source on its path.
fn python() -> Command {
    let mut command = Command::new("python3");
    command
        .env("PYTHONPATH", repo().join("sdk/python/src"))
        .env("PYTHONUNBUFFERED", "1")
        .current_dir(repo())
        .kill_on_drop(true);
    command
}

async fn needs(modules: &str) {
    let ok = python()
        .args(["-c", &format!("import {modules}")])
        .status()
        .await
        .expect("python3 runs")
        .success();
    assert!(
        ok,
        "python3 cannot import {modules}: python3 -m pip install './sdk/python[test]' (scripts/test.sh does)"
    );
}

/// The room's events as JSON, in the order the spectator got them.
fn room_events(log: &[ServerMsg], room: RoomId) -> Vec<Value> {
    log.iter()
        .filter_map(|m| match m {
            ServerMsg::Event { room: r, event, .. } if *r == room => {
                Some(serde_json::to_value(event).unwrap())
            }
            _ => None,
        })
        .collect()
}

fn is_end(event: &Value) -> bool {
    matches!(event["kind"].as_str(), Some("ended" | "match_ended"))
}

/// Runs `example` (a file of sdk/python/examples, offering `strategy`) and a built-in bot that
/// offers `builtin`, seats both in a room of `config` (the Python bot in seat 0 unless `python_second`),
/// and waits for the game's end. The room's events, what the Python bot printed on stderr, and the
/// finished match's record (`GET /api/matches/<room>`), after checking that nothing the spectator
/// was sent carries a bot's `info` (sealed until the end).
async fn example_plays(
    example: &str,
    strategy: &str,
    builtin: &str,
    config: RoomConfig,
) -> (Vec<Value>, String, Value) {
    needs("skirmish.client").await;
    let server = TestServer::start().await;
    let stop = CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "built-in".into());
    options.set_strategies(&[builtin.into()]);
    let pool = tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    let mut bot = python()
        .arg(repo().join("sdk/python/examples").join(example))
        .args(["--url", &server.ws_url(), "--name", "pybot", "--once"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the python bot starts");

    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let mut connected = false;
    for _ in 0..400 {
        if matches!(alice.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() == 2)
        {
            connected = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(connected, "both bots connect");
    let room = create(&mut alice, config, false).await;
    alice.request(ClientMsg::Spectate { room }).await;
    for strategy in [strategy, builtin] {
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
    let ended = tokio::time::timeout(Duration::from_secs(300), async {
        loop {
            if let ServerMsg::Event { room: r, event, .. } = alice.recv().await
                && r == room
                && is_end(&serde_json::to_value(&event).unwrap())
            {
                break;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the game ends within 5 minutes");
    // The Python bot saw the end too, and exits by itself (--once).
    let status = tokio::time::timeout(Duration::from_secs(20), bot.wait())
        .await
        .expect("the python bot exits after the game")
        .unwrap();
    let mut stderr = String::new();
    bot.stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .await
        .unwrap();
    assert!(status.success(), "the python bot exits cleanly:\n{stderr}");
    stop.cancel();
    pool.await.unwrap().unwrap();
    let seen = serde_json::to_string(&alice.log).unwrap();
    assert!(!seen.contains("\"belief\""), "a spectator saw a bot's info");
    let response = reqwest::get(server.http_url(&format!("/api/matches/{room}")))
        .await
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 200, "the finished match's record");
    let record: Value = response.json().await.expect("a JSON record");
    (room_events(&alice.log, room), stderr, record)
}

/// Seat 0 is added first, so it is the Python bot's.
fn python_seat_acted(events: &[Value], kind: &str) -> usize {
    events
        .iter()
        .filter(|e| e["kind"] == kind && e["seat"] == 0)
        .count()
}

#[tokio::test]
async fn the_gomoku_example_plays_a_whole_game_against_a_built_in_bot() {
    let config = gomoku_room_named("py", skirmish_games::gomoku::Rule::Freestyle, NO_CLOCK);
    let (events, stderr, record) =
        example_plays("gomoku_bot.py", "python-gomoku", "seed-minimax", config).await;
    let end = events.iter().find(|e| is_end(e)).expect("an end");
    // Played out on the board: five in a row or a full board, not a resignation or a clock.
    let kind = end["outcome"]["end"]["kind"].as_str().unwrap();
    assert!(matches!(kind, "five" | "board_full"), "{end}");
    assert!(
        python_seat_acted(&events, "placed") >= 4,
        "the Python bot placed stones: {events:?}"
    );
    assert!(
        !stderr.contains("refused"),
        "no move of the Python bot was refused:\n{stderr}"
    );
    // Each stone went with what the bot thought (a `Decision`), kept for the replay.
    let placed = python_seat_acted(&events, "placed");
    let infos: Vec<&Value> = record["infos"]
        .as_array()
        .expect("the record's infos")
        .iter()
        .filter(|m| m["seat"] == 0)
        .collect();
    assert_eq!(infos.len(), placed, "one info per stone: {infos:?}");
    assert!(
        infos.iter().all(|m| m["info"]["belief"]["game"] == "gomoku"
            && m["info"]["pv"].as_array().is_some_and(|pv| pv.len() == 1)),
        "{infos:?}"
    );
}

#[tokio::test]
async fn the_plane_example_plays_a_whole_match_against_a_built_in_bot() {
    let mut config = room_config(Variant::Classic, 2, 6, NO_CLOCK);
    if let GameConfig::Plane(c) = &mut config.game {
        c.format = plane::MatchFormat::Rounds(6);
    }
    let (events, stderr, _) = example_plays("plane_bot.py", "python-plane", "seed-cv", config).await;
    let rounds = events.iter().filter(|e| e["kind"] == "round_ended").count();
    assert!(
        rounds >= 6,
        "a whole match of 6 rounds (or more, after a tie): {rounds}"
    );
    // Every shot the Python bot fired was its own (never the referee's default for it).
    let own: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "shot" && e["attacker"] == 0)
        .collect();
    assert!(
        !own.is_empty() && own.iter().all(|e| e["by_default"] == false),
        "{own:?}"
    );
    let ready: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "ready" && e["seat"] == 0)
        .collect();
    assert!(
        ready.len() >= 6 && ready.iter().all(|e| e["by_default"] == false),
        "{ready:?}"
    );
    assert!(!stderr.contains("refused"), "{stderr}");
}

#[tokio::test]
async fn the_junqi_example_plays_a_whole_game_against_a_built_in_bot() {
    let config = RoomConfig {
        name: Some("py".into()),
        game: GameConfig::Junqi(Default::default()),
        clock: Some(NO_CLOCK),
        on_drop: None,
    };
    let (events, stderr, _) = example_plays("junqi_bot.py", "python-junqi", "random", config).await;
    let end = events.iter().find(|e| is_end(e)).expect("an end");
    assert!(end["outcome"]["end"]["kind"] != "timed_out", "{end}");
    assert!(
        python_seat_acted(&events, "moved") >= 1,
        "the Python bot moved: {end}"
    );
    assert!(!stderr.contains("refused"), "{stderr}");
}

#[tokio::test]
async fn the_tic_tac_toe_example_never_loses_to_random() {
    let config = RoomConfig {
        name: Some("py".into()),
        game: GameConfig::TicTacToe(Default::default()),
        clock: Some(NO_CLOCK),
        on_drop: None,
    };
    let (events, stderr, _) =
        example_plays("tic_tac_toe_bot.py", "python-tic-tac-toe", "random", config).await;
    let end = events.iter().find(|e| is_end(e)).expect("an end");
    assert!(
        end["outcome"]["winner"] != 1,
        // Win, block, centre, corners, edges never loses moving first: against each of the 94
        // games a second player can make of it (counted by playing them all out) it wins or draws.
        "it does not lose moving first: {end}"
    );
    assert!(python_seat_acted(&events, "placed") >= 3, "{events:?}");
    assert!(!stderr.contains("refused"), "{stderr}");
}

/// Waits for the next stone `seat` places in `room`; its point.
async fn stone_of(client: &mut TestClient, room: RoomId, seat: u64) -> String {
    let placed = tokio::time::timeout(
        Duration::from_secs(60),
        client.recv_until(|m| match m {
            ServerMsg::Event { room: r, event, .. } if *r == room => {
                let e = serde_json::to_value(event).unwrap();
                e["kind"] == "placed" && e["seat"] == seat
            }
            _ => false,
        }),
    )
    .await
    .expect("a stone within a minute");
    let ServerMsg::Event { event, .. } = placed else {
        unreachable!()
    };
    serde_json::to_value(&event).unwrap()["point"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_bot_resumes_its_seat_after_its_server_is_killed() {
    needs("skirmish.client").await;
    let dir = std::env::temp_dir().join(format!("skirmish-sdk-resume-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = dir.join("skirmish.db");
    let port = free_port();
    // A long grace period: the seat waits for its bot however long the restart takes.
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, &database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let mut bot = python()
        .arg(repo().join("sdk/python/examples/gomoku_bot.py"))
        .args(["--url", &url, "--name", "pybot", "--once"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the python bot starts");
    let (mut alice, welcome) = TestClient::join(&url, "Alice").await;
    let ServerMsg::Welcome { resume: token, .. } = welcome else {
        panic!("{welcome:?}")
    };
    for _ in 0..400 {
        if matches!(alice.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() == 1)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let config = gomoku_room_named("resume", skirmish_games::gomoku::Rule::Freestyle, NO_CLOCK);
    let room = create(&mut alice, config, true).await;
    let reply = alice
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: Some("python-gomoku".into()),
            level: None,
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    // Alice (black) plays down the a-file, away from the centre; the bot answers each stone.
    let mut taken = std::collections::HashSet::new();
    let next_point = |taken: &std::collections::HashSet<String>| {
        (1..=15)
            .map(|row| format!("a{row}"))
            .find(|p| !taken.contains(p))
            .expect("a free point")
    };
    for _ in 0..2 {
        let point = next_point(&taken);
        alice.send(place_stone(room, &point)).await;
        taken.insert(point);
        taken.insert(stone_of(&mut alice, room, 1).await);
    }

    server.kill();
    let mut server = ServerProcess::start(port, &database, &args).await;
    let (mut alice, welcome) = TestClient::resume(&url, "Alice", token).await;
    assert!(
        matches!(&welcome, ServerMsg::Welcome { seats, .. } if seats.len() == 1),
        "{welcome:?}"
    );
    // The bot is back in its seat (it reconnected with backoff and resumed with its token): it
    // answers Alice's next stone.
    let point = next_point(&taken);
    alice.send(place_stone(room, &point)).await;
    let answer = stone_of(&mut alice, room, 1).await;
    assert!(!taken.contains(&answer) && answer != point, "{answer}");
    alice
        .send(ClientMsg::Act {
            room,
            seat: None,
            action: skirmish_protocol::Action::Gomoku(skirmish_games::gomoku::Action::Resign {
                reason: None,
            }),
            info: None,
        })
        .await;
    let status = tokio::time::timeout(Duration::from_secs(20), bot.wait())
        .await
        .expect("the python bot exits after the game")
        .unwrap();
    let mut stderr = String::new();
    bot.stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .await
        .unwrap();
    assert!(status.success(), "{stderr}");
    let welcomes: Vec<&str> = stderr.lines().filter(|l| l.contains("welcomed as")).collect();
    assert_eq!(
        welcomes.len(),
        2,
        "one welcome, then one after the restart:\n{stderr}"
    );
    assert!(
        welcomes[0].ends_with("seats []") && welcomes[1].contains(&format!("'room': '{room}', 'seat': 1")),
        "{stderr}"
    );
    assert!(
        stderr.contains("reconnecting") || stderr.contains("retrying"),
        "{stderr}"
    );
    assert!(server.terminate());
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn the_sdk_messages_validate_against_the_json_schemas_and_its_client_handles_refusals() {
    needs("skirmish.messages, jsonschema").await;
    let output = python()
        .args(["-m", "unittest", "discover", "-v", "-s"])
        .arg(repo().join("sdk/python/tests"))
        .output()
        .await
        .unwrap();
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{report}");
    for test in [
        "test_every_built_message_validates_against_the_client_schema",
        "test_every_message_type_has_a_typed_dict_that_matches_its_schema",
        "test_wrong_messages_do_not_validate",
        "test_it_resumes_with_its_token_and_drops_an_unknown_one",
        "test_a_refused_move_is_asked_again_once_with_the_refusal",
    ] {
        assert!(
            report
                .lines()
                .any(|l| l.starts_with(test) && l.ends_with("... ok")),
            "{test} ran and passed:\n{report}"
        );
    }
}

#[tokio::test]
async fn the_server_serves_the_committed_asyncapi_document() {
    let server = TestServer::start().await;
    let served: Value = reqwest::get(server.http_url("/asyncapi.json"))
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap();
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("protocol/schema/asyncapi.json")).unwrap())
            .unwrap();
    assert_eq!(served, committed);
    assert_eq!(served["asyncapi"], "3.0.0");
}

/// The `skirmish-bots` program beside the server's (the arena's opponents): the one `cargo test
/// --workspace` builds for the bots' own tests, or, when this test runs alone and it is missing,
/// built once per run of this test binary. (`cargo build -p skirmish-bots` resolves the
/// dependencies' features apart from the workspace's test build, so it compiles them all again:
/// minutes, in CI.)
fn bots_program() -> PathBuf {
    static PROGRAM: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let server = PathBuf::from(env!("CARGO_BIN_EXE_skirmish-server"));
            let dir = server.parent().expect("the server's folder");
            let built = dir.join("skirmish-bots");
            if built.is_file() {
                return built;
            }
            let mut build = std::process::Command::new(env!("CARGO"));
            // Without the variables cargo sets for this test (CARGO_MANIFEST_DIR, ...): build
            // scripts that track them (ring's) would rebuild on every run.
            for (key, _) in std::env::vars_os() {
                let key = key.to_string_lossy();
                if [
                    "CARGO_PKG_",
                    "CARGO_MANIFEST_",
                    "CARGO_CRATE_",
                    "CARGO_BIN_",
                    "CARGO_PRIMARY_",
                ]
                .iter()
                .any(|p| key.starts_with(p))
                    || ["CARGO_TARGET_TMPDIR", "CARGO_RUSTC_CURRENT_DIR", "OUT_DIR"].contains(&&*key)
                {
                    build.env_remove(&*key);
                }
            }
            build.current_dir(repo()).args([
                "build",
                "--locked",
                "-p",
                "skirmish-bots",
                "--bin",
                "skirmish-bots",
            ]);
            if dir.ends_with("release") {
                build.arg("--release");
            }
            let status = build.status().expect("cargo runs");
            assert!(status.success(), "cargo build -p skirmish-bots");
            let program = dir.join("skirmish-bots");
            assert!(program.is_file(), "{} was built", program.display());
            program
        })
        .clone()
}

async fn arena(args: &[&str], bot: &[&str]) -> (bool, Value, String) {
    needs("skirmish.arena").await;
    let bots = bots_program();
    let output = python()
        .args([
            "-m",
            "skirmish.arena",
            "--json",
            "--server-bin",
            env!("CARGO_BIN_EXE_skirmish-server"),
        ])
        .arg("--bots-bin")
        .arg(&bots)
        .args(args)
        .arg("--")
        .args(bot)
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.success(), report, stderr)
}

#[tokio::test]
async fn the_arena_plays_an_example_against_the_built_in_bots_and_reports() {
    let example = repo().join("sdk/python/examples/tic_tac_toe_bot.py");
    let (ok, report, stderr) = arena(
        &[
            "--game",
            "tic_tac_toe",
            "--games",
            "4",
            "--opponent",
            "random",
            "--opponent",
            "seed-rules",
        ],
        &["python3", example.to_str().unwrap()],
    )
    .await;
    assert!(ok, "{stderr}");
    assert_eq!(report["bot"], "challenger/python-tic-tac-toe", "{report}");
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{report}");
    for row in rows {
        // 4 games: 2 sets of both colours.
        assert_eq!(row["games"], 4, "{row}");
        let played: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| row[k].as_u64().unwrap())
            .sum();
        assert_eq!(played, 4, "{row}");
        let (low, high, score) = (
            row["low"].as_f64().unwrap(),
            row["high"].as_f64().unwrap(),
            row["score"].as_f64().unwrap(),
        );
        assert!(low <= score / 4.0 && score / 4.0 <= high && low < high, "{row}");
        assert_eq!(row["forfeits_by"]["engine_failure"], 0, "{row}");
    }
    // `seed-rules` never loses; the example never loses either (it blocks every line of two).
    let perfect = &rows[1];
    assert_eq!(
        (perfect["opponent"].as_str(), perfect["wins"].as_u64()),
        (Some("seed-rules"), Some(0)),
        "{perfect}"
    );
    let timing = &report["time_per_move"];
    // At least 2 marks of its own per game, 8 games.
    assert!(timing["moves"].as_u64().unwrap() >= 16, "{timing}");
    assert!(timing["median_ms"].as_f64().unwrap() > 0.0, "{timing}");
}

#[tokio::test]
async fn the_arena_counts_a_crashing_bot_s_forfeits_by_cause() {
    // A bot whose function raises on its second move: the SDK forfeits the seat as an engine
    // failure, with the exception as the detail, and the arena counts it.
    let dir = std::env::temp_dir().join(format!("skirmish-sdk-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("crash_bot.py");
    std::fs::write(
        &script,
        r#"
from skirmish import command_line, messages

def play(turn):
    cells = turn.view["cells"]
    if turn.view.get("to_move") != turn.seat:
        return None
    if sum(c == turn.seat for c in cells) >= 1:
        raise RuntimeError("out of ideas")
    return messages.tic_tac_toe_place(cells.index(None))

command_line({"tic_tac_toe": play}, strategy="crasher").run_forever()
"#,
    )
    .unwrap();
    let (ok, report, stderr) = arena(
        &["--game", "tic_tac_toe", "--games", "2", "--opponent", "random"],
        &["python3", script.to_str().unwrap()],
    )
    .await;
    std::fs::remove_dir_all(&dir).ok();
    assert!(ok, "{stderr}");
    let total = &report["total"];
    assert_eq!(total["games"], 2, "{report}");
    assert_eq!(total["forfeits_by"]["engine_failure"], 2, "{report}");
    assert_eq!(total["losses"], 2, "{report}");
    let details = total["forfeit_details"].as_array().unwrap();
    assert!(
        details
            .iter()
            .all(|d| d.as_str().unwrap().contains("RuntimeError: out of ideas")),
        "{details:?}"
    );
}
