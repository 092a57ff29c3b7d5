//! The built-in bot pool (`--bots N`) as its own process: the server starts `skirmish-bots play`
//! beside it, connected through `/ws` like any outside bot, so the bots' memory and crashes are
//! not the server's, and the server does not link the strategies (the crates' dependencies point one
//! way: `server` never depends on `bots`).
//!
//! The program is looked for at `--bots-program`, then beside the server's own executable, then
//! on `PATH`. Under `cargo run` (the `CARGO` variable set) a missing program is built once with
//! `$CARGO build -p skirmish-bots` in the server's own profile, so it lands beside the server.
//!
//! The pool runs in its own process group, stopped with SIGTERM (then SIGKILL after 5 s) to the
//! whole group when the server stops. It is started with `--once`, so that if the server dies
//! without stopping it (SIGKILL), its connections end and it exits instead of outliving the
//! server. When it ends while the server runs (a crash, a kill), the server starts it again after
//! a pause (1 s, doubling to 30 s while it keeps failing; back to 1 s after a minute of life),
//! except when its very first run exits with a non-zero code (not a signal) within 5 s, which is
//! a configuration error (an unknown strategy, say): then the server logs the error and serves
//! on without built-in bots.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};
use tokio_util::sync::CancellationToken;
use tracing::{error, info, warn};

/// The bot program's file name.
const PROGRAM: &str = "skirmish-bots";
/// A first run that exits with an error sooner than this is a configuration error, not a crash.
const FIRST_RUN_GRACE: Duration = Duration::from_secs(5);
/// The pause before the first restart, doubled after each quick failure up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_secs(1);
/// The longest pause between restarts.
const MAX_PAUSE: Duration = Duration::from_secs(30);
/// A run at least this long resets the pause to [`FIRST_PAUSE`].
const HEALTHY_RUN: Duration = Duration::from_secs(60);
/// How long the pool has to exit after SIGTERM before it gets SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// What the pool process is started with.
#[derive(Clone, Debug)]
pub(crate) struct PoolOptions {
    /// Bot connections (`--count`), at least 1.
    pub(crate) count: u16,
    /// The server's WebSocket URL, e.g. `ws://127.0.0.1:8080/ws`.
    pub(crate) url: String,
    /// Strategies to offer (empty: every built-in one).
    pub(crate) strategies: Vec<String>,
    /// The operator's key for bots (`--bot-key`), passed in the environment, never on the
    /// command line where `ps` shows it.
    pub(crate) key: Option<String>,
    /// `--bots-program`, when given.
    pub(crate) program: Option<PathBuf>,
    /// `--log-format` and `--log`, passed on.
    pub(crate) log_format: &'static str,
    /// The tracing filter, passed on.
    pub(crate) log: String,
}

/// `dir/skirmish-bots` if it is a file.
fn program_in(dir: &Path) -> Option<PathBuf> {
    let path = dir.join(PROGRAM);
    path.is_file().then_some(path)
}

/// The bot program: `explicit`, else beside the running executable, else on `PATH`.
///
/// # Errors
/// When `explicit` is given but is not a file (no fallback then: the operator asked for it).
fn find_program(explicit: Option<&Path>) -> Result<Option<PathBuf>, String> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(Some(path.to_owned()))
        } else {
            Err(format!("--bots-program {}: no such file", path.display()))
        };
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().and_then(program_in));
    let on_path = || {
        std::env::var_os("PATH")
            .and_then(|paths| std::env::split_paths(&paths).find_map(|dir| program_in(&dir)))
    };
    Ok(beside.or_else(on_path))
}

/// Under `cargo run`, builds the bot program in the server's own profile (so it lands beside the
/// server's executable) and returns it; `None`, with a warning saying how to build it, otherwise.
async fn build_with_cargo() -> Option<PathBuf> {
    let release = !cfg!(debug_assertions);
    let command = format!(
        "cargo build{} -p skirmish-bots",
        if release { " --release" } else { "" }
    );
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let Some(cargo) = std::env::var_os("CARGO").filter(|_| manifest.is_file()) else {
        warn!(
            "no built-in bots: the program `{PROGRAM}` is neither beside this server nor on PATH; \
             build it with `{command}` (or pass --bots-program, or --bots 0 to silence this)"
        );
        return None;
    };
    info!(
        "the bot program `{PROGRAM}` is missing: building it once with `{command}` (the built-in bots join when it is built)"
    );
    let mut build = Command::new(cargo);
    build.args([
        "build",
        "-p",
        "skirmish-bots",
        "--bin",
        PROGRAM,
        "--manifest-path",
    ]);
    build.arg(&manifest).stdin(Stdio::null()).kill_on_drop(true);
    if release {
        build.arg("--release");
    }
    match build.status().await {
        Ok(status) if status.success() => {}
        Ok(status) => {
            warn!(%status, "no built-in bots: `{command}` failed");
            return None;
        }
        Err(e) => {
            warn!("no built-in bots: `{command}` did not start: {e}");
            return None;
        }
    }
    match find_program(None) {
        Ok(Some(program)) => Some(program),
        _ => {
            warn!("no built-in bots: `{command}` succeeded but `{PROGRAM}` is not beside this server");
            None
        }
    }
}

/// The pool's command line.
fn command(program: &Path, options: &PoolOptions) -> Command {
    let mut command = Command::new(program);
    command
        .args(["play", "--once", "--name", "pool", "--url", &options.url])
        .args(["--count", &options.count.to_string()])
        .args(["--log-format", options.log_format, "--log", &options.log]);
    if !options.strategies.is_empty() {
        command.arg("--strategies").arg(options.strategies.join(","));
    }
    match &options.key {
        Some(key) => command.env("SKIRMISH_BOT_KEY", key),
        None => command.env_remove("SKIRMISH_BOT_KEY"),
    };
    command
        .stdin(Stdio::null())
        // Its own process group: the terminal's Ctrl-C reaches the server only, which stops the
        // pool itself, and the whole group can be signalled at once.
        .process_group(0)
        // Should this task be dropped without stopping the pool (a panic), the pool dies too.
        .kill_on_drop(true);
    command
}

/// Sends `signal` to the process group led by `child`.
fn signal_group(child: &Child, signal: rustix::process::Signal) {
    let group = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .and_then(rustix::process::Pid::from_raw);
    if let Some(group) = group {
        // ESRCH (already gone) is the outcome we want.
        let _ = rustix::process::kill_process_group(group, signal);
    }
}

/// Stops the pool: SIGTERM to its group, SIGKILL after [`STOP_GRACE`].
async fn stop(mut child: Child) {
    signal_group(&child, rustix::process::Signal::TERM);
    if tokio::time::timeout(STOP_GRACE, child.wait()).await.is_err() {
        warn!("the bot pool did not stop within {STOP_GRACE:?} of SIGTERM: killing it");
        signal_group(&child, rustix::process::Signal::KILL);
        let _ = child.wait().await;
    }
    info!("bot pool stopped");
}

/// Runs the pool until `shutdown`, restarting it when it ends (see the module docs).
pub(crate) async fn run(options: PoolOptions, shutdown: CancellationToken) {
    let program = match find_program(options.program.as_deref()) {
        Ok(Some(program)) => program,
        // A stop during the build drops it, and with it the build (kill_on_drop).
        Ok(None) => match shutdown.run_until_cancelled(build_with_cargo()).await {
            Some(Some(program)) => program,
            Some(None) | None => return,
        },
        Err(e) => {
            error!("no built-in bots: {e}");
            return;
        }
    };
    let mut pause = FIRST_PAUSE;
    let mut first = true;
    loop {
        if shutdown.is_cancelled() {
            return;
        }
        let started = Instant::now();
        let mut child = match command(&program, &options).spawn() {
            Ok(child) => child,
            Err(e) => {
                error!(program = %program.display(), "no built-in bots: the bot program did not start: {e}");
                return;
            }
        };
        info!(
            pid = child.id(),
            program = %program.display(),
            count = options.count,
            "bot pool started in its own process"
        );
        let status: std::io::Result<ExitStatus> = tokio::select! {
            status = child.wait() => status,
            () = shutdown.cancelled() => {
                stop(child).await;
                return;
            }
        };
        let lived = started.elapsed();
        // An exit code (not a signal) other than 0, soon after the first start: the program
        // refused its options (an unknown strategy, say), and would refuse them again.
        let refused = status
            .as_ref()
            .is_ok_and(|s| s.code().is_some_and(|code| code != 0));
        let status = status.map_or_else(|e| e.to_string(), |s| s.to_string());
        if first && refused && lived < FIRST_RUN_GRACE {
            error!(%status, "no built-in bots: the bot pool exited at once (see its message above); not restarted");
            return;
        }
        first = false;
        if lived >= HEALTHY_RUN {
            pause = FIRST_PAUSE;
        }
        warn!(%status, "the bot pool's process ended; starting it again in {pause:?}");
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = shutdown.cancelled() => return,
        }
        pause = (pause * 2).min(MAX_PAUSE);
    }
}
