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
//! gets a number; [`Journal::after_commit`] runs what waits for a number once it is on disk, and rooms
//! hold every message a write caused until then, so that **every event a player has been sent is
//! on disk** (docs/reliability.md, "What a player can count on").
//!
//! A batch that fails is never dropped: it is retried, first after [`RETRY_FIRST`], then twice as
//! long each time up to [`RETRY_MAX`] between tries, for as long as it fails. Meanwhile storage is
//! *unavailable* ([`Journal::available`]): rooms refuse what would write to the log
//! (`storage_unavailable`), `/healthz` answers 503, and `/metrics` counts each failed try. The
//! writer also checks every [`FILE_CHECK_EVERY`] that the database file is still the one opened
//! ([`Store::check_file`]). Once a write goes through, storage is available again and play goes
//! on by itself.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use skirmish_protocol::RoomId;
use tokio::sync::{mpsc, oneshot};
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

/// What waits for a write to be on disk: the write's number, and what to do then.
type AfterCommit = (u64, Box<dyn FnOnce() + Send>);

/// The number of the last write on disk, and what waits for later ones
/// ([`Journal::after_commit`]), under one lock: the writer runs what its commit let through and
/// moves `committed` on together, so nothing filed later under an already committed number runs
/// before what was filed earlier under it.
#[derive(Default)]
struct Waiting {
    committed: u64,
    then: Vec<AfterCommit>,
}

impl std::fmt::Debug for Waiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} committed, {} waiting", self.committed, self.then.len())
    }
}

/// Where rooms write their logs. Cheap to clone; the writer task ends when every clone is
/// dropped, after writing everything queued.
#[derive(Debug, Clone)]
pub struct Journal {
    queue: Arc<Mutex<Queue>>,
    waiting: Arc<Mutex<Waiting>>,
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
    /// commits that will never come. The server must then be restarted.
    pub fn start(store: Store) -> Journal {
        let (tx, rx) = mpsc::unbounded_channel::<Write>();
        let health = Arc::new(Health::default());
        let waiting = Arc::new(Mutex::new(Waiting::default()));
        let writer = tokio::spawn(write_all(store.clone(), rx, waiting.clone(), health.clone()));
        let watched = health.clone();
        tokio::spawn(async move {
            if let Err(err) = writer.await
                && err.is_panic()
            {
                error!(cause = %err, "the journal's writer panicked: storage is unavailable until the server restarts");
                watched.failed(format!(
                    "the journal's writer stopped ({err}); restart the server"
                ));
            }
        });
        Journal {
            queue: Arc::new(Mutex::new(Queue { next: 1, tx })),
            waiting,
            health,
            store,
        }
    }

    /// Runs `then` once write number `written` ([`Journal::append`] and the others) is on
    /// disk: at once if it is, else on the writer's task right after the commit. What is filed
    /// under one number runs in the order filed,
    /// and after everything filed earlier under a smaller one: a room's held messages go out in
    /// the order it said them, without a wake of the room (docs/performance.md, "What the design choices are worth").
    /// `then` must not wait and must not call back into the journal's waiting list.
    pub fn after_commit(&self, written: u64, then: Box<dyn FnOnce() + Send>) {
        let mut waiting = self.waiting.lock().expect("not poisoned");
        if written <= waiting.committed {
            then();
        } else {
            waiting.then.push((written, then));
        }
    }

    /// Records a new room (its log empty), made at `created_ms` (milliseconds since the Unix
    /// epoch). Returns the write's number ([`Journal::after_commit`]).
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

/// Everything up to write `last` is on disk: runs what waited for it, in the order filed, and
/// moves `committed` on, under the waiting list's lock.
fn release(waiting: &Mutex<Waiting>, last: u64) {
    let mut waiting = waiting.lock().expect("not poisoned");
    waiting.committed = last;
    for (_, then) in waiting.then.extract_if(.., |(written, _)| *written <= last) {
        then();
    }
}

/// The writer task: writes each batch until it is on disk, then lets out what waited for it
/// ([`release`]); checks
/// the database file while idle.
async fn write_all(
    store: Store,
    mut rx: mpsc::UnboundedReceiver<Write>,
    waiting: Arc<Mutex<Waiting>>,
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
            release(&waiting, last);
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What ran, in order.
    type Ran = Arc<Mutex<Vec<u32>>>;

    /// A list of what ran, and a maker of closures that add their tag to it.
    fn recorder() -> (Ran, impl Fn(u32) -> Box<dyn FnOnce() + Send>) {
        let ran = Arc::new(Mutex::new(Vec::new()));
        let to = ran.clone();
        let make = move |tag: u32| -> Box<dyn FnOnce() + Send> {
            let to = to.clone();
            Box::new(move || to.lock().unwrap().push(tag))
        };
        (ran, make)
    }

    #[tokio::test]
    async fn what_waits_for_a_write_runs_after_its_commit_in_the_order_filed() {
        let journal = Journal::start(Store::in_memory().await.unwrap());
        let (ran, then) = recorder();
        // Nothing written yet: number 0 is on disk, so it runs at once.
        journal.after_commit(0, then(0));
        assert_eq!(*ran.lock().unwrap(), [0]);
        let first = journal.close(RoomId::random());
        let second = journal.close(RoomId::random());
        journal.after_commit(second, then(2));
        journal.after_commit(first, then(1));
        journal.after_commit(second, then(3));
        journal.flush().await;
        // Each ran once its write was on disk; under one number, in the order filed.
        let ran_now = ran.lock().unwrap().clone();
        assert_eq!(ran_now.len(), 4, "{ran_now:?}");
        let at = |tag| ran_now.iter().position(|&t| t == tag).unwrap();
        assert!(at(2) < at(3), "{ran_now:?}");
        // Filed after the commit under a committed number: at once, after everything before it.
        journal.after_commit(first, then(4));
        assert_eq!(ran.lock().unwrap().last(), Some(&4));
    }
}
