//! `skirmish-bots`: the bot client program, and the offline evaluation of strategies.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;

#[derive(Parser)]
#[command(
    version,
    about = "Skirmish bots: play on a server, or evaluate strategies offline"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Connect to a server as a bot and play every seat it hands over, until interrupted.
    Play {
        /// The server's WebSocket URL.
        #[arg(long, env = "SKIRMISH_URL", default_value = "ws://127.0.0.1:8080/ws")]
        url: String,
        /// The bot's display name.
        #[arg(long, default_value = "bot")]
        name: String,
        /// Strategies to offer, strongest first (comma-separated; plane battle and gomoku names
        /// may be mixed); all by default.
        #[arg(long, value_delimiter = ',')]
        strategies: Vec<String>,
        /// Append every message received to this file, one JSON text per line.
        #[arg(long)]
        transcript: Option<PathBuf>,
        /// Exit when the connection ends instead of reconnecting.
        #[arg(long)]
        once: bool,
    },
    /// Connect to a server as a gomoku bot whose moves come from an outside engine speaking the
    /// Gomocup piskvork protocol (a `pbrain-*` program); every seat gets its own engine process.
    Piskvork {
        /// The engine program.
        #[arg(long)]
        engine: PathBuf,
        /// The server's WebSocket URL.
        #[arg(long, env = "SKIRMISH_URL", default_value = "ws://127.0.0.1:8080/ws")]
        url: String,
        /// The bot's display name, and the strategy name it offers (default: the engine's file
        /// name).
        #[arg(long)]
        name: Option<String>,
        /// Exit when the connection ends instead of reconnecting.
        #[arg(long)]
        once: bool,
        /// The longest the engine thinks about one move, in milliseconds (a shorter room clock
        /// lowers it).
        #[arg(long, default_value_t = 1000)]
        think_ms: u64,
    },
    /// Play thousands of boards per strategy in-process and print shots-to-clear statistics.
    Eval(skirmish_bots::eval::EvalArgs),
    /// Play gomoku strategy A against B (or an outside engine) in-process from balanced
    /// openings, both colours each, and print the score and Elo difference.
    GomokuBench(skirmish_bots::gomoku::bench::BenchArgs),
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    match Cli::parse().command {
        Command::Play {
            url,
            name,
            strategies,
            transcript,
            once,
        } => {
            let mut options = skirmish_bots::client::BotOptions::new(url, name);
            if !strategies.is_empty() {
                for s in &strategies {
                    anyhow::ensure!(
                        skirmish_bots::plane::strategy(s).is_some()
                            || skirmish_bots::gomoku::strategy(s).is_some(),
                        "unknown strategy `{s}`"
                    );
                }
                options.strategies = strategies;
            }
            options.transcript = transcript;
            options.reconnect = !once;
            serve(options)
        }
        Command::Piskvork {
            engine,
            url,
            name,
            once,
            think_ms,
        } => {
            anyhow::ensure!(
                engine.is_file(),
                "no engine at {} (give the path of a pbrain-* program)",
                engine.display()
            );
            let name = name.unwrap_or_else(|| {
                engine
                    .file_name()
                    .map_or_else(|| "piskvork".to_owned(), |n| n.to_string_lossy().into_owned())
            });
            let mut options = skirmish_bots::client::BotOptions::new(url, name.clone());
            options.games = vec![skirmish_protocol::GameKind::Gomoku];
            options.strategies = vec![name];
            options.gomoku = std::sync::Arc::new(move |_name: &str| {
                Some(
                    Box::new(skirmish_bots::piskvork::PiskvorkStrategy::new(engine.clone()))
                        as Box<dyn skirmish_bots::gomoku::GomokuStrategy>,
                )
            });
            options.think = std::time::Duration::from_millis(think_ms);
            options.reconnect = !once;
            serve(options)
        }
        Command::Eval(args) => skirmish_bots::eval::run(&args),
        Command::GomokuBench(args) => skirmish_bots::gomoku::bench::run(&args),
    }
}

/// Runs the bot client until interrupted (or, with `reconnect` off, until the connection ends).
fn serve(options: skirmish_bots::client::BotOptions) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            let _ = tokio::signal::ctrl_c().await;
            stop.cancel();
        });
        skirmish_bots::client::run(options, shutdown).await
    })
}
