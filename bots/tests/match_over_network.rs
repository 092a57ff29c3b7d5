//! End to end: three `skirmish-bots` processes connect to a real server over WebSockets and play a
//! whole 18-round 3-player `double` match; the result adds up, and no bot was ever sent a hidden
//! plane.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use skirmish_games::Seat;
use skirmish_games::plane::{self, Config, Event, MatchFormat, Placement, Variant};
use skirmish_protocol::{ClientMsg, Clock, GameConfig, GameEvent, RoomConfig, RoomId, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

/// Bot processes, killed when dropped.
struct Bots(Vec<Child>);

impl Drop for Bots {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn transcript_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{name}-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

async fn wait_for_bots(client: &mut TestClient, count: usize) {
    for _ in 0..200 {
        if let ServerMsg::Bots { bots, .. } = client.request(ClientMsg::ListBots).await
            && bots.len() >= count
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{count} bots did not connect");
}

/// Every placement in a message outside the public round history.
fn placements(v: &Value, out: &mut Vec<Placement>) {
    match v {
        Value::Object(map) if map.contains_key("head") && map.contains_key("facing") => {
            out.push(serde_json::from_value(v.clone()).unwrap());
        }
        Value::Object(map) => {
            map.iter()
                .filter(|(k, _)| *k != "history")
                .for_each(|(_, v)| placements(v, out));
        }
        Value::Array(items) => items.iter().for_each(|i| placements(i, out)),
        _ => {}
    }
}

/// Checks that `seat`'s transcript never shows a plane of another seat before it was shot down
/// or its round ended.
fn check_no_leak(seat: Seat, transcript: &str, room: RoomId) {
    let mut own: HashSet<Placement> = HashSet::new();
    let mut revealed: HashSet<Placement> = HashSet::new();
    let mut lines = 0;
    for line in transcript.lines() {
        lines += 1;
        let msg: ServerMsg = serde_json::from_str(line).unwrap();
        match &msg {
            ServerMsg::Event {
                room: r,
                event: GameEvent::Plane(event),
                ..
            } if *r == room => match event {
                Event::RoundStarted { .. } | Event::RoundEnded { .. } => {
                    own.clear();
                    revealed.clear();
                    // The end of a round reveals everything: skip the check for this message.
                    continue;
                }
                Event::Deployment { seat: s, planes } => {
                    assert_eq!(*s, seat, "another seat's deployment was sent to {seat}");
                    own.extend(planes.iter().copied());
                }
                Event::Shot { plane: Some(p), .. } => {
                    revealed.insert(*p);
                }
                Event::MatchEnded { .. } => continue,
                _ => {}
            },
            _ => {}
        }
        let mut seen = Vec::new();
        placements(&serde_json::from_str(line).unwrap(), &mut seen);
        for p in seen {
            assert!(
                own.contains(&p) || revealed.contains(&p),
                "{seat} was sent hidden plane {p}: {line}"
            );
        }
    }
    assert!(lines > 100, "the transcript of {seat} has {lines} messages");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_bot_processes_play_a_full_match() {
    let server = TestServer::start().await;
    let strategies = ["bayes", "seed-cv", "random"];
    let paths: Vec<PathBuf> = strategies.iter().map(|s| transcript_path(s)).collect();
    let bots = Bots(
        strategies
            .iter()
            .zip(&paths)
            .map(|(strategy, path)| {
                Command::new(env!("CARGO_BIN_EXE_skirmish-bots"))
                    .args([
                        "play",
                        "--once",
                        "--url",
                        &server.ws_url(),
                        "--name",
                        &format!("{strategy}-bot"),
                    ])
                    .args(["--strategies", strategy, "--transcript"])
                    .arg(path)
                    .stdin(Stdio::null())
                    .spawn()
                    .expect("start a bot process")
            })
            .collect(),
    );
    let (mut host, _) = TestClient::join(&server.ws_url(), "Host").await;
    wait_for_bots(&mut host, 3).await;
    let config = RoomConfig {
        name: Some("bots".into()),
        game: GameConfig::Plane(Config {
            variant: Variant::Double,
            players: 3,
            format: MatchFormat::Rounds(18),
            ..Config::default()
        }),
        clock: Some(Clock {
            deploy_ms: 30_000,
            move_ms: 30_000,
            game_ms: 0,
        }),
        on_drop: None,
    };
    let ServerMsg::RoomCreated { room, .. } =
        host.request(ClientMsg::CreateRoom { config, sit: false }).await
    else {
        panic!("room created")
    };
    for strategy in strategies {
        let reply = host
            .request(ClientMsg::AddBot {
                room,
                seat: None,
                strategy: Some(strategy.into()),
                level: None,
            })
            .await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "bot added: {reply:?}");
    }
    // Watch the match to its end, as a spectator.
    let mut shots: Vec<(Seat, Seat, bool, u32, bool)> = Vec::new();
    let mut rounds = Vec::new();
    let outcome = loop {
        let msg = host.recv().await;
        let ServerMsg::Event {
            event: GameEvent::Plane(event),
            ..
        } = msg
        else {
            continue;
        };
        match event {
            Event::Shot {
                attacker,
                target,
                result,
                points,
                knocked_out,
                by_default,
                ..
            } => {
                assert!(!by_default, "no bot ran out of time");
                shots.push((
                    attacker,
                    target,
                    result == plane::ShotResult::Down,
                    points,
                    knocked_out,
                ));
            }
            Event::RoundEnded { result, .. } => {
                // Points the rules allow: 3 per knockout, plus 1 for every other plane shot down.
                let mut downs: HashMap<Seat, u32> = HashMap::new();
                let mut points = HashMap::<Seat, u32>::new();
                for (attacker, target, down, p, knocked_out) in shots.drain(..) {
                    if down {
                        *downs.entry(target).or_default() += 1;
                    }
                    assert_eq!(p, if knocked_out { 3 } else { u32::from(down) });
                    *points.entry(attacker).or_default() += p;
                }
                // A tie-break round after the 18th is played by the tied players only, so
                // count the players from the round's deployments (empty for those sitting out).
                let playing = result.deployments.0.iter().filter(|d| !d.is_empty()).count() as u32;
                assert!(
                    playing == 3 || (result.extra && playing == 2),
                    "round {}",
                    result.round
                );
                let knocked: u32 = downs.values().filter(|d| **d == 2).count() as u32;
                assert_eq!(
                    knocked,
                    playing - 1,
                    "all but one player of round {} are knocked out",
                    result.round
                );
                let survivor_lost = downs.get(&result.survivor).copied().unwrap_or(0);
                assert!(survivor_lost <= 1);
                let total: u32 = result.points.0.iter().sum();
                // Each player knocked out gave 1 for its first plane and 3 for its last.
                assert_eq!(total, 4 * (playing - 1) + survivor_lost, "round {}", result.round);
                for (seat, p) in result.points.iter() {
                    assert_eq!(*p, points.get(&seat).copied().unwrap_or(0));
                }
                rounds.push(result);
            }
            Event::MatchEnded { outcome } => break outcome,
            _ => {}
        }
    };
    assert!(rounds.len() >= 18, "18 rounds, plus extra rounds for a tie");
    for seat in Seat::all(3) {
        let sum: u32 = rounds.iter().map(|r| r.points[seat]).sum();
        assert_eq!(
            outcome.totals[seat], sum,
            "{seat}'s total is the sum of its rounds"
        );
    }
    let top = *outcome.totals.0.iter().max().unwrap();
    assert_eq!(
        outcome.totals[outcome.winner], top,
        "the winner is the top scorer"
    );
    assert_eq!(outcome.placings[outcome.winner], 1);
    // Give the bots a moment to write their last lines, then read what each was sent.
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(bots);
    let snapshot = host.log.iter().rev().find_map(|m| match m {
        ServerMsg::Room(snapshot) => Some(snapshot.clone()),
        _ => None,
    });
    check_transcripts(&snapshot.expect("the spectator's snapshot"), &paths, room);
}

fn check_transcripts(snapshot: &skirmish_protocol::RoomSnapshot, paths: &[PathBuf], room: RoomId) {
    for info in &snapshot.room.seats {
        let occupant = info.occupant.as_ref().expect("every seat was filled");
        let strategy = occupant.bot.as_deref().expect("a bot");
        let index = ["bayes", "seed-cv", "random"]
            .iter()
            .position(|s| *s == strategy)
            .unwrap();
        let transcript = std::fs::read_to_string(&paths[index]).expect("the bot wrote its transcript");
        check_no_leak(info.seat, &transcript, room);
    }
}
