//! Junqi rooms over real WebSockets: two bots, connected like any client, play a whole game and
//! never receive an enemy piece's rank before the end (the revealed flag aside); bad input (a
//! layout breaking each deployment rule, a move before the battle, out of turn, of an immovable
//! piece, a railway turn by a non-engineer, an attack on a camp) gets a stable code and changes
//! nothing; the move clock decides; seats see their own ranks and spectators none.

mod common;

use common::*;
use skirmish_games::junqi::{self, End, Layout, Phase, Rank};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{
    Action, ClientMsg, Clock, ErrorCode, GameConfig, GameEvent, GameView, RoomConfig, RoomId, ServerMsg,
};
use skirmish_server::testing::{TestClient, TestServer};

fn junqi_room(clock: Clock) -> RoomConfig {
    RoomConfig {
        name: Some("junqi test".into()),
        game: GameConfig::Junqi(junqi::Config::default()),
        clock: Some(clock),
        on_drop: None,
    }
}

fn act(room: RoomId, action: junqi::Action) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Junqi(action),
        info: None,
    }
}

fn deploy(room: RoomId, layout: &str) -> ClientMsg {
    act(
        room,
        junqi::Action::Deploy {
            layout: layout.parse().unwrap(),
        },
    )
}

fn move_(room: RoomId, mv: &str) -> ClientMsg {
    let mv: junqi::Move = mv.parse().unwrap();
    act(
        room,
        junqi::Action::Move {
            from: mv.from,
            to: mv.to,
        },
    )
}

fn junqi_view(view: &GameView) -> Option<&junqi::View> {
    match view {
        GameView::Junqi(view) => Some(view),
        _ => None,
    }
}

/// The latest junqi view `client` was sent for `room` (a snapshot or a `your_turn`).
fn latest_view(client: &TestClient, room: RoomId) -> junqi::View {
    client
        .log
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Room(snapshot) if snapshot.room.id == room => junqi_view(&snapshot.view).cloned(),
            ServerMsg::YourTurn {
                room: r,
                view: Some(view),
                ..
            } if *r == room => junqi_view(view).cloned(),
            _ => None,
        })
        .expect("a junqi view")
}

/// A fresh spectator snapshot of `room`.
async fn spectator_view(server: &TestServer, room: RoomId) -> junqi::View {
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    let reply = carol.request(ClientMsg::Spectate { room }).await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    latest_view(&carol, room)
}

async fn moved(client: &mut TestClient, number: u32) -> junqi::MoveRecord {
    wait_for(client, |m| match m {
        ServerMsg::Event {
            event: GameEvent::Junqi(junqi::Event::Moved { record }),
            ..
        } if record.number == number => Some(*record),
        _ => None,
    })
    .await
}

async fn ended(client: &mut TestClient) -> junqi::Outcome {
    wait_for(client, |m| match m {
        ServerMsg::Event {
            event: GameEvent::Junqi(junqi::Event::Ended { outcome }),
            ..
        } => Some(outcome.clone()),
        _ => None,
    })
    .await
}

/// Returns once `client` has received a message matching `pred`, now or earlier.
async fn received(client: &mut TestClient, pred: impl Fn(&ServerMsg) -> bool) {
    if !client.log.iter().any(&pred) {
        client.recv_until(pred).await;
    }
}

/// Whether `m` is a `your_turn` in the battle.
fn turn_to_move(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::YourTurn { view: Some(GameView::Junqi(view)), .. } if view.phase == Phase::Battle)
}

fn battle_started(m: &ServerMsg) -> bool {
    matches!(
        m,
        ServerMsg::Event {
            event: GameEvent::Junqi(junqi::Event::BattleStarted { .. }),
            ..
        }
    )
}

fn error_code(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

/// Two people in a room of the CAAI example layout against itself, in the battle, seat 0 to move.
async fn battle(server: &TestServer, clock: Clock) -> (TestClient, TestClient, RoomId) {
    let (mut red, _) = TestClient::join(&server.ws_url(), "Red").await;
    let (mut blue, _) = TestClient::join(&server.ws_url(), "Blue").await;
    let room = create(&mut red, junqi_room(clock), true).await;
    assert_eq!(join(&mut blue, room).await, Seat(1));
    your_turn(&mut red).await;
    red.send(deploy(room, "abccddeeffggghhhiiijjkklj")).await;
    blue.send(deploy(room, "abccddeeffggghhhiiijjkklj")).await;
    received(&mut red, turn_to_move).await;
    (red, blue, room)
}

#[tokio::test]
async fn seats_see_their_own_ranks_and_spectators_see_none() {
    let server = TestServer::start().await;
    let (red, _blue, room) = battle(&server, NO_CLOCK).await;
    let view = latest_view(&red, room);
    assert_eq!(view.viewer, Viewer::Seat(Seat(0)));
    assert_eq!(view.phase, Phase::Battle);
    assert_eq!(view.pieces.len(), 50);
    for piece in &view.pieces {
        assert_eq!(piece.rank.is_some(), piece.owner == Seat(0), "{piece:?}");
    }
    assert_eq!(view.layout, Some(Layout::example()));
    let spectator = spectator_view(&server, room).await;
    assert_eq!(spectator.pieces.len(), 50);
    assert!(spectator.pieces.iter().all(|p| p.rank.is_none()));
    assert_eq!(spectator.layout, None);
}

#[tokio::test]
async fn bad_input_gets_stable_codes_and_changes_nothing() {
    let server = TestServer::start().await;
    let (mut red, _) = TestClient::join(&server.ws_url(), "Red").await;
    let (mut blue, _) = TestClient::join(&server.ws_url(), "Blue").await;
    let room = create(&mut red, junqi_room(NO_CLOCK), true).await;
    join(&mut blue, room).await;
    your_turn(&mut red).await;

    // Each deployment rule, and a move before the battle.
    let before = spectator_view(&server, room).await;
    for (layout, code) in [
        ("bbccddeeffggghhhiiijjkklj", "layout_piece_count"),
        ("abccddeeffggghhhiiijjklkj", "flag_not_in_headquarters"),
        ("abccddeeffggghjhiiihjkklj", "landmine_out_of_back_rows"),
        ("kbccddeeffggghhhiiijjaklj", "bomb_in_front_row"),
    ] {
        let reply = red.request(deploy(room, layout)).await;
        assert_eq!(error_code(&reply), ErrorCode::rule(code), "{layout}");
    }
    assert_eq!(
        error_code(&red.request(move_(room, "G0F0")).await),
        ErrorCode::rule("still_deploying")
    );
    assert_eq!(spectator_view(&server, room).await, before);
    assert_eq!(before.deployed.0, [false, false]);

    red.send(deploy(room, "abccddeeffggghhhiiijjkklj")).await;
    blue.send(deploy(room, "abccddeeffggghhhiiijjkklj")).await;
    assert_eq!(
        error_code(&red.request(deploy(room, "abccddeeffggghhhiiijjkklj")).await),
        ErrorCode::rule("already_deployed")
    );
    received(&mut red, battle_started).await;
    let before = spectator_view(&server, room).await;
    assert_eq!(before.phase, Phase::Battle);
    assert_eq!(
        error_code(&blue.request(move_(room, "F0G0")).await),
        ErrorCode::rule("not_your_turn")
    );
    for (mv, code) in [
        ("L3K3", "immovable_piece"),
        ("K4J4", "immovable_piece"),
        ("F0E0", "no_piece_of_yours"),
        ("G0G1", "own_piece_at_destination"),
        ("G0E0", "unreachable_post"),
    ] {
        let reply = red.request(move_(room, mv)).await;
        assert_eq!(error_code(&reply), ErrorCode::rule(code), "{mv}");
    }
    assert_eq!(spectator_view(&server, room).await, before);

    // Red's field marshal steps into a camp; blue's does the same on its side.
    red.send(move_(room, "G0H1")).await;
    moved(&mut blue, 1).await;
    blue.send(move_(room, "F4E3")).await;
    moved(&mut red, 2).await;
    let before = spectator_view(&server, room).await;
    // G1's general would have to turn at G0 to reach F0: only engineers turn.
    assert_eq!(
        error_code(&red.request(move_(room, "G1F0")).await),
        ErrorCode::rule("railway_turn")
    );
    // Blue's marshal in the camp at E3 cannot be attacked.
    assert_eq!(
        error_code(&red.request(move_(room, "G4E3")).await),
        ErrorCode::rule("camp_protected")
    );
    assert_eq!(spectator_view(&server, room).await, before);
    // The game goes on: the general runs along row G to G0, a legal railway move.
    red.send(move_(room, "G1G0")).await;
    assert_eq!(moved(&mut blue, 3).await.result, junqi::MoveResult::Moved);
}

#[tokio::test]
async fn a_seat_whose_move_clock_runs_out_loses_and_a_slow_deployment_is_made_for_it() {
    let server = TestServer::start().await;
    let (mut red, _) = TestClient::join(&server.ws_url(), "Red").await;
    let (mut blue, _) = TestClient::join(&server.ws_url(), "Blue").await;
    // Red's layout must arrive within the deployment time even on a loaded machine.
    let clock = Clock {
        deploy_ms: 2_000,
        move_ms: 300,
        game_ms: 0,
    };
    let room = create(&mut red, junqi_room(clock), true).await;
    join(&mut blue, room).await;
    // Red deploys; blue never does, so the referee deploys a random legal layout for blue. Then
    // red, to move, never moves, and loses on time.
    red.send(deploy(room, "abccddeeffggghhhiiijjkklj")).await;
    let outcome = ended(&mut blue).await;
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert_eq!(outcome.end, End::TimedOut { seat: Seat(0) });
    let blue_layout = outcome.layouts[Seat(1)].expect("the referee deployed for blue");
    assert_eq!(blue_layout.check(), Ok(()));
    assert_eq!(outcome.layouts[Seat(0)], Some(Layout::example()));
}

/// Checks one message a bot received: before the game's end, no enemy piece's rank (but a flag
/// revealed by its field marshal's fall) and no event naming any rank. Returns how many enemy
/// pieces the message showed, to prove the check looked at something.
fn check_no_leak(text: &str, over: &mut bool, mine: &mut Vec<Seat>) -> usize {
    let msg: ServerMsg = serde_json::from_str(text).expect("server messages parse");
    if let ServerMsg::Seated { seat, .. } = &msg {
        mine.push(*seat);
    }
    let view = match &msg {
        ServerMsg::Room(snapshot) => junqi_view(&snapshot.view),
        ServerMsg::YourTurn { view: Some(view), .. } => junqi_view(view),
        ServerMsg::Event {
            event: GameEvent::Junqi(event),
            ..
        } => {
            if matches!(event, junqi::Event::Ended { .. }) {
                *over = true;
            } else if let junqi::Event::Deployment { seat, .. } = event {
                assert!(
                    mine.contains(seat),
                    "a bot was told another seat's layout: {text}"
                );
            } else {
                assert!(
                    !text.contains("rank") && !text.contains("layout"),
                    "an event names a rank: {text}"
                );
            }
            None
        }
        _ => None,
    };
    let Some(view) = view else { return 0 };
    if view.outcome.is_some() {
        return 0;
    }
    let Viewer::Seat(me) = view.viewer else {
        panic!("a bot watches only from its seats: {text}")
    };
    let mut enemies = 0;
    for piece in view.pieces.iter().filter(|p| p.owner != me) {
        enemies += 1;
        if let Some(rank) = piece.rank {
            assert!(
                rank == Rank::Flag && view.revealed_flags[piece.owner] == Some(piece.post),
                "seat {} was told the rank of the enemy piece on {}: {text}",
                me.0,
                piece.post
            );
        }
    }
    assert!(
        view.pieces
            .iter()
            .filter(|p| p.owner == me)
            .all(|p| p.rank.is_some())
    );
    enemies
}

#[tokio::test]
async fn two_bots_play_a_whole_game_over_websockets_and_never_see_an_enemy_rank() {
    let server = TestServer::start().await;
    let dir = std::env::temp_dir().join(format!("skirmish-junqi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names = ["red-bot", "blue-bot"];
    let bots = Bots::start(&server, &names, &["random"], Some(&dir)).await;
    let transcripts: Vec<_> = names.iter().map(|n| dir.join(format!("{n}.jsonl"))).collect();
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let room = create(&mut alice, junqi_room(NO_CLOCK), false).await;
    alice.request(ClientMsg::Spectate { room }).await;
    add_bots(&mut alice, room, 2, "random").await;
    let outcome = ended(&mut alice).await;
    // The bots get the end a moment after the spectator; wait until both transcripts hold it.
    for _ in 0..200 {
        if transcripts
            .iter()
            .all(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains(r#""kind":"ended""#)))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let moves = alice
        .log
        .iter()
        .filter(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Junqi(junqi::Event::Moved { .. }),
                    ..
                }
            )
        })
        .count();
    assert_eq!(outcome.moves as usize, moves, "the spectator saw every move");
    assert!(moves > 0);
    assert!(
        outcome
            .layouts
            .0
            .iter()
            .all(|l| l.is_some_and(|l| l.check().is_ok()))
    );
    bots.stop().await;
    for path in &transcripts {
        let text = std::fs::read_to_string(path).unwrap();
        let mut over = false;
        let mut enemies_seen = 0;
        let mut ended_seen = false;
        let mut mine = Vec::new();
        for line in text.lines() {
            if over {
                ended_seen = true;
                continue;
            }
            enemies_seen += check_no_leak(line, &mut over, &mut mine);
        }
        assert!(over || ended_seen, "{} saw the end", path.display());
        assert!(
            enemies_seen >= 25,
            "{} was shown the enemy's pieces",
            path.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
