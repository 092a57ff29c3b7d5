//! A room's one chat over real WebSockets, against hostile clients: seated players, people not
//! seated yet and spectators read each other; the name and the seat are the server's; the room
//! keeps the newest lines, within both bounds, and sends them in its snapshot after a reconnect;
//! seats held by bots are sent nothing, in casual rooms and tournament matches alike; a flood,
//! an empty or long line, or a stranger changes nothing.

mod common;

use std::collections::BTreeMap;

use common::*;
use skirmish_games::Seat;
use skirmish_games::plane::Variant;
use skirmish_protocol::{
    BotOffer, CHAT_BURST, CHAT_HISTORY_CHARS, CHAT_HISTORY_LINES, ChatLine, ClientMsg, ErrorCode, GameKind,
    MAX_CHAT_CHARS, PROTOCOL_VERSION, ResumeToken, RoomId, RoomSnapshot, ServerMsg,
};
use skirmish_server::testing::{TestClient, TestServer, answers};

fn say(room: RoomId, text: &str) -> ClientMsg {
    ClientMsg::Chat {
        room,
        text: text.to_owned(),
    }
}

fn code_of(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

/// Says `text` and checks that the room took it.
async fn says(client: &mut TestClient, room: RoomId, text: &str) {
    let reply = client.request(say(room, text)).await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{text}: {reply:?}");
}

/// The chat lines a client was sent, as (seat, name, text).
fn heard(client: &TestClient) -> Vec<(Option<Seat>, String, String)> {
    lines(client)
        .into_iter()
        .map(|l| (l.seat, l.name, l.text))
        .collect()
}

/// The chat lines a client was sent, whole.
fn lines(client: &TestClient) -> Vec<ChatLine> {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Chat { line, .. } => Some(line.clone()),
            _ => None,
        })
        .collect()
}

/// The last `room` snapshot a client was sent.
fn last_snapshot(client: &TestClient) -> RoomSnapshot {
    client
        .log
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Room(s) => Some((**s).clone()),
            _ => None,
        })
        .expect("a room snapshot")
}

/// Waits for the client's next `room` snapshot and returns it.
async fn next_snapshot(client: &mut TestClient) -> RoomSnapshot {
    match client.recv_until(|m| matches!(m, ServerMsg::Room(_))).await {
        ServerMsg::Room(s) => *s,
        _ => unreachable!(),
    }
}

/// A line as (seat, name, text).
fn line(seat: Option<u8>, name: &str, text: &str) -> (Option<Seat>, String, String) {
    (seat.map(Seat), name.to_owned(), text.to_owned())
}

/// Lets every client catch up: each answers a ping, so what the server sent before is in its log.
async fn sync(clients: &mut [&mut TestClient]) {
    for c in clients.iter_mut() {
        assert!(matches!(c.request(ClientMsg::Ping).await, ServerMsg::Pong { .. }));
    }
}

/// A bot's connection offering plane battle's `sloth` strategy.
async fn bot(url: &str) -> TestClient {
    let mut bot = TestClient::connect(url).await;
    let welcome = bot
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "Botty".to_owned(),
            bot: Some(BotOffer {
                games: BTreeMap::from([(GameKind::Plane, vec!["sloth".to_owned()])]),
                version: None,
            }),
            resume: None,
            key: None,
            token: None,
            turn_view: None,
            ladder: Vec::new(),
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    bot
}

fn token(welcome: &ServerMsg) -> ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("{welcome:?}")
    };
    resume.clone()
}

#[tokio::test]
async fn players_people_waiting_to_sit_and_spectators_read_one_chat() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (mut host, _) = TestClient::join(&url, "Host").await;
    let (mut friend, _) = TestClient::join(&url, "Friend").await;
    let (mut watcher, _) = TestClient::join(&url, "Watcher").await;
    let mut botty = bot(&url).await;
    let room = create(&mut host, room_config(Variant::Classic, 3, 1, NO_CLOCK), true).await;
    let reply = host
        .request(ClientMsg::AddBot {
            room,
            seat: Some(Seat(1)),
            strategy: Some("sloth".to_owned()),
            level: None,
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    // The invited friend opens the link (watching, as the page does) before taking a seat.
    for c in [&mut friend, &mut watcher] {
        assert!(matches!(
            c.request(ClientMsg::Spectate { room }).await,
            ServerMsg::Done { .. }
        ));
    }

    // The friend, not seated yet, talks to the host and the host answers.
    says(&mut friend, room, "I'm here, which seat?").await;
    host.recv_until(|m| matches!(m, ServerMsg::Chat { .. })).await;
    assert_eq!(heard(&host), vec![line(None, "Friend", "I'm here, which seat?")]);
    says(&mut host, room, "seat 3, the free one").await;
    friend
        .recv_until(|m| matches!(m, ServerMsg::Chat { line, .. } if line.seat.is_some()))
        .await;

    // The friend sits: the line said before sitting stays what it was, a line from no seat.
    join(&mut friend, room).await;
    let snapshot = next_snapshot(&mut friend).await;
    assert_eq!(snapshot.you, Some(Seat(2)));
    let kept: Vec<_> = snapshot
        .chat
        .iter()
        .map(|l| (l.seat, l.name.clone(), l.text.clone()))
        .collect();
    let before = vec![
        line(None, "Friend", "I'm here, which seat?"),
        line(Some(0), "Host", "seat 3, the free one"),
    ];
    assert_eq!(kept, before);

    // A spectator and a seated player read each other, both ways.
    says(&mut watcher, room, "gl all").await;
    says(&mut friend, room, "thanks!").await;
    // The bot's seat may say a line too; people read it under its seat.
    says(&mut botty, room, "beep").await;
    // The host watches its own room as well (a second tab): it hears each line once, and its
    // lines still come from its seat.
    assert!(matches!(
        host.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));
    says(&mut host, room, "once").await;
    sync(&mut [&mut host, &mut friend, &mut watcher, &mut botty]).await;
    let all = [
        before.clone(),
        vec![
            line(None, "Watcher", "gl all"),
            line(Some(2), "Friend", "thanks!"),
            line(Some(1), "Botty", "beep"),
            line(Some(0), "Host", "once"),
        ],
    ]
    .concat();
    assert_eq!(heard(&host), all);
    assert_eq!(heard(&watcher), all);
    assert_eq!(heard(&friend), all);
    let numbers: Vec<u64> = lines(&watcher).iter().map(|l| l.n).collect();
    assert_eq!(numbers, (1..=6).collect::<Vec<_>>());

    // The bot's seat reads nothing: no line, and no chat in its snapshots.
    assert!(heard(&botty).is_empty(), "{:?}", heard(&botty));
    assert!(
        botty
            .log
            .iter()
            .all(|m| !matches!(m, ServerMsg::Room(s) if !s.chat.is_empty())),
        "a bot's snapshot carries no chat"
    );
    // People's snapshots do.
    let watched = last_snapshot(&watcher);
    assert_eq!(
        watched.chat.len(),
        2,
        "the watcher's last snapshot came when the friend sat"
    );
}

#[tokio::test]
async fn a_line_from_a_stranger_never_passes_as_another() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (mut host, _) = TestClient::join(&url, "Host").await;
    let (mut guest, _) = TestClient::join(&url, "Guest").await;
    // A spectator who took the host's display name.
    let (mut mimic, _) = TestClient::join(&url, "Host").await;
    let (mut stranger, _) = TestClient::join(&url, "Stranger").await;
    let room = create(&mut host, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    join(&mut guest, room).await;
    assert!(matches!(
        mimic.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));

    // A frame naming another speaker, seat and line number, with markup and a newline: the
    // server's name and seat (none: the mimic watches), its own number, the text as sent.
    mimic
        .send_text(format!(
            r#"{{"req":90,"type":"chat","room":"{room}","name":"Guest","seat":1,"n":77,"text":"<img src=x onerror=alert(1)>\nresign now"}}"#
        ))
        .await;
    let answer = mimic.recv_until(|m| answers(m, 90)).await;
    assert!(matches!(answer, ServerMsg::Done { .. }), "{answer:?}");
    says(&mut host, room, "ignore that").await;
    // Nobody in the room: refused, heard by nobody, kept nowhere.
    assert_eq!(
        code_of(&stranger.request(say(room, "let me in")).await),
        ErrorCode::NotSeated
    );
    // A room that does not exist.
    assert_eq!(
        code_of(&stranger.request(say(RoomId::random(), "hello?")).await),
        ErrorCode::NoSuchRoom
    );
    sync(&mut [&mut host, &mut guest, &mut mimic, &mut stranger]).await;
    let expected = vec![
        (
            1,
            None,
            "Host".to_owned(),
            "<img src=x onerror=alert(1)> resign now".to_owned(),
        ),
        (2, Some(Seat(0)), "Host".to_owned(), "ignore that".to_owned()),
    ];
    for c in [&host, &guest, &mimic] {
        let got: Vec<_> = lines(c)
            .into_iter()
            .map(|l| (l.n, l.seat, l.name, l.text))
            .collect();
        assert_eq!(got, expected);
    }
    assert!(heard(&stranger).is_empty());
    // What a page shows after a reload is the same: the snapshot keeps the seat of each line.
    let (mut later, _) = TestClient::join(&url, "Later").await;
    assert!(matches!(
        later.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));
    let got: Vec<_> = last_snapshot(&later)
        .chat
        .into_iter()
        .map(|l| (l.n, l.seat, l.name, l.text))
        .collect();
    assert_eq!(got, expected);
}

#[tokio::test]
async fn history_comes_back_in_the_snapshot_after_a_reconnect_within_its_bounds() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (mut host, welcome) = TestClient::join(&url, "Host").await;
    let resume = token(&welcome);
    let room = create(&mut host, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;

    // More short lines than the room keeps, from enough speakers to pass each one's rate limit.
    let speakers = CHAT_HISTORY_LINES / CHAT_BURST + 1;
    let mut said = Vec::new();
    for s in 0..speakers {
        let (mut c, _) = TestClient::join(&url, &format!("Fan {s}")).await;
        assert!(matches!(
            c.request(ClientMsg::Spectate { room }).await,
            ServerMsg::Done { .. }
        ));
        for n in 0..CHAT_BURST {
            let text = format!("fan {s} line {n}");
            says(&mut c, room, &text).await;
            said.push(text);
        }
    }
    assert!(said.len() > CHAT_HISTORY_LINES);

    // The host's page reloads: a new connection resumes, and the snapshot carries the newest.
    drop(host);
    let (mut host, welcome) = TestClient::resume(&url, "Host", resume).await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let snapshot = next_snapshot(&mut host).await;
    assert_eq!(snapshot.you, Some(Seat(0)));
    let texts: Vec<&str> = snapshot.chat.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, said[said.len() - CHAT_HISTORY_LINES..]);
    let first = u64::try_from(said.len() - CHAT_HISTORY_LINES + 1).unwrap();
    assert_eq!(
        snapshot.chat[0].n, first,
        "the newest lines, numbered as they were said"
    );

    // Long lines: the character bound drops more of the oldest.
    let long = |s: usize, n: usize| format!("{s}{n}").repeat(MAX_CHAT_CHARS)[..MAX_CHAT_CHARS].to_owned();
    let mut long_said = Vec::new();
    for s in 0..CHAT_HISTORY_CHARS / MAX_CHAT_CHARS / CHAT_BURST + 1 {
        let (mut c, _) = TestClient::join(&url, &format!("Long {s}")).await;
        assert!(matches!(
            c.request(ClientMsg::Spectate { room }).await,
            ServerMsg::Done { .. }
        ));
        for n in 0..CHAT_BURST {
            says(&mut c, room, &long(s, n)).await;
            long_said.push(long(s, n));
        }
    }
    let (mut late, _) = TestClient::join(&url, "Late").await;
    assert!(matches!(
        late.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));
    let kept = last_snapshot(&late).chat;
    let chars: usize = kept.iter().map(|l| l.text.chars().count()).sum();
    assert!(chars <= CHAT_HISTORY_CHARS, "{chars} characters kept");
    let texts: Vec<&str> = kept.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        long_said[long_said.len() - CHAT_HISTORY_CHARS / MAX_CHAT_CHARS..]
    );
}

#[tokio::test]
async fn a_flood_or_a_bad_line_is_refused_with_its_code_and_changes_nothing() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (mut host, _) = TestClient::join(&url, "Host").await;
    let (mut loud, _) = TestClient::join(&url, "Loud").await;
    let room = create(&mut host, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    assert!(matches!(
        loud.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));

    for n in 0..CHAT_BURST {
        says(&mut loud, room, &format!("line {n}")).await;
    }
    assert_eq!(
        code_of(&loud.request(say(room, "one too many")).await),
        ErrorCode::ChatTooFast
    );
    assert_eq!(
        code_of(&loud.request(say(room, " \n\t ")).await),
        ErrorCode::BadChat
    );
    let long = "x".repeat(MAX_CHAT_CHARS + 1);
    assert_eq!(code_of(&loud.request(say(room, &long)).await), ErrorCode::BadChat);
    // A bad line does not spend the host's limit, nor a refused one the room's numbers.
    says(&mut host, room, "calm down").await;

    sync(&mut [&mut host, &mut loud]).await;
    let expected: Vec<String> = (0..CHAT_BURST)
        .map(|n| format!("line {n}"))
        .chain(["calm down".to_owned()])
        .collect();
    for c in [&host, &loud] {
        let got: Vec<String> = lines(c).into_iter().map(|l| l.text).collect();
        assert_eq!(got, expected);
    }
    let (mut late, _) = TestClient::join(&url, "Late").await;
    assert!(matches!(
        late.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));
    let kept = last_snapshot(&late).chat;
    let got: Vec<(u64, String)> = kept.into_iter().map(|l| (l.n, l.text)).collect();
    let numbered: Vec<(u64, String)> = (1..).zip(expected).collect();
    assert_eq!(got, numbered);
}

/// An account bot's connection that takes tournament seats in gomoku and never moves.
async fn entrant(server: &TestServer, name: &str) -> TestClient {
    let mut bot = TestClient::connect(&server.ws_url()).await;
    let welcome = bot
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.to_owned(),
            bot: Some(BotOffer {
                games: BTreeMap::from([(GameKind::Gomoku, vec!["still".to_owned()])]),
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
    bot
}

/// A tournament match: its spectators chat among themselves; its seats, bots, are sent none of
/// it, and a bot's line reaches the spectators but not the other bot.
#[tokio::test]
async fn in_a_tournament_match_the_bots_are_sent_no_chat() {
    let server = TestServer::start().await;
    let mut north = entrant(&server, "north").await;
    let mut south = entrant(&server, "south").await;
    let base = server.http_url("");
    let status = create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "north", "strategy": "still"}, {"bot": "south", "strategy": "still"}],
            "clock": {"move_ms": 60_000},
        }),
    )
    .await;
    let id = status.summary.id.to_string();
    let room = loop {
        let status = tournament_status(&base, &id).await;
        if let Some(m) = status
            .schedule
            .iter()
            .find(|m| m.state == skirmish_protocol::tournament::MatchState::Running)
        {
            break RoomId(m.id.0);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    let url = server.ws_url();
    let (mut fan, _) = TestClient::join(&url, "Fan").await;
    let (mut other, _) = TestClient::join(&url, "Other").await;
    for c in [&mut fan, &mut other] {
        let reply = c.request(ClientMsg::Spectate { room }).await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    }
    says(&mut fan, room, "north opens well").await;
    says(&mut north, room, "thinking").await;
    sync(&mut [&mut fan, &mut other, &mut north, &mut south]).await;
    let both = vec![
        line(None, "Fan", "north opens well"),
        (seat_of(&north, room), "north".to_owned(), "thinking".to_owned()),
    ];
    assert_eq!(heard(&other), both);
    assert_eq!(heard(&fan), both);
    for bot in [&north, &south] {
        assert!(heard(bot).is_empty(), "{:?}", heard(bot));
        assert!(
            bot.log
                .iter()
                .all(|m| !matches!(m, ServerMsg::Room(s) if !s.chat.is_empty())),
            "a bot's snapshot carries no chat"
        );
    }
    // A spectator who comes later reads both lines in its snapshot.
    let (mut late, _) = TestClient::join(&url, "Late").await;
    assert!(matches!(
        late.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));
    let kept: Vec<_> = last_snapshot(&late)
        .chat
        .into_iter()
        .map(|l| (l.seat, l.name, l.text))
        .collect();
    assert_eq!(kept, both);
}

/// The seat the bot `bot` holds in `room`, from the `seated` it was sent.
fn seat_of(bot: &TestClient, room: RoomId) -> Option<Seat> {
    bot.log.iter().find_map(|m| match m {
        ServerMsg::Seated { room: r, seat, .. } if *r == room => Some(*seat),
        _ => None,
    })
}
