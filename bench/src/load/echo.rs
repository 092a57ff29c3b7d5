//! The raw transport's limit: a minimal WebSocket echo server (not part of the product: a
//! measuring instrument), and the load rooms that drive it the way the game rooms drive Skirmish.
//!
//! The echo server is built on the same stack as Skirmish's server (axum over hyper and
//! tungstenite, one tokio runtime, Nagle off), so the difference between the two is what Skirmish
//! itself costs: sessions, rooms, rules, JSON. An echo room holds as many connections as a game
//! room has seats and passes a turn around them: one connection sends a frame, waits for it to
//! come back, and hands over to the next, so that each room has one round trip in flight, as a
//! turn-based game does.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::Router;
use axum::extract::WebSocketUpgrade;
use axum::extract::ws::{Message as AxumMessage, WebSocket};
use axum::routing::get;
use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::game::connect_raw;
use super::{ECHO_READ_BUFFER_BYTES, Shared};

/// Serves the echo endpoint at `/ws` on `listener` until `shutdown` is cancelled: every text or
/// binary frame is sent back unchanged. Its WebSockets get the read buffer Skirmish's server
/// gives its own ([`ECHO_READ_BUFFER_BYTES`]).
///
/// # Errors
/// An IO error from the listener.
pub async fn serve(listener: TcpListener, shutdown: CancellationToken) -> std::io::Result<()> {
    let app = Router::new().route(
        "/ws",
        get(|upgrade: WebSocketUpgrade| async move {
            upgrade
                .max_message_size(1 << 20)
                .max_frame_size(1 << 20)
                .read_buffer_size(ECHO_READ_BUFFER_BYTES)
                .on_upgrade(echo)
        }),
    );
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

async fn echo(mut socket: WebSocket) {
    while let Some(Ok(message)) = socket.recv().await {
        match message {
            AxumMessage::Text(_) | AxumMessage::Binary(_) => {
                if socket.send(message).await.is_err() {
                    return;
                }
            }
            AxumMessage::Close(_) => return,
            AxumMessage::Ping(_) | AxumMessage::Pong(_) => {}
        }
    }
}

/// An echo server in its own process (the `skirmish-bench echo-server` command), so that its CPU
/// time and memory are its own, as the game server's are. Killed when dropped.
#[derive(Debug)]
pub struct EchoProcess {
    child: Child,
    /// Its WebSocket URL, `ws://127.0.0.1:<port>/ws`.
    pub url: String,
}

impl EchoProcess {
    /// Starts `program echo-server` (`program` is the `skirmish-bench` executable) on a free
    /// port and reads the URL it prints on its first line.
    ///
    /// # Errors
    /// The program cannot be started, or exits without printing its URL.
    pub fn spawn(program: &std::path::Path) -> anyhow::Result<EchoProcess> {
        let mut child = Command::new(program)
            .args(["--log", "warn", "echo-server"])
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        std::io::BufReader::new(stdout).read_line(&mut line)?;
        let url = line.trim().to_owned();
        if !url.starts_with("ws://") {
            let _ = child.kill();
            anyhow::bail!("the echo server printed {url:?}, not its URL");
        }
        Ok(EchoProcess { child, url })
    }

    /// The echo server's process id.
    pub fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).expect("pids fit in i32")
    }
}

impl Drop for EchoProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs echo room number `index`: `seats` connections to `url`, a turn passed around them with a
/// text frame of `frame_bytes` bytes, from `shared.go` until `shared.stop`.
pub(super) async fn room(index: usize, url: String, seats: usize, frame_bytes: usize, shared: Arc<Shared>) {
    let mut sockets = Vec::with_capacity(seats);
    for _ in 0..seats {
        match connect_raw(&url, &shared).await {
            Ok(socket) => {
                shared.recorder.connection(1);
                sockets.push(socket);
            }
            Err(err) => {
                tracing::debug!(room = index, cause = %err, "echo connection failed");
                shared.recorder.error("connect");
                break;
            }
        }
    }
    let held = i64::try_from(sockets.len()).expect("few seats");
    shared.settled.fetch_add(1, Ordering::Relaxed);
    if sockets.len() == seats {
        let payload = payload(frame_bytes);
        tokio::select! {
            () = shared.stop.cancelled() => {}
            () = shared.go.cancelled() => {
                shared.started.fetch_add(1, Ordering::Relaxed);
                let mut turn = 0;
                loop {
                    if !shared.think.is_zero() {
                        tokio::select! {
                            () = shared.stop.cancelled() => break,
                            () = tokio::time::sleep(shared.think) => {}
                        }
                    }
                    let socket = &mut sockets[turn];
                    let sent = Instant::now();
                    shared.recorder.sent(sent, payload.len());
                    let round_trip = async {
                        socket.send(Message::text(payload.clone())).await?;
                        loop {
                            match socket.next().await {
                                Some(Ok(Message::Text(text))) => return anyhow::Ok(text.len()),
                                Some(Ok(Message::Close(_))) | None => anyhow::bail!("closed"),
                                Some(Ok(_)) => {}
                                Some(Err(err)) => return Err(err.into()),
                            }
                        }
                    };
                    let result = tokio::select! {
                        () = shared.stop.cancelled() => break,
                        result = tokio::time::timeout(shared.stall, round_trip) => result,
                    };
                    match result {
                        Ok(Ok(bytes)) => {
                            let at = Instant::now();
                            shared.recorder.received(at, bytes);
                            shared.recorder.round_trip(index, sent, at);
                        }
                        Ok(Err(err)) => {
                            tracing::debug!(room = index, cause = %err, "echo connection ended");
                            shared.recorder.error("closed");
                            break;
                        }
                        Err(_) => {
                            shared.recorder.error("stall");
                            break;
                        }
                    }
                    turn = (turn + 1) % seats;
                }
            }
        }
    }
    for socket in &mut sockets {
        let _ = socket.close(None).await;
    }
    shared.recorder.connection(-held);
}

/// A JSON text frame of exactly `bytes` bytes (at least 22, its fixed part), like a
/// protocol message in shape.
fn payload(bytes: usize) -> String {
    let fixed = r#"{"type":"echo","p":""}"#.len();
    format!(
        r#"{{"type":"echo","p":"{}"}}"#,
        "x".repeat(bytes.saturating_sub(fixed))
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn payload_has_the_size_asked() {
        assert_eq!(super::payload(300).len(), 300);
        assert!(serde_json::from_str::<serde_json::Value>(&super::payload(300)).is_ok());
    }
}
