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
//! batches, one transaction per batch (a batch is whatever queued while the last one was
//! written: a group commit, one sync to the disk for every room that wrote meanwhile). Each write
//! gets a number, and the writer publishes the number of the last write it has on disk
//! ([`Journal::committed`]) once the batch's transaction has committed, and wakes the rooms
//! waiting for a write of that batch, and only those ([`Journal::when_on_disk`]). The journal
//! delivers nothing itself: each room holds what a write caused until that number reaches the
//! write's, then sends it from its own task (`room::held`), so that **every event a player has
//! been sent is on disk** (docs/reliability.md, "What a player can count on").
//!
//! A batch that fails is never dropped: it is retried, first after [`RETRY_FIRST`], then twice as
//! long each time up to [`RETRY_MAX`] between tries, for as long as it fails. Meanwhile storage is
//! *unavailable* ([`Journal::available`]): rooms refuse what would write to the log
//! (`storage_unavailable`), `/healthz` answers 503, and `/metrics` counts each failed try. The
//! writer also checks every [`FILE_CHECK_EVERY`] that the database file is still the one opened
//! ([`Store::check_file`]). Once a write goes through, storage is available again and play goes
//! on by itself.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use skirmish_protocol::RoomId;
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{error, info};

pub use crate::entry::Entry;
use crate::store::{JournalWrite, Store, StoredRoom};

enum Write {
    /// A write and its number.
    Store(u64, JournalWrite),
    Flush(oneshot::Sender<()>),
}

/// The first wait before a failed batch is tried again: 50 ms.
pub const RETRY_FIRST: Duration = Duration::from_millis(50);
/// The longest wait between two tries of a failed batch: 2 s (a lock held by another program,
/// a full disk freed, a file put back are noticed within it).
pub const RETRY_MAX: Duration = Duration::from_secs(2);
/// How often the writer checks, while idle, that the database file is still the one opened:
/// every second.
pub const FILE_CHECK_EVERY: Duration = Duration::from_secs(1);

/// Whether storage works, shared by the writer and every reader.
#[derive(Debug, Default)]
struct Health {
    /// Set while the last try to write (or to check the file) failed.
    failing: AtomicBool,
    /// Failed tries so far.
    failures: AtomicU64,
    /// What failed last, for `/healthz`.
    cause: Mutex<String>,
}

impl Health {
    fn failed(&self, cause: String) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        *self.cause.lock().expect("not poisoned") = cause;
        self.failing.store(true, Ordering::Release);
    }

    fn succeeded(&self) {
        if self.failing.swap(false, Ordering::AcqRel) {
            info!("storage works again");
        }
    }
}

/// The sending side: the next write's number and the queue, under one lock so that numbers
/// follow the queue's order.
#[derive(Debug)]
struct Queue {
    next: u64,
    tx: mpsc::UnboundedSender<Write>,
}

/// Rooms waiting for a write to be on disk ([`Journal::when_on_disk`]), by the write's number:
/// each is woken once by the commit that takes its number, and no other.
type Waiters = Arc<Mutex<BTreeMap<u64, Vec<oneshot::Sender<()>>>>>;

/// Where rooms write their logs. Cheap to clone; the writer task ends when every clone is
/// dropped, after writing everything queued.
#[derive(Debug, Clone)]
pub struct Journal {
    queue: Arc<Mutex<Queue>>,
    /// The number of the last write on disk, published by the writer after each commit.
    committed: watch::Receiver<u64>,
    /// Who waits for which write ([`Journal::when_on_disk`]).
    waiters: Waiters,
    health: Arc<Health>,
    store: Store,
}

impl std::fmt::Debug for Write {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Write::Store(n, write) => write!(f, "{n}: {write:?}"),
            Write::Flush(_) => f.write_str("Flush"),
        }
    }
}

/// The most writes committed in one transaction.
const BATCH: usize = 4096;

impl Journal {
    /// Starts the writer task on `store`, watched: a writer that panics leaves storage marked
    /// failing for good, so that every room refuses what it would write with
    /// `storage_unavailable` and `/healthz` says so, rather than rooms waiting in silence for
    /// commits that will never come (and [`Journal::committed`] reports the writer gone). The
    /// server must then be restarted.
    pub fn start(store: Store) -> Journal {
        let (tx, rx) = mpsc::unbounded_channel::<Write>();
        let (committed_tx, committed) = watch::channel(0);
        let health = Arc::new(Health::default());
        let waiters = Waiters::default();
        let writer = tokio::spawn(write_all(
            store.clone(),
            rx,
            Committed {
                number: committed_tx,
                waiters: waiters.clone(),
            },
            health.clone(),
        ));
        let watched = health.clone();
        let abandoned = waiters.clone();
        tokio::spawn(async move {
            if let Err(err) = writer.await
                && err.is_panic()
            {
                error!(cause = %err, "the journal's writer panicked: storage is unavailable until the server restarts");
                watched.failed(format!(
                    "the journal's writer stopped ({err}); restart the server"
                ));
                // Every waiting room hears that nothing more will be committed.
                abandoned.lock().expect("not poisoned").clear();
            }
        });
        Journal {
            queue: Arc::new(Mutex::new(Queue { next: 1, tx })),
            committed,
            waiters,
            health,
            store,
        }
    }

    /// The number of the last write on disk ([`Journal::append`] and the others return each
    /// write's number): every write numbered up to it is committed, and nothing after it is. It
    /// starts at 0 (no write) and only grows; the writer moves it once a batch's transaction has
    /// committed, before it answers [`Journal::flush`]. Its `changed` fails once the writer is
    /// gone (it panicked: storage is then unavailable for good, and nothing later is committed).
    pub fn committed(&self) -> watch::Receiver<u64> {
        self.committed.clone()
    }

    /// A receiver that gets `()` once write number `written` is on disk, woken by that commit
    /// alone (a room waiting on [`Journal::committed`] would wake at every commit, its own or
    /// not); `None` when it is on disk already. The receiver fails once the writer is gone.
    pub fn when_on_disk(&self, written: u64) -> Option<oneshot::Receiver<()>> {
        let mut waiters = self.waiters.lock().expect("not poisoned");
        // Read under the waiters' lock: the writer moves the number before it takes the lock
        // to wake, so a wait registered here is either seen as committed or woken.
        if *self.committed.borrow() >= written {
            return None;
        }
        let (tx, rx) = oneshot::channel();
        // A writer gone has dropped its end of `committed` before its watcher empties the
        // waiters: a wait registered after that fails at once.
        if self.committed.has_changed().is_ok() {
            waiters.entry(written).or_default().push(tx);
        }
        Some(rx)
    }

    /// Records a new room (its log empty), made at `created_ms` (milliseconds since the Unix
    /// epoch). Returns the write's number ([`Journal::committed`]).
    pub fn open(&self, room: StoredRoom, created_ms: u64) -> u64 {
        self.send(JournalWrite::Open {
            room: Box::new(room),
            created_ms,
        })
    }

    /// Records the `n`th entry (from 0) of `room`'s log. Returns the write's number.
    pub fn append(&self, room: RoomId, n: u64, entry: Entry) -> u64 {
        self.send(JournalWrite::Append { room, n, entry })
    }

    /// Records that `room` is over: it is not restored after a restart. Returns the write's
    /// number.
    pub fn close(&self, room: RoomId) -> u64 {
        self.send(JournalWrite::Close { room })
    }

    /// Deletes `room` and its log: it closed before its match started. Returns the write's
    /// number.
    pub fn discard(&self, room: RoomId) -> u64 {
        self.send(JournalWrite::Discard { room })
    }

    /// Keeps a finished casual match's record for its replay, under the store's cap
    /// ([`crate::store::ReplayCap`]). Returns the write's number.
    pub fn keep(&self, kept: crate::store::KeptMatch) -> u64 {
        self.send(JournalWrite::Keep { kept: Box::new(kept) })
    }

    /// Keeps a finished match's infos ([`skirmish_protocol::MoveInfo`]: what its bots thought),
    /// read with its record by the replay API. Returns the write's number.
    pub fn keep_infos(&self, room: RoomId, infos: Vec<skirmish_protocol::MoveInfo>) -> u64 {
        self.send(JournalWrite::Infos { room, infos })
    }

    fn send(&self, write: JournalWrite) -> u64 {
        let mut queue = self.queue.lock().expect("not poisoned");
        let n = queue.next;
        queue.next += 1;
        // The writer only stops once every journal is dropped.
        let _ = queue.tx.send(Write::Store(n, write));
        n
    }

    /// Waits until everything handed over before this call is written.
    pub async fn flush(&self) {
        let (done, written) = oneshot::channel();
        let sent = self
            .queue
            .lock()
            .expect("not poisoned")
            .tx
            .send(Write::Flush(done));
        if sent.is_ok() {
            let _ = written.await;
        }
    }

    /// `false` while storage is failing: the last try to write the journal (or to check the
    /// database file) failed, and it is being tried again.
    pub fn available(&self) -> bool {
        !self.health.failing.load(Ordering::Acquire)
    }

    /// Failed tries to write the journal or to check the database file, and database files
    /// found deleted (and made again), since the start.
    pub fn failures(&self) -> u64 {
        self.health.failures.load(Ordering::Relaxed) + self.store.recreated()
    }

    /// What failed last (empty if nothing has).
    pub fn last_failure(&self) -> String {
        self.health.cause.lock().expect("not poisoned").clone()
    }
}

/// Where the writer says what is on disk.
struct Committed {
    /// The number of the last write on disk.
    number: watch::Sender<u64>,
    /// Who waits for which write.
    waiters: Waiters,
}

impl Committed {
    /// Everything up to write `last` is on disk: publishes the number, then wakes those waiting
    /// for a write up to it, outside the waiters' lock.
    fn reached(&self, last: u64) {
        self.number.send_replace(last);
        let woken = {
            let mut waiters = self.waiters.lock().expect("not poisoned");
            let later = waiters.split_off(&(last + 1));
            std::mem::replace(&mut *waiters, later)
        };
        for waiter in woken.into_values().flatten() {
            let _ = waiter.send(());
        }
    }
}

/// The writer task: writes each batch until it is on disk, then says so ([`Committed`]); checks
/// the database file while idle.
async fn write_all(
    store: Store,
    mut rx: mpsc::UnboundedReceiver<Write>,
    committed: Committed,
    health: Arc<Health>,
) {
    let mut queued = Vec::new();
    let mut check = tokio::time::interval(FILE_CHECK_EVERY);
    check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            received = rx.recv_many(&mut queued, BATCH) => if received == 0 { break },
            _ = check.tick() => {
                match store.check_file().await {
                    Ok(()) => health.succeeded(),
                    Err(err) => {
                        error!(cause = %err, "storage is not usable (the database file, or PostgreSQL)");
                        health.failed(err.to_string());
                    }
                }
                continue;
            }
        }
        let mut writes = Vec::with_capacity(queued.len());
        let mut flushed = Vec::new();
        let mut last = None;
        for write in queued.drain(..) {
            match write {
                Write::Store(n, write) => {
                    last = Some(n);
                    writes.push(write);
                }
                Write::Flush(done) => flushed.push(done),
            }
        }
        if let Some(last) = last {
            #[cfg(feature = "testing")]
            crate::testing::journal_fault();
            let writes = Arc::new(writes);
            let mut wait = RETRY_FIRST;
            loop {
                match store.write_journal(writes.clone()).await {
                    Ok(()) => break,
                    Err(err) => {
                        error!(cause = %err, writes = writes.len(), retry_ms = wait.as_millis(), "the room journal could not be written; trying again");
                        health.failed(err.to_string());
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(RETRY_MAX);
                    }
                }
            }
            health.succeeded();
            // Wakes the rooms that wait for a write of this batch; none is waited for here.
            committed.reached(last);
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Engine;

    /// Lets the writer run as far as it can without anything else happening.
    async fn settle() {
        for _ in 0..16 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn the_committed_number_moves_only_once_the_batch_is_on_disk() {
        let store = Store::in_memory().await.unwrap();
        let journal = Journal::start(store.clone());
        let mut committed = journal.committed();
        assert_eq!(*committed.borrow_and_update(), 0, "nothing written yet");
        // Another holder of the database's connection keeps the writer from committing.
        let Engine::Sqlite(db) = store.engine() else {
            unreachable!("an in-memory store is SQLite")
        };
        let held = Arc::clone(db).lock_owned().await;
        let first = journal.close(RoomId::random());
        let second = journal.close(RoomId::random());
        assert!(first < second, "numbers follow the order of the writes");
        settle().await;
        assert!(!committed.has_changed().unwrap(), "not committed: not said");
        assert_eq!(*committed.borrow(), 0);
        drop(held);
        let on_disk = committed.wait_for(|c| *c >= second).await.map(|c| *c);
        assert_eq!(
            on_disk.unwrap(),
            second,
            "both in one batch, or the second after the first"
        );
        // A flush answers after the number moved.
        let third = journal.close(RoomId::random());
        journal.flush().await;
        assert_eq!(*committed.borrow(), third);
    }

    #[tokio::test]
    async fn a_wait_for_a_write_is_woken_by_that_writes_commit_and_no_earlier_one() {
        let journal = Journal::start(Store::in_memory().await.unwrap());
        let first = journal.close(RoomId::random());
        journal.flush().await;
        assert!(
            journal.when_on_disk(first).is_none(),
            "on disk already: nothing to wait for"
        );
        let mut later = journal.when_on_disk(first + 2).expect("not written yet");
        journal.close(RoomId::random());
        journal.flush().await;
        assert!(
            later.try_recv().is_err(),
            "woken by a commit that is not its write's"
        );
        journal.close(RoomId::random());
        journal.flush().await;
        assert!(later.try_recv().is_ok(), "its write is on disk");
    }
}
