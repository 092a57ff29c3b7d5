//! Helpers for the ladder tests (`ladder.rs`, `cluster_ladder.rs`): real `skirmish-bots play
//! --ladder` processes, bot accounts registered in the database, and the ladders' JSON API.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use skirmish_protocol::ladder::LadderStatus;
use skirmish_server::store::Store;

/// The `skirmish-bots` program beside the server's, built first if it is not there.
pub fn bots_program() -> PathBuf {
    let server = PathBuf::from(env!("CARGO_BIN_EXE_skirmish-server"));
    let path = server.with_file_name("skirmish-bots");
    if !path.is_file() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-p", "skirmish-bots"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "skirmish-bots builds");
    }
    path
}

/// A bot process, killed when dropped.
pub struct BotProcess(pub Child);

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `skirmish-bots play` at `ws` (a `ws://.../ws` URL) as account `name` (its `token`) in
/// `ladder`, offering `strategy` with 30 ms a move, declaring `version`.
pub fn ladder_bot(
    ws: &str,
    name: &str,
    token: &str,
    ladder: &str,
    strategy: &str,
    version: &str,
) -> BotProcess {
    let child = Command::new(bots_program())
        .args([
            "play",
            "--url",
            ws,
            "--name",
            name,
            "--ladder",
            ladder,
            "--strategies",
            strategy,
            "--think-ms",
            "30",
            "--bot-version",
            version,
        ])
        .env("SKIRMISH_BOT_TOKEN", token)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the bot program starts");
    BotProcess(child)
}

/// `GET {base}{path}` (`base` like `http://127.0.0.1:8080`), which must succeed, as JSON.
pub async fn get_json<T: serde::de::DeserializeOwned>(base: &str, path: &str) -> T {
    let response = reqwest::get(format!("{base}{path}"))
        .await
        .expect("the server answers");
    assert!(
        response.status().is_success(),
        "{base}{path}: {}",
        response.status()
    );
    response.json().await.expect("JSON")
}

/// Ladder `id`'s table as the server at `base` serves it.
pub async fn ladder_status(base: &str, id: &str) -> LadderStatus {
    get_json(base, &format!("/api/ladders/{id}")).await
}

/// Waits (at most `secs` seconds) until `ready` holds of ladder `id`'s table at `base`.
pub async fn until_ladder(
    base: &str,
    id: &str,
    secs: u64,
    what: &str,
    ready: impl Fn(&LadderStatus) -> bool,
) -> LadderStatus {
    let start = Instant::now();
    loop {
        let status = ladder_status(base, id).await;
        if ready(&status) {
            return status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "{what}: never, the ladder is {:#?} {:#?}",
            status.summary,
            status.table
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Games rated, by the entrants' counts: each game counts once per seat.
pub fn seat_games(status: &LadderStatus) -> u32 {
    status.table.iter().map(|r| r.games).sum()
}

/// Registers bot accounts `names` in the database at `database`; their tokens by name.
pub async fn register(database: &str, names: &[&str]) -> HashMap<String, String> {
    let store = Store::connect(database).await.expect("the database");
    let mut tokens = HashMap::new();
    for name in names {
        let issued = skirmish_server::accounts::register(&store, name)
            .await
            .expect("registered");
        tokens.insert((*name).to_owned(), issued.token.expose().to_owned());
    }
    store.close().await;
    tokens
}
