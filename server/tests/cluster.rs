//! Several nodes as one server (issue 20): real `skirmish-server` nodes on a real NATS (with
//! JetStream) and a real PostgreSQL, started by the test (common/cluster.rs).

mod common;

use std::time::Duration;

use common::cluster::TestCluster;
use common::*;
use skirmish_games::plane::{self, Facing, Variant};
use skirmish_protocol::{ClientMsg, ErrorCode, RoomStatus, ServerMsg};
use skirmish_server::testing::TestClient;

fn match_ended(msg: &ServerMsg) -> Option<plane::Outcome> {
    match msg {
        ServerMsg::Event {
            event: skirmish_protocol::GameEvent::Plane(plane::Event::MatchEnded { outcome }),
            ..
        } => Some(outcome.clone()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_on_three_nodes_play_a_three_player_match_to_its_end() {
    let cluster = TestCluster::start(3, &[]).await;
    let (mut ann, _) = TestClient::join(&cluster.ws(0), "Ann").await;
    let (mut ben, _) = TestClient::join(&cluster.ws(1), "Ben").await;
    let (mut cat, _) = TestClient::join(&cluster.ws(2), "Cat").await;
    let room = create(&mut ann, room_config(Variant::Classic, 3, 1, NO_CLOCK), true).await;
    let summary = listed(&mut ben, room).await;
    assert_eq!(summary.status, RoomStatus::Waiting);
    listed(&mut cat, room).await;
    assert_eq!(join(&mut ben, room).await, skirmish_games::Seat(1));
    assert_eq!(join(&mut cat, room).await, skirmish_games::Seat(2));
    let (a, b, c) = tokio::join!(
        play_until_over(&mut ann, room, None),
        play_until_over(&mut ben, room, None),
        play_until_over(&mut cat, room, None),
    );
    assert_eq!(a, b, "every node tells the same outcome");
    assert_eq!(a, c);
    // Points as the rules count them (docs/rules.md): 1 a plane, 3 a knockout, summed per seat.
    assert_eq!(a.totals.0.len(), 3);
    // The finished room is the same on every node.
    let ServerMsg::Rooms { rooms, .. } = cat.request(ClientMsg::ListRooms).await else {
        panic!()
    };
    if let Some(r) = rooms.iter().find(|r| r.id == room) {
        assert_eq!(r.status, RoomStatus::Finished);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_stream_does_not_depend_on_hidden_boards_across_nodes() {
    let cluster = TestCluster::start(3, &[]).await;
    let urls = [cluster.ws(0), cluster.ws(1), cluster.ws(2)];
    let urls = [urls[0].as_str(), &urls[1], &urls[2]];
    let (seat0_a, seat1_a) = seat_zero_stream(urls, 0).await;
    let (seat0_b, seat1_b) = seat_zero_stream(urls, 1).await;
    assert!(seat0_a.len() > 10);
    let first_difference = seat0_a.iter().zip(&seat0_b).position(|(a, b)| a != b);
    assert_eq!(
        seat0_a,
        seat0_b,
        "seat 0, on another node, can tell the hidden boards apart; first difference at {first_difference:?}: {:?} against {:?}",
        first_difference.map(|i| &seat0_a[i]),
        first_difference.map(|i| &seat0_b[i]),
    );
    assert_ne!(
        seat1_a, seat1_b,
        "the test is blind: seat 1's own stream shows its own planes"
    );
    // Nothing of the hidden planes reached seat 0's node: no placement of theirs in its stream.
    for world in [&seat0_a, &seat0_b] {
        let mut seen = Vec::new();
        for v in world.iter() {
            placements_in(v, &mut seen);
        }
        assert!(
            seen.iter()
                .all(|p| [plane("C1", Facing::Up), plane("E6", Facing::Up)].contains(p)),
            "another seat's plane reached seat 0: {seen:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_on_two_nodes_fill_seats_in_a_room_on_the_third() {
    let cluster = TestCluster::start(3, &[]).await;
    let stop = tokio_util::sync::CancellationToken::new();
    let mut bots = Vec::new();
    for (node, name) in [(0, "bot-one"), (1, "bot-two")] {
        let mut options = skirmish_bots::client::BotOptions::new(cluster.ws(node), name.into());
        options.set_strategies(&["random".into()]);
        bots.push(tokio::spawn(skirmish_bots::client::run(options, stop.clone())));
    }
    let (mut owner, _) = TestClient::join(&cluster.ws(2), "Owner").await;
    // Node 3's lobby lists the bots of nodes 1 and 2.
    for _ in 0..400 {
        if matches!(owner.request(ClientMsg::ListBots).await, ServerMsg::Bots { ref bots, .. } if bots.len() == 2)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let ServerMsg::Bots {
        bots: listed_bots, ..
    } = owner.request(ClientMsg::ListBots).await
    else {
        panic!()
    };
    let mut names: Vec<_> = listed_bots.iter().map(|b| b.name.clone()).collect();
    names.sort();
    assert_eq!(names, ["bot-one", "bot-two"]);
    let room = create(&mut owner, room_config(Variant::Classic, 2, 2, NO_CLOCK), false).await;
    add_bots(&mut owner, room, 2, "random").await;
    let outcome = tokio::time::timeout(
        Duration::from_secs(120),
        owner.recv_until(|m| match_ended(m).is_some()),
    )
    .await
    .expect("the bots play the match to its end");
    assert!(match_ended(&outcome).is_some());
    let summary = listed(&mut owner, room).await;
    let mut occupants: Vec<_> = summary
        .seats
        .iter()
        .filter_map(|s| s.occupant.as_ref().map(|o| o.name.clone()))
        .collect();
    occupants.sort();
    assert_eq!(
        occupants,
        ["bot-one", "bot-two"],
        "one seat each, bots of two other nodes"
    );
    stop.cancel();
    for bot in bots {
        bot.await.unwrap().unwrap();
    }
}

/// The resume token a `welcome` gave.
fn token_of(welcome: &ServerMsg) -> skirmish_protocol::ResumeToken {
    match welcome {
        ServerMsg::Welcome { resume, .. } => resume.clone(),
        other => panic!("expected welcome, got {other:?}"),
    }
}

/// Ann on node 1 (which owns the room) and Ben on node 2 deploy; node 1 then goes (`kill -9`, or
/// SIGTERM when `graceful`); Ann resumes through node 3 with her token, and both play the match
/// to its end in the room another node took over from the journal.
async fn room_survives_its_node(graceful: bool) {
    let mut cluster = TestCluster::start(3, &[]).await;
    let (mut ann, welcome) = TestClient::join(&cluster.ws(0), "Ann").await;
    let token = token_of(&welcome);
    let (mut ben, _) = TestClient::join(&cluster.ws(1), "Ben").await;
    let room = create(&mut ann, room_config(Variant::Classic, 2, 3, NO_CLOCK), true).await;
    listed(&mut ben, room).await;
    join(&mut ben, room).await;
    // Sue watches from node 3, which is not the room's.
    let (mut sue, _) = TestClient::join(&cluster.ws(2), "Sue").await;
    listed(&mut sue, room).await;
    let reply = sue.request(ClientMsg::Spectate { room }).await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    your_turn(&mut ann).await;
    ann.send(deploy(room, vec![plane("C1", Facing::Up)])).await;
    event(
        &mut ann,
        |e| matches!(e, plane::Event::Ready { seat, .. } if seat.index() == 0),
    )
    .await;
    let ben_plays = tokio::spawn(async move { play_until_over(&mut ben, room, None).await });
    event(
        &mut ann,
        |e| matches!(e, plane::Event::Ready { seat, .. } if seat.index() == 1),
    )
    .await;
    let snapshots_before = sue.log.iter().filter(|m| matches!(m, ServerMsg::Room(_))).count();
    if graceful {
        assert!(cluster.terminate(0), "node 1 stops cleanly");
    } else {
        cluster.kill(0);
    }
    drop(ann);
    let (mut ann, welcome) = TestClient::resume(&cluster.ws(2), "Ann", token).await;
    let ServerMsg::Welcome { seats, .. } = &welcome else {
        panic!("{welcome:?}")
    };
    assert_eq!(
        seats.len(),
        1,
        "node 3 knows Ann's seat from the directory: {welcome:?}"
    );
    assert_eq!(seats[0].room, room);
    let ann_outcome = tokio::time::timeout(Duration::from_secs(90), play_until_over(&mut ann, room, None))
        .await
        .expect("Ann plays on");
    let ben_outcome = tokio::time::timeout(Duration::from_secs(90), ben_plays)
        .await
        .expect("Ben plays on")
        .unwrap();
    assert_eq!(ann_outcome, ben_outcome);
    // The spectator was given the room again where it went: a fresh snapshot, then the match
    // to its end, on the same connection.
    let watched = tokio::time::timeout(
        Duration::from_secs(30),
        sue.recv_until(|m| match_ended(m).is_some()),
    )
    .await
    .expect("the spectator sees the match end");
    assert_eq!(match_ended(&watched), Some(ann_outcome));
    let snapshots = sue.log.iter().filter(|m| matches!(m, ServerMsg::Room(_))).count();
    assert!(snapshots > snapshots_before, "a snapshot after the take-over");
    assert_eq!(sue.closed, None);
    // Ann's own plane, deployed before the take-over, is the one the room kept.
    let reveals: Vec<_> = ann
        .texts
        .iter()
        .filter(|t| t.contains(r#""type":"snapshot""#) || t.contains(r#""type":"room""#))
        .collect();
    assert!(
        !reveals.is_empty(),
        "Ann got a snapshot of the room after the take-over"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_room_is_taken_over_and_its_players_resume_anywhere() {
    room_survives_its_node(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_nodes_room_is_handed_over_and_its_players_resume_anywhere() {
    room_survives_its_node(true).await;
}

/// The tournament's status from the first live node that answers (`None` while none does): the
/// node running it, or another reading it from the shared store.
async fn tournament_anywhere(
    cluster: &TestCluster,
    id: &str,
) -> Option<skirmish_protocol::tournament::TournamentStatus> {
    for i in 0..cluster.ports.len() {
        if cluster.nodes[i].is_none() {
            continue;
        }
        let Ok(response) = reqwest::get(format!("{}/api/tournaments/{id}", cluster.http(i))).await else {
            continue;
        };
        if response.status() == 200 {
            return Some(response.json().await.expect("a status"));
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_over_the_nodes_finishes_through_a_kill_and_a_restart() {
    use skirmish_protocol::tournament::{MatchState, TournamentState};
    let mut cluster = TestCluster::start(3, &[]).await;
    let store = skirmish_server::store::Store::connect(&cluster.database)
        .await
        .expect("the database");
    let mut tokens = std::collections::HashMap::new();
    for name in ["alpha", "bravo", "charlie"] {
        let issued = skirmish_server::accounts::register(&store, name)
            .await
            .expect("registered");
        tokens.insert(name, issued.token);
    }
    // Each entrant's bot on a node of its own: alpha on node 2, bravo and charlie on node 3; the
    // tournament is made on node 1, which holds none of them.
    let stop = tokio_util::sync::CancellationToken::new();
    for (name, node) in [("alpha", 1), ("bravo", 2), ("charlie", 2)] {
        let mut options = skirmish_bots::client::BotOptions::new(cluster.ws(node), name.to_owned());
        options.token = Some(tokens[name].clone());
        options.set_strategies(&["random".to_owned()]);
        tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    }
    let created = create_tournament(
        &cluster.http(0),
        serde_json::json!({
            "game": {"game": "gomoku", "size": 15},
            "entrants": [
                {"bot": "alpha", "strategy": "random"},
                {"bot": "bravo", "strategy": "random"},
                {"bot": "charlie", "strategy": "random"}
            ],
            "games_per_pairing": 4,
            "parallel": 1,
            "grace_ms": 20000,
            "seed": 7,
        }),
    )
    .await;
    let id = created.summary.id.to_string();
    let total = created.summary.total;
    assert_eq!(total, 24);
    // Some matches are played, then the tournament's node is killed.
    let before = loop {
        let now = tournament_anywhere(&cluster, &id).await.expect("node 1 runs it");
        assert!(now.summary.finished < total, "over before the kill");
        if now.summary.finished >= 2 {
            break now;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    cluster.kill(0);
    // Another node takes it over and plays on; then node 2 (alpha's) is stopped and started
    // again, its bot coming back to it.
    let mut restarted = false;
    let started = std::time::Instant::now();
    let last = loop {
        // A tournament that never ends is a failure to report, not a test to wait on for ever.
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "the tournament did not finish within 240 s of the kill: {:?}",
            tournament_anywhere(&cluster, &id).await.map(|s| s.summary)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        let Some(now) = tournament_anywhere(&cluster, &id).await else {
            continue;
        };
        if !restarted && now.summary.finished > before.summary.finished {
            assert!(cluster.terminate(1), "node 2 stops cleanly");
            cluster.restart(1).await;
            restarted = true;
        }
        if restarted && now.summary.state != TournamentState::Running {
            break now;
        }
    };
    assert_eq!(last.summary.state, TournamentState::Finished);
    assert_eq!(last.summary.finished, total);
    assert!(
        last.schedule
            .iter()
            .all(|m| m.state == MatchState::Finished && m.result.is_some())
    );
    // The matches finished before the kill kept their results.
    for m in before.schedule.iter().filter(|m| m.state == MatchState::Finished) {
        let after = &last.schedule[m.index as usize];
        assert_eq!(
            after.result, m.result,
            "match {} changed after the take-over",
            m.index
        );
    }
    // Standings: every entrant played its 16 games, and the table adds up.
    let standings = skirmish_server::tournament::standings_of(&last);
    for row in &standings.table {
        assert_eq!(row.matches, 16, "entrant {}", row.entrant);
        assert_eq!(row.wins + row.draws + row.losses, 16);
    }
    let wins: u32 = standings.table.iter().map(|r| r.wins).sum();
    let losses: u32 = standings.table.iter().map(|r| r.losses).sum();
    assert_eq!(wins, losses);
    // Every live node tells the same finished tournament (the one running it, the other from
    // the shared store), and the same standings.
    for node in [1, 2] {
        let status = tournament_status(&cluster.http(node), &id).await;
        assert_eq!(
            status.summary.state,
            TournamentState::Finished,
            "node {}",
            node + 1
        );
        assert_eq!(status.schedule, last.schedule, "node {}", node + 1);
        let table: skirmish_protocol::tournament::Standings =
            reqwest::get(format!("{}/api/tournaments/{id}/standings", cluster.http(node)))
                .await
                .expect("the node answers")
                .json()
                .await
                .expect("standings");
        // (Elo's intervals are floating-point sums whose last digit may differ between two
        // computations of the same table: compared as the table's counts.)
        let counts = |t: &[skirmish_protocol::tournament::Standing]| {
            t.iter()
                .map(|r| {
                    (
                        r.rank, r.entrant, r.matches, r.wins, r.draws, r.losses, r.forfeits,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            counts(&table.table),
            counts(&standings.table),
            "node {}",
            node + 1
        );
    }
    // What the stored tournament says, read straight from PostgreSQL.
    let stored = store.tournaments().await.expect("read");
    let stored = stored.iter().find(|t| t.id.to_string() == id).expect("stored");
    assert_eq!(stored.state, TournamentState::Finished);
    stop.cancel();
}

/// The number of players node `i`'s lobby remembers (its `/metrics`).
async fn players_remembered(cluster: &TestCluster, i: usize) -> u64 {
    let text = reqwest::get(format!("{}/metrics", cluster.http(i)))
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    text.lines()
        .find_map(|l| l.strip_prefix("skirmish_players "))
        .and_then(|v| v.trim().parse().ok())
        .expect("a players gauge")
}

/// A stranger on another node who is refused seats and watches leaves nothing behind on the
/// room's node, and cannot act in a seat that is not theirs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_on_another_node_gains_nothing_and_leaves_nothing_behind() {
    let cluster = TestCluster::start(2, &[]).await;
    let (mut ann, _) = TestClient::join(&cluster.ws(0), "Ann").await;
    let (mut ben, _) = TestClient::join(&cluster.ws(0), "Ben").await;
    let room = create(&mut ann, room_config(Variant::Classic, 2, 1, NO_CLOCK), true).await;
    join(&mut ben, room).await;
    let before = players_remembered(&cluster, 0).await;
    let (mut eve, _) = TestClient::join(&cluster.ws(1), "Eve").await;
    listed(&mut eve, room).await;
    for _ in 0..20 {
        let refused = eve.request(ClientMsg::JoinRoom { room, seat: None }).await;
        assert!(
            matches!(
                &refused,
                ServerMsg::Error {
                    code: ErrorCode::RoomStarted,
                    ..
                }
            ),
            "{refused:?}"
        );
        assert!(matches!(
            eve.request(ClientMsg::Spectate { room }).await,
            ServerMsg::Done { .. }
        ));
        assert!(matches!(
            eve.request(ClientMsg::LeaveRoom { room }).await,
            ServerMsg::Done { .. }
        ));
    }
    // Eve, a spectator now, tries to deploy in Ann's seat: refused by the room, on its node.
    assert!(matches!(
        eve.request(ClientMsg::Spectate { room }).await,
        ServerMsg::Done { .. }
    ));
    let refused = eve.request(deploy(room, vec![plane("C1", Facing::Up)])).await;
    assert!(
        matches!(
            &refused,
            ServerMsg::Error {
                code: ErrorCode::NotSeated,
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        players_remembered(&cluster, 0).await,
        before,
        "the room's node remembers no one more"
    );
    // The match goes on for its players, unchanged.
    your_turn(&mut ann).await;
}

/// The bot entry `player` has in the directory's bots bucket on `nats`, as JSON (none: `None`).
async fn bot_entry(kv: &async_nats::jetstream::kv::Store, player: &str) -> Option<serde_json::Value> {
    let bytes = kv.get(player).await.expect("the bucket reads")?;
    Some(serde_json::from_slice(&bytes).expect("JSON"))
}

/// Waits (at most 10 s) until the directory names `node` for bot `player`.
async fn until_bot_entry_names(kv: &async_nats::jetstream::kv::Store, player: &str, node: &str) {
    for _ in 0..200 {
        if bot_entry(kv, player).await.is_some_and(|e| e["node"] == node) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the directory never named {node} for bot {player}: {:?}",
        bot_entry(kv, player).await
    );
}

/// Waits (at most 10 s) until `owner`'s node lists the bot named `steady`.
async fn until_listed(owner: &mut TestClient) {
    for _ in 0..200 {
        let bots = owner.request(ClientMsg::ListBots).await;
        if matches!(bots, ServerMsg::Bots { ref bots, .. } if bots.iter().any(|b| b.name == "steady")) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the other node never lists the bot");
}

/// A node whose bot moved to another node may write its own entry after the new node's (their
/// write queues are not ordered with each other), then delete it as its own: no node could seat
/// the bot while it stays connected. The node holding the bot writes its entry again when the
/// directory loses it or names another node, and the other nodes list the bot again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connected_bots_lost_or_overwritten_directory_entry_is_written_again() {
    let cluster = TestCluster::start(2, &[]).await;
    let mut bot = TestClient::connect(&cluster.ws(0)).await;
    let welcome = bot
        .request(bot_hello(
            "steady",
            skirmish_protocol::BotOffer {
                games: [(skirmish_protocol::GameKind::Plane, vec!["random".to_owned()])].into(),
                version: None,
            },
            None,
        ))
        .await;
    let ServerMsg::Welcome { player, .. } = welcome else {
        panic!("{welcome:?}")
    };
    let player = player.to_string();
    let client = async_nats::connect(cluster.nats.url()).await.expect("NATS");
    let kv = async_nats::jetstream::new(client)
        .get_key_value("skirmish_bots")
        .await
        .expect("the bots bucket");
    until_bot_entry_names(&kv, &player, "node1").await;
    let (mut owner, _) = TestClient::join(&cluster.ws(1), "Owner").await;
    until_listed(&mut owner).await;

    // The entry is deleted behind the node's back: it comes back.
    kv.delete(&player).await.expect("deleted");
    until_bot_entry_names(&kv, &player, "node1").await;

    // Another node's older write lands over it: the entry names node1 again.
    let mut stale = bot_entry(&kv, &player).await.expect("the entry");
    stale["node"] = serde_json::json!("node2");
    kv.put(&player, serde_json::to_vec(&stale).expect("JSON").into())
        .await
        .expect("written");
    until_bot_entry_names(&kv, &player, "node1").await;
    until_listed(&mut owner).await;

    // A bot that leaves is not written back.
    drop(bot);
    for _ in 0..200 {
        if bot_entry(&kv, &player).await.is_none() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("a bot gone stays in the directory");
}
