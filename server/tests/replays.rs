//! Replays of casual matches and "My games", through the real server with real WebSocket
//! clients: a seat's replay is exactly the seat's live stream, the full replay shows every
//! hidden board, the cap on kept matches holds, nobody lists another's games, and an unfinished
//! room's record is refused with a stable code.

mod common;

use common::{NO_CLOCK, create, join, play_until_over, room_config};
use serde_json::Value;
use skirmish_games::gomoku;
use skirmish_games::plane::{self, Variant};
use skirmish_protocol::{GameEvent, ResumeToken, RoomConfig, RoomId, ServerMsg};
use skirmish_server::Limits;
use skirmish_server::testing::{TestClient, TestServer};

/// The events `client` was sent live for `room`, in order.
fn live_events(client: &TestClient, room: RoomId) -> Vec<GameEvent> {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event { room: r, event, .. } if *r == room => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// `GET path` on `server`: the status and the JSON body.
async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let response = reqwest::get(server.http_url(path))
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

/// "My games" of `tokens` (`POST /api/my/games`): the status and the JSON body.
async fn my_games(server: &TestServer, tokens: &[String]) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(server.http_url("/api/my/games"))
        .json(&serde_json::json!({ "tokens": tokens }))
        .send()
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

/// The events of a replay's body.
fn events_of(body: &Value) -> Vec<GameEvent> {
    serde_json::from_value(body["events"].clone()).expect("the replay's events read")
}

/// The resume token of a `welcome`.
fn token_of(welcome: &ServerMsg) -> ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("welcome: {welcome:?}")
    };
    resume.clone()
}

fn gomoku_room() -> RoomConfig {
    common::gomoku_room_named("replay test", gomoku::Rule::Standard, NO_CLOCK)
}

use common::place_stone as place;

fn is_end(m: &ServerMsg, room: RoomId) -> bool {
    matches!(m, ServerMsg::Event { room: r, event, .. } if *r == room && event.ends_match())
}

/// Plays a gomoku game in which black makes five on row 8 (h8 to l8) while white plays on row
/// 9; returns the room.
async fn gomoku_game(black: &mut TestClient, white: &mut TestClient) -> RoomId {
    let room = create(black, gomoku_room(), true).await;
    join(white, room).await;
    let moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"];
    for (i, point) in moves.iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap();
        let mover = if i % 2 == 0 { &mut *black } else { &mut *white };
        mover.send(place(room, point)).await;
        for client in [&mut *black, &mut *white] {
            client
                .recv_until(|m| matches!(m, ServerMsg::Event { event: GameEvent::Gomoku(gomoku::Event::Placed { number: n, .. }), .. } if *n == number))
                .await;
        }
    }
    black.recv_until(|m| is_end(m, room)).await;
    white.recv_until(|m| is_end(m, room)).await;
    room
}

#[tokio::test]
async fn a_plane_battle_replayed_from_a_seat_shows_only_that_seats_stream() {
    let server = TestServer::start().await;
    let (mut ann, _) = TestClient::join(&server.ws_url(), "ann").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "bob").await;
    let (mut cat, _) = TestClient::join(&server.ws_url(), "cat").await;
    let room = create(&mut ann, room_config(Variant::Classic, 3, 1, NO_CLOCK), true).await;
    join(&mut bob, room).await;
    join(&mut cat, room).await;
    // Before the end: refused with a stable code, whatever the view.
    for path in [
        format!("/api/matches/{room}"),
        format!("/api/matches/{room}?seat=0"),
    ] {
        let (status, body) = get(&server, &path).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("match_in_play")),
            "{body}"
        );
    }
    let (a, b, c) = tokio::join!(
        play_until_over(&mut ann, room, None),
        play_until_over(&mut bob, room, None),
        play_until_over(&mut cat, room, None)
    );
    assert_eq!(a, b);
    assert_eq!(b, c);

    let (status, all) = get(&server, &format!("/api/matches/{room}")).await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["kind"], "casual");
    assert_eq!(all["view"], Value::Null);
    let names: Vec<&str> = all["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ann", "bob", "cat"]);
    assert_eq!(all["result"]["placings"].as_array().unwrap().len(), 3);
    let everything = events_of(&all);
    // The full view holds every seat's secret deployment, sent live to that seat alone.
    for seat in 0..3u8 {
        assert!(
            everything.iter().any(|e| matches!(e,
                GameEvent::Plane(plane::Event::Deployment { seat: s, .. }) if s.0 == seat)),
            "seat {seat}'s deployment is in the full replay"
        );
    }

    for (seat, client) in [&ann, &bob, &cat].into_iter().enumerate() {
        let (status, body) = get(&server, &format!("/api/matches/{room}?seat={seat}")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["view"], seat);
        let replayed = events_of(&body);
        let live = live_events(client, room);
        assert!(!live.is_empty());
        assert_eq!(
            replayed, live,
            "seat {seat}'s replay is its live stream, event for event"
        );
        // And nothing of another seat's deployment.
        assert!(!replayed.iter().any(|e| matches!(e,
            GameEvent::Plane(plane::Event::Deployment { seat: s, .. }) if usize::from(s.0) != seat)));
        assert!(replayed.len() < everything.len());
    }

    // A seat the match does not have, and ids that name nothing.
    let (status, body) = get(&server, &format!("/api/matches/{room}?seat=3")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("no_such_seat")),
        "{body}"
    );
    let (status, body) = get(&server, &format!("/api/matches/{room}?seat=-1")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("no_such_seat")),
        "{body}"
    );
    let (status, body) = get(&server, &format!("/api/matches/{}", RoomId::random())).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no_such_match")),
        "{body}"
    );
    let (status, body) = get(&server, "/api/matches/not-an-id").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no_such_match")),
        "{body}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_gomoku_game_is_replayed_and_listed_only_with_its_players_tokens() {
    let server = TestServer::start().await;
    let (mut ann, ann_welcome) = TestClient::join(&server.ws_url(), "ann").await;
    let (mut bob, bob_welcome) = TestClient::join(&server.ws_url(), "bob").await;
    let (_eve, eve_welcome) = TestClient::join(&server.ws_url(), "eve").await;
    let room = gomoku_game(&mut ann, &mut bob).await;

    for (seat, client) in [&ann, &bob].into_iter().enumerate() {
        let (status, body) = get(&server, &format!("/api/matches/{room}?seat={seat}")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(events_of(&body), live_events(client, room));
    }

    // Each player lists the game, with the seat they held.
    for (seat, welcome) in [&ann_welcome, &bob_welcome].into_iter().enumerate() {
        let token = String::from(token_of(welcome));
        let (status, body) = my_games(&server, &[token]).await;
        assert_eq!(status, 200, "{body}");
        let games = body["games"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{body}");
        assert_eq!(games[0]["id"], room.to_string());
        assert_eq!(games[0]["seat"], seat);
        assert!(games[0].get("events").is_none(), "a list line carries no events");
    }
    // A stranger: no token, its own token, the players' public ids, a made-up token.
    let (status, body) = my_games(&server, &[]).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("token_required")),
        "{body}"
    );
    let ServerMsg::Welcome { player: ann_id, .. } = &ann_welcome else {
        unreachable!()
    };
    let eve_token = String::from(token_of(&eve_welcome));
    let guesses = [
        eve_token,
        ann_id.to_string(),
        "x".repeat(64),
        String::from(ResumeToken::random()),
    ];
    for guess in &guesses {
        let (status, body) = my_games(&server, std::slice::from_ref(guess)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["games"], serde_json::json!([]), "{guess}: {body}");
    }
    // Every guess at once, and more tokens than a request may name.
    let (status, body) = my_games(&server, &guesses).await;
    assert_eq!(
        (status, body["games"].clone()),
        (200, serde_json::json!([])),
        "{body}"
    );
    let (status, body) = my_games(&server, &vec![String::from(ResumeToken::random()); 21]).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("token_required")),
        "{body}"
    );
    let (status, body) = my_games(&server, &["y".repeat(500)]).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("bad_json")), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn the_server_keeps_at_most_its_cap_oldest_dropped_first() {
    let limits = Limits {
        replays_kept: 2,
        ..Limits::default()
    };
    keeps_at_most_its_cap(TestServer::start_with(limits).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_the_cap_holds_too() {
    let pg = common::postgres::Postgres::start().await;
    let store = skirmish_server::store::Store::connect(&pg.database().await)
        .await
        .unwrap();
    let limits = Limits {
        replays_kept: 2,
        ..Limits::default()
    };
    keeps_at_most_its_cap(TestServer::start_with_store(limits, store).await).await;
}

/// Four games on `server`, whose cap is 2: the two newest are kept, listed newest first.
async fn keeps_at_most_its_cap(server: TestServer) {
    let (mut ann, welcome) = TestClient::join(&server.ws_url(), "ann").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "bob").await;
    let mut rooms = Vec::new();
    for _ in 0..4 {
        rooms.push(gomoku_game(&mut ann, &mut bob).await);
        // Each finish is written in the order played; a millisecond apart at least, so that
        // "oldest" is well defined by the clock too.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(server.store.replays_kept().await.unwrap(), 2);
    for (i, room) in rooms.iter().enumerate() {
        let (status, body) = get(&server, &format!("/api/matches/{room}")).await;
        let expected = if i < 2 { 404 } else { 200 };
        assert_eq!(status, expected, "game {i}: {body}");
    }
    let (_, body) = my_games(&server, &[String::from(token_of(&welcome))]).await;
    let listed: Vec<String> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        listed,
        [rooms[3].to_string(), rooms[2].to_string()],
        "newest first, within the cap"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_match_is_replayed_from_a_seat_too() {
    let server = TestServer::start().await;
    let stop = tokio_util::sync::CancellationToken::new();
    for name in ["ace", "bee"] {
        let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), name.to_owned());
        options.token = Some(server.account(name).await);
        options.set_strategies(&["random".to_owned()]);
        tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    }
    let base = server.http_url("");
    let id = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "plane", "variant": "classic", "players": 2, "format": {"rounds": 1}},
            "entrants": [{"bot": "ace", "strategy": "random"}, {"bot": "bee", "strategy": "random"}],
        }),
    )
    .await
    .summary
    .id
    .to_string();
    let status = common::tournament_over(&base, &id).await;
    assert!(!status.schedule.is_empty());
    for m in &status.schedule {
        let (status, all) = get(&server, &format!("/api/matches/{}", m.id)).await;
        assert_eq!(status, 200, "{all}");
        assert_eq!(all["kind"], "tournament");
        let everything = events_of(&all);
        for seat in 0..2u8 {
            let (status, body) = get(&server, &format!("/api/matches/{}?seat={seat}", m.id)).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["view"], seat);
            let seen = events_of(&body);
            assert!(seen.len() < everything.len());
            assert!(
                seen.iter().all(|e| e
                    .audience()
                    .includes(skirmish_games::Viewer::Seat(skirmish_games::Seat(seat)))),
                "only what seat {seat} saw"
            );
            assert!(!seen.iter().any(|e| matches!(e,
                GameEvent::Plane(plane::Event::Deployment { seat: s, .. }) if s.0 != seat)));
        }
        let (status, body) = get(&server, &format!("/api/matches/{}?seat=2", m.id)).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("no_such_seat")),
            "{body}"
        );
    }
    stop.cancel();
    server.stop().await;
}
