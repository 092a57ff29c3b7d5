//! One room of a load run: its seats' connections, as people (not bots), play uniformly random
//! legal moves the moment the server says it is their turn, and open a new room when a match ends.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::stream::{BoxStream, SplitSink, select_all};
use futures_util::{SinkExt, StreamExt};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Deserialize;
use skirmish_games::Seat;
use skirmish_protocol::{
    Action, ClientFrame, ClientMsg, ErrorCode, GameConfig, GameKind, GameView, PROTOCOL_VERSION, RoomConfig,
    RoomId,
};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::{LoadGame, Shared};
use skirmish_bots::Budget;

/// How many times a seat tries `join_room` again after `no_such_room` (a room created through
/// another node of a cluster, not yet in the joining node's directory), and how long it waits
/// before each: 100 times 5 ms, half a second in all.
const JOIN_RETRIES: u32 = 100;
const JOIN_RETRY: Duration = Duration::from_millis(5);

/// The sending half of one connection.
pub(super) type Sink = SplitSink<WebSocketStream<MaybeTlsStream<TcpStream>>, Message>;
/// The receiving half of one connection.
pub(super) type Stream = futures_util::stream::SplitStream<WebSocketStream<MaybeTlsStream<TcpStream>>>;

/// A connection's incoming frames, tagged with the connection's index in its room.
pub(super) type Tagged = BoxStream<'static, (usize, Result<Message, tokio_tungstenite::tungstenite::Error>)>;

/// What the load client reads of a server message: just enough to play and to time moves.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Incoming {
    RoomCreated {
        room: RoomId,
    },
    Seated {
        room: RoomId,
        seat: Seat,
    },
    YourTurn {
        room: RoomId,
        seat: Seat,
        view: Box<GameView>,
    },
    Event {
        room: RoomId,
        event: EventHead,
    },
    Error {
        code: ErrorCode,
    },
    #[serde(other)]
    Other,
}

/// An event's kind and the seat it is about.
#[derive(Deserialize)]
struct EventHead {
    kind: String,
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default)]
    attacker: Option<Seat>,
}

impl EventHead {
    /// Whether this event applies an action of `seat`: its deployment, shot, stone or move.
    fn applies(&self, seat: Seat) -> bool {
        match self.kind.as_str() {
            "ready" | "placed" | "deployed" | "moved" => self.seat == Some(seat),
            "shot" => self.attacker == Some(seat),
            _ => self.ends(),
        }
    }

    /// Whether the match is over (plane battle's `match_ended`, gomoku's and junqi's `ended`).
    fn ends(&self) -> bool {
        matches!(self.kind.as_str(), "match_ended" | "ended")
    }
}

/// Connects to `url` with Nagle off, says hello as a person named `name` and waits for `welcome`.
///
/// # Errors
/// Connection, handshake or protocol errors, or no `welcome` within 30 s.
pub(super) async fn connect(url: &str, name: &str, shared: &Shared) -> anyhow::Result<(Sink, Stream)> {
    let (mut sink, mut stream) = connect_raw(url, shared).await?.split();
    let handshake = async {
        let hello = ClientFrame {
            req: None,
            msg: ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                name: name.to_owned(),
                bot: None,
                resume: None,
                key: None,
                token: None,
                turn_view: Some(true),
                ladder: Vec::new(),
            },
        };
        sink.send(Message::text(serde_json::to_string(&hello)?)).await?;
        match stream.next().await {
            Some(Ok(Message::Text(text))) if text.as_str().contains("\"welcome\"") => Ok((sink, stream)),
            other => anyhow::bail!("no welcome: {other:?}"),
        }
    };
    tokio::time::timeout(Duration::from_secs(30), handshake).await?
}

/// Opens a WebSocket to `url` with Nagle off, at most [`super::CONNECTING`] handshakes at once.
///
/// # Errors
/// Connection or handshake errors, or no connection within 30 s.
pub(super) async fn connect_raw(
    url: &str,
    shared: &Shared,
) -> anyhow::Result<WebSocketStream<MaybeTlsStream<TcpStream>>> {
    let _permit = shared.connecting.acquire().await?;
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(super::READ_BUFFER_BYTES);
    let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
    let (socket, _) = tokio::time::timeout(Duration::from_secs(30), connect).await??;
    Ok(socket)
}

/// A seat's player: the `random` strategy of each game, made at its first turn in that game.
struct Player {
    rng: SmallRng,
    players: HashMap<GameKind, Box<dyn skirmish_bots::player::Player>>,
}

impl Player {
    /// The action `seat` takes in `view`, or `None` when it is not to act.
    fn decide(&mut self, view: &GameView, seat: Seat) -> Option<Action> {
        let budget = Budget::new(0, Duration::ZERO);
        let player = match self.players.entry(view.kind()) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(skirmish_bots::player::built_in_player(view.kind(), "random")?)
            }
        };
        match player.decide(view, seat, budget, &mut self.rng)? {
            skirmish_bots::player::Decision::Act(action) => Some(action),
            skirmish_bots::player::Decision::EngineFailed(_) => None,
        }
    }
}

/// Sends `frame` on `sink`, counting it.
async fn send(sink: &mut Sink, frame: &ClientFrame, shared: &Shared) -> anyhow::Result<()> {
    let text = serde_json::to_string(frame)?;
    shared.recorder.sent(Instant::now(), text.len());
    sink.send(Message::text(text)).await?;
    Ok(())
}

fn frame(msg: ClientMsg) -> ClientFrame {
    ClientFrame { req: None, msg }
}

/// The room config a load room asks for: the game's defaults, the server's default clock.
fn config(game: LoadGame) -> RoomConfig {
    let game = match game {
        LoadGame::Plane2 | LoadGame::Plane3 => GameConfig::Plane(skirmish_games::plane::Config {
            players: if game == LoadGame::Plane2 { 2 } else { 3 },
            ..Default::default()
        }),
        LoadGame::Gomoku => GameConfig::Gomoku(Default::default()),
        LoadGame::Junqi => GameConfig::Junqi(Default::default()),
    };
    RoomConfig {
        name: None,
        game,
        clock: None,
        on_drop: None,
    }
}

/// Runs room number `index` of the load: connects its seats, seat `i` to `urls[i]` (one URL per
/// seat, [`super::seat_url`]), waits for `shared.go`, then plays match after match until
/// `shared.stop`. With `idle`, it seats everyone and starts the match but never moves.
pub(super) async fn room(index: usize, urls: Vec<String>, game: LoadGame, idle: bool, shared: Arc<Shared>) {
    let seats = game.seats();
    debug_assert_eq!(urls.len(), seats, "one URL per seat");
    let mut sinks = Vec::with_capacity(seats);
    let mut streams = Vec::with_capacity(seats);
    for (i, url) in urls.iter().enumerate() {
        match connect(url, &format!("load-{index}-{i}"), &shared).await {
            Ok((sink, stream)) => {
                shared.recorder.connection(1);
                sinks.push(sink);
                streams.push(stream.map(move |m| (i, m)).boxed());
            }
            Err(err) => {
                tracing::debug!(room = index, cause = %err, "connection failed");
                shared.recorder.error("connect");
                break;
            }
        }
    }
    let held = i64::try_from(sinks.len()).expect("few seats");
    shared.settled.fetch_add(1, Ordering::Relaxed);
    if sinks.len() == seats {
        tokio::select! {
            () = shared.stop.cancelled() => {}
            () = shared.go.cancelled() => {
                if let Err(err) = play(index, game, idle, &mut sinks, select_all(streams), &shared).await {
                    tracing::debug!(room = index, cause = %err, "room ended");
                    shared.recorder.error("closed");
                }
            }
        }
    }
    for sink in &mut sinks {
        let _ = sink.send(Message::Close(None)).await;
    }
    shared.recorder.connection(-held);
}

async fn play(
    index: usize,
    game: LoadGame,
    idle: bool,
    sinks: &mut [Sink],
    mut streams: futures_util::stream::SelectAll<Tagged>,
    shared: &Shared,
) -> anyhow::Result<()> {
    let recorder = &shared.recorder;
    let mut player = Player {
        rng: SmallRng::from_os_rng(),
        players: HashMap::new(),
    };
    let mut room: Option<RoomId> = None;
    let mut seat_of: Vec<Option<Seat>> = vec![None; sinks.len()];
    let mut pending: Vec<Option<Instant>> = vec![None; sinks.len()];
    let mut started = false;
    let create = frame(ClientMsg::CreateRoom {
        config: config(game),
        sit: true,
    });
    send(&mut sinks[0], &create, shared).await?;
    // Frames to send later, per connection: an `act` after the think time, or a `join_room`
    // tried again (the flag says which: only an `act` starts a round trip).
    let mut due: Vec<Option<(Instant, ClientFrame, bool)>> = vec![None; sinks.len()];
    let mut joins_retried: Vec<u32> = vec![0; sinks.len()];
    loop {
        let next_due = due.iter().flatten().map(|(at, _, _)| *at).min();
        let next = tokio::select! {
            () = shared.stop.cancelled() => return Ok(()),
            () = sleep_until(next_due) => {
                let now = Instant::now();
                for (i, slot) in due.iter_mut().enumerate() {
                    if let Some((_, frame, is_act)) = slot.take_if(|(at, _, _)| *at <= now) {
                        if is_act {
                            pending[i] = Some(Instant::now());
                        }
                        send(&mut sinks[i], &frame, shared).await?;
                    }
                }
                continue;
            }
            next = tokio::time::timeout(shared.stall, streams.next()) => next,
        };
        let (i, message) = match next {
            Ok(Some(next)) => next,
            Ok(None) => anyhow::bail!("every connection closed"),
            Err(_) if idle => continue,
            Err(_) => {
                // Nothing for a long while: start over in a new room.
                recorder.error("stall");
                pending.iter_mut().for_each(|p| *p = None);
                due.iter_mut().for_each(|d| *d = None);
                room = None;
                send(&mut sinks[0], &create, shared).await?;
                continue;
            }
        };
        let at = Instant::now();
        let text = match message? {
            Message::Text(text) => text,
            Message::Close(frame) => anyhow::bail!("server closed connection {i}: {frame:?}"),
            _ => continue,
        };
        recorder.received(at, text.len());
        let incoming: Incoming = match serde_json::from_str(text.as_str()) {
            Ok(incoming) => incoming,
            Err(err) => {
                tracing::debug!(cause = %err, "unreadable server message");
                recorder.error("protocol");
                continue;
            }
        };
        match incoming {
            Incoming::RoomCreated { room: id } if i == 0 => {
                room = Some(id);
                started = false;
                seat_of[1..].iter_mut().for_each(|s| *s = None);
                joins_retried.iter_mut().for_each(|n| *n = 0);
                for sink in &mut sinks[1..] {
                    send(sink, &frame(ClientMsg::JoinRoom { room: id, seat: None }), shared).await?;
                }
            }
            Incoming::Seated { room: id, seat } if Some(id) == room => seat_of[i] = Some(seat),
            Incoming::YourTurn { room: id, seat, view } if Some(id) == room => {
                if !started {
                    started = true;
                    shared.started.fetch_add(1, Ordering::Relaxed);
                }
                if idle {
                    continue;
                }
                if let Some(action) = player.decide(&view, seat) {
                    let act = frame(ClientMsg::Act {
                        room: id,
                        seat: None,
                        action,
                        info: None,
                    });
                    if shared.think.is_zero() {
                        pending[i] = Some(Instant::now());
                        send(&mut sinks[i], &act, shared).await?;
                    } else {
                        // Sent later by the loop, which keeps reading the room's other
                        // connections meanwhile so that their round trips stay exact.
                        due[i] = Some((Instant::now() + shared.think, act, true));
                    }
                }
            }
            Incoming::Event { room: id, event } if Some(id) == room => {
                if let (Some(sent), Some(seat)) = (pending[i], seat_of[i])
                    && event.applies(seat)
                {
                    recorder.round_trip(index, sent, at);
                    pending[i] = None;
                }
                if event.ends() && i == 0 {
                    recorder.match_ended(at);
                    shared.finished.fetch_add(1, Ordering::Relaxed);
                    pending.iter_mut().for_each(|p| *p = None);
                    due.iter_mut().for_each(|d| *d = None);
                    room = None;
                    if !shared.stop.is_cancelled() {
                        send(&mut sinks[0], &create, shared).await?;
                    }
                }
            }
            Incoming::Error { code } => {
                recorder.error(code.as_str());
                pending[i] = None;
                // A room created on one node and joined at once through another: the joining
                // node may not have the room in its directory yet. Counted, and tried again.
                if let Some(id) = room
                    && code == ErrorCode::NoSuchRoom
                    && i != 0
                    && seat_of[i].is_none()
                    && joins_retried[i] < JOIN_RETRIES
                {
                    joins_retried[i] += 1;
                    let join = frame(ClientMsg::JoinRoom { room: id, seat: None });
                    due[i] = Some((Instant::now() + JOIN_RETRY, join, false));
                }
            }
            _ => {}
        }
    }
}

/// Sleeps until `at`, or forever when there is nothing to wait for.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
