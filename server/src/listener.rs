//! The listener: accepts TCP connections and serves HTTP/1 on each with hyper, so that no stranger
//! can hold more than a bounded share of the server's sockets (issue 16, finding 3: 1,200 silent
//! TCP connections, 300 slow-header requests and 100 unfinished upgrades from one address were all
//! held for over 81 s under `axum::serve`, which has neither a header timeout nor a limit).
//!
//! Per IP address, and each a [`Limits`] option:
//! - HTTP connections (not upgraded to a WebSocket): [`Limits::http_connections_per_address`];
//!   one more is closed as soon as it is accepted.
//! - Requests in flight, over all the address's connections: [`Limits::requests_per_address`],
//!   with tower's [`ConcurrencyLimit`] on one semaphore per address and [`tower::load_shed`] to
//!   answer one more with 429 at once rather than queue it.
//! - Time to send a request's headers: [`Limits::header_read_timeout_ms`], hyper's own
//!   `header_read_timeout`, which runs from the moment the connection is first read, so a
//!   connection that sends nothing at all is closed by it too.
//!
//! WebSockets are counted once upgraded, in [`crate::ws`]: connections per address, and those
//! that have not said `hello` yet ([`Limits::upgrades_per_address`], closed with 4001 after
//! [`Limits::hello_timeout_ms`]).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::{BoxError, Extension, Router};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceBuilder;
use tower::limit::ConcurrencyLimit;

use crate::Limits;

/// Open HTTP connections per address, and the permits for requests in flight they share.
#[derive(Clone, Debug, Default)]
struct PerAddress(Arc<Mutex<HashMap<IpAddr, Held>>>);

/// What one address holds: its open HTTP connections, and its permits for requests in flight.
type Held = (usize, Arc<Semaphore>);

impl PerAddress {
    /// Counts one more connection from `ip`, unless it holds `max` already; a new address gets
    /// `requests` permits.
    fn open(&self, ip: IpAddr, max: usize, requests: usize) -> Option<HttpGuard> {
        let mut counts = self.0.lock().expect("not poisoned");
        let (count, permits) = counts
            .entry(ip)
            .or_insert_with(|| (0, Arc::new(Semaphore::new(requests))));
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(HttpGuard {
            per_address: self.clone(),
            ip,
            requests: permits.clone(),
        })
    }
}

/// Keeps one HTTP connection counted while it lives; the address is forgotten with its last one.
#[derive(Debug)]
struct HttpGuard {
    per_address: PerAddress,
    ip: IpAddr,
    requests: Arc<Semaphore>,
}

impl Drop for HttpGuard {
    fn drop(&mut self) {
        let mut counts = self.per_address.0.lock().expect("not poisoned");
        if let Some((count, _)) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Serves HTTP/1 (and WebSocket upgrades) on one connection until it ends, or until `shutdown`
/// lets its request in flight finish.
async fn serve_connection<I, S>(
    io: I,
    service: S,
    header_timeout: Duration,
    peer: SocketAddr,
    shutdown: CancellationToken,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: tower::Service<
            axum::http::Request<hyper::body::Incoming>,
            Response = axum::response::Response,
            Error = std::convert::Infallible,
        > + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let connection = http
        .serve_connection(TokioIo::new(io), TowerToHyperService::new(service))
        .with_upgrades();
    let mut connection = std::pin::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = shutdown.cancelled() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(err) = result {
        // A header read timeout, a malformed request, a reset: the peer's doing.
        tracing::debug!(%peer, cause = %err, "HTTP connection ended");
    }
}

/// The answer to a request over [`Limits::requests_per_address`] (the load shedder's error).
async fn too_many_requests(_: BoxError) -> (axum::http::StatusCode, &'static str) {
    (
        axum::http::StatusCode::TOO_MANY_REQUESTS,
        "too many requests from your address at once",
    )
}

/// Serves `app` on `listener` until `shutdown` is cancelled, then asks every HTTP connection to
/// close once its request in flight is answered, and waits for them (upgraded WebSockets are no
/// longer the listener's: their sessions end on `shutdown` by themselves). An error accepting one
/// connection (out of file descriptors, a reset before the accept) is logged and the listener
/// goes on after 50 ms, as `axum::serve` does.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    tls: Option<TlsAcceptor>,
    shutdown: CancellationToken,
) {
    let per_address = PerAddress::default();
    let connections = TaskTracker::new();
    let header_timeout = Duration::from_millis(limits.header_read_timeout_ms);
    let requests = usize::try_from(limits.requests_per_address).unwrap_or(usize::MAX);
    loop {
        let (tcp, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    tracing::warn!(cause = %err, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(guard) = per_address.open(peer.ip(), limits.http_connections_per_address, requests) else {
            tracing::debug!(%peer, "too many HTTP connections from one address: closed");
            continue;
        };
        // Small frames, one per move: send each at once rather than wait to fill a segment (Nagle).
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(cause = %err, "TCP_NODELAY not set");
        }
        let service = ServiceBuilder::new()
            .layer(axum::error_handling::HandleErrorLayer::new(too_many_requests))
            .load_shed()
            .service(ConcurrencyLimit::with_semaphore(
                ServiceBuilder::new()
                    .layer(Extension(ConnectInfo::<SocketAddr>(peer)))
                    .service(app.clone()),
                guard.requests.clone(),
            ));
        let shutdown = shutdown.clone();
        let tls = tls.clone();
        connections.spawn(async move {
            match tls {
                None => serve_connection(tcp, service, header_timeout, peer, shutdown).await,
                // The handshake gets the header read timeout too: a silent peer is closed as fast.
                Some(tls) => match tokio::time::timeout(header_timeout, tls.accept(tcp)).await {
                    Ok(Ok(stream)) => serve_connection(stream, service, header_timeout, peer, shutdown).await,
                    Ok(Err(err)) => tracing::debug!(%peer, cause = %err, "TLS handshake failed"),
                    Err(_) => tracing::debug!(%peer, "TLS handshake not finished in time"),
                },
            }
            drop(guard);
        });
    }
    drop(listener);
    connections.close();
    connections.wait().await;
}
