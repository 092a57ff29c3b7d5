//! What a bot thought (`act`'s `info`), through the real server: it is never sent to anyone
//! during the match (the opponent's, a spectator's and the sender's own streams are searched
//! byte for byte for its values), an info too large or ill-formed refuses the act whole and
//! changes nothing, it survives a SIGKILL of the server, and the replay API shows it once the
//! match is over; a duplicate tournament's record (with the infos of a real `bayes` bot process)
//! is refused while its deal is played anywhere and shows them after.

mod common;

use std::time::{Duration, Instant};

use common::{NO_CLOCK, ServerProcess, create, join, place_stone};
use serde_json::Value;
use skirmish_games::gomoku;
use skirmish_protocol::info::{Belief, BotInfo};
use skirmish_protocol::tournament::{MatchState, TournamentState, TournamentStatus};
use skirmish_protocol::{ClientMsg, ErrorCode, GameEvent, MoveInfo, ResumeToken, RoomId, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

/// The score black's infos carry: a number found nowhere else on the wire.
const SCORE: i64 = 9_876_543_210_123;

/// The marker in black's principal variations (`<marker><move number>`).
const MARKER: &str = "sealedthought";

/// Black's info for its `number`th stone: the marker and the score, an evaluation.
fn thought(number: u32) -> BotInfo {
    BotInfo {
        score: Some(SCORE + i64::from(number)),
        depth: Some(7),
        nodes: Some(123_457),
        pv: vec![format!("{MARKER}{number}"), "h9".into()],
        belief: Some(Belief::Gomoku {
            eval: i16::try_from(100 * number).unwrap(),
        }),
    }
}

/// A stone with `info`.
fn stone(room: RoomId, point: &str, info: Option<BotInfo>) -> ClientMsg {
    let ClientMsg::Act {
        room, seat, action, ..
    } = place_stone(room, point)
    else {
        unreachable!()
    };
    ClientMsg::Act {
        room,
        seat,
        action,
        info: info.map(Box::new),
    }
}

fn placed(m: &ServerMsg, number: u32) -> bool {
    matches!(m, ServerMsg::Event { event: GameEvent::Gomoku(gomoku::Event::Placed { number: n, .. }), .. } if *n == number)
}

fn ended(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::Event { event, .. } if event.ends_match())
}

fn token(welcome: &ServerMsg) -> ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("a welcome: {welcome:?}")
    };
    resume.clone()
}

/// `GET url`: the status and the JSON body.
async fn get(url: &str) -> (u16, Value) {
    let response = reqwest::get(url).await.expect("the server answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

/// Asserts that none of `texts` (frames as sent) carries anything of black's infos.
fn carries_none(who: &str, texts: &[String]) {
    assert!(!texts.is_empty(), "{who} was sent something");
    let score = SCORE.to_string();
    let score_prefix = &score[..10];
    for text in texts {
        assert!(
            !text.contains(MARKER) && !text.contains(score_prefix) && !text.contains("123457"),
            "{who} was sent an info: {text}"
        );
        assert!(
            !text.contains("\"info\":") && !text.contains("\"pv\":"),
            "{who}: {text}"
        );
    }
}

/// Black plays the `number`th stone (1-based) at `point` with its info, and both players see it.
async fn play(black: &mut TestClient, white: &mut TestClient, room: RoomId, number: u32, point: &str) {
    if number % 2 == 1 {
        black.send(stone(room, point, Some(thought(number)))).await;
    } else {
        white.send(stone(room, point, None)).await;
    }
    for client in [&mut *black, &mut *white] {
        client.recv_until(|m| placed(m, number)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn infos_stay_sealed_through_the_match_and_a_sigkill_and_show_in_the_replay_after() {
    let dir = std::env::temp_dir().join(format!("skirmish-bot-info-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let database = dir.join("skirmish.db");
    let port = common::free_port();
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, &database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let http = |path: String| format!("http://127.0.0.1:{port}{path}");

    let (mut black, welcome) = TestClient::join(&url, "Black").await;
    let black_token = token(&welcome);
    let (mut white, welcome) = TestClient::join(&url, "White").await;
    let white_token = token(&welcome);
    let config = common::gomoku_room_named("beliefs", gomoku::Rule::Standard, NO_CLOCK);
    let room = create(&mut black, config, true).await;
    join(&mut white, room).await;
    let (mut carol, _) = TestClient::join(&url, "Carol").await;
    carol.request(ClientMsg::Spectate { room }).await;

    let points = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"];
    play(&mut black, &mut white, room, 1, points[0]).await;
    play(&mut black, &mut white, room, 2, points[1]).await;

    // Too large: refused whole with its code; the same stone is then played, so the refused act
    // changed nothing (a stone there would make it `point_occupied`).
    let mut huge = thought(3);
    huge.pv = vec!["x".repeat(100); 50];
    let answer = black.request(stone(room, points[2], Some(huge))).await;
    assert!(
        matches!(
            &answer,
            ServerMsg::Error {
                code: ErrorCode::InfoTooLarge,
                ..
            }
        ),
        "{answer:?}"
    );
    let mut bad = thought(3);
    bad.belief = Some(Belief::Gomoku { eval: 5000 });
    let answer = black.request(stone(room, points[2], Some(bad))).await;
    assert!(
        matches!(
            &answer,
            ServerMsg::Error {
                code: ErrorCode::BadInfo,
                ..
            }
        ),
        "{answer:?}"
    );
    let wrong_game = BotInfo {
        belief: Some(Belief::Plane { boards: Vec::new() }),
        ..BotInfo::default()
    };
    let answer = black.request(stone(room, points[2], Some(wrong_game))).await;
    assert!(
        matches!(
            &answer,
            ServerMsg::Error {
                code: ErrorCode::BadInfo,
                ..
            }
        ),
        "{answer:?}"
    );
    // An unknown field is no info of this protocol: the frame is refused.
    let mut frame = serde_json::to_value(stone(room, points[2], Some(thought(3)))).unwrap();
    frame["info"]["mood"] = "smug".into();
    frame["req"] = 999.into();
    black.send_text(frame.to_string()).await;
    let answer = black.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(
            &answer,
            ServerMsg::Error {
                code: ErrorCode::BadMessage,
                ..
            }
        ),
        "{answer:?}"
    );
    play(&mut black, &mut white, room, 3, points[2]).await;
    // White never saw the refused acts as moves: stone 3 is its third `placed`.
    let placed_seen = white.log.iter().filter(|m| placed(m, 3)).count();
    assert_eq!(placed_seen, 1);
    play(&mut black, &mut white, room, 4, points[3]).await;

    // Not over: no record, and so no infos.
    let (status, body) = get(&http(format!("/api/matches/{room}"))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("match_in_play")),
        "{body}"
    );

    // SIGKILL: what was acted (and seen) is on disk, infos with it.
    server.kill();
    let mut texts = (black.texts.clone(), white.texts.clone(), carol.texts.clone());
    let _server = ServerProcess::start(port, &database, &args).await;
    let (mut black, _) = TestClient::resume(&url, "Black", black_token).await;
    let (mut white, _) = TestClient::resume(&url, "White", white_token).await;
    let (mut carol, _) = TestClient::join(&url, "Carol").await;
    carol.request(ClientMsg::Spectate { room }).await;
    for client in [&mut black, &mut white] {
        client.recv_until(|m| matches!(m, ServerMsg::Room(_))).await;
    }
    for (i, point) in points.iter().enumerate().skip(4) {
        play(&mut black, &mut white, room, u32::try_from(i + 1).unwrap(), point).await;
    }
    for client in [&mut black, &mut white, &mut carol] {
        client.recv_until(ended).await;
    }
    texts.0.extend(black.texts.clone());
    texts.1.extend(white.texts.clone());
    texts.2.extend(carol.texts.clone());
    carries_none("the opponent", &texts.1);
    carries_none("a spectator", &texts.2);
    carries_none("the bot itself", &texts.0);

    // Over: the replay shows every info kept, each at its stone's event.
    let (status, body) = get(&http(format!("/api/matches/{room}"))).await;
    assert_eq!(status, 200, "{body}");
    let infos: Vec<MoveInfo> = serde_json::from_value(body["infos"].clone()).expect("infos read");
    let events: Vec<GameEvent> = serde_json::from_value(body["events"].clone()).expect("events read");
    let numbers: Vec<u32> = infos
        .iter()
        .map(|m| {
            assert_eq!(m.seat.0, 0, "black's");
            let GameEvent::Gomoku(gomoku::Event::Placed { number, .. }) = &events[m.at as usize] else {
                panic!("an info placed at its stone: {:?}", events[m.at as usize])
            };
            assert_eq!(m.info, thought(*number), "kept as sent");
            *number
        })
        .collect();
    assert_eq!(
        numbers,
        [1, 3, 5, 7, 9],
        "before and after the restart, refused ones not"
    );
    // Black's view: its own infos, placed in the events black saw.
    let (status, body) = get(&http(format!("/api/matches/{room}?seat=0"))).await;
    assert_eq!(status, 200, "{body}");
    let seen: Vec<MoveInfo> = serde_json::from_value(body["infos"].clone()).expect("infos read");
    let events: Vec<GameEvent> = serde_json::from_value(body["events"].clone()).expect("events read");
    assert_eq!(seen.len(), numbers.len(), "{seen:?}");
    for m in &seen {
        assert!(
            matches!(&events[m.at as usize], GameEvent::Gomoku(gomoku::Event::Placed { number, .. }) if m.info == thought(*number))
        );
    }
    // White's view: as white saw the match, black's thoughts were sealed from it.
    let (status, body) = get(&http(format!("/api/matches/{room}?seat=1"))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["infos"],
        serde_json::json!([]),
        "white never saw black's thoughts"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_matchs_infos_are_sealed_until_its_deal_is_over_at_every_table() {
    let server = TestServer::start().await;
    let stop = tokio_util::sync::CancellationToken::new();
    let bots = [
        ("ann", "bayes"),
        ("bob", "bayes"),
        ("cy", "random"),
        ("di", "random"),
    ];
    for (name, strategy) in bots {
        let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), name.to_owned());
        options.token = Some(server.account(name).await);
        options.set_strategies(&[strategy.to_owned()]);
        tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    }
    let base = server.http_url("");
    let id = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "plane", "variant": "double", "players": 2, "format": {"rounds": 3}},
            "entrants": bots.map(|(bot, strategy)| serde_json::json!({"bot": bot, "strategy": strategy})),
            // Four entrants: each deal at two tables with no entrant in common.
            "parallel": 4,
        }),
    )
    .await
    .summary
    .id
    .to_string();
    // While a deal is played at one table, a finished table's record of it is refused: caught
    // when the tables of a deal end at different times (a `bayes` bot thinks up to 300 ms a
    // shot, `random` at once).
    let mut refused = std::collections::HashSet::new();
    let start = Instant::now();
    let finished: TournamentStatus = loop {
        let status = common::tournament_status(&base, &id).await;
        if status.summary.state != TournamentState::Running {
            break status;
        }
        for m in &status.schedule {
            let open = status.schedule.iter().any(|o| {
                o.deal == m.deal
                    && o.id != m.id
                    && matches!(o.state, MatchState::Pending | MatchState::Running)
            });
            if m.state == MatchState::Finished && open && m.deal.is_some() {
                let (code, body) = get(&server.http_url(&format!("/api/matches/{}", m.id))).await;
                let now = common::tournament_status(&base, &id).await;
                let still_open = now.schedule.iter().any(|o| {
                    o.deal == m.deal
                        && o.id != m.id
                        && matches!(o.state, MatchState::Pending | MatchState::Running)
                });
                if still_open {
                    assert_eq!(
                        (code, body["code"].as_str()),
                        (409, Some("deal_in_play")),
                        "{body}"
                    );
                    assert!(body.get("infos").is_none());
                    refused.insert(m.id);
                }
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the tournament did not finish"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(finished.summary.state, TournamentState::Finished);
    assert!(
        !refused.is_empty(),
        "a finished match of an open deal was asked for: {finished:#?}"
    );
    // Over everywhere: every record with a `bayes` bot shows its odds on its opponent's board,
    // those refused before too.
    let mut refused_with_infos = 0;
    for m in &finished.schedule {
        let (code, body) = get(&server.http_url(&format!("/api/matches/{}", m.id))).await;
        assert_eq!(code, 200, "{body}");
        let infos: Vec<MoveInfo> = serde_json::from_value(body["infos"].clone()).expect("infos read");
        let thinkers = m
            .seats
            .iter()
            .filter(|e| ["ann", "bob"].contains(&finished.summary.entrants[**e].bot.as_str()))
            .count();
        assert_eq!(
            infos.is_empty(),
            thinkers == 0,
            "a bayes bot's infos are kept, a random bot sends none"
        );
        if refused.contains(&m.id) && !infos.is_empty() {
            refused_with_infos += 1;
        }
        let events: Vec<GameEvent> = serde_json::from_value(body["events"].clone()).expect("events read");
        for info in &infos {
            if thinkers == 1 {
                assert_eq!(info.seat, infos[0].seat, "only the bayes bot sends infos");
            }
            let Some(Belief::Plane { boards }) = &info.info.belief else {
                panic!("plane odds: {info:?}")
            };
            assert_eq!(boards.len(), 1);
            assert_ne!(boards[0].seat, info.seat, "odds on the opponent's board");
            let side = (boards[0].cells.len() as f64).sqrt() as usize;
            assert_eq!(side * side, boards[0].cells.len(), "a probability per cell");
            assert!(side >= 7);
            assert!(matches!(
                &events[info.at as usize],
                GameEvent::Plane(skirmish_games::plane::Event::Shot { .. })
            ));
        }
    }
    assert!(
        refused_with_infos > 0,
        "a record with infos was refused while its deal was in play"
    );
    stop.cancel();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_keeps_infos_up_to_its_share_of_the_match_and_plays_on_past_it() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (mut black, _) = TestClient::join(&url, "Black").await;
    let (mut white, _) = TestClient::join(&url, "White").await;
    let config = common::gomoku_room_named("beliefs", gomoku::Rule::Standard, NO_CLOCK);
    let room = create(&mut black, config, true).await;
    join(&mut white, room).await;
    // Stones in a pattern with no five for either side: black where (x + 2y) mod 4 < 2 (runs of
    // at most two in every direction), white elsewhere, filled from the bottom row up.
    let name = |x: u8, y: u8| format!("{}{}", char::from(b'a' + x), y + 1);
    let (mut blacks, mut whites) = (Vec::new(), Vec::new());
    for y in 0..15u8 {
        for x in 0..15u8 {
            if (u32::from(x) + 2 * u32::from(y)) % 4 < 2 {
                blacks.push(name(x, y));
            } else {
                whites.push(name(x, y));
            }
        }
    }
    // About 3.9 KiB an info: the seat's share (256 KiB / 2) holds 33 of them.
    let big = |n: usize| BotInfo {
        score: Some(i64::try_from(n).unwrap()),
        pv: vec!["p".repeat(100); 38],
        ..BotInfo::default()
    };
    let bytes = serde_json::to_string(&big(10)).unwrap().len();
    assert!(
        bytes <= skirmish_protocol::MAX_INFO_BYTES && bytes > 3800,
        "{bytes}"
    );
    let moves = 40;
    for n in 0..moves {
        black.send(stone(room, &blacks[n], Some(big(n)))).await;
        let number = u32::try_from(2 * n + 1).unwrap();
        white.recv_until(|m| placed(m, number)).await;
        white.send(stone(room, &whites[n], None)).await;
        black.recv_until(|m| placed(m, number + 1)).await;
    }
    black
        .send(ClientMsg::Act {
            room,
            seat: None,
            action: skirmish_protocol::Action::Gomoku(gomoku::Action::Resign { reason: None }),
            info: None,
        })
        .await;
    white.recv_until(ended).await;
    let (status, body) = get(&server.http_url(&format!("/api/matches/{room}"))).await;
    assert_eq!(status, 200, "{body}");
    let infos: Vec<MoveInfo> = serde_json::from_value(body["infos"].clone()).expect("infos read");
    let share = skirmish_server::room::MAX_MATCH_INFO_BYTES / 2;
    let kept: usize = infos
        .iter()
        .map(|m| serde_json::to_string(&m.info).unwrap().len())
        .sum();
    assert!(kept <= share, "{kept} bytes kept of a {share}-byte share");
    assert_eq!(infos.len(), share / bytes, "as many as fit, the first ones");
    assert!(infos.len() < moves, "the rest were played without their infos");
    for (n, m) in infos.iter().enumerate() {
        assert_eq!(m.info.score, Some(i64::try_from(n).unwrap()));
    }
    server.stop().await;
}
