//! A tournament survives its server being killed: the server program is stopped with SIGKILL
//! mid-tournament and started again on the same database; every match finished before is still
//! there, unchanged, the match cut off goes on from its log (its room is back with the moves
//! played before the kill), and the tournament completes once the bots are back.

mod common;

use std::time::Duration;

use common::ServerProcess;
use skirmish_games::gomoku;
use skirmish_protocol::{ClientMsg, GameView, RoomId, ServerMsg};
use skirmish_server::testing::TestClient;

use skirmish_protocol::tournament::{MatchState, TournamentState, TournamentStatus};
use tokio_util::sync::CancellationToken;

async fn start_server(port: u16, database: &str) -> ServerProcess {
    ServerProcess::start(port, database, &[]).await
}

/// The stones of the gomoku match in `room`, as a spectator sees them now; `None` when there is no
/// such room.
async fn moves_seen(url: &str, room: RoomId) -> Option<Vec<gomoku::Move>> {
    let (mut spectator, _) = TestClient::join(url, "spectator").await;
    match spectator.request(ClientMsg::Spectate { room }).await {
        ServerMsg::Error { .. } => return None,
        ServerMsg::Done { .. } => {}
        other => panic!("spectating: {other:?}"),
    }
    let snapshot = spectator
        .log
        .iter()
        .find_map(|m| match m {
            ServerMsg::Room(s) => Some(s.clone()),
            _ => None,
        })
        .expect("a snapshot before the answer");
    let GameView::Gomoku(view) = snapshot.view else {
        panic!("a gomoku view")
    };
    Some(view.moves)
}

async fn status(port: u16, id: &str) -> TournamentStatus {
    common::tournament_status(&format!("http://127.0.0.1:{port}"), id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_on_its_database_and_finishes_the_tournament() {
    let dir = std::env::temp_dir().join(format!("skirmish-restart-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    finishes_after_a_kill(dir.join("skirmish.db").to_str().expect("a UTF-8 path")).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same with the tournament, its matches, the accounts and the rooms' logs in PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_on_its_postgres_database_and_finishes_the_tournament() {
    let pg = common::postgres::Postgres::start().await;
    finishes_after_a_kill(&pg.database().await).await;
}

/// Registers the two entrants' bot accounts, `alpha` and `bravo`, in `store`: their tokens by name.
async fn register_entrants(
    store: &skirmish_server::store::Store,
) -> std::collections::HashMap<&'static str, skirmish_protocol::AccountToken> {
    let mut tokens = std::collections::HashMap::new();
    for name in ["alpha", "bravo"] {
        let issued = skirmish_server::accounts::register(store, name)
            .await
            .expect("registered");
        tokens.insert(name, issued.token);
    }
    tokens
}

/// Plays a tournament on a server storing in `database` (a SQLite path or a PostgreSQL URL),
/// killing the server mid-match.
async fn finishes_after_a_kill(database: &str) {
    let port = common::free_port();
    // The two entrants are bot accounts, registered in the database the server starts on.
    let store = skirmish_server::store::Store::connect(database)
        .await
        .expect("the database");
    let tokens = register_entrants(&store).await;
    store.close().await;
    drop(store);
    let mut server = start_server(port, database).await;

    // Two bots in this process, started again (as new connections of their accounts) whenever
    // the test stops them.
    let bots = || {
        let stop = CancellationToken::new();
        for name in ["alpha", "bravo"] {
            let mut options =
                skirmish_bots::client::BotOptions::new(format!("ws://127.0.0.1:{port}/ws"), name.to_owned());
            options.token = Some(tokens[name].clone());
            options.set_strategies(&["random".to_owned()]);
            tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
        }
        stop
    };
    let mut stop_bots = bots();
    let http = reqwest::Client::new();
    // Made once the bots are connected.
    let created = common::create_tournament(
        &format!("http://127.0.0.1:{port}"),
        serde_json::json!({
        "game": {"game": "gomoku", "size": 19},
        "entrants": [{"bot": "alpha", "strategy": "random"}, {"bot": "bravo", "strategy": "random"}],
        "games_per_pairing": 8,
        "parallel": 1,
        "grace_ms": 3000,
        "seed": 3,
            }),
    )
    .await;
    let id = created.summary.id.to_string();
    assert_eq!(created.summary.total, 16);

    // Once a few matches are over, the bots stop mid-match (random play is too quick to catch
    // otherwise); a spectator notes the stones of the match cut off, then the server is killed.
    let url = format!("ws://127.0.0.1:{port}/ws");
    let (before, room, moves) = loop {
        let now = status(port, &id).await;
        assert!(
            now.summary.finished < 16,
            "the tournament ended before a match could be cut off"
        );
        if now.summary.finished >= 3 {
            // Stop the bots in the middle of a running match that has stones on the board (one
            // cut off before its first stone would prove nothing).
            let running = |s: &TournamentStatus| {
                s.schedule
                    .iter()
                    .find_map(|m| m.room.filter(|_| m.state == MatchState::Running))
            };
            let playing = match running(&now) {
                Some(room) => moves_seen(&url, room).await.is_some_and(|m| !m.is_empty()),
                None => false,
            };
            if playing {
                stop_bots.cancel();
                tokio::time::sleep(Duration::from_millis(200)).await;
                let now = status(port, &id).await;
                let cut_off = match running(&now) {
                    Some(room) => moves_seen(&url, room).await.map(|moves| (room, moves)),
                    None => None,
                };
                if let Some((room, moves)) = cut_off.filter(|(_, moves)| !moves.is_empty()) {
                    // Nothing moves now; wait until the journal holds both seats, the start
                    // and every stone seen, which a SIGKILL cannot take back.
                    common::journaled(database, room, 3 + moves.len()).await;
                    server.kill();
                    break (now, room, moves);
                }
                // The match ended as the bots stopped (or the one running has no stone):
                // again with the next one.
                stop_bots = bots();
            }
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

    let _server = start_server(port, database).await;
    // The match cut off goes on from its log: its room is back at once, every stone where it was.
    let again = moves_seen(&url, room).await.expect("the match cut off is back");
    assert!(!moves.is_empty());
    assert_eq!(again, moves, "the match is where it was cut off");
    // Bots started afresh are new connections of the same accounts: the account's token takes the
    // restored match's seats back (the log names each seat's account), and they play it out.
    let stop_bots = bots();
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
    // The match cut off went on from its log, not from its start: its record begins with the
    // stones seen before the kill, and its accounts' bots came back and played it out.
    let cut_off = done
        .schedule
        .iter()
        .find(|m| m.id.0 == room.0)
        .expect("the match cut off");
    let result = cut_off.result.as_ref().expect("a result");
    assert!(
        result.forfeit.is_none(),
        "played out by the accounts' bots: {result:?}"
    );
    let record: skirmish_protocol::tournament::MatchRecord = http
        .get(format!("http://127.0.0.1:{port}/api/matches/{}", cut_off.id))
        .send()
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("a match record");
    let placed: Vec<gomoku::Point> = record
        .events
        .iter()
        .filter_map(|e| match e {
            skirmish_protocol::GameEvent::Gomoku(gomoku::Event::Placed { stone, .. }) => Some(stone.point),
            _ => None,
        })
        .collect();
    let seen: Vec<gomoku::Point> = moves.iter().map(|m| m.point).collect();
    assert!(placed.len() > seen.len(), "{placed:?}");
    assert_eq!(
        placed[..seen.len()],
        seen[..],
        "the match went on from where it was cut off"
    );
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
}

/// A server killed between making a match's room and writing its start leaves the room open in
/// the journal with no start in its log (in a cluster, the room waits for the directory before
/// seating its bots, so a `kill -9` lands there easily). Nothing of such a match was played: it
/// is played from its start when the tournament goes on, instead of showing as running for ever
/// in a room that never starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_cut_off_before_its_start_is_played_from_its_start() {
    use skirmish_protocol::tournament::{MatchId, MatchSummary, TournamentConfig, TournamentId};
    use skirmish_server::store::{JournalWrite, Store, StoredMatch, StoredRoom, StoredTournament};

    let store = Store::in_memory().await.expect("a database in memory");
    let tokens = register_entrants(&store).await;
    let config: TournamentConfig = serde_json::from_value(serde_json::json!({
        "game": {"game": "gomoku", "size": 15},
        "entrants": [{"bot": "alpha", "strategy": "random"}, {"bot": "bravo", "strategy": "random"}],
        "games_per_pairing": 2,
        "parallel": 1,
        "grace_ms": 3000,
        "seed": 5,
    }))
    .expect("a config");
    let matches: Vec<StoredMatch> = [vec![0, 1], vec![1, 0]]
        .into_iter()
        .zip(0..)
        .map(|(seats, index)| StoredMatch {
            summary: MatchSummary {
                id: MatchId::random(),
                index,
                round: 0,
                seats,
                opening: None,
                deal: None,
                sealed: false,
                state: MatchState::Pending,
                room: None,
                result: None,
            },
        })
        .collect();
    let rooms: Vec<RoomId> = matches.iter().map(|m| RoomId(m.summary.id.0)).collect();
    let id = TournamentId::random();
    store
        .create_tournament(StoredTournament {
            id,
            config: config.clone(),
            seed_salt: "00".repeat(32),
            entrants: config.entrants.clone(),
            state: TournamentState::Running,
            created_ms: 1,
            matches,
        })
        .await
        .expect("stored");
    // Both matches were cut off before their start: the first with nothing in its log, the
    // second with one seat taken.
    let open = |room: RoomId| JournalWrite::Open {
        room: Box::new(StoredRoom {
            id: room,
            config: skirmish_protocol::RoomConfig {
                name: None,
                game: config.game.clone(),
                clock: config.clock,
                on_drop: None,
            },
            owner: skirmish_server::room::MATCH_OWNER,
            seed: [7; 32],
            entries: Vec::new(),
            unreadable: None,
        }),
        created_ms: 1,
    };
    let seated = JournalWrite::Append {
        room: rooms[1],
        n: 0,
        entry: skirmish_server::entry::Entry::Seated {
            seat: skirmish_games::Seat(0),
            player: skirmish_protocol::PlayerId::random(),
            name: "bravo".to_owned(),
            bot: Some("random".to_owned()),
            token: "0".repeat(64),
            took_over_from: None,
            account: Some("bravo".to_owned()),
            level: None,
        },
    };
    store
        .write_journal(std::sync::Arc::new(vec![open(rooms[0]), open(rooms[1]), seated]))
        .await
        .expect("written");

    let server = skirmish_server::testing::TestServer::start_with_store(
        skirmish_server::Limits::default(),
        store.clone(),
    )
    .await;
    let stop = CancellationToken::new();
    for name in ["alpha", "bravo"] {
        let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), name.to_owned());
        options.token = Some(tokens[name].clone());
        options.set_strategies(&["random".to_owned()]);
        tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    }
    let done = tokio::time::timeout(
        Duration::from_secs(60),
        common::tournament_over(&server.http_url(""), &id.to_string()),
    )
    .await
    .expect("the tournament finishes: no match is left running in a room that never starts");
    assert_eq!(done.summary.state, TournamentState::Finished);
    assert_eq!(done.summary.finished, 2);
    for m in &done.schedule {
        let result = m.result.as_ref().expect("a result");
        assert!(
            result.forfeit.is_none(),
            "match {} played by its bots: {result:?}",
            m.index
        );
    }
    // Neither log is left open: nothing of them is restored again.
    let open: Vec<RoomId> = store
        .open_rooms()
        .await
        .expect("read")
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert!(!open.iter().any(|r| rooms.contains(r)), "{open:?}");
    stop.cancel();
}
