//! Skirmish's server: an HTTP and WebSocket front over a lobby of room actors.
//!
//! - [`session`]: one task per WebSocket connection; reads frames, says hello, forwards commands.
//! - [`lobby`]: the directory of rooms, players and bots; hands bot seats to connected bots.
//! - [`room`]: one actor per room; owns its game, runs its clocks, filters events per viewer.
//! - [`outbox`]: each connection's bounded queue; a client that does not keep up is disconnected.
//!
//! [`run`] runs it all on a listener until a shutdown token is cancelled. HTTP routes: `GET /ws`
//! (the protocol, see the `skirmish-protocol` crate), `GET /api/rooms` (the lobby's rooms as JSON),
//! `GET /api/bots`, `GET /healthz`, `GET /asyncapi.json` (the protocol as an AsyncAPI document), `GET /metrics` (Prometheus text format, [`metrics`]), `GET
//! /rules` (docs/rules.md as a page), `GET /api/matches/{id}` and `POST /api/my/games` (replays
//! and a browser's own games, `replays_api`), and the web client's static files at `/`.

pub mod accounts;
mod api;
pub use api::Makers as TournamentMakers;
mod bearer;
mod chat;
pub mod cluster;
pub mod entry;
pub mod error;
mod http_error;
pub mod journal;
pub mod ladder;
mod listener;
pub mod lobby;
pub mod metrics;
mod options;
pub mod outbox;
mod replays_api;
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
mod wall_clock;

use std::net::SocketAddr;
use std::path::PathBuf;

use axum::Router;
use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use tracing::Instrument;

use crate::lobby::Lobby;
pub use crate::options::{AnonymousBots, DEFAULT_LIMITS, Limits, QUICK_MATCH_WAIT_MS};

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
    /// The standing ladders.
    pub ladders: ladder::Ladders,
    /// Where rooms write their logs.
    pub journal: journal::Journal,
    /// The database (bot accounts are read from it at every bot's `hello`).
    pub store: store::Store,
    /// The cluster this server is a node of, if any.
    pub cluster: Option<cluster::Cluster>,
    /// Who made each tournament without a key, on a server with `--open-tournaments`: their
    /// address, which alone may cancel it and whose running tournaments are counted.
    pub tournament_makers: TournamentMakers,
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
        .route("/livez", get(|| async { "ok" }))
        // The protocol as an AsyncAPI 3.0 document, generated once from the protocol's types.
        .route(
            "/asyncapi.json",
            get(|| async {
                static DOCUMENT: std::sync::LazyLock<axum::Json<serde_json::Value>> =
                    std::sync::LazyLock::new(|| axum::Json(skirmish_protocol::asyncapi::document()));
                DOCUMENT.clone()
            }),
        )
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
        .merge(ladder::api::routes())
        .merge(replays_api::routes())
        .merge(accounts::routes())
        .route_service("/room/{id}", index)
        .route_service(
            "/tournament/{id}",
            ServeFile::new(web_root.join("tournament.html")),
        )
        .route_service("/ladder/{id}", ServeFile::new(web_root.join("ladder.html")))
        .route_service("/replay/{id}", ServeFile::new(web_root.join("replay.html")))
        .route_service("/my-games", ServeFile::new(web_root.join("my-games.html")))
        // Browsers and feed readers ask for /favicon.ico whatever the page links: the SVG icon.
        .route_service("/favicon.ico", ServeFile::new(web_root.join("favicon.svg")))
        .fallback_service(ServeDir::new(web_root))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(state)
}

/// The Content-Security-Policy of every response: scripts only from the server's own files (no
/// inline script, no `eval`), so that a name or a chat line that slipped past the client's
/// text-only rendering still could not run; connections (the WebSocket, the catalogs) and
/// everything else from the same origin; no plugins, no framing by other sites. Inline `style`
/// attributes stay allowed: the boards size themselves with them.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// `GET /healthz`, readiness: `200 ok`, or `503` with the cause while storage is failing (the
/// room journal cannot be written, or the database file was deleted or replaced), when rooms
/// refuse actions with `storage_unavailable`. A load balancer sends no new connections to a node
/// that is not ready but leaves the ones it has alone: the node keeps them, holds their output
/// and answers their actions. `GET /livez`, liveness, answers `200 ok` whenever the process
/// serves (docs/cluster.md, "What each outage does").
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

/// Serves Skirmish on `listener` until `shutdown` is cancelled: the web client from `web_root`,
/// the protocol at `/ws`, the HTTP API; storing tournaments, matches and every room's log in
/// `store`. A single server (`cluster` `None`) rebuilds the rooms stored as open from their logs
/// ([`room::restore`]) for their players to resume, and running tournaments go on. As a node of
/// `cluster` (docs/cluster.md) the lobby shares its rooms, bots and players with the other nodes
/// and lists theirs; rooms and running tournaments are not rebuilt at the start but taken over
/// from nodes that are gone (this one included, when it comes back after a kill); on a graceful
/// stop, once the journal is written, the node leaves the cluster, and the others take its rooms
/// over at once. On shutdown it stops taking connections, closes every connection with 1001
/// (going away), waits for the sessions to end, and writes what the rooms logged last.
///
/// # Errors
/// An IO error from the listener, a storage error reading the stored tournaments or rooms, TLS
/// files ([`Limits::tls_cert`]) that do not load, or a bus that refuses the node's subscriptions.
pub async fn run(
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
    store.set_replay_cap(limits.replay_cap());
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
                let now_ms = wall_clock::now_ms();
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
    // Ladder games cut off by the stop take their logs first; the rest are the tournaments'.
    let (ladder_logs, matches) = ladder::Ladders::own_logs(&store, matches)
        .await
        .map_err(std::io::Error::other)?;
    let tournaments = tournament::Tournaments::restore(
        store.clone(),
        lobby.clone(),
        journal.clone(),
        shutdown.clone(),
        matches,
    )
    .await
    .map_err(std::io::Error::other)?;
    let ladders = ladder::Ladders::start(
        ladder::LadderStart {
            store: store.clone(),
            lobby: lobby.clone(),
            journal: journal.clone(),
            shutdown: shutdown.clone(),
            sealed: tournaments.sealed_map(),
            options: limits.ladder_options(),
        },
        ladder_logs,
        cluster
            .as_ref()
            .map(|c| std::sync::Arc::new(c.clone()) as std::sync::Arc<dyn ladder::Shared>),
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
        ladders,
        journal: journal.clone(),
        store: store.clone(),
        cluster: cluster.clone(),
        tournament_makers: TournamentMakers::default(),
    });
    if let Some(cluster) = &cluster {
        cluster
            .start(
                store,
                journal.clone(),
                state.tournaments.clone(),
                state.ladders.clone(),
                state.limits.room_expiry(),
                state.metrics.move_histogram().clone(),
            )
            .await
            .map_err(std::io::Error::other)?;
    }
    let sessions = state.sessions.clone();
    let limits = state.limits.clone();
    let ladders = state.ladders.clone();
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
    // The ladders running here store what they did before the journal is flushed and, in a
    // cluster, before their leases go with this node's presence.
    if tokio::time::timeout(ladder::STOP_WAIT, ladders.stopped())
        .await
        .is_err()
    {
        tracing::warn!("the ladders did not stop in time");
    }
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
