//! Tournament bots and their clocks and connections: one that lets its clock run out loses the
//! match (the reason recorded) and the tournament goes on; one whose connection drops and comes
//! back within the grace period takes its seat back and plays the match out.

mod common;

use std::time::Duration;

use skirmish_protocol::tournament::{MatchState, TournamentState};
use skirmish_protocol::{BotOffer, ClientMsg, ErrorCode, GameKind, PROTOCOL_VERSION, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_never_moves_loses_each_match_on_time() {
    let server = TestServer::start().await;
    let stop = CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "mover".to_owned());
    options.token = Some(server.account("mover").await);
    options.set_strategies(&["random".to_owned()]);
    tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    // A bot that takes seats and never acts.
    let mut silent = TestClient::connect(&server.ws_url()).await;
    let welcome = silent
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "silent".to_owned(),
            bot: Some(BotOffer {
                games: [(GameKind::Gomoku, vec!["nothing".to_owned()])].into(),
                version: None,
            }),
            resume: None,
            key: None,
            token: Some(server.account("silent").await),
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let base = server.http_url("");
    let id = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "mover", "strategy": "random"}, {"bot": "silent", "strategy": "nothing"}],
            "clock": {"move_ms": 2000},
        }),
    )
    .await
    .summary
    .id
    .to_string();
    let status = common::tournament_over(&base, &id).await;
    assert_eq!(status.summary.state, TournamentState::Finished);
    assert_eq!(status.schedule.len(), 2, "both colours");
    let silent_index = status
        .summary
        .entrants
        .iter()
        .position(|e| e.bot == "silent")
        .unwrap();
    for m in &status.schedule {
        assert_eq!(m.state, MatchState::Finished);
        let result = m.result.as_ref().expect("a result");
        let forfeit = result.forfeit.as_ref().expect("lost by forfeit");
        assert_eq!(m.seats[forfeit.seat.index()], silent_index);
        assert_eq!(forfeit.reason, "timed_out");
        assert_eq!(result.end, "forfeit");
        assert_eq!(result.placings[forfeit.seat.index()], 2);
    }
    // The standings count the two losses as forfeits on time, apart from losses on the board.
    let standings: serde_json::Value = reqwest::get(format!("{base}/api/tournaments/{id}/standings"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let standings: skirmish_protocol::tournament::Standings = serde_json::from_value(standings).unwrap();
    let silent_line = standings
        .table
        .iter()
        .find(|l| l.entrant == silent_index)
        .unwrap();
    assert_eq!(silent_line.losses, 2);
    assert_eq!(silent_line.forfeits, 2);
    assert_eq!(silent_line.forfeits_by.timed_out, 2, "{silent_line:?}");
    assert_eq!(silent_line.board_losses, 0);
    stop.cancel();
}

/// Plays `client`'s gomoku turns (the first free point in a scan of the board) until it has
/// placed `stones` stones or the tournament has no more turns for it within 3 s.
async fn play_stones(client: &mut TestClient, stones: usize, next: &mut usize) {
    use skirmish_protocol::{Action, GameView, gomoku};
    let mut placed = 0;
    while placed < stones {
        let msg = match tokio::time::timeout(Duration::from_secs(3), client.recv()).await {
            Ok(msg) => msg,
            Err(_) => return,
        };
        if let ServerMsg::YourTurn {
            room,
            seat,
            view: Some(GameView::Gomoku(view)),
            ..
        } = msg
        {
            let taken: std::collections::HashSet<gomoku::Point> =
                view.moves.iter().map(|m| m.point).collect();
            let point = loop {
                let point = gomoku::Point {
                    x: u8::try_from(*next % 15).unwrap(),
                    y: u8::try_from(*next / 15 % 15).unwrap(),
                };
                *next += 1;
                if !taken.contains(&point) {
                    break point;
                }
            };
            client
                .send(ClientMsg::Act {
                    room,
                    seat: Some(seat),
                    action: Action::Gomoku(gomoku::Action::Place { point }),
                    info: None,
                })
                .await;
            placed += 1;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_reconnects_within_the_grace_period_resumes_its_match() {
    let server = TestServer::start().await;
    let stop = CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "mover".to_owned());
    options.token = Some(server.account("mover").await);
    options.set_strategies(&["random".to_owned()]);
    tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    let token = server.account("phoenix").await;
    let hello = |resume| ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "phoenix".to_owned(),
        bot: Some(BotOffer {
            games: [(GameKind::Gomoku, vec!["scan".to_owned()])].into(),
            version: None,
        }),
        resume,
        key: None,
        token: Some(token.clone()),
        turn_view: Some(true),
        ladder: Vec::new(),
    };
    let mut phoenix = TestClient::connect(&server.ws_url()).await;
    let ServerMsg::Welcome {
        resume: resume_token, ..
    } = phoenix.request(hello(None)).await
    else {
        panic!("welcomed")
    };
    let base = server.http_url("");
    let id = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "mover", "strategy": "random"}, {"bot": "phoenix", "strategy": "scan"}],
            "clock": {"move_ms": 20000},
            "grace_ms": 20000,
            "parallel": 1,
        }),
    )
    .await
    .summary
    .id
    .to_string();
    let mut next = 0;
    play_stones(&mut phoenix, 3, &mut next).await;
    // The connection drops mid-match; the bot comes back with its token and plays on.
    drop(phoenix);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut phoenix = TestClient::connect(&server.ws_url()).await;
    let ServerMsg::Welcome { seats, .. } = phoenix.request(hello(Some(resume_token))).await else {
        panic!("welcomed back")
    };
    assert_eq!(seats.len(), 1, "its seat is kept");
    // Three seconds without a turn may be a slow machine rather than the end: ask.
    let mut status = common::tournament_status(&base, &id).await;
    for _ in 0..20 {
        if status.summary.state == TournamentState::Finished {
            break;
        }
        play_stones(&mut phoenix, 1000, &mut next).await;
        status = common::tournament_status(&base, &id).await;
    }
    assert_eq!(status.summary.state, TournamentState::Finished);
    for m in &status.schedule {
        let result = m.result.as_ref().expect("a result");
        assert!(
            result.forfeit.is_none(),
            "match {} was played out: {result:?}",
            m.index
        );
        assert_ne!(result.end, "forfeit");
    }
    stop.cancel();
}

/// A bot account's connection that takes gomoku seats as strategy `nothing` and never acts.
async fn silent_bot(server: &TestServer, name: &str) -> TestClient {
    let mut client = TestClient::connect(&server.ws_url()).await;
    let welcome = client
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.to_owned(),
            bot: Some(BotOffer {
                games: [(GameKind::Gomoku, vec!["nothing".to_owned()])].into(),
                version: None,
            }),
            resume: None,
            key: None,
            token: Some(server.account(name).await),
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    client
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_whose_runner_panics_stops_and_says_so() {
    let server = TestServer::start().await;
    let mut first = silent_bot(&server, "first").await;
    let _second = silent_bot(&server, "second").await;
    let base = server.http_url("");
    let status = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "first", "strategy": "nothing"}, {"bot": "second", "strategy": "nothing"}],
            "clock": {"move_ms": 60000},
            "parallel": 1,
        }),
    )
    .await;
    let id = status.summary.id;
    // A match is being played when the runner dies.
    let mut room = None;
    for _ in 0..100 {
        let status = common::tournament_status(&base, &id.to_string()).await;
        room = status.schedule.iter().find_map(|m| m.room);
        if room.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let room = room.expect("a match in play");
    skirmish_server::testing::fault_runner(id);
    let mut status = common::tournament_status(&base, &id.to_string()).await;
    for _ in 0..50 {
        if status.summary.state != TournamentState::Running {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        status = common::tournament_status(&base, &id.to_string()).await;
    }
    // Stopped as a cancel stops it: shown, and stored (the list reads the store).
    assert_eq!(status.summary.state, TournamentState::Cancelled);
    assert!(
        status
            .schedule
            .iter()
            .all(|m| m.state == MatchState::Cancelled && m.room.is_none()),
        "{:?}",
        status.schedule
    );
    let listed: Vec<skirmish_protocol::tournament::TournamentSummary> =
        reqwest::get(format!("{base}/api/tournaments"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    let listed = listed.iter().find(|t| t.id == id).expect("listed");
    assert_eq!(listed.state, TournamentState::Cancelled);
    // Its match was abandoned: its players are told, and the room leaves the lobby rather than
    // waiting for a runner.
    let code = common::wait_for(&mut first, |m| match m {
        ServerMsg::RoomClosed {
            room: closed, code, ..
        } if *closed == room => Some(code.clone()),
        _ => None,
    })
    .await;
    assert_eq!(code, ErrorCode::MatchAbandoned);
    let mut gone = false;
    for _ in 0..50 {
        let ServerMsg::Rooms { rooms, .. } = first.request(ClientMsg::ListRooms).await else {
            panic!("a room list")
        };
        if rooms
            .iter()
            .all(|r| r.id != room || r.status == skirmish_protocol::RoomStatus::Finished)
        {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "the abandoned match's room is still open");
}
