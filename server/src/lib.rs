//! Skirmish's server: an HTTP and WebSocket front over a lobby of room actors.
//!
//! - [`session`]: one task per WebSocket connection; reads frames, says hello, forwards commands.
//! - [`lobby`]: the directory of rooms, players and bots; hands bot seats to connected bots.
//! - [`room`]: one actor per room; owns its game, runs its clocks, filters events per viewer.
//! - [`outbox`]: each connection's bounded queue; a client that does not keep up is disconnected.
//!
//! [`serve`] runs it all on a listener until a shutdown token is cancelled. HTTP routes: `GET /ws`
//! (the protocol, see the `skirmish-protocol` crate), `GET /api/rooms` (the lobby's rooms as JSON),
//! `GET /api/bots`, `GET /healthz`, `GET /metrics` (Prometheus text format, [`metrics`]), `GET
//! /rules` (docs/rules.md as a page), and the web client's static files at `/`.

pub mod accounts;
mod api;
mod bearer;
mod chat;
pub mod cluster;
pub mod entry;
pub mod error;
pub mod journal;
mod listener;
pub mod lobby;
pub mod metrics;
pub mod outbox;
pub mod replica;
pub mod room;
pub mod room_handle;
mod rules;
pub mod session;
pub mod store;
mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tls;
pub mod tournament;

use std::net::SocketAddr;
use std::path::PathBuf;

use axum::Router;
use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_http::services::{ServeDir, ServeFile};
use tracing::Instrument;

use crate::lobby::Lobby;

/// How long a stopping server waits for the journal to write what the rooms logged last: 10 s
/// (storage failing, it would wait forever; what was never written was never sent either).
const SHUTDOWN_FLUSH: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a stopping node of a cluster tries to tell the others (5 s): with the bus gone, its
/// client would wait for it for ever, and the stop must end.
const CLUSTER_LEAVE: std::time::Duration = std::time::Duration::from_secs(5);

/// The largest WebSocket message the transport accepts, in bytes (1 MiB). Frames over
/// [`skirmish_protocol::MAX_FRAME_BYTES`] but under this are answered with `frame_too_large`; larger
/// ones close the connection.
pub const MAX_TRANSPORT_BYTES: usize = 1 << 20;

/// Limits on what one connection may do, and the time controls rooms get; each is a server
/// option (`skirmish-server --help`).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Limits {
    /// Largest client text frame read, in bytes; a larger one (up to 1 MiB) is answered with
    /// `frame_too_large` and dropped, and one over 1 MiB closes the connection.
    #[arg(
        long,
        env = "SKIRMISH_MAX_FRAME_BYTES",
        default_value_t = skirmish_protocol::MAX_FRAME_BYTES,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20)
    )]
    pub max_frame_bytes: usize,
    /// Messages the server may have queued for one connection before it counts as not keeping up
    /// and is closed with code 4008 (it may reconnect and resume).
    #[arg(
        long,
        env = "SKIRMISH_OUTBOX_CAPACITY",
        default_value_t = outbox::OUTBOX_CAPACITY,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20)
    )]
    pub outbox_capacity: usize,
    /// Milliseconds a new connection has to say `hello` before it is closed with code 4001.
    #[arg(long, env = "SKIRMISH_HELLO_TIMEOUT_MS", default_value_t = 30_000)]
    pub hello_timeout_ms: u64,
    /// Deepest nesting of JSON arrays and objects read in a client frame; a deeper one is answered
    /// with `too_deep` and dropped.
    #[arg(long, env = "SKIRMISH_MAX_JSON_DEPTH", default_value_t = skirmish_protocol::MAX_JSON_DEPTH)]
    pub max_json_depth: usize,
    /// Client frames per second one connection may send on average (a token bucket); a client
    /// that empties its bucket is closed with code 4029.
    #[arg(
        long,
        env = "SKIRMISH_MESSAGES_PER_SECOND",
        default_value_t = 20,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub messages_per_second: u32,
    /// The token bucket's size: frames a connection may send at once, above the average rate.
    #[arg(
        long,
        env = "SKIRMISH_MESSAGE_BURST",
        default_value_t = 100,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub message_burst: u32,
    /// As `--messages-per-second`, for a bot connection (a bot plays many seats at once, and
    /// answers each turn within milliseconds); also its bucket's size.
    #[arg(
        long,
        env = "SKIRMISH_BOT_MESSAGES_PER_SECOND",
        default_value_t = 1000,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub bot_messages_per_second: u32,
    /// Rooms one player may have open (waiting or playing) that they created, across their
    /// connections (a reconnect with the resume token keeps the count); more are refused with
    /// `too_many_rooms`.
    #[arg(long, env = "SKIRMISH_ROOMS_PER_PLAYER", default_value_t = 8)]
    pub rooms_per_player: usize,
    /// Rooms one IP address may have open that were created from it, whoever said hello there
    /// (a reconnect as a new player keeps the count); more are refused with
    /// `too_many_rooms_from_address`.
    #[arg(long, env = "SKIRMISH_ROOMS_PER_ADDRESS", default_value_t = 32)]
    pub rooms_per_address: usize,
    /// Milliseconds a room may wait for its players before it closes unstarted: its owner and
    /// everyone in it get `room_closed` with `room_expired`, and it leaves the lobby and the
    /// database (0: rooms wait for ever).
    #[arg(long, env = "SKIRMISH_ROOM_EXPIRY_MS", default_value_t = 600_000)]
    pub room_expiry_ms: u64,
    /// WebSocket connections one IP address may hold at once; more are refused with HTTP 429.
    #[arg(long, env = "SKIRMISH_CONNECTIONS_PER_ADDRESS", default_value_t = 64)]
    pub connections_per_address: usize,
    /// WebSocket connections one IP address may hold that have not said `hello` yet; more are
    /// refused with HTTP 429 (each is closed with 4001 after `--hello-timeout-ms`).
    #[arg(long, env = "SKIRMISH_UPGRADES_PER_ADDRESS", default_value_t = 8)]
    pub upgrades_per_address: usize,
    /// HTTP connections (TCP connections not upgraded to a WebSocket) one IP address may hold at
    /// once; a connection over it is closed as soon as it is accepted.
    #[arg(long, env = "SKIRMISH_HTTP_CONNECTIONS_PER_ADDRESS", default_value_t = 64)]
    pub http_connections_per_address: usize,
    /// HTTP requests from one IP address the server handles at once, over all its connections;
    /// one more is answered at once with HTTP 429.
    #[arg(long, env = "SKIRMISH_REQUESTS_PER_ADDRESS", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_address: u32,
    /// Milliseconds a connection has to send a request's headers, from when it opens or from
    /// the end of its previous response; then it is closed without an answer (a connection that
    /// sends nothing included).
    #[arg(long, env = "SKIRMISH_HEADER_READ_TIMEOUT_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_ms: u64,
    /// Milliseconds the server spends on one HTTP request, its body read included; a longer one
    /// is answered with HTTP 408.
    #[arg(long, env = "SKIRMISH_REQUEST_TIMEOUT_MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_ms: u64,
    /// Milliseconds a connection may go without sending anything (frames, or the pongs that
    /// answer the server's pings every half of this) before it is closed with code 4000.
    #[arg(long, env = "SKIRMISH_IDLE_TIMEOUT_MS", default_value_t = 120_000, value_parser = clap::value_parser!(u64).range(100..))]
    pub idle_timeout_ms: u64,
    /// Milliseconds to deploy each round in a room created without a clock (plane battle; 0: no
    /// limit).
    #[arg(
        long,
        env = "SKIRMISH_DEFAULT_DEPLOY_MS",
        default_value_t = 60_000,
        help_heading = "Time controls"
    )]
    pub default_deploy_ms: u64,
    /// Milliseconds for each shot or stone in a room created without a clock (0: no limit).
    #[arg(
        long,
        env = "SKIRMISH_DEFAULT_MOVE_MS",
        default_value_t = 30_000,
        help_heading = "Time controls"
    )]
    pub default_move_ms: u64,
    /// The longest time limit a room may set, in milliseconds; 0 (no limit) is always allowed.
    #[arg(
        long,
        env = "SKIRMISH_MAX_CLOCK_MS",
        default_value_t = 3_600_000,
        help_heading = "Time controls"
    )]
    pub max_clock_ms: u64,
    /// Milliseconds a player who dropped mid-match has to reconnect and take their seat back, in
    /// a room created without a drop policy; after it a bot takes the seat over (or the seat
    /// forfeits when no bot is connected). Also how long every seat waits after a restart.
    #[arg(
        long,
        env = "SKIRMISH_GRACE_MS",
        default_value_t = 60_000,
        help_heading = "Time controls"
    )]
    pub grace_ms: u64,
    /// A key every anonymous bot (one without an account token) must give in its `hello`; people
    /// and account bots need none. Without this option, any connection may offer itself as an
    /// anonymous bot for casual seats (while `--anonymous-bots allow`). Its value never appears in
    /// logs or `--help`.
    #[arg(
        long,
        env = "SKIRMISH_BOT_KEY",
        hide_env_values = true,
        help_heading = "Access"
    )]
    pub bot_key: Option<skirmish_protocol::AccessKey>,
    /// A key needed to create and cancel tournaments over the HTTP API (`Authorization: Bearer
    /// <key>`); without this option anyone may. Its value never appears in logs or `--help`.
    #[arg(
        long,
        env = "SKIRMISH_TOURNAMENT_KEY",
        hide_env_values = true,
        help_heading = "Access"
    )]
    pub tournament_key: Option<skirmish_protocol::AccessKey>,
    /// A PEM file with the server's certificate chain: with `--tls-key`, every connection speaks
    /// TLS (https and wss). Reloaded when it changes (see `--tls-reload-ms`).
    #[arg(long, env = "SKIRMISH_TLS_CERT", requires = "tls_key", help_heading = "TLS")]
    pub tls_cert: Option<PathBuf>,
    /// A PEM file with the certificate's private key.
    #[arg(long, env = "SKIRMISH_TLS_KEY", requires = "tls_cert", help_heading = "TLS")]
    pub tls_key: Option<PathBuf>,
    /// Milliseconds between two looks at the certificate's files; changed files are loaded for
    /// the connections that follow (a renewal needs no restart).
    #[arg(long, env = "SKIRMISH_TLS_RELOAD_MS", default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(10..), help_heading = "TLS")]
    pub tls_reload_ms: u64,
    /// The key of the admin HTTP API that registers, rotates and revokes bot accounts
    /// (`Authorization: Bearer <key>`, `skirmish-bots account --admin-key`); without this
    /// option that API refuses every request. Its value never appears in logs or `--help`.
    #[arg(
        long,
        env = "SKIRMISH_ADMIN_KEY",
        hide_env_values = true,
        help_heading = "Access"
    )]
    pub admin_key: Option<skirmish_protocol::AccessKey>,
    /// Whether bots without an account token may connect and fill casual seats (rooms people
    /// make, `add_bot`, a dropped player's seat). They never enter tournaments either way.
    #[arg(
        long,
        env = "SKIRMISH_ANONYMOUS_BOTS",
        value_enum,
        default_value_t = AnonymousBots::Allow,
        help_heading = "Access"
    )]
    pub anonymous_bots: AnonymousBots,
}

/// Whether bots without an account may connect ([`Limits::anonymous_bots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum AnonymousBots {
    /// They may, to fill casual seats (the default: the built-in pool and bots people run for
    /// themselves keep working without an account).
    #[default]
    Allow,
    /// They are refused with `token_required`: every bot needs an account.
    Deny,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame_bytes: skirmish_protocol::MAX_FRAME_BYTES,
            outbox_capacity: outbox::OUTBOX_CAPACITY,
            hello_timeout_ms: 30_000,
            max_json_depth: skirmish_protocol::MAX_JSON_DEPTH,
            messages_per_second: 20,
            message_burst: 100,
            bot_messages_per_second: 1000,
            rooms_per_player: 8,
            rooms_per_address: 32,
            room_expiry_ms: 600_000,
            connections_per_address: 64,
            upgrades_per_address: 8,
            http_connections_per_address: 64,
            requests_per_address: 16,
            header_read_timeout_ms: 10_000,
            request_timeout_ms: 30_000,
            idle_timeout_ms: 120_000,
            default_deploy_ms: 60_000,
            default_move_ms: 30_000,
            max_clock_ms: 3_600_000,
            grace_ms: 60_000,
            bot_key: None,
            tournament_key: None,
            tls_cert: None,
            tls_key: None,
            tls_reload_ms: 60_000,
            admin_key: None,
            anonymous_bots: AnonymousBots::Allow,
        }
    }
}

impl Limits {
    /// How long a room may wait for its players ([`Limits::room_expiry_ms`]; `None` for ever).
    pub fn room_expiry(&self) -> Option<std::time::Duration> {
        (self.room_expiry_ms > 0).then(|| std::time::Duration::from_millis(self.room_expiry_ms))
    }
}

/// What every request handler and session shares: one allocation, cloned by its reference
/// count. A session keeps a clone for its life, and the whole state inline (the limits alone are
/// some 300 bytes) sat two or three times in every idle connection's task (docs/performance.md,
/// "What the design choices are worth").
#[derive(Clone, Debug)]
pub struct AppState(std::sync::Arc<SharedState>);

impl AppState {
    /// The state to share.
    pub fn new(shared: SharedState) -> AppState {
        AppState(std::sync::Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = SharedState;

    fn deref(&self) -> &SharedState {
        &self.0
    }
}

/// The parts of [`AppState`].
#[derive(Debug)]
pub struct SharedState {
    /// Per-connection limits.
    pub limits: Limits,
    /// What `/metrics` reports.
    pub metrics: std::sync::Arc<metrics::Metrics>,
    /// Open WebSocket connections per IP address.
    pub addresses: Addresses,
    /// WebSocket connections that have not said `hello` yet, per IP address.
    pub unwelcomed: Addresses,
    /// The directory of rooms, players and bots.
    pub lobby: Lobby,
    /// Cancelled when the server shuts down.
    pub shutdown: CancellationToken,
    /// Every session task, awaited on the way out.
    pub sessions: TaskTracker,
    /// The tournaments.
    pub tournaments: tournament::Tournaments,
    /// Where rooms write their logs.
    pub journal: journal::Journal,
    /// The database (bot accounts are read from it at every bot's `hello`).
    pub store: store::Store,
    /// The cluster this server is a node of, if any.
    pub cluster: Option<cluster::Cluster>,
}

/// The web client's folder in this source tree.
pub fn default_web_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../web-client"))
}

/// The HTTP routes.
pub fn app(state: AppState, web_root: PathBuf) -> Router {
    let index = ServeFile::new(web_root.join("index.html"));
    Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(healthz))
        .route("/rules", get(rules::page))
        .route(
            "/metrics",
            get(|State(state): State<AppState>| async move {
                (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    )],
                    state.metrics.render(&state.lobby, &state.journal),
                )
            }),
        )
        .route(
            "/api/rooms",
            get(|State(state): State<AppState>| async move { axum::Json(state.lobby.rooms()) }),
        )
        .route(
            "/api/bots",
            get(|State(state): State<AppState>| async move { axum::Json(state.lobby.bots()) }),
        )
        .merge(api::routes())
        .merge(accounts::routes())
        .route_service("/room/{id}", index)
        .route_service(
            "/tournament/{id}",
            ServeFile::new(web_root.join("tournament.html")),
        )
        .route_service("/replay/{id}", ServeFile::new(web_root.join("replay.html")))
        // Browsers and feed readers ask for /favicon.ico whatever the page links: the SVG icon.
        .route_service("/favicon.ico", ServeFile::new(web_root.join("favicon.svg")))
        .fallback_service(ServeDir::new(web_root))
        .with_state(state)
}

/// `GET /healthz`: `200 ok`, or `503` with the cause while storage is failing (the room journal
/// cannot be written, or the database file was deleted or replaced), when rooms refuse actions
/// with `storage_unavailable`.
async fn healthz(State(state): State<AppState>) -> axum::response::Response {
    if state.journal.available() {
        "ok".into_response()
    } else {
        (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            format!("storage unavailable: {}", state.journal.last_failure()),
        )
            .into_response()
    }
}

async fn ws(
    upgrade: WebSocketUpgrade,
    extensions: axum::http::Extensions,
    State(state): State<AppState>,
) -> axum::response::Response {
    // One span per connection, so that everything a connection causes can be followed in the logs.
    let peer = extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    let span = match peer {
        Some(peer) => tracing::info_span!("connection", %peer),
        None => tracing::info_span!("connection"),
    };
    let held = match peer {
        Some(peer) => match state
            .addresses
            .open(peer.ip(), state.limits.connections_per_address)
        {
            Some(held) => Some(held),
            None => {
                tracing::info!(%peer, "too many connections from one address");
                return (
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    "too many connections from your address",
                )
                    .into_response();
            }
        },
        None => None,
    };
    // Counted until the connection says hello (or closes): a stranger's upgraded sockets that
    // never speak are bounded, each for at most the hello timeout.
    let unwelcomed = match peer {
        Some(peer) => match state
            .unwelcomed
            .open(peer.ip(), state.limits.upgrades_per_address)
        {
            Some(counted) => Some(counted),
            None => {
                tracing::info!(%peer, "too many connections without hello from one address");
                return (
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    "too many connections that have not said hello from your address",
                )
                    .into_response();
            }
        },
        None => None,
    };
    upgrade
        .max_message_size(MAX_TRANSPORT_BYTES)
        .max_frame_size(MAX_TRANSPORT_BYTES)
        .read_buffer_size(session::READ_BUFFER_BYTES)
        .on_upgrade(move |socket| {
            // The session gets a task of its own, sized for it alone: the upgrade's task (with
            // the handshake's state) ends at once, and the socket goes in a box so that the
            // session's future does not keep a dead copy of it (async functions keep their
            // arguments for their whole life). Memory per idle connection: docs/performance.md.
            let sessions = state.sessions.clone();
            sessions.spawn(
                async move {
                    let peer = session::Peer {
                        address: peer.map(|p| p.ip()),
                        unwelcomed,
                    };
                    session::run(Box::new(socket), state, peer).await;
                    drop(held);
                }
                .instrument(span),
            );
            std::future::ready(())
        })
        .into_response()
}

/// Open WebSocket connections per IP address, to cap them
/// ([`Limits::connections_per_address`]).
#[derive(Clone, Debug, Default)]
pub struct Addresses(std::sync::Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>);

impl Addresses {
    /// Counts one more connection from `ip`, unless it already holds `max`: the count goes down
    /// when the returned guard is dropped.
    pub fn open(&self, ip: std::net::IpAddr, max: usize) -> Option<AddressGuard> {
        let mut counts = self.0.lock().expect("not poisoned");
        let count = counts.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(AddressGuard {
            addresses: self.clone(),
            ip,
        })
    }
}

/// Keeps one connection from an address counted while it lives.
#[derive(Debug)]
pub struct AddressGuard {
    addresses: Addresses,
    ip: std::net::IpAddr,
}

impl Drop for AddressGuard {
    fn drop(&mut self) {
        let mut counts = self.addresses.0.lock().expect("not poisoned");
        if let Some(count) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Serves Skirmish on `listener` with the default [`Limits`] until `shutdown` is cancelled, then
/// closes every connection and waits for the sessions to end.
///
/// # Errors
/// An IO error from the listener.
pub async fn serve(
    listener: TcpListener,
    web_root: PathBuf,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    serve_with(listener, web_root, Limits::default(), shutdown).await
}

/// As [`serve`], with the given limits, and storage in memory (gone with the process).
///
/// # Errors
/// An IO error from the listener.
pub async fn serve_with(
    listener: TcpListener,
    web_root: PathBuf,
    limits: Limits,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let store = store::Store::in_memory().await.map_err(std::io::Error::other)?;
    serve_with_store(listener, web_root, limits, store, shutdown).await
}

/// As [`serve_with`], storing tournaments, matches and every room's log in `store`; tournaments
/// stored as running go on, and rooms stored as open are rebuilt from their logs
/// ([`room::restore`]) for their players to resume. On shutdown it stops taking connections,
/// closes every connection with 1001 (going away), waits for the sessions to end, and writes what
/// the rooms logged last.
///
/// # Errors
/// An IO error from the listener, a storage error reading the stored tournaments or rooms, or TLS
/// files ([`Limits::tls_cert`]) that do not load.
pub async fn serve_with_store(
    listener: TcpListener,
    web_root: PathBuf,
    limits: Limits,
    store: store::Store,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    serve_node(listener, web_root, limits, store, None, shutdown).await
}

/// As [`serve_with_store`], as a node of `cluster` when given (docs/cluster.md): the lobby
/// shares its rooms, bots and players with the other nodes and lists theirs; rooms and running
/// tournaments are not rebuilt at the start but taken over from nodes that are gone (this one
/// included, when it comes back after a kill); on a graceful stop, once the journal is written,
/// the node leaves the cluster, and the others take its rooms over at once.
///
/// # Errors
/// As [`serve_with_store`], and when the bus refuses the node's subscriptions.
pub async fn serve_node(
    listener: TcpListener,
    web_root: PathBuf,
    limits: Limits,
    store: store::Store,
    cluster: Option<cluster::Cluster>,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let lobby = cluster
        .as_ref()
        .map_or_else(Lobby::default, cluster::Cluster::lobby);
    let journal = journal::Journal::start(store.clone());
    let (matches, rooms): (Vec<_>, Vec<_>) = store
        .open_rooms()
        .await
        .map_err(std::io::Error::other)?
        .into_iter()
        .partition(|r| r.owner == room::MATCH_OWNER);
    // A node of a cluster takes rooms over by their leases (cluster::lease), not all at once.
    let rooms = if cluster.is_some() { Vec::new() } else { rooms };
    let stored = rooms.len();
    let mut restored = 0;
    for room in rooms {
        let id = room.id;
        let holders = room::seat_holders(&room);
        match room::restore(
            room,
            lobby.clone(),
            journal.clone(),
            shutdown.clone(),
            limits.room_expiry(),
        ) {
            Ok(Some(_)) => restored += 1,
            Ok(None) => {}
            Err(err) => {
                // Kept in storage, marked broken, to be looked at; its players are told when they
                // resume; the other rooms go on.
                tracing::error!(room = %id, cause = %err, players = holders.len(), "a stored room could not be restored; it is kept as broken");
                let now_ms = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
                store
                    .mark_broken(id, err.to_string(), now_ms)
                    .await
                    .map_err(std::io::Error::other)?;
                for holder in holders {
                    let account = holder.account.as_deref();
                    lobby.restore_player(holder.player, &holder.name, &holder.token, account);
                    lobby.room_broken(holder.player, id);
                }
            }
        }
    }
    if stored > 0 {
        tracing::info!(stored, restored, "rooms restored from their logs");
    }
    let tournaments = tournament::Tournaments::restore(
        store.clone(),
        lobby.clone(),
        journal.clone(),
        shutdown.clone(),
        matches,
    )
    .await
    .map_err(std::io::Error::other)?;
    let state = AppState::new(SharedState {
        limits,
        metrics: std::sync::Arc::default(),
        addresses: Addresses::default(),
        unwelcomed: Addresses::default(),
        lobby,
        shutdown: shutdown.clone(),
        sessions: TaskTracker::new(),
        tournaments,
        journal: journal.clone(),
        store: store.clone(),
        cluster: cluster.clone(),
    });
    if let Some(cluster) = &cluster {
        cluster
            .start(
                store,
                journal.clone(),
                state.tournaments.clone(),
                state.limits.room_expiry(),
                state.metrics.move_histogram().clone(),
            )
            .await
            .map_err(std::io::Error::other)?;
    }
    let sessions = state.sessions.clone();
    let limits = state.limits.clone();
    // Every request is answered (or refused with 408) within the request timeout, its body read
    // included; the WebSocket upgrade is answered at once and its session is not a request.
    let request_timeout = std::time::Duration::from_millis(limits.request_timeout_ms);
    let app = app(state, web_root).layer(tower_http::timeout::TimeoutLayer::with_status_code(
        axum::http::StatusCode::REQUEST_TIMEOUT,
        request_timeout,
    ));
    let tls = match (&limits.tls_cert, &limits.tls_key) {
        (Some(cert), Some(key)) => {
            let files = tls::TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
            };
            let every = std::time::Duration::from_millis(limits.tls_reload_ms);
            Some(tls::acceptor(files, every, shutdown.clone())?)
        }
        _ => None,
    };
    listener::serve(listener, app, &limits, tls, shutdown.clone()).await;
    sessions.close();
    sessions.wait().await;
    if tokio::time::timeout(SHUTDOWN_FLUSH, journal.flush())
        .await
        .is_err()
    {
        tracing::error!(
            cause = %journal.last_failure(),
            "storage is failing: what the rooms logged last could not be written before the exit"
        );
    }
    if let Some(cluster) = cluster
        && tokio::time::timeout(CLUSTER_LEAVE, cluster.leave())
            .await
            .is_err()
    {
        // The bus is gone (the node may be stopping because of it): the other nodes take this
        // one's rooms over after the lease instead.
        tracing::warn!("the cluster could not be told of the stop in time");
    }
    Ok(())
}
