//! `skirmish-server`: serves Skirmish, with a built-in pool of bots, run as its own
//! `skirmish-bots` process, that connects to it over the same protocol as any other client.

mod pool;

use std::io::IsTerminal;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, ValueEnum};
use tokio_util::sync::CancellationToken;
use tracing::info;

/// mimalloc, not glibc's allocator: 3 to 4% less CPU per move, and no more idle memory
/// (docs/performance.md, "What the design choices are worth").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    version,
    about = "The Skirmish game server: rooms for plane battle, gomoku and junqi over WebSockets, bot tournaments, the web client, and a built-in pool of bots",
    long_about = "The Skirmish game server: rooms for plane battle, gomoku and junqi over WebSockets \
                  (GET /ws), the web client (GET /), the rules (GET /rules), the lobby as JSON (GET /api/rooms, \
                  /api/bots), tournaments (/api/tournaments) and a health check (GET /healthz), with a \
                  built-in pool of bots: a `skirmish-bots play` process the server starts and stops, \
                  which connects through /ws like any other client.\n\nEvery option can also be set with the environment variable named \
                  beside it; a flag wins over the variable."
)]
struct Args {
    /// Address to listen on (0.0.0.0 for every interface, as in a container).
    #[arg(long, env = "SKIRMISH_ADDR", default_value = "127.0.0.1")]
    addr: IpAddr,
    /// Port to listen on (0 picks a free one, printed in the log).
    #[arg(long, env = "SKIRMISH_PORT", default_value_t = 8080)]
    port: u16,
    /// Built-in bot connections to start, in one `skirmish-bots play` process the server starts,
    /// restarts if it ends, and stops; each connection plays any number of seats at once. 0 for
    /// none (bots can still connect from elsewhere).
    #[arg(long, env = "SKIRMISH_BOTS", default_value_t = 2)]
    bots: u16,
    /// The bot program for the built-in pool (default: `skirmish-bots` beside this server, else
    /// on PATH; under `cargo run`, built when missing).
    #[arg(long, env = "SKIRMISH_BOTS_PROGRAM")]
    bots_program: Option<PathBuf>,
    /// Strategies the built-in bots offer, comma-separated, strongest first within each game
    /// (default: every built-in strategy of every game, as bots/README.md lists them).
    #[arg(long, env = "SKIRMISH_BOT_STRATEGIES", value_delimiter = ',')]
    bot_strategies: Vec<String>,
    /// The web client's folder (default: web-client/ in the source tree).
    #[arg(long, env = "SKIRMISH_WEB_ROOT")]
    web_root: Option<PathBuf>,
    /// Where tournaments, their matches, every finished match's record, bot accounts and every
    /// room's log are kept: a SQLite file (made if missing), `:memory:`, or a PostgreSQL URL
    /// (`postgres://user:password@host:port/database`, the storage a cluster shares).
    /// Tournaments it holds as running go on, and rooms it holds as open are rebuilt, when the
    /// server starts.
    #[arg(long, env = "SKIRMISH_DATABASE", default_value = "skirmish.db")]
    database: String,
    /// The NATS server (with JetStream) of a cluster to join as one of its nodes
    /// (`nats://host:4222`; docs/cluster.md): rooms of every node are listed and played from
    /// any node, and a node's rooms are taken over when it stops. Needs `--node-id` and a
    /// PostgreSQL `--database` the nodes share. Without it, the server is a single node.
    #[arg(
        long,
        env = "SKIRMISH_CLUSTER",
        requires = "node_id",
        help_heading = "Cluster"
    )]
    cluster: Option<String>,
    /// This node's id in the cluster: unique, kept across its restarts; letters, digits, `-`
    /// and `_`.
    #[arg(
        long,
        env = "SKIRMISH_NODE_ID",
        requires = "cluster",
        help_heading = "Cluster"
    )]
    node_id: Option<String>,
    /// Threads that run the server's tasks (sessions, rooms, the journal's writer). By default
    /// one fewer than the machine's cores, at least one: the storage's own thread (SQLite's,
    /// on the path of every move's commit) and the kernel's network work get the last core. On
    /// the 2-core machine of docs/performance.md this was 15% less CPU per move and 8 to 17%
    /// more moves a second than two workers ("What the design choices are worth").
    #[arg(long, env = "SKIRMISH_WORKER_THREADS")]
    worker_threads: Option<std::num::NonZeroUsize>,
    #[command(flatten)]
    limits: skirmish_server::Limits,
    /// Log format: text for people, or json for one JSON object per line.
    #[arg(long, env = "SKIRMISH_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Which logs to write, as a tracing filter: a level (error, warn, info, debug, trace) or
    /// per-crate directives such as `skirmish_server=debug,info`.
    #[arg(long, env = "SKIRMISH_LOG", default_value = "info")]
    log: String,
}

/// How logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, with the spans (connection, session, room) as fields.
    Json,
}

fn init_logs(format: LogFormat, filter: &str) -> anyhow::Result<()> {
    let filter =
        tracing_subscriber::EnvFilter::try_new(filter).with_context(|| format!("log filter `{filter}`"))?;
    // Colour codes only for a terminal: a log file or a pipe gets plain text.
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal());
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().with_current_span(true).with_span_list(true).init(),
    }
    Ok(())
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM (what `docker stop` sends).
async fn stop_signal() -> anyhow::Result<()> {
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

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    init_logs(args.log_format, &args.log)?;
    let workers = args
        .worker_threads
        .map_or_else(default_workers, std::num::NonZeroUsize::get);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .context("starting the runtime")?
        .block_on(serve(args))
}

/// One fewer than the machine's cores, at least one ([`Args::worker_threads`]).
fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_sub(1)
        .max(1)
}

async fn serve(args: Args) -> anyhow::Result<()> {
    // The built-in pool connects over plain ws; skirmish-bots has no TLS client yet.
    anyhow::ensure!(
        args.limits.tls_cert.is_none() || args.bots == 0,
        "the built-in bots do not speak TLS: with --tls-cert, start with --bots 0 (docs/running.md, \"TLS\")"
    );
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.addr, args.port))
        .await
        .with_context(|| format!("binding {}:{}", args.addr, args.port))?;
    let local = listener.local_addr()?;
    let scheme = if args.limits.tls_cert.is_some() {
        "https"
    } else {
        "http"
    };
    info!(addr = %local, "listening: open {scheme}://{local}/");
    let shutdown = CancellationToken::new();
    let web_root = args.web_root.unwrap_or_else(skirmish_server::default_web_root);
    // A PostgreSQL URL may hold a password: only its engine is named in logs and errors.
    let shown = if skirmish_server::store::is_postgres_url(&args.database) {
        "the PostgreSQL database"
    } else {
        args.database.as_str()
    };
    let store = skirmish_server::store::Store::connect(&args.database)
        .await
        .with_context(|| format!("opening {shown}"))?;
    info!(database = %shown, engine = store.engine_name(), "storage open");
    let cluster = match (&args.cluster, &args.node_id) {
        (Some(url), Some(node)) => {
            anyhow::ensure!(
                skirmish_server::store::is_postgres_url(&args.database),
                "the nodes of a cluster share a PostgreSQL database: --database postgres://..."
            );
            let config = skirmish_server::cluster::ClusterConfig {
                url: url.clone(),
                node: node.clone(),
            };
            let cluster = join_cluster(&config, &shutdown).await?;
            info!(node = %node, "joined the cluster");
            Some(cluster)
        }
        _ => None,
    };
    let node = cluster.clone();
    let server = tokio::spawn(skirmish_server::run(
        listener,
        web_root,
        args.limits.clone(),
        store,
        cluster,
        shutdown.clone(),
    ));
    let pool = (args.bots > 0).then(|| {
        let options = pool::PoolOptions {
            count: args.bots,
            url: format!("ws://{local}/ws"),
            strategies: args.bot_strategies.clone(),
            key: args.limits.bot_key.as_ref().map(|key| key.expose().to_owned()),
            program: args.bots_program.clone(),
            log_format: match args.log_format {
                LogFormat::Text => "text",
                LogFormat::Json => "json",
            },
            log: args.log.clone(),
        };
        tokio::spawn(pool::run(options, shutdown.clone()))
    });
    // A node of a cluster that lost its bus stops by itself (docs/cluster.md, "Leases").
    tokio::select! {
        stopped = stop_signal() => stopped.context("waiting for a stop signal")?,
        () = shutdown.cancelled() => {}
    }
    info!("shutting down");
    shutdown.cancel();
    if let Some(pool) = pool {
        let _ = pool.await;
    }
    server.await.context("server task")?.context("serving")?;
    if let (Some(node), Some(url)) = (node, &args.cluster)
        && node.fenced()
    {
        return rejoin(url).await;
    }
    Ok(())
}

/// Joins the cluster. A node starting again after it lost the bus ([`rejoin`], which sets
/// `SKIRMISH_REJOINING`) tries again every second until it is in, since the bus that just came
/// back may still be opening its store; any other start fails on the first refusal.
async fn join_cluster(
    config: &skirmish_server::cluster::ClusterConfig,
    shutdown: &CancellationToken,
) -> anyhow::Result<skirmish_server::cluster::Cluster> {
    let rejoining = std::env::var_os(REJOINING).is_some();
    loop {
        match skirmish_server::cluster::Cluster::join(config, shutdown.clone()).await {
            Ok(cluster) => return Ok(cluster),
            Err(err) if rejoining => {
                tracing::warn!(cause = %err, "joining the cluster again failed; trying again");
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
            Err(err) => return Err(err).context("joining the cluster"),
        }
    }
}

/// Set for a node that starts itself again after losing the bus ([`rejoin`]).
const REJOINING: &str = "SKIRMISH_REJOINING";

/// A node that stopped itself because it lost the bus (its journal flushed, its connections
/// closed, its rooms free to be taken over) waits for the bus, then starts again as this same
/// program with the same arguments and environment, so the cluster needs no supervisor to come
/// back from a bus outage (docs/cluster.md, "What each outage does"). A stop signal while it
/// waits ends it.
async fn rejoin(url: &str) -> anyhow::Result<()> {
    info!("this node lost the bus and stopped; it starts again when the bus answers");
    tokio::select! {
        () = skirmish_server::cluster::wait_for_bus(url) => {}
        stopped = stop_signal() => return stopped.context("waiting for a stop signal"),
    }
    info!("the bus answers again: this node starts again");
    let program = std::env::current_exe().context("finding this program")?;
    // Only returns when the program could not be started.
    let err = std::os::unix::process::CommandExt::exec(
        std::process::Command::new(&program)
            .args(std::env::args_os().skip(1))
            .env(REJOINING, "1"),
    );
    Err(err).with_context(|| format!("starting {} again", program.display()))
}
