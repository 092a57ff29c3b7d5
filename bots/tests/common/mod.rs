//! Shared helpers for the outside-engine tests (`piskvork.rs`, `caai.rs`): scratch folders, fake
//! engines written as small python3 scripts, and bot processes that die with the test.
#![allow(dead_code, unreachable_pub)]

pub mod gomoku;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A fresh folder of its own for one test's engine, named `<family>-<test>-<pid>`.
pub fn scratch(family: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{family}-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `path` as an executable file.
pub fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// How a fake engine speaks: the line ending it writes, and whether it reads commands in any case.
#[derive(Clone, Copy)]
pub struct Dialect {
    /// What ends each line it writes (`"\r\n"` for piskvork, `"\n"` for CAAI).
    pub newline: &'static str,
    /// Whether `cmd` is upper-cased before `body` sees it.
    pub upper: bool,
}

/// Writes a fake engine into `dir`: a python3 loop over its input lines that writes its pid to
/// `pid` and every line to `input.log`, and runs `body` for each line, with `line` the line and
/// `cmd` its first word, and `say(text)` to answer.
pub fn fake_engine(dir: &Path, name: &str, dialect: Dialect, body: &str) -> PathBuf {
    let script = format!(
        r#"#!/usr/bin/env python3
import os, sys, time
open({pid:?}, "w").write(str(os.getpid()))
log = open({log:?}, "a")
def say(text):
    sys.stdout.write(text + {newline:?})
    sys.stdout.flush()
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\n")
    log.flush()
    cmd = line.split(" ")[0]{upper} if line else ""
{body}
"#,
        pid = dir.join("pid").display().to_string(),
        log = dir.join("input.log").display().to_string(),
        newline = dialect.newline,
        upper = if dialect.upper { ".upper()" } else { "" },
        body = body.lines().map(|l| format!("    {l}\n")).collect::<String>()
    );
    let path = dir.join(name);
    executable(&path, &script);
    path
}

/// Whether the engine whose pid is in `dir` still exists (one killed before it wrote its pid, as
/// on a loaded machine where Python starts slower than the time limit, never lived to be seen).
pub fn alive(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("pid")).is_ok_and(|pid| Path::new("/proc").join(pid.trim()).exists())
}

/// Whether process `pid` runs (exists and is not a zombie waiting for a parent to reap it).
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            != Some("Z")
    })
}

/// Whether process `pid` stops running within `limit` (polled every 20 ms).
pub fn gone_within(pid: u32, limit: std::time::Duration) -> bool {
    let until = std::time::Instant::now() + limit;
    while running(pid) {
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// Every line the engine in `dir` was sent so far.
pub fn input(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("input.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Bot processes, killed when dropped.
pub struct Bots(pub Vec<Child>);

impl Drop for Bots {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts `skirmish-bots` with `args`.
pub fn bot_process(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skirmish-bots"))
        .args(args)
        .stdin(Stdio::null())
        .spawn()
        .expect("start a bot process")
}

/// A `skirmish-bots play` process offering the `random` strategy to `url`, once.
pub fn random_bot_process(url: &str) -> Child {
    bot_process(&[
        "play",
        "--once",
        "--url",
        url,
        "--name",
        "random-bot",
        "--strategies",
        "random",
    ])
}

/// Once `bots` bots are connected to `url`, creates a room of `config` that a host watches, and
/// hands each of `seats` to a bot offering its strategy; returns the host and the room.
pub async fn host_bot_game(
    url: &str,
    bots: usize,
    config: skirmish_protocol::RoomConfig,
    seats: &[(skirmish_games::Seat, &str)],
) -> (skirmish_server::testing::TestClient, skirmish_protocol::RoomId) {
    use skirmish_protocol::{ClientMsg, ServerMsg};
    let (mut host, _) = skirmish_server::testing::TestClient::join(url, "Host").await;
    let mut connected = false;
    for _ in 0..200 {
        if let ServerMsg::Bots { bots: listed, .. } = host.request(ClientMsg::ListBots).await
            && listed.len() >= bots
        {
            connected = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(connected, "the bots connect");
    let ServerMsg::RoomCreated { room, .. } =
        host.request(ClientMsg::CreateRoom { config, sit: false }).await
    else {
        panic!("room created")
    };
    host.request(ClientMsg::Spectate { room }).await;
    for &(seat, strategy) in seats {
        let reply = host
            .request(ClientMsg::AddBot {
                room,
                seat: Some(seat),
                strategy: Some(strategy.into()),
                level: None,
            })
            .await;
        assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    }
    (host, room)
}
