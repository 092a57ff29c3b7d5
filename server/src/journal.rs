//! The room journal: every room writes what happens to it to storage as it goes, so that a room
//! in play when the server is killed can be rebuilt from its log after a restart
//! ([`crate::room::restore`]).
//!
//! The log records a room's *inputs* in the order the room's actor took them: seats taken and
//! given up, the start, every action applied, every time-out and forfeit. Replaying them on a room
//! made with the same config and the same seed of randomness gives back the same game, the same
//! commitments (their salts come from that seed) and the same event numbers, since the rules
//! engines are deterministic. Secret deployments are in the log: it never leaves the server.
//!
//! Rooms hand their entries to a [`Journal`] without waiting; one writer task stores them in
//! batches, one SQLite transaction per batch (a batch is whatever queued while the last one was
//! written). What a SIGKILL can lose is the batch not yet committed: the last milliseconds.

use serde::{Deserialize, Serialize};
use skirmish_protocol::{Action, PlayerId, RoomId, Seat};
use tokio::sync::{mpsc, oneshot};
use tracing::error;

use crate::store::{JournalWrite, Store, StoredRoom};

/// One thing that happened to a room, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A player or bot took a seat.
    Seated {
        /// The seat.
        seat: Seat,
        /// Who.
        player: PlayerId,
        /// Their display name.
        name: String,
        /// For a bot, the strategy it plays there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<String>,
        /// The digest of their resume token ([`skirmish_protocol::ResumeToken::digest`]), so that
        /// they can resume the seat after a restart.
        token: String,
        /// For a bot taking a dropped player's seat over, that player's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        took_over_from: Option<String>,
    },
    /// A seat was given up before the start.
    Unseated {
        /// The seat.
        seat: Seat,
    },
    /// The match started.
    Started,
    /// The rules engine applied `seat`'s action.
    Acted {
        /// The seat.
        seat: Seat,
        /// The action.
        action: Action,
        /// Milliseconds the seat's game clock was charged for the turn.
        spent_ms: u64,
    },
    /// `seat`'s turn ran out and the referee acted for it (docs/rules.md: a random legal deployment or
    /// shot, or a loss on time).
    TimedOut {
        /// The seat.
        seat: Seat,
        /// Milliseconds the seat's game clock was charged for the turn.
        spent_ms: u64,
    },
    /// `seat` forfeited the match.
    Forfeited {
        /// The seat.
        seat: Seat,
        /// Why: `timed_out` (its game clock ran out) or `disconnected` (its grace period did).
        reason: String,
    },
}

enum Write {
    Store(JournalWrite),
    Flush(oneshot::Sender<()>),
}

/// Where rooms write their logs. Cheap to clone; the writer task ends when every clone is
/// dropped, after writing everything queued.
#[derive(Debug, Clone)]
pub struct Journal {
    tx: mpsc::UnboundedSender<Write>,
}

impl std::fmt::Debug for Write {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Write::Store(write) => write.fmt(f),
            Write::Flush(_) => f.write_str("Flush"),
        }
    }
}

/// The most writes committed in one transaction.
const BATCH: usize = 4096;

impl Journal {
    /// Starts the writer task on `store`.
    pub fn start(store: Store) -> Journal {
        let (tx, mut rx) = mpsc::unbounded_channel::<Write>();
        tokio::spawn(async move {
            let mut queued = Vec::new();
            while rx.recv_many(&mut queued, BATCH).await > 0 {
                let mut writes = Vec::with_capacity(queued.len());
                let mut flushed = Vec::new();
                for write in queued.drain(..) {
                    match write {
                        Write::Store(write) => writes.push(write),
                        Write::Flush(done) => flushed.push(done),
                    }
                }
                if !writes.is_empty() {
                    let count = writes.len();
                    if let Err(err) = store.write_journal(writes).await {
                        error!(cause = %err, writes = count, "the room journal could not be written");
                    }
                }
                for done in flushed {
                    let _ = done.send(());
                }
            }
        });
        Journal { tx }
    }

    /// Records a new room (its log empty), made at `created_ms` (milliseconds since the Unix
    /// epoch).
    pub fn open(&self, room: StoredRoom, created_ms: u64) {
        self.send(JournalWrite::Open {
            room: Box::new(room),
            created_ms,
        });
    }

    /// Records the `n`th entry (from 0) of `room`'s log.
    pub fn append(&self, room: RoomId, n: u64, entry: Entry) {
        self.send(JournalWrite::Append { room, n, entry });
    }

    /// Records that `room` is over: it is not restored after a restart.
    pub fn close(&self, room: RoomId) {
        self.send(JournalWrite::Close { room });
    }

    /// Deletes `room` and its log: it closed before its match started.
    pub fn discard(&self, room: RoomId) {
        self.send(JournalWrite::Discard { room });
    }

    fn send(&self, write: JournalWrite) {
        // The writer only stops once every journal is dropped.
        let _ = self.tx.send(Write::Store(write));
    }

    /// Waits until everything handed over before this call is written.
    pub async fn flush(&self) {
        let (done, written) = oneshot::channel();
        if self.tx.send(Write::Flush(done)).is_ok() {
            let _ = written.await;
        }
    }
}
