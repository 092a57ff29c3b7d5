//! Tournaments over the network, end to end: a real server, bot programs started as processes
//! connecting over WebSockets, the `skirmish-bots tournament` command and the HTTP API.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use skirmish_protocol::tournament::{
    Dealing, MatchRecord, MatchState, MatchSummary, Standings, TournamentState, TournamentStatus,
};
use skirmish_protocol::{GameEvent, gomoku, plane};
use skirmish_server::testing::TestServer;

/// A bot process, killed when dropped.
struct Bot(Child);

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A bot program playing as the bot account `name`, registered here (entrants are accounts).
async fn bot(server: &TestServer, name: &str, strategies: &str, think_ms: u64) -> Bot {
    let token = server.account(name).await;
    let child = Command::new(env!("CARGO_BIN_EXE_skirmish-bots"))
        .env("SKIRMISH_BOT_TOKEN", token.expose())
        .args([
            "play",
            "--url",
            &server.ws_url(),
            "--name",
            name,
            "--strategies",
            strategies,
        ])
        .args(["--think-ms", &think_ms.to_string(), "--log", "warn"])
        .stdout(Stdio::null())
        .spawn()
        .expect("the bot program starts");
    Bot(child)
}

fn http() -> reqwest::Client {
    reqwest::Client::new()
}

async fn get<T: serde::de::DeserializeOwned>(server: &TestServer, path: &str) -> T {
    let response = http()
        .get(server.http_url(path))
        .send()
        .await
        .expect("the server answers");
    assert!(response.status().is_success(), "{path}: {}", response.status());
    response.json().await.expect("JSON of the API's shape")
}

/// Waits until `count` bots are connected.
async fn wait_for_bots(server: &TestServer, count: usize) {
    for _ in 0..200 {
        let bots: Vec<serde_json::Value> = get(server, "/api/bots").await;
        if bots.len() >= count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{count} bots never connected");
}

async fn create(server: &TestServer, config: serde_json::Value) -> TournamentStatus {
    let response = http()
        .post(server.http_url("/api/tournaments"))
        .bearer_auth(skirmish_server::testing::TestServer::TOURNAMENT_KEY)
        .json(&config)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 201, "{:?}", response.text().await);
    response.json().await.expect("a status")
}

async fn wait_finished(server: &TestServer, id: &str, limit: Duration) -> TournamentStatus {
    let start = std::time::Instant::now();
    loop {
        let status: TournamentStatus = get(server, &format!("/api/tournaments/{id}")).await;
        if status.summary.state != TournamentState::Running {
            return status;
        }
        assert!(
            start.elapsed() < limit,
            "not finished after {limit:?}: {}/{}",
            status.summary.finished,
            status.summary.total
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The points each entrant scored, summed from the matches themselves, and the check that every
/// match's stored record ends with the result the schedule shows.
async fn points_from_records(server: &TestServer, status: &TournamentStatus) -> HashMap<usize, f64> {
    let mut points = HashMap::new();
    for m in &status.schedule {
        let record: MatchRecord = get(server, &format!("/api/matches/{}", m.id)).await;
        let result = m.result.as_ref().expect("a finished match has a result");
        let from_record: Vec<f64> = match record.events.last().expect("events") {
            GameEvent::Plane(plane::Event::MatchEnded { outcome }) => {
                outcome.totals.0.iter().map(|p| f64::from(*p)).collect()
            }
            GameEvent::Gomoku(gomoku::Event::Ended { outcome }) => (0..2)
                .map(|s| match outcome.winner {
                    Some(w) if w.index() == s => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                })
                .collect(),
            other => panic!("a match record ends with its end, not {other:?}"),
        };
        assert_eq!(from_record, result.points, "match {} record and result", m.index);
        for (seat, entrant) in m.seats.iter().enumerate() {
            *points.entry(*entrant).or_insert(0.0) += from_record[seat];
        }
    }
    points
}

/// Every finished match counted once, and each entrant's line adds up.
fn check_standings(
    standings: &Standings,
    schedule: &[MatchSummary],
    seats: usize,
    points: &HashMap<usize, f64>,
) {
    assert!(schedule.iter().all(|m| m.state == MatchState::Finished));
    assert_eq!(standings.matches as usize, schedule.len());
    let played: u32 = standings.table.iter().map(|l| l.matches).sum();
    assert_eq!(
        played as usize,
        schedule.len() * seats,
        "each match counted once per seat"
    );
    for line in &standings.table {
        let in_schedule = schedule
            .iter()
            .filter(|m| m.seats.contains(&line.entrant))
            .count();
        assert_eq!(line.matches as usize, in_schedule);
        assert_eq!(line.wins + line.draws + line.losses, line.matches);
        assert_eq!(line.placings.iter().sum::<u32>(), line.matches);
        assert!((line.points - points[&line.entrant]).abs() < 1e-9, "{line:?}");
        assert!((line.score - (f64::from(line.wins) + f64::from(line.draws) / 2.0)).abs() < 1e-9);
        assert!(line.elo_low < line.elo && line.elo < line.elo_high);
    }
    let wins: u32 = standings.table.iter().map(|l| l.wins).sum();
    assert_eq!(
        wins as usize,
        schedule.len(),
        "one winner a match (no draws here)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_bot_programs_play_a_gomoku_and_a_three_player_plane_round_robin() {
    let server = TestServer::start().await;
    let _bots = [
        bot(&server, "alpha", "random", 50).await,
        bot(&server, "bravo", "bayes,threat-search", 50).await,
        bot(&server, "charlie", "seed-cv,seed-minimax", 50).await,
        bot(&server, "delta", "bayes,seed-minimax", 50).await,
    ];
    wait_for_bots(&server, 4).await;

    // Gomoku from the command line: every connected bot's strategy enters.
    let cli = tokio::process::Command::new(env!("CARGO_BIN_EXE_skirmish-bots"))
        .args(["tournament", "--server", &server.http_url(""), "--game", "gomoku"])
        .args(["--key", skirmish_server::testing::TestServer::TOURNAMENT_KEY])
        .args([
            "--move-ms",
            "5000",
            "--parallel",
            "6",
            "--seed",
            "7",
            "--json",
            "--log",
            "warn",
        ])
        .stderr(Stdio::null())
        .output();
    let output = tokio::time::timeout(Duration::from_secs(300), cli)
        .await
        .expect("the tournament ends within 5 minutes")
        .expect("the command runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let standings: Standings = serde_json::from_slice(&output.stdout).expect("standings as JSON");
    assert_eq!(standings.state, TournamentState::Finished);
    assert_eq!(standings.entrants.len(), 4);
    let status: TournamentStatus = get(&server, &format!("/api/tournaments/{}", standings.tournament)).await;
    assert_eq!(status.schedule.len(), 6 * 2, "every pair, both colours");
    let points = points_from_records(&server, &status).await;
    check_standings(&standings, &status.schedule, 2, &points);

    // Three-player plane battle over the API: every triple in all six seat orders.
    let created = create(
        &server,
        serde_json::json!({
            "game": {"game": "plane", "players": 3, "format": {"rounds": 2}},
            "clock": {"deploy_ms": 5000, "move_ms": 5000},
            "parallel": 8,
            "seed": 11,
        }),
    )
    .await;
    assert_eq!(created.summary.total, 4 * 6);
    let id = created.summary.id.to_string();
    let status = wait_finished(&server, &id, Duration::from_secs(300)).await;
    assert_eq!(status.summary.state, TournamentState::Finished);
    let standings: Standings = get(&server, &format!("/api/tournaments/{id}/standings")).await;
    let points = points_from_records(&server, &status).await;
    check_standings(&standings, &status.schedule, 3, &points);
    // Four entrants cannot fill two 3-seat tables: duplicate is not possible, so every match
    // is dealt fresh boards of its own (never replayed to an entrant who saw them).
    assert!(
        matches!(status.dealing, Dealing::Fresh { .. }),
        "{:?}",
        status.dealing
    );
    let deals: std::collections::HashSet<Option<u32>> = status.schedule.iter().map(|m| m.deal).collect();
    assert_eq!(deals.len(), status.schedule.len(), "a deal of its own per match");
    assert!(!deals.contains(&None));
    let deployments = |record: &MatchRecord| -> Vec<(u8, Vec<plane::Placement>)> {
        record
            .events
            .iter()
            .filter_map(|e| match e {
                GameEvent::Plane(plane::Event::Deployment { seat, planes }) => Some((seat.0, planes.clone())),
                _ => None,
            })
            .take(3)
            .collect()
    };
    let first: MatchRecord = get(&server, &format!("/api/matches/{}", status.schedule[0].id)).await;
    let second: MatchRecord = get(&server, &format!("/api/matches/{}", status.schedule[1].id)).await;
    assert_ne!(deployments(&first), deployments(&second));
    assert_eq!(deployments(&first).len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_killed_mid_match_loses_it_and_the_tournament_finishes() {
    let server = TestServer::start().await;
    let _alpha = bot(&server, "alpha", "random", 50).await;
    let _bravo = bot(&server, "bravo", "random", 50).await;
    // The victim thinks a while on each stone, so its matches last seconds.
    let mut victim = bot(&server, "victim", "threat-search", 300).await;
    wait_for_bots(&server, 3).await;
    let created = create(
        &server,
        serde_json::json!({
            "game": {"game": "gomoku", "size": 15},
            "clock": {"move_ms": 5000},
            "grace_ms": 1000,
            "parallel": 2,
        }),
    )
    .await;
    let id = created.summary.id.to_string();
    let victim_index = created
        .summary
        .entrants
        .iter()
        .position(|e| e.bot == "victim")
        .expect("the victim entered");
    // Kill it while one of its matches is being played.
    let killed_in = loop {
        let status: TournamentStatus = get(&server, &format!("/api/tournaments/{id}")).await;
        if let Some(m) = status
            .schedule
            .iter()
            .find(|m| m.state == MatchState::Running && m.seats.contains(&victim_index))
        {
            victim.0.kill().expect("kill the bot");
            break m.id;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let status = wait_finished(&server, &id, Duration::from_secs(120)).await;
    assert_eq!(status.summary.state, TournamentState::Finished);
    assert!(status.schedule.iter().all(|m| m.state == MatchState::Finished));
    let lost = status
        .schedule
        .iter()
        .find(|m| m.id == killed_in)
        .expect("the match");
    let result = lost.result.as_ref().expect("a result");
    let forfeit = result.forfeit.as_ref().expect("lost by forfeit");
    assert_eq!(lost.seats[forfeit.seat.index()], victim_index);
    assert_eq!(forfeit.reason, "disconnected");
    assert_eq!(result.placings[forfeit.seat.index()], 2);
    // Its matches after that were lost too (it never came back); the others were played.
    for m in &status.schedule {
        let result = m.result.as_ref().expect("a result");
        match m.seats.iter().position(|e| *e == victim_index) {
            Some(seat) => assert_eq!(result.placings[seat], 2, "match {}: {result:?}", m.index),
            None => assert!(result.forfeit.is_none(), "match {}: {result:?}", m.index),
        }
    }
    let standings: Standings = get(&server, &format!("/api/tournaments/{id}/standings")).await;
    let line = standings
        .table
        .iter()
        .find(|l| l.entrant == victim_index)
        .expect("a line");
    assert_eq!(line.forfeits, line.losses, "{line:?}");
    assert!(line.forfeits >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_tournament_of_five_pairs_without_rematches_and_gives_byes_in_turn() {
    let server = TestServer::start().await;
    // Five bot accounts, bots-1 .. bots-5, each an entrant with `random` (an account has one
    // connection, so one program each).
    let mut bots = Vec::new();
    for i in 1..=5 {
        bots.push(bot(&server, &format!("bots-{i}"), "random", 50).await);
    }
    wait_for_bots(&server, 5).await;
    let created = create(
        &server,
        serde_json::json!({
            "game": {"game": "gomoku", "size": 15},
            "format": {"kind": "swiss"},
            "clock": {"move_ms": 5000},
            "seed": 5,
        }),
    )
    .await;
    assert_eq!(created.summary.entrants.len(), 5);
    // ⌈log2 5⌉ = 3 rounds of 2 pairings (both colours) and a bye.
    assert_eq!(created.summary.total, 3 * (2 * 2 + 1));
    let id = created.summary.id.to_string();
    let status = wait_finished(&server, &id, Duration::from_secs(120)).await;
    assert_eq!(status.summary.state, TournamentState::Finished);
    let mut pairs = std::collections::HashSet::new();
    let mut byes = std::collections::HashSet::new();
    for round in 0..3 {
        let matches: Vec<&MatchSummary> = status.schedule.iter().filter(|m| m.round == round).collect();
        let mut seen: Vec<usize> = matches.iter().flat_map(|m| m.seats.clone()).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(
            seen,
            vec![0, 1, 2, 3, 4],
            "round {round}: everyone plays or has the bye"
        );
        for m in &matches {
            match m.seats.as_slice() {
                [alone] => {
                    assert!(byes.insert(*alone), "a second bye for {alone}");
                    assert_eq!(m.result.as_ref().map(|r| r.end.as_str()), Some("bye"));
                }
                [a, b] if a < b => assert!(pairs.insert((*a, *b)), "{a} and {b} met twice"),
                [_, _] => {}
                other => panic!("a gomoku match of {other:?}"),
            }
        }
    }
    let standings: Standings = get(&server, &format!("/api/tournaments/{id}/standings")).await;
    let score: f64 = standings.table.iter().map(|l| l.score).sum();
    // Every game gives out one point, and every bye one.
    assert!((score - 15.0).abs() < 1e-9, "{score}");
}

/// Posts `config` to make a tournament, with `key` or as a stranger: the status and the body.
async fn post_tournament(
    server: &TestServer,
    key: Option<&str>,
    config: &serde_json::Value,
) -> (u16, String) {
    let mut request = http().post(server.http_url("/api/tournaments")).json(config);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.expect("the server answers");
    (response.status().as_u16(), response.text().await.expect("a body"))
}

fn code_of(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).expect("JSON");
    value["code"].as_str().expect("a code").to_owned()
}

#[tokio::test]
async fn an_open_server_bounds_the_tournaments_of_each_address_and_of_the_node() {
    let server = TestServer::start_with(skirmish_server::Limits {
        open_tournaments: true,
        tournaments_per_address: 1,
        max_tournaments: 2,
        ..skirmish_server::Limits::default()
    })
    .await;
    let _bots = [
        bot(&server, "alpha", "random", 50).await,
        bot(&server, "bravo", "random", 50).await,
    ];
    wait_for_bots(&server, 2).await;
    // Long enough to be running throughout: 100 games a pairing, one at a time.
    let long = serde_json::json!({
        "game": {"game": "gomoku"},
        "clock": {"deploy_ms": 5000, "move_ms": 5000},
        "games_per_pairing": 100,
        "parallel": 1,
    });
    // Ten requests at once from one address: one tournament is made, the others refused.
    let answers =
        futures_util::future::join_all((0..10).map(|_| post_tournament(&server, None, &long))).await;
    let made: Vec<&(u16, String)> = answers.iter().filter(|(status, _)| *status == 201).collect();
    let statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    assert_eq!(made.len(), 1, "one tournament for the address: {statuses:?}");
    for (status, body) in answers.iter().filter(|(status, _)| *status != 201) {
        assert_eq!(
            (*status, code_of(body).as_str()),
            (429, "too_many_tournaments_from_address")
        );
    }
    let own: TournamentStatus = serde_json::from_str(&made[0].1).unwrap();
    let (status, body) = post_tournament(&server, None, &long).await;
    assert_eq!(
        (status, code_of(&body).as_str()),
        (429, "too_many_tournaments_from_address"),
        "{body}"
    );
    let key = Some(TestServer::TOURNAMENT_KEY);
    let (status, body) = post_tournament(&server, key, &long).await;
    assert_eq!(status, 201, "a key's holder is not counted per address: {body}");
    let keyed: TournamentStatus = serde_json::from_str(&body).unwrap();
    let (status, body) = post_tournament(&server, key, &long).await;
    assert_eq!(
        (status, code_of(&body).as_str()),
        (429, "too_many_tournaments"),
        "{body}"
    );
    let list: Vec<serde_json::Value> = get(&server, "/api/tournaments").await;
    assert_eq!(list.len(), 2, "nothing was made by the refused requests");

    // A stranger cancels only what its address made.
    let cancel = |id: String| http().post(server.http_url(&format!("/api/tournaments/{id}/cancel")));
    let response = cancel(keyed.summary.id.to_string()).send().await.unwrap();
    assert_eq!(response.status(), 401);
    let response = cancel(own.summary.id.to_string()).send().await.unwrap();
    assert_eq!(response.status(), 200, "{:?}", response.text().await);
    // Once its tournament is over, the address may make another.
    let (status, body) = post_tournament(&server, None, &long).await;
    assert_eq!(status, 201, "{body}");
    let again: TournamentStatus = serde_json::from_str(&body).unwrap();
    for id in [again.summary.id, keyed.summary.id] {
        let response = http()
            .post(server.http_url(&format!("/api/tournaments/{id}/cancel")))
            .bearer_auth(TestServer::TOURNAMENT_KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
}
