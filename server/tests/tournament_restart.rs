//! A tournament survives its server being killed: the server program is stopped with SIGKILL
//! mid-tournament and started again on the same database; every match finished before is still
//! there, unchanged, and the tournament completes once the bots are back.

mod common;

use std::time::Duration;

use common::ServerProcess;

use skirmish_protocol::tournament::{MatchState, TournamentState, TournamentStatus};
use tokio_util::sync::CancellationToken;

async fn start_server(port: u16, database: &std::path::Path) -> ServerProcess {
    ServerProcess::start(port, database, &[]).await
}

async fn status(port: u16, id: &str) -> TournamentStatus {
    common::tournament_status(&format!("http://127.0.0.1:{port}"), id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_on_its_database_and_finishes_the_tournament() {
    let port = common::free_port();
    let dir = std::env::temp_dir().join(format!("skirmish-restart-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let database = dir.join("skirmish.db");
    let mut server = start_server(port, &database).await;

    // Two bots in this process; they reconnect by themselves when the server comes back.
    let stop_bots = CancellationToken::new();
    for name in ["alpha", "bravo"] {
        let mut options =
            skirmish_bots::client::BotOptions::new(format!("ws://127.0.0.1:{port}/ws"), name.to_owned());
        options.set_strategies(&["random".to_owned()]);
        tokio::spawn(skirmish_bots::client::run(options, stop_bots.clone()));
    }
    let http = reqwest::Client::new();
    // Made once the bots are connected.
    let created = common::create_tournament(
        &format!("http://127.0.0.1:{port}"),
        serde_json::json!({
        "game": {"game": "gomoku", "size": 15},
        "entrants": [{"bot": "alpha", "strategy": "random"}, {"bot": "bravo", "strategy": "random"}],
        "games_per_pairing": 8,
        "parallel": 1,
        "grace_ms": 30000,
        "seed": 3,
            }),
    )
    .await;
    let id = created.summary.id.to_string();
    assert_eq!(created.summary.total, 16);

    // Kill the server once a few matches are over.
    let before = loop {
        let now = status(port, &id).await;
        if now.summary.finished >= 3 {
            server.kill();
            break now;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(before.summary.finished < 16, "killed mid-tournament");
    let finished_before: Vec<_> = before
        .schedule
        .iter()
        .filter(|m| m.state == MatchState::Finished)
        .cloned()
        .collect();

    let _server = start_server(port, &database).await;
    let restored = status(port, &id).await;
    for m in &finished_before {
        let again = restored
            .schedule
            .iter()
            .find(|r| r.id == m.id)
            .expect("the match is still there");
        assert_eq!(again.state, MatchState::Finished);
        assert_eq!(again.result, m.result, "match {} unchanged", m.index);
    }
    let done = common::tournament_over(&format!("http://127.0.0.1:{port}"), &id).await;
    assert_eq!(done.summary.state, TournamentState::Finished);
    assert_eq!(done.summary.finished, 16);
    assert!(
        done.schedule
            .iter()
            .all(|m| m.state == MatchState::Finished && m.result.is_some())
    );
    for m in &finished_before {
        let after = done.schedule.iter().find(|r| r.id == m.id).expect("still there");
        assert_eq!(after.result, m.result);
    }
    // The replays of matches from before the kill are kept too.
    let record = http
        .get(format!(
            "http://127.0.0.1:{port}/api/matches/{}",
            finished_before[0].id
        ))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(record.status(), 200);
    stop_bots.cancel();
    let _ = std::fs::remove_dir_all(&dir);
}
