//! A connection's bounded outgoing queue, shared by the rooms that write to it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use skirmish_protocol::ServerMsg;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Messages a connection may have queued before it counts as not keeping up (and is disconnected),
/// by default ([`crate::Limits::outbox_capacity`]).
pub const OUTBOX_CAPACITY: usize = 1024;

/// The sending side of one connection's queue. Cloned into every room the connection sits or
/// watches in. Sending never waits: a full queue disconnects the slow client, so that it cannot
/// stall a room; it may reconnect and get a fresh snapshot.
#[derive(Clone, Debug)]
pub struct Outbox {
    conn: u64,
    tx: mpsc::Sender<Arc<ServerMsg>>,
    kick: CancellationToken,
}

/// The receiving side, owned by the connection's session task.
#[derive(Debug)]
pub struct Inbox {
    /// Messages to write to the socket, in order.
    pub rx: mpsc::Receiver<Arc<ServerMsg>>,
    /// Cancelled when the connection fell too far behind and must be closed.
    pub kicked: CancellationToken,
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

impl Outbox {
    /// A new queue for one connection, with [`OUTBOX_CAPACITY`] places.
    pub fn new() -> (Outbox, Inbox) {
        Outbox::with_capacity(OUTBOX_CAPACITY)
    }

    /// A new queue for one connection, with `capacity` places (messages).
    ///
    /// # Panics
    /// When `capacity` is 0.
    pub fn with_capacity(capacity: usize) -> (Outbox, Inbox) {
        let (tx, rx) = mpsc::channel(capacity);
        let kick = CancellationToken::new();
        let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        (
            Outbox {
                conn,
                tx,
                kick: kick.clone(),
            },
            Inbox { rx, kicked: kick },
        )
    }

    /// The connection's number, unique in this process.
    pub fn conn(&self) -> u64 {
        self.conn
    }

    /// Queues a message. Returns `false` when the connection is gone or was just disconnected for
    /// not keeping up.
    pub fn send(&self, msg: ServerMsg) -> bool {
        self.send_shared(Arc::new(msg))
    }

    /// Queues a message shared with other connections.
    pub fn send_shared(&self, msg: Arc<ServerMsg>) -> bool {
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.kick.cancel();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}
