//! The `skirmish-bots` program itself, started as a process: its connection options take effect
//! whether given as flags or as environment variables, and a flag wins over its variable; and a
//! program killed mid-match and started again takes its seat back with the token it kept.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use skirmish_games::{Seat, plane};
use skirmish_protocol::{
    Action, BotSummary, ClientMsg, GameConfig, GameEvent, GameKind, Occupant, ResumeToken, RoomConfig,
    RoomId, SeatRef, ServerMsg,
};
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

/// The occupant of `seat` in `room`, as the room list shows it now.
async fn occupant(client: &mut TestClient, room: RoomId, seat: Seat) -> Option<Occupant> {
    let ServerMsg::Rooms { rooms, .. } = client.request(ClientMsg::ListRooms).await else {
        panic!("a room list")
    };
    let summary = rooms
        .into_iter()
        .find(|r| r.id == room)
        .expect("the room is listed");
    summary.seats.into_iter().find(|s| s.seat == seat)?.occupant
}

/// Waits until `seat`'s occupant is connected (or not), for up to 20 s; returns it.
async fn connected(client: &mut TestClient, room: RoomId, seat: Seat, wanted: bool) -> Occupant {
    for _ in 0..400 {
        if let Some(now) = occupant(client, room, seat).await
            && now.connected == wanted
        {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("seat {seat} never became connected={wanted}");
}

#[tokio::test]
async fn a_bot_program_started_again_with_its_resume_folder_takes_its_seat_back() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let dir = std::env::temp_dir().join(format!("skirmish-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        "--url",
        url.as_str(),
        "--name",
        "keeper",
        "--strategies",
        "random,seed-cv",
        "--resume-dir",
        dir.to_str().expect("a UTF-8 path"),
    ];
    let (mut alice, _) = TestClient::join(&url, "Alice").await;
    let mut bot = play(&args, &[]);
    assert_eq!(bots(&mut alice, 1).await.len(), 1, "the bot connected");

    // Alice plays plane battle against the bot, asked to play seed-cv (not its first strategy).
    let config = RoomConfig {
        name: None,
        game: GameConfig::Plane(plane::Config {
            variant: plane::Variant::Double,
            players: 2,
            format: plane::MatchFormat::Rounds(1),
            ..plane::Config::default()
        }),
        clock: None,
        on_drop: None,
    };
    let ServerMsg::RoomCreated { room, .. } =
        alice.request(ClientMsg::CreateRoom { config, sit: true }).await
    else {
        panic!("room created")
    };
    let added = alice
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: Some("seed-cv".to_owned()),
            level: None,
        })
        .await;
    assert!(matches!(added, ServerMsg::Done { .. }), "{added:?}");
    alice
        .recv_until(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Plane(plane::Event::Ready { seat: Seat(1), .. }),
                    ..
                }
            )
        })
        .await;
    let before = connected(&mut alice, room, Seat(1), true).await;

    // The program dies mid-match (SIGKILL: nothing of it runs after the signal).
    bot.0.kill().expect("SIGKILL the bot");
    let _ = bot.0.wait();
    connected(&mut alice, room, Seat(1), false).await;

    // The folder holds its token, for its owner only; with it the seat comes back with the
    // strategy it was asked to play.
    let path = dir.join("keeper.token");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path)
            .expect("the token file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the token file is its owner's only");
    }
    let token = std::fs::read_to_string(&path).expect("the token file");
    let token = ResumeToken::try_from(token.trim().to_owned()).expect("a token");
    let (probe, welcome) = TestClient::resume(&url, "keeper", token).await;
    let ServerMsg::Welcome { player, seats, .. } = welcome else {
        panic!("welcomed back: {welcome:?}")
    };
    assert_eq!(player, before.player, "the same player");
    assert_eq!(
        seats,
        [SeatRef {
            room,
            seat: Seat(1),
            strategy: Some("seed-cv".to_owned()),
        }]
    );
    drop(probe);
    connected(&mut alice, room, Seat(1), false).await;

    // Started again, the program resumes with the token it kept and plays the seat on.
    let _bot = play(&args, &[]);
    let after = connected(&mut alice, room, Seat(1), true).await;
    assert_eq!(after.player, before.player, "the bot took its own seat back");
    assert_eq!(after.took_over_from, None, "no takeover");
    let deploy = plane::Action::Deploy {
        planes: vec![
            plane::Placement::new("C1".parse().unwrap(), plane::Facing::Up),
            plane::Placement::new("E6".parse().unwrap(), plane::Facing::Up),
        ],
    };
    alice
        .send(ClientMsg::Act {
            room,
            seat: None,
            action: Action::Plane(deploy),
            info: None,
        })
        .await;
    let cells: Vec<plane::Cell> = ('A'..='I')
        .flat_map(|col| (1..=9).map(move |row| format!("{col}{row}").parse().unwrap()))
        .collect();
    let mut next = cells.iter();
    loop {
        let msg = alice.recv().await;
        let ServerMsg::Event {
            event: GameEvent::Plane(event),
            ..
        } = msg
        else {
            continue;
        };
        match event {
            plane::Event::Turn { attacker: Seat(0) } => {
                let cell = *next.next().expect("a cell not yet shot");
                alice
                    .send(ClientMsg::Act {
                        room,
                        seat: None,
                        action: Action::Plane(plane::Action::Fire {
                            target: Seat(1),
                            cell,
                        }),
                        info: None,
                    })
                    .await;
            }
            plane::Event::Shot {
                attacker: Seat(1),
                by_default,
                ..
            } => {
                assert!(!by_default, "the bot fired, not the referee");
                break;
            }
            plane::Event::MatchEnded { .. } => panic!("the match ended before the bot fired"),
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
