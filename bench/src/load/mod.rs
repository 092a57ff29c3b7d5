//! `skirmish-bench load`: a load generator that measures a Skirmish server against the raw limit of
//! its own transport, on the same machine, in the same run.
//!
//! Two phases, one after the other:
//! 1. **game**: R rooms of one game, each with its own connections (one per seat, as people, not
//!    bots) that play uniformly random legal moves the moment the server sends `your_turn`, with
//!    no think time; a room whose match ends opens a new one, so the load stays steady. A move's
//!    round trip runs from sending its `act` to receiving the `event` that applies it.
//! 2. **echo**: the same number of rooms and connections against a minimal WebSocket echo server
//!    ([`echo`]), with one round trip in flight per room and frames of the game phase's mean size.
//!
//! Each phase connects every socket first, then starts every room at once, waits a warm-up and
//! measures for a set time ([`stats::Recorder`]). The report gives moves (round trips) per second,
//! frames per second, latency percentiles from an HDR histogram, connections held, errors, and
//! the server's CPU seconds and resident memory from `/proc/<pid>` ([`stats::ProcReading`]); and
//! each game figure as a ratio to the echo's.

pub mod echo;
mod game;
pub mod stats;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use comfy_table::Table;
use serde::Serialize;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use stats::{GroupReading, ProcReading, Recorder, RunFigures, Watch};

/// WebSocket handshakes in flight at once while connecting (256: well under the listen backlog
/// of 1024 that tokio's `TcpListener::bind` asks for, so no SYN is dropped and retried a second later).
pub const CONNECTING: usize = 256;

/// The read buffer of every WebSocket the load opens, in bytes (4 KiB: the server's frames to
/// players are up to a few kilobytes): tungstenite's default of 128 KiB per connection would cost
/// 2.5 GiB for 20,000 connections.
pub const READ_BUFFER_BYTES: usize = 4 * 1024;

/// The echo server's read buffer, in bytes: 1 KiB, as Skirmish's server
/// (`skirmish_server::session::READ_BUFFER_BYTES`), so that the two hold their connections alike.
pub const ECHO_READ_BUFFER_BYTES: usize = 1024;

/// The game a load run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadGame {
    /// Plane battle, 2 players, the default `double` 9x9 variant and match format.
    Plane2,
    /// Plane battle, 3 players.
    Plane3,
    /// Gomoku, 15x15 freestyle.
    Gomoku,
    /// Junqi, the CAAI rules' defaults.
    Junqi,
}

impl LoadGame {
    /// Seats at the table: connections per room.
    pub fn seats(self) -> usize {
        match self {
            LoadGame::Plane3 => 3,
            LoadGame::Plane2 | LoadGame::Gomoku | LoadGame::Junqi => 2,
        }
    }
}

/// How the seats of the rooms are spread over several `--url`s ([`seat_url`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Spread {
    /// Seat `s` of room `i` on URL `(i + s) mod n`: a room's players on different nodes.
    Seats,
    /// Every seat of room `i` on URL `i mod n`: each room's players on one node.
    Rooms,
}

/// Which phases a load run has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// The game, then the echo.
    Both,
    /// The game only.
    Game,
    /// The echo only.
    Echo,
}

/// The options of `skirmish-bench load`.
#[derive(Clone, Debug, clap::Args)]
pub struct LoadArgs {
    /// The Skirmish server's WebSocket URL, or several comma-separated: the nodes of one cluster
    /// (docs/cluster.md), where the seat `s` of room number `i` connects to URL number
    /// `(i + s) mod n` ([`seat_url`]), so that with as many URLs as seats every room's players sit
    /// on different nodes. Start the server with raised limits (docs/performance.md): `--bots 0
    /// --messages-per-second 1000000 --message-burst 1000000 --connections-per-address 100000`.
    #[arg(
        long = "url",
        value_name = "URL[,URL...]",
        value_delimiter = ',',
        default_value = "ws://127.0.0.1:8080/ws"
    )]
    pub urls: Vec<String>,
    /// The game every room plays.
    #[arg(long, value_enum, default_value_t = LoadGame::Plane2)]
    pub game: LoadGame,
    /// Rooms played at once (connections: rooms times seats).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub rooms: u64,
    /// Seconds measured, after the warm-up.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Seconds played before measuring.
    #[arg(long, default_value_t = 2.0)]
    pub warmup_seconds: f64,
    /// End the game phase once this many matches have ended, measuring from the moment the rooms
    /// are created (no warm-up); `--seconds` is then the longest it may take.
    #[arg(long)]
    pub matches: Option<u64>,
    /// The server's process id, to read its CPU time and memory from /proc.
    #[arg(long)]
    pub server_pid: Option<i32>,
    /// With several `--url`s: `seats` puts the seats of room `i` on URLs `i`, `i + 1`, ... (a
    /// room's players on different nodes); `rooms` puts every seat of room `i` on URL `i` (rooms
    /// spread over the nodes, each room's players together on its node: the control that differs
    /// from `seats` only by the bus hop).
    #[arg(long, value_enum, default_value_t = Spread::Seats)]
    pub spread: Spread,
    /// More processes whose CPU time and memory the game phase reads over its window, each
    /// group as `NAME=PID[+PID...]`, comma-separated: a cluster's nodes, its bus and its database
    /// (scripts/cluster-bench.sh), e.g. `--watch node1=41,node2=42,postgres=50+51+52`.
    #[arg(long, value_name = "NAME=PID[+PID...]", value_delimiter = ',')]
    pub watch: Vec<Watch>,
    /// Which phases to run.
    #[arg(long, value_enum, default_value_t = Mode::Both)]
    pub mode: Mode,
    /// An echo server's WebSocket URL; by default `load` starts one in a child process.
    #[arg(long)]
    pub echo_url: Option<String>,
    /// The process id of the echo server at `--echo-url`.
    #[arg(long)]
    pub echo_pid: Option<i32>,
    /// The echo phase's frame size, in bytes; by default the game phase's mean frame size (both
    /// directions), or 200 without a game phase.
    #[arg(long)]
    pub echo_frame_bytes: Option<usize>,
    /// Measure idle memory instead of playing: connect every socket (RSS read), then seat every
    /// room and start its match without moving (RSS read again), and hold them for `--seconds`.
    #[arg(long)]
    pub idle: bool,
    /// Milliseconds each player (or echo connection) waits before each move (or frame): 0 plays
    /// flat out, so that latency is bound by throughput (Little's law: rooms over moves per
    /// second); a pause models people, and shows latency at a load the server can carry.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Milliseconds a room may hear nothing before it counts a `stall` error and starts over.
    #[arg(long, default_value_t = 10_000)]
    pub stall_ms: u64,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The URL that seat `seat` of room number `room` connects to: with [`Spread::Seats`],
/// `urls[(room + seat) % urls.len()]`: seat 0 (the room's creator) of consecutive rooms goes round
/// the URLs, so rooms are created on every node in turn, and a room's seats go round from there,
/// so a room has players on `min(seats, urls.len())` different nodes; with [`Spread::Rooms`],
/// `urls[room % urls.len()]` for every seat. One URL: every seat connects to it.
///
/// # Panics
/// `urls` is empty (clap gives `--url` a default; [`run`] refuses an empty list).
pub fn seat_url(urls: &[String], spread: Spread, room: usize, seat: usize) -> &str {
    match spread {
        Spread::Seats => &urls[(room + seat) % urls.len()],
        Spread::Rooms => &urls[room % urls.len()],
    }
}

/// What every room task of one phase shares.
#[derive(Debug)]
struct Shared {
    recorder: Recorder,
    connecting: Semaphore,
    /// Rooms done connecting (all their sockets open, or given up).
    settled: AtomicUsize,
    /// Rooms whose match has started (the first `your_turn`) or whose echo has begun.
    started: AtomicUsize,
    /// Matches ended since the rooms started, inside the window or not.
    finished: AtomicU64,
    go: CancellationToken,
    stop: CancellationToken,
    stall: Duration,
    think: Duration,
}

/// The whole report of a load run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The game played.
    pub game: LoadGame,
    /// Rooms at once.
    pub rooms: u64,
    /// Connections asked for: rooms times seats.
    pub connections: u64,
    /// The machine's load average (1, 5, 15 minutes) when the run began.
    pub load_average: [f32; 3],
    /// CPU cores the machine has.
    pub cores: usize,
    /// The game phase.
    pub game_run: Option<RunFigures>,
    /// The echo phase.
    pub echo_run: Option<RunFigures>,
    /// The game's figures over the echo's, when both ran.
    pub ratios: Option<Ratios>,
    /// Idle memory (with `--idle` and a server pid).
    pub memory: Option<Memory>,
}

/// The game's figures over the echo's, measured one after the other in the same run.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Ratios {
    /// Median round trip: game over echo (lower is better; the target is at most 1.3).
    pub latency_p50: f64,
    /// 99th percentile round trip: game over echo.
    pub latency_p99: f64,
    /// Frames per second, both directions: game over echo (the target is at least 0.5).
    pub messages_per_second: f64,
    /// Moves per second over echoed frames per second.
    pub round_trips_per_second: f64,
}

/// The server's resident memory idle, with `--idle`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Memory {
    /// Before any load connection, in KiB.
    pub baseline_rss_kib: u64,
    /// With every connection open and greeted, in KiB.
    pub connected_rss_kib: u64,
    /// With every room seated and its match started, in KiB.
    pub rooms_rss_kib: u64,
    /// Connections open.
    pub connections: u64,
    /// Rooms started.
    pub rooms: u64,
    /// (connected - baseline) / connections, in KiB.
    pub per_connection_kib: f64,
    /// (rooms - connected) / rooms, in KiB.
    pub per_room_kib: f64,
    /// (rooms - baseline) / rooms, in KiB: a room with its connections. The steadiest of the
    /// three: which of the two phases holds the connections' transient memory (freed, but not
    /// yet given back by the allocator when the first reading is taken) moves from run to run
    /// (docs/performance.md, "Idle memory"), and it counts here either way.
    pub per_seated_room_kib: f64,
}

/// Where the echo phase connects: a URL and, when known, the echo server's pid.
#[derive(Clone, Debug)]
pub struct EchoTarget {
    /// `ws://host:port/ws`.
    pub url: String,
    /// The echo server's process id.
    pub pid: Option<i32>,
}

/// Runs the phases `args` asks for and returns the report.
///
/// # Errors
/// `/proc/<pid>` cannot be read for a given pid, or the echo phase has no target.
pub async fn run(args: &LoadArgs, echo: Option<EchoTarget>) -> anyhow::Result<Report> {
    let load = <procfs::LoadAverage as procfs::Current>::current()?;
    let mut report = Report {
        game: args.game,
        rooms: args.rooms,
        connections: args.rooms * args.game.seats() as u64,
        load_average: [load.one, load.five, load.fifteen],
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        game_run: None,
        echo_run: None,
        ratios: None,
        memory: None,
    };
    if args.urls.is_empty() || args.urls.iter().any(|url| url.trim().is_empty()) {
        anyhow::bail!("--url: an empty URL in {:?}", args.urls.join(","));
    }
    if args.mode != Mode::Echo {
        let (figures, memory) = phase(args, None, &args.urls, args.server_pid).await?;
        report.game_run = Some(figures);
        report.memory = memory;
    }
    if args.mode != Mode::Game && !args.idle {
        let echo = echo.ok_or_else(|| anyhow::anyhow!("the echo phase needs an echo server"))?;
        let frame_bytes = args
            .echo_frame_bytes
            .or_else(|| {
                report
                    .game_run
                    .as_ref()
                    .map(|g| g.mean_frame_bytes.round() as usize)
            })
            .unwrap_or(200);
        let echo_urls = [echo.url];
        let (figures, _) = phase(args, Some(frame_bytes), &echo_urls, echo.pid).await?;
        report.echo_run = Some(figures);
    }
    if let (Some(game), Some(echo)) = (&report.game_run, &report.echo_run) {
        report.ratios = Some(Ratios {
            latency_p50: game.latency_ms.p50 / echo.latency_ms.p50,
            latency_p99: game.latency_ms.p99 / echo.latency_ms.p99,
            messages_per_second: game.messages_per_second / echo.messages_per_second,
            round_trips_per_second: game.round_trips_per_second / echo.round_trips_per_second,
        });
    }
    Ok(report)
}

/// Waits until `done()` or, when given, `limit` has passed, looking every 20 ms.
async fn wait_for(limit: Option<Duration>, done: impl Fn() -> bool) {
    let until = limit.map(|limit| Instant::now() + limit);
    while !done() && until.is_none_or(|until| Instant::now() < until) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One phase: the game's rooms (`echo_frame_bytes` is `None`) against `urls`, each seat to its
/// [`seat_url`], or the echo's against `urls[0]`.
async fn phase(
    args: &LoadArgs,
    echo_frame_bytes: Option<usize>,
    urls: &[String],
    pid: Option<i32>,
) -> anyhow::Result<(RunFigures, Option<Memory>)> {
    let shared = Arc::new(Shared {
        recorder: Recorder::default(),
        connecting: Semaphore::new(CONNECTING),
        settled: AtomicUsize::new(0),
        started: AtomicUsize::new(0),
        finished: AtomicU64::new(0),
        go: CancellationToken::new(),
        stop: CancellationToken::new(),
        stall: Duration::from_millis(args.stall_ms),
        think: Duration::from_millis(args.think_ms),
    });
    let rooms = usize::try_from(args.rooms)?;
    let read = |pid: Option<i32>| pid.map(ProcReading::take).transpose();
    let baseline = read(pid)?;
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..rooms {
        let shared = Arc::clone(&shared);
        let seats = args.game.seats();
        match echo_frame_bytes {
            None => {
                let urls = (0..seats)
                    .map(|seat| seat_url(urls, args.spread, index, seat).to_owned())
                    .collect();
                tasks.spawn(game::room(index, urls, args.game, args.idle, shared))
            }
            Some(bytes) => tasks.spawn(echo::room(index, urls[0].clone(), seats, bytes, shared)),
        };
    }
    wait_for(None, || shared.settled.load(Ordering::Relaxed) >= rooms).await;
    let settle = Duration::from_secs(1);
    let mut memory = None;
    let connected = if args.idle {
        tokio::time::sleep(settle).await;
        read(pid)?
    } else {
        None
    };
    let measure = Duration::from_secs_f64(args.seconds);
    let warmup = if args.matches.is_some() || args.idle {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(args.warmup_seconds)
    };
    let self_pid = i32::try_from(std::process::id())?;
    let watched: &[Watch] = if echo_frame_bytes.is_none() {
        &args.watch
    } else {
        &[]
    };
    let read_watched = || {
        watched
            .iter()
            .map(GroupReading::take)
            .collect::<anyhow::Result<Vec<_>>>()
    };
    let mut start = (Instant::now(), read(pid)?, read(Some(self_pid))?);
    let mut watched_start = read_watched()?;
    shared.go.cancel();
    if args.idle {
        wait_for(Some(Duration::from_secs(120)), || {
            shared.started.load(Ordering::Relaxed) >= rooms
        })
        .await;
        tokio::time::sleep(settle).await;
        let seated = read(pid)?;
        if let (Some(base), Some(conn), Some(seated)) = (baseline, connected, seated) {
            let connections = shared.recorder.open_connections();
            let started = shared.started.load(Ordering::Relaxed) as u64;
            let kib = |a: u64, b: u64, n: u64| (a as f64 - b as f64) / n.max(1) as f64;
            memory = Some(Memory {
                baseline_rss_kib: base.rss_kib(),
                connected_rss_kib: conn.rss_kib(),
                rooms_rss_kib: seated.rss_kib(),
                connections,
                rooms: started,
                per_connection_kib: kib(conn.rss_kib(), base.rss_kib(), connections),
                per_room_kib: kib(seated.rss_kib(), conn.rss_kib(), started),
                per_seated_room_kib: kib(seated.rss_kib(), base.rss_kib(), started),
            });
        }
    }
    tokio::time::sleep(warmup).await;
    if !warmup.is_zero() || args.idle {
        start = (Instant::now(), read(pid)?, read(Some(self_pid))?);
        watched_start = read_watched()?;
    }
    shared.recorder.open(measure);
    match args.matches {
        Some(matches) if echo_frame_bytes.is_none() => {
            wait_for(Some(measure), || {
                shared.finished.load(Ordering::Relaxed) >= matches
            })
            .await;
        }
        _ => tokio::time::sleep(measure).await,
    }
    let held = shared.recorder.open_connections();
    let end = (Instant::now(), read(pid)?, read(Some(self_pid))?);
    let watched_end = read_watched()?;
    shared.recorder.close();
    shared.stop.cancel();
    let seconds = end.0.duration_since(start.0).as_secs_f64();
    let joined = tokio::time::timeout(Duration::from_secs(60), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if joined.is_err() {
        tasks.abort_all();
    }
    let mut figures = shared.recorder.summary(seconds, held);
    if let (Some(from), Some(to)) = (start.1, end.1) {
        figures.server = Some(from.until(&to, seconds));
    }
    if let (Some(from), Some(to)) = (start.2, end.2) {
        figures.client = Some(from.until(&to, seconds));
    }
    figures.watched = watched
        .iter()
        .zip(watched_start.iter().zip(&watched_end))
        .map(|(watch, (from, to))| from.until(to, &watch.name, seconds))
        .collect();
    Ok((figures, memory))
}

/// The report as a table, for people.
pub fn table(report: &Report) -> String {
    let mut table = Table::new();
    table.load_style(comfy_table::presets::ASCII_MARKDOWN);
    table.set_header(["", "skirmish", "echo", "skirmish / echo"]);
    let game = report.game_run.as_ref();
    let echo = report.echo_run.as_ref();
    let num = |v: Option<f64>, digits: usize| v.map_or_else(String::new, |v| format!("{v:.digits$}"));
    let mut row = |name: &str, get: &dyn Fn(&RunFigures) -> Option<f64>, digits: usize, ratio: bool| {
        let (g, e) = (game.and_then(get), echo.and_then(get));
        let r = match (g, e) {
            (Some(g), Some(e)) if ratio && e != 0.0 => format!("{:.2}", g / e),
            _ => String::new(),
        };
        table.add_row([name.to_owned(), num(g, digits), num(e, digits), r]);
    };
    row("measured seconds", &|f| Some(f.seconds), 1, false);
    row("connections held", &|f| Some(f.connections_held as f64), 0, false);
    row(
        "moves (round trips) / s",
        &|f| Some(f.round_trips_per_second),
        0,
        true,
    );
    row(
        "messages / s (both ways)",
        &|f| Some(f.messages_per_second),
        0,
        true,
    );
    row("mean frame bytes", &|f| Some(f.mean_frame_bytes), 0, false);
    row("round trip p50 ms", &|f| Some(f.latency_ms.p50), 3, true);
    row("round trip p90 ms", &|f| Some(f.latency_ms.p90), 3, true);
    row("round trip p99 ms", &|f| Some(f.latency_ms.p99), 3, true);
    row("round trip p99.9 ms", &|f| Some(f.latency_ms.p999), 3, true);
    row("round trip max ms", &|f| Some(f.latency_ms.max), 3, false);
    row("matches finished", &|f| Some(f.matches_finished as f64), 0, false);
    row("errors", &|f| Some(f.errors as f64), 0, false);
    row("server CPU s", &|f| f.server.map(|s| s.cpu_seconds), 2, true);
    row("server cores busy", &|f| f.server.map(|s| s.cores_busy), 2, false);
    row(
        "server RSS MiB",
        &|f| f.server.map(|s| s.rss_kib as f64 / 1024.0),
        1,
        false,
    );
    row(
        "load generator cores busy",
        &|f| f.client.map(|s| s.cores_busy),
        2,
        false,
    );
    let mut out = format!(
        "{} rooms of {:?} ({} connections), {} cores, load average {:.2} {:.2} {:.2}\n{table}\n",
        report.rooms,
        report.game,
        report.connections,
        report.cores,
        report.load_average[0],
        report.load_average[1],
        report.load_average[2],
    );
    for (name, run) in [("skirmish", game), ("echo", echo)] {
        if let Some(run) = run.filter(|r| r.errors > 0) {
            out.push_str(&format!("{name} errors: {:?}\n", run.error_kinds));
        }
    }
    for group in game.map(|g| g.watched.as_slice()).unwrap_or_default() {
        out.push_str(&format!(
            "{}: {:.2} cores busy ({:.2} CPU s), {:.1} MiB resident\n",
            group.name,
            group.cores_busy,
            group.cpu_seconds,
            group.rss_kib as f64 / 1024.0
        ));
    }
    if let Some(m) = &report.memory {
        out.push_str(&format!(
            "idle memory: baseline {} KiB, {} connections {} KiB ({:.2} KiB each), {} rooms started {} KiB ({:.2} KiB each); a room with its connections {:.2} KiB\n",
            m.baseline_rss_kib,
            m.connections,
            m.connected_rss_kib,
            m.per_connection_kib,
            m.rooms,
            m.rooms_rss_kib,
            m.per_room_kib,
            m.per_seated_room_kib
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        load: LoadArgs,
    }

    fn urls(list: &str) -> Vec<String> {
        Cli::try_parse_from(["load", "--url", list]).unwrap().load.urls
    }

    #[test]
    fn one_url_takes_every_seat_of_every_room() {
        let urls = urls("ws://127.0.0.1:9000/ws");
        assert_eq!(urls, ["ws://127.0.0.1:9000/ws"]);
        for room in 0..10 {
            for seat in 0..3 {
                assert_eq!(
                    seat_url(&urls, Spread::Seats, room, seat),
                    "ws://127.0.0.1:9000/ws"
                );
            }
        }
        let default = Cli::try_parse_from(["load"]).unwrap().load.urls;
        assert_eq!(default, ["ws://127.0.0.1:8080/ws"]);
    }

    #[test]
    fn three_urls_put_each_rooms_seats_on_different_nodes_and_rotate_the_creator() {
        let urls = urls("ws://a/ws,ws://b/ws,ws://c/ws");
        assert_eq!(urls, ["ws://a/ws", "ws://b/ws", "ws://c/ws"]);
        let seated = |room, seats| {
            (0..seats)
                .map(|seat| seat_url(&urls, Spread::Seats, room, seat))
                .collect::<Vec<_>>()
        };
        assert_eq!(seated(0, 3), ["ws://a/ws", "ws://b/ws", "ws://c/ws"]);
        assert_eq!(seated(1, 3), ["ws://b/ws", "ws://c/ws", "ws://a/ws"]);
        assert_eq!(seated(2, 3), ["ws://c/ws", "ws://a/ws", "ws://b/ws"]);
        assert_eq!(seated(3, 3), seated(0, 3));
        // Two seats on three nodes: always two different nodes, and each node creates every
        // third room.
        for room in 0..30 {
            let [first, second] = seated(room, 2)[..] else {
                unreachable!()
            };
            assert_ne!(first, second);
            assert_eq!(first, urls[room % 3]);
        }
        // Every node holds the same number of connections over a whole number of rotations.
        let mut per_node = [0; 3];
        for room in 0..300 {
            for seat in 0..2 {
                per_node[urls
                    .iter()
                    .position(|u| u == seat_url(&urls, Spread::Seats, room, seat))
                    .unwrap()] += 1;
            }
        }
        assert_eq!(per_node, [200, 200, 200]);
    }

    #[test]
    fn watched_groups_are_name_equals_pids() {
        let cli = Cli::try_parse_from(["load", "--watch", "node1=41,postgres=50+51+52"]).unwrap();
        assert_eq!(
            cli.load.watch,
            [
                Watch {
                    name: "node1".into(),
                    pids: vec![41]
                },
                Watch {
                    name: "postgres".into(),
                    pids: vec![50, 51, 52]
                }
            ]
        );
        for bad in ["node1", "=41", "node1=", "node1=x", "node1=41+", "node1=-3"] {
            assert!(Cli::try_parse_from(["load", "--watch", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn spread_by_rooms_keeps_each_rooms_seats_together_and_rotates_the_rooms() {
        let cli = Cli::try_parse_from([
            "load",
            "--url",
            "ws://a/ws,ws://b/ws,ws://c/ws",
            "--spread",
            "rooms",
        ])
        .unwrap();
        let (urls, spread) = (cli.load.urls, cli.load.spread);
        assert_eq!(spread, Spread::Rooms);
        for room in 0..9 {
            for seat in 0..3 {
                assert_eq!(seat_url(&urls, spread, room, seat), urls[room % 3]);
            }
        }
        assert_eq!(Cli::try_parse_from(["load"]).unwrap().load.spread, Spread::Seats);
    }

    #[test]
    fn repeated_url_flags_add_up_and_an_empty_url_is_refused() {
        let cli = Cli::try_parse_from(["load", "--url", "ws://a/ws", "--url", "ws://b/ws"]).unwrap();
        assert_eq!(cli.load.urls, ["ws://a/ws", "ws://b/ws"]);
        let mut args = Cli::try_parse_from(["load", "--url", "ws://a/ws,,ws://b/ws"])
            .unwrap()
            .load;
        args.mode = Mode::Game;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let err = runtime.block_on(run(&args, None)).unwrap_err();
        assert!(err.to_string().contains("an empty URL"), "{err}");
    }
}
