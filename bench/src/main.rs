//! `skirmish-bench`: the measuring instruments' program. `load` measures a Skirmish server against
//! a WebSocket echo in the same run; `echo-server` is that echo, started by `load` in a process of
//! its own (docs/performance.md).

use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;

use skirmish_bench::load::{self, EchoTarget, LoadArgs, Mode, echo::EchoProcess};

#[derive(Parser)]
#[command(
    version,
    about = "Skirmish's measuring instruments: load a server and compare it with a WebSocket echo",
    long_about = "Skirmish's measuring instruments: load a server with rooms of random players and \
                  compare it with a minimal WebSocket echo on the same stack, in the same run \
                  (docs/performance.md). The comparison with peer servers is scripts/peers.sh."
)]
struct Cli {
    /// Which logs to write, as a tracing filter: a level (error, warn, info, debug, trace) or
    /// per-crate directives such as `skirmish_bench=debug,info`.
    #[arg(long, global = true, env = "SKIRMISH_LOG", default_value = "info")]
    log: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load a server with rooms of random players as fast as it answers, then a WebSocket echo
    /// server the same way, and report moves per second, latency percentiles, server CPU and
    /// memory, and each figure as a ratio to the echo's (docs/performance.md).
    Load(LoadArgs),
    /// The minimal WebSocket echo server `load` measures against (a measuring instrument, not
    /// part of Skirmish): prints its URL on the first line of stdout, then echoes every frame.
    EchoServer {
        /// Port (0 picks a free one).
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_new(&cli.log)
        .map_err(|e| anyhow::anyhow!("log filter `{}`: {e}", cli.log))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    match cli.command {
        Command::Load(args) => run_load(&args),
        Command::EchoServer { port } => echo_server(port),
    }
}

/// Runs `skirmish-bench load`: starts an echo server in a child process when the echo phase needs
/// one and none was given, then prints the report.
fn run_load(args: &LoadArgs) -> anyhow::Result<()> {
    let mut child = None;
    let echo = match (&args.echo_url, args.mode) {
        (_, Mode::Game) => None,
        (Some(url), _) => Some(EchoTarget {
            url: url.clone(),
            pid: args.echo_pid,
        }),
        (None, _) => {
            let process = EchoProcess::spawn(&std::env::current_exe()?)?;
            let target = EchoTarget {
                url: process.url.clone(),
                pid: Some(process.pid()),
            };
            child = Some(process);
            Some(target)
        }
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let report = runtime.block_on(load::run(args, echo))?;
    drop(child);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", load::table(&report));
    }
    Ok(())
}

/// Runs the echo server on 127.0.0.1:`port` until interrupted, after printing its URL.
fn echo_server(port: u16) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        println!("ws://{}/ws", listener.local_addr()?);
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            let _ = stop_signal().await;
            stop.cancel();
        });
        load::echo::serve(listener, shutdown).await?;
        Ok(())
    })
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await?;
    Ok(())
}
