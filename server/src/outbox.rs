//! A connection's bounded outgoing queue, shared by the rooms that write to it.
//!
//! What is queued is a [`Frame`]: a server message already serialised to JSON text. A message sent
//! to many connections (an event every viewer may see) is serialised once, by the room that says
//! it, and the same frame (a reference count) is queued for each of them ([`Outbox::send_frame`]);
//! docs/performance.md has the measurements.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use axum::extract::ws::Utf8Bytes;
use skirmish_protocol::ServerMsg;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Messages a connection may have queued before it counts as not keeping up (and is disconnected),
/// by default ([`crate::Limits::outbox_capacity`]).
pub const OUTBOX_CAPACITY: usize = 1024;

/// One server message serialised to JSON text, ready to be written to any number of sockets.
/// Cloning it shares the bytes (a reference count), it does not copy them.
///
/// One pointer: every connection's queue is a channel whose first block of 32 slots is made with
/// it, whether the connection ever gets a frame or not. Slots of the text and the error code
/// themselves (48 bytes) made that block 1.5 KiB of every idle connection; a pointer makes it
/// 256 bytes (heaptrack, docs/performance.md). A frame sent to several connections is still
/// made once.
#[derive(Clone, Debug)]
pub struct Frame(Arc<FrameText>);

#[derive(Debug)]
struct FrameText {
    text: Utf8Bytes,
    /// The `code` of an `error` message, counted by the metrics when the frame is written.
    error_code: Option<Box<str>>,
}

impl Frame {
    /// A frame of JSON text already serialised by another node (a frame relayed over the
    /// cluster's bus); an `error`'s code is read back for the metrics.
    pub fn from_text(text: Utf8Bytes) -> Frame {
        let error_code = text
            .as_str()
            .starts_with(r#"{"type":"error""#)
            .then(|| serde_json::from_str::<ServerMsg>(text.as_str()).ok())
            .flatten()
            .and_then(|msg| match msg {
                ServerMsg::Error { code, .. } => Some(code.as_str().into()),
                _ => None,
            });
        Frame(Arc::new(FrameText { text, error_code }))
    }

    /// Serialises `msg`.
    pub fn new(msg: &ServerMsg) -> Frame {
        let text = serde_json::to_string(msg).expect("server messages serialize");
        Frame(Arc::new(FrameText {
            text: text.into(),
            error_code: match msg {
                ServerMsg::Error { code, .. } => Some(code.as_str().into()),
                _ => None,
            },
        }))
    }

    /// The JSON text.
    pub fn text(&self) -> &Utf8Bytes {
        &self.0.text
    }

    /// The error code, when the message is an `error`.
    pub fn error_code(&self) -> Option<&str> {
        self.0.error_code.as_deref()
    }
}

/// The sending side of one connection's queue. Cloned into every room the connection sits or
/// watches in. Sending never waits: a full queue disconnects the slow client, so that it cannot
/// stall a room; it may reconnect and get a fresh snapshot. A clone is one reference count: rooms
/// hold one for every message they hold back for the journal.
#[derive(Clone, Debug)]
pub struct Outbox(Arc<Ends>);

/// What an [`Outbox`] shares between its clones.
#[derive(Debug)]
struct Ends {
    conn: u64,
    /// Whether `your_turn` carries the seat's whole view here (`hello`'s `turn_view`).
    turn_view: AtomicBool,
    way: Way,
}

/// Where an outbox's frames go.
#[derive(Debug)]
enum Way {
    /// A connection of this process: its session task reads `tx`.
    Local {
        tx: mpsc::Sender<Frame>,
        /// Cancelled when the connection is to close, for the reason in `reason`.
        closing: CancellationToken,
        reason: Arc<AtomicU8>,
    },
    /// A connection held by another node of the cluster: frames go to that node over the bus.
    Remote { node: Arc<str>, relay: Relay },
}

/// What the cluster's bus writer publishes for a connection held by another node
/// ([`Outbox::remote`]).
#[derive(Debug)]
pub enum Relayed {
    /// A frame for connection `conn` of `node`.
    Frame {
        /// The node that holds the connection.
        node: Arc<str>,
        /// The connection's number there.
        conn: u64,
        /// The frame's JSON text.
        text: Utf8Bytes,
    },
    /// Connection `conn` of `node` did not keep up (its frames overflowed the relay) and is to
    /// be closed with 4008, as a local one would be.
    Kick {
        /// The node that holds the connection.
        node: Arc<str>,
        /// The connection's number there.
        conn: u64,
    },
    /// Connection `conn` of `node` was replaced by a newer one of its player and is to be closed
    /// with 4009.
    Replaced {
        /// The node that holds the connection.
        node: Arc<str>,
        /// The connection's number there.
        conn: u64,
    },
}

/// The node-wide queue of frames for connections held by other nodes, read by the cluster's bus
/// writer. Bounded: when it is full, the connection a frame was for is kicked (its node closes
/// it with 4008, and it resumes with a fresh snapshot), as a local connection whose outbox is
/// full is; a kick is never lost to a full queue, it waits in a set of its own.
#[derive(Clone, Debug)]
pub struct Relay {
    tx: mpsc::Sender<Relayed>,
    kicks: Arc<Mutex<HashSet<RemoteConn>>>,
}

/// A connection of another node: the node's id and the connection's number there.
pub type RemoteConn = (Arc<str>, u64);

impl Relay {
    /// A relay of `capacity` places and its receiving end.
    pub fn new(capacity: usize) -> (Relay, mpsc::Receiver<Relayed>) {
        let (tx, rx) = mpsc::channel(capacity);
        (
            Relay {
                tx,
                kicks: Arc::default(),
            },
            rx,
        )
    }

    /// The kicks that did not fit in the queue, taken out.
    pub fn take_kicks(&self) -> Vec<RemoteConn> {
        self.kicks.lock().expect("not poisoned").drain().collect()
    }

    fn relay(&self, item: Relayed) -> bool {
        match self.tx.try_send(item) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(
                Relayed::Frame { node, conn, .. }
                | Relayed::Kick { node, conn }
                | Relayed::Replaced { node, conn },
            )) => {
                self.kicks.lock().expect("not poisoned").insert((node, conn));
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

/// An [`Outbox`] that does not keep its connection's queue alive ([`Outbox::downgrade`]).
#[derive(Clone, Debug)]
pub struct WeakOutbox(std::sync::Weak<Ends>);

impl WeakOutbox {
    /// The outbox, while its connection lives.
    pub fn upgrade(&self) -> Option<Outbox> {
        self.0.upgrade().map(Outbox)
    }
}

/// The receiving side, owned by the connection's session task.
#[derive(Debug)]
pub struct Inbox {
    /// Frames to write to the socket, in order.
    pub rx: mpsc::Receiver<Frame>,
    closing: CancellationToken,
    reason: Arc<AtomicU8>,
}

/// Why a connection is to close ([`Inbox::closing`]); the first reason given wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// The server is shutting down: [`crate::session::CLOSE_GOING_AWAY`].
    ShuttingDown,
    /// The connection fell too far behind ([`Outbox::kick`]): 4008.
    TooSlow,
    /// A newer connection took this one's player (or bot account) over, or the account's token
    /// was rotated or revoked ([`Outbox::close_replaced`]): [`skirmish_protocol::CLOSE_REPLACED`].
    Replaced,
}

const REASON_NONE: u8 = 0;
const REASON_TOO_SLOW: u8 = 1;
const REASON_REPLACED: u8 = 2;

impl Inbox {
    /// A token cancelled when the connection is to close: kicked, replaced, or the server (the token the
    /// outbox was made under, [`Outbox::with_capacity_under`]) shutting down. One token per
    /// connection, a child of the server's: a session polls it when it has nothing to read or
    /// write (a kick or a takeover it reads at every turn from [`Inbox::reason_given`]), and
    /// three tokens, one of them shared by every connection (its lock contended), were some 2%
    /// of the server's CPU at 1,000 busy rooms (docs/performance.md).
    pub fn closing(&self) -> CancellationToken {
        self.closing.clone()
    }

    /// Whether the connection was kicked or replaced: one atomic load, which a session reads at
    /// every turn of its loop (a server shutting down shows in [`Inbox::closing`] alone).
    pub fn reason_given(&self) -> bool {
        self.reason.load(Ordering::Acquire) != REASON_NONE
    }

    /// Why the connection is to close, once [`Inbox::closing`] is cancelled (before, or for a
    /// server shutting down: [`Closing::ShuttingDown`]).
    pub fn close_reason(&self) -> Closing {
        match self.reason.load(Ordering::Acquire) {
            REASON_TOO_SLOW => Closing::TooSlow,
            REASON_REPLACED => Closing::Replaced,
            _ => Closing::ShuttingDown,
        }
    }
}

/// Gives the connection its reason to close, unless it has one already, and wakes its session.
fn close_for(closing: &CancellationToken, reason: &AtomicU8, why: u8) {
    let _ = reason.compare_exchange(REASON_NONE, why, Ordering::AcqRel, Ordering::Acquire);
    closing.cancel();
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Where this process's connection numbers start: random, so that the numbers of two nodes of a
/// cluster do not meet (a room compares them to tell a player's connections apart, and may hold
/// connections of several nodes).
static CONN_BASE: LazyLock<u64> = LazyLock::new(|| (rand::random::<u64>() >> 24) << 20);

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
        Outbox::with_capacity_under(capacity, &CancellationToken::new())
    }

    /// A new queue for one connection, with `capacity` places (messages), whose
    /// [`Inbox::closing`] also resolves when `shutdown` is cancelled.
    ///
    /// # Panics
    /// When `capacity` is 0.
    pub fn with_capacity_under(capacity: usize, shutdown: &CancellationToken) -> (Outbox, Inbox) {
        let (tx, rx) = mpsc::channel(capacity);
        let closing = shutdown.child_token();
        let reason = Arc::new(AtomicU8::new(REASON_NONE));
        let conn = *CONN_BASE + NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        (
            Outbox(Arc::new(Ends {
                conn,
                turn_view: AtomicBool::new(false),
                way: Way::Local {
                    tx,
                    closing: closing.clone(),
                    reason: Arc::clone(&reason),
                },
            })),
            Inbox { rx, closing, reason },
        )
    }

    /// The outbox of connection `conn` held by node `node` of the cluster: what is sent to it
    /// goes through `relay` to that node, which queues it in the connection's own outbox.
    pub fn remote(node: Arc<str>, conn: u64, turn_view: bool, relay: Relay) -> Outbox {
        Outbox(Arc::new(Ends {
            conn,
            turn_view: AtomicBool::new(turn_view),
            way: Way::Remote { node, relay },
        }))
    }

    /// A reference to this outbox that does not keep it alive.
    pub fn downgrade(&self) -> WeakOutbox {
        WeakOutbox(Arc::downgrade(&self.0))
    }

    /// The node holding this connection, when it is another node's ([`Outbox::remote`]).
    pub fn node(&self) -> Option<&Arc<str>> {
        match &self.0.way {
            Way::Local { .. } => None,
            Way::Remote { node, .. } => Some(node),
        }
    }

    /// An outbox whose connection is gone: what a seat restored from a room's log holds until
    /// its player reconnects. Everything sent to it is dropped.
    pub fn closed() -> Outbox {
        Outbox::with_capacity(1).0
    }

    /// Says whether `your_turn` on this connection carries the seat's whole view (`hello`'s
    /// `turn_view`); set once, on `hello`.
    pub fn set_turn_view(&self, wanted: bool) {
        self.0.turn_view.store(wanted, Ordering::Relaxed);
    }

    /// Whether this connection's `your_turn` carries the seat's whole view ([`Outbox::set_turn_view`]).
    pub fn turn_view(&self) -> bool {
        self.0.turn_view.load(Ordering::Relaxed)
    }

    /// Asks the connection to close at once with [`skirmish_protocol::CLOSE_REPLACED`]: a newer
    /// connection holds its player now, or its account's token changed.
    pub fn close_replaced(&self) {
        match &self.0.way {
            Way::Local { closing, reason, .. } => close_for(closing, reason, REASON_REPLACED),
            Way::Remote { node, relay } => {
                relay.relay(Relayed::Replaced {
                    node: Arc::clone(node),
                    conn: self.0.conn,
                });
            }
        }
    }

    /// Closes the connection with 4008, as for a client that does not keep up.
    pub fn kick(&self) {
        match &self.0.way {
            Way::Local { closing, reason, .. } => close_for(closing, reason, REASON_TOO_SLOW),
            Way::Remote { node, relay } => {
                relay.relay(Relayed::Kick {
                    node: Arc::clone(node),
                    conn: self.0.conn,
                });
            }
        }
    }

    fn is_closed(&self) -> bool {
        match &self.0.way {
            Way::Local { tx, .. } => tx.is_closed(),
            Way::Remote { relay, .. } => relay.tx.is_closed(),
        }
    }

    /// The connection's number, unique in this process.
    pub fn conn(&self) -> u64 {
        self.0.conn
    }

    /// Queues a message for this connection alone. Returns `false` when the connection is gone or
    /// was just disconnected for not keeping up.
    pub fn send(&self, msg: ServerMsg) -> bool {
        if self.is_closed() {
            return false;
        }
        self.send_frame(Frame::new(&msg))
    }

    /// Queues a frame already serialised: the same frame may be queued for any number of
    /// connections, its bytes shared. Returns as [`Outbox::send`].
    pub fn send_frame(&self, frame: Frame) -> bool {
        match &self.0.way {
            Way::Local { tx, closing, reason } => match tx.try_send(frame) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    close_for(closing, reason, REASON_TOO_SLOW);
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            },
            Way::Remote { node, relay } => relay.relay(Relayed::Frame {
                node: Arc::clone(node),
                conn: self.0.conn,
                text: frame.text().clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(req: u64) -> ServerMsg {
        ServerMsg::Pong { req: Some(req) }
    }

    #[test]
    fn a_frame_queued_for_several_outboxes_shares_its_bytes() {
        let (a, mut a_in) = Outbox::new();
        let (b, mut b_in) = Outbox::new();
        let frame = Frame::new(&pong(1));
        assert!(a.send_frame(frame.clone()));
        assert!(b.send_frame(frame));
        assert!(a.send(pong(2)));
        let (fa, fb) = (a_in.rx.try_recv().unwrap(), b_in.rx.try_recv().unwrap());
        assert_eq!(fa.text().as_str(), serde_json::to_string(&pong(1)).unwrap());
        assert_eq!(
            fa.text().as_str().as_ptr(),
            fb.text().as_str().as_ptr(),
            "the same bytes"
        );
        let next = a_in.rx.try_recv().unwrap();
        assert_eq!(next.text().as_str(), serde_json::to_string(&pong(2)).unwrap());
    }

    #[test]
    fn a_full_queue_disconnects_its_client() {
        let (a, a_in) = Outbox::with_capacity(1);
        assert!(a.send(pong(1)));
        assert!(!a.send(pong(2)), "no place left");
        assert!(a_in.reason_given());
        assert_eq!(a_in.close_reason(), Closing::TooSlow);
    }

    #[test]
    fn an_error_keeps_its_code_for_the_metrics() {
        let msg = ServerMsg::Error {
            req: None,
            code: skirmish_protocol::ErrorCode::RoomFull,
            message: "no free seat".to_owned(),
        };
        assert_eq!(Frame::new(&msg).error_code(), Some("room_full"));
        assert_eq!(Frame::new(&pong(1)).error_code(), None);
    }
}
