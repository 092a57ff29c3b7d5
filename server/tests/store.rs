//! The storage interface (`skirmish_server::store::Store`) on both engines, the same checks on
//! each: a SQLite file, and a real PostgreSQL started by the test (tests/common/postgres.rs).
//! Tournaments and their matches, the room journal (a retried batch, a closed, a discarded and a
//! broken room, a log with a gap or an entry that does not read) and bot accounts are written,
//! read back, and read again by a second store opened on the same database (as after a restart,
//! its migrations run again and change nothing).

mod common;

use std::sync::Arc;

use skirmish_protocol::tournament::{
    Entrant, MatchId, MatchResult, MatchState, MatchSummary, TournamentConfig, TournamentId, TournamentState,
};
use skirmish_protocol::{GameConfig, PlayerId, RoomConfig, RoomId, Seat};
use skirmish_server::entry::Entry;
use skirmish_server::store::{JournalWrite, Store, StoredMatch, StoredRoom, StoredTournament};

fn gomoku() -> GameConfig {
    GameConfig::Gomoku(skirmish_games::gomoku::Config::default())
}

fn a_match(index: u32, state: MatchState) -> StoredMatch {
    StoredMatch {
        summary: MatchSummary {
            id: MatchId::random(),
            index,
            round: index / 2,
            seats: vec![0, 1],
            opening: Some("d4".to_owned()),
            deal: Some(index),
            sealed: false,
            state,
            room: None,
            result: None,
        },
    }
}

fn a_room(created: u64) -> StoredRoom {
    StoredRoom {
        id: RoomId::random(),
        config: RoomConfig {
            name: Some("stored".into()),
            game: gomoku(),
            clock: None,
            on_drop: None,
        },
        owner: PlayerId::random(),
        seed: [u8::try_from(created).unwrap_or(0); 32],
        entries: Vec::new(),
        unreadable: None,
    }
}

fn seated(seat: u8) -> Entry {
    Entry::Seated {
        seat: Seat(seat),
        player: PlayerId::random(),
        name: format!("p{seat}"),
        bot: None,
        token: "ab".repeat(32),
        took_over_from: None,
        account: None,
        level: None,
    }
}

/// Everything the server stores, written through `store` and read back through it and through
/// `reopened` (a second store on the same database, made after the writes).
async fn round_trip(store: Store, reopen: impl AsyncFnOnce() -> Store) {
    // Tournaments and matches.
    let config: TournamentConfig = serde_json::from_value(serde_json::json!({
        "name": "cup",
        "game": serde_json::to_value(gomoku()).unwrap(),
    }))
    .unwrap();
    let entrants = vec![
        Entrant {
            bot: "alpha".into(),
            strategy: "random".into(),
            version: None,
        },
        Entrant {
            bot: "beta".into(),
            strategy: "greedy".into(),
            version: Some("1.2".into()),
        },
    ];
    let id = TournamentId::random();
    let (finished, running) = (a_match(0, MatchState::Running), a_match(1, MatchState::Running));
    store
        .create_tournament(StoredTournament {
            id,
            config: config.clone(),
            seed_salt: "5a".repeat(32),
            entrants: entrants.clone(),
            state: TournamentState::Running,
            created_ms: 1_700_000_000_123,
            matches: vec![finished.clone(), running.clone()],
        })
        .await
        .unwrap();
    let later = a_match(2, MatchState::Pending);
    store.add_matches(id, vec![later.clone()]).await.unwrap();
    let result = MatchResult {
        points: vec![1.0, 0.0],
        placings: vec![1, 2],
        end: "five in a row".into(),
        forfeit: None,
    };
    store
        .finish_match(finished.summary.id, result.clone(), Vec::new())
        .await
        .unwrap();

    // The room journal: a batch written twice (a retry) changes nothing the second time.
    let (open, closed, discarded, broken, gap) = (a_room(1), a_room(2), a_room(3), a_room(4), a_room(5));
    let entries = [seated(0), seated(1), Entry::Started];
    let mut writes = Vec::new();
    for (n, room) in [&open, &closed, &discarded, &broken, &gap]
        .into_iter()
        .enumerate()
    {
        writes.push(JournalWrite::Open {
            room: Box::new(room.clone()),
            created_ms: 1_000 + u64::try_from(n).unwrap(),
        });
        for (i, entry) in entries.iter().cloned().enumerate() {
            if room.id == gap.id && i == 1 {
                continue;
            }
            writes.push(JournalWrite::Append {
                room: room.id,
                n: u64::try_from(i).unwrap(),
                entry,
            });
        }
    }
    writes.push(JournalWrite::Close { room: closed.id });
    writes.push(JournalWrite::Discard { room: discarded.id });
    let writes = Arc::new(writes);
    store.write_journal(writes.clone()).await.unwrap();
    store.write_journal(writes).await.unwrap();
    store
        .mark_broken(broken.id, "entry 2: it does not replay".into(), 5)
        .await
        .unwrap();

    // Accounts.
    assert!(
        store
            .register_account("Alpha".into(), "d1".repeat(32))
            .await
            .unwrap()
    );
    assert!(
        !store
            .register_account("ALPHA".into(), "d2".repeat(32))
            .await
            .unwrap(),
        "a name is unique without regard to case"
    );
    assert!(
        store
            .register_account("beta".into(), "d3".repeat(32))
            .await
            .unwrap()
    );
    assert_eq!(
        store.set_account_token("beta".into(), None).await.unwrap(),
        Some("beta".to_owned())
    );
    assert_eq!(
        store.set_account_token("nobody".into(), None).await.unwrap(),
        None
    );

    for store in [store, reopen().await] {
        let tournaments = store.tournaments().await.unwrap();
        assert_eq!(tournaments.len(), 1);
        let t = &tournaments[0];
        assert_eq!(
            (t.id, t.state, t.created_ms),
            (id, TournamentState::Running, 1_700_000_000_123)
        );
        assert_eq!(t.config, config);
        assert_eq!(t.seed_salt, "5a".repeat(32));
        assert_eq!(t.entrants, entrants);
        let states: Vec<_> = t.matches.iter().map(|m| m.summary.state).collect();
        assert_eq!(
            states,
            [MatchState::Finished, MatchState::Pending, MatchState::Pending],
            "a match running when the server stopped comes back pending"
        );
        assert_eq!(t.matches[0].summary.result.as_ref(), Some(&result));
        assert_eq!(t.matches[2].summary.id, later.summary.id);
        assert_eq!(t.matches[1].summary.opening.as_deref(), Some("d4"));
        assert_eq!(t.matches[2].summary.deal, Some(2));
        let record = store
            .match_record(finished.summary.id)
            .await
            .unwrap()
            .expect("a record");
        assert_eq!(record.tournament, id);
        assert_eq!(record.entrants, entrants);
        assert_eq!(record.summary.result.as_ref(), Some(&result));
        assert!(store.match_record(running.summary.id).await.unwrap().is_none());
        assert!(store.match_record(MatchId::random()).await.unwrap().is_none());

        let rooms = store.open_rooms().await.unwrap();
        let ids: Vec<_> = rooms.iter().map(|r| r.id).collect();
        assert_eq!(ids, [open.id, gap.id], "only open rooms, oldest first");
        assert_eq!(rooms[0].entries, entries);
        assert_eq!(rooms[0].unreadable, None);
        assert_eq!(rooms[0].seed, open.seed);
        assert_eq!(rooms[0].config, open.config);
        assert_eq!(rooms[0].owner, open.owner);
        assert_eq!(rooms[1].entries.len(), 1);
        assert_eq!(rooms[1].unreadable.as_deref(), Some("entry 1 is missing"));

        let accounts = store.accounts().await.unwrap();
        let listed: Vec<_> = accounts.iter().map(|a| (a.name.as_str(), a.active)).collect();
        assert_eq!(listed, [("Alpha", true), ("beta", false)]);
        assert_eq!(
            store.account_by_token("d1".repeat(32)).await.unwrap(),
            Some("Alpha".to_owned())
        );
        assert_eq!(store.account_by_token("d3".repeat(32)).await.unwrap(), None);
        assert_eq!(
            store.account_named("ALPHA".into()).await.unwrap(),
            Some("Alpha".to_owned())
        );
        store.check_file().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_stored_in_a_sqlite_file_reads_back_and_after_reopening() {
    let dir = std::env::temp_dir().join(format!("skirmish-store-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("skirmish.db");
    let store = Store::connect(path.to_str().unwrap()).await.unwrap();
    assert_eq!(store.engine_name(), "sqlite");
    round_trip(store, async || Store::open(&path).await.unwrap()).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_stored_in_postgres_reads_back_and_after_reconnecting() {
    let pg = common::postgres::Postgres::start().await;
    let url = pg.database().await;
    let store = Store::connect(&url).await.unwrap();
    assert_eq!(store.engine_name(), "postgres");
    round_trip(store, async || Store::connect(&url).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_that_cannot_be_reached_is_an_error_at_start() {
    let port = common::free_port();
    let err = Store::connect(&format!("postgres://skirmish@127.0.0.1:{port}/nothing"))
        .await
        .expect_err("nothing listens there");
    assert!(err.to_string().starts_with("database:"), "{err}");
}
