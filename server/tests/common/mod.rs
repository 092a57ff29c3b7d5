//! Shared helpers for the server's integration tests.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value;
use skirmish_games::Seat;
use skirmish_games::plane::{self, Cell, Config, Facing, MatchFormat, Placement, Variant};
use skirmish_protocol::{Action, ClientMsg, Clock, GameConfig, GameEvent, RoomConfig, RoomId, ServerMsg};
use skirmish_server::testing::TestClient;

pub fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

pub fn plane(head: &str, facing: Facing) -> Placement {
    Placement::new(cell(head), facing)
}

pub fn room_config(variant: Variant, players: u8, rounds: u32, clock: Clock) -> RoomConfig {
    RoomConfig {
        name: Some("test".into()),
        game: GameConfig::Plane(Config {
            variant,
            players,
            format: MatchFormat::Rounds(rounds),
            ..Config::default()
        }),
        clock: Some(clock),
    }
}

pub const NO_CLOCK: Clock = Clock {
    deploy_ms: 0,
    move_ms: 0,
};

/// Creates a room (the creator sits in seat 0) and returns its id.
pub async fn create(client: &mut TestClient, config: RoomConfig, sit: bool) -> RoomId {
    let reply = client.request(ClientMsg::CreateRoom { config, sit }).await;
    let ServerMsg::RoomCreated { room, .. } = reply else {
        panic!("room created: {reply:?}")
    };
    room
}

pub async fn join(client: &mut TestClient, room: RoomId) -> Seat {
    let reply = client.request(ClientMsg::JoinRoom { room, seat: None }).await;
    let ServerMsg::Seated { seat, .. } = reply else {
        panic!("seated: {reply:?}")
    };
    seat
}

pub fn deploy(room: RoomId, planes: Vec<Placement>) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Plane(plane::Action::Deploy { planes }),
    }
}

pub fn fire(room: RoomId, target: u8, at: &str) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Plane(plane::Action::Fire {
            target: Seat(target),
            cell: cell(at),
        }),
    }
}

/// Waits for a plane event matching `pred`.
pub async fn event(client: &mut TestClient, pred: impl Fn(&plane::Event) -> bool) -> plane::Event {
    let msg = client
        .recv_until(|m| matches!(m, ServerMsg::Event { event: GameEvent::Plane(e), .. } if pred(e)))
        .await;
    let ServerMsg::Event {
        event: GameEvent::Plane(e),
        ..
    } = msg
    else {
        unreachable!()
    };
    e
}

pub async fn your_turn(client: &mut TestClient) -> ServerMsg {
    client
        .recv_until(|m| matches!(m, ServerMsg::YourTurn { .. }))
        .await
}

/// A message stream with ids replaced by their order of first appearance, resume tokens and clock
/// readings blanked, so two runs can be compared.
pub fn normalized(texts: &[String]) -> Vec<Value> {
    let mut ids: Vec<String> = Vec::new();
    texts
        .iter()
        .map(|t| {
            let mut v: Value = serde_json::from_str(t).unwrap();
            normalize(&mut v, &mut ids);
            v
        })
        .collect()
}

fn normalize(v: &mut Value, ids: &mut Vec<String>) {
    match v {
        Value::String(s) if uuid::Uuid::parse_str(s).is_ok() => {
            let n = ids.iter().position(|i| i == s).unwrap_or_else(|| {
                ids.push(s.clone());
                ids.len() - 1
            });
            *s = format!("id{n}");
        }
        Value::Array(items) => items.iter_mut().for_each(|i| normalize(i, ids)),
        Value::Object(map) => {
            map.remove("deadline_ms");
            if let Some(token) = map.get_mut("resume") {
                *token = Value::String("token".into());
            }
            map.values_mut().for_each(|i| normalize(i, ids));
        }
        _ => {}
    }
}

/// Every placement (`{"head": .., "facing": ..}`) in a message.
pub fn placements_in(v: &Value, out: &mut Vec<Placement>) {
    match v {
        Value::Object(map) if map.contains_key("head") && map.contains_key("facing") => {
            out.push(serde_json::from_value(v.clone()).unwrap());
        }
        Value::Object(map) => map.values().for_each(|i| placements_in(i, out)),
        Value::Array(items) => items.iter().for_each(|i| placements_in(i, out)),
        _ => {}
    }
}
