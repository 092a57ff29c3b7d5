//! The web client in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`)
//! driven over WebDriver by `fantoccini`, against an in-process server and in-process bots. The
//! tests click the page as people do and read its `data-*` attributes.
//!
//! Set `SKIRMISH_SCREENSHOTS=<absolute folder>` to save every screenshot the tests take; README and
//! docs/playing.md ("Screens") show a selection under the same file names.

#[path = "browser/bot_info.rs"]
mod bot_info;
#[path = "browser/chat.rs"]
mod chat;
#[path = "browser/desktop.rs"]
mod desktop;
#[path = "browser/gomoku.rs"]
mod gomoku;
#[path = "browser/harness.rs"]
mod harness;
#[path = "browser/i18n.rs"]
mod i18n;
#[path = "browser/junqi.rs"]
mod junqi;
#[path = "browser/ladder.rs"]
mod ladder;
#[path = "browser/phone.rs"]
mod phone;
#[path = "browser/plane.rs"]
mod plane;
#[path = "browser/players.rs"]
mod players;
#[path = "browser/quick_match.rs"]
mod quick_match;
#[path = "browser/replays.rs"]
mod replays;
#[path = "browser/tic_tac_toe.rs"]
mod tic_tac_toe;
#[path = "browser/tournaments.rs"]
mod tournaments;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::Client;
use harness::{
    Driver, attr_of, click, create_gomoku_room, create_junqi_room, create_room, deploy_random, find,
    gomoku_state, junqi_state, my_turn, open_as, own_planes, screenshot, screenshot_file, state, stones,
    text_of, type_into, wait_gomoku, wait_junqi, wait_script, wait_state,
};
use serde_json::{Value, json};
use skirmish_bots::client::{BotOptions, run};
use skirmish_games::Seat;
use skirmish_games::junqi::{Layout, Piece, Position, Post, Rank};
use skirmish_server::testing::{TestClient, TestServer};
use tokio::sync::{Mutex, Notify};
use tokio_util::sync::CancellationToken;

/// One browser test at a time: they share two cores with everything else.
static SERIAL: Mutex<()> = Mutex::const_new(());

/// How long one whole match may take.
const MATCH_LIMIT: Duration = Duration::from_secs(90);

/// A bot pool connected to `server`, stopped on drop.
struct Bots(CancellationToken);

impl Bots {
    fn start(server: &TestServer) -> Bots {
        let token = CancellationToken::new();
        let mut options = BotOptions::new(server.ws_url(), "pool".into());
        // Gomoku and junqi tests play a few scripted moves against it: a random opponent lets them.
        for game in [
            skirmish_protocol::GameKind::Gomoku,
            skirmish_protocol::GameKind::Junqi,
        ] {
            options.strategies.insert(game, vec!["random".into()]);
        }
        let stop = token.clone();
        tokio::spawn(async move {
            let _ = run(options, stop).await;
        });
        Bots(token)
    }
}

impl Drop for Bots {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

fn base(server: &TestServer) -> String {
    format!("http://{}/", server.addr)
}

/// Waits until the server lists a connected bot (so the page's `list_bots` finds its strategies).
async fn wait_for_bots(page: &Client, server: &TestServer) {
    wait_for_bots_of(page, server, "plane").await;
}

/// Waits until the server lists a connected bot that plays `game`.
async fn wait_for_bots_of(page: &Client, server: &TestServer, game: &str) {
    let start = Instant::now();
    loop {
        page.goto(&format!("{}api/bots", base(server)))
            .await
            .expect("the bots API loads");
        let text: Value = page
            .execute("return document.body.innerText", vec![])
            .await
            .expect("the body");
        let bots: Value = serde_json::from_str(text.as_str().unwrap_or("[]")).unwrap_or(Value::Null);
        if bots.as_array().is_some_and(|b| {
            b.iter().any(|bot| {
                bot["offer"]["games"][game]
                    .as_array()
                    .is_some_and(|s| !s.is_empty())
            })
        }) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no bot that plays {game} connected: {bots}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_name_with_markup_is_shown_as_text() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let name = "<img src=x onerror=window.xss=1>";
    open_as(&page, &base(&server), name).await;
    create_room(&page, 2, "classic", 1).await;
    let check = "return [document.body.innerText.includes(arguments[0]), \
                 document.querySelectorAll('img[src=\"x\"]').length, window.xss === undefined]";
    let shown = page
        .execute(check, vec![Value::String(name.into())])
        .await
        .expect("the check runs");
    assert_eq!(shown, serde_json::json!([true, 0, true]), "the room page");
    // The lobby lists the room under its default name, "<name>'s room", as text too.
    page.goto(&base(&server)).await.expect("the lobby loads");
    find(&page, "#create-form").await;
    let start = Instant::now();
    loop {
        let shown = page
            .execute(check, vec![Value::String(format!("{name}'s room"))])
            .await
            .expect("the check runs");
        if shown == serde_json::json!([true, 0, true]) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the lobby: {shown}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A player who drops mid-match and is not back within the room's grace period (1 s, set in the
/// new-room form) is replaced by a bot, and the room page says so beside the seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_room_page_shows_a_bot_that_took_a_dropped_seat_over() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots(&page, &server).await;
    open_as(&page, &base(&server), "Alice").await;
    find(&page, "#create-form").await;
    type_into(&page, "#create-grace", "1").await;
    let room = create_room(&page, 2, "classic", 1).await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let joined = bob
        .request(skirmish_protocol::ClientMsg::JoinRoom {
            room: room.parse().expect("a room id"),
            seat: None,
        })
        .await;
    assert!(
        matches!(joined, skirmish_protocol::ServerMsg::Seated { .. }),
        "{joined:?}"
    );
    wait_state(&page, "the match under way", |s| s["phase"] == "deploy").await;
    drop(bob);
    let badge = text_of(&page, "[data-took-over-from]").await;
    assert_eq!(badge, "took over from Bob");
    // The board, the scores and the result name the seat under the player's own name too.
    let caption = text_of(&page, "[data-board=\"1\"] figcaption strong").await;
    assert_eq!(caption, "pool for Bob");
}

/// The rules page is one click away: the header (lobby and room pages) links to `/rules`, each
/// room page links to its own game's section, and the page has that section.
#[tokio::test]
async fn the_lobby_and_every_room_link_to_the_rules_of_their_game() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    open_as(&page, &base(&server), "Reader").await;
    let href = |css: &'static str| {
        let page = page.clone();
        async move { attr_of(&page, css, "href").await }
    };
    assert_eq!(href("#rules-link").await, "/rules", "the lobby's header");
    create_room(&page, 2, "classic", 1).await;
    assert_eq!(href("#rules-link").await, "/rules", "the room page's header");
    assert_eq!(href("[data-rules-link='plane']").await, "/rules#1-plane-battle");
    page.goto(&base(&server)).await.expect("the lobby loads");
    create_gomoku_room(&page, 15, "renju", "").await;
    assert_eq!(href("[data-rules-link='gomoku']").await, "/rules#2-gomoku");
    page.goto(&base(&server)).await.expect("the lobby loads");
    create_junqi_room(&page).await;
    assert_eq!(href("[data-rules-link='junqi']").await, "/rules#3-junqi");
    page.goto(&format!("{}rules#3-junqi", base(&server)))
        .await
        .expect("the rules page loads");
    let heading = text_of(&page, "h2[id='3-junqi']").await;
    assert_eq!(heading, "3. Junqi");
    find(&page, "h3#forbidden-points-renju").await;
    page.close().await.expect("close the browser");
}
