//! The built-in bot pool (`--bots N`) of the real `skirmish-server` program is its own
//! `skirmish-bots play` process, a child of the server: it seats a bot, a kill of it leaves the
//! server serving and the server starts it again, it stops with the server, and it does not
//! outlive a server killed with SIGKILL.
//!
//! The program is found beside the server's executable (`cargo test --workspace` builds it there);
//! when it is missing the server builds it itself with `$CARGO build` (the variable `cargo test` sets).

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::*;
use skirmish_games::plane::Variant;
use skirmish_protocol::{ClientMsg, ServerMsg};
use skirmish_server::testing::TestClient;

/// The operator's bot key the servers here are started with: the pool must present it to be
/// admitted, and must not carry it on its command line (which `ps` shows every local user).
const KEY: &str = "pool-key-0123456789abcdef";

/// The server program with `--bots 1` and `--bot-key` [`KEY`] on `port`, its stdout discarded.
struct Server {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Server {
    fn start() -> Server {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("skirmish-bot-pool-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let child = Command::new(env!("CARGO_BIN_EXE_skirmish-server"))
            .args(["--port", &port.to_string(), "--bots", "1", "--log", "warn"])
            .args(["--bot-strategies", "random", "--bot-key", KEY])
            .arg("--database")
            .arg(dir.join("skirmish.db"))
            .stdout(Stdio::null())
            .spawn()
            .expect("the server program starts");
        Server { child, port, dir }
    }

    fn url(&self) -> String {
        format!("ws://127.0.0.1:{}/ws", self.port)
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn signal(&self, signal: rustix::process::Signal) {
        signal_pid(self.pid(), signal);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn signal_pid(pid: u32, signal: rustix::process::Signal) {
    let pid = rustix::process::Pid::from_raw(i32::try_from(pid).unwrap()).unwrap();
    rustix::process::kill_process(pid, signal).expect("the signal is sent");
}

/// `(parent pid, state, command name)` of a live process, from `/proc/<pid>/stat`.
fn stat(pid: u32) -> Option<(u32, char, String)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid ...; comm may hold spaces and parentheses, so split at the last ')'.
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text[open + 1..close].to_owned();
    let mut rest = text[close + 1..].split_whitespace();
    let state = rest.next()?.chars().next()?;
    let parent = rest.next()?.parse().ok()?;
    Some((parent, state, name))
}

/// Whether `pid` is gone (or a zombie waiting to be reaped: it runs no more).
fn gone(pid: u32) -> bool {
    stat(pid).is_none_or(|(_, state, _)| state == 'Z')
}

/// The live `skirmish-bots` children of `parent`.
fn bot_children(parent: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            stat(pid)
                .is_some_and(|(ppid, state, name)| ppid == parent && state != 'Z' && name == "skirmish-bots")
        })
        .collect()
}

/// Polls `check` every 100 ms for up to `secs` seconds.
async fn eventually<T>(secs: u64, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    for _ in 0..secs * 10 {
        if let Some(found) = check() {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within {secs} s");
}

/// The connected bots' names, once at least one is connected (up to `secs` seconds).
async fn bots_connected(client: &mut TestClient, secs: u64) -> Vec<String> {
    for _ in 0..secs * 10 {
        let ServerMsg::Bots { bots, .. } = client.request(ClientMsg::ListBots).await else {
            panic!("a bot list")
        };
        if !bots.is_empty() {
            return bots.into_iter().map(|b| b.name).collect();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no bot connected within {secs} s");
}

/// Waits for the server to answer `/healthz`.
async fn healthy(port: u16) {
    for _ in 0..400 {
        if let Ok(reply) = reqwest::get(format!("http://127.0.0.1:{port}/healthz")).await
            && reply.status().is_success()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server never answered /healthz");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_in_pool_is_a_child_process_that_seats_bots_survives_nothing_and_comes_back() {
    let mut server = Server::start();
    healthy(server.port).await;
    let (mut alice, _) = TestClient::join(&server.url(), "Alice").await;
    // Up to 10 minutes: the first run may build the bot program (a cold build on a busy machine).
    let names = bots_connected(&mut alice, 600).await;
    assert_eq!(names, ["pool"], "one pool connection, named pool");
    let pool = eventually(10, "a skirmish-bots child of the server", || {
        let children = bot_children(server.pid());
        (children.len() == 1).then(|| children[0])
    })
    .await;
    assert_ne!(pool, server.pid(), "the bots run in their own process");
    let cmdline = std::fs::read(format!("/proc/{pool}/cmdline")).expect("the pool's command line");
    assert!(
        !String::from_utf8_lossy(&cmdline).contains(KEY),
        "the bot key is passed in the environment, not on the command line"
    );

    // The pool seats a bot.
    let room = create(&mut alice, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    let reply = alice
        .request(ClientMsg::AddBot {
            room,
            seat: None,
            strategy: Some("random".into()),
            level: None,
        })
        .await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let bot_seated = |m: &ServerMsg| {
        matches!(m, ServerMsg::Room(snapshot) if snapshot.room.seats.iter().any(|s| {
            s.occupant.as_ref().is_some_and(|o| o.bot.as_deref() == Some("random"))
        }))
    };
    if !alice.log.iter().any(bot_seated) {
        alice.recv_until(bot_seated).await;
    }

    // A crash of the pool (SIGKILL) leaves the server serving, and the server starts it again.
    signal_pid(pool, rustix::process::Signal::KILL);
    eventually(10, "the killed pool is gone", || gone(pool).then_some(())).await;
    healthy(server.port).await;
    let ServerMsg::Bots { .. } = alice.request(ClientMsg::ListBots).await else {
        panic!("the server still answers its players")
    };
    let again = eventually(20, "a new pool process", || {
        let children = bot_children(server.pid());
        (children.len() == 1 && children[0] != pool).then(|| children[0])
    })
    .await;
    assert_eq!(
        bots_connected(&mut alice, 20).await,
        ["pool"],
        "the new pool connects"
    );

    // SIGTERM: the server stops its pool and exits cleanly.
    server.signal(rustix::process::Signal::TERM);
    let status = server.child.wait().expect("the server exits");
    assert!(status.success(), "{status}");
    assert!(gone(again), "the pool stopped with the server");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_does_not_outlive_a_server_killed_with_sigkill() {
    let mut server = Server::start();
    healthy(server.port).await;
    let (mut alice, _) = TestClient::join(&server.url(), "Alice").await;
    bots_connected(&mut alice, 600).await;
    let pool = eventually(10, "a skirmish-bots child of the server", || {
        bot_children(server.pid()).first().copied()
    })
    .await;
    server.signal(rustix::process::Signal::KILL);
    let _ = server.child.wait();
    // Its connection ends with the server, and the pool (started with --once) exits.
    eventually(20, "the orphaned pool exits", || gone(pool).then_some(())).await;
}
