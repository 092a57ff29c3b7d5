//! A session whose peer never stops sending is still closed at once by a takeover or a server
//! shutting down.
//!
//! A session over a socket whose peer stops reading: every write it then makes gives up after
//! [`SLOW_CLOSE_WAIT`], so the connection, and the seats it holds, end (a hostile peer's way to
//! hold a session open for ever). The socket is a stand-in that accepts writes until told to
//! stop and then never again, as a socket whose buffers are full; the clock is tokio's paused
//! clock, so the waits take no real time.

use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::{Sink, Stream};
use skirmish_protocol::{ClientFrame, ClientMsg, PROTOCOL_VERSION};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::{Peer, SLOW_CLOSE_WAIT, run};
use crate::journal::Journal;
use crate::lobby::Lobby;
use crate::store::Store;
use crate::tournament::Tournaments;
use crate::{Addresses, AppState, Limits, SharedState};

/// What the session wrote, and how many writes the stand-in still takes.
#[derive(Default)]
struct Written {
    texts: Vec<String>,
    /// The close code the session sent, if it sent one.
    closed: Option<u16>,
    /// Writes taken before the socket counts as full (and stays so).
    room_for: usize,
}

/// A socket: frames in from a channel the test feeds, writes out to [`Written`] until it is full.
struct StuckSocket {
    incoming: mpsc::UnboundedReceiver<Message>,
    written: Arc<Mutex<Written>>,
}

impl Stream for StuckSocket {
    type Item = Result<Message, std::io::Error>;

    fn poll_next(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.incoming.poll_recv(cx).map(|m| m.map(Ok))
    }
}

impl Sink<Message> for StuckSocket {
    type Error = std::io::Error;

    fn poll_ready(self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        let written = self.written.lock().unwrap();
        // Full: never ready again, and no waker kept (no reader will ever make room).
        if written.room_for == 0 {
            Poll::Pending
        } else {
            Poll::Ready(Ok(()))
        }
    }

    fn start_send(self: std::pin::Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
        let mut written = self.written.lock().unwrap();
        written.room_for -= 1;
        match item {
            Message::Text(text) => written.texts.push(text.to_string()),
            Message::Close(frame) => written.closed = frame.map(|f| f.code),
            _ => {}
        }
        Ok(())
    }

    fn poll_flush(self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn poll_close(self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }
}

/// A server's state as `run` makes it, with `limits` and a database in memory.
async fn state(limits: Limits) -> AppState {
    let store = Store::in_memory().await.expect("a database in memory");
    let lobby = Lobby::default();
    let journal = Journal::start(store.clone());
    let shutdown = CancellationToken::new();
    let tournaments = Tournaments::restore(
        store.clone(),
        lobby.clone(),
        journal.clone(),
        shutdown.clone(),
        Vec::new(),
    )
    .await
    .expect("no tournaments to restore");
    let ladders = crate::ladder::Ladders::open(
        store.clone(),
        lobby.clone(),
        journal.clone(),
        shutdown.clone(),
        &tournaments,
        limits.ladder_options(),
    )
    .await
    .expect("the ladders start");
    AppState::new(SharedState {
        limits,
        metrics: Arc::default(),
        addresses: Addresses::default(),
        unwelcomed: Addresses::default(),
        lobby,
        shutdown,
        sessions: TaskTracker::new(),
        tournaments,
        ladders,
        journal,
        store,
        cluster: None,
        tournament_makers: crate::api::Makers::default(),
    })
}

/// A client frame as text.
fn text(req: u64, msg: ClientMsg) -> Message {
    let frame = ClientFrame { req: Some(req), msg };
    Message::Text(serde_json::to_string(&frame).expect("a frame serializes").into())
}

/// A session's task, the channel of frames into it, and what it wrote.
type Greeted = (
    tokio::task::JoinHandle<()>,
    mpsc::UnboundedSender<Message>,
    Arc<Mutex<Written>>,
);

/// Starts a session on a [`StuckSocket`] that takes `room_for` writes, says hello as `name`
/// (with `resume`, if given), and waits in real time for the welcome, which it returns parsed.
/// The handshake reads the database (is the name an account's?): in real time, so that a paused
/// clock does not jump to the hello timeout while it waits on the database's thread.
async fn greet(
    state: &AppState,
    name: &str,
    resume: Option<skirmish_protocol::ResumeToken>,
    room_for: usize,
) -> (Greeted, serde_json::Value) {
    let (tx, incoming) = mpsc::unbounded_channel();
    let written = Arc::new(Mutex::new(Written {
        texts: Vec::new(),
        closed: None,
        room_for,
    }));
    let socket = StuckSocket {
        incoming,
        written: written.clone(),
    };
    let session = tokio::spawn(run(Box::new(socket), state.clone(), Peer::default()));
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: name.to_owned(),
        bot: None,
        resume,
        key: None,
        token: None,
        turn_view: None,
        ladder: Vec::new(),
    };
    tx.send(text(1, hello)).expect("the session reads");
    for _ in 0..500 {
        if !written.lock().unwrap().texts.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let first = written.lock().unwrap().texts.first().cloned().unwrap_or_default();
    let welcome: serde_json::Value = serde_json::from_str(&first).unwrap_or_default();
    assert_eq!(welcome["type"], "welcome", "no welcome: {first:?}");
    ((session, tx, written), welcome)
}

/// [`greet`] on a socket that takes the `welcome` and no other write; then pauses the clock.
async fn welcomed(limits: Limits) -> Greeted {
    let state = state(limits).await;
    let (greeted, _) = greet(&state, "reader", None, 1).await;
    tokio::time::pause();
    greeted
}

/// The peer stops reading after the welcome and asks for one answer: the outbox's write of it
/// waits on the full socket, and gives up after SLOW_CLOSE_WAIT. No more frames come, so no
/// outbox overflow would ever kick this connection; without the bound it would hang on.
#[tokio::test]
async fn a_write_to_a_peer_that_stopped_reading_gives_up() {
    let (session, tx, written) = welcomed(Limits::default()).await;
    let started = tokio::time::Instant::now();
    // Not a request the server knows: its answer is an `error` through the outbox.
    tx.send(Message::Text("{\"req\":2,\"type\":\"no_such_request\"}".into()))
        .expect("the session reads");
    let ended = tokio::time::timeout(SLOW_CLOSE_WAIT * 3, session).await;
    assert!(ended.is_ok(), "the session still waits on its write");
    let waited = started.elapsed();
    assert!(
        waited >= SLOW_CLOSE_WAIT && waited < SLOW_CLOSE_WAIT + Duration::from_secs(1),
        "ended after {waited:?}"
    );
    assert_eq!(written.lock().unwrap().texts.len(), 1, "only the welcome got out");
    drop(tx);
}

/// The peer sends nothing and reads nothing after the welcome: the idle check's ping waits on
/// the full socket and gives up after SLOW_CLOSE_WAIT (it had no bound before).
#[tokio::test]
async fn a_ping_to_a_peer_that_stopped_reading_gives_up() {
    let idle = Duration::from_secs(10);
    let limits = Limits {
        idle_timeout_ms: 10_000,
        ..Limits::default()
    };
    let (session, tx, _) = welcomed(limits).await;
    let started = tokio::time::Instant::now();
    let ended = tokio::time::timeout(SLOW_CLOSE_WAIT * 3, session).await;
    assert!(ended.is_ok(), "the session still waits on its ping");
    let waited = started.elapsed();
    // The ping goes at half the idle time after the last frame heard, then waits its bound.
    assert!(
        waited >= SLOW_CLOSE_WAIT + idle / 2 - Duration::from_secs(1) && waited < SLOW_CLOSE_WAIT + idle,
        "ended after {waited:?}"
    );
    drop(tx);
}

/// Frames a flooding peer queues at once.
const FLOOD: usize = 200_000;

/// A server whose limits let one connection send [`FLOOD`] frames at once, and a greeted
/// connection that has queued them all (unknown requests: each is answered with an `error`):
/// its session always has a frame to read and an answer to write. Returns the state, the
/// session, what it wrote, and its welcome.
async fn flooding() -> (AppState, Greeted, serde_json::Value) {
    let state = state(Limits {
        messages_per_second: 1_000_000,
        message_burst: 1_000_000,
        ..Limits::default()
    })
    .await;
    let (greeted, welcome) = greet(&state, "flooder", None, usize::MAX).await;
    for req in 0..FLOOD {
        greeted
            .1
            .send(Message::Text(
                format!("{{\"req\":{},\"type\":\"no_such_request\"}}", req + 2).into(),
            ))
            .expect("the session reads");
    }
    (state, greeted, welcome)
}

/// Waits (at most 30 s) for the flooding session to end, and checks it closed with `code`
/// long before it would have answered every frame.
async fn closed_early((session, _flood, written): Greeted, code: u16) {
    let ended = tokio::time::timeout(Duration::from_secs(30), session).await;
    assert!(ended.is_ok(), "the flooding connection is still open");
    let written = written.lock().unwrap();
    assert_eq!(written.closed, Some(code), "closed without {code}");
    assert!(
        written.texts.len() < FLOOD / 2,
        "answered {} of {FLOOD} frames before it closed",
        written.texts.len()
    );
}

/// A hostile peer keeps its socket full of frames ([`flooding`]). Another connection resumes
/// its player: the flooding connection is closed with `CLOSE_REPLACED` at once. The session
/// reads its reason to close at every turn of its loop; a loop that looked at it only when
/// idle (the biased `select!` alone) would answer all the frames first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_reaches_a_connection_that_never_stops_sending() {
    let (state, flooder, welcome) = flooding().await;
    let token = serde_json::from_value(welcome["resume"].clone()).expect("a resume token");
    let (_taker, _) = greet(&state, "flooder", Some(token), usize::MAX).await;
    closed_early(flooder, super::CLOSE_REPLACED).await;
}

/// The same flood, and the server shuts down: the flooding connection is closed with 1001
/// (going away), though with limits this high it never has to wait for a frame. The server
/// waits for every session before it exits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_reaches_a_connection_that_never_stops_sending() {
    let (state, flooder, _) = flooding().await;
    state.shutdown.cancel();
    closed_early(flooder, super::CLOSE_GOING_AWAY).await;
}
