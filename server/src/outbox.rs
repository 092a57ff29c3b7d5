//! A connection's bounded outgoing queue, shared by the rooms that write to it.
//!
//! What is queued is a [`Frame`]: a server message already serialised to JSON text. A message sent
//! to many connections (an event every viewer may see) is serialised once and the same bytes are
//! queued for each of them ([`Outbox::send_shared`]); docs/performance.md has the measurements.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use axum::extract::ws::Utf8Bytes;
use skirmish_protocol::ServerMsg;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Messages a connection may have queued before it counts as not keeping up (and is disconnected),
/// by default ([`crate::Limits::outbox_capacity`]).
pub const OUTBOX_CAPACITY: usize = 1024;

/// One server message serialised to JSON text, ready to be written to any number of sockets.
/// Cloning it shares the bytes (a reference count), it does not copy them.
#[derive(Clone, Debug)]
pub struct Frame {
    text: Utf8Bytes,
    /// The `code` of an `error` message, counted by the metrics when the frame is written.
    error_code: Option<Arc<str>>,
}

impl Frame {
    /// Serialises `msg`.
    pub fn new(msg: &ServerMsg) -> Frame {
        let text = serde_json::to_string(msg).expect("server messages serialize");
        Frame {
            text: text.into(),
            error_code: match msg {
                ServerMsg::Error { code, .. } => Some(code.as_str().into()),
                _ => None,
            },
        }
    }

    /// The JSON text.
    pub fn text(&self) -> &Utf8Bytes {
        &self.text
    }

    /// The error code, when the message is an `error`.
    pub fn error_code(&self) -> Option<&str> {
        self.error_code.as_deref()
    }
}

thread_local! {
    /// The last shared message serialised on this thread, and its frame. A room sends one shared
    /// message to each of its viewers in a row, without an `.await` in between, so one entry
    /// serialises it once for all of them. The cache holds a strong reference to the message, so
    /// no other live `Arc` can have its address: a pointer match is the same message.
    static LAST_SHARED: RefCell<Option<(Arc<ServerMsg>, Frame)>> = const { RefCell::new(None) };
}

/// The frame of a message shared by several connections, serialised once per run of sends.
fn shared_frame(msg: &Arc<ServerMsg>) -> Frame {
    LAST_SHARED.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((cached, frame)) = last.as_ref()
            && Arc::ptr_eq(cached, msg)
        {
            return frame.clone();
        }
        let frame = Frame::new(msg);
        *last = Some((Arc::clone(msg), frame.clone()));
        frame
    })
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
    tx: mpsc::Sender<Frame>,
    kick: CancellationToken,
    replace: CancellationToken,
}

/// The receiving side, owned by the connection's session task.
#[derive(Debug)]
pub struct Inbox {
    /// Frames to write to the socket, in order.
    pub rx: mpsc::Receiver<Frame>,
    /// Cancelled when the connection fell too far behind and must be closed.
    pub kicked: CancellationToken,
    /// Cancelled when a newer connection took this one's player (or bot account) over, or the
    /// account's token was rotated or revoked: the connection must be closed with
    /// [`skirmish_protocol::CLOSE_REPLACED`].
    pub replaced: CancellationToken,
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
        let replace = CancellationToken::new();
        let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        (
            Outbox(Arc::new(Ends {
                conn,
                turn_view: AtomicBool::new(false),
                tx,
                kick: kick.clone(),
                replace: replace.clone(),
            })),
            Inbox {
                rx,
                kicked: kick,
                replaced: replace,
            },
        )
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
        self.0.replace.cancel();
    }

    /// The connection's number, unique in this process.
    pub fn conn(&self) -> u64 {
        self.0.conn
    }

    /// Queues a message for this connection alone. Returns `false` when the connection is gone or
    /// was just disconnected for not keeping up.
    pub fn send(&self, msg: ServerMsg) -> bool {
        if self.0.tx.is_closed() {
            return false;
        }
        self.send_frame(Frame::new(&msg))
    }

    /// Queues a message shared with other connections: sending the same `Arc` to several
    /// outboxes in a row serialises it once. Returns as [`Outbox::send`].
    pub fn send_shared(&self, msg: Arc<ServerMsg>) -> bool {
        if self.0.tx.is_closed() {
            return false;
        }
        self.send_frame(shared_frame(&msg))
    }

    /// Queues a frame already serialised. Returns as [`Outbox::send`].
    pub fn send_frame(&self, frame: Frame) -> bool {
        match self.0.tx.try_send(frame) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.0.kick.cancel();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
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
    fn a_shared_message_is_serialised_once_for_every_outbox() {
        let (a, mut a_in) = Outbox::new();
        let (b, mut b_in) = Outbox::new();
        let msg = Arc::new(pong(1));
        assert!(a.send_shared(Arc::clone(&msg)));
        assert!(b.send_shared(Arc::clone(&msg)));
        let (fa, fb) = (a_in.rx.try_recv().unwrap(), b_in.rx.try_recv().unwrap());
        assert_eq!(fa.text().as_str(), serde_json::to_string(&*msg).unwrap());
        assert_eq!(
            fa.text().as_str().as_ptr(),
            fb.text().as_str().as_ptr(),
            "the same bytes"
        );
    }

    #[test]
    fn another_message_is_serialised_afresh() {
        let (a, mut a_in) = Outbox::new();
        assert!(a.send_shared(Arc::new(pong(1))));
        // The cache holds the first message, so the second cannot have its address.
        assert!(a.send_shared(Arc::new(pong(2))));
        assert!(a.send(pong(3)));
        let texts: Vec<String> = (0..3)
            .map(|_| a_in.rx.try_recv().unwrap().text().to_string())
            .collect();
        assert_eq!(texts, [1, 2, 3].map(|r| serde_json::to_string(&pong(r)).unwrap()));
    }

    #[test]
    fn an_error_keeps_its_code_for_the_metrics() {
        let msg = ServerMsg::Error {
            req: None,
            code: "room_full".to_owned(),
            message: "no free seat".to_owned(),
        };
        assert_eq!(Frame::new(&msg).error_code(), Some("room_full"));
        assert_eq!(Frame::new(&pong(1)).error_code(), None);
    }
}
