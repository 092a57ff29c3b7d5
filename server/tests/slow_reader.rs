//! A client that stops reading its socket is closed with 4008 (`CLOSE_TOO_SLOW`) once its bounded
//! outgoing queue (`Limits::outbox_capacity`) overflows, while its room goes on without it; it then
//! reconnects with its resume token and gets its seat back.
//!
//! Making a room's sends back up in a test takes small socket buffers on both sides. On Linux a
//! loopback connection's send buffer grows by itself to about 4 MB, so a reader that never reads
//! would first soak up megabytes (tens of thousands of frames) in the kernel before the server's
//! queue held a single frame. A send buffer set on the listening socket fixes that size for every
//! connection it accepts (`SO_SNDBUF` is inherited, and setting it turns the growing off), and the
//! slow client's own receive buffer is made small too; together they hold a few kilobytes.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::plane::{PlaneStrategy, RandomStrategy};
use skirmish_games::Seat;
use skirmish_games::plane::{self, PhaseView, Variant};
use skirmish_protocol::{Action, ClientMsg, Clock, GameEvent, GameView, PROTOCOL_VERSION, RoomId, ServerMsg};
use skirmish_server::Limits;
use skirmish_server::session::CLOSE_TOO_SLOW;
use skirmish_server::testing::{TestClient, TestServer};

/// The send buffer of every server-side socket (the kernel doubles it for its bookkeeping).
const SERVER_SEND_BUFFER: u32 = 4096;
/// The slow client's receive buffer.
const CLIENT_RECV_BUFFER: u32 = 4096;
/// Frames the server may queue for one connection before it closes it: small, so that the
/// overflow comes soon; the default is 1,024.
const OUTBOX_CAPACITY: usize = 8;
/// Room events the other player sees while the slow client reads nothing. The slow client is sent
/// at least as many frames (every public event, and its own `your_turn`s besides), against well
/// under a hundred that its path can hold without the queue overflowing: a few kilobytes in the
/// two sockets (about 20 frames), at most 64 frames written by the session in one batch before
/// its flush blocks, and the queue's 8. So the overflow is certain, several times over.
const EVENTS_WHILE_SLOW: usize = 400;
/// How long the slow client may take, once it reads again, to reach the close: generous, as it
/// only has to read what was in flight. Without the kick it would never come (the connection
/// would stay open, the room writing to it), and the test fails here.
const CLOSE_WITHIN: Duration = Duration::from_secs(60);
/// How long the reconnected client may take to land a shot of its own: generous too.
const PLAY_WITHIN: Duration = Duration::from_secs(60);

/// Both seats' clocks: the referee deploys and fires for a seat that has not acted within 100 ms,
/// which is how the slow client's seat keeps playing (and its room keeps sending) while it reads
/// nothing.
const FAST_CLOCK: Clock = Clock {
    deploy_ms: 100,
    move_ms: 100,
    game_ms: 0,
};

/// A server whose accepted sockets have a small, fixed send buffer.
async fn start_server() -> TestServer {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .set_send_buffer_size(SERVER_SEND_BUFFER)
        .expect("SO_SNDBUF on the listener");
    socket
        .bind("127.0.0.1:0".parse().expect("an address"))
        .expect("bind a loopback port");
    let listener = socket.listen(1024).expect("listen");
    let limits = Limits {
        outbox_capacity: OUTBOX_CAPACITY,
        // The slow client sends nothing, not even pongs, for the whole test: no idle close (4000)
        // may come first.
        idle_timeout_ms: 600_000,
        ..Limits::default()
    };
    TestServer::start_on(listener, limits).await
}

/// A client on a TCP connection with a small receive buffer.
async fn connect_with_small_receive_buffer(addr: SocketAddr) -> TestClient {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .set_recv_buffer_size(CLIENT_RECV_BUFFER)
        .expect("SO_RCVBUF before connecting");
    let stream = socket.connect(addr).await.expect("connect to the test server");
    TestClient::connect_over(stream, &format!("ws://{addr}/ws")).await
}

fn hello(name: &str, resume: Option<skirmish_protocol::ResumeToken>) -> ClientMsg {
    ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: name.to_owned(),
        bot: None,
        resume,
        key: None,
        token: None,
        turn_view: Some(true),
        ladder: Vec::new(),
    }
}

/// A plane battle player that answers every `your_turn` with a random legal action, and counts
/// what it sees.
struct Player {
    seat: Seat,
    rng: SmallRng,
    /// The shot it last sent, to tell its own shots from the referee's.
    fired: Option<(Seat, plane::Cell)>,
    /// Events received.
    events: usize,
    /// Its own shots applied (not the referee's shots for it).
    own_shots: usize,
}

impl Player {
    fn new(seat: Seat) -> Player {
        Player {
            seat,
            rng: SmallRng::seed_from_u64(u64::from(seat.0)),
            fired: None,
            events: 0,
            own_shots: 0,
        }
    }

    /// Reads one message and acts on it: plays on `your_turn`, counts events. An act may be
    /// refused (`not_your_turn`) when the 100 ms clock played for the seat first; that is no fault.
    async fn step(&mut self, client: &mut TestClient, room: RoomId) -> ServerMsg {
        let msg = client.recv().await;
        match &msg {
            ServerMsg::YourTurn {
                room: r,
                view: Some(GameView::Plane(view)),
                ..
            } if *r == room => {
                let action = match view.phase {
                    PhaseView::Deploy { .. } => plane::Action::Deploy {
                        planes: RandomStrategy.deploy(view, &mut self.rng),
                    },
                    PhaseView::Attack { attacker } if attacker == self.seat => {
                        let (target, cell) = RandomStrategy.fire(view, &mut self.rng);
                        self.fired = Some((target, cell));
                        plane::Action::Fire { target, cell }
                    }
                    _ => return msg,
                };
                client
                    .send(ClientMsg::Act {
                        room,
                        seat: None,
                        action: Action::Plane(action),
                        info: None,
                    })
                    .await;
            }
            ServerMsg::Event { room: r, event, .. } if *r == room => {
                self.events += 1;
                if let GameEvent::Plane(plane::Event::Shot {
                    attacker,
                    target,
                    cell,
                    by_default: false,
                    ..
                }) = event
                    && *attacker == self.seat
                    && self.fired == Some((*target, *cell))
                {
                    self.own_shots += 1;
                }
            }
            _ => {}
        }
        msg
    }
}

/// Whether `msg` is a snapshot of `room` showing `seat`'s occupant connected (or not).
fn shows_connected(msg: &ServerMsg, room: RoomId, seat: Seat, connected: bool) -> bool {
    matches!(msg, ServerMsg::Room(snapshot) if snapshot.room.id == room
        && snapshot.room.seats.iter().any(|s| s.seat == seat
            && s.occupant.as_ref().is_some_and(|o| o.connected == connected)))
}

#[tokio::test]
async fn a_client_that_stops_reading_is_closed_with_4008_and_its_room_plays_on() {
    let server = start_server().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let room = create(&mut alice, room_config(Variant::Double, 2, 100, FAST_CLOCK), true).await;

    // Slow says hello, keeps its resume token, sits down, and from then on reads nothing.
    let mut slow = connect_with_small_receive_buffer(server.addr).await;
    let ServerMsg::Welcome { resume: token, .. } = slow.request(hello("Slow", None)).await else {
        panic!("welcome: {:?}", slow.log)
    };
    let slow_seat = join(&mut slow, room).await;

    // Alice plays on while Slow reads nothing: the room must not wait for Slow's socket, and
    // Slow's seat is played by the clock, so the room keeps sending to Slow all along.
    let mut player = Player::new(Seat(0));
    assert_ne!(slow_seat, player.seat);
    while player.events < EVENTS_WHILE_SLOW {
        player.step(&mut alice, room).await;
    }

    // Slow reads again: what was in flight, then the close. Without the bound (or the kick) the
    // frames would keep coming and no close would.
    let mut read = 0;
    let reading = async {
        while slow.try_recv().await.is_some() {
            read += 1;
        }
    };
    let ended = tokio::time::timeout(CLOSE_WITHIN, reading).await;
    assert!(
        ended.is_ok(),
        "Slow read {read} frames in {CLOSE_WITHIN:?} and was never closed for falling behind"
    );
    assert_eq!(
        slow.closed,
        Some(CLOSE_TOO_SLOW),
        "Slow's connection ended with 4008 after {read} frames"
    );

    // The room saw Slow go, and goes on: Alice keeps getting events and her shots keep landing.
    loop {
        let msg = player.step(&mut alice, room).await;
        if shows_connected(&msg, room, slow_seat, false) {
            break;
        }
    }
    let (events, shots) = (player.events, player.own_shots);
    while player.own_shots < shots + 5 {
        player.step(&mut alice, room).await;
    }
    assert!(player.events > events);

    // Slow reconnects with its token and gets its seat back; Alice sees it connected again.
    let mut back = TestClient::connect(&server.ws_url()).await;
    let welcome = back.request(hello("Slow", Some(token))).await;
    let ServerMsg::Welcome { seats, .. } = &welcome else {
        panic!("welcome: {welcome:?}")
    };
    assert!(
        seats.iter().any(|s| s.room == room && s.seat == slow_seat),
        "the seat is back: {seats:?}"
    );
    loop {
        let msg = player.step(&mut alice, room).await;
        if shows_connected(&msg, room, slow_seat, true) {
            break;
        }
    }
    // And plays it: one of its own shots is applied (an act may race the 100 ms clock and be
    // refused, so it plays until one lands), while Alice plays on alongside.
    let mut slow_player = Player::new(slow_seat);
    let playing_both = async {
        loop {
            tokio::select! {
                _ = slow_player.step(&mut back, room) => {
                    if slow_player.own_shots > 0 {
                        break;
                    }
                }
                _ = player.step(&mut alice, room) => {}
            }
        }
    };
    tokio::time::timeout(PLAY_WITHIN, playing_both)
        .await
        .expect("the reconnected client plays its seat");
    server.stop().await;
}
