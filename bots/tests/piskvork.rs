//! The piskvork engine driver against the real engine `pbrain-figrid` (found through the
//! `PBRAIN_FIGRID` variable, else on `PATH`; `scripts/test.sh` installs it, and these tests fail without
//! it) and against fake engines, small python3 scripts that crash, hang, or answer nonsense; then
//! `skirmish-bots piskvork` bot processes playing whole games on a real server.

use std::path::{Path, PathBuf};
mod common;

use common::{Bots, Dialect, alive, host_bot_game, input, random_bot_process};
use std::process::{Command, Stdio};
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::gomoku::{Budget, GomokuStrategy};
use skirmish_bots::piskvork::PiskvorkStrategy;
use skirmish_games::gomoku::{self, Action, Config, End, Gomoku, Opening, Point, Rule, View};
use skirmish_games::{Game, Seat, Viewer};
use skirmish_protocol::{Clock, GameConfig, GameEvent, RoomConfig, ServerMsg};
use skirmish_server::testing::TestServer;

/// The real engine's path.
fn figrid() -> PathBuf {
    if let Some(path) = std::env::var_os("PBRAIN_FIGRID") {
        return path.into();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("pbrain-figrid"))
        .find(|p| p.is_file())
        .expect("pbrain-figrid not found: set PBRAIN_FIGRID or put it on PATH (scripts/test.sh installs it)")
}

fn points(names: &str) -> Vec<Point> {
    names.split_whitespace().map(|n| n.parse().unwrap()).collect()
}

/// A game from `opening` (black first, alternating).
fn game(size: u8, rule: Rule, opening: &str) -> Gomoku {
    Gomoku::new(Config {
        size,
        rule,
        opening: Some(Opening::Moves(points(opening))),
    })
    .unwrap()
    .0
}

fn view_to_move(game: &Gomoku) -> View {
    let seat = game.to_act()[0];
    game.view(Viewer::Seat(seat))
}

fn budget(think_ms: u64) -> Budget {
    Budget::new(0, Duration::from_millis(think_ms))
}

fn place(action: &Action) -> Point {
    match action {
        Action::Place { point } => *point,
        other => panic!("expected a stone, got {other:?}"),
    }
}

fn reason(action: Action) -> String {
    match action {
        Action::Resign { reason: Some(reason) } => reason,
        other => panic!("expected a resignation with a reason, got {other:?}"),
    }
}

/// Plays a whole game between two figrid processes through the referee; every move must be
/// accepted.
fn figrid_game(rule: Rule) {
    let (mut game, _) = Gomoku::new(Config {
        rule,
        ..Config::default()
    })
    .unwrap();
    let mut players = [PiskvorkStrategy::new(figrid()), PiskvorkStrategy::new(figrid())];
    let mut rng = SmallRng::seed_from_u64(1);
    while game.outcome().is_none() {
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let action = players[usize::from(seat.0)].act(&view, budget(100), &mut rng);
        place(&action);
        game.apply(seat, action).expect("the engine's move is legal");
    }
    let outcome = game.outcome().unwrap();
    assert!(
        matches!(outcome.end, End::Five { .. } | End::BoardFull),
        "{outcome:?}"
    );
}

#[test]
fn figrid_plays_a_freestyle_game_to_the_end() {
    figrid_game(Rule::Freestyle);
}

#[test]
fn figrid_plays_a_renju_game_to_the_end() {
    figrid_game(Rule::Renju);
}

#[test]
fn figrid_blocks_a_four() {
    // Black's c5-f5 is closed at b5: g5 is the one point that stops five.
    let game = game(15, Rule::Freestyle, "c5 b5 d5 k10 e5 l12 f5");
    let mut engine = PiskvorkStrategy::new(figrid());
    let action = engine.act(&view_to_move(&game), budget(300), &mut SmallRng::seed_from_u64(2));
    assert_eq!(place(&action), "g5".parse().unwrap());
}

#[test]
fn figrid_blocks_an_open_four_at_one_end() {
    // Black's open four c12-f12 can only be answered at one of its ends, b12 or g12.
    let game = game(15, Rule::Freestyle, "c12 k3 d12 l5 e12 m3 f12");
    let mut engine = PiskvorkStrategy::new(figrid());
    let action = engine.act(&view_to_move(&game), budget(300), &mut SmallRng::seed_from_u64(3));
    assert!(points("b12 g12").contains(&place(&action)), "{action:?}");
}

#[test]
fn figrid_takes_its_five_rather_than_block() {
    // Both sides have a four; white (to move) wins at g10 (b10 is black's).
    let mut game = game(15, Rule::Freestyle, "c5 c10 d5 d10 e5 e10 f5 f10 b10");
    let view = view_to_move(&game);
    let mut engine = PiskvorkStrategy::new(figrid());
    let action = engine.act(&view, budget(300), &mut SmallRng::seed_from_u64(4));
    assert_eq!(place(&action), "g10".parse().unwrap());
    game.apply(Seat(1), action).unwrap();
    assert!(matches!(game.outcome().unwrap().end, End::Five { .. }));
}

#[test]
fn figrid_refuses_a_board_it_cannot_play_and_the_seat_resigns() {
    // figrid plays 15x15 only.
    let game = game(19, Rule::Freestyle, "k10");
    let mut engine = PiskvorkStrategy::new(figrid());
    let reason = reason(engine.act(&view_to_move(&game), budget(300), &mut SmallRng::seed_from_u64(5)));
    assert!(reason.starts_with("pbrain-figrid: refused START"), "{reason}");
    assert_eq!(engine.engine_pid(), None);
}

/// A directory of its own for one test's fake engine.
fn scratch(test: &str) -> PathBuf {
    common::scratch("piskvork", test)
}

/// A fake piskvork engine (see [`common::fake_engine`]): it ends lines with CR LF and reads
/// commands in any case.
fn fake_engine(dir: &Path, name: &str, body: &str) -> PathBuf {
    let dialect = Dialect {
        newline: "\r\n",
        upper: true,
    };
    common::fake_engine(dir, name, dialect, body)
}

/// The position the fake engines are asked about: black h8, white to move.
fn white_to_move() -> View {
    view_to_move(&game(15, Rule::Freestyle, "h8"))
}

#[test]
fn an_engine_that_crashes_after_start_resigns_with_its_exit_status() {
    let dir = scratch("crash");
    let engine = fake_engine(
        &dir,
        "pbrain-crash",
        "if cmd == 'START':\n    say('OK')\n    sys.exit(3)",
    );
    let mut strategy = PiskvorkStrategy::new(&engine);
    let reason = reason(strategy.act(&white_to_move(), budget(300), &mut SmallRng::seed_from_u64(6)));
    assert_eq!(reason, "pbrain-crash: crashed (exit status: 3)");
    assert!(!alive(&dir));
    assert_eq!(strategy.engine_pid(), None);
}

#[test]
fn an_engine_that_never_answers_is_killed_and_resigns() {
    let dir = scratch("silent");
    let engine = fake_engine(&dir, "pbrain-silent", "if cmd == 'START':\n    say('OK')");
    let mut strategy = PiskvorkStrategy::new(&engine);
    let reason = reason(strategy.act(&white_to_move(), budget(200), &mut SmallRng::seed_from_u64(7)));
    assert!(
        reason.starts_with("pbrain-silent: timed out after ") && reason.ends_with(" ms (waiting for a move)"),
        "{reason}"
    );
    assert!(!alive(&dir));
}

#[test]
fn an_engine_that_never_starts_is_killed_and_resigns() {
    let dir = scratch("mute");
    let engine = fake_engine(&dir, "pbrain-mute", "pass");
    let mut strategy = PiskvorkStrategy::new(&engine);
    // Under a room clock of 1 s, the wait for START is cut to what the clock leaves.
    let reason = reason(strategy.act(
        &white_to_move(),
        Budget::new(1000, Duration::from_millis(300)),
        &mut SmallRng::seed_from_u64(7),
    ));
    assert!(reason.starts_with("pbrain-mute: timed out after "), "{reason}");
    assert!(reason.ends_with("(waiting for START's OK)"), "{reason}");
    assert!(!alive(&dir));
}

#[test]
fn an_engine_that_answers_an_occupied_point_resigns() {
    let dir = scratch("occupied");
    // h8 is (7,7) in piskvork's coordinates too.
    let engine = fake_engine(
        &dir,
        "pbrain-occupied",
        "if cmd == 'START':\n    say('OK')\nelif cmd in ('DONE', 'TURN', 'BEGIN'):\n    say('7,7')",
    );
    let mut strategy = PiskvorkStrategy::new(&engine);
    let reason = reason(strategy.act(&white_to_move(), budget(300), &mut SmallRng::seed_from_u64(8)));
    assert_eq!(
        reason,
        "pbrain-occupied: illegal answer `7,7` (h8 already holds a stone)"
    );
    assert!(!alive(&dir));
}

#[test]
fn an_engine_that_answers_garbage_resigns() {
    let dir = scratch("garbage");
    let engine = fake_engine(
        &dir,
        "pbrain-garbage",
        "if cmd == 'START':\n    say('OK')\nelif cmd in ('DONE', 'TURN', 'BEGIN'):\n    say('MESSAGE thinking hard')\n    say('the centre, obviously')",
    );
    let mut strategy = PiskvorkStrategy::new(&engine);
    let reason = reason(strategy.act(&white_to_move(), budget(300), &mut SmallRng::seed_from_u64(9)));
    assert_eq!(
        reason,
        "pbrain-garbage: illegal answer `the centre, obviously` (not a point on the board)"
    );
    assert!(!alive(&dir));
}

#[test]
fn an_engine_answering_a_forbidden_point_for_black_under_renju_resigns() {
    let dir = scratch("forbidden");
    // Black to move; j9 would make two open threes (h9-i9-j9 across, j7-j8-j9 up).
    let game = game(15, Rule::Renju, "h9 a1 i9 a3 j7 a5 j8 a7");
    let view = view_to_move(&game);
    assert!(view.forbidden.contains(&"j9".parse().unwrap()));
    let engine = fake_engine(
        &dir,
        "pbrain-forbidden",
        "if cmd == 'START':\n    say('OK')\nelif cmd in ('DONE', 'TURN', 'BEGIN'):\n    say('9,6')",
    );
    let mut strategy = PiskvorkStrategy::new(&engine);
    let reason = reason(strategy.act(&view, budget(300), &mut SmallRng::seed_from_u64(10)));
    assert_eq!(
        reason,
        "pbrain-forbidden: illegal answer `9,6` (j9 is forbidden for black: double-three)"
    );
    assert!(!alive(&dir));
}

#[test]
fn an_engine_that_fails_to_start_resigns() {
    let mut strategy = PiskvorkStrategy::new("/nonexistent/pbrain-nothing");
    let reason = reason(strategy.act(&white_to_move(), budget(300), &mut SmallRng::seed_from_u64(11)));
    assert!(
        reason.starts_with("pbrain-nothing: failed to start ("),
        "{reason}"
    );
}

/// A fake engine's body that answers every request for a move with `ERROR`.
const REFUSES: &str =
    "if cmd == 'START':\n    say('OK')\nelif cmd in ('DONE', 'TURN', 'BEGIN'):\n    say('ERROR - no idea')";

#[test]
fn an_engine_that_says_error_resigns() {
    let dir = scratch("error");
    let engine = fake_engine(&dir, "pbrain-error", REFUSES);
    let mut strategy = PiskvorkStrategy::new(&engine);
    let reason = reason(strategy.act(&white_to_move(), budget(300), &mut SmallRng::seed_from_u64(12)));
    assert_eq!(reason, "pbrain-error: refused to move: `ERROR - no idea`");
    assert!(!alive(&dir));
}

/// What the driver says: the coordinates flipped (rows from the top), own stones 1, then `TURN`
/// while in sync, a fresh game (`RESTART`, or a new process when the engine does not know
/// `RESTART`) when not, and `END` when dropped. The engine chats (`MESSAGE`, `DEBUG`, `UNKNOWN`)
/// and suggests its move (`SUGGEST`, confirmed by `PLAY`).
#[test]
fn the_driver_speaks_the_protocol() {
    let dir = scratch("record");
    let engine = fake_engine(
        &dir,
        "pbrain-record",
        r#"if cmd == 'START':
    say('OK')
elif cmd == 'INFO':
    if line.split(' ')[1] == 'game_type':
        say('UNKNOWN game_type')
elif cmd == 'RESTART':
    say('UNKNOWN')
elif cmd in ('DONE', 'TURN', 'BEGIN'):
    say('MESSAGE looking')
    say('DEBUG depth 1')
    n = globals().get('n', -1) + 1
    say(f'SUGGEST {n},0')
elif cmd == 'PLAY':
    say(line.split(' ')[1])
elif cmd == 'END':
    sys.exit(0)"#,
    );
    let mut strategy = PiskvorkStrategy::new(&engine);
    let mut rng = SmallRng::seed_from_u64(13);
    let default_memory = skirmish_bots::piskvork::DEFAULT_MAX_MEMORY;
    assert_eq!(default_memory, 350 * 1024 * 1024);
    // Black b2 (1,13), white h8 (7,7), black c3 (2,12): white to move.
    let (mut game, _) = Gomoku::new(Config {
        rule: Rule::Renju,
        opening: Some(Opening::Moves(points("b2 h8 c3"))),
        ..Config::default()
    })
    .unwrap();
    let action = strategy.act(&view_to_move(&game), budget(250), &mut rng);
    assert_eq!(place(&action), "a15".parse().unwrap());
    game.apply(Seat(1), action).unwrap();
    game.apply(
        Seat(0),
        Action::Place {
            point: "o1".parse().unwrap(),
        },
    )
    .unwrap();
    // In sync: the opponent's o1 is (14,14).
    let view = view_to_move(&game);
    let action = strategy.act(&view, budget(250), &mut rng);
    assert_eq!(place(&action), "b15".parse().unwrap());
    // Out of sync (a new game): the engine does not know RESTART, so a new process.
    let (fresh, _) = Gomoku::new(Config {
        rule: Rule::Renju,
        ..Config::default()
    })
    .unwrap();
    let action = strategy.act(&view_to_move(&fresh), budget(300), &mut rng);
    assert_eq!(place(&action), "a15".parse().unwrap());
    drop(strategy);
    let expected = [
        "START 15",
        "INFO timeout_match 0",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 4",
        "INFO timeout_turn 250",
        "BOARD",
        "1,13,2",
        "7,7,1",
        "2,12,2",
        "DONE",
        "PLAY 0,0",
        "TURN 14,14",
        "PLAY 1,0",
        "INFO timeout_turn 300",
        "RESTART",
        "END",
        "START 15",
        "INFO timeout_match 0",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 4",
        "INFO timeout_turn 300",
        "BEGIN",
        "PLAY 0,0",
        "END",
    ];
    assert_eq!(input(&dir), expected);
    assert!(!alive(&dir));
}

/// Black h8, white g7 answered by the engine, black a1: white to move, so that a driver in step
/// with the engine sends `TURN 0,14`.
fn after_one_exchange(strategy: &mut PiskvorkStrategy, rng: &mut SmallRng) -> (Gomoku, Action) {
    let mut game = game(15, Rule::Freestyle, "h8");
    let action = strategy.act(&view_to_move(&game), budget(500), rng);
    assert_eq!(place(&action), "g7".parse().unwrap());
    game.apply(Seat(1), action).unwrap();
    game.apply(
        Seat(0),
        Action::Place {
            point: "a1".parse().unwrap(),
        },
    )
    .unwrap();
    let action = strategy.act(&view_to_move(&game), budget(500), rng);
    (game, action)
}

/// The body of a fake engine that plays g7 (6,8) to its first `TURN`, answers the next
/// `refusals` with `ERROR Unknown command: <coordinates>` (an engine that still counted itself as
/// thinking, issue 19), then plays f6 (5,9).
fn refusing_engine(refusals: u32) -> String {
    format!(
        r#"if cmd == 'START':
    say('OK')
elif cmd == 'TURN':
    turns = globals().get('turns', 0) + 1
    if turns == 1:
        say('6,8')
    elif turns <= 1 + {refusals}:
        say('ERROR Unknown command: ' + line.split(' ')[1])
    else:
        say('5,9')"#
    )
}

/// An `ERROR` answer to `TURN` gets the same `TURN` again, and the engine's move then stands.
#[test]
fn a_refused_turn_is_sent_again_and_the_move_stands() {
    let dir = scratch("retry");
    let engine = fake_engine(&dir, "pbrain-race", &refusing_engine(2));
    let mut strategy = PiskvorkStrategy::new(&engine);
    let mut rng = SmallRng::seed_from_u64(21);
    let (_, action) = after_one_exchange(&mut strategy, &mut rng);
    assert_eq!(place(&action), "f6".parse().unwrap());
    let turns: Vec<String> = input(&dir)
        .into_iter()
        .filter(|l| l.starts_with("TURN"))
        .collect();
    assert_eq!(turns, ["TURN 7,7", "TURN 0,14", "TURN 0,14", "TURN 0,14"]);
}

/// The retries are bounded: an engine that refuses every `TURN` resigns after
/// `1 + TURN_RETRIES` of them, with its answer as the reason.
#[test]
fn an_engine_that_keeps_refusing_turn_resigns_after_the_retries() {
    let dir = scratch("refuse");
    let engine = fake_engine(&dir, "pbrain-refuse", &refusing_engine(99));
    let mut strategy = PiskvorkStrategy::new(&engine);
    let mut rng = SmallRng::seed_from_u64(22);
    let (_, action) = after_one_exchange(&mut strategy, &mut rng);
    assert_eq!(
        reason(action),
        "pbrain-refuse: refused to move: `ERROR Unknown command: 0,14`"
    );
    let turns = input(&dir).iter().filter(|l| l.as_str() == "TURN 0,14").count();
    assert_eq!(turns, 1 + skirmish_bots::piskvork::TURN_RETRIES as usize);
    assert!(!alive(&dir));
}

/// `INFO max_memory` carries the limit the strategy was given (0: none).
#[test]
fn the_memory_limit_is_an_option() {
    for (bytes, line) in [(64 << 20, "INFO max_memory 67108864"), (0, "INFO max_memory 0")] {
        let dir = scratch(&format!("memory-{bytes}"));
        let engine = fake_engine(
            &dir,
            "pbrain-memory",
            "if cmd == 'START':\n    say('OK')\nelif cmd == 'TURN':\n    say('6,8')",
        );
        let mut strategy = PiskvorkStrategy::new(&engine).max_memory(bytes);
        let action = strategy.act(&white_to_move(), budget(500), &mut SmallRng::seed_from_u64(23));
        assert_eq!(place(&action), "g7".parse().unwrap());
        drop(strategy);
        assert!(input(&dir).iter().any(|l| l == line), "{:?}", input(&dir));
    }
}

/// An engine that forks a helper (here `sleep 600`, its pid in `child`) dies with its helper when
/// its seat ends, whether it is stopped (dropped) or killed after a failure (a timeout): no
/// orphan survives.
#[test]
fn an_engines_children_die_with_it() {
    for failing in [false, true] {
        let dir = scratch(&format!("fork-{failing}"));
        let answer = if failing { "pass" } else { "say('6,8')" };
        let engine = fake_engine(
            &dir,
            "pbrain-fork",
            &format!(
                "if cmd == 'START':\n    import subprocess\n    c = subprocess.Popen(['sleep', '600'])\n    open({:?}, 'w').write(str(c.pid))\n    say('OK')\nelif cmd == 'TURN':\n    {answer}",
                dir.join("child").display().to_string()
            ),
        );
        let mut strategy = PiskvorkStrategy::new(&engine);
        let action = strategy.act(&white_to_move(), budget(200), &mut SmallRng::seed_from_u64(24));
        let child: u32 = std::fs::read_to_string(dir.join("child"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        if failing {
            assert!(reason(action).contains("timed out"));
        } else {
            assert_eq!(place(&action), "g7".parse().unwrap());
            assert!(common::running(child), "the helper runs while its engine plays");
            drop(strategy);
        }
        assert!(
            common::gone_within(child, Duration::from_secs(3)),
            "the engine's helper {child} outlived it"
        );
        assert!(!alive(&dir));
    }
}

/// Bot processes, killed when dropped.
/// Plays a freestyle 15x15 game with a 10 s move clock on a fresh server between a
/// `skirmish-bots piskvork --engine <engine>` process in seat 0 (black) and a `skirmish-bots play`
/// process's `random` strategy in seat 1, and returns how it ended. The engine is given by its
/// name, found on `PATH`.
async fn engine_against_random(engine: &Path) -> gomoku::Outcome {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let engine_name = engine.file_name().unwrap().to_str().unwrap().to_owned();
    let path = std::env::join_paths(std::iter::once(engine.parent().unwrap().to_owned()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut piskvork = Command::new(env!("CARGO_BIN_EXE_skirmish-bots"));
    piskvork
        .args(["piskvork", "--once", "--url", &url, "--engine", &engine_name])
        .args(["--think-ms", "200"])
        .env("PATH", path)
        .stdin(Stdio::null());
    let _bots = Bots(vec![
        piskvork.spawn().expect("start the piskvork bot"),
        random_bot_process(&url),
    ]);
    let config = RoomConfig {
        name: Some("outside engine".into()),
        game: GameConfig::Gomoku(Config::default()),
        clock: Some(Clock {
            deploy_ms: 0,
            move_ms: 10_000,
            game_ms: 0,
        }),
        on_drop: None,
    };
    let seats = [(Seat(0), engine_name.as_str()), (Seat(1), "random")];
    let (mut host, room) = host_bot_game(&url, 2, config, &seats).await;
    let ended = host
        .recv_until(|m| {
            matches!(m, ServerMsg::Event { room: r, event: GameEvent::Gomoku(gomoku::Event::Ended { .. }), .. } if *r == room)
        })
        .await;
    let ServerMsg::Event {
        event: GameEvent::Gomoku(gomoku::Event::Ended { outcome }),
        ..
    } = ended
    else {
        unreachable!()
    };
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piskvork_bot_plays_a_whole_game_on_a_server() {
    let outcome = engine_against_random(&figrid()).await;
    match &outcome.end {
        End::Five { line } => {
            assert!(line.len() >= 5);
            // figrid against random stones: the engine's five.
            assert_eq!(outcome.winner, Some(Seat(0)), "{outcome:?}");
        }
        End::BoardFull => assert_eq!(outcome.stones, 225),
        other => panic!("the game ends by a five or a full board, not {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashing_engine_resigns_its_seat_with_the_reason() {
    let dir = scratch("network-crash");
    let engine = fake_engine(
        &dir,
        "pbrain-crash",
        "if cmd == 'START':\n    say('OK')\n    sys.exit(3)",
    );
    let outcome = engine_against_random(&engine).await;
    assert_eq!(
        outcome.end,
        End::Resigned {
            seat: Seat(0),
            // The bot forfeits its seat for the cause; the game's resignation says both.
            reason: Some("engine_failure: pbrain-crash: crashed (exit status: 3)".into())
        }
    );
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert!(!alive(&dir));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashing_engine_in_a_tournament_is_booked_as_an_engine_failure() {
    let dir = scratch("tournament-crash");
    let engine = fake_engine(
        &dir,
        "pbrain-crash",
        "if cmd == 'START':\n    say('OK')\n    sys.exit(3)",
    );
    let server = TestServer::start().await;
    let url = server.ws_url();
    // The engine bot and a built-in bot, each a bot account (`--token` / SKIRMISH_BOT_TOKEN).
    let crash_token = server.account("crasher").await;
    let steady_token = server.account("steady").await;
    let mut piskvork = Command::new(env!("CARGO_BIN_EXE_skirmish-bots"));
    piskvork
        .args(["piskvork", "--url", &url, "--engine"])
        .arg(&engine)
        .args(["--name", "crasher", "--think-ms", "200", "--log", "warn"])
        .args(["--token", crash_token.expose()])
        .stdin(Stdio::null());
    let mut steady = Command::new(env!("CARGO_BIN_EXE_skirmish-bots"));
    steady
        .args([
            "play",
            "--url",
            &url,
            "--name",
            "steady",
            "--strategies",
            "random",
            "--log",
            "warn",
        ])
        .env("SKIRMISH_BOT_TOKEN", steady_token.expose())
        .stdin(Stdio::null());
    let _bots = Bots(vec![
        piskvork.spawn().expect("start the piskvork bot"),
        steady.spawn().expect("start the built-in bot"),
    ]);
    let http = reqwest::Client::new();
    let mut created = None;
    for _ in 0..200 {
        let response = http
            .post(server.http_url("/api/tournaments"))
            .bearer_auth(skirmish_server::testing::TestServer::TOURNAMENT_KEY)
            .json(&serde_json::json!({
                "game": {"game": "gomoku"},
                "entrants": [{"bot": "crasher", "strategy": "crasher"}, {"bot": "steady", "strategy": "random"}],
            }))
            .send()
            .await
            .unwrap();
        if response.status() == 201 {
            created = Some(response.json::<serde_json::Value>().await.unwrap());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let id = created.expect("both bots connected")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let standings = loop {
        let standings: skirmish_protocol::tournament::Standings = http
            .get(server.http_url(&format!("/api/tournaments/{id}/standings")))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if standings.state != skirmish_protocol::tournament::TournamentState::Running {
            break standings;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let crasher = standings
        .table
        .iter()
        .find(|l| standings.entrants[l.entrant].bot == "crasher")
        .unwrap();
    assert_eq!(crasher.losses, 2, "{crasher:?}");
    assert_eq!(crasher.forfeits_by.engine_failure, 2, "{crasher:?}");
    assert_eq!(crasher.board_losses, 0, "{crasher:?}");
}

/// `gomoku-bench`'s arguments for one opening at `think_ms`: `threat-search` against `random`,
/// unless an engine is named for a side.
fn bench_args(
    a_engine: Option<PathBuf>,
    b_engine: Option<PathBuf>,
    opening: &str,
    think_ms: u64,
) -> skirmish_bots::gomoku::bench::BenchArgs {
    skirmish_bots::gomoku::bench::BenchArgs {
        a: "threat-search".into(),
        b: "random".into(),
        b_engine,
        a_engine,
        a_weights: None,
        b_weights: None,
        rule: "freestyle".into(),
        think_ms,
        b_think_ms: None,
        openings: vec![opening.into()],
        games_per_opening: 1,
        seed: 1,
        size: 15,
        show: false,
    }
}

/// `gomoku-bench --a-engine` plays the engine as A, not the strategy named by `--a`: an engine
/// that refuses every move voids both games (`threat-search` would have beaten `random` in both),
/// and no process of it outlives the bench.
#[test]
fn gomoku_bench_plays_an_outside_engine_as_a() {
    let dir = scratch("bench-a");
    let engine = fake_engine(&dir, "pbrain-refuses", REFUSES);
    let report = skirmish_bots::gomoku::bench::run(&bench_args(Some(engine), None, "kagetsu", 300)).unwrap();
    let summary = report.summary;
    assert_eq!((summary.wins, summary.draws, summary.losses), (0, 0, 0));
    assert_eq!(report.void.len(), 2, "{:?}", report.void);
    for line in &report.void {
        assert!(line.contains("A's engine failed"), "{line}");
        assert!(line.contains("refused to move: `ERROR - no idea`"), "{line}");
    }
    assert!(!alive(&dir));
}

/// Issue 19: a bench never counts an engine's failure as a win on the board. B's engine refuses
/// every move; both games are left out of A's score and listed with the reason, where before
/// they were booked as two wins for `threat-search`.
#[test]
fn gomoku_bench_leaves_a_failing_engine_out_of_the_score() {
    let dir = scratch("bench-void");
    let engine = fake_engine(&dir, "pbrain-refuses", REFUSES);
    let report = skirmish_bots::gomoku::bench::run(&bench_args(None, Some(engine), "kagetsu", 300)).unwrap();
    let summary = report.summary;
    assert_eq!((summary.wins, summary.draws, summary.losses), (0, 0, 0));
    assert_eq!(report.void.len(), 2, "{:?}", report.void);
    assert!(
        report.void[0].starts_with("kagetsu, A black: B's engine failed"),
        "{:?}",
        report.void
    );
    assert!(
        report.void[1].starts_with("kagetsu, A white: B's engine failed"),
        "{:?}",
        report.void
    );
    assert!(!alive(&dir));
}

/// The reference run of issue 19's gomoku section: figrid against itself through the referee,
/// one opening with each colour, to the end.
#[test]
fn gomoku_bench_plays_figrid_against_itself() {
    let report =
        skirmish_bots::gomoku::bench::run(&bench_args(Some(figrid()), Some(figrid()), "kagetsu", 100))
            .unwrap();
    let summary = report.summary;
    assert_eq!(
        summary.wins + summary.draws + summary.losses,
        2,
        "{:?}",
        report.void
    );
}
