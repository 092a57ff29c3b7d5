//! `skirmish-server`: serves Skirmish, with a built-in pool of bots that connect to it over the
//! same protocol as any other client.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use tokio_util::sync::CancellationToken;
use tracing::info;

#[derive(Parser, Debug)]
#[command(version, about = "The Skirmish game server")]
struct Args {
    /// Address to listen on.
    #[arg(long, env = "SKIRMISH_ADDR", default_value = "127.0.0.1")]
    addr: IpAddr,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "SKIRMISH_PORT", default_value_t = 8080)]
    port: u16,
    /// Built-in bot connections to start (each plays many seats at once); 0 for none.
    #[arg(long, env = "SKIRMISH_BOTS", default_value_t = 2)]
    bots: usize,
    /// The web client's folder.
    #[arg(long, env = "SKIRMISH_WEB_ROOT")]
    web_root: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let args = Args::parse();
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.addr, args.port))
        .await
        .with_context(|| format!("binding {}:{}", args.addr, args.port))?;
    let local = listener.local_addr()?;
    info!(addr = %local, "listening: open http://{local}/");
    let shutdown = CancellationToken::new();
    let web_root = args.web_root.unwrap_or_else(skirmish_server::default_web_root);
    let server = tokio::spawn(skirmish_server::serve(listener, web_root, shutdown.clone()));
    let url = format!("ws://{local}/ws");
    let mut pool = Vec::new();
    for i in 0..args.bots {
        let options = skirmish_bots::client::BotOptions::new(url.clone(), format!("pool-{}", i + 1));
        let shutdown = shutdown.clone();
        pool.push(tokio::spawn(async move {
            skirmish_bots::client::run(options, shutdown).await
        }));
    }
    tokio::signal::ctrl_c().await.context("waiting for ctrl-c")?;
    info!("shutting down");
    shutdown.cancel();
    for bot in pool {
        let _ = bot.await;
    }
    server.await.context("server task")?.context("serving")?;
    Ok(())
}
