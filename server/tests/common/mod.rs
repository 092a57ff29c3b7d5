//! Shared helpers for the server's integration tests.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value;
use skirmish_games::Seat;
use skirmish_games::plane::{self, Cell, Config, Facing, MatchFormat, Placement, Variant};
use skirmish_protocol::{Action, ClientMsg, Clock, GameConfig, GameEvent, RoomConfig, RoomId, ServerMsg};
use skirmish_server::testing::TestClient;

pub mod cluster;
pub mod haproxy;
pub mod ladder;
pub mod postgres;

pub fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

pub fn plane(head: &str, facing: Facing) -> Placement {
    Placement::new(cell(head), facing)
}

/// A 15x15 gomoku room (no opening) named `name`, under `rule`, with `clock`.
pub fn gomoku_room_named(name: &str, rule: skirmish_games::gomoku::Rule, clock: Clock) -> RoomConfig {
    RoomConfig {
        name: Some(name.into()),
        game: GameConfig::Gomoku(skirmish_games::gomoku::Config {
            size: 15,
            rule,
            opening: None,
        }),
        clock: Some(clock),
        on_drop: None,
    }
}

/// A bot's `hello`: `name`, offering `offer`, with the account `token` if any, asking for turn
/// views.
pub fn bot_hello(
    name: &str,
    offer: skirmish_protocol::BotOffer,
    token: Option<skirmish_protocol::AccountToken>,
) -> ClientMsg {
    ClientMsg::Hello {
        protocol: skirmish_protocol::PROTOCOL_VERSION,
        name: name.to_owned(),
        bot: Some(offer),
        resume: None,
        key: None,
        token,
        turn_view: Some(true),
        ladder: Vec::new(),
    }
}

/// The act that places a gomoku stone on `point` (`h8`).
///
/// # Panics
/// When `point` is not a point's name.
pub fn place_stone(room: RoomId, point: &str) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Gomoku(skirmish_games::gomoku::Action::Place {
            point: point.parse().expect("a point"),
        }),
        info: None,
    }
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
        on_drop: None,
    }
}

pub const NO_CLOCK: Clock = Clock {
    deploy_ms: 0,
    move_ms: 0,
    game_ms: 0,
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
        info: None,
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
        info: None,
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

/// A message stream with ids replaced by their order of first appearance, resume tokens, clock
/// readings and commitment digests blanked, so two runs can be compared. (Digests differ between
/// any two runs: each is salted with fresh random bits, which is what keeps them from telling the
/// deployment.)
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
            map.remove("deadlines_ms");
            if let Some(token) = map.get_mut("resume") {
                *token = Value::String("token".into());
            }
            if let Some(digest) = map.get_mut("sha256") {
                *digest = Value::String("digest".into());
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

/// Bot connections playing `strategies` against `server`, until `stop` is cancelled.
pub struct Bots {
    pub stop: tokio_util::sync::CancellationToken,
    handles: Vec<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl Bots {
    /// Connects one bot per name, each offering `strategies`, with a transcript per bot when
    /// `transcripts` names a folder; returns once the server lists them all.
    pub async fn start(
        server: &skirmish_server::testing::TestServer,
        names: &[&str],
        strategies: &[&str],
        transcripts: Option<&std::path::Path>,
    ) -> Bots {
        let stop = tokio_util::sync::CancellationToken::new();
        let mut handles = Vec::new();
        for name in names {
            let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), (*name).into());
            options.set_strategies(&strategies.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
            if let Some(dir) = transcripts {
                let path = dir.join(format!("{name}.jsonl"));
                let _ = std::fs::remove_file(&path);
                options.transcript = Some(path);
            }
            handles.push(tokio::spawn(skirmish_bots::client::run(options, stop.clone())));
        }
        let (mut probe, _) = TestClient::join(&server.ws_url(), "probe").await;
        for _ in 0..800 {
            if matches!(probe.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() >= names.len())
            {
                return Bots { stop, handles };
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("the bots {names:?} never connected");
    }

    /// Disconnects the bots and checks they stopped cleanly.
    pub async fn stop(self) {
        self.stop.cancel();
        for handle in self.handles {
            handle.await.unwrap().unwrap();
        }
    }
}

/// Asks for a bot of `strategy` in each empty seat of `room` (owner only).
pub async fn add_bots(owner: &mut TestClient, room: RoomId, count: usize, strategy: &str) {
    for _ in 0..count {
        let reply = owner
            .request(ClientMsg::AddBot {
                room,
                seat: None,
                strategy: Some(strategy.into()),
                level: None,
            })
            .await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    }
}

/// Receives until `pick` takes something from a message, and returns it.
pub async fn wait_for<T>(client: &mut TestClient, pick: impl Fn(&ServerMsg) -> Option<T>) -> T {
    let msg = client.recv_until(|m| pick(m).is_some()).await;
    pick(&msg).expect("the message picked")
}

/// Makes a tournament over the HTTP API at `base` (`http://host:port`) with `config`, retrying
/// while it is refused (its bots are still connecting); the status it was made with.
pub async fn create_tournament(
    base: &str,
    config: serde_json::Value,
) -> skirmish_protocol::tournament::TournamentStatus {
    let http = reqwest::Client::new();
    for _ in 0..100 {
        let response = http
            .post(format!("{base}/api/tournaments"))
            .bearer_auth(skirmish_server::testing::TestServer::TOURNAMENT_KEY)
            .json(&config)
            .send()
            .await
            .expect("the server answers");
        if response.status() == 201 {
            return response.json().await.expect("a status");
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the tournament was never made: are its bots connected?")
}

/// A tournament's status from the HTTP API at `base`.
pub async fn tournament_status(base: &str, id: &str) -> skirmish_protocol::tournament::TournamentStatus {
    reqwest::get(format!("{base}/api/tournaments/{id}"))
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("a status")
}

/// Polls a tournament's status until it is no longer running.
pub async fn tournament_over(base: &str, id: &str) -> skirmish_protocol::tournament::TournamentStatus {
    loop {
        let status = tournament_status(base, id).await;
        if status.summary.state != skirmish_protocol::tournament::TournamentState::Running {
            return status;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The server program (`skirmish-server`) on a port and a database file, with no built-in bots;
/// killed (SIGKILL) when dropped.
pub struct ServerProcess(pub std::process::Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl ServerProcess {
    /// Starts the program on `port` with `database` (a SQLite file's path or a PostgreSQL URL)
    /// and the `extra` arguments, and waits until it answers `/healthz`.
    pub async fn start(port: u16, database: impl AsRef<std::ffi::OsStr>, extra: &[&str]) -> ServerProcess {
        ServerProcess::start_with_env(port, database, extra, &[]).await
    }

    /// [`ServerProcess::start`], with the variables `env` set for the program (a debug build's
    /// fault injections, say).
    pub async fn start_with_env(
        port: u16,
        database: impl AsRef<std::ffi::OsStr>,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> ServerProcess {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish-server"))
            .envs(env.iter().copied())
            .args([
                "--port",
                &port.to_string(),
                "--bots",
                "0",
                "--log",
                &std::env::var("SKIRMISH_TEST_SERVER_LOG").unwrap_or_else(|_| "warn".to_owned()),
                "--database",
            ])
            .arg(database)
            .args(extra)
            // Tests make tournaments with the test key, as an operator would with theirs.
            .env(
                "SKIRMISH_TOURNAMENT_KEY",
                skirmish_server::testing::TestServer::TOURNAMENT_KEY,
            )
            // Its log (on stdout) is shown when SKIRMISH_TEST_SERVER_LOG asks for one.
            .stdout(if std::env::var_os("SKIRMISH_TEST_SERVER_LOG").is_some() {
                std::process::Stdio::inherit()
            } else {
                std::process::Stdio::null()
            })
            .spawn()
            .expect("the server program starts");
        let server = ServerProcess(child);
        for _ in 0..400 {
            if reqwest::get(format!("http://127.0.0.1:{port}/healthz"))
                .await
                .is_ok()
            {
                return server;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the server never answered");
    }

    /// Stops the program at once with SIGKILL: nothing of it runs after the signal.
    pub fn kill(&mut self) {
        self.0.kill().expect("SIGKILL the server");
        let _ = self.0.wait();
    }

    /// Stops the program with SIGTERM and waits for it to exit by itself; returns whether it
    /// exited successfully.
    pub fn terminate(&mut self) -> bool {
        let pid = rustix::process::Pid::from_raw(i32::try_from(self.0.id()).expect("a pid"))
            .expect("a live process");
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM the server");
        self.0.wait().expect("the server exits").success()
    }
}

/// A free TCP port on the loopback interface.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("an address").port()
}

/// Entries of `room`'s log in `database` (a SQLite file's path or a PostgreSQL URL, as
/// `--database` takes it), read with a connection of the test's own; 0 if it cannot be read.
pub async fn logged(database: impl AsRef<std::ffi::OsStr>, room: RoomId) -> usize {
    let database = database.as_ref().to_str().expect("a UTF-8 database");
    let n: i64 = if skirmish_server::store::is_postgres_url(database) {
        let Ok(mut conn) = <sqlx::PgConnection as sqlx::Connection>::connect(database).await else {
            return 0;
        };
        sqlx::query_scalar("SELECT COUNT(*) FROM room_log WHERE room = $1")
            .bind(room.to_string())
            .fetch_one(&mut conn)
            .await
            .unwrap_or(0)
    } else {
        rusqlite::Connection::open(database)
            .and_then(|db| {
                db.query_row(
                    "SELECT COUNT(*) FROM room_log WHERE room = ?1",
                    [room.to_string()],
                    |row| row.get(0),
                )
            })
            .unwrap_or(0)
    };
    usize::try_from(n).expect("a count")
}

/// Waits until the journal in `database` (as [`logged`] takes it) holds at least `entries`
/// entries of `room`'s log, so that a SIGKILL after it loses nothing the test has seen; panics
/// after 20 s.
pub async fn journaled(database: impl AsRef<std::ffi::OsStr>, room: RoomId, entries: usize) {
    for _ in 0..400 {
        if logged(database.as_ref(), room).await >= entries {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the journal never held {entries} entries of room {room}");
}

/// A WebSocket spoken byte by byte, to send what no WebSocket library would (issue 16's
/// protocol violations) and to see exactly what the server sends back.
pub mod raw {
    use std::net::SocketAddr;
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    /// Opens a TCP connection to `addr` and completes a WebSocket handshake on `/ws`.
    pub async fn upgrade(addr: SocketAddr) -> TcpStream {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        tcp.write_all(upgrade_request(addr).as_bytes()).await.unwrap();
        let head = read_head(&mut tcp).await;
        assert!(head.starts_with("HTTP/1.1 101"), "switching protocols: {head}");
        tcp
    }

    /// The handshake request a browser sends for `/ws`.
    pub fn upgrade_request(addr: SocketAddr) -> String {
        format!(
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
    }

    /// Reads an HTTP response's head, byte by byte (nothing after it is consumed).
    pub async fn read_head(tcp: &mut TcpStream) -> String {
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0u8];
            let n = tokio::time::timeout(Duration::from_secs(10), tcp.read(&mut byte))
                .await
                .expect("a response in time")
                .unwrap();
            if n == 0 {
                break;
            }
            head.push(byte[0]);
        }
        String::from_utf8_lossy(&head).into_owned()
    }

    /// A client frame: `first` is the first byte (FIN, RSV1-3, opcode), the payload is masked
    /// with a zero key (so it goes out as is), and its length is `declared` when given (a header
    /// that promises more than follows).
    pub fn frame(first: u8, payload: &[u8], declared: Option<u64>) -> Vec<u8> {
        let len = declared.unwrap_or(payload.len() as u64);
        let mut out = vec![first];
        if len < 126 {
            out.push(0x80 | len as u8);
        } else if len <= u64::from(u16::MAX) {
            out.push(0x80 | 126);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        } else {
            out.push(0x80 | 127);
            out.extend_from_slice(&len.to_be_bytes());
        }
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.extend_from_slice(payload);
        out
    }

    /// A text frame holding `text`.
    pub fn text(text: &str) -> Vec<u8> {
        frame(0x81, text.as_bytes(), None)
    }

    /// What the server sent, frame by frame.
    #[derive(Debug, PartialEq, Eq)]
    pub enum Got {
        /// A text frame.
        Text(String),
        /// A close frame with its code (1005 when it has none).
        Close(u16),
        /// The connection ended without a close frame.
        Eof,
    }

    /// The next frame from the server (pings are skipped).
    pub async fn next(tcp: &mut TcpStream) -> Got {
        loop {
            let mut head = [0u8; 2];
            let read = tokio::time::timeout(Duration::from_secs(10), tcp.read_exact(&mut head))
                .await
                .expect("a frame in time");
            if read.is_err() {
                return Got::Eof;
            }
            let mut len = u64::from(head[1] & 0x7f);
            if len == 126 {
                let mut ext = [0u8; 2];
                tcp.read_exact(&mut ext).await.unwrap();
                len = u64::from(u16::from_be_bytes(ext));
            } else if len == 127 {
                let mut ext = [0u8; 8];
                tcp.read_exact(&mut ext).await.unwrap();
                len = u64::from_be_bytes(ext);
            }
            let mut payload = vec![0u8; usize::try_from(len).unwrap()];
            if tcp.read_exact(&mut payload).await.is_err() {
                return Got::Eof;
            }
            match head[0] & 0x0f {
                0x1 => return Got::Text(String::from_utf8(payload).unwrap()),
                0x8 if payload.len() >= 2 => return Got::Close(u16::from_be_bytes([payload[0], payload[1]])),
                0x8 => return Got::Close(1005),
                _ => {}
            }
        }
    }

    /// The close code the server ends with, skipping its text frames.
    pub async fn close_code(tcp: &mut TcpStream) -> Option<u16> {
        loop {
            match next(tcp).await {
                Got::Text(_) => {}
                Got::Close(code) => return Some(code),
                Got::Eof => return None,
            }
        }
    }

    /// Whether the server closes the connection within `within` (reading and dropping whatever
    /// it sends before).
    pub async fn closed_within(tcp: &mut TcpStream, within: Duration) -> bool {
        let mut buf = [0u8; 1024];
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
                Err(_) => return false,
                Ok(Ok(0) | Err(_)) => return true,
                Ok(Ok(_)) => {}
            }
        }
    }
}

/// A person who plays legal moves: random planes, then the first open cell of the first opponent.
/// `pending` is a `your_turn` already received.
pub async fn play_until_over(
    client: &mut TestClient,
    room: skirmish_protocol::RoomId,
    mut pending: Option<ServerMsg>,
) -> plane::Outcome {
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::from_os_rng();
    loop {
        let msg = match pending.take() {
            Some(msg) => msg,
            None => {
                client
                    .recv_until(|m| {
                        matches!(m, ServerMsg::YourTurn { .. })
                            || matches!(
                                m,
                                ServerMsg::Event {
                                    event: skirmish_protocol::GameEvent::Plane(
                                        plane::Event::MatchEnded { .. }
                                    ),
                                    ..
                                }
                            )
                    })
                    .await
            }
        };
        let ServerMsg::YourTurn {
            view: Some(skirmish_protocol::GameView::Plane(view)),
            seat,
            ..
        } = msg
        else {
            let ServerMsg::Event {
                event: skirmish_protocol::GameEvent::Plane(plane::Event::MatchEnded { outcome }),
                ..
            } = msg
            else {
                unreachable!()
            };
            return outcome;
        };
        assert_eq!(view.viewer, skirmish_games::Viewer::Seat(seat));
        match view.phase {
            plane::PhaseView::Deploy { .. } => {
                client
                    .send(deploy(
                        room,
                        plane::random_deployment(view.config.variant, &mut rng),
                    ))
                    .await;
            }
            plane::PhaseView::Attack { .. } => {
                let side = view.config.variant.side();
                let board = view
                    .boards
                    .iter()
                    .find(|b| b.seat != seat && b.playing && !b.knocked_out)
                    .unwrap();
                let open = (0..usize::from(side) * usize::from(side))
                    .map(|i| plane::Cell::from_index(i, side))
                    .find(|c| {
                        !board.shots.iter().any(|s| s.cell == *c)
                            && !board.downed.iter().any(|p| p.cells(side).unwrap().contains(c))
                    })
                    .unwrap();
                client.send(fire(room, board.seat.0, &open.to_string())).await;
            }
            plane::PhaseView::Over => {}
        }
    }
}

/// Waits until `client`'s lobby lists `room` (in a cluster: the directory reached its node).
pub async fn listed(client: &mut TestClient, room: RoomId) -> skirmish_protocol::RoomSummary {
    for _ in 0..200 {
        if let ServerMsg::Rooms { rooms, .. } = client.request(ClientMsg::ListRooms).await
            && let Some(summary) = rooms.into_iter().find(|r| r.id == room)
        {
            return summary;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("room {room} never listed on this node");
}

/// Plays a scripted 3-player round in which seat 0 deploys and fires the same way, and every shot
/// finds the same result, while seats 1 and 2 hide different planes (`world` 0 or 1); the players
/// connect to `urls` (one server, or three nodes of a cluster: the room is made on the first);
/// returns the messages of seats 0 and 1.
pub async fn seat_zero_stream(urls: [&str; 3], world: usize) -> (Vec<Value>, Vec<Value>) {
    let mut clients = Vec::new();
    for (i, name) in ["Ann", "Ben", "Cat"].into_iter().enumerate() {
        clients.push(TestClient::join(urls[i], name).await.0);
    }
    let room = create(
        &mut clients[0],
        room_config(Variant::Double, 3, 1, NO_CLOCK),
        true,
    )
    .await;
    listed(&mut clients[1], room).await;
    listed(&mut clients[2], room).await;
    join(&mut clients[1], room).await;
    join(&mut clients[2], room).await;
    let hidden = [
        [plane("C1", Facing::Up), plane("E6", Facing::Up)],
        [plane("A3", Facing::Left), plane("I5", Facing::Right)],
    ];
    clients[0]
        .send(deploy(
            room,
            vec![plane("C1", Facing::Up), plane("E6", Facing::Up)],
        ))
        .await;
    // Seat 0 is ready before the others deploy: on nodes of a cluster, a deployment sent later
    // from another node could otherwise be refereed first, in one world and not the other.
    event(
        &mut clients[0],
        |e| matches!(e, plane::Event::Ready { seat: s, .. } if s.index() == 0),
    )
    .await;
    for (seat, planes) in [(1, &hidden[world]), (2, &hidden[1 - world])] {
        clients[seat].send(deploy(room, planes.to_vec())).await;
        event(
            &mut clients[0],
            |e| matches!(e, plane::Event::Ready { seat: s, .. } if s.index() == seat),
        )
        .await;
    }
    let misses = ["I1", "H1", "I9", "H9", "A9", "B9"];
    for turn in 0..6 {
        let seat = turn % 3;
        // The turn's event, not `your_turn`: a seat's deployment `your_turn` may still be unread.
        event(
            &mut clients[seat],
            |e| matches!(e, plane::Event::Turn { attacker } if attacker.index() == seat),
        )
        .await;
        let target = if seat == 0 { 1 + (turn / 3) as u8 } else { 0 };
        let at = if seat == 0 {
            misses[turn]
        } else {
            ["I1", "I9", "H1", "H9"][turn / 3 * 2 + seat - 1]
        };
        clients[seat].send(fire(room, target, at)).await;
        event(&mut clients[seat], |e| matches!(e, plane::Event::Shot { .. })).await;
    }
    // Seat 0's next turn has come and its `your_turn` with it (the earlier ones were passed
    // over with the events before them), so the pong below comes after the same messages in
    // both worlds.
    event(
        &mut clients[0],
        |e| matches!(e, plane::Event::Turn { attacker } if attacker.index() == 0),
    )
    .await;
    your_turn(&mut clients[0]).await;
    clients[0].request(ClientMsg::Ping).await;
    clients[1].request(ClientMsg::Ping).await;
    (normalized(&clients[0].texts), normalized(&clients[1].texts))
}
