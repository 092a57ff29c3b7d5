//! The CAAI junqi engine driver against `caai/engine.py`, a small engine written for these tests
//! (python3, standard library only) that keeps the board in its own frame and fails loudly when
//! what it is told does not fit it, and against fake engines that crash, hang, or answer nonsense;
//! then `skirmish-bots caai` bot processes playing whole games on a real server.

use std::path::{Path, PathBuf};
mod common;

use common::{Bots, Dialect, alive, bot_process, host_bot_game, input, random_bot_process};
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::Budget;
use skirmish_bots::caai::CaaiStrategy;
use skirmish_bots::junqi::{JunqiStrategy, RandomMove};
use skirmish_games::junqi::{self, Action, End, Junqi, Layout, View};
use skirmish_games::{Game, Seat, Viewer};
use skirmish_protocol::{Clock, GameConfig, GameEvent, RoomConfig, ServerMsg};
use skirmish_server::testing::TestServer;

/// The test engine's source.
const ENGINE: &str = include_str!("caai/engine.py");

/// The layout the test engine deploys.
const ENGINE_LAYOUT: &str = "abccddeeffggghhhiiijjkklj";

fn budget(think_ms: u64) -> Budget {
    Budget::new(0, Duration::from_millis(think_ms))
}

fn scratch(test: &str) -> PathBuf {
    common::scratch("caai", test)
}

/// The test engine, copied into `dir` as `name` (it writes its pid, its input and any complaint
/// beside itself).
fn test_engine(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    common::executable(&path, ENGINE);
    path
}

/// A fake CAAI engine (see [`common::fake_engine`]).
fn fake_engine(dir: &Path, name: &str, body: &str) -> PathBuf {
    let dialect = Dialect {
        newline: "\n",
        upper: false,
    };
    common::fake_engine(dir, name, dialect, body)
}

/// A fake engine's answers to `INFO` and `START`, then `rest`.
fn deploys_then(rest: &str) -> String {
    format!(
        "if cmd == 'INFO':\n    say('NAME fake')\nelif cmd == 'START':\n    say('ARRAY {ENGINE_LAYOUT}')\n{rest}"
    )
}

fn complaint(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join("complaint")).ok()
}

fn reason(action: Action) -> String {
    match action {
        Action::Resign { reason: Some(reason) } => reason,
        other => panic!("expected a resignation with a reason, got {other:?}"),
    }
}

/// A battle in which `engine` (deployed for `seat` through `deploy`) is to move: the other seat
/// deploys at random and, when the engine is seat 1, makes a random first move.
fn engine_to_move(engine: &mut CaaiStrategy, seat: Seat, rng: &mut SmallRng) -> (Junqi, View) {
    let (mut game, _) = Junqi::new(junqi::Config::default()).unwrap();
    let layout = engine
        .deploy(&game.view(Viewer::Seat(seat)), budget(300), rng)
        .expect("the engine deploys");
    game.apply(seat, Action::Deploy { layout }).unwrap();
    let other = Seat(1 - seat.0);
    let mut random = RandomMove;
    let layout = random
        .deploy(&game.view(Viewer::Seat(other)), budget(300), rng)
        .unwrap();
    game.apply(other, Action::Deploy { layout }).unwrap();
    if seat == Seat(1) {
        let action = random.act(&game.view(Viewer::Seat(other)), budget(300), rng);
        game.apply(other, action).unwrap();
    }
    let view = game.view(Viewer::Seat(seat));
    (game, view)
}

/// Plays a whole game between the test engine in `engine_seat` and the `random` strategy through
/// the referee, each side seeing only its own view; every action must be accepted and the engine
/// must never resign.
fn whole_game(engine_seat: Seat, seed: u64) {
    let dir = scratch(&format!("game-{}-{seed}", engine_seat.0));
    let path = test_engine(&dir, "caai-test");
    let mut engine = CaaiStrategy::with_args(&path, vec![seed.to_string()]);
    let mut random = RandomMove;
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut game, _) = Junqi::new(junqi::Config::default()).unwrap();
    for seat in [Seat(0), Seat(1)] {
        let view = game.view(Viewer::Seat(seat));
        let layout = if seat == engine_seat {
            engine
                .deploy(&view, budget(1000), &mut rng)
                .expect("the engine deploys")
        } else {
            random.deploy(&view, budget(1000), &mut rng).unwrap()
        };
        game.apply(seat, Action::Deploy { layout })
            .expect("a legal layout");
    }
    assert_eq!(
        game.view(Viewer::Seat(engine_seat)).layout,
        Some(ENGINE_LAYOUT.parse::<Layout>().unwrap())
    );
    let mut engine_moves = 0;
    while game.outcome().is_none() {
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let action = if seat == engine_seat {
            engine_moves += 1;
            engine.act(&view, budget(2000), &mut rng)
        } else {
            random.act(&view, budget(2000), &mut rng)
        };
        if let Action::Resign { reason } = &action {
            panic!(
                "seat {} resigned: {reason:?}; the engine's complaint: {:?}",
                seat.0,
                complaint(&dir)
            );
        }
        game.apply(seat, action).expect("a legal move");
    }
    let outcome = game.outcome().unwrap().clone();
    assert!(!matches!(outcome.end, End::Resigned { .. }), "{outcome:?}");
    engine.finish(engine_seat, &outcome);
    assert_eq!(complaint(&dir), None);
    assert!(!alive(&dir), "the engine left after END");
    assert_eq!(engine.engine_pid(), None);
    let input = input(&dir);
    let first = engine_seat.0;
    assert_eq!(input[..2], ["INFO 1.0".to_owned(), format!("START {first} 1 31")]);
    let goes: Vec<&String> = input.iter().filter(|l| l.starts_with("GO ")).collect();
    assert_eq!(goes.len(), engine_moves);
    assert_eq!(goes[0] == "GO 0000 0 00", engine_seat == Seat(0), "{}", goes[0]);
    let results = input.iter().filter(|l| l.starts_with("RESULT ")).count();
    assert_eq!(
        results,
        engine_moves - 1,
        "every move but the last has its RESULT"
    );
    let w = match outcome.winner {
        Some(winner) if winner == engine_seat => 1,
        Some(_) => 0,
        None => 2,
    };
    assert_eq!(input.last().unwrap(), &format!("END {w}"));
}

#[test]
fn the_engine_plays_whole_games_as_red() {
    for seed in 1..=3 {
        whole_game(Seat(0), seed);
    }
}

#[test]
fn the_engine_plays_whole_games_as_blue_on_the_turned_board() {
    for seed in 1..=3 {
        whole_game(Seat(1), seed);
    }
}

#[test]
fn an_engine_that_crashes_resigns_with_its_exit_status() {
    let dir = scratch("crash");
    let path = fake_engine(
        &dir,
        "caai-crash",
        &deploys_then("elif cmd == 'GO':\n    sys.exit(3)"),
    );
    let mut engine = CaaiStrategy::new(&path);
    let mut rng = SmallRng::seed_from_u64(1);
    let (_, view) = engine_to_move(&mut engine, Seat(0), &mut rng);
    let reason = reason(engine.act(&view, budget(300), &mut rng));
    assert_eq!(reason, "caai-crash: crashed (exit status: 3)");
    assert!(!alive(&dir));
    assert_eq!(engine.engine_pid(), None);
}

#[test]
fn an_engine_that_never_answers_is_killed_and_resigns() {
    let dir = scratch("silent");
    let path = fake_engine(&dir, "caai-silent", &deploys_then("elif cmd == 'GO':\n    pass"));
    let mut engine = CaaiStrategy::new(&path);
    let mut rng = SmallRng::seed_from_u64(2);
    let (_, view) = engine_to_move(&mut engine, Seat(1), &mut rng);
    let reason = reason(engine.act(&view, budget(200), &mut rng));
    assert!(
        reason.starts_with("caai-silent: timed out after ") && reason.ends_with(" ms (waiting for BESTMOVE)"),
        "{reason}"
    );
    assert!(!alive(&dir));
}

#[test]
fn an_engine_that_moves_its_flag_resigns() {
    // The engine's flag stands at L3 in its own layout.
    let dir = scratch("flag");
    let path = fake_engine(
        &dir,
        "caai-flag",
        &deploys_then("elif cmd == 'GO':\n    say('BESTMOVE L3K3')"),
    );
    let mut engine = CaaiStrategy::new(&path);
    let mut rng = SmallRng::seed_from_u64(3);
    let (_, view) = engine_to_move(&mut engine, Seat(0), &mut rng);
    let reason = reason(engine.act(&view, budget(300), &mut rng));
    assert_eq!(
        reason,
        "caai-flag: illegal move `BESTMOVE L3K3` (the piece on L3 never moves (a flag or a landmine))"
    );
    assert!(!alive(&dir));
}

#[test]
fn a_blue_engine_that_moves_its_flag_resigns_naming_the_post_on_the_board() {
    // Seat 1's L3 is A1 on the board.
    let dir = scratch("blue-flag");
    let path = fake_engine(
        &dir,
        "caai-flag",
        &deploys_then("elif cmd == 'GO':\n    say('BESTMOVE L3K3')"),
    );
    let mut engine = CaaiStrategy::new(&path);
    let mut rng = SmallRng::seed_from_u64(4);
    let (_, view) = engine_to_move(&mut engine, Seat(1), &mut rng);
    let reason = reason(engine.act(&view, budget(300), &mut rng));
    assert_eq!(
        reason,
        "caai-flag: illegal move `BESTMOVE L3K3` (A1B1 on the board: the piece on A1 never moves (a flag or a landmine))"
    );
    assert!(!alive(&dir));
}

#[test]
fn an_engine_that_answers_garbage_resigns() {
    let dir = scratch("garbage");
    let path = fake_engine(
        &dir,
        "caai-garbage",
        &deploys_then("elif cmd == 'GO':\n    say('I think G0F0')"),
    );
    let mut engine = CaaiStrategy::new(&path);
    let mut rng = SmallRng::seed_from_u64(5);
    let (_, view) = engine_to_move(&mut engine, Seat(0), &mut rng);
    let reason = reason(engine.act(&view, budget(300), &mut rng));
    assert_eq!(
        reason,
        "caai-garbage: answered `I think G0F0` instead of BESTMOVE"
    );
    assert!(!alive(&dir));
}

#[test]
fn a_garbled_or_illegal_layout_fails_the_deployment() {
    let (game, _) = Junqi::new(junqi::Config::default()).unwrap();
    let view = game.view(Viewer::Seat(Seat(0)));
    let mut rng = SmallRng::seed_from_u64(6);
    for (answer, expected) in [
        (
            "ARRAY abc",
            "caai-layout: illegal layout `ARRAY abc` (not 25 piece letters a to l)",
        ),
        (
            // The flag (l) swapped with the captain at G0: out of its headquarters.
            "ARRAY lbccddeeffggghhhiiijjkkaj",
            "caai-layout: illegal layout `ARRAY lbccddeeffggghhhiiijjkkaj` (the flag must stand in a headquarters (L1 or L3 in one's own frame), not G0)",
        ),
        (
            "NAME again",
            "caai-layout: answered `NAME again` instead of ARRAY",
        ),
    ] {
        let dir = scratch("layout");
        let path = fake_engine(
            &dir,
            "caai-layout",
            &format!("if cmd == 'INFO':\n    say('NAME fake')\nelif cmd == 'START':\n    say('{answer}')"),
        );
        let mut engine = CaaiStrategy::new(&path);
        assert_eq!(
            engine.deploy(&view, budget(300), &mut rng),
            Err(expected.to_owned())
        );
        assert!(!alive(&dir));
        assert_eq!(input(&dir), ["INFO 1.0", "START 0 1 31"]);
    }
}

#[test]
fn an_engine_that_fails_to_start_or_never_names_itself_fails_the_deployment() {
    let (game, _) = Junqi::new(junqi::Config::default()).unwrap();
    let view = game.view(Viewer::Seat(Seat(1)));
    let mut rng = SmallRng::seed_from_u64(7);
    let mut engine = CaaiStrategy::new("/nonexistent/caai-nothing");
    let reason = engine.deploy(&view, budget(300), &mut rng).unwrap_err();
    assert!(reason.starts_with("caai-nothing: failed to start ("), "{reason}");

    let dir = scratch("mute");
    let path = fake_engine(&dir, "caai-mute", "pass");
    let mut engine = CaaiStrategy::new(&path);
    // Under a deployment clock of 1 s, the wait for the engine is cut to what the clock leaves.
    let reason = engine
        .deploy(&view, Budget::new(1000, Duration::from_millis(300)), &mut rng)
        .unwrap_err();
    assert!(
        reason.starts_with("caai-mute: timed out after ") && reason.ends_with(" ms (waiting for NAME)"),
        "{reason}"
    );
    assert!(!alive(&dir));
}

/// Bot processes, killed when dropped.
/// Plays a junqi game with a 10 s move clock on a fresh server between a
/// `skirmish-bots caai --engine <engine>` process in `engine_seat` and a `skirmish-bots play`
/// process's `random` strategy, and returns how it ended, with the server and the bot processes,
/// which live on (and so can still tell the engine `END`) until the caller drops them.
async fn engine_against_random(engine: &Path, engine_seat: Seat) -> (junqi::Outcome, (TestServer, Bots)) {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let engine_name = engine.file_name().unwrap().to_str().unwrap().to_owned();
    let bots = Bots(vec![
        bot_process(&[
            "caai",
            "--once",
            "--url",
            &url,
            "--engine",
            engine.to_str().unwrap(),
            "--think-ms",
            "500",
        ]),
        random_bot_process(&url),
    ]);
    let config = RoomConfig {
        name: Some("outside junqi engine".into()),
        game: GameConfig::Junqi(junqi::Config::default()),
        clock: Some(Clock {
            deploy_ms: 20_000,
            move_ms: 10_000,
            game_ms: 0,
        }),
        on_drop: None,
    };
    let other = Seat(1 - engine_seat.0);
    let seats = [(engine_seat, engine_name.as_str()), (other, "random")];
    let (mut host, room) = host_bot_game(&url, 2, config, &seats).await;
    let ended = host
        .recv_until(|m| {
            matches!(m, ServerMsg::Event { room: r, event: GameEvent::Junqi(junqi::Event::Ended { .. }), .. } if *r == room)
        })
        .await;
    let ServerMsg::Event {
        event: GameEvent::Junqi(junqi::Event::Ended { outcome }),
        ..
    } = ended
    else {
        unreachable!()
    };
    (outcome, (server, bots))
}

/// Waits (up to 10 s) for the engine in `dir` to be told `END`, and returns what it was told.
async fn told_end(dir: &Path) -> String {
    for _ in 0..200 {
        if let Some(end) = input(dir).into_iter().find(|l| l.starts_with("END")) {
            return end;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the engine was not told END: {:?}", input(dir));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caai_bot_plays_a_whole_game_on_a_server_and_is_told_the_end() {
    let dir = scratch("network");
    let engine = test_engine(&dir, "caai-test");
    let (outcome, _running) = engine_against_random(&engine, Seat(1)).await;
    assert!(!matches!(outcome.end, End::Resigned { .. }), "{outcome:?}");
    assert_eq!(
        outcome.layouts.0[1],
        Some(ENGINE_LAYOUT.parse::<Layout>().unwrap())
    );
    let w = match outcome.winner {
        Some(Seat(1)) => 1,
        Some(_) => 0,
        None => 2,
    };
    assert_eq!(told_end(&dir).await, format!("END {w}"));
    assert_eq!(complaint(&dir), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_with_an_illegal_layout_resigns_its_seat_with_the_reason() {
    let dir = scratch("network-layout");
    let engine = fake_engine(
        &dir,
        "caai-badlayout",
        "if cmd == 'INFO':\n    say('NAME fake')\nelif cmd == 'START':\n    say('ARRAY aaaaaaaaaaaaaaaaaaaaaaaaa')",
    );
    let (outcome, _running) = engine_against_random(&engine, Seat(0)).await;
    assert_eq!(
        outcome.end,
        End::Resigned {
            seat: Seat(0),
            reason: Some(
                "engine_failure: caai-badlayout: illegal layout `ARRAY aaaaaaaaaaaaaaaaaaaaaaaaa` (a layout holds exactly 1 1 2 2 2 2 3 3 3 3 2 1 pieces of ranks a to l; it has 25 field marshals)"
                    .into()
            )
        }
    );
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert!(!alive(&dir));
}

/// Issue 15, finding 6: with duplicate the default, the server used to deal junqi layouts, the
/// CAAI adapter never started its engine, and every seat resigned on its first move. Now junqi
/// entrants deploy their own layouts by default: two `skirmish-bots caai` programs with the test
/// engine play a default junqi tournament (nothing but the game and a clock given) to its end,
/// each engine deploying its own layout, with no forfeit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn caai_engines_play_a_default_junqi_tournament_to_its_end_without_forfeits() {
    use skirmish_protocol::tournament::{Dealing, MatchRecord, TournamentState, TournamentStatus};
    let server = TestServer::start().await;
    let url = server.ws_url();
    let mut processes = Vec::new();
    for name in ["caai-a", "caai-b"] {
        let dir = scratch(&format!("tournament-{name}"));
        let engine = test_engine(&dir, "engine.py");
        let token = server.account(name).await;
        processes.push(bot_process(&[
            "caai",
            "--url",
            &url,
            "--name",
            name,
            "--token",
            token.expose(),
            "--engine",
            engine.to_str().unwrap(),
            "--think-ms",
            "200",
            "--log",
            "warn",
        ]));
    }
    let _bots = Bots(processes);
    let http = reqwest::Client::new();
    for _ in 0..200 {
        let bots: Vec<serde_json::Value> = http
            .get(server.http_url("/api/bots"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if bots.len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let response = http
        .post(server.http_url("/api/tournaments"))
        .bearer_auth(skirmish_server::testing::TestServer::TOURNAMENT_KEY)
        .json(&serde_json::json!({
            "game": {"game": "junqi"},
            "clock": {"deploy_ms": 20000, "move_ms": 10000},
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let created: TournamentStatus = response.json().await.unwrap();
    assert_eq!(
        created.dealing,
        Dealing::Own,
        "junqi entrants deploy their own by default"
    );
    assert_eq!(created.config.duplicate, Some(false));
    assert_eq!(created.summary.entrants.len(), 2);
    let start = std::time::Instant::now();
    let status = loop {
        let status: TournamentStatus = http
            .get(server.http_url(&format!("/api/tournaments/{}", created.summary.id)))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if status.summary.state != TournamentState::Running {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(400),
            "the tournament did not end"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    assert_eq!(status.summary.state, TournamentState::Finished);
    assert_eq!(status.schedule.len(), 2, "both colours");
    for m in &status.schedule {
        let result = m.result.as_ref().expect("a result");
        println!("match {}: {} {:?}", m.index, result.end, result.points);
        assert!(
            result.forfeit.is_none(),
            "match {} forfeited: {result:?}",
            m.index
        );
        assert!(
            !matches!(result.end.as_str(), "forfeit" | "resigned"),
            "{result:?}"
        );
        let record: MatchRecord = http
            .get(server.http_url(&format!("/api/matches/{}", m.id)))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let layouts: Vec<String> = record
            .events
            .iter()
            .filter_map(|e| match e {
                GameEvent::Junqi(junqi::Event::Deployment { layout, .. }) => Some(layout.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(
            layouts,
            vec![ENGINE_LAYOUT.to_owned(); 2],
            "each engine deployed its own layout"
        );
    }
}

/// The outside engine is told the room's no-attack limit in `START`'s third field, the same
/// limit the referee ends the game by (and 0 when the rule is off), whichever seat it plays.
#[test]
fn start_tells_the_engine_the_rooms_no_attack_limit() {
    for (limit, seat) in [(31_u8, Seat(0)), (10, Seat(1)), (0, Seat(0))] {
        let dir = scratch(&format!("limit-{limit}"));
        let path = test_engine(&dir, "caai-test");
        let mut engine = CaaiStrategy::with_args(&path, vec!["1".to_owned()]);
        let mut rng = SmallRng::seed_from_u64(u64::from(limit));
        let (game, _) = Junqi::new(junqi::Config {
            no_attack_limit: limit,
        })
        .unwrap();
        engine
            .deploy(&game.view(Viewer::Seat(seat)), budget(300), &mut rng)
            .expect("the engine deploys");
        let start = input(&dir)
            .into_iter()
            .find(|line| line.starts_with("START"))
            .expect("a START line");
        let fields: Vec<&str> = start.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "{start}");
        assert_eq!(fields[3], limit.to_string(), "the limit in {start}");
        assert_eq!(complaint(&dir), None);
    }
}
