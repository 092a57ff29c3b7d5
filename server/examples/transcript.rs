//! Prints what one client sends (`>`) and receives (`<`) during a scripted 3-player plane battle
//! round on a real server: the example transcript in `protocol/README.md`.
//!
//! Run: `cargo run -p skirmish-server --example transcript`

use skirmish_games::Seat;
use skirmish_games::plane::{self, Cell, Config, Facing, MatchFormat, Placement, Variant};
use skirmish_protocol::{
    Action, ClientFrame, ClientMsg, Clock, GameConfig, GameEvent, RoomConfig, RoomId, ServerMsg,
};
use skirmish_server::testing::{TestClient, TestServer};

fn placement(head: &str, facing: Facing) -> Placement {
    Placement::new(head.parse().expect("a cell"), facing)
}

fn fire(room: RoomId, target: u8, cell: &str) -> ClientMsg {
    let cell: Cell = cell.parse().expect("a cell");
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Plane(plane::Action::Fire {
            target: Seat(target),
            cell,
        }),
        info: None,
    }
}

fn deploy(room: RoomId, planes: Vec<Placement>) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Plane(plane::Action::Deploy { planes }),
        info: None,
    }
}

/// Waits for `client`'s turn to fire: the `turn` event naming its seat, then its `your_turn`
/// (which carries no view for Ann, whose hello did not ask for one).
async fn attack_turn(client: &mut TestClient, seat: u8) {
    client
        .recv_until(|m| {
            matches!(m, ServerMsg::Event { event: GameEvent::Plane(plane::Event::Turn { attacker }), .. }
                if attacker.0 == seat)
        })
        .await;
    client
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await;
}

/// Sends as Ann, printing the frame.
async fn say(ann: &mut TestClient, msg: ClientMsg) {
    let req = ann.send(msg.clone()).await;
    println!(
        "> {}",
        serde_json::to_string(&ClientFrame { req: Some(req), msg }).expect("frames serialize")
    );
}

/// Prints everything Ann received since the last call.
fn heard(ann: &TestClient, printed: &mut usize) {
    for text in &ann.texts[*printed..] {
        println!("< {text}");
    }
    *printed = ann.texts.len();
}

#[tokio::main]
async fn main() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let mut ann = TestClient::connect(&url).await;
    let mut printed = 0;
    say(
        &mut ann,
        ClientMsg::Hello {
            protocol: 1,
            name: "Ann".into(),
            bot: None,
            resume: None,
            key: None,
            token: None,
            turn_view: None,
            ladder: Vec::new(),
        },
    )
    .await;
    ann.recv().await;
    heard(&ann, &mut printed);
    let (mut ben, _) = TestClient::join(&url, "Ben").await;
    let (mut cat, _) = TestClient::join(&url, "Cat").await;
    let config = RoomConfig {
        name: Some("Friday".into()),
        game: GameConfig::Plane(Config {
            variant: Variant::Classic,
            players: 3,
            format: MatchFormat::Rounds(1),
            ..Config::default()
        }),
        clock: Some(Clock {
            deploy_ms: 60_000,
            move_ms: 30_000,
            game_ms: 0,
        }),
        on_drop: None,
    };
    say(&mut ann, ClientMsg::CreateRoom { config, sit: true }).await;
    let ServerMsg::RoomCreated { room, .. } = ann.recv().await else {
        panic!("room created")
    };
    ann.recv_until(|m| matches!(m, ServerMsg::Room(_))).await;
    heard(&ann, &mut printed);
    ben.request(ClientMsg::JoinRoom { room, seat: None }).await;
    cat.request(ClientMsg::JoinRoom { room, seat: None }).await;
    ann.recv_until(|m| matches!(m, ServerMsg::YourTurn { .. })).await;
    heard(&ann, &mut printed);
    say(&mut ann, deploy(room, vec![placement("C1", Facing::Up)])).await;
    ben.send(deploy(room, vec![placement("D4", Facing::Down)])).await;
    cat.send(deploy(room, vec![placement("A4", Facing::Left)])).await;
    attack_turn(&mut ann, 0).await;
    heard(&ann, &mut printed);
    // Ann misses Ben; Ben hits Cat; Cat misses Ann; Ann downs Ben's plane (a knockout: 3 points);
    // Cat misses Ann again; Ann downs Cat's plane and wins the round and the match.
    say(&mut ann, fire(room, 1, "G7")).await;
    attack_turn(&mut ben, 1).await;
    ben.send(fire(room, 2, "B4")).await;
    attack_turn(&mut cat, 2).await;
    cat.send(fire(room, 0, "G1")).await;
    attack_turn(&mut ann, 0).await;
    heard(&ann, &mut printed);
    say(&mut ann, fire(room, 1, "D4")).await;
    attack_turn(&mut cat, 2).await;
    cat.send(fire(room, 0, "G2")).await;
    attack_turn(&mut ann, 0).await;
    heard(&ann, &mut printed);
    say(&mut ann, fire(room, 2, "A4")).await;
    ann.recv_until(|m| {
        matches!(
            m,
            ServerMsg::Event {
                event: skirmish_protocol::GameEvent::Plane(plane::Event::MatchEnded { .. }),
                ..
            }
        )
    })
    .await;
    heard(&ann, &mut printed);
    server.stop().await;
}
