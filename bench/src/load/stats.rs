//! What a load run counts: moves, frames, bytes, errors and round-trip latencies, shared by every
//! room task of the run; and the CPU time and memory of a process, read from `/proc/<pid>`.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde::Serialize;

/// Histogram shards: room tasks record into shard `room % SHARDS`, so that tasks on different
/// worker threads rarely wait for one another (16: a few times the worker threads of a small machine).
const SHARDS: usize = 16;

/// The largest latency a histogram holds, in microseconds (60 s); longer ones are clamped to it.
const MAX_LATENCY_US: u64 = 60_000_000;

/// Counters and latency histograms of one run (the game's or the echo's), written by every room
/// task. Only what happens inside the measurement window is counted (see [`Recorder::open`]).
#[derive(Debug)]
pub struct Recorder {
    /// Round-trip latencies, in microseconds, 3 significant figures. A std `Mutex` per shard:
    /// held only to add one value, never across an `.await`.
    shards: Vec<Mutex<Histogram<u64>>>,
    /// Where the window's bounds count from.
    base: Instant,
    /// The window, in nanoseconds since `base`: `[from, to)`; empty until [`Recorder::open`].
    from_ns: AtomicU64,
    to_ns: AtomicU64,
    moves: AtomicU64,
    frames_sent: AtomicU64,
    frames_received: AtomicU64,
    bytes_sent: AtomicU64,
    bytes_received: AtomicU64,
    matches: AtomicU64,
    open: AtomicI64,
    peak_open: AtomicI64,
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder {
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(
                        Histogram::new_with_bounds(1, MAX_LATENCY_US, 3).expect("valid histogram bounds"),
                    )
                })
                .collect(),
            base: Instant::now(),
            from_ns: AtomicU64::new(u64::MAX),
            to_ns: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            frames_sent: AtomicU64::new(0),
            frames_received: AtomicU64::new(0),
            bytes_sent: AtomicU64::new(0),
            bytes_received: AtomicU64::new(0),
            matches: AtomicU64::new(0),
            open: AtomicI64::new(0),
            peak_open: AtomicI64::new(0),
            errors: Mutex::new(BTreeMap::new()),
        }
    }
}

impl Recorder {
    /// Starts counting now, for `length`; events outside `[now, now + length)` are not counted
    /// (errors and open connections always are).
    pub fn open(&self, length: Duration) {
        let from = self.nanos(Instant::now());
        let length = u64::try_from(length.as_nanos()).unwrap_or(u64::MAX);
        self.to_ns.store(from.saturating_add(length), Ordering::Relaxed);
        self.from_ns.store(from, Ordering::Relaxed);
    }

    /// Stops counting now (if the window has not ended already).
    pub fn close(&self) {
        self.to_ns
            .fetch_min(self.nanos(Instant::now()), Ordering::Relaxed);
    }

    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.base).as_nanos()).unwrap_or(u64::MAX)
    }

    /// Whether `at` falls inside the measurement window.
    fn inside(&self, at: Instant) -> bool {
        let at = self.nanos(at);
        at >= self.from_ns.load(Ordering::Relaxed) && at < self.to_ns.load(Ordering::Relaxed)
    }

    /// A frame of `bytes` bytes was sent at `at`.
    pub fn sent(&self, at: Instant, bytes: usize) {
        if self.inside(at) {
            self.frames_sent.fetch_add(1, Ordering::Relaxed);
            self.bytes_sent.fetch_add(bytes as u64, Ordering::Relaxed);
        }
    }

    /// A frame of `bytes` bytes was received at `at`.
    pub fn received(&self, at: Instant, bytes: usize) {
        if self.inside(at) {
            self.frames_received.fetch_add(1, Ordering::Relaxed);
            self.bytes_received.fetch_add(bytes as u64, Ordering::Relaxed);
        }
    }

    /// A move (or an echo) sent at `sent` came back at `at`; `shard` spreads the histogram's lock.
    pub fn round_trip(&self, shard: usize, sent: Instant, at: Instant) {
        if !self.inside(at) {
            return;
        }
        self.moves.fetch_add(1, Ordering::Relaxed);
        let us = u64::try_from(at.duration_since(sent).as_micros()).unwrap_or(u64::MAX);
        self.shards[shard % SHARDS]
            .lock()
            .expect("not poisoned")
            .saturating_record(us.clamp(1, MAX_LATENCY_US));
    }

    /// A match ended at `at`.
    pub fn match_ended(&self, at: Instant) {
        if self.inside(at) {
            self.matches.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// An error of kind `what` (a server error code, `connect`, `closed`, `stall`, ...).
    pub fn error(&self, what: &str) {
        *self
            .errors
            .lock()
            .expect("not poisoned")
            .entry(what.to_owned())
            .or_default() += 1;
    }

    /// A connection opened (`+1`) or closed (`-1`).
    pub fn connection(&self, delta: i64) {
        let now = self.open.fetch_add(delta, Ordering::Relaxed) + delta;
        self.peak_open.fetch_max(now, Ordering::Relaxed);
    }

    /// Connections open now.
    pub fn open_connections(&self) -> u64 {
        u64::try_from(self.open.load(Ordering::Relaxed)).unwrap_or(0)
    }

    /// The figures of the window, which lasted `seconds`.
    pub fn summary(&self, seconds: f64, connections_held: u64) -> RunFigures {
        let mut all =
            Histogram::<u64>::new_with_bounds(1, MAX_LATENCY_US, 3).expect("valid histogram bounds");
        for shard in &self.shards {
            all.add(&*shard.lock().expect("not poisoned"))
                .expect("same bounds");
        }
        let ms = |q: f64| all.value_at_quantile(q) as f64 / 1000.0;
        let moves = self.moves.load(Ordering::Relaxed);
        let frames_sent = self.frames_sent.load(Ordering::Relaxed);
        let frames_received = self.frames_received.load(Ordering::Relaxed);
        let bytes = self.bytes_sent.load(Ordering::Relaxed) + self.bytes_received.load(Ordering::Relaxed);
        let frames = frames_sent + frames_received;
        let errors = self.errors.lock().expect("not poisoned").clone();
        RunFigures {
            seconds,
            connections_held,
            peak_connections: u64::try_from(self.peak_open.load(Ordering::Relaxed)).unwrap_or(0),
            round_trips: moves,
            round_trips_per_second: moves as f64 / seconds,
            messages_per_second: frames as f64 / seconds,
            frames_sent,
            frames_received,
            mean_frame_bytes: if frames == 0 {
                0.0
            } else {
                bytes as f64 / frames as f64
            },
            matches_finished: self.matches.load(Ordering::Relaxed),
            latency_ms: Latency {
                p50: ms(0.50),
                p90: ms(0.90),
                p99: ms(0.99),
                p999: ms(0.999),
                max: all.max() as f64 / 1000.0,
                count: all.len(),
            },
            errors: errors.values().sum(),
            error_kinds: errors,
            server: None,
            client: None,
            watched: Vec::new(),
        }
    }
}

/// Round-trip latencies, in milliseconds, from the HDR histogram (3 significant figures).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Latency {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Largest.
    pub max: f64,
    /// Round trips recorded.
    pub count: u64,
}

/// The figures of one measured run (the game's or the echo's).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunFigures {
    /// The measurement window's length, in seconds.
    pub seconds: f64,
    /// WebSocket connections open at the end of the window.
    pub connections_held: u64,
    /// The most connections open at once.
    pub peak_connections: u64,
    /// Moves that came back (game), or frames echoed (echo), in the window.
    pub round_trips: u64,
    /// `round_trips` per second: moves per second for the game.
    pub round_trips_per_second: f64,
    /// Frames per second, both directions (client to server and back).
    pub messages_per_second: f64,
    /// Frames the clients sent in the window.
    pub frames_sent: u64,
    /// Frames the clients received in the window.
    pub frames_received: u64,
    /// Mean size of a frame, both directions, in bytes.
    pub mean_frame_bytes: f64,
    /// Matches that ended in the window (0 for the echo).
    pub matches_finished: u64,
    /// Round-trip latency: from sending an `act` to receiving the `event` that applies it (game),
    /// or from sending a frame to receiving it back (echo).
    pub latency_ms: Latency,
    /// Errors over the whole run (not only the window).
    pub errors: u64,
    /// Errors by kind: a server error code, or `connect`, `closed`, `stall`, `protocol`.
    pub error_kinds: BTreeMap<String, u64>,
    /// The server's (or echo server's) CPU and memory, when its pid is known.
    pub server: Option<ProcFigures>,
    /// The load generator's own CPU and memory.
    pub client: Option<ProcFigures>,
    /// The CPU and memory of each group of processes given with `--watch` (a cluster's nodes,
    /// its bus, its database), over the window; the game phase only.
    pub watched: Vec<GroupFigures>,
}

/// A process's CPU time over the window and its memory at the end.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct ProcFigures {
    /// The process id.
    pub pid: i32,
    /// User plus system CPU time spent in the window, in seconds.
    pub cpu_seconds: f64,
    /// `cpu_seconds` over the window's length: 1.0 is one core kept busy.
    pub cores_busy: f64,
    /// Resident memory at the end, in KiB (`VmRSS`).
    pub rss_kib: u64,
    /// Peak resident memory so far, in KiB (`VmHWM`).
    pub peak_rss_kib: u64,
}

/// A reading of one process: CPU seconds so far and resident memory.
#[derive(Clone, Copy, Debug)]
pub struct ProcReading {
    pid: i32,
    cpu_seconds: f64,
    rss_kib: u64,
    peak_rss_kib: u64,
}

impl ProcReading {
    /// Reads `/proc/<pid>/stat` (user and system CPU time, in clock ticks) and
    /// `/proc/<pid>/status` (`VmRSS`, `VmHWM`, in KiB).
    ///
    /// # Errors
    /// The process is gone or `/proc` cannot be read.
    pub fn take(pid: i32) -> Result<ProcReading, procfs::ProcError> {
        let process = procfs::process::Process::new(pid)?;
        let stat = process.stat()?;
        let status = process.status()?;
        let ticks = procfs::ticks_per_second() as f64;
        Ok(ProcReading {
            pid,
            cpu_seconds: (stat.utime + stat.stime) as f64 / ticks,
            rss_kib: status.vmrss.unwrap_or(0),
            peak_rss_kib: status.vmhwm.unwrap_or(0),
        })
    }

    /// Resident memory at this reading, in KiB.
    pub fn rss_kib(&self) -> u64 {
        self.rss_kib
    }

    /// CPU seconds (user plus system) used by the process up to this reading.
    pub fn cpu_seconds(&self) -> f64 {
        self.cpu_seconds
    }

    /// The figures between `self` (the start) and `end`, over `seconds` of wall time.
    pub fn until(&self, end: &ProcReading, seconds: f64) -> ProcFigures {
        let cpu = end.cpu_seconds - self.cpu_seconds;
        ProcFigures {
            pid: self.pid,
            cpu_seconds: cpu,
            cores_busy: cpu / seconds,
            rss_kib: end.rss_kib,
            peak_rss_kib: end.peak_rss_kib,
        }
    }
}

/// A named group of processes whose CPU time a run reads over its window, from `--watch
/// NAME=PID[+PID...]`: a cluster's nodes, its bus (nats-server), its database (the postmaster and
/// its backends, each a process of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    /// What the group is, as the report names it.
    pub name: String,
    /// Its processes.
    pub pids: Vec<i32>,
}

impl std::str::FromStr for Watch {
    type Err = String;

    /// Reads `NAME=PID[+PID...]`, e.g. `node1=4242` or `postgres=100+101+102`.
    fn from_str(text: &str) -> Result<Watch, String> {
        let (name, pids) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}` is not NAME=PID[+PID...]"))?;
        if name.is_empty() {
            return Err(format!("`{text}` has no name before `=`"));
        }
        let pids = pids
            .split('+')
            .map(|pid| {
                pid.trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|p| *p > 0)
                    .ok_or_else(|| format!("`{pid}` is not a process id"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Watch {
            name: name.to_owned(),
            pids,
        })
    }
}

/// One reading of a [`Watch`]: each of its processes that could be read.
#[derive(Clone, Debug)]
pub struct GroupReading {
    readings: BTreeMap<i32, ProcReading>,
}

impl GroupReading {
    /// Reads every process of `watch`; one that is gone is left out (a database backend may end).
    ///
    /// # Errors
    /// None of the group's processes can be read.
    pub fn take(watch: &Watch) -> anyhow::Result<GroupReading> {
        let readings: BTreeMap<i32, ProcReading> = watch
            .pids
            .iter()
            .filter_map(|&pid| ProcReading::take(pid).ok().map(|r| (pid, r)))
            .collect();
        if readings.is_empty() {
            anyhow::bail!(
                "--watch {}: none of the processes {:?} can be read",
                watch.name,
                watch.pids
            );
        }
        Ok(GroupReading { readings })
    }

    /// The group's figures from `self` (the start) to `end`, over `seconds` of wall time: CPU
    /// summed over the processes read at both ends, resident memory summed at the end.
    pub fn until(&self, end: &GroupReading, name: &str, seconds: f64) -> GroupFigures {
        let both = || {
            self.readings
                .iter()
                .filter_map(|(pid, from)| end.readings.get(pid).map(|to| (from, to)))
        };
        let cpu: f64 = both().map(|(from, to)| to.cpu_seconds - from.cpu_seconds).sum();
        GroupFigures {
            name: name.to_owned(),
            pids: both().map(|(from, _)| from.pid).collect(),
            cpu_seconds: cpu,
            cores_busy: cpu / seconds,
            rss_kib: both().map(|(_, to)| to.rss_kib).sum(),
        }
    }
}

/// A watched group's CPU time over the window and its memory at the end.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GroupFigures {
    /// The group's name from `--watch`.
    pub name: String,
    /// The processes read at both ends of the window.
    pub pids: Vec<i32>,
    /// User plus system CPU time of those processes in the window, in seconds.
    pub cpu_seconds: f64,
    /// `cpu_seconds` over the window's length: 1.0 is one core kept busy.
    pub cores_busy: f64,
    /// Their resident memory at the end, summed, in KiB.
    pub rss_kib: u64,
}
