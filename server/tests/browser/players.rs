//! What players meet at the table (issue 18, "The players"): the match length in the create
//! form, the boards first with the turn and the clock in view (desktop and phone), deployment by
//! taps, a reload that keeps the event log and the clock, junqi moves that name pieces, the turn
//! alert, and controls that only show where they do something.

use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::Value;
use skirmish_server::testing::TestServer;

use super::junqi::play_a_move;
use super::plane::{cells_of, fire_somewhere};
use super::{Bots, SERIAL, base, wait_for_bots, wait_for_bots_of};
use crate::harness::{
    Driver, click, create_gomoku_room, create_junqi_room, create_room, deploy_random, find, my_turn, open_as,
    state, text_of, wait_gomoku, wait_junqi, wait_state,
};

/// Runs `script` (a function body) in the page and returns its value.
async fn js(page: &Client, script: &str) -> Value {
    page.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("the script runs: {e}\n{script}"))
}

/// Waits until `script` returns true.
async fn wait_js(page: &Client, script: &str, what: &str) {
    let start = Instant::now();
    loop {
        if js(page, script).await == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < crate::harness::WAIT,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A 2-seat plane room with a `random` bot in seat 1, the page in seat 0 at deployment.
async fn room_with_bot(page: &Client, server: &TestServer, variant: &str, rounds: u32) -> String {
    wait_for_bots(page, server).await;
    open_as(page, &base(server), "Pat").await;
    let room = create_room(page, 2, variant, rounds).await;
    click(
        page,
        "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"random\"]",
    )
    .await;
    click(page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_state(page, "deployment", |s| s["phase"] == "deploy").await;
    room
}

/// The rectangle of the first element matching `css`, as [top, bottom, left, right], with the
/// viewport's [height, width].
async fn rect(page: &Client, css: &str) -> (f64, f64, f64, f64, f64, f64) {
    let v = js(
        page,
        &format!(
            "const r = document.querySelector({css:?}).getBoundingClientRect();
             return [r.top, r.bottom, r.left, r.right, window.innerHeight, window.innerWidth];"
        ),
    )
    .await;
    let n = |i: usize| v[i].as_f64().unwrap_or_else(|| panic!("{css}: {v}"));
    (n(0), n(1), n(2), n(3), n(4), n(5))
}

/// Item 1: the create form names formats (18 rounds the default) and says how long a match takes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_create_form_names_match_lengths_and_their_duration() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    open_as(&page, &base(&server), "Len").await;
    find(&page, "#create-format").await;
    let form = "return [document.getElementById('create-format').value, document.getElementById('create-rounds').value,
                        document.getElementById('create-length').textContent]";
    let v = js(&page, form).await;
    assert_eq!(v[0], "full", "{v}");
    assert_eq!(v[1], "18", "18 rounds stay the default: {v}");
    assert!(
        v[2].as_str().is_some_and(|t| t.contains("35–45 min")),
        "the measured length: {v}"
    );
    find(&page, "#create-format")
        .await
        .select_by_value("short")
        .await
        .expect("pick Short");
    let v = js(&page, form).await;
    assert_eq!(v[1], "6", "{v}");
    assert!(v[2].as_str().is_some_and(|t| t.contains("11–15 min")), "{v}");
    // Fewer players, shorter match; typed rounds pick the format they name, or Custom.
    find(&page, "#create-players")
        .await
        .select_by_value("2")
        .await
        .expect("2 seats");
    let v = js(&page, form).await;
    assert!(v[2].as_str().is_some_and(|t| t.contains("5–8 min")), "{v}");
    crate::harness::type_into(&page, "#create-rounds", "3").await;
    assert_eq!(js(&page, form).await[0], "quick");
    crate::harness::type_into(&page, "#create-rounds", "5").await;
    assert_eq!(js(&page, form).await[0], "custom");
    find(&page, "#create-format")
        .await
        .select_by_value("short")
        .await
        .expect("pick Short");
    click(&page, "#create-submit").await;
    let s = wait_state(&page, "the new room", |s| s["page"] == "room" && s["you"] == 0).await;
    let rounds = js(
        &page,
        "return window.skirmish.roomStates.get(window.skirmish.roomId).summary.config.game.format.rounds",
    )
    .await;
    assert_eq!(rounds, 6, "the room plays the chosen format: {s}");
}

/// Checks that the page's own board is wholly in the first screen, and that the status bar (turn
/// and clock) stays in view when the page is scrolled to its end.
async fn boards_first(page: &Client, seat: u64, what: &str) {
    js(page, "window.scrollTo(0, 0); return true").await;
    let (top, bottom, _, _, height, _) = rect(page, &format!("[data-board=\"{seat}\"]")).await;
    assert!(
        top >= 0.0 && bottom <= height,
        "{what}: the own board is in the first screen ({top}..{bottom} of {height})"
    );
    let (_, deploy_bottom, ..) = rect(page, "#deploy").await;
    assert!(
        deploy_bottom > bottom,
        "{what}: the deploy controls come after the board"
    );
    js(
        page,
        "window.scrollTo(0, document.documentElement.scrollHeight); return true",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let scrolled = js(page, "return window.scrollY").await.as_f64().unwrap_or(0.0);
    assert!(
        scrolled > 100.0,
        "{what}: the page is long enough to scroll ({scrolled})"
    );
    let (top, bottom, ..) = rect(page, "#status").await;
    assert!(
        top >= 0.0 && bottom <= height,
        "{what}: the status bar stays in view ({top}..{bottom})"
    );
    let clock = js(page, "return document.getElementById('clock').textContent").await;
    assert!(
        clock.as_str().is_some_and(|c| c.contains(':')),
        "{what}: the clock runs: {clock}"
    );
}

/// Item 2: at 1280x900 and on a phone (390x844) the board comes first, the deploy controls after
/// it, and the turn and the clock stay in view however far the page scrolls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_boards_come_first_and_the_clock_stays_in_view() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.set_window_size(1280, 900).await.expect("desktop size");
    room_with_bot(&page, &server, "double", 3).await;
    boards_first(&page, 0, "desktop").await;
    page.set_window_size(390, 844).await.expect("phone size");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let width = js(&page, "return window.innerWidth")
        .await
        .as_f64()
        .unwrap_or(0.0);
    assert!(width <= 400.0, "a phone-sized viewport: {width}");
    boards_first(&page, 0, "phone").await;
    let (_, _, left, right, _, width) = rect(&page, "[data-board=\"0\"]").await;
    assert!(
        left >= 0.0 && right <= width,
        "the board fits the phone's width ({left}..{right} of {width})"
    );
}

/// Item 3: on a phone, a tap puts a plane's head on the cell, a tap on the head turns the plane,
/// a tap on its body picks it up, and Ready confirms; the server gets what was tapped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_deploys_by_tapping() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.set_window_size(390, 844).await.expect("phone size");
    room_with_bot(&page, &server, "double", 1).await;
    let cell = |c: &str| format!("[data-board=\"0\"] [data-cell=\"{c}\"]");
    click(&page, &cell("E5")).await;
    find(&page, &format!("{}[data-facing=\"up\"]", cell("E5"))).await;
    let up = cells_of(&state(&page).await, 0, "pending");
    assert_eq!(up.len(), 10, "one plane placed by a tap");
    // Tap the head again: the plane turns; the body is now elsewhere.
    click(&page, &cell("E5")).await;
    find(&page, &format!("{}[data-facing=\"right\"]", cell("E5"))).await;
    let right = cells_of(&state(&page).await, 0, "pending");
    assert_eq!(right.len(), 10);
    assert_ne!(up, right, "the plane turned");
    assert!(
        right.contains("B5") && !right.contains("E8"),
        "facing right, its tail to the left: {right:?}"
    );
    // A tap on its body picks it up; tapping again puts it back (facing up), then turns it.
    click(&page, &cell("C5")).await;
    wait_state(&page, "the plane picked up", |s| {
        cells_of(s, 0, "pending").is_empty()
    })
    .await;
    click(&page, &cell("E5")).await;
    click(&page, &cell("E5")).await;
    find(&page, &format!("{}[data-facing=\"right\"]", cell("E5"))).await;
    click(&page, &cell("G1")).await;
    find(&page, &format!("{}[data-facing=\"up\"]", cell("G1"))).await;
    let hint = js(&page, "return document.getElementById('deploy-hint').textContent").await;
    assert!(
        hint.as_str().is_some_and(|t| t.contains("G1")),
        "the hint says what the tap did: {hint}"
    );
    click(&page, "#deploy-ready").await;
    let s = wait_state(&page, "the battle", |s| s["phase"] == "attack").await;
    let mut heads: Vec<String> = s["boards"][0]["planes"]
        .as_array()
        .expect("planes")
        .iter()
        .filter(|p| p[1] == "own" && p[2] == true)
        .map(|p| p[0].as_str().expect("a cell").to_owned())
        .collect();
    heads.sort();
    assert_eq!(heads, vec!["E5".to_owned(), "G1".to_owned()], "{s}");
    find(
        &page,
        &format!("{}[data-plane=\"own\"][data-facing=\"right\"]", cell("E5")),
    )
    .await;
    let arrow = text_of(&page, &cell("E5")).await;
    assert_eq!(arrow, "▶", "the head's arrow points where the plane faces");
    // A shot from the phone (the cell brought to the middle of the screen, clear of the bar).
    let target = "[data-board=\"1\"] [data-cell=\"E5\"]";
    js(
        &page,
        &format!("document.querySelector({target:?}).scrollIntoView({{ block: 'center' }}); return true"),
    )
    .await;
    click(&page, target).await;
    wait_state(&page, "the shot", |s| {
        s["boards"][1]["shots"].as_array().is_some_and(|a| !a.is_empty())
    })
    .await;
    js(&page, "window.scrollTo(0, 0); return true").await;
    crate::harness::screenshot(&page, "phone").await;
}

/// Item 4: a reload mid-match keeps the event log (the shots) and the clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_event_log_and_the_clock() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    room_with_bot(&page, &server, "double", 3).await;
    deploy_random(&page).await;
    // Fire twice, so the log holds shots by both sides.
    let mut fired = 0;
    let start = Instant::now();
    while fired < 2 {
        assert!(start.elapsed() < crate::harness::WAIT, "my turns");
        let s = state(&page).await;
        if my_turn(&s) {
            fire_somewhere(&page, &s, 11 * (fired + 1)).await;
            fired += 1;
        } else {
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }
    let before = wait_state(&page, "the log", |s| {
        s["log"].as_array().is_some_and(|l| {
            l.iter()
                .filter(|t| t.as_str().is_some_and(|t| t.contains("fired at")))
                .count()
                >= 3
        })
    })
    .await;
    page.refresh().await.expect("reload");
    let after = wait_state(&page, "the room after the reload", |s| {
        s["page"] == "room" && s["you"] == 0 && s["log"].as_array().is_some_and(|l| !l.is_empty())
    })
    .await;
    let lines = |s: &Value| -> Vec<String> {
        s["log"]
            .as_array()
            .expect("log")
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect()
    };
    let (was, now) = (lines(&before), lines(&after));
    let shots = |l: &[String]| {
        l.iter()
            .filter(|t| t.contains("fired at"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert!(now.iter().any(|t| t.contains("Round 1 starts")), "{now:?}");
    let (shots_was, shots_now) = (shots(&was), shots(&now));
    assert!(
        shots_now.len() >= shots_was.len() && shots_now[..shots_was.len()] == shots_was[..],
        "the same shots, in order, after the reload:\n{shots_was:?}\n{shots_now:?}"
    );
    if after["phase"] == "attack" {
        let clock = js(&page, "return document.getElementById('clock').textContent").await;
        assert!(
            clock.as_str().is_some_and(|c| c.contains(':')),
            "the clock, not '—': {clock}"
        );
    }
}

/// Item 5: junqi moves name the player's own pieces while playing, and every piece at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junqi_moves_name_own_pieces_and_every_piece_at_the_end() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Kim").await;
    create_junqi_room(&page).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    click(&page, "#deploy-send").await;
    for _ in 0..3 {
        play_a_move(&page, None).await;
    }
    let ranks = "return [...document.querySelectorAll('#moves [data-move]')].map((e) =>
                   [Number(e.dataset.seat), e.dataset.rank || null, e.dataset.result, e.dataset.met || null, e.textContent])";
    let during = js(&page, ranks).await;
    let moves = during.as_array().expect("moves");
    assert!(!moves.is_empty(), "{during}");
    for m in moves {
        let text = m[4].as_str().expect("text");
        if m[0] == 0 {
            let rank = m[1]
                .as_str()
                .unwrap_or_else(|| panic!("my move without my piece's rank: {during}"));
            assert!(
                !text.contains(": the piece at"),
                "my moving piece is named: {text}"
            );
            assert!(!rank.is_empty());
        } else {
            assert!(
                m[1].is_null(),
                "the bot's piece stays hidden while playing: {during}"
            );
        }
    }
    let log = state(&page).await["log"].clone();
    assert!(
        log.as_array().is_some_and(|l| l.iter().any(|t| t
            .as_str()
            .is_some_and(|t| t.starts_with("Move 1: ") && !t.contains("the piece at G")))),
        "the log names my first move's piece, numbered once: {log}"
    );
    // Item 10: the piece names' characters come from the page's own font, not the system's.
    let shipped = js(
        &page,
        "return document.fonts.ready.then(() => [...document.fonts].some((f) => f.family.replace(/\"/g, '') === 'Skirmish CJK' && f.status === 'loaded'))",
    )
    .await;
    assert_eq!(shipped, true, "the shipped CJK font is loaded");
    if junqi_phase(&page).await != "over" {
        click(&page, "#resign").await;
        click(&page, "#resign-confirm").await;
    }
    wait_junqi(&page, "the end", |s| s["phase"] == "over").await;
    let after = js(&page, ranks).await;
    for m in after.as_array().expect("moves") {
        assert!(m[1].is_string(), "every moved piece named at the end: {after}");
        if m[2] != "moved" {
            assert!(m[3].is_string(), "and every attacked one: {after}");
        }
    }
}

async fn junqi_phase(page: &Client) -> String {
    js(page, "return document.getElementById('room').dataset.phase")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Item 6: while the player must act, the tab's title and icon say so; the icon is served
/// (no 404 for /favicon.ico).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tab_title_and_icon_show_the_turn() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    room_with_bot(&page, &server, "classic", 1).await;
    let alert = "return [document.title, document.querySelector('link[rel=icon]').getAttribute('href')]";
    let v = js(&page, alert).await;
    assert!(
        v[0].as_str().is_some_and(|t| t.starts_with("▶ Your turn")),
        "deploying is my turn: {v}"
    );
    assert_eq!(v[1], "/favicon-turn.svg", "{v}");
    find(&page, "#sound-toggle").await;
    click(&page, "#room-leave").await;
    wait_js(
        &page,
        "return !document.title.startsWith('▶')",
        "the title back to normal",
    )
    .await;
    let v = js(&page, alert).await;
    assert_eq!(v[1], "/favicon.svg", "{v}");
    for path in ["/favicon.ico", "/favicon.svg", "/favicon-turn.svg"] {
        let status = js(&page, &format!("return fetch({path:?}).then((r) => r.status)")).await;
        assert_eq!(status, 200, "{path}");
    }
}

/// Item 8: "Start now" and the bot controls go once the match starts; a spectator sees no Rematch
/// and no note about adding bots; the player still gets Rematch at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn controls_show_only_where_they_do_something() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let watcher = driver.browser().await;
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "Owner").await;
    open_as(&watcher, &base(&server), "Watcher").await;
    let room = create_gomoku_room(&page, 15, "freestyle", "").await;
    find(&page, "#start-now").await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_gomoku(&page, "the game", |s| s["phase"] == "play").await;
    let absent = |css: &str| format!("return document.querySelector({css:?}) === null");
    assert_eq!(
        js(&page, &absent("#start-now")).await,
        true,
        "no Start now during the match"
    );
    assert_eq!(js(&page, &absent("[data-action=\"add-bot\"]")).await, true);
    watcher
        .goto(&format!("{}room/{room}", base(&server)))
        .await
        .expect("open the room");
    wait_gomoku(&watcher, "the spectator's board", |s| s["phase"] == "play").await;
    assert_eq!(
        js(&watcher, &absent("#bots-note")).await,
        true,
        "no bot note for a spectator mid-match"
    );
    click(&page, "#resign").await;
    click(&page, "#resign-confirm").await;
    wait_gomoku(&page, "the result", |s| s["phase"] == "over").await;
    wait_gomoku(&watcher, "the spectator's result", |s| {
        s["phase"] == "over" && s["result"].is_object()
    })
    .await;
    find(&page, "#rematch").await;
    assert_eq!(
        js(&watcher, &absent("#rematch")).await,
        true,
        "no Rematch for a spectator"
    );
    assert_eq!(js(&watcher, &absent("#bots-note")).await, true);
    assert_eq!(js(&page, &absent("#start-now")).await, true);
}

/// Item 7: a visitor without a name who follows a room's link (the tournament's Watch link) is
/// told a match is there to watch, and watches it with one click.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_link_lets_a_visitor_watch_at_once() {
    use skirmish_games::gomoku::{self, Rule};
    use skirmish_protocol::{ClientMsg, GameConfig, RoomConfig, ServerMsg};
    use skirmish_server::testing::TestClient;
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let (mut black, _) = TestClient::join(&server.ws_url(), "Black").await;
    let (mut white, _) = TestClient::join(&server.ws_url(), "White").await;
    let config = RoomConfig {
        name: Some("On show".into()),
        game: GameConfig::Gomoku(gomoku::Config {
            size: 15,
            rule: Rule::Freestyle,
            ..gomoku::Config::default()
        }),
        clock: None,
        on_drop: None,
    };
    let reply = black.request(ClientMsg::CreateRoom { config, sit: true }).await;
    let ServerMsg::RoomCreated { room, .. } = reply else {
        panic!("created: {reply:?}")
    };
    white.request(ClientMsg::JoinRoom { room, seat: None }).await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&format!("{}room/{room}", base(&server)))
        .await
        .expect("the room's link");
    let text = text_of(&page, "#welcome").await;
    assert!(
        text.contains("watch"),
        "the page says there is a match to watch: {text}"
    );
    // It says which game, whose room, and that the match is on; no "offline" badge before a name.
    find(&page, "#invite[data-invite=\"watch\"]").await;
    let invite = text_of(&page, "#invite").await;
    assert!(
        invite.contains("Black invites you to Gomoku") && invite.contains("under way"),
        "{invite}"
    );
    let badge_shown: Value = page
        .execute(
            "return document.getElementById('conn').offsetParent !== null",
            vec![],
        )
        .await
        .expect("the badge's visibility");
    assert_eq!(
        badge_shown,
        Value::Bool(false),
        "a connection badge before a name is chosen"
    );
    // A room still waiting says how many seats are free.
    let waiting = RoomConfig {
        name: Some("Open seats".into()),
        game: GameConfig::Gomoku(gomoku::Config::default()),
        clock: None,
        on_drop: None,
    };
    let reply = black
        .request(ClientMsg::CreateRoom {
            config: waiting,
            sit: true,
        })
        .await;
    let ServerMsg::RoomCreated { room: open, .. } = reply else {
        panic!("created: {reply:?}")
    };
    let visitor = driver.browser().await;
    visitor
        .goto(&format!("{}room/{open}", base(&server)))
        .await
        .expect("the waiting room's link");
    find(&visitor, "#invite[data-invite=\"seats\"]").await;
    let invite = text_of(&visitor, "#invite").await;
    assert!(invite.contains("1 of 2 seats is free"), "{invite}");
    visitor.set_window_size(390, 844).await.expect("a phone's size");
    crate::screenshot_file(&visitor, "invite-phone.png").await;
    click(&page, "#watch-guest").await;
    let s = wait_gomoku(&page, "the match, watched", |s| {
        s["page"] == "gomoku" && s["phase"] == "play"
    })
    .await;
    assert!(s["you"].is_null(), "a spectator: {s}");
    find(&page, "[data-spectator]").await;
}

/// Item 9: at the end of a match the winner is not marked "out", and the totals and wins come
/// right after the names, in view without scrolling the table sideways.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_final_scoreboard_shows_totals_first_and_no_winner_out() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    room_with_bot(&page, &server, "classic", 1).await;
    deploy_random(&page).await;
    let start = Instant::now();
    let mut pick = 0;
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "the match took too long"
        );
        let s = state(&page).await;
        if s["phase"] == "over" {
            break;
        }
        if my_turn(&s) {
            pick += 13;
            fire_somewhere(&page, &s, pick).await;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    find(&page, "#final").await;
    let v = js(
        &page,
        "const heads = [...document.querySelectorAll('#scoreboard thead th')].map((e) => e.textContent);
         const winner = document.getElementById('final').dataset.winner;
         const row = document.querySelector(`[data-score-row=\"${winner}\"]`);
         return [heads, row.querySelector('.badge.out') !== null];",
    )
    .await;
    assert_eq!(v[0][1], "Total", "{v}");
    assert_eq!(v[0][2], "Wins", "{v}");
    assert_eq!(v[1], false, "the winner is not marked out: {v}");
}
