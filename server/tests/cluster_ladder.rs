//! The standing ladders in a cluster: three real `skirmish-server` nodes on a real NATS and a
//! real PostgreSQL (common/cluster.rs), and one real `skirmish-bots play --ladder` process per
//! bot account, connected to nodes other than the one running the ladder. The test checks that
//! each ladder runs on exactly one node, named alike by every node; that the node running the
//! gomoku ladder seats and rates bots connected elsewhere; that when it is killed with SIGKILL
//! another node takes the ladder over within the lease and games go on, the games cut off going
//! on from their logs (or void), none counted twice or lost; that a node stopped with SIGTERM
//! hands its ladder over at once; that every node serves the same table; and that an account said hello to on two nodes is one entrant, never paired with
//! itself, while a stranger cannot join a ladder on any node.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::cluster::TestCluster;
use common::ladder::{
    BotProcess, bots_program, get_json as get, ladder_bot, ladder_status as ladder, register, seat_games,
    until_ladder as until,
};
use skirmish_protocol::ladder::{LadderId, LadderStatus, LadderSummary};
use skirmish_protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use skirmish_server::store::Store;
use skirmish_server::testing::TestClient;

/// Starts `skirmish-bots play` at `ws` in the gomoku freestyle ladder ([`ladder_bot`]).
fn bot(ws: &str, name: &str, token: &str, strategy: &str) -> BotProcess {
    ladder_bot(ws, name, token, "gomoku-freestyle", strategy, "1.0")
}

/// The node (index) each ladder runs on, once every live node in `live` names the same node for
/// every ladder (at most `secs` seconds).
async fn leases(cluster: &TestCluster, live: &[usize], secs: u64) -> HashMap<LadderId, usize> {
    let start = Instant::now();
    loop {
        let mut seen: Vec<Vec<Option<String>>> = Vec::new();
        for &i in live {
            let list: Vec<LadderSummary> = get(&cluster.http(i), "/api/ladders").await;
            assert_eq!(list.len(), 6, "six ladders on node{}", i + 1);
            seen.push(list.iter().map(|s| s.node.clone()).collect());
        }
        let agreed = seen.windows(2).all(|w| w[0] == w[1]);
        let held = seen[0].iter().all(|n| {
            n.as_deref()
                .and_then(|n| n.strip_prefix("node"))
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| live.contains(&(n - 1)))
        });
        if agreed && held {
            return LadderId::ALL
                .into_iter()
                .zip(&seen[0])
                .map(|(id, node)| {
                    let n: usize = node.as_deref().expect("held")[4..].parse().expect("a node");
                    (id, n - 1)
                })
                .collect();
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "the ladders never ran on one live node each, named alike by every node: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Ladder `ladder`'s games as the store holds them: (running, finished).
async fn stored_games(database: &str, ladder: LadderId) -> (Vec<String>, Vec<String>) {
    let store = Store::connect(database).await.expect("the database");
    let running = store
        .running_ladder_games(ladder)
        .await
        .expect("running games")
        .into_iter()
        .map(|g| g.id.to_string())
        .collect();
    let finished = store
        .finished_ladder_games(ladder, 0)
        .await
        .expect("finished games")
        .into_iter()
        .map(|g| g.id.to_string())
        .collect();
    store.close().await;
    (running, finished)
}

/// History points stored for ladder `ladder`, over all its entrants.
async fn history_points(database: &str, ladder: LadderId, status: &LadderStatus) -> usize {
    let store = Store::connect(database).await.expect("the database");
    let mut points = 0;
    for row in &status.table {
        points += store
            .ladder_history(ladder, row.entrant.id)
            .await
            .expect("history")
            .len();
    }
    store.close().await;
    points
}

fn hello(token: Option<&str>, ladder: &str) -> ClientMsg {
    ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "twin".to_owned(),
        bot: Some(skirmish_protocol::BotOffer {
            games: [(skirmish_protocol::GameKind::Junqi, vec!["random".to_owned()])].into(),
            version: Some("1".to_owned()),
        }),
        resume: None,
        key: None,
        token: token.map(|t| serde_json::from_value(serde_json::json!(t)).expect("a token")),
        turn_view: Some(true),
        ladder: vec![ladder.to_owned()],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ladder_runs_on_one_node_and_moves_on_when_it_is_killed() {
    bots_program();
    let extra = [
        "--grace-ms",
        "4000",
        "--ladder-move-ms",
        "3000",
        "--ladder-pair-games-per-day",
        "1000",
    ];
    let mut cluster = TestCluster::start(3, &extra).await;
    let names = ["strong-a", "strong-b", "weak-a", "weak-b", "twin"];
    let tokens = register(&cluster.database, &names).await;

    // Each ladder runs on one node, and every node names the same one.
    let runs = leases(&cluster, &[0, 1, 2], 30).await;
    let gomoku = LadderId::GomokuFreestyle;
    let runner = runs[&gomoku];
    let others: Vec<usize> = (0..3).filter(|i| *i != runner).collect();
    let (a, b) = (others[0], others[1]);

    // Four accounts, none connected to the node running the ladder, two to each other node.
    let bots = vec![
        bot(&cluster.ws(a), "strong-a", &tokens["strong-a"], "threat-search"),
        bot(&cluster.ws(a), "weak-a", &tokens["weak-a"], "random"),
        bot(&cluster.ws(b), "strong-b", &tokens["strong-b"], "threat-search"),
        bot(&cluster.ws(b), "weak-b", &tokens["weak-b"], "random"),
    ];

    // A stranger cannot join a ladder on any node: no token, or a made-up one.
    for i in [a, b] {
        let mut stranger = TestClient::connect(&cluster.ws(i)).await;
        match stranger.request(hello(None, "junqi")).await {
            ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::LadderNeedsAccount),
            other => panic!("an anonymous bot joined a ladder: {other:?}"),
        }
        let mut liar = TestClient::connect(&cluster.ws(i)).await;
        match liar.request(hello(Some("not-a-token"), "junqi")).await {
            ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::BadToken),
            other => panic!("a made-up token joined a ladder: {other:?}"),
        }
    }
    // One account says hello to two nodes at once. The second connection replaces the first
    // (4009) when the first is in the directory by then, or both stay connected when it is not;
    // either way the account is one entrant of the junqi ladder, which has nobody else: it is
    // never paired with itself.
    let mut first = TestClient::connect(&cluster.ws(a)).await;
    let mut second = TestClient::connect(&cluster.ws(b)).await;
    let (one, two) = tokio::join!(
        first.request(hello(Some(&tokens["twin"]), "junqi")),
        second.request(hello(Some(&tokens["twin"]), "junqi")),
    );
    for welcome in [one, two] {
        assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    }

    // Games are played and rated by the node running the ladder, whose bots are all elsewhere.
    let before = until(&cluster.http(runner), "gomoku-freestyle", 90, "8 games", |s| {
        seat_games(s) >= 16
    })
    .await;
    assert_eq!(
        before.summary.node.as_deref(),
        Some(&*format!("node{}", runner + 1))
    );
    assert_eq!(
        before.table.len(),
        4,
        "one entrant per account: {:#?}",
        before.table
    );
    for i in 0..3 {
        let twin = until(
            &cluster.http(i),
            "junqi",
            20,
            "the twin listed once, present",
            |s| s.table.len() == 1 && s.table[0].present,
        )
        .await;
        assert_eq!(twin.table[0].entrant.bot, "twin");
        assert_eq!(twin.table[0].games, 0, "never paired with itself");
        assert_eq!(twin.summary.running, 0);
    }

    // Kill the node running the ladder while a game is running there.
    until(
        &cluster.http(runner),
        "gomoku-freestyle",
        30,
        "a running game",
        |s| s.summary.running > 0,
    )
    .await;
    cluster.kill(runner);
    let killed = Instant::now();
    let (cut_off, rated_before) = stored_games(&cluster.database, gomoku).await;
    assert!(!cut_off.is_empty(), "games were running at the kill");

    // Another node takes the ladder over within the lease, and games go on.
    let moved = leases(&cluster, &others, 30).await;
    assert_ne!(moved[&gomoku], runner);
    let taken = killed.elapsed();
    assert!(
        taken < skirmish_server::cluster::LEASE + Duration::from_secs(5),
        "taken over after {taken:?}"
    );
    let runner = moved[&gomoku];
    let games_before = before.summary.games;
    until(
        &cluster.http(runner),
        "gomoku-freestyle",
        90,
        "6 more games",
        |s| s.summary.games >= games_before + 6,
    )
    .await;
    // The games cut off went on from their logs (or, without one, are void): none still
    // running, none counted twice.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (running, _) = stored_games(&cluster.database, gomoku).await;
        let open: Vec<_> = cut_off.iter().filter(|g| running.contains(g)).collect();
        if open.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "games cut off never ended: {open:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The killed node comes back; then the node running the ladder now is stopped with SIGTERM:
    // it gives the ladder up as it goes, and another node takes it at once, not after the
    // lease. Its bots come back when it is started again, and games go on.
    let killed_node = cluster
        .nodes
        .iter()
        .position(Option::is_none)
        .expect("the killed node");
    cluster.restart(killed_node).await;
    let games_at_stop = ladder(&cluster.http(runner), "gomoku-freestyle")
        .await
        .summary
        .games;
    let stopping = Instant::now();
    assert!(cluster.terminate(runner), "node{} stops cleanly", runner + 1);
    let live: Vec<usize> = (0..3).filter(|i| *i != runner).collect();
    let handed = leases(&cluster, &live, 30).await;
    let handed_over = stopping.elapsed();
    assert_ne!(handed[&gomoku], runner);
    assert!(
        handed_over < skirmish_server::cluster::LEASE - Duration::from_secs(1),
        "a stopping node's ladder is taken at once, not after the lease: {handed_over:?}"
    );
    cluster.restart(runner).await;
    let runner = handed[&gomoku];
    until(
        &cluster.http(runner),
        "gomoku-freestyle",
        90,
        "4 more games after the stop",
        |s| s.summary.games >= games_at_stop + 4,
    )
    .await;

    // The bots stop; once no game runs, every node serves the same table, and every finished
    // game is counted exactly once.
    drop(bots);
    let last = until(
        &cluster.http(runner),
        "gomoku-freestyle",
        30,
        "no game running",
        |s| s.summary.running == 0,
    )
    .await;
    tokio::time::sleep(skirmish_server::ladder::REFRESH * 3).await;
    let last_after = ladder(&cluster.http(runner), "gomoku-freestyle").await;
    assert_eq!(last.summary.games, last_after.summary.games, "quiet");
    for i in (0..3).filter(|i| *i != runner) {
        let elsewhere = ladder(&cluster.http(i), "gomoku-freestyle").await;
        let rows = |s: &LadderStatus| {
            s.table
                .iter()
                .map(|r| {
                    (
                        r.entrant.clone(),
                        r.games,
                        r.wins,
                        r.losses,
                        r.rating,
                        r.deviation,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            rows(&elsewhere),
            rows(&last_after),
            "node{} serves the same table",
            i + 1
        );
        assert_eq!(elsewhere.summary.games, last_after.summary.games);
        assert_eq!(elsewhere.summary.node, last_after.summary.node);
    }
    let (running, finished) = stored_games(&cluster.database, gomoku).await;
    assert!(running.is_empty(), "{running:?}");
    for id in &rated_before {
        assert!(finished.contains(id), "game {id}, rated before the kill, is kept");
    }
    assert_eq!(
        u64::from(seat_games(&last_after)),
        2 * finished.len() as u64,
        "each stored game counted once per seat"
    );
    assert_eq!(last_after.summary.games, finished.len() as u64);
    assert_eq!(
        history_points(&cluster.database, gomoku, &last_after).await,
        2 * finished.len(),
        "one history point per seat and game"
    );
    let cut_off_finished = cut_off.iter().filter(|g| finished.contains(g)).count();
    eprintln!(
        "{} games rated, {} cut off by the kill of which {cut_off_finished} played out, taken over after {taken:?} (kill), {handed_over:?} (SIGTERM)",
        finished.len(),
        cut_off.len()
    );
    // Every entrant played, and its deviation shrank from the start.
    let start = last_after.summary.provisional_deviation * 350.0 / 110.0;
    for r in &last_after.table {
        assert!(r.games > 0, "{} played", r.entrant.bot);
        assert!(r.deviation < start - 1e-6, "{}: ± {}", r.entrant.bot, r.deviation);
    }
    drop((first, second));
}
