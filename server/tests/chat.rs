//! A room's two chats over real WebSockets, against hostile clients: each line reaches only its
//! own chat, the name is the server's, markup is relayed as text to be shown as text, and a
//! flood, an empty or long line, or a stranger changes nothing.

mod common;

use common::*;
use skirmish_games::Seat;
use skirmish_games::plane::Variant;
use skirmish_protocol::{CHAT_BURST, ChatChannel, ClientMsg, ErrorCode, MAX_CHAT_CHARS, RoomId, ServerMsg};
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

/// The chat lines a client was sent, as (channel, seat, name, text).
fn heard(client: &TestClient) -> Vec<(ChatChannel, Option<Seat>, String, String)> {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Chat {
                channel,
                seat,
                name,
                text,
                ..
            } => Some((*channel, *seat, name.clone(), text.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn each_chat_reaches_its_own_members_only_and_refuses_floods() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (mut alice, _) = TestClient::join(&url, "Alice").await;
    let (mut bob, _) = TestClient::join(&url, "Bob").await;
    let (mut watcher, _) = TestClient::join(&url, "Watcher").await;
    let (mut other, _) = TestClient::join(&url, "Other").await;
    let (mut stranger, _) = TestClient::join(&url, "Stranger").await;
    let room = create(&mut alice, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    join(&mut bob, room).await;
    for w in [&mut watcher, &mut other] {
        assert!(matches!(
            w.request(ClientMsg::Spectate { room }).await,
            ServerMsg::Done { .. }
        ));
    }

    // A player's line, with a name field of its own making and markup: the server's name, the
    // text as sent (control characters made spaces).
    alice
        .send_text(format!(
            r#"{{"req":90,"type":"chat","room":"{room}","name":"Bob","text":"<img src=x onerror=alert(1)>\nhi"}}"#
        ))
        .await;
    let answer = alice.recv_until(|m| answers(m, 90)).await;
    assert!(matches!(answer, ServerMsg::Done { .. }), "{answer:?}");
    bob.recv_until(|m| matches!(m, ServerMsg::Chat { .. })).await;
    let line = (
        ChatChannel::Players,
        Some(Seat(0)),
        "Alice".to_owned(),
        "<img src=x onerror=alert(1)> hi".to_owned(),
    );
    assert_eq!(heard(&bob), vec![line.clone()]);

    // A spectator's line reaches spectators, not players.
    assert!(matches!(
        watcher.request(say(room, "who wins?")).await,
        ServerMsg::Done { .. }
    ));
    other.recv_until(|m| matches!(m, ServerMsg::Chat { .. })).await;
    assert_eq!(
        heard(&other),
        vec![(
            ChatChannel::Spectators,
            None,
            "Watcher".to_owned(),
            "who wins?".to_owned()
        )]
    );

    // A stranger reaches neither chat; bad lines are refused with stable codes.
    assert_eq!(
        code_of(&stranger.request(say(room, "let me in")).await),
        ErrorCode::NotSeated
    );
    assert_eq!(code_of(&bob.request(say(room, " \n ")).await), ErrorCode::BadChat);
    let long = "x".repeat(MAX_CHAT_CHARS + 1);
    assert_eq!(code_of(&bob.request(say(room, &long)).await), ErrorCode::BadChat);

    // A flood: the burst passes, the next line is refused and reaches nobody.
    for n in 0..CHAT_BURST {
        let reply = bob.request(say(room, &format!("line {n}"))).await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    }
    assert_eq!(
        code_of(&bob.request(say(room, "one too many")).await),
        ErrorCode::ChatTooFast
    );

    // Everyone syncs with a ping, then what each heard is checked.
    for c in [&mut alice, &mut bob, &mut watcher, &mut other] {
        assert!(matches!(c.request(ClientMsg::Ping).await, ServerMsg::Pong { .. }));
    }
    let alice_heard = heard(&alice);
    assert_eq!(alice_heard.len(), 1 + CHAT_BURST, "{alice_heard:?}");
    assert_eq!(alice_heard[0], line);
    assert!(
        alice_heard.iter().all(|l| l.0 == ChatChannel::Players),
        "no spectator line reaches a player"
    );
    assert!(
        !alice_heard
            .iter()
            .any(|l| l.3.contains("one too many") || l.3.contains("let me in"))
    );
    for w in [&watcher, &other] {
        assert!(
            heard(w).iter().all(|l| l.0 == ChatChannel::Spectators),
            "no player line reaches a spectator: {:?}",
            heard(w)
        );
    }
    assert!(heard(&stranger).is_empty());
}
