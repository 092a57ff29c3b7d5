//! Writing to the client: one message before the outbox runs, batches of queued frames with one
//! flush, and the bound on how long a write may wait on a client that does not read.

use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::{Sink, SinkExt};
use skirmish_protocol::ServerMsg;

use crate::metrics::Metrics;
use crate::outbox::{Frame, Inbox};

/// How long any one write to the socket may wait on a client that does not read (30 s) before
/// the connection is dropped without it: the outbox's writes (`write_within`), a ping, a close
/// frame, the rate limit's error. A client that does not read at all holds its seat no longer:
/// while such a write waits, the session notices neither the idle timer nor (outside the
/// outbox's writes) a kick.
pub const SLOW_CLOSE_WAIT: Duration = Duration::from_secs(30);

/// The most frames written with one flush (64: enough for a burst of events from one move, small
/// enough that the first of them is not held back long).
pub(super) const WRITE_BATCH: usize = 64;

/// Writes one message to the socket (before the outbox runs: `welcome` and refusals of `hello`).
pub(super) async fn send<K: Sink<Message> + Unpin>(sink: &mut K, msg: &ServerMsg, metrics: &Metrics) -> bool {
    let frame = Frame::new(msg);
    metrics.message_out(frame.error_code());
    sink.send(Message::Text(frame.text().clone())).await.is_ok()
}

/// Writes `first` and every frame already queued behind it (up to [`WRITE_BATCH`]) with one flush,
/// so that an event and the `your_turn` that follows it cost one write to the socket rather than
/// two. Returns `false` when the socket is gone.
pub(super) async fn write_queued<K: Sink<Message> + Unpin>(
    sink: &mut K,
    first: Frame,
    inbox: &mut Inbox,
    metrics: &Metrics,
) -> bool {
    let mut next = Some(first);
    let mut batch = 0;
    while let Some(frame) = next.take() {
        metrics.message_out(frame.error_code());
        if sink.feed(Message::Text(frame.text().clone())).await.is_err() {
            return false;
        }
        batch += 1;
        if batch < WRITE_BATCH {
            next = inbox.rx.try_recv().ok();
        }
    }
    sink.flush().await.is_ok()
}

/// [`write_queued`], given at most [`SLOW_CLOSE_WAIT`] once it has to wait on the socket:
/// `None` when that ran out. A client that stops reading fills the socket's buffers, and its
/// outbox overflows and kicks it only if more frames come; when none do, the write would wait, and
/// hold the session and its seats, for as long as the client keeps the socket open. The usual
/// write completes at its first poll, which sets up no timer (a timer per frame was some 4% of
/// the server's CPU, docs/performance.md).
pub(super) async fn write_within<K: Sink<Message> + Unpin>(
    sink: &mut K,
    first: Frame,
    inbox: &mut Inbox,
    metrics: &Metrics,
) -> Option<bool> {
    let write = write_queued(sink, first, inbox, metrics);
    tokio::pin!(write);
    if let std::task::Poll::Ready(written) = futures_util::poll!(&mut write) {
        return Some(written);
    }
    tokio::time::timeout(SLOW_CLOSE_WAIT, write).await.ok()
}
