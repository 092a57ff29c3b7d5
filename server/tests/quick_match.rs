//! Quick match (快速开始) and bots by level, over real WebSockets: people quick-matching one game
//! meet in one room; one alone gets bots of the quick match's level after the wait and plays the
//! match out; a flood or a double click makes no more rooms than the room limits allow; nobody
//! is quick-matched into a room a person made for friends; a bot added by level plays the level's
//! strategy with the level's budget, keeps its level across a restart, and the levels are
//! built-in strategies, each no weaker than the one below.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use common::*;
use skirmish_games::Seat;
use skirmish_protocol::{
    Action, BotLevel, ClientMsg, ErrorCode, GameConfig, GameEvent, GameKind, RoomConfig, RoomId, RoomStatus,
    RoomSummary, ServerMsg, tic_tac_toe,
};
use skirmish_server::Limits;
use skirmish_server::testing::{TestClient, TestServer};

/// A server whose quick-match rooms wait `wait_ms` for people.
async fn server(wait_ms: u64) -> TestServer {
    TestServer::start_with(Limits {
        quick_match_wait_ms: wait_ms,
        ..Limits::default()
    })
    .await
}

/// Quick-matches `client` into a room of `game`: the room and seat of its `seated`.
async fn quick(client: &mut TestClient, game: GameKind) -> (RoomId, Seat) {
    match client.request(ClientMsg::QuickMatch { game, name: None }).await {
        ServerMsg::Seated { room, seat, .. } => (room, seat),
        other => panic!("expected seated, got {other:?}"),
    }
}

/// Every room the lobby lists.
async fn rooms(client: &mut TestClient) -> Vec<RoomSummary> {
    match client.request(ClientMsg::ListRooms).await {
        ServerMsg::Rooms { rooms, .. } => rooms,
        other => panic!("expected rooms, got {other:?}"),
    }
}

/// The first snapshot of `room` whose status is `status`, received already or to come.
async fn snapshot(client: &mut TestClient, room: RoomId, status: RoomStatus) -> RoomSummary {
    let pick = |m: &ServerMsg| match m {
        ServerMsg::Room(s) if s.room.id == room && s.room.status == status => Some(s.room.clone()),
        _ => None,
    };
    match client.log.iter().find_map(pick) {
        Some(summary) => summary,
        None => wait_for(client, pick).await,
    }
}

fn refusal(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn two_people_quick_matching_the_same_game_meet_in_one_room() {
    let server = server(60_000).await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (room, ann_seat) = quick(&mut ann, GameKind::Gomoku).await;
    let (bobs_room, bob_seat) = quick(&mut bob, GameKind::Gomoku).await;
    assert_eq!(bobs_room, room, "the second person joins the first one's room");
    assert_ne!(ann_seat, bob_seat);
    // Both seats are people's: the match starts at once, without bots and without the wait.
    let playing = snapshot(&mut ann, room, RoomStatus::Playing).await;
    assert!(
        playing
            .seats
            .iter()
            .all(|s| s.occupant.as_ref().is_some_and(|o| o.bot.is_none()))
    );
    assert_eq!(playing.config.game.kind(), GameKind::Gomoku);
    assert_eq!(rooms(&mut bob).await.len(), 1, "one room for the two of them");
    // A third person finds no waiting room with a free seat: a new one.
    let (mut cleo, _) = TestClient::join(&server.ws_url(), "Cleo").await;
    let (cleos_room, _) = quick(&mut cleo, GameKind::Gomoku).await;
    assert_ne!(cleos_room, room);
}

/// Plays tic-tac-toe as `client` in `room` (seat `seat`) until the match ends, marking the first
/// free cell at each turn; its outcome.
async fn play_tic_tac_toe(client: &mut TestClient, room: RoomId, seat: Seat) -> tic_tac_toe::Outcome {
    let mut taken = HashSet::new();
    loop {
        let msg = client
            .recv_until(|m| {
                matches!(m, ServerMsg::YourTurn { room: r, .. } | ServerMsg::Event { room: r, .. } if *r == room)
            })
            .await;
        match msg {
            ServerMsg::Event {
                event: GameEvent::TicTacToe(event),
                ..
            } => match event {
                tic_tac_toe::Event::Placed { cell, .. } => {
                    taken.insert(cell);
                }
                tic_tac_toe::Event::Ended { outcome } => return outcome,
                tic_tac_toe::Event::Started => {}
            },
            ServerMsg::YourTurn { seat: s, .. } if s == seat => {
                let cell = (0..9u8)
                    .find(|c| !taken.contains(c))
                    .expect("a free cell on my turn");
                client
                    .send(ClientMsg::Act {
                        room,
                        seat: None,
                        action: Action::TicTacToe(tic_tac_toe::Action::Place { cell }),
                        info: None,
                    })
                    .await;
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn one_alone_gets_bots_of_the_quick_match_level_after_the_wait_and_plays_the_match() {
    let server = server(300).await;
    let pool = Bots::start(
        &server,
        &["pool-1"],
        &["seed-rules", "seed-junior", "random"],
        None,
    )
    .await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    let (room, seat) = quick(&mut ann, GameKind::TicTacToe).await;
    let waiting = snapshot(&mut ann, room, RoomStatus::Waiting).await;
    assert_eq!(
        waiting.owner,
        waiting.seats[seat.0 as usize].occupant.as_ref().unwrap().player
    );
    // After the wait a bot of the medium level fills the other seat, and the match starts.
    let playing = snapshot(&mut ann, room, RoomStatus::Playing).await;
    let bot = playing.seats[1 - seat.0 as usize]
        .occupant
        .clone()
        .expect("a bot took the seat");
    assert_eq!(bot.level, Some(BotLevel::Medium));
    assert_eq!(
        bot.bot.as_deref(),
        Some("seed-junior"),
        "tic-tac-toe's medium level"
    );
    // The match plays to its end against the bot.
    play_tic_tac_toe(&mut ann, room, seat).await;
    pool.stop().await;
}

#[tokio::test]
async fn a_quick_match_room_left_empty_does_not_start_with_bots_alone() {
    let server = server(200).await;
    let pool = Bots::start(&server, &["pool-1"], &["random"], None).await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    let (room, _) = quick(&mut ann, GameKind::TicTacToe).await;
    let left = ann.request(ClientMsg::LeaveRoom { room }).await;
    assert!(matches!(left, ServerMsg::Done { .. }), "{left:?}");
    tokio::time::sleep(Duration::from_millis(600)).await;
    let listed = rooms(&mut ann).await;
    let summary = listed
        .iter()
        .find(|r| r.id == room)
        .expect("the room waits, to expire");
    assert_eq!(summary.status, RoomStatus::Waiting);
    assert!(
        summary.seats.iter().all(|s| s.occupant.is_none()),
        "no bots play for nobody"
    );
    pool.stop().await;
}

#[tokio::test]
async fn a_second_quick_match_from_the_same_person_makes_no_second_room() {
    let server = server(60_000).await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    // A double click: both frames leave before either answer comes.
    let first = ann
        .send(ClientMsg::QuickMatch {
            game: GameKind::Junqi,
            name: None,
        })
        .await;
    let second = ann
        .send(ClientMsg::QuickMatch {
            game: GameKind::Junqi,
            name: None,
        })
        .await;
    let mut seated = Vec::new();
    for req in [first, second] {
        let answer = ann
            .recv_until(|m| skirmish_server::testing::answers(m, req))
            .await;
        let ServerMsg::Seated { room, seat, .. } = answer else {
            panic!("expected seated, got {answer:?}");
        };
        seated.push((room, seat));
    }
    assert_eq!(seated[0], seated[1], "the same seat, answered twice");
    let listed = rooms(&mut ann).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    let taken = listed[0].seats.iter().filter(|s| s.occupant.is_some()).count();
    assert_eq!(taken, 1, "one seat, not two");
}

#[tokio::test]
async fn quick_match_flooding_makes_no_more_rooms_than_the_room_limits() {
    let limits = Limits {
        quick_match_wait_ms: 60_000,
        rooms_per_player: 2,
        rooms_per_address: 3,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    for _ in 0..20 {
        ann.send(ClientMsg::QuickMatch {
            game: GameKind::Gomoku,
            name: None,
        })
        .await;
    }
    let (room, _) = quick(&mut ann, GameKind::Gomoku).await;
    assert_eq!(rooms(&mut ann).await.len(), 1, "twenty-one presses, one room");
    // Leaving and pressing again finds the same room waiting: still one.
    ann.request(ClientMsg::LeaveRoom { room }).await;
    assert_eq!(quick(&mut ann, GameKind::Gomoku).await.0, room);
    // Other games make rooms, up to the player's limit.
    quick(&mut ann, GameKind::Junqi).await;
    let refused = ann
        .request(ClientMsg::QuickMatch {
            game: GameKind::Plane,
            name: None,
        })
        .await;
    assert_eq!(refusal(&refused), ErrorCode::TooManyRooms);
    // Another player from the same address: up to the address's limit.
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    quick(&mut bob, GameKind::Plane).await;
    let refused = bob
        .request(ClientMsg::QuickMatch {
            game: GameKind::TicTacToe,
            name: None,
        })
        .await;
    assert_eq!(refusal(&refused), ErrorCode::TooManyRoomsFromAddress);
    assert_eq!(rooms(&mut bob).await.len(), 3);
}

#[tokio::test]
async fn a_quick_match_names_its_room_as_asked_and_refuses_a_bad_name() {
    let server = server(60_000).await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    let refused = ann
        .request(ClientMsg::QuickMatch {
            game: GameKind::Gomoku,
            name: Some("\u{200b}\u{200b}".into()),
        })
        .await;
    assert_eq!(refusal(&refused), ErrorCode::BadConfig);
    assert!(
        rooms(&mut ann).await.is_empty(),
        "a refused quick match makes no room"
    );
    let seated = ann
        .request(ClientMsg::QuickMatch {
            game: GameKind::Gomoku,
            name: Some("快速开始 · 五子棋".into()),
        })
        .await;
    assert!(matches!(seated, ServerMsg::Seated { .. }), "{seated:?}");
    let listed = rooms(&mut ann).await;
    assert_eq!(listed[0].config.name.as_deref(), Some("快速开始 · 五子棋"));
}

#[tokio::test]
async fn quick_match_never_seats_anyone_in_a_room_made_for_friends() {
    let server = server(60_000).await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    let config = RoomConfig {
        name: Some("Ann and friends".into()),
        game: GameConfig::Gomoku(Default::default()),
        clock: None,
        on_drop: None,
    };
    let friends = create(&mut ann, config, true).await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (room, _) = quick(&mut bob, GameKind::Gomoku).await;
    assert_ne!(
        room, friends,
        "a room made with create_room is not offered to quick match"
    );
    let listed = rooms(&mut bob).await;
    let friends = listed.iter().find(|r| r.id == friends).unwrap();
    assert_eq!(friends.seats.iter().filter(|s| s.occupant.is_some()).count(), 1);
}

#[tokio::test]
async fn a_bot_added_by_level_plays_the_levels_strategy_with_its_budget() {
    let server = server(60_000).await;
    let dir = std::env::temp_dir().join(format!("skirmish-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pool = Bots::start(
        &server,
        &["pool-1"],
        &["pattern-search", "pattern-search-medium", "pattern-search-easy"],
        Some(&dir),
    )
    .await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "Ann").await;
    let config = RoomConfig {
        name: None,
        game: GameConfig::Gomoku(Default::default()),
        clock: None,
        on_drop: None,
    };
    let room = create(&mut ann, config, true).await;
    let reply = ann
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: None,
            level: Some(BotLevel::Hard),
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let playing = snapshot(&mut ann, room, RoomStatus::Playing).await;
    let bot = playing.seats[1].occupant.clone().unwrap();
    assert_eq!(
        (bot.bot.as_deref(), bot.level),
        (Some("pattern-search"), Some(BotLevel::Hard))
    );
    // The bot was told the level's budget with its seat.
    let transcript = dir.join("pool-1.jsonl");
    let mut told = None;
    for _ in 0..100 {
        let text = std::fs::read_to_string(&transcript).unwrap_or_default();
        told = text
            .lines()
            .filter_map(|l| serde_json::from_str::<ServerMsg>(l).ok())
            .find_map(|m| match m {
                ServerMsg::Seated {
                    room: r, think_ms, ..
                } if r == room => Some(think_ms),
                _ => None,
            });
        if told.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(told, Some(Some(1000)), "hard gomoku thinks up to 1 s a move");
    pool.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_level_is_a_built_in_strategy_no_weaker_than_the_level_below_and_the_page_says_the_same() {
    use skirmish_server::lobby::levels::level_play;
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../web-client/bot_levels.js"
    ))
    .expect("the web client's level table");
    for (game, strategies, _) in skirmish_bots::player::built_in() {
        let mut below: Option<(usize, u64)> = None;
        for level in BotLevel::ALL {
            let play = level_play(game, level).expect("every game has every level");
            // Strongest first: a higher level's strategy comes no later, and with no less time.
            let rank = strategies
                .iter()
                .position(|s| *s == play.strategy)
                .unwrap_or_else(|| panic!("{game:?} {level:?}: `{}` is no built-in strategy", play.strategy));
            let think = play.think_ms.unwrap_or(0);
            if let Some((rank_below, think_below)) = below {
                assert!(
                    rank < rank_below || (rank == rank_below && think > think_below),
                    "{game:?} {level:?} is not stronger than the level below"
                );
            }
            below = Some((rank, think));
            let ms = play.think_ms.map_or("null".to_owned(), |ms| ms.to_string());
            let entry = format!("{}: ['{}', {ms}]", level.as_str(), play.strategy);
            let line = page
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{}: {{", game.tag())))
                .unwrap_or_else(|| panic!("bot_levels.js has no line for {game:?}"));
            assert!(
                line.contains(&entry),
                "bot_levels.js says otherwise for {game:?}: {line} (server: {entry})"
            );
        }
    }
}

#[tokio::test]
async fn a_bots_level_survives_a_restart_of_the_server() {
    let store = skirmish_server::store::Store::in_memory()
        .await
        .expect("a database in memory");
    let first = TestServer::start_with_store(Limits::default(), store.clone()).await;
    let pool = Bots::start(
        &first,
        &["pool-1"],
        &["seed-rules", "seed-junior", "random"],
        None,
    )
    .await;
    let (mut ann, welcome) = TestClient::join(&first.ws_url(), "Ann").await;
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("a welcome: {welcome:?}")
    };
    let config = RoomConfig {
        name: None,
        game: GameConfig::TicTacToe(Default::default()),
        clock: None,
        on_drop: None,
    };
    let room = create(&mut ann, config, true).await;
    let reply = ann
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: None,
            level: Some(BotLevel::Easy),
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let playing = snapshot(&mut ann, room, RoomStatus::Playing).await;
    assert_eq!(
        playing.seats[1].occupant.as_ref().and_then(|o| o.level),
        Some(BotLevel::Easy)
    );
    drop(ann);
    pool.stop().await;
    first.stop().await;
    let second = TestServer::start_with_store(Limits::default(), store).await;
    let (mut ann, _) = TestClient::resume(&second.ws_url(), "Ann", resume).await;
    let restored = snapshot(&mut ann, room, RoomStatus::Playing).await;
    let bot = restored.seats[1].occupant.clone().expect("the bot's seat");
    assert_eq!(
        (bot.bot.as_deref(), bot.level),
        (Some("random"), Some(BotLevel::Easy))
    );
}
