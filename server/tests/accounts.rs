//! Bot accounts, end to end over a real server: a token is shown once and stored as its hash
//! alone, a revoked or rotated token is refused; an account's name is its own; a tournament
//! entrant's seats go to its account's connection and to no other (issue 15, finding 4); a
//! resume or a second connection of an account closes the older one with 4009, which can no
//! longer act (finding 5); an engine failure is booked as a forfeit by that cause (finding 7).

mod common;

use std::time::Duration;

use skirmish_protocol::accounts::{Account, AccountIssued};
use skirmish_protocol::tournament::{MatchState, Standings, TournamentState};
use skirmish_protocol::{
    AccountToken, Action, BotOffer, CLOSE_REPLACED, ClientMsg, ErrorCode, ForfeitCause, GameConfig, GameKind,
    PROTOCOL_VERSION, RoomConfig, ServerMsg, gomoku,
};
use skirmish_server::testing::{TestClient, TestServer};
use tokio_util::sync::CancellationToken;

const ADMIN: &str = "admin-secret";

fn limits() -> skirmish_server::Limits {
    skirmish_server::Limits {
        admin_key: Some(ADMIN.parse().unwrap()),
        ..skirmish_server::Limits::default()
    }
}

async fn server() -> TestServer {
    TestServer::start_with(limits()).await
}

/// A bot's `hello`: `name`, offering `strategy` for gomoku, with the account `token` if any.
fn bot_hello(name: &str, strategy: &str, token: Option<AccountToken>) -> ClientMsg {
    let offer = BotOffer {
        games: [(GameKind::Gomoku, vec![strategy.to_owned()])].into(),
        version: None,
    };
    common::bot_hello(name, offer, token)
}

fn code(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error { code, .. } => code.clone(),
        other => panic!("an error, not {other:?}"),
    }
}

async fn admin_post(server: &TestServer, path: &str, body: Option<serde_json::Value>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(server.http_url(path))
        .bearer_auth(ADMIN);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.expect("the server answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_is_shown_once_kept_hashed_and_stops_working_when_revoked_or_rotated() {
    tokens_shown_once(server().await).await;
}

/// The same with the accounts in PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_in_postgres_show_a_token_once_keep_it_hashed_and_refuse_it_when_revoked_or_rotated() {
    let pg = common::postgres::Postgres::start().await;
    let store = skirmish_server::store::Store::connect(&pg.database().await)
        .await
        .expect("PostgreSQL");
    assert_eq!(store.engine_name(), "postgres");
    tokens_shown_once(TestServer::start_with_store(limits(), store).await).await;
}

async fn tokens_shown_once(server: TestServer) {
    // Without the admin key, nothing.
    let refused = reqwest::Client::new()
        .post(server.http_url("/api/accounts"))
        .json(&serde_json::json!({"name": "alpha"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    // The scheme's name in any case (RFC 7235), as for the tournament key: `bearer`.
    let listed = reqwest::Client::new()
        .get(server.http_url("/api/accounts"))
        .header("authorization", format!("bearer {ADMIN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 200);
    let made = admin_post(
        &server,
        "/api/accounts",
        Some(serde_json::json!({"name": "alpha"})),
    )
    .await;
    assert_eq!(made.status(), 201);
    let issued: AccountIssued = made.json().await.unwrap();
    assert_eq!(issued.name, "alpha");
    assert_eq!(issued.token.expose().len(), 64, "256 bits in hex");
    // The name is the account's, whatever the case.
    let again = admin_post(
        &server,
        "/api/accounts",
        Some(serde_json::json!({"name": "ALPHA"})),
    )
    .await;
    assert_eq!(again.status(), 409);
    // The list never shows a token.
    let listed = reqwest::Client::new()
        .get(server.http_url("/api/accounts"))
        .bearer_auth(ADMIN)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!listed.contains(issued.token.expose()), "{listed}");
    let accounts: Vec<Account> = serde_json::from_str(&listed).unwrap();
    assert!(accounts.iter().any(|a| a.name == "alpha" && a.active));
    // Stored as its hash: the hash finds the account, the token's own text does not.
    assert_eq!(
        server
            .store
            .account_by_token(issued.token.digest())
            .await
            .unwrap(),
        Some("alpha".to_owned())
    );
    assert_eq!(
        server
            .store
            .account_by_token(issued.token.expose().to_owned())
            .await
            .unwrap(),
        None
    );

    let url = server.ws_url();
    let mut bot = TestClient::connect(&url).await;
    let welcome = bot
        .request(bot_hello("alpha", "random", Some(issued.token.clone())))
        .await;
    assert!(
        matches!(&welcome, ServerMsg::Welcome { name, .. } if name == "alpha"),
        "{welcome:?}"
    );

    // Rotating: the live connection is closed, the old token refused, the new one works.
    let rotated = admin_post(&server, "/api/accounts/alpha/rotate", None).await;
    assert_eq!(rotated.status(), 200);
    let rotated: AccountIssued = rotated.json().await.unwrap();
    assert_ne!(rotated.token, issued.token);
    while bot.try_recv().await.is_some() {}
    assert_eq!(bot.closed, Some(CLOSE_REPLACED));
    let mut stale = TestClient::connect(&url).await;
    let refused = stale
        .request(bot_hello("alpha", "random", Some(issued.token.clone())))
        .await;
    assert_eq!(code(&refused), ErrorCode::BadToken);
    let mut fresh = TestClient::connect(&url).await;
    let welcome = fresh
        .request(bot_hello("alpha", "random", Some(rotated.token.clone())))
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");

    // Revoking: the token is refused; the name stays the account's.
    let revoked = admin_post(&server, "/api/accounts/alpha/revoke", None).await;
    assert_eq!(revoked.status(), 200);
    let revoked: Account = revoked.json().await.unwrap();
    assert!(!revoked.active);
    while fresh.try_recv().await.is_some() {}
    assert_eq!(fresh.closed, Some(CLOSE_REPLACED));
    let mut after = TestClient::connect(&url).await;
    let refused = after
        .request(bot_hello("alpha", "random", Some(rotated.token)))
        .await;
    assert_eq!(code(&refused), ErrorCode::BadToken);
    let refused = after.request(bot_hello("alpha", "random", None)).await;
    assert_eq!(code(&refused), ErrorCode::NameTaken);
    let missing = admin_post(&server, "/api/accounts/nobody/revoke", None).await;
    assert_eq!(missing.status(), 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stored_row_holds_the_hash_and_never_the_token() {
    let path = std::env::temp_dir().join(format!("skirmish-accounts-{}.db", uuid::Uuid::new_v4()));
    let store = skirmish_server::store::Store::open(&path).await.unwrap();
    let issued = skirmish_server::accounts::register(&store, "alpha")
        .await
        .unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let rows: Vec<(String, String, Option<String>)> = conn
        .prepare("SELECT name_key, name, token_sha256 FROM accounts")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [(
            "alpha".to_owned(),
            "alpha".to_owned(),
            Some(issued.token.digest())
        )]
    );
    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        !text.contains(issued.token.expose()),
        "the token's text is nowhere in the file"
    );
    let _ = std::fs::remove_file(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_row_holds_the_hash_and_no_file_of_the_cluster_holds_the_token() {
    let pg = common::postgres::Postgres::start().await;
    let url = pg.database().await;
    let store = skirmish_server::store::Store::connect(&url).await.unwrap();
    let issued = skirmish_server::accounts::register(&store, "alpha")
        .await
        .unwrap();
    store.close().await;
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    let rows: Vec<(String, String, Option<String>)> =
        sqlx::query_as("SELECT name_key, name, token_sha256 FROM accounts")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    assert_eq!(
        rows,
        [(
            "alpha".to_owned(),
            "alpha".to_owned(),
            Some(issued.token.digest())
        )]
    );
    // Everything written to the cluster's files, its write-ahead log included.
    sqlx::query("CHECKPOINT").execute(&mut conn).await.unwrap();
    let mut folders = vec![pg.dir().to_owned()];
    let mut files = 0;
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                files += 1;
                let text = String::from_utf8_lossy(&bytes);
                assert!(
                    !text.contains(issued.token.expose()),
                    "the token's text is in {}",
                    path.display()
                );
            }
        }
    }
    assert!(files > 100, "the cluster's files were read ({files})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_name_is_its_own_and_no_other_connection_gets_an_entrants_seats() {
    let server = server().await;
    let url = server.ws_url();
    let (alpha_token, bravo_token, mallory_token) = (
        server.account("alpha").await,
        server.account("bravo").await,
        server.account("mallory").await,
    );
    // Impostors: an anonymous bot saying `alpha` (or `Alpha`), and another account saying it.
    let mut impostor = TestClient::connect(&url).await;
    assert_eq!(
        code(&impostor.request(bot_hello("alpha", "random", None)).await),
        ErrorCode::NameTaken
    );
    assert_eq!(
        code(&impostor.request(bot_hello("Alpha", "random", None)).await),
        ErrorCode::NameTaken
    );
    assert_eq!(
        code(
            &impostor
                .request(bot_hello("alpha", "random", Some(mallory_token.clone())))
                .await
        ),
        ErrorCode::BadName
    );
    // A person cannot take the name either.
    let (_, person) = TestClient::join(&url, "ALPHA").await;
    assert_eq!(code(&person), ErrorCode::NameTaken);
    // The hostile connections stay, offering the entrants' strategy, as early as the entrants.
    let mut anonymous = TestClient::connect(&url).await;
    let welcome = anonymous.request(bot_hello("alpha2", "random", None)).await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let mut mallory = TestClient::connect(&url).await;
    let welcome = mallory
        .request(bot_hello("mallory", "random", Some(mallory_token)))
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");

    let stop = CancellationToken::new();
    for (name, token) in [("alpha", alpha_token), ("bravo", bravo_token)] {
        let mut options = skirmish_bots::client::BotOptions::new(url.clone(), name.to_owned());
        options.token = Some(token);
        options.set_strategies(&["random".to_owned()]);
        tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    }
    let base = server.http_url("");
    // An anonymous bot never enters, even named.
    let refused = reqwest::Client::new()
        .post(format!("{base}/api/tournaments"))
        .bearer_auth(skirmish_server::testing::TestServer::TOURNAMENT_KEY)
        .json(&serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "alpha2", "strategy": "random"}, {"bot": "mallory", "strategy": "random"}],
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    // Wait for both entrants, then play 4 matches between them.
    for _ in 0..200 {
        let bots: Vec<skirmish_protocol::BotSummary> = reqwest::get(format!("{base}/api/bots"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if bots.iter().filter(|b| b.account && b.name != "mallory").count() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let id = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "alpha", "strategy": "random"}, {"bot": "bravo", "strategy": "random"}],
            "games_per_pairing": 2,
            "parallel": 2,
        }),
    )
    .await
    .summary
    .id
    .to_string();
    let status = common::tournament_over(&base, &id).await;
    assert_eq!(status.summary.state, TournamentState::Finished);
    assert_eq!(status.schedule.len(), 4);
    for m in &status.schedule {
        assert_eq!(m.state, MatchState::Finished);
        assert!(m.result.as_ref().unwrap().forfeit.is_none(), "{m:?}");
    }
    // Neither hostile connection was ever handed a seat.
    for hostile in [&mut anonymous, &mut mallory] {
        hostile.request(ClientMsg::Ping).await;
        assert!(
            !hostile.log.iter().any(|m| matches!(m, ServerMsg::Seated { .. })),
            "{:?}",
            hostile.log
        );
    }
    stop.cancel();
}

/// A gomoku room of two people, `alice` (black, seat 0) and `bob`; returns their clients, the
/// room and alice's resume token.
async fn gomoku_pair(
    url: &str,
) -> (
    TestClient,
    TestClient,
    skirmish_protocol::RoomId,
    skirmish_protocol::ResumeToken,
) {
    let (mut alice, welcome) = TestClient::join(url, "alice").await;
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("welcomed")
    };
    let config = RoomConfig {
        name: None,
        game: GameConfig::Gomoku(gomoku::Config::default()),
        clock: Some(common::NO_CLOCK),
        on_drop: None,
    };
    let room = common::create(&mut alice, config, true).await;
    let (mut bob, _) = TestClient::join(url, "bob").await;
    common::join(&mut bob, room).await;
    (alice, bob, room, resume)
}

fn place(room: skirmish_protocol::RoomId, x: u8, y: u8) -> ClientMsg {
    ClientMsg::Act {
        room,
        seat: None,
        action: Action::Gomoku(gomoku::Action::Place {
            point: gomoku::Point { x, y },
        }),
        info: None,
    }
}

/// The stones `client` has seen placed so far (it asks for a `pong` to have read everything sent
/// before).
async fn stones(client: &mut TestClient) -> usize {
    client.request(ClientMsg::Ping).await;
    client
        .log
        .iter()
        .filter(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: skirmish_protocol::GameEvent::Gomoku(gomoku::Event::Placed { .. }),
                    ..
                }
            )
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_closes_the_older_connection_which_can_no_longer_act() {
    let server = server().await;
    let url = server.ws_url();
    let (mut alice, mut bob, room, resume) = gomoku_pair(&url).await;
    let (mut again, welcome) = TestClient::resume(&url, "alice", resume).await;
    let ServerMsg::Welcome { seats, .. } = welcome else {
        panic!("welcomed back: {welcome:?}")
    };
    assert_eq!(seats.len(), 1, "the seat comes with the resume");
    // The old connection's move, sent after the resume, is not played: it is closed at once.
    let _ = alice.try_send(place(room, 7, 7)).await;
    while alice.try_recv().await.is_some() {}
    assert_eq!(alice.closed, Some(CLOSE_REPLACED));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        stones(&mut bob).await,
        0,
        "the replaced connection played nothing"
    );
    // The new connection plays the seat: the stone reaches the opponent (waited for, since a
    // stone is sent once its journal entry is on disk, and may come after a `pong`).
    again.send(place(room, 7, 7)).await;
    let placed = |m: &ServerMsg| {
        matches!(
            m,
            ServerMsg::Event {
                event: skirmish_protocol::GameEvent::Gomoku(gomoku::Event::Placed { .. }),
                ..
            }
        )
    };
    again.recv_until(placed).await;
    bob.recv_until(placed).await;
    assert_eq!(stones(&mut bob).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_connection_of_an_account_takes_its_seats_and_closes_the_first() {
    let server = server().await;
    let url = server.ws_url();
    let token = server.account("alpha").await;
    let mut first = TestClient::connect(&url).await;
    let ServerMsg::Welcome { player, .. } = first
        .request(bot_hello("alpha", "random", Some(token.clone())))
        .await
    else {
        panic!("welcomed")
    };
    let mut second = TestClient::connect(&url).await;
    let ServerMsg::Welcome {
        player: again,
        resume,
        ..
    } = second.request(bot_hello("alpha", "random", Some(token))).await
    else {
        panic!("welcomed")
    };
    assert_eq!(player, again, "the same player: the account's");
    while first.try_recv().await.is_some() {}
    assert_eq!(first.closed, Some(CLOSE_REPLACED));
    // Without the account's token, even its player's resume token takes nothing.
    let mut thief = TestClient::connect(&url).await;
    let refused = thief
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "thief".to_owned(),
            bot: None,
            resume: Some(resume),
            key: None,
            token: None,
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert_eq!(code(&refused), ErrorCode::BadResume);
    second.request(ClientMsg::Ping).await;
    assert_eq!(second.closed, None, "the account's connection stays");
    let bots: Vec<skirmish_protocol::BotSummary> = reqwest::get(server.http_url("/api/bots"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(bots.iter().filter(|b| b.name == "alpha").count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_failure_is_a_forfeit_by_that_cause_and_only_for_ones_own_seat() {
    let server = server().await;
    let url = server.ws_url();
    let stop = CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(url.clone(), "steady".to_owned());
    options.token = Some(server.account("steady").await);
    options.set_strategies(&["random".to_owned()]);
    tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    // A bot whose engine "crashes" at each of its turns: it forfeits with the cause.
    let mut broken = TestClient::connect(&url).await;
    let welcome = broken
        .request(bot_hello(
            "broken",
            "engine",
            Some(server.account("broken").await),
        ))
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    // A client cannot claim a cause that is the server's to decide.
    let claimed = r#"{"type":"forfeit","room":"00000000-0000-0000-0000-000000000000","cause":"timed_out"}"#;
    broken.send_text(claimed.to_owned()).await;
    let answer = broken.recv().await;
    assert_eq!(code(&answer), ErrorCode::BadMessage);
    let base = server.http_url("");
    for _ in 0..200 {
        let bots: Vec<skirmish_protocol::BotSummary> = reqwest::get(format!("{base}/api/bots"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if bots.len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let id = common::create_tournament(
        &base,
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "steady", "strategy": "random"}, {"bot": "broken", "strategy": "engine"}],
            "parallel": 1,
        }),
    )
    .await
    .summary
    .id
    .to_string();
    let mut forfeited = 0;
    while forfeited < 2 {
        let msg = broken.recv().await;
        if let ServerMsg::YourTurn { room, seat, .. } = msg {
            // Its opponent's seat is not its own to forfeit.
            let other = skirmish_protocol::Seat(1 - seat.0);
            let refused = broken
                .request(ClientMsg::Forfeit {
                    room,
                    seat: Some(other),
                    cause: ForfeitCause::EngineFailure,
                    detail: None,
                })
                .await;
            assert_eq!(code(&refused), ErrorCode::NotSeated);
            broken
                .send(ClientMsg::Forfeit {
                    room,
                    seat: Some(seat),
                    cause: ForfeitCause::EngineFailure,
                    detail: Some("engine: exited with status 1".to_owned()),
                })
                .await;
            forfeited += 1;
        }
    }
    let status = common::tournament_over(&base, &id).await;
    let broken_index = status
        .summary
        .entrants
        .iter()
        .position(|e| e.bot == "broken")
        .unwrap();
    for m in &status.schedule {
        let result = m.result.as_ref().expect("a result");
        let forfeit = result.forfeit.as_ref().expect("a forfeit");
        assert_eq!(
            m.seats[forfeit.seat.index()],
            broken_index,
            "the broken bot's, never its opponent's"
        );
        assert_eq!(forfeit.reason, "engine_failure");
        assert_eq!(forfeit.detail.as_deref(), Some("engine: exited with status 1"));
    }
    let standings: Standings = reqwest::get(format!("{base}/api/tournaments/{id}/standings"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let line = standings
        .table
        .iter()
        .find(|l| l.entrant == broken_index)
        .unwrap();
    assert_eq!((line.losses, line.forfeits), (2, 2));
    assert_eq!(line.forfeits_by.engine_failure, 2, "{line:?}");
    assert_eq!((line.board_losses, line.forfeits_by.timed_out), (0, 0));
    let winner = standings
        .table
        .iter()
        .find(|l| l.entrant != broken_index)
        .unwrap();
    assert_eq!((winner.wins, winner.forfeits, winner.losses), (2, 0, 0));
    stop.cancel();
}

/// A name that passes for an account's (invisible characters, look-alike letters from another
/// script, fullwidth forms) is the account's too: refused in `hello` without the token and when
/// registering; a name made only of invisible characters is no name (issue 35, "Names").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alikes_of_an_account_name_and_invisible_names_are_refused() {
    let server = server().await;
    let made = admin_post(
        &server,
        "/api/accounts",
        Some(serde_json::json!({"name": "alpha"})),
    )
    .await;
    assert_eq!(made.status(), 201);
    for look_alike in [
        "alpha\u{200b}",
        "\u{430}lpha",
        "ａｌｐｈａ",
        "ALPHA",
        "al\u{2060}pha",
        "a1pha",
    ] {
        let (_, reply) = TestClient::join(&server.ws_url(), look_alike).await;
        assert_eq!(code(&reply), ErrorCode::NameTaken, "{look_alike:?}: {reply:?}");
        let again = admin_post(
            &server,
            "/api/accounts",
            Some(serde_json::json!({"name": look_alike})),
        )
        .await;
        assert_eq!(again.status(), 409, "{look_alike:?} registered beside alpha");
    }
    for invisible in ["\u{200b}\u{200b}", "\u{3164}", "\u{feff} \u{200d}"] {
        let (_, reply) = TestClient::join(&server.ws_url(), invisible).await;
        assert_eq!(code(&reply), ErrorCode::BadName, "{invisible:?}: {reply:?}");
        let refused = admin_post(
            &server,
            "/api/accounts",
            Some(serde_json::json!({"name": invisible})),
        )
        .await;
        assert_eq!(refused.status(), 400, "{invisible:?} registered");
    }
    // A room named only with invisible characters is refused too; a plain name still works.
    let (mut bob, welcome) = TestClient::join(&server.ws_url(), "bob").await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let reply = bob
        .request(ClientMsg::CreateRoom {
            config: RoomConfig {
                name: Some("\u{200b}\u{200b}".into()),
                game: GameConfig::Gomoku(gomoku::Config::default()),
                clock: None,
                on_drop: None,
            },
            sit: true,
        })
        .await;
    assert_eq!(code(&reply), ErrorCode::BadConfig, "{reply:?}");
}
