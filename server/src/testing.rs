//! Helpers for tests that drive a real server over real WebSockets: a [`TestServer`] on port 0 that
//! shuts down when dropped, and a [`TestClient`] that records every message the server sent, so
//! tests assert on messages rather than bytes.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use skirmish_protocol::{ClientFrame, ClientMsg, PROTOCOL_VERSION, ResumeToken, ServerMsg};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tokio_util::sync::CancellationToken;

/// Rooms whose next action panics where the engine is called, as a bug in an engine would
/// ([`fault_engine`]).
static FAULTY_ENGINES: std::sync::Mutex<Vec<skirmish_protocol::RoomId>> = std::sync::Mutex::new(Vec::new());

/// Makes the engine of `room` panic at its next action, once: for tests of what a room does when
/// its actor panics (it breaks down alone, and says so). No input from the wire can do this.
pub fn fault_engine(room: skirmish_protocol::RoomId) {
    FAULTY_ENGINES.lock().expect("not poisoned").push(room);
}

/// Panics when a test asked `room`'s engine to ([`fault_engine`]).
pub(crate) fn engine_fault(room: skirmish_protocol::RoomId) {
    let mut faulty = FAULTY_ENGINES.lock().expect("not poisoned");
    if let Some(i) = faulty.iter().position(|r| *r == room) {
        faulty.swap_remove(i);
        drop(faulty);
        panic!("the engine of room {room} panicked (a test's fault injection)");
    }
}

/// Tournaments whose runner panics at its next turn of its loop ([`fault_runner`]).
static FAULTY_RUNNERS: std::sync::Mutex<Vec<skirmish_protocol::tournament::TournamentId>> =
    std::sync::Mutex::new(Vec::new());

/// Makes the runner of tournament `id` panic once, at the next turn of its loop (within
/// 200 ms while its matches play): for tests of what the server does when a tournament's actor
/// dies (the tournament stops, as a cancel stops it, and says so). No request can do this.
pub fn fault_runner(id: skirmish_protocol::tournament::TournamentId) {
    FAULTY_RUNNERS.lock().expect("not poisoned").push(id);
}

/// Panics when a test asked tournament `id`'s runner to ([`fault_runner`]).
pub(crate) fn runner_fault(id: skirmish_protocol::tournament::TournamentId) {
    let mut faulty = FAULTY_RUNNERS.lock().expect("not poisoned");
    if let Some(i) = faulty.iter().position(|t| *t == id) {
        faulty.swap_remove(i);
        drop(faulty);
        panic!("the runner of tournament {id} panicked (a test's fault injection)");
    }
}

/// Whether the journal's writer is to panic at its next batch ([`fault_journal`]).
static FAULTY_JOURNAL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the journal's writer panic once, at its next batch, as a bug in it would: for tests of
/// what the server does when its writer dies (storage is failing for good, and says so). The
/// switch is the process's: a test that throws it runs alone in its test binary.
pub fn fault_journal() {
    FAULTY_JOURNAL.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Panics when a test asked the journal's writer to ([`fault_journal`]).
pub(crate) fn journal_fault() {
    if FAULTY_JOURNAL.swap(false, std::sync::atomic::Ordering::SeqCst) {
        panic!("the journal's writer panicked (a test's fault injection)");
    }
}

/// How long a test waits for one message before failing.
pub const RECV_TIMEOUT: Duration = Duration::from_secs(20);

/// A server on a free loopback port, shut down on drop.
#[derive(Debug)]
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its database (in memory): tests register bot accounts in it ([`TestServer::account`]).
    pub store: crate::store::Store,
    shutdown: CancellationToken,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    /// The tournament key of every test server started without one of its own: tests make and
    /// cancel tournaments with it (`Authorization: Bearer test-tournament-key`), as a
    /// server's operator would with `--tournament-key`.
    pub const TOURNAMENT_KEY: &'static str = "test-tournament-key";

    /// `limits`, with [`TestServer::TOURNAMENT_KEY`] as their tournament key when they name none.
    fn keyed(mut limits: crate::Limits) -> crate::Limits {
        if limits.tournament_key.is_none() {
            limits.tournament_key = Some(Self::TOURNAMENT_KEY.parse().expect("a key"));
        }
        limits
    }

    /// Starts a server on 127.0.0.1, port 0.
    ///
    /// # Panics
    /// If no port can be bound.
    pub async fn start() -> TestServer {
        TestServer::start_with(crate::Limits::default()).await
    }

    /// Starts a server on 127.0.0.1, port 0, with `limits`.
    ///
    /// # Panics
    /// If no port can be bound.
    pub async fn start_with(limits: crate::Limits) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        TestServer::start_on(listener, limits).await
    }

    /// Starts a server on `listener` (bound by the test, for example with socket options its
    /// accepted connections inherit), with `limits`.
    ///
    /// # Panics
    /// If the listener has no local address.
    pub async fn start_on(listener: tokio::net::TcpListener, limits: crate::Limits) -> TestServer {
        let addr = listener.local_addr().expect("a bound address");
        let shutdown = CancellationToken::new();
        let store = crate::store::Store::in_memory()
            .await
            .expect("a database in memory");
        let task = tokio::spawn(crate::run(
            listener,
            crate::default_web_root(),
            TestServer::keyed(limits),
            store.clone(),
            None,
            shutdown.clone(),
        ));
        TestServer {
            addr,
            store,
            shutdown,
            task: Some(task),
        }
    }

    /// Starts a server on 127.0.0.1, port 0, with `limits`, storing in `store`.
    ///
    /// # Panics
    /// If no port can be bound.
    pub async fn start_with_store(limits: crate::Limits, store: crate::store::Store) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener.local_addr().expect("a bound address");
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(crate::run(
            listener,
            crate::default_web_root(),
            TestServer::keyed(limits),
            store.clone(),
            None,
            shutdown.clone(),
        ));
        TestServer {
            addr,
            store,
            shutdown,
            task: Some(task),
        }
    }

    /// Registers the bot account `name` (as `POST /api/accounts` does) and returns its token.
    ///
    /// # Panics
    /// When the name is taken or not a name.
    pub async fn account(&self, name: &str) -> skirmish_protocol::AccountToken {
        crate::accounts::register(&self.store, name)
            .await
            .expect("a bot account registered")
            .token
    }

    /// The WebSocket URL.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// The HTTP URL of `path` (which starts with `/`).
    pub fn http_url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The token whose cancellation stops the server.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Shuts down and waits for every session to end.
    ///
    /// # Panics
    /// If the server failed.
    pub async fn stop(mut self) {
        self.shutdown.cancel();
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("server ran");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// A protocol client that records what it receives.
#[derive(Debug)]
pub struct TestClient {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_req: u64,
    /// Every message received, in order, parsed.
    pub log: Vec<ServerMsg>,
    /// Every text frame received, in order, as sent.
    pub texts: Vec<String>,
    /// The close code, once the server closed the connection.
    pub closed: Option<u16>,
}

impl TestClient {
    /// Connects to `url` without saying hello.
    ///
    /// # Panics
    /// If the connection fails.
    pub async fn connect(url: &str) -> TestClient {
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect to the test server");
        TestClient::over(socket)
    }

    fn over(socket: WebSocketStream<MaybeTlsStream<TcpStream>>) -> TestClient {
        TestClient {
            socket,
            next_req: 1,
            log: Vec::new(),
            texts: Vec::new(),
            closed: None,
        }
    }

    /// Opens a WebSocket to `url` over `stream`, a TCP connection the test made itself (for
    /// example with a small receive buffer), without saying hello.
    ///
    /// # Panics
    /// If the handshake fails.
    pub async fn connect_over(stream: TcpStream, url: &str) -> TestClient {
        let (socket, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream))
            .await
            .expect("a WebSocket handshake with the test server");
        TestClient::over(socket)
    }

    /// Connects and says hello as a person named `name`; returns the `welcome`.
    ///
    /// # Panics
    /// If the server does not welcome the client.
    pub async fn join(url: &str, name: &str) -> (TestClient, ServerMsg) {
        TestClient::hello(url, name, None).await
    }

    /// Connects and says hello as `name` with the resume token `token` (a player coming back);
    /// returns the `welcome` (or the `error` refusing the token).
    ///
    /// # Panics
    /// If the server answers neither.
    pub async fn resume(url: &str, name: &str, token: ResumeToken) -> (TestClient, ServerMsg) {
        TestClient::hello(url, name, Some(token)).await
    }

    async fn hello(url: &str, name: &str, resume: Option<ResumeToken>) -> (TestClient, ServerMsg) {
        let mut client = TestClient::connect(url).await;
        let welcome = client
            .request(ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                name: name.to_owned(),
                bot: None,
                resume,
                key: None,
                token: None,
                turn_view: Some(true),
                ladder: Vec::new(),
            })
            .await;
        (client, welcome)
    }

    /// Sends a text frame as is.
    ///
    /// # Panics
    /// If the socket is closed.
    pub async fn send_text(&mut self, text: String) {
        self.socket.send(Message::text(text)).await.expect("send a frame");
    }

    /// Sends a message with a fresh request number; `false` when the connection is gone (a test
    /// of what a closed connection can still do).
    pub async fn try_send(&mut self, msg: ClientMsg) -> bool {
        let req = self.next_req;
        self.next_req += 1;
        let frame = ClientFrame { req: Some(req), msg };
        let text = serde_json::to_string(&frame).expect("frames serialize");
        self.socket.send(Message::text(text)).await.is_ok()
    }

    /// Sends a message with a fresh request number, and returns that number.
    pub async fn send(&mut self, msg: ClientMsg) -> u64 {
        let req = self.next_req;
        self.next_req += 1;
        let frame = ClientFrame { req: Some(req), msg };
        self.send_text(serde_json::to_string(&frame).expect("frames serialize"))
            .await;
        req
    }

    /// Sends a message and waits for the answer that names its request number (or, for `hello`,
    /// the `welcome` or an `error`).
    pub async fn request(&mut self, msg: ClientMsg) -> ServerMsg {
        let hello = matches!(msg, ClientMsg::Hello { .. });
        let req = self.send(msg).await;
        self.recv_until(|m| answers(m, req) || (hello && matches!(m, ServerMsg::Welcome { .. })))
            .await
    }

    /// The next message.
    ///
    /// # Panics
    /// After [`RECV_TIMEOUT`] without one, or when the connection closes.
    pub async fn recv(&mut self) -> ServerMsg {
        self.try_recv()
            .await
            .expect("a message before the connection closed")
    }

    /// The next message, or `None` when the connection closes.
    ///
    /// # Panics
    /// After [`RECV_TIMEOUT`] without one.
    pub async fn try_recv(&mut self) -> Option<ServerMsg> {
        loop {
            let frame = tokio::time::timeout(RECV_TIMEOUT, self.socket.next())
                .await
                .expect("a message in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let msg: ServerMsg = serde_json::from_str(text.as_str()).expect("server messages parse");
                    self.texts.push(text.as_str().to_owned());
                    self.log.push(msg.clone());
                    return Some(msg);
                }
                Some(Ok(Message::Close(frame))) => {
                    self.closed = Some(frame.map_or(1005, |f| u16::from(f.code)));
                    return None;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Receives until a message matches `pred`, and returns it.
    ///
    /// # Panics
    /// As [`recv`](Self::recv).
    pub async fn recv_until(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.recv().await;
            if pred(&msg) {
                return msg;
            }
        }
    }
}

/// Whether `msg` answers request `req`.
pub fn answers(msg: &ServerMsg, req: u64) -> bool {
    let answered = match msg {
        ServerMsg::Rooms { req, .. }
        | ServerMsg::RoomCreated { req, .. }
        | ServerMsg::Seated { req, .. }
        | ServerMsg::Done { req }
        | ServerMsg::Error { req, .. }
        | ServerMsg::Pong { req }
        | ServerMsg::Bots { req, .. } => *req,
        _ => None,
    };
    answered == Some(req)
}
