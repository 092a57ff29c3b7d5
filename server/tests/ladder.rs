//! The standing ladders with real programs: the `skirmish-server` program on a SQLite file and
//! one `skirmish-bots play --ladder` process per bot account. Four accounts play the gomoku
//! freestyle ladder (two with `threat-search`, two with `random`) and three the 3-player plane
//! battle ladder; the server is killed with SIGKILL mid-game and started again on its file. The
//! test checks that every entrant's deviation shrank, the stronger strategy ranks above the
//! weaker, no game is counted twice or lost across the kill (the games cut off go on from their
//! logs), a new version of a bot starts provisional beside the old one, and a stranger can
//! neither join a ladder nor change one.

mod common;

use std::time::{Duration, Instant};

use common::ServerProcess;
use common::ladder::{
    BotProcess, bots_program, get_json, ladder_bot, ladder_status, register, seat_games, until_ladder,
};
use skirmish_protocol::ladder::{EntrantDetail, LadderRow, LadderStatus, LadderSummary};
use skirmish_protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use skirmish_server::testing::TestClient;

fn base(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

/// Starts `skirmish-bots play` on the server at `port` ([`ladder_bot`]).
fn bot(port: u16, name: &str, token: &str, ladder: &str, strategy: &str, version: &str) -> BotProcess {
    ladder_bot(
        &format!("ws://127.0.0.1:{port}/ws"),
        name,
        token,
        ladder,
        strategy,
        version,
    )
}

async fn get<T: serde::de::DeserializeOwned>(port: u16, path: &str) -> T {
    get_json(&base(port), path).await
}

async fn ladder(port: u16, id: &str) -> LadderStatus {
    ladder_status(&base(port), id).await
}

async fn until(
    port: u16,
    id: &str,
    secs: u64,
    what: &str,
    ready: impl Fn(&LadderStatus) -> bool,
) -> LadderStatus {
    until_ladder(&base(port), id, secs, what, ready).await
}

/// Each ladder game's state in the SQLite file at `database`, as another program reads it.
fn game_states(database: &str) -> Vec<(String, String, String)> {
    let db = rusqlite::Connection::open(database).expect("the database opens");
    let mut query = db
        .prepare("SELECT id, ladder, state FROM ladder_games ORDER BY created_ms")
        .expect("a query");
    query
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("rows")
        .map(|r| r.expect("a row"))
        .collect()
}

/// History points stored per game in `database`.
fn history_points(database: &str, game: &str) -> i64 {
    let db = rusqlite::Connection::open(database).expect("the database opens");
    db.query_row(
        "SELECT COUNT(*) FROM ladder_history WHERE game = ?1",
        [game],
        |r| r.get(0),
    )
    .expect("a count")
}

fn row<'a>(status: &'a LadderStatus, bot: &str, version: &str) -> &'a LadderRow {
    status
        .table
        .iter()
        .find(|r| r.entrant.bot == bot && r.entrant.version == version)
        .unwrap_or_else(|| panic!("{bot} {version} in {:#?}", status.table))
}

/// The stronger strategy ranks above the weaker: both threat-search accounts above both random
/// ones, by rank and by rating.
fn strong_above_weak(status: &LadderStatus) {
    let ranked: Vec<String> = status
        .table
        .iter()
        .map(|r| {
            format!(
                "{}/{} {:.0}±{:.0} {}/{}/{} forfeits {:?}",
                r.entrant.bot,
                r.entrant.strategy,
                r.rating,
                r.deviation,
                r.wins,
                r.draws,
                r.losses,
                r.forfeits
            )
        })
        .collect();
    let ranked: Vec<&str> = ranked.iter().map(String::as_str).collect();
    let rank = |bot: &str| {
        ranked
            .iter()
            .position(|b| b.starts_with(&format!("{bot}/")))
            .expect("ranked")
    };
    for strong in ["strong-a", "strong-b"] {
        for weak in ["weak-a", "weak-b"] {
            assert!(rank(strong) < rank(weak), "{strong} above {weak}: {ranked:?}");
            assert!(
                row(status, strong, "1.0").rating > row(status, weak, "1.0").rating,
                "{strong} rated above {weak}"
            );
        }
    }
}

/// A second, independent run of the gomoku ladder (the pairing's shuffle and the bots' play
/// drawn afresh): the order of the strategies is the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stronger_strategy_ranks_above_on_a_second_run() {
    let dir = std::env::temp_dir().join(format!("skirmish-ladder-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let database = dir.join("skirmish.db").to_str().expect("a UTF-8 path").to_owned();
    let names = ["strong-a", "strong-b", "weak-a", "weak-b"];
    let tokens = register(&database, &names).await;
    let port = common::free_port();
    let _server = ServerProcess::start(port, &database, &["--ladder-pair-games-per-day", "1000"]).await;
    let _bots: Vec<BotProcess> = names
        .iter()
        .map(|name| {
            let strategy = if name.starts_with("strong") {
                "threat-search"
            } else {
                "random"
            };
            bot(port, name, &tokens[*name], "gomoku-freestyle", strategy, "1.0")
        })
        .collect();
    let status = until(port, "gomoku-freestyle", 90, "20 gomoku games", |s| {
        seat_games(s) >= 40
    })
    .await;
    strong_above_weak(&status);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ladders_rate_real_bots_through_a_kill() {
    let dir = std::env::temp_dir().join(format!("skirmish-ladder-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let database = dir.join("skirmish.db").to_str().expect("a UTF-8 path").to_owned();
    let gomoku = [
        ("strong-a", "threat-search"),
        ("strong-b", "threat-search"),
        ("weak-a", "random"),
        ("weak-b", "random"),
    ];
    let planes = [("pilot-a", "bayes"), ("pilot-b", "bayes"), ("pilot-c", "random")];
    let names: Vec<&str> = gomoku.iter().chain(&planes).map(|(name, _)| *name).collect();
    let tokens = register(&database, &names).await;
    bots_program();

    let port = common::free_port();
    let extra = [
        "--grace-ms",
        "8000",
        "--ladder-move-ms",
        "3000",
        "--ladder-deploy-ms",
        "5000",
        "--ladder-pair-games-per-day",
        "1000",
    ];
    let mut server = ServerProcess::start(port, &database, &extra).await;
    let start_bots = || -> Vec<BotProcess> {
        gomoku
            .iter()
            .map(|(name, strategy)| bot(port, name, &tokens[*name], "gomoku-freestyle", strategy, "1.0"))
            .chain(
                planes
                    .iter()
                    .map(|(name, strategy)| bot(port, name, &tokens[*name], "plane-3", strategy, "1.0")),
            )
            .collect()
    };
    let mut bots = start_bots();

    // A stranger: no token, no ladder; an unknown ladder is refused by name.
    let (mut stranger, _) = TestClient::join(&format!("ws://127.0.0.1:{port}/ws"), "watcher").await;
    drop(stranger);
    let hello = |token: Option<&str>, ladder: &str| ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "sneaky".to_owned(),
        bot: Some(skirmish_protocol::BotOffer {
            games: [(skirmish_protocol::GameKind::Gomoku, vec!["random".to_owned()])].into(),
            version: None,
        }),
        resume: None,
        key: None,
        token: token.map(|t| serde_json::from_value(serde_json::json!(t)).expect("a token")),
        turn_view: Some(true),
        ladder: vec![ladder.to_owned()],
    };
    stranger = TestClient::connect(&format!("ws://127.0.0.1:{port}/ws")).await;
    match stranger.request(hello(None, "gomoku-freestyle")).await {
        ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::LadderNeedsAccount),
        other => panic!("an anonymous bot joined a ladder: {other:?}"),
    }
    let mut other = TestClient::connect(&format!("ws://127.0.0.1:{port}/ws")).await;
    match other
        .request(hello(Some("not-a-token"), "gomoku-freestyle"))
        .await
    {
        ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::BadToken),
        other => panic!("a made-up token joined a ladder: {other:?}"),
    }
    drop((stranger, other));
    // Nothing over HTTP changes a ladder.
    let http = reqwest::Client::new();
    for path in [
        "/api/ladders",
        "/api/ladders/gomoku-freestyle",
        "/api/ladders/gomoku-freestyle/entrants/1",
    ] {
        let refused = http
            .post(format!("http://127.0.0.1:{port}{path}"))
            .body("{}")
            .send()
            .await
            .expect("an answer");
        assert_eq!(
            refused.status(),
            reqwest::StatusCode::METHOD_NOT_ALLOWED,
            "POST {path}"
        );
    }
    let unknown = reqwest::get(format!("http://127.0.0.1:{port}/api/ladders/chess"))
        .await
        .expect("an answer");
    assert_eq!(unknown.status(), reqwest::StatusCode::NOT_FOUND);
    let body: serde_json::Value = unknown.json().await.expect("JSON");
    assert_eq!(body["code"], "no_such_ladder");

    // Play until both ladders have games, then kill the server while gomoku games are running.
    until(port, "gomoku-freestyle", 60, "12 gomoku games", |s| {
        seat_games(s) >= 24
    })
    .await;
    until(port, "plane-3", 60, "a plane battle game", |s| seat_games(s) >= 3).await;
    // A plane battle game lasts seconds: one is surely still running at the kill.
    until(port, "plane-3", 30, "a running plane battle game", |s| {
        s.summary.running > 0
    })
    .await;
    let before = ladder(port, "gomoku-freestyle").await;
    server.kill();
    let cut_off: Vec<String> = game_states(&database)
        .into_iter()
        .filter(|(_, _, state)| state == "running")
        .map(|(id, _, _)| id)
        .collect();
    assert!(!cut_off.is_empty(), "games were running at the kill");
    let rated_before: Vec<String> = game_states(&database)
        .into_iter()
        .filter(|(_, _, state)| state == "finished")
        .map(|(id, _, _)| id)
        .collect();

    // The bots reconnect by themselves; the games cut off go on from their logs.
    let _server = ServerProcess::start(port, &database, &extra).await;
    let after = until(port, "gomoku-freestyle", 60, "8 more gomoku games", |s| {
        s.summary.games >= before.summary.games + 8
    })
    .await;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let states = game_states(&database);
        let open: Vec<_> = states
            .iter()
            .filter(|(id, _, state)| cut_off.contains(id) && state == "running")
            .collect();
        if open.is_empty() {
            // Played out from its log; or void, a game killed before its match had started
            // (nothing of it was played, so nothing is lost), but not all of them.
            let ends: Vec<&str> = cut_off
                .iter()
                .map(|id| {
                    let (_, _, state) = states.iter().find(|(g, _, _)| g == id).expect("still stored");
                    state.as_str()
                })
                .collect();
            assert!(
                ends.iter().all(|s| matches!(*s, "finished" | "void")) && ends.contains(&"finished"),
                "the games cut off by the kill were played out from their logs: {cut_off:?} {ends:?}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "games cut off never finished: {open:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // No game counted twice or lost: every finished game has one history point per seat, every
    // game finished before the kill is still finished, and the entrants' counts add up to the
    // stored games.
    let states = game_states(&database);
    for id in &rated_before {
        assert!(
            states.iter().any(|(g, _, s)| g == id && s == "finished"),
            "game {id} kept"
        );
    }
    for (ladder_id, seats) in [("gomoku-freestyle", 2), ("plane-3", 3)] {
        let status = ladder(port, ladder_id).await;
        let finished: Vec<_> = game_states(&database)
            .into_iter()
            .filter(|(_, l, s)| l == ladder_id && s == "finished")
            .collect();
        let now = ladder(port, ladder_id).await;
        // Between the two reads a game may end: compare with the later count.
        let counted = u64::from(seat_games(&now)) / seats;
        assert!(
            counted >= finished.len() as u64
                && counted <= finished.len() as u64 + u64::from(now.summary.running),
            "{ladder_id}: {counted} games counted, {} stored",
            finished.len()
        );
        for (id, _, _) in &finished {
            assert_eq!(
                history_points(&database, id),
                i64::from(u32::try_from(seats).unwrap()),
                "game {id}"
            );
        }
        // Every entrant's deviation shrank from the start.
        let start = status.summary.provisional_deviation * 350.0 / 110.0;
        for r in &status.table {
            assert!(r.games > 0, "{} played", r.entrant.bot);
            assert!(
                r.deviation < start - 1e-6,
                "{}: {} ± {}",
                r.entrant.bot,
                r.rating,
                r.deviation
            );
        }
    }
    strong_above_weak(&after);

    // An entrant's page: its history (one point per game), head-to-head, and recent games whose
    // replays are served.
    let strong = row(&after, "strong-a", "1.0").entrant.id;
    let detail: EntrantDetail = get(port, &format!("/api/ladders/gomoku-freestyle/entrants/{strong}")).await;
    assert!(!detail.history.is_empty());
    assert!(detail.history.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    assert!(detail.head_to_head.iter().all(|h| h.opponent.bot != "strong-a"));
    // Two seats: one opponent per game (a game may end between the table's read and the games').
    let met: u32 = detail.head_to_head.iter().map(|h| h.games).sum();
    assert!(
        met == detail.row.games || met == detail.row.games + 1,
        "{met} games head to head, {} rated",
        detail.row.games
    );
    assert_eq!(detail.history.len(), met as usize, "one history point per game");
    let game = &detail.recent[0];
    let replay: serde_json::Value = get(port, &format!("/api/matches/{}", game.id)).await;
    assert_eq!(replay["kind"], "casual");

    // A new version of strong-a: a new entrant, provisional, with the starting rating; the old
    // version stays listed with its rating.
    drop(bots.remove(0));
    bots.push(bot(
        port,
        "strong-a",
        &tokens["strong-a"],
        "gomoku-freestyle",
        "threat-search",
        "2.0",
    ));
    let fresh = until(port, "gomoku-freestyle", 20, "strong-a 2.0 listed", |s| {
        s.table
            .iter()
            .any(|r| r.entrant.bot == "strong-a" && r.entrant.version == "2.0")
    })
    .await;
    let new = row(&fresh, "strong-a", "2.0");
    assert!(new.provisional, "a new version starts provisional");
    assert!(new.games <= 1);
    let old = row(&fresh, "strong-a", "1.0");
    assert!(old.games > 0 && old.rating > 1500.0);

    let list: Vec<LadderSummary> = get(port, "/api/ladders").await;
    assert_eq!(list.len(), 6);
    drop(bots);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The gomoku ladder on PostgreSQL (the cluster's storage) carries on through a SIGKILL of the
/// server too: every entrant's games, history points and the ladder's count of games agree after
/// the restart, and the ladder goes on rating new games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ladder_on_postgres_carries_on_through_a_kill() {
    let pg = common::postgres::Postgres::start().await;
    let database = pg.database().await;
    let names = ["strong-a", "weak-a", "weak-b"];
    let tokens = register(&database, &names).await;
    bots_program();
    let port = common::free_port();
    let extra = ["--grace-ms", "8000", "--ladder-pair-games-per-day", "1000"];
    let mut server = ServerProcess::start(port, &database, &extra).await;
    let _bots: Vec<BotProcess> = names
        .iter()
        .map(|name| {
            let strategy = if name.starts_with("strong") {
                "threat-search"
            } else {
                "random"
            };
            bot(port, name, &tokens[*name], "gomoku-freestyle", strategy, "1.0")
        })
        .collect();
    until(port, "gomoku-freestyle", 60, "6 games", |s| seat_games(s) >= 12).await;
    let before = until(port, "gomoku-freestyle", 20, "a running game", |s| {
        s.summary.running > 0
    })
    .await;
    server.kill();
    let _server = ServerProcess::start(port, &database, &extra).await;
    let after = until(port, "gomoku-freestyle", 60, "6 more games, none running", |s| {
        s.summary.games >= before.summary.games + 6
    })
    .await;
    // Each game counted once: two seats a game.
    let counted = u64::from(seat_games(&after));
    assert!(
        counted >= 2 * after.summary.games
            && counted <= 2 * (after.summary.games + u64::from(after.summary.running)),
        "{counted} seat-games for {} games",
        after.summary.games
    );
    for r in &after.table {
        let detail: EntrantDetail = get(
            port,
            &format!("/api/ladders/gomoku-freestyle/entrants/{}", r.entrant.id),
        )
        .await;
        assert!(
            detail.history.len() as u32 >= r.games && detail.history.len() as u32 <= r.games + 1,
            "{}: {} history points, {} games",
            r.entrant.bot,
            detail.history.len(),
            r.games
        );
    }
}

/// An entrant whose engine keeps failing is paused, and the table says why and until when; the
/// games it forfeited count as losses by `engine_failure`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_whose_engine_keeps_failing_is_paused_and_says_why() {
    let limits = skirmish_server::Limits {
        ladder_pause_after: 2,
        ladder_cooldown_ms: 3_600_000,
        ..skirmish_server::Limits::default()
    };
    let server = skirmish_server::testing::TestServer::start_with(limits).await;
    // A steady bot: the built-in random strategy, in process.
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "steady".into());
    options.token = Some(server.account("steady").await);
    options.strategies = [(skirmish_protocol::GameKind::Gomoku, vec!["random".to_owned()])].into();
    options.ladders = vec!["gomoku-freestyle".to_owned()];
    let stop = tokio_util::sync::CancellationToken::new();
    tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    // A broken one: it answers every turn by saying its engine failed.
    let token = server.account("broken").await;
    let mut broken = TestClient::connect(&server.ws_url()).await;
    let welcome = broken
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "broken".to_owned(),
            bot: Some(skirmish_protocol::BotOffer {
                games: [(skirmish_protocol::GameKind::Gomoku, vec!["flaky".to_owned()])].into(),
                version: Some("0.1".to_owned()),
            }),
            resume: None,
            key: None,
            token: Some(token),
            turn_view: Some(true),
            ladder: vec!["gomoku-freestyle".to_owned()],
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let failing = tokio::spawn(async move {
        while let Some(msg) = broken.try_recv().await {
            if let ServerMsg::YourTurn { room, seat, .. } = msg {
                broken
                    .send(ClientMsg::Forfeit {
                        room,
                        seat: Some(seat),
                        cause: skirmish_protocol::ForfeitCause::EngineFailure,
                        detail: Some("the engine crashed".to_owned()),
                    })
                    .await;
            }
        }
    });
    let port = server.addr.port();
    let paused = until(port, "gomoku-freestyle", 60, "the broken bot paused", |s| {
        s.table
            .iter()
            .any(|r| r.entrant.bot == "broken" && r.paused.is_some())
    })
    .await;
    let row = row(&paused, "broken", "0.1");
    let why = row.paused.as_ref().expect("paused");
    assert_eq!(
        why.reason,
        skirmish_protocol::tournament::ForfeitReason::EngineFailure
    );
    assert_eq!(why.in_a_row, 2);
    assert!(why.until_ms > row.last_seen_ms, "paused until later");
    assert!(row.forfeits.engine_failure >= 2 && row.losses >= 2, "{row:?}");
    // Paused, it is not paired: the count stays where it was.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let later = ladder(port, "gomoku-freestyle").await;
    let games = later
        .table
        .iter()
        .find(|r| r.entrant.bot == "broken")
        .map(|r| r.games);
    assert_eq!(games, Some(row.games), "a paused entrant is not paired");
    failing.abort();
    stop.cancel();
}
