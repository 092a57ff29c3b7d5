//! Storage faults on the server program, with a real SQLite file (docs/reliability.md, "What a
//! player can count on"): a database locked by another program, a database file replaced or
//! deleted under the server, a `kill -9` right after the players saw an event, and a room whose
//! log no longer replays; and with a real PostgreSQL (tests/common/postgres.rs) stopped and
//! started again mid-match. Each time the server says so (`storage_unavailable`, `/healthz` 503,
//! `/metrics`, `room_broken`), changes nothing it has not written, and loses nothing it has sent.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{NO_CLOCK, ServerProcess, deploy, event, fire, plane, room_config};
use skirmish_games::Seat;
use skirmish_games::plane::{self, Facing, Variant};
use skirmish_protocol::{ClientMsg, ErrorCode, ResumeToken, RoomId, ServerMsg};
use skirmish_server::testing::TestClient;

/// A fresh folder for one test's database.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-{name}-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn token(welcome: &ServerMsg) -> ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("a welcome: {welcome:?}")
    };
    resume.clone()
}

/// The highest event number a client has seen (from events and snapshots).
fn last_seq(client: &TestClient) -> u64 {
    client
        .log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event { seq, .. } => Some(*seq),
            ServerMsg::Room(snapshot) => Some(snapshot.seq),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Entries of `room`'s log in the database, read with a connection of the test's own.
fn logged(database: &Path, room: RoomId) -> usize {
    let db = rusqlite::Connection::open(database).expect("the server's database");
    let n: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM room_log WHERE room = ?1",
            [room.to_string()],
            |row| row.get(0),
        )
        .expect("a count");
    usize::try_from(n).expect("a count")
}

/// `/healthz`'s status.
async fn health(port: u16) -> u16 {
    reqwest::get(format!("http://127.0.0.1:{port}/healthz"))
        .await
        .expect("the server answers")
        .status()
        .as_u16()
}

/// Waits (up to 10 s) for `/healthz` to answer `status`.
async fn health_becomes(port: u16, status: u16) {
    for _ in 0..200 {
        if health(port).await == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("/healthz never answered {status}");
}

/// A sample's value in `/metrics`.
async fn metric(port: u16, name: &str) -> f64 {
    let text = reqwest::get(format!("http://127.0.0.1:{port}/metrics"))
        .await
        .expect("the server answers")
        .text()
        .await
        .expect("text");
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} in /metrics:\n{text}"))
}

/// Two players in a plane battle room (no clock, 2 rounds), both deployed: returns them with
/// their tokens, the room, and the seat whose shot it is.
async fn a_match(url: &str) -> ([(TestClient, ResumeToken); 2], RoomId, Seat) {
    let (mut alice, welcome) = TestClient::join(url, "Alice").await;
    let alice_token = token(&welcome);
    let (mut bob, welcome) = TestClient::join(url, "Bob").await;
    let bob_token = token(&welcome);
    let room = common::create(&mut alice, room_config(Variant::Classic, 2, 2, NO_CLOCK), true).await;
    common::join(&mut bob, room).await;
    alice.send(deploy(room, vec![plane("C1", Facing::Up)])).await;
    bob.send(deploy(room, vec![plane("D4", Facing::Up)])).await;
    let plane::Event::Turn { attacker } = event(&mut alice, |e| matches!(e, plane::Event::Turn { .. })).await
    else {
        unreachable!()
    };
    event(&mut bob, |e| matches!(e, plane::Event::Turn { .. })).await;
    ([(alice, alice_token), (bob, bob_token)], room, attacker)
}

/// Resumes `name`'s seat in `room` and returns the client and its snapshot's event number.
async fn resume(url: &str, name: &str, token: &ResumeToken, room: RoomId) -> (TestClient, u64) {
    let (mut client, welcome) = TestClient::resume(url, name, token.clone()).await;
    let ServerMsg::Welcome { seats, .. } = &welcome else {
        panic!("{name} is welcomed back: {welcome:?}")
    };
    assert_eq!(seats.len(), 1, "{name} holds a seat again");
    assert_eq!(seats[0].room, room);
    let ServerMsg::Room(snapshot) = client.recv_until(|m| matches!(m, ServerMsg::Room(_))).await else {
        unreachable!()
    };
    (client, snapshot.seq)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_refuses_actions_then_play_resumes_and_a_kill_loses_nothing_sent() {
    let port = common::free_port();
    let dir = folder("locked");
    let database = dir.join("skirmish.db");
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, &database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let ([(mut alice, alice_token), (mut bob, bob_token)], room, first) = a_match(&url).await;
    // Every event seen is on disk already, without waiting: 2 seats, the start, 2 deployments.
    assert_eq!(
        logged(&database, room),
        5,
        "what the players saw is in the journal"
    );
    let (shooter, other) = if first == Seat(0) {
        (&mut alice, &mut bob)
    } else {
        (&mut bob, &mut alice)
    };

    // Another program takes the write lock, and keeps it for several seconds.
    let locker = rusqlite::Connection::open(&database).expect("a second connection");
    locker.execute_batch("BEGIN EXCLUSIVE").expect("the lock");
    // The shot is taken but cannot be written: nobody hears of it while storage fails.
    shooter.send(fire(room, 1 - first.0, "A1")).await;
    health_becomes(port, 503).await;
    assert!(metric(port, "skirmish_storage_failures_total").await >= 1.0);
    assert!((metric(port, "skirmish_storage_available").await).abs() < f64::EPSILON);
    // The other player's shot (their turn, were the first shot known) is refused, and a new
    // room too: nothing is applied that is not recorded.
    let reply = other.request(fire(room, first.0, "A1")).await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::StorageUnavailable,
                ..
            }
        ),
        "{reply:?}"
    );
    let reply = other
        .request(ClientMsg::CreateRoom {
            config: room_config(Variant::Classic, 2, 1, NO_CLOCK),
            sit: false,
        })
        .await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::StorageUnavailable,
                ..
            }
        ),
        "{reply:?}"
    );
    assert!(
        !other.log.iter().any(|m| matches!(
            m,
            ServerMsg::Event {
                event: skirmish_protocol::GameEvent::Plane(plane::Event::Shot { .. }),
                ..
            }
        )),
        "no shot was told while it was not on disk"
    );
    assert_eq!(logged(&database, room), 5);
    tokio::time::sleep(Duration::from_secs(3)).await;

    // The lock goes: the shot is written, then told, and play resumes by itself.
    locker.execute_batch("ROLLBACK").expect("the lock released");
    drop(locker);
    for client in [&mut *shooter, &mut *other] {
        event(client, |e| matches!(e, plane::Event::Shot { .. })).await;
    }
    health_becomes(port, 200).await;
    assert_eq!(logged(&database, room), 6);
    other.send(fire(room, first.0, "A1")).await;
    for client in [&mut alice, &mut bob] {
        event(
            client,
            |e| matches!(e, plane::Event::Turn { attacker } if *attacker == first),
        )
        .await;
    }

    // Killed right after the players saw the last event: nothing they saw is lost.
    let seen = last_seq(&alice).max(last_seq(&bob));
    server.kill();
    drop((alice, bob));
    let _server = ServerProcess::start(port, &database, &args).await;
    let (_alice, seq) = resume(&url, "Alice", &alice_token, room).await;
    assert_eq!(
        seq, seen,
        "the room is back with every event its players were sent"
    );
    let (_bob, seq) = resume(&url, "Bob", &bob_token, room).await;
    assert_eq!(seq, seen);
    let _ = std::fs::remove_dir_all(&dir);
}

/// PostgreSQL (the cluster's storage) crashes mid-match (an immediate shutdown) and comes back. Meanwhile `/healthz`
/// says 503 and actions get `storage_unavailable` with nothing written; once PostgreSQL is back
/// play resumes by itself; a `kill -9` of the Skirmish server after that loses nothing its
/// players saw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_postgres_refuses_actions_then_play_resumes_and_a_kill_loses_nothing_sent() {
    let mut pg = common::postgres::Postgres::start().await;
    let database = pg.database().await;
    let port = common::free_port();
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, &database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let ([(mut alice, alice_token), (mut bob, bob_token)], room, first) = a_match(&url).await;
    assert_eq!(
        common::logged(&database, room).await,
        5,
        "what the players saw is in PostgreSQL"
    );
    let (shooter, other) = if first == Seat(0) {
        (&mut alice, &mut bob)
    } else {
        (&mut bob, &mut alice)
    };

    // PostgreSQL goes down (killed, as a crash would): the server notices while idle (its
    // check every second), and refuses the shot, the other player's shot and a new room.
    pg.stop();
    health_becomes(port, 503).await;
    for (client, target) in [(&mut *shooter, 1 - first.0), (&mut *other, first.0)] {
        let reply = client.request(fire(room, target, "A1")).await;
        assert!(
            matches!(
                &reply,
                ServerMsg::Error {
                    code: ErrorCode::StorageUnavailable,
                    ..
                }
            ),
            "{reply:?}"
        );
    }
    let reply = other
        .request(ClientMsg::CreateRoom {
            config: room_config(Variant::Classic, 2, 1, NO_CLOCK),
            sit: false,
        })
        .await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::StorageUnavailable,
                ..
            }
        ),
        "{reply:?}"
    );
    assert!(metric(port, "skirmish_storage_failures_total").await >= 1.0);
    assert!((metric(port, "skirmish_storage_available").await).abs() < f64::EPSILON);

    // PostgreSQL is back: the server sees it by itself, the log is as it was (nothing refused
    // was written), and play resumes.
    pg.resume().await;
    health_becomes(port, 200).await;
    assert_eq!(common::logged(&database, room).await, 5);
    shooter.send(fire(room, 1 - first.0, "A1")).await;
    for client in [&mut *shooter, &mut *other] {
        event(client, |e| matches!(e, plane::Event::Shot { .. })).await;
    }
    assert_eq!(common::logged(&database, room).await, 6);
    other.send(fire(room, first.0, "A1")).await;
    for client in [&mut alice, &mut bob] {
        event(
            client,
            |e| matches!(e, plane::Event::Turn { attacker } if *attacker == first),
        )
        .await;
    }

    // Killed right after the players saw the last event: nothing they saw is lost.
    let seen = last_seq(&alice).max(last_seq(&bob));
    server.kill();
    drop((alice, bob));
    let _server = ServerProcess::start(port, &database, &args).await;
    let (_alice, seq) = resume(&url, "Alice", &alice_token, room).await;
    assert_eq!(
        seq, seen,
        "the room is back with every event its players were sent"
    );
    let (_bob, seq) = resume(&url, "Bob", &bob_token, room).await;
    assert_eq!(seq, seen);
}

/// PostgreSQL hangs (frozen with SIGSTOP: connections open, nothing answered) instead of
/// refusing, right after a shot is taken: the shot is told to nobody; within seconds (the pool's
/// 1 s wait for a connection, `PG_WRITE_TIMEOUT` for a batch already under way) storage counts
/// as failed and the other player's action is refused rather than left waiting without end;
/// thawed, the shot is written and told and play resumes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_that_hangs_is_storage_unavailable_within_seconds_then_play_resumes() {
    let pg = common::postgres::Postgres::start().await;
    let database = pg.database().await;
    let port = common::free_port();
    let _server = ServerProcess::start(port, &database, &["--grace-ms", "600000"]).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let ([(mut alice, _), (mut bob, _)], room, first) = a_match(&url).await;
    let (shooter, other) = if first == Seat(0) {
        (&mut alice, &mut bob)
    } else {
        (&mut bob, &mut alice)
    };

    // Frozen right after the shot is taken: the shot cannot be written, and nobody hears of
    // it while it is not.
    pg.freeze();
    let frozen = std::time::Instant::now();
    shooter.send(fire(room, 1 - first.0, "A1")).await;
    health_becomes(port, 503).await;
    let noticed = frozen.elapsed();
    assert!(noticed < Duration::from_secs(9), "noticed after {noticed:?}");
    let reply = other.request(fire(room, first.0, "A1")).await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::StorageUnavailable,
                ..
            }
        ),
        "{reply:?}"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        !other.log.iter().any(|m| matches!(
            m,
            ServerMsg::Event {
                event: skirmish_protocol::GameEvent::Plane(plane::Event::Shot { .. }),
                ..
            }
        )),
        "no shot was told while it was not in the database"
    );

    // Thawed: the shot is written, then told, and play resumes by itself.
    pg.thaw();
    for client in [&mut *shooter, &mut *other] {
        event(client, |e| matches!(e, plane::Event::Shot { .. })).await;
    }
    health_becomes(port, 200).await;
    assert_eq!(common::logged(&database, room).await, 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replaced_database_file_is_refused_and_a_deleted_one_is_made_again_with_everything() {
    let port = common::free_port();
    let dir = folder("file");
    let database = dir.join("skirmish.db");
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, &database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let ([(mut alice, alice_token), (mut bob, bob_token)], room, first) = a_match(&url).await;
    let (shooter, other) = if first == Seat(0) {
        (&mut alice, &mut bob)
    } else {
        (&mut bob, &mut alice)
    };

    // Another database put in its place (the original kept under a second name).
    let kept = dir.join("kept.db");
    std::fs::hard_link(&database, &kept).expect("a second name for the file");
    let other_db = dir.join("other.db");
    rusqlite::Connection::open(&other_db)
        .expect("another database")
        .execute_batch("CREATE TABLE t (x)")
        .expect("a table");
    std::fs::rename(&other_db, &database).expect("the file replaced");
    health_becomes(port, 503).await;
    let reply = shooter.request(fire(room, 1 - first.0, "A1")).await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::StorageUnavailable,
                ..
            }
        ),
        "{reply:?}"
    );
    assert!(metric(port, "skirmish_storage_failures_total").await >= 1.0);
    // The original back at its path: play resumes.
    std::fs::rename(&kept, &database).expect("the file put back");
    health_becomes(port, 200).await;
    shooter.send(fire(room, 1 - first.0, "A1")).await;
    event(other, |e| matches!(e, plane::Event::Shot { .. })).await;

    // The file deleted: the server makes it again from the copy it has open.
    let failures = metric(port, "skirmish_storage_failures_total").await;
    std::fs::remove_file(&database).expect("the file deleted");
    // Counted when noticed, then the copy is made and renamed into place.
    for _ in 0..200 {
        if metric(port, "skirmish_storage_failures_total").await > failures && database.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        metric(port, "skirmish_storage_failures_total").await > failures,
        "the deletion is noticed"
    );
    assert!(database.exists(), "the file is made again");
    health_becomes(port, 200).await;
    other.send(fire(room, first.0, "A1")).await;
    for client in [&mut alice, &mut bob] {
        event(
            client,
            |e| matches!(e, plane::Event::Turn { attacker } if *attacker == first),
        )
        .await;
    }
    assert_eq!(
        logged(&database, room),
        7,
        "the log from before the deletion and after it"
    );

    // And a restart finds everything in it.
    let seen = last_seq(&alice).max(last_seq(&bob));
    server.kill();
    drop((alice, bob));
    let _server = ServerProcess::start(port, &database, &args).await;
    let (_alice, seq) = resume(&url, "Alice", &alice_token, room).await;
    assert_eq!(seq, seen);
    let (_bob, seq) = resume(&url, "Bob", &bob_token, room).await;
    assert_eq!(seq, seen);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_whose_log_does_not_replay_is_kept_and_its_players_are_told() {
    let port = common::free_port();
    let dir = folder("broken");
    let database = dir.join("skirmish.db");
    let args = ["--grace-ms", "600000"];
    let mut server = ServerProcess::start(port, &database, &args).await;
    let url = format!("ws://127.0.0.1:{port}/ws");
    let ([(mut alice, alice_token), (bob, _)], room, first) = a_match(&url).await;
    // A second room, sound, with Alice in it too: it comes back.
    let (mut carol, _) = TestClient::join(&url, "Carol").await;
    let sound = common::create(&mut carol, room_config(Variant::Classic, 2, 2, NO_CLOCK), true).await;
    common::join(&mut alice, sound).await;
    assert!(server.terminate());
    drop((alice, bob, carol));

    // The last deployment's seat turned into the other one: "it is seat 0's turn" on replay.
    let db = rusqlite::Connection::open(&database).expect("the database");
    let (n, entry): (i64, String) = db
        .query_row(
            "SELECT n, entry FROM room_log WHERE room = ?1 ORDER BY n DESC LIMIT 1",
            [room.to_string()],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("the last entry");
    let mut value: serde_json::Value = serde_json::from_str(&entry).expect("JSON");
    assert_eq!(value["kind"], "acted", "{entry}");
    let seat = value["seat"].as_u64().expect("a seat");
    value["seat"] = serde_json::json!(1 - seat);
    db.execute(
        "UPDATE room_log SET entry = ?3 WHERE room = ?1 AND n = ?2",
        rusqlite::params![room.to_string(), n, value.to_string()],
    )
    .expect("the entry corrupted");
    let entries = logged(&database, room);
    drop(db);

    let _server = ServerProcess::start(port, &database, &args).await;
    // The room is not played on, but kept with its log and the reason.
    let rooms: Vec<serde_json::Value> = reqwest::get(format!("http://127.0.0.1:{port}/api/rooms"))
        .await
        .expect("the lobby answers")
        .json()
        .await
        .expect("JSON");
    let listed: Vec<&str> = rooms.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(
        listed,
        [sound.to_string().as_str()],
        "only the sound room is back"
    );
    let db = rusqlite::Connection::open(&database).expect("the database");
    let (state, reason): (String, String) = db
        .query_row(
            "SELECT r.state, b.reason FROM rooms r JOIN broken_rooms b ON b.room = r.id WHERE r.id = ?1",
            [room.to_string()],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("the room is kept");
    assert_eq!(state, "broken");
    assert!(reason.contains(&format!("entry {n}")), "{reason}");
    assert_eq!(logged(&database, room), entries, "its log is kept whole");

    // Alice is welcomed back with her seat in the sound room only, then told of the other.
    let (mut alice, welcome) = TestClient::resume(&url, "Alice", alice_token).await;
    let ServerMsg::Welcome { seats, .. } = &welcome else {
        panic!("welcomed back: {welcome:?}")
    };
    assert_eq!(
        seats.iter().map(|s| s.room).collect::<Vec<_>>(),
        [sound],
        "no seat that will never get a snapshot"
    );
    let notice = alice.recv_until(|m| matches!(m, ServerMsg::Error { .. })).await;
    let ServerMsg::Error { req, code, message } = notice else {
        unreachable!()
    };
    assert_eq!((req, code.as_str()), (None, "room_broken"));
    assert!(message.contains(&room.to_string()), "{message}");
    let _ = first;
    let _ = std::fs::remove_dir_all(&dir);
}
