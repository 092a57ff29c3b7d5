//! `skirmish-bots`: the bot client program, and the offline evaluation of strategies.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;

#[derive(Parser)]
#[command(
    version,
    about = "Skirmish bots: play on a server, or evaluate strategies offline",
    long_about = "Skirmish bots: play on a server as a bot (built-in strategies, or an outside gomoku \
                  or junqi engine), or evaluate strategies offline.\n\nEvery option can also be set with the \
                  environment variable named beside it (except --engine-arg); a flag wins over the \
                  variable."
)]
struct Cli {
    /// Log format: text for people, or json for one JSON object per line.
    #[arg(long, global = true, env = "SKIRMISH_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Which logs to write, as a tracing filter: a level (error, warn, info, debug, trace) or
    /// per-crate directives such as `skirmish_bots=debug,info`.
    #[arg(long, global = true, env = "SKIRMISH_LOG", default_value = "info")]
    log: String,
    #[command(subcommand)]
    command: Command,
}

/// How logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// How a bot connects, shared by `play`, `piskvork` and `caai`.
#[derive(clap::Args)]
struct Connection {
    /// The server's WebSocket URL.
    #[arg(long, env = "SKIRMISH_URL", default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// How many bot connections to open; each plays any number of seats at once, and their
    /// names get a number (`bot-1`, `bot-2`, ...) when there are several.
    #[arg(long, env = "SKIRMISH_BOT_COUNT", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    count: u16,
    /// Exit when the connection ends instead of reconnecting.
    #[arg(long, env = "SKIRMISH_BOT_ONCE")]
    once: bool,
    /// The longest a strategy or engine thinks about one gomoku or junqi move, in milliseconds (a shorter
    /// room clock lowers it).
    #[arg(long, env = "SKIRMISH_THINK_MS", default_value_t = 1000)]
    think_ms: u64,
    /// Append every message received to this file, one JSON text per line.
    #[arg(long, env = "SKIRMISH_TRANSCRIPT")]
    transcript: Option<PathBuf>,
    /// The operator's key, for a server that admits anonymous bots only with one (its
    /// `--bot-key`).
    #[arg(long, env = "SKIRMISH_BOT_KEY", hide_env_values = true)]
    key: Option<skirmish_protocol::AccessKey>,
    /// The bot account's token (`skirmish-bots account register`): the bot plays as that
    /// account, under its name, and may enter tournaments. One connection per account: a second
    /// one with the same token takes over from the first. Its value never appears in logs or
    /// `--help`.
    #[arg(long, env = "SKIRMISH_BOT_TOKEN", hide_env_values = true)]
    token: Option<skirmish_protocol::AccountToken>,
    /// Keep each connection's resume token in this folder (a file named after the connection,
    /// `<name>.token`, with characters other than letters, digits, `-` and `_` as `_`; readable
    /// by its owner only), so that the program, started again, takes its seats back (and its
    /// tournament matches) within the server's grace period.
    #[arg(long, env = "SKIRMISH_BOT_RESUME_DIR")]
    resume_dir: Option<PathBuf>,
    /// For a `wss://` server whose certificate Mozilla's roots do not cover (self-signed, or a
    /// private CA): a PEM file of the certificates to trust as well.
    #[arg(long, env = "SKIRMISH_CA_CERT")]
    ca_cert: Option<PathBuf>,
    /// A standing ladder to play in (repeat the flag, or comma-separate, for several:
    /// `gomoku-freestyle`, `gomoku-renju`, `plane-2`, `plane-3`, `junqi`, `tic-tac-toe`); needs
    /// `--token`. Every strategy offered for the ladder's game is rated there (docs/ladder.md).
    #[arg(long = "ladder", env = "SKIRMISH_LADDERS", value_delimiter = ',')]
    ladders: Vec<String>,
    /// The version the bot declares (default: this program's); on a ladder a new version is a
    /// new entrant, rated afresh.
    #[arg(long, env = "SKIRMISH_BOT_VERSION")]
    bot_version: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Connect to a server as a bot and play every seat it hands over, until interrupted.
    Play {
        #[command(flatten)]
        connection: Connection,
        /// The bot's display name.
        #[arg(long, env = "SKIRMISH_BOT_NAME", default_value = "bot")]
        name: String,
        /// Strategies to offer, strongest first (comma-separated; the games' names may be mixed:
        /// points, bayes, seed-cv, random for plane battle; pattern-search, threat-search, seed-minimax, random for gomoku;
        /// the junqi strategies of bots/README.md); all by default.
        #[arg(long, env = "SKIRMISH_STRATEGIES", value_delimiter = ',')]
        strategies: Vec<String>,
    },
    /// Connect to a server as a gomoku bot whose moves come from an outside engine speaking the
    /// Gomocup piskvork protocol (a `pbrain-*` program); every seat gets its own engine process.
    Piskvork {
        /// The engine program: a path, or a name on PATH.
        #[arg(long, env = "SKIRMISH_ENGINE")]
        engine: PathBuf,
        #[command(flatten)]
        connection: Connection,
        /// The bot's display name, and the strategy name it offers (default: the engine's file
        /// name).
        #[arg(long, env = "SKIRMISH_BOT_NAME")]
        name: Option<String>,
    },
    /// Connect to a server as a junqi bot whose layouts and moves come from an outside engine
    /// speaking the CAAI junqi protocol; every seat gets its own engine process.
    Caai {
        /// The engine program: a path, or a name on PATH.
        #[arg(long, env = "SKIRMISH_ENGINE")]
        engine: PathBuf,
        /// Arguments for the engine program (repeat the flag for several).
        #[arg(long = "engine-arg", allow_hyphen_values = true)]
        engine_args: Vec<String>,
        /// The thinking time per game the engine is told in `START`, in seconds (the CAAI
        /// championship's is 1800); by default the per-move think time (--think-ms), which an
        /// engine cannot overrun in one move. The bot stops waiting after the move's time
        /// plus a grace whatever the engine is told.
        #[arg(long, env = "SKIRMISH_GAME_SECONDS")]
        game_seconds: Option<u32>,
        #[command(flatten)]
        connection: Connection,
        /// The bot's display name, and the strategy name it offers (default: the engine's file
        /// name).
        #[arg(long, env = "SKIRMISH_BOT_NAME")]
        name: Option<String>,
    },
    /// Play thousands of boards per strategy in-process and print shots-to-clear statistics.
    Eval(skirmish_bots::eval::EvalArgs),
    /// Play gomoku strategy A against B (or an outside engine) in-process from balanced
    /// openings, both colours each, and print the score and Elo difference, and each side's
    /// time per move, speed, depth and budget share.
    GomokuBench(skirmish_bots::gomoku::bench::BenchArgs),
    /// Fit `pattern-search`'s evaluation values to self-play games at short searches and write
    /// them (bots/data/gomoku_eval.json by default).
    GomokuFit(skirmish_bots::gomoku::pattern_search::fit::FitArgs),
    /// Play junqi strategy A against B in-process through the referee, seats swapped every game,
    /// and print the score, Elo difference, game lengths and A's time per move.
    JunqiBench(skirmish_bots::junqi::bench::BenchArgs),
    /// Check a tournament that is over against its revealed seed: the seed opens the commitment
    /// published at the start, no entrant played a deal twice, and every dealt board is the one
    /// the seed deals.
    Audit(skirmish_bots::audit::AuditArgs),
    /// Register, rotate or revoke a bot account on a server (its admin HTTP API, with the
    /// server's admin key); a new token is printed once.
    Account(skirmish_bots::account::AccountArgs),
    /// Make a tournament between the bots connected to a server (over its HTTP API), follow it
    /// with a progress bar, and print the standings and crosstable.
    Tournament(skirmish_bots::tournament::TournamentArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_new(&cli.log)
        .map_err(|e| anyhow::anyhow!("log filter `{}`: {e}", cli.log))?;
    // Colour codes only for a terminal: a log file (the server's, for its built-in pool) gets plain text.
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()));
    match cli.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    match cli.command {
        Command::Play {
            connection,
            name,
            strategies,
        } => {
            let mut options = skirmish_bots::client::BotOptions::new(connection.url.clone(), name);
            if !strategies.is_empty() {
                for s in &strategies {
                    anyhow::ensure!(skirmish_bots::is_strategy(s), "unknown strategy `{s}`");
                }
                options.set_strategies(&strategies);
            }
            serve(options, &connection)
        }
        Command::Piskvork {
            engine,
            connection,
            name,
        } => {
            let engine = find_engine(engine)?;
            let mut options = engine_bot(&engine, name, &connection, skirmish_bots::piskvork::GAME);
            options.players.insert(
                skirmish_bots::piskvork::GAME,
                std::sync::Arc::new(move |_name: &str| {
                    Some(skirmish_bots::gomoku::player(Box::new(
                        skirmish_bots::piskvork::PiskvorkStrategy::new(engine.clone()),
                    )))
                }),
            );
            serve(options, &connection)
        }
        Command::Caai {
            engine,
            engine_args,
            game_seconds,
            connection,
            name,
        } => {
            let engine = find_engine(engine)?;
            let mut options = engine_bot(&engine, name, &connection, skirmish_bots::caai::GAME);
            options.players.insert(
                skirmish_bots::caai::GAME,
                std::sync::Arc::new(move |_name: &str| {
                    let strategy =
                        skirmish_bots::caai::CaaiStrategy::with_args(engine.clone(), engine_args.clone());
                    let strategy = match game_seconds {
                        Some(seconds) => strategy.game_seconds(seconds),
                        None => strategy,
                    };
                    Some(skirmish_bots::junqi::player(Box::new(strategy)))
                }),
            );
            serve(options, &connection)
        }
        Command::Eval(args) => skirmish_bots::eval::run(&args),
        Command::GomokuBench(args) => skirmish_bots::gomoku::bench::run(&args).map(|_| ()),
        Command::GomokuFit(args) => skirmish_bots::gomoku::pattern_search::fit::run(&args),
        Command::JunqiBench(args) => skirmish_bots::junqi::bench::run(&args),
        Command::Account(args) => {
            tokio::runtime::Runtime::new()?.block_on(skirmish_bots::account::run(&args))
        }
        Command::Tournament(args) => {
            tokio::runtime::Runtime::new()?.block_on(skirmish_bots::tournament::run(&args))
        }
        Command::Audit(args) => tokio::runtime::Runtime::new()?.block_on(skirmish_bots::audit::run(&args)),
    }
}

/// Runs `connection.count` bot connections with `options` until interrupted (Ctrl-C or SIGTERM)
/// or, with `--once`, until their connections end.
fn serve(mut options: skirmish_bots::client::BotOptions, connection: &Connection) -> anyhow::Result<()> {
    options.think = std::time::Duration::from_millis(connection.think_ms);
    options.reconnect = !connection.once;
    options.transcript.clone_from(&connection.transcript);
    options.key.clone_from(&connection.key);
    options.token.clone_from(&connection.token);
    options.ca_cert.clone_from(&connection.ca_cert);
    options.ladders.clone_from(&connection.ladders);
    if let Some(version) = &connection.bot_version {
        options.version.clone_from(version);
    }
    anyhow::ensure!(
        connection.token.is_none() || connection.count == 1,
        "one connection per bot account: --token with --count 1"
    );
    anyhow::ensure!(
        connection.ladders.is_empty() || connection.token.is_some(),
        "only a bot account plays in ladders: --ladder needs --token"
    );
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            let _ = stop_signal().await;
            stop.cancel();
        });
        let mut bots = Vec::new();
        for i in 1..=connection.count {
            let mut options = options.clone();
            if connection.count > 1 {
                options.name = format!("{}-{i}", options.name);
            }
            if let Some(dir) = &connection.resume_dir {
                std::fs::create_dir_all(dir)?;
                // Names are free text: anything but letters, digits, `-` and `_` becomes `_`.
                let file: String = options
                    .name
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect();
                options.resume_file = Some(dir.join(format!("{file}.token")));
            }
            bots.push(tokio::spawn(skirmish_bots::client::run(
                options,
                shutdown.clone(),
            )));
        }
        for bot in bots {
            bot.await??;
        }
        Ok(())
    })
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM (what `docker stop` sends).
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

/// A bot that offers only `game`, under `name` (default: the engine's file name), as the one
/// strategy an outside engine plays; the caller plugs in the engine's strategy factory.
fn engine_bot(
    engine: &std::path::Path,
    name: Option<String>,
    connection: &Connection,
    game: skirmish_protocol::GameKind,
) -> skirmish_bots::client::BotOptions {
    let name = name.unwrap_or_else(|| {
        engine
            .file_name()
            .map_or_else(|| "engine".to_owned(), |n| n.to_string_lossy().into_owned())
    });
    let mut options = skirmish_bots::client::BotOptions::new(connection.url.clone(), name.clone());
    options.strategies = std::collections::BTreeMap::from([(game, vec![name])]);
    options
}

/// `engine` if it is a file, else (for a bare name such as `pbrain-figrid`) the first file of that
/// name in a `PATH` directory.
fn find_engine(engine: PathBuf) -> anyhow::Result<PathBuf> {
    if engine.is_file() {
        return Ok(engine);
    }
    let on_path = (engine.components().count() == 1)
        .then(|| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            std::env::split_paths(&path)
                .map(|dir| dir.join(&engine))
                .find(|p| p.is_file())
        })
        .flatten();
    on_path.ok_or_else(|| {
        anyhow::anyhow!(
            "no engine at {} (give the path of the engine program, or its name on PATH)",
            engine.display()
        )
    })
}
