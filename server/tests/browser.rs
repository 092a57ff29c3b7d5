//! The web client in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`)
//! driven over WebDriver by `fantoccini`, against an in-process server and in-process bots. The
//! tests click the page as people do and read its `data-*` attributes.
//!
//! Set `SKIRMISH_SCREENSHOTS=<absolute folder>` to save the screenshots shown in the README
//! (`web-lobby.png`, `web-deploy.png`, `web-battle.png`, `gomoku.png`, `junqi.png`, `tournament.png`).

#[path = "browser/harness.rs"]
mod harness;
#[path = "browser/players.rs"]
mod players;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::Client;
use harness::{
    Driver, attr_of, click, create_gomoku_room, create_junqi_room, create_room, deploy_random, find,
    gomoku_state, junqi_state, my_turn, open_as, own_planes, screenshot, screenshot_file, state, stones,
    text_of, type_into, wait_gomoku, wait_junqi, wait_state,
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

fn cells_of(s: &Value, seat: usize, kind: &str) -> HashSet<String> {
    s["boards"][seat]["planes"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|p| p[1] == kind)
                .map(|p| p[0].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn shots_of(s: &Value, seat: usize) -> Vec<(String, String)> {
    s["boards"][seat]["shots"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p[0].as_str().unwrap_or_default().to_owned(),
                        p[1].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Fires at the first open cell of the first opponent board that takes shots (a random one of its
/// open cells), then waits until the shot shows.
async fn fire_somewhere(page: &Client, s: &Value, pick: usize) {
    let board = s["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .find(|b| b["fireable"].as_array().is_some_and(|f| !f.is_empty()))
        .expect("an opponent board with open cells on my turn");
    let open = board["fireable"].as_array().expect("cells");
    let cell = open[pick % open.len()].as_str().expect("a cell");
    fire_at(page, board["seat"].as_u64().expect("a seat"), cell).await;
}

async fn fire_at(page: &Client, seat: u64, cell: &str) {
    click(page, &format!("[data-board=\"{seat}\"] [data-cell=\"{cell}\"]")).await;
    let css_done = format!("{seat}:{cell}");
    wait_state(page, &format!("the shot at {css_done}"), |s| {
        s["phase"] == "over"
            || shots_of(s, usize::try_from(seat).expect("small"))
                .iter()
                .any(|(c, _)| c == cell)
            || !my_turn(s)
    })
    .await;
}

/// Three people on three browsers: a 3-seat `double` room, created and joined from the lobby,
/// deployed and played to the end of a 1-round match by clicking; every page shows the same scores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_play_a_double_match() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let names = ["Ann", "Bob", "Cat"];
    let mut pages = Vec::new();
    for name in names {
        let page = driver.browser().await;
        open_as(&page, &base(&server), name).await;
        pages.push(page);
    }
    let room = create_room(&pages[0], 3, "double", 1).await;
    // The others see the room appear in their lobby and join it.
    for page in &pages[1..] {
        find(page, &format!("[data-room-id=\"{room}\"] [data-action=\"join\"]")).await;
        screenshot(page, "lobby").await;
        click(page, &format!("[data-room-id=\"{room}\"] [data-action=\"join\"]")).await;
        wait_state(page, "a seat", |s| s["page"] == "room" && !s["you"].is_null()).await;
    }
    for page in &pages {
        wait_state(page, "deployment", |s| s["phase"] == "deploy").await;
    }
    // Ann places her planes by pointing: C1 facing up, then (rotated) I7 facing right.
    let ann = &pages[0];
    click(ann, "[data-board=\"0\"] [data-cell=\"C1\"]").await;
    click(ann, "#deploy-rotate").await;
    find(ann, "#deploy-rotate[data-facing=\"right\"]").await;
    // A right-facing plane with its head in column A would leave the board: shown as such, refused.
    click(ann, "[data-board=\"0\"] [data-cell=\"A5\"]").await;
    find(ann, "[data-board=\"0\"] [data-cell=\"A5\"][data-preview=\"bad\"]").await;
    click(ann, "[data-board=\"0\"] [data-cell=\"I7\"]").await;
    let s = state(ann).await;
    assert_eq!(cells_of(&s, 0, "pending").len(), 20, "two planes placed: {s}");
    screenshot(ann, "deploy").await;
    click(ann, "#deploy-ready").await;
    for page in &pages[1..] {
        deploy_random(page).await;
    }
    // Every page draws its own planes; which page holds which seat.
    let mut page_of: HashMap<u64, usize> = HashMap::new();
    for (i, page) in pages.iter().enumerate() {
        let s = wait_state(page, "the attack", |s| s["phase"] == "attack").await;
        page_of.insert(s["you"].as_u64().expect("seated"), i);
        assert_eq!(own_planes(&s).len(), 20, "own planes drawn: {s}");
    }
    let ann_heads: Vec<String> = own_planes(&state(ann).await)
        .into_iter()
        .filter(|(_, h)| *h)
        .map(|(c, _)| c)
        .collect();
    assert_eq!(ann_heads, vec!["C1".to_owned(), "I7".to_owned()]);
    // Each player first fires one shot anywhere, then at the heads of the next opponent (read from
    // that opponent's page). A tie for first means an extra round: deploy again.
    let start = Instant::now();
    let mut fired: HashMap<u64, usize> = HashMap::new();
    let mut shots = 0;
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
        let mut over = 0;
        for page in &pages {
            let s = state(page).await;
            if s["phase"] == "over" {
                over += 1;
                continue;
            }
            if s["phase"] == "deploy" && s["deploy"] == "placing" {
                deploy_random(page).await;
                continue;
            }
            if !my_turn(&s) {
                continue;
            }
            let you = s["you"].as_u64().expect("seated");
            let n = fired.entry(you).or_default();
            *n += 1;
            if *n == 1 {
                fire_somewhere(page, &s, 7).await;
                continue;
            }
            let board = s["boards"]
                .as_array()
                .expect("boards")
                .iter()
                .find(|b| b["fireable"].as_array().is_some_and(|f| !f.is_empty()))
                .expect("an opponent to fire at");
            let target = board["seat"].as_u64().expect("a seat");
            let shot: HashSet<String> = shots_of(&s, usize::try_from(target).expect("small"))
                .into_iter()
                .map(|(c, _)| c)
                .collect();
            let theirs = own_planes(&state(&pages[page_of[&target]]).await);
            let head = theirs
                .iter()
                .find(|(c, h)| *h && !shot.contains(c))
                .map(|(c, _)| c.clone())
                .expect("a head left");
            fire_at(page, target, &head).await;
            shots += 1;
            if shots == 3 {
                screenshot(&pages[2], "battle").await;
            }
        }
        if over == pages.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    // Every page shows the same totals and placings, and the final screen.
    let mut finals = Vec::new();
    for page in &pages {
        let s = wait_state(page, "the final screen", |s| {
            s["placings"].as_array().is_some_and(|p| p.len() == 3)
        })
        .await;
        find(page, "#final #rematch").await;
        finals.push((s["totals"].clone(), s["placings"].clone()));
    }
    assert!(
        finals.iter().all(|f| *f == finals[0]),
        "pages disagree: {finals:?}"
    );
    let totals: Vec<u64> = finals[0]
        .0
        .as_array()
        .expect("totals")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(totals.len(), 3);
    assert!(
        totals.iter().sum::<u64>() >= 4,
        "two knockouts score at least 3 + 1: {totals:?}"
    );
    for page in pages {
        page.close().await.expect("close the browser");
    }
}

/// One person against a bot in a 2-seat `classic` room: the owner adds the bot from the page, and
/// the match is played to its end by clicking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_person_plays_a_bot() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots(&page, &server).await;
    open_as(&page, &base(&server), "Dee").await;
    create_room(&page, 2, "classic", 1).await;
    click(
        &page,
        "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"random\"]",
    )
    .await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&page).await;
    let start = Instant::now();
    let mut pick = 0;
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
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
    let s = wait_state(&page, "the final screen", |s| {
        s["placings"].as_array().is_some_and(|p| p.len() == 2)
    })
    .await;
    let totals: Vec<u64> = s["totals"]
        .as_array()
        .expect("totals")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(
        totals.iter().filter(|t| **t == 3).count(),
        1,
        "one knockout, 3 points: {s}"
    );
    assert!(s["log"].as_array().is_some_and(|l| {
        l.iter()
            .any(|t| t.as_str().is_some_and(|t| t.contains("Match over")))
    }));
    // The round's two deployments were committed to before the shots and checked at its end: one
    // line for the round (issue 18), with each commitment and check in its details.
    let s = wait_state(&page, "both reveals checked", |s| {
        s["log"].as_array().is_some_and(|l| {
            l.iter().any(|t| {
                t.as_str().is_some_and(|t| {
                    t.starts_with("✓ Round 1: the referee committed to 2 deployments, 2 checked")
                })
            })
        })
    })
    .await;
    let log: Vec<&str> = s["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        log.iter().filter(|t| t.contains("committed to")).count(),
        1,
        "one line for the round's commitments: {s}"
    );
    let audit = log.iter().find(|t| t.starts_with("✓")).expect("the round's line");
    assert_eq!(
        audit.matches("matches the referee's commitment").count(),
        2,
        "each check in the details: {audit}"
    );
    assert!(!log.iter().any(|t| t.starts_with("✗")), "{s}");
    page.close().await.expect("close the browser");
}

/// A reload in the middle of a round keeps the seat, the planes and every shot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_seat_and_the_board() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots(&page, &server).await;
    open_as(&page, &base(&server), "Eve").await;
    let room = create_room(&page, 2, "double", 1).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&page).await;
    // Two shots of ours, and the bot's answers.
    for pick in [3, 40] {
        let s = wait_state(&page, "my turn", my_turn).await;
        fire_somewhere(&page, &s, pick).await;
    }
    let before = wait_state(&page, "my turn again", my_turn).await;
    page.refresh().await.expect("reload");
    let after = wait_state(&page, "the room after the reload", |s| {
        s["page"] == "room" && s["phase"] == "attack" && s["you"] == 0
    })
    .await;
    assert_eq!(after["id"].as_str(), Some(room.as_str()));
    let mut mine_before = own_planes(&before);
    let mut mine_after = own_planes(&after);
    mine_before.sort();
    mine_after.sort();
    assert_eq!(mine_before.len(), 20);
    assert_eq!(mine_before, mine_after, "the same planes after the reload");
    for seat in 0..2 {
        assert_eq!(
            shots_of(&before, seat),
            shots_of(&after, seat),
            "the same shots on board {seat}"
        );
    }
    // And the seat still plays: it is our turn, and a shot goes through.
    let s = wait_state(&page, "my turn after the reload", my_turn).await;
    fire_somewhere(&page, &s, 5).await;
    page.close().await.expect("close the browser");
}

/// Installed in the spectator's page: after every change of the DOM (so after every render),
/// unless the round is over and every deployment public, each board may draw plane cells only for
/// planes shot down (10 per `down` shot), and never the own/pending kinds.
const WATCH_JS: &str = r#"
window.watchChecks = 0; window.watchDowns = 0; window.watchViolations = [];
const check = () => {
  const room = document.getElementById('room');
  if (!room || room.dataset.revealed === 'true' || room.dataset.phase === 'over') return;
  window.watchChecks += 1;
  for (const b of document.querySelectorAll('[data-board]')) {
    const planes = [...b.querySelectorAll('[data-plane]')];
    const bad = planes.filter((c) => c.dataset.plane !== 'downed');
    if (bad.length) window.watchViolations.push(`board ${b.dataset.board}: ${bad.map((c) => c.dataset.cell + ' ' + c.dataset.plane)}`);
    const downs = b.querySelectorAll('[data-shot="down"]').length;
    window.watchDowns = Math.max(window.watchDowns, downs);
    if (planes.length !== 10 * downs) window.watchViolations.push(`board ${b.dataset.board}: ${planes.length} plane cells, ${downs} downs`);
  }
};
new MutationObserver(check).observe(document.getElementById('main'), { childList: true, subtree: true, attributes: true });
check();
"#;

/// A spectator, joining by the room's link, sees shots and downed planes, and never a plane cell
/// before it is revealed (shot down, or the round over).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_never_sees_a_hidden_plane() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let player = driver.browser().await;
    let watcher = driver.browser().await;
    wait_for_bots(&player, &server).await;
    open_as(&player, &base(&server), "Fay").await;
    let room = create_room(&player, 3, "double", 1).await;
    // The watcher opens the shared link, before the match starts.
    open_as(&watcher, &format!("{}room/{room}", base(&server)), "Gus").await;
    wait_state(&watcher, "the room as a spectator", |s| {
        s["page"] == "room" && s["you"].is_null()
    })
    .await;
    // Check every render of the spectator's page, not only the ones the polling below catches.
    watcher
        .execute(WATCH_JS, vec![])
        .await
        .expect("the watch script runs");
    // One person and two bots: the owner starts now and bots fill the empty seats.
    click(&player, "#start-now").await;
    wait_state(&player, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&player).await;
    let mine: HashSet<String> = own_planes(&state(&player).await)
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let start = Instant::now();
    let mut pick = 0;
    let mut checks = 0;
    let mut downed_seen = false;
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
        let w = state(&watcher).await;
        if w["phase"] == "over" {
            break;
        }
        if w["revealed"] == true {
            // Between the round's end (every deployment revealed) and the match's.
            continue;
        }
        checks += 1;
        for board in w["boards"].as_array().expect("boards") {
            let seat = usize::try_from(board["seat"].as_u64().expect("a seat")).expect("small");
            for (cell, kind, _) in board["planes"]
                .as_array()
                .expect("planes")
                .iter()
                .map(|p| (&p[0], &p[1], &p[2]))
            {
                assert_eq!(
                    kind, "downed",
                    "the spectator sees a {kind} plane cell {cell} on board {seat}: {w}"
                );
            }
            let downs = shots_of(&w, seat).iter().filter(|(_, r)| r == "down").count();
            let shown = cells_of(&w, seat, "downed");
            assert_eq!(
                shown.len(),
                10 * downs,
                "only downed planes are drawn on board {seat}: {w}"
            );
            downed_seen |= downs > 0;
            if seat == 0 {
                assert!(
                    shown.is_subset(&mine),
                    "board 0 shows cells that are not Fay's planes: {w}"
                );
            }
        }
        let s = state(&player).await;
        if my_turn(&s) {
            pick += 17;
            fire_somewhere(&player, &s, pick).await;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    let watched = watcher
        .execute(
            "return [window.watchChecks, window.watchDowns, window.watchViolations]",
            vec![],
        )
        .await
        .expect("the watch results");
    assert_eq!(
        watched[2],
        serde_json::json!([]),
        "the spectator saw hidden planes: {watched}"
    );
    assert!(
        watched[0].as_u64().is_some_and(|n| n > 5),
        "renders checked: {watched}"
    );
    assert!(checks > 0, "the spectator was polled during the round");
    assert!(
        downed_seen || watched[1].as_u64().is_some_and(|n| n > 0),
        "a plane was shot down and shown: {watched}"
    );
    // At the end every deployment is public: the spectator's drawing of Fay's board is hers (unless
    // the bots tied and played an extra round without her).
    let w = state(&watcher).await;
    let shown: HashSet<String> = cells_of(&w, 0, "downed")
        .union(&cells_of(&w, 0, "revealed"))
        .cloned()
        .collect();
    if w["round"] == "0" {
        assert_eq!(shown, mine, "the revealed deployment is Fay's: {w}");
    } else {
        assert!(shown.is_empty(), "Fay did not play the extra round: {w}");
    }
    player.close().await.expect("close the browser");
    watcher.close().await.expect("close the browser");
}

/// Points a test tries in turn when it is its move: spread out, so the bot's random replies rarely
/// take them all and no line of five can form by accident.
const GOMOKU_PICKS: [&str; 8] = ["h8", "c3", "m13", "c13", "m3", "h3", "c8", "m8"];

/// Clicks the first of [`GOMOKU_PICKS`] the page lets its player play, and waits until the stone
/// shows; returns its point.
async fn place_somewhere(page: &Client, colour: &str) -> String {
    let s = wait_gomoku(page, "my move", |s| {
        s["phase"] == "play"
            && s["to_move"] == s["you"]
            && s["playable"].as_array().is_some_and(|p| !p.is_empty())
    })
    .await;
    let playable: HashSet<&str> = s["playable"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let point = GOMOKU_PICKS
        .iter()
        .find(|p| playable.contains(**p))
        .expect("one of the picks is free");
    click(page, &format!("#goban [data-point=\"{point}\"]")).await;
    wait_gomoku(page, &format!("my stone on {point}"), |s| {
        stones(s).contains(&((*point).to_owned(), colour.to_owned()))
    })
    .await;
    (*point).to_owned()
}

/// A person creates a gomoku room from the lobby, a spectator opens its link, the owner adds a
/// bot as white and plays three stones by clicking the board; the bot's replies appear on both
/// pages, the same stones in the same order; then the person resigns and both pages say the bot
/// won by resignation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_gomoku_against_a_bot_and_resigns() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let watcher = driver.browser().await;
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "Hal <i>").await;
    let room = create_gomoku_room(&page, 15, "freestyle", "").await;
    let s = gomoku_state(&page).await;
    assert_eq!(s["phase"], "waiting", "{s}");
    // The spectator opens the shared link.
    open_as(&watcher, &format!("{}room/{room}", base(&server)), "Ivy").await;
    wait_gomoku(&watcher, "the room as a spectator", |s| {
        s["page"] == "gomoku" && s["you"].is_null()
    })
    .await;
    // White's seat offers gomoku strategies only; the bot takes it and the game starts.
    click(
        &page,
        "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"random\"]",
    )
    .await;
    let offered: Value = page
        .execute(
            "return [...document.querySelectorAll('[data-seat-row=\"1\"] [data-bot-strategy] option')].map((o) => o.value)",
            vec![],
        )
        .await
        .expect("the strategies");
    assert!(
        !offered.as_array().expect("options").iter().any(|o| o == "bayes"),
        "a plane strategy offered for gomoku: {offered}"
    );
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    let s = wait_gomoku(&page, "the game", |s| s["phase"] == "play" && s["to_move"] == 0).await;
    assert!(stones(&s).is_empty(), "an empty board: {s}");
    assert_eq!(
        s["playable"].as_array().map(Vec::len),
        Some(225),
        "every point is free: {s}"
    );
    assert_eq!(s["turn"], "0");
    assert!(s["resign"] == true, "a Resign button for the player: {s}");
    // The display name is text, not markup.
    assert!(
        s["players"][0].as_str().is_some_and(|t| t.contains("Hal <i>")),
        "{s}"
    );
    // Three moves each: after each of ours, the bot's white reply shows.
    let mut mine = Vec::new();
    for n in 1..=3 {
        mine.push(place_somewhere(&page, "black").await);
        let s = wait_gomoku(&page, "the bot's reply", |s| {
            stones(s).len() == 2 * n && s["to_move"] == 0
        })
        .await;
        let drawn = stones(&s);
        let (reply, colour) = drawn.last().expect("a reply");
        assert_eq!(colour, "white", "{s}");
        assert_eq!(
            s["last"],
            serde_json::json!([reply]),
            "the reply is marked as the last move: {s}"
        );
        assert_eq!(s["move_list"].as_array().map(Vec::len), Some(2 * n), "{s}");
    }
    let s = gomoku_state(&page).await;
    let drawn = stones(&s);
    let blacks: Vec<String> = drawn
        .iter()
        .filter(|(_, c)| c == "black")
        .map(|(p, _)| p.clone())
        .collect();
    assert_eq!(blacks, mine, "black's stones are the clicked points: {s}");
    assert_eq!(
        s["view"]["moves"].as_array().map(Vec::len),
        Some(6),
        "the page's view keeps every move: {s}"
    );
    // A reload keeps the seat, the stones and the turn.
    page.refresh().await.expect("reload");
    let s = wait_gomoku(&page, "the room after the reload", |s| {
        s["page"] == "gomoku" && s["you"] == 0 && s["phase"] == "play" && s["to_move"] == 0
    })
    .await;
    assert_eq!(stones(&s), drawn, "the same stones after the reload: {s}");
    assert_eq!(s["playable"].as_array().map(Vec::len), Some(225 - 6), "{s}");
    // The spectator sees the same stones, in the same order, and cannot play.
    let w = wait_gomoku(&watcher, "the spectator's board", |w| stones(w) == drawn).await;
    assert!(w["playable"].as_array().is_some_and(Vec::is_empty), "{w}");
    assert!(w["resign"] == false, "no Resign button for a spectator: {w}");
    // The person resigns (with a confirmation step); the bot wins.
    click(&page, "#resign").await;
    click(&page, "#resign-confirm").await;
    for p in [&page, &watcher] {
        let s = wait_gomoku(p, "the result", |s| s["phase"] == "over").await;
        let result = &s["result"];
        assert_eq!(result["end"], "resigned", "{s}");
        assert_eq!(result["winner"], "1", "{s}");
        assert!(
            result["text"]
                .as_str()
                .is_some_and(|t| t.contains("won") && t.contains("resigned")),
            "{s}"
        );
        assert_eq!(s["view"]["outcome"]["winner"], 1, "{s}");
        assert_eq!(s["view"]["outcome"]["end"]["kind"], "resigned", "{s}");
        assert_eq!(s["view"]["outcome"]["end"]["seat"], 0, "{s}");
        assert!(s["playable"].as_array().is_some_and(Vec::is_empty), "{s}");
        assert_eq!(stones(&s), drawn, "the board stays: {s}");
    }
    let s = gomoku_state(&page).await;
    assert!(
        s["result"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("You (black) resigned")),
        "{s}"
    );
    page.close().await.expect("close the browser");
    watcher.close().await.expect("close the browser");
}

/// A renju room from a named opening: the opening's stones show from the start, marked as the
/// opening in the move list, and white (the bot, to move first after black's third stone) answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gomoku_room_starts_from_a_named_opening() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "Jo").await;
    create_gomoku_room(&page, 15, "renju", "kansei").await;
    click(&page, "#start-now").await;
    let s = wait_gomoku(&page, "black's first move after the opening", |s| {
        s["phase"] == "play" && s["to_move"] == 0 && stones(s).len() == 4
    })
    .await;
    let drawn = stones(&s);
    assert_eq!(
        drawn[..3],
        [
            ("h8".to_owned(), "black".to_owned()),
            ("h9".to_owned(), "white".to_owned()),
            ("h10".to_owned(), "black".to_owned())
        ],
        "the kansei opening: {s}"
    );
    assert_eq!(drawn[3].1, "white", "{s}");
    let first = text_of(&page, "#moves .opening").await;
    assert!(first.contains("h8") && first.contains("opening"), "{first}");
    let openings = page
        .execute(
            "return document.querySelectorAll('#moves .opening').length",
            vec![],
        )
        .await
        .expect("count");
    assert_eq!(openings, 3, "three opening stones in the move list: {s}");
    // Forbidden points are drawn only where the view lists them, and never offered.
    let forbidden: HashSet<&str> = s["forbidden"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let listed: HashSet<&str> = s["view"]["forbidden"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(forbidden, listed, "{s}");
    assert!(
        s["playable"]
            .as_array()
            .expect("points")
            .iter()
            .filter_map(Value::as_str)
            .all(|p| !forbidden.contains(p)),
        "{s}"
    );
    place_somewhere(&page, "black").await;
    page.close().await.expect("close the browser");
}

/// A 15x15 point name from 0-based column and row (row 0 at the bottom).
fn point(x: i32, y: i32) -> String {
    let col = u8::try_from(x).expect("on the board");
    format!("{}{}", char::from(b'a' + col), y + 1)
}

/// The stones a gomoku page draws, by point.
fn board_of(s: &Value) -> HashMap<String, String> {
    stones(s).into_iter().collect()
}

/// Clicks `at` on black's turn and waits for the bot's reply.
async fn play_and_wait_reply(page: &Client, at: &str) -> Value {
    let before = wait_gomoku(page, "my move", |s| {
        s["phase"] == "play" && s["to_move"] == 0 && s["playable"].as_array().is_some_and(|p| !p.is_empty())
    })
    .await;
    let n = stones(&before).len();
    click(page, &format!("#goban [data-point=\"{at}\"]")).await;
    wait_gomoku(page, &format!("the reply to {at}"), |s| {
        s["phase"] == "over" || (stones(s).len() == n + 2 && s["to_move"] == 0)
    })
    .await
}

/// Renju against a bot: black builds two open twos that cross at an empty point, which the page then
/// marks forbidden (as the server's view lists it) and does not let black play; then black makes
/// five in a row and wins, and the page highlights the winning line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renju_marks_forbidden_points_and_a_five_wins() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "Kim").await;
    create_gomoku_room(&page, 15, "renju", "").await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    let mut s = wait_gomoku(&page, "the game", |s| s["phase"] == "play" && s["to_move"] == 0).await;
    // A double-three at the anchor: black two to its left and two below it. The bot plays at
    // random, so when it lands on the lines through the anchor, start again at another anchor.
    let mut forbidden_at = None;
    'anchors: for (x, y) in [(4, 10), (10, 10), (4, 4), (10, 4)] {
        let shape = [(x - 2, y), (x - 1, y), (x, y - 1), (x, y - 2)];
        let lines: Vec<String> = (-4..=3)
            .flat_map(|d| [point(x + d, y), point(x, y + d)])
            .collect();
        let spoilt = |s: &Value| {
            let board = board_of(s);
            lines.iter().any(|p| {
                board.get(p).is_some_and(|c| c == "white")
                    || (board.get(p).is_some_and(|c| c == "black")
                        && !shape.iter().any(|&(a, b)| point(a, b) == *p))
            })
        };
        if spoilt(&s) {
            continue;
        }
        for (a, b) in shape {
            s = play_and_wait_reply(&page, &point(a, b)).await;
            if spoilt(&s) {
                continue 'anchors;
            }
        }
        forbidden_at = Some(point(x, y));
        break;
    }
    let anchor = forbidden_at.expect("the bot left one of four shapes alone");
    let s = wait_gomoku(&page, "the forbidden point marked", |s| {
        s["forbidden"]
            .as_array()
            .is_some_and(|f| f.iter().any(|p| *p == anchor))
    })
    .await;
    let listed: HashSet<&str> = s["view"]["forbidden"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let marked: HashSet<&str> = s["forbidden"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        marked, listed,
        "the page marks the server's forbidden points: {s}"
    );
    assert!(
        !s["playable"]
            .as_array()
            .expect("points")
            .iter()
            .any(|p| *p == anchor),
        "a forbidden point is not offered: {s}"
    );
    assert!(
        s["status_text"].as_str().is_some_and(|t| t.contains("forbidden")),
        "the status explains the marks: {s}"
    );
    // Clicking it does nothing.
    let n = stones(&s).len();
    click(&page, &format!("#goban [data-point=\"{anchor}\"]")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = gomoku_state(&page).await;
    assert_eq!(stones(&after).len(), n, "no stone on a forbidden point: {after}");
    assert_eq!(after["to_move"], 0, "{after}");
    // But the page says why (issue 18: the click did nothing visible).
    let notice = text_of(&page, "#gomoku-notice").await;
    assert!(
        notice.contains(anchor.as_str()) && notice.contains("forbidden"),
        "the click on a forbidden point is explained: {notice}"
    );
    // Now five in a row along the top lines, away from the shapes: fill the window of five with no
    // white stone and the most black ones.
    let start = Instant::now();
    let mut s = after;
    while s["phase"] != "over" {
        assert!(start.elapsed() < MATCH_LIMIT, "the game took too long: {s}");
        let board = board_of(&s);
        let colour = |x: i32, y: i32| board.get(&point(x, y)).map(String::as_str);
        let window = [14, 12]
            .into_iter()
            .flat_map(|y| (0..=10).map(move |x0| (x0, y)))
            .filter(|&(x0, y)| {
                (x0..x0 + 5).all(|x| colour(x, y) != Some("white"))
                    && (x0 == 0 || colour(x0 - 1, y) != Some("black"))
                    && (x0 == 10 || colour(x0 + 5, y) != Some("black"))
            })
            .max_by_key(|&(x0, y)| (x0..x0 + 5).filter(|&x| colour(x, y) == Some("black")).count())
            .expect("a free window of five");
        let (x0, y) = window;
        let next = (x0..x0 + 5)
            .find(|&x| colour(x, y).is_none())
            .expect("an empty point");
        s = play_and_wait_reply(&page, &point(next, y)).await;
    }
    let s = wait_gomoku(&page, "the result", |s| s["result"].is_object()).await;
    assert_eq!(s["result"]["end"], "five", "{s}");
    assert_eq!(s["result"]["winner"], "0", "{s}");
    assert!(
        s["result"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("You won with five in a row")),
        "{s}"
    );
    let line: Vec<&str> = s["view"]["outcome"]["end"]["line"]
        .as_array()
        .expect("the line")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(line.len(), 5, "{s}");
    let mut win: Vec<&str> = s["win"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut sorted = line.clone();
    win.sort_unstable();
    sorted.sort_unstable();
    assert_eq!(win, sorted, "the winning line is highlighted: {s}");
    let board = board_of(&s);
    assert!(line.iter().all(|p| board[*p] == "black"), "{s}");
    assert!(
        s["forbidden"].as_array().is_some_and(Vec::is_empty),
        "no marks once over: {s}"
    );
    click(&page, "#show-numbers").await;
    find(&page, "#goban .stone:not(:empty)").await;
    screenshot_file(&page, "gomoku.png").await;
    page.close().await.expect("close the browser");
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
}

// ---------------------------------------------------------------- junqi

/// Runs web-client/junqi.js's `legalMoves` in the page for `seat` on each position (the other
/// seat's ranks hidden, as a player's page holds them), each position given as its pieces.
const JUNQI_MOVES_JS: &str = r#"
const [positions, done] = [arguments[0], arguments[arguments.length - 1]];
import('/junqi.js').then((J) => done(positions.map(({ pieces, seat }) => {
  const seen = pieces.map((p) => (p.owner === seat ? p : { post: p.post, owner: p.owner }));
  return J.legalMoves(J.boardOf(seen), seat).map(([from, to]) => from + to).sort();
}))).catch((e) => done(String(e)));
"#;

/// A position's pieces as the view lists them: `{post, owner, rank}`.
fn pieces_json(position: &Position) -> Value {
    position
        .pieces()
        .map(|(post, piece)| {
            serde_json::json!({ "post": post.to_string(), "owner": piece.owner.0, "rank": piece.rank })
        })
        .collect()
}

/// The engine's legal moves of `seat`, as sorted `G0F0` strings.
fn engine_moves(position: &Position, seat: Seat) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves(seat)
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    moves
}

/// The page's legal-destination function agrees with the engine's `Position::legal_moves` on
/// positions from random games (every 7th position of a few random playouts, for the side to move
/// and the other), on the CAAI example layouts (34 first moves each, games/src/junqi), and on a
/// lone engineer or colonel on K0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junqi_legal_destinations_match_the_engine() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&base(&server)).await.expect("the page loads");
    let mut positions = vec![Position::new([&Layout::example(), &Layout::example()])];
    for (rank, to_move) in [(Rank::Engineer, 0), (Rank::Colonel, 0)] {
        let mut lone = Position::empty(Seat(to_move));
        lone.put(
            "K0".parse::<Post>().expect("a post"),
            Some(Piece { owner: Seat(0), rank }),
        );
        positions.push(lone);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..4 {
        let mut p = Position::new([&Layout::random(&mut rng), &Layout::random(&mut rng)]);
        for n in 0..300 {
            let moves = p.legal_moves(p.to_move());
            let Some(&mv) = moves.choose(&mut rng) else { break };
            if n % 7 == 0 {
                positions.push(p);
            }
            p.play(mv);
        }
    }
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for p in &positions {
        for seat in [Seat(0), Seat(1)] {
            cases.push(serde_json::json!({ "pieces": pieces_json(p), "seat": seat.0 }));
            expected.push(engine_moves(p, seat));
        }
    }
    assert!(cases.len() > 100, "{} cases", cases.len());
    let got = page
        .execute_async(JUNQI_MOVES_JS, vec![Value::Array(cases)])
        .await
        .expect("the script runs");
    let got: Vec<Vec<String>> = serde_json::from_value(got.clone()).unwrap_or_else(|e| panic!("{e}: {got}"));
    assert_eq!(got.len(), expected.len());
    assert_eq!(got[0].len(), 34, "the example layout's first moves");
    assert_eq!(
        got[2].len(),
        33,
        "a lone engineer on K0: every railway post, L0 and J1"
    );
    assert_eq!(got[4].len(), 15, "a lone colonel on K0 runs straight");
    for (i, (page_moves, engine)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(page_moves, engine, "case {i}: the page and the engine disagree");
    }
    page.close().await.expect("close the browser");
}

/// The slot of a layout's first `letter` at or after `from`.
fn slot_of(layout: &str, letter: char, from: usize) -> usize {
    layout
        .char_indices()
        .find(|&(i, c)| c == letter && i >= from)
        .map(|(i, _)| i)
        .expect("the letter is in the layout")
}

/// Swaps two editor slots by clicking them, and returns the page's state once the layout changed.
async fn swap_slots(page: &Client, a: usize, b: usize) -> Value {
    let before = junqi_state(page).await["editor"]["layout"].clone();
    click(page, &format!("#slot-{a}")).await;
    click(page, &format!("#slot-{b}")).await;
    wait_junqi(page, "the swap", |s| s["editor"]["layout"] != before).await
}

/// The engine's word on a layout the page shows: `Ok` or the first broken rule's code.
fn engine_verdict(layout: &Value) -> Result<(), &'static str> {
    let layout: Layout = layout.as_str().expect("a layout").parse().expect("25 letters");
    layout.check().map_err(|e| e.code())
}

/// The board the page draws as an engine position (hidden ranks guessed as captains: a
/// destination depends only on the mover's rank and on who owns each post).
fn position_of(s: &Value, to_move: u8) -> Position {
    let mut p = Position::empty(Seat(to_move));
    for piece in s["pieces"].as_array().expect("pieces") {
        let post: Post = piece[0].as_str().expect("a post").parse().expect("a post");
        let owner = Seat(u8::try_from(piece[1].as_u64().expect("an owner")).expect("a seat"));
        let rank = piece[2].as_str().map_or(Rank::Captain, |r| {
            serde_json::from_value(Value::String(r.into())).expect("a rank")
        });
        p.put(post, Some(Piece { owner, rank }));
    }
    p
}

fn strings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// On the page's turn: selects movable pieces until one can attack (at most four tries), checks
/// each selection's shown destinations against the engine's, and clicks an attack if there is one,
/// else the first destination. Returns the move played (`G0F0`).
async fn play_a_move(page: &Client, shot: Option<&str>) -> String {
    let s = wait_junqi(page, "my turn", |s| {
        s["phase"] == "over"
            || (s["to_move"] == s["you"] && s["movable"].as_array().is_some_and(|m| !m.is_empty()))
    })
    .await;
    if s["phase"] == "over" {
        return String::new();
    }
    let you = u8::try_from(s["you"].as_u64().expect("seated")).expect("a seat");
    let engine = position_of(&s, you);
    let enemy: HashSet<String> = s["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .filter(|p| p[1] != you)
        .map(|p| p[0].as_str().expect("a post").to_owned())
        .collect();
    let movable = strings(&s["movable"]);
    let mut choice = None;
    for from in movable.iter().take(4) {
        click(page, &format!("#jq-board [data-post=\"{from}\"]")).await;
        let sel = wait_junqi(page, "the selection", |s| {
            s["selected"] == serde_json::json!([from])
        })
        .await;
        let shown = strings(&sel["targets"]);
        let post: Post = from.parse().expect("a post");
        let mut wanted: Vec<String> = engine
            .destinations(post)
            .iter()
            .map(ToString::to_string)
            .collect();
        wanted.sort();
        assert_eq!(
            shown, wanted,
            "destinations of {from} as shown and as the engine has them: {sel}"
        );
        assert!(!shown.is_empty(), "a movable piece has somewhere to go: {sel}");
        let attack = shown.iter().find(|t| enemy.contains(*t));
        choice = Some((from.clone(), attack.unwrap_or(&shown[0]).clone()));
        if attack.is_some() {
            break;
        }
    }
    let (from, to) = choice.expect("a movable piece");
    // Reselect the chosen piece (the last one clicked may be another).
    let now = junqi_state(page).await;
    if now["selected"] != serde_json::json!([from]) {
        click(page, &format!("#jq-board [data-post=\"{from}\"]")).await;
        wait_junqi(page, "the selection", |s| {
            s["selected"] == serde_json::json!([from])
        })
        .await;
    }
    if let Some(name) = shot {
        page.execute("document.getElementById('status').scrollIntoView()", vec![])
            .await
            .expect("scroll to the board");
        screenshot_file(page, name).await;
    }
    let n = now["moves"].as_array().map_or(0, Vec::len);
    click(page, &format!("#jq-board [data-post=\"{to}\"]")).await;
    wait_junqi(page, &format!("my move {from}{to}"), |s| {
        s["phase"] == "over"
            || s["moves"]
                .as_array()
                .is_some_and(|m| m.len() > n && m[n]["from"] == from.as_str() && m[n]["to"] == to.as_str())
    })
    .await;
    format!("{from}{to}")
}

/// A person creates a junqi room from the lobby (junqi's default clocks), adds a `random` bot,
/// deploys through the editor (Random; a flag out of its headquarters and a bomb in the front row
/// each named and disabling Deploy; a layout saved and loaded by name), plays a few moves by
/// clicking (each selection's destinations as the engine has them, each move's result in words in
/// the log), resigns, and then sees every piece's rank and both starting layouts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_deploys_and_plays_junqi_against_a_bot() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Lin").await;
    create_junqi_room(&page).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    let s = wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    assert_eq!(s["phase"], "deploying", "{s}");
    assert_eq!(
        s["editor"]["layout"], "abccddeeffggghhhiiijjkklj",
        "the CAAI example to start: {s}"
    );
    assert_eq!(s["editor"]["deploy_enabled"], true, "{s}");
    // Random gives a new legal layout.
    click(&page, "#deploy-random").await;
    let s = wait_junqi(&page, "a random layout", |s| {
        s["editor"]["layout"] != "abccddeeffggghhhiiijjkklj"
    })
    .await;
    assert_eq!(engine_verdict(&s["editor"]["layout"]), Ok(()), "{s}");
    assert!(
        s["editor"]["problems"].as_array().is_some_and(Vec::is_empty),
        "{s}"
    );
    let layout = s["editor"]["layout"].as_str().expect("a layout").to_owned();
    // The flag swapped into the front row breaks a rule: named, and Deploy is disabled.
    let flag = slot_of(&layout, 'l', 0);
    let s = swap_slots(&page, flag, 0).await;
    assert_eq!(
        s["editor"]["problems"],
        serde_json::json!(["flag_not_in_headquarters"]),
        "{s}"
    );
    assert_eq!(
        engine_verdict(&s["editor"]["layout"]),
        Err("flag_not_in_headquarters")
    );
    assert!(
        s["editor"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("headquarters")),
        "{s}"
    );
    assert_eq!(s["editor"]["deploy_enabled"], false, "{s}");
    let s = swap_slots(&page, 0, flag).await;
    assert_eq!(s["editor"]["layout"], layout.as_str(), "swapped back: {s}");
    assert_eq!(s["editor"]["deploy_enabled"], true, "{s}");
    // So does a bomb in the front row.
    let bomb = slot_of(&layout, 'k', 5);
    let s = swap_slots(&page, bomb, 2).await;
    assert_eq!(
        s["editor"]["problems"],
        serde_json::json!(["bomb_in_front_row"]),
        "{s}"
    );
    assert_eq!(engine_verdict(&s["editor"]["layout"]), Err("bomb_in_front_row"));
    assert!(
        s["editor"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("front row")),
        "{s}"
    );
    assert_eq!(s["editor"]["deploy_enabled"], false, "{s}");
    swap_slots(&page, 2, bomb).await;
    // Save it by name, roll another, load it back.
    type_into(&page, "#layout-name", "Test A").await;
    click(&page, "#layout-save").await;
    find(&page, "#layout-saved option[value=\"Test A\"]").await;
    click(&page, "#deploy-random").await;
    wait_junqi(&page, "another layout", |s| {
        s["editor"]["layout"] != layout.as_str()
    })
    .await;
    click(&page, "#layout-load").await;
    let s = wait_junqi(&page, "the saved layout", |s| {
        s["editor"]["layout"] == layout.as_str()
    })
    .await;
    assert_eq!(s["editor"]["deploy_enabled"], true, "{s}");
    click(&page, "#deploy-send").await;
    let s = wait_junqi(&page, "the battle", |s| {
        s["phase"] == "battle" && s["to_move"] == 0
    })
    .await;
    // Own pieces by rank where the layout put them; the bot's blank on its half.
    let layout: Layout = layout.parse().expect("a layout");
    let mine: HashMap<String, Value> = layout
        .pieces(Seat(0))
        .map(|(post, rank)| (post.to_string(), serde_json::to_value(rank).expect("a rank")))
        .collect();
    let pieces = s["pieces"].as_array().expect("pieces");
    assert_eq!(pieces.len(), 50, "{s}");
    for p in pieces {
        let post = p[0].as_str().expect("a post");
        if p[1] == 0 {
            assert_eq!(Some(&p[2]), mine.get(post), "my piece on {post}: {s}");
        } else {
            assert!(p[2].is_null(), "an enemy rank on {post}: {s}");
            assert!(post.starts_with(['A', 'B', 'C', 'D', 'E', 'F']), "{s}");
        }
    }
    assert!(s["quiet"].as_str().is_some_and(|q| q.contains("0/31")), "{s}");
    assert!(
        s["clock"].as_str().is_some_and(|c| c.contains(':')),
        "a move clock: {s}"
    );
    // A few moves, then resign (with a confirmation step).
    let mut played = Vec::new();
    for n in 0..6 {
        let mv = play_a_move(&page, (n == 3).then_some("junqi.png")).await;
        if mv.is_empty() {
            break;
        }
        played.push(mv);
    }
    assert!(!played.is_empty(), "at least one move");
    let s = junqi_state(&page).await;
    let first = &s["moves"][0];
    assert_eq!(first["seat"], 0, "{s}");
    let text = first["text"].as_str().expect("a move text");
    assert!(
        text.contains(&played[0][..2]) && text.contains(&played[0][2..]),
        "the move in words: {s}"
    );
    let words = ["took the piece at", "and lost", "both removed", "moved to"];
    assert!(
        words.iter().any(|w| text.contains(w)),
        "the result in words: {text}"
    );
    assert!(
        s["log"]
            .as_array()
            .is_some_and(|l| l.iter().any(|t| t.as_str().is_some_and(|t| t.contains(text)))),
        "the result in the event log too: {s}"
    );
    assert!(
        s["moves"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["seat"] == 1)),
        "the bot answered: {s}"
    );
    if s["phase"] != "over" {
        click(&page, "#resign").await;
        click(&page, "#resign-confirm").await;
    }
    let s = wait_junqi(&page, "the result", |s| {
        s["phase"] == "over" && s["result"].is_object()
    })
    .await;
    let outcome = &s["view"]["outcome"];
    if outcome["end"]["kind"] == "resigned" {
        assert_eq!(s["result"]["winner"], "1", "{s}");
        assert!(
            s["result"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("resigned")),
            "{s}"
        );
    }
    // Every piece on the board shows its rank, the bot's as the outcome lists them.
    let shown: HashSet<(String, u64, String)> = s["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| {
            let rank = p[2]
                .as_str()
                .unwrap_or_else(|| panic!("a piece without its rank at the end: {s}"));
            (
                p[0].as_str().expect("a post").to_owned(),
                p[1].as_u64().expect("an owner"),
                rank.to_owned(),
            )
        })
        .collect();
    let listed: HashSet<(String, u64, String)> = outcome["pieces"]
        .as_array()
        .expect("the outcome's pieces")
        .iter()
        .map(|p| {
            (
                p["post"].as_str().expect("a post").to_owned(),
                p["owner"].as_u64().expect("an owner"),
                p["rank"].as_str().expect("a rank").to_owned(),
            )
        })
        .collect();
    assert_eq!(shown, listed, "the board at the end: {s}");
    assert!(shown.iter().any(|p| p.1 == 1), "enemy pieces revealed: {s}");
    // Both starting layouts, in full.
    let bot_layout: Layout = outcome["layouts"][1]
        .as_str()
        .expect("the bot's layout")
        .parse()
        .expect("a layout");
    let bot_ranks: Vec<Value> = bot_layout
        .0
        .iter()
        .map(|r| serde_json::to_value(r).expect("a rank"))
        .collect();
    assert_eq!(
        s["layouts"][1],
        Value::Array(bot_ranks),
        "the bot's starting layout: {s}"
    );
    assert_eq!(s["layouts"][0].as_array().map(Vec::len), Some(25), "{s}");
    // The page checked both layouts against the referee's commitments.
    let s = wait_junqi(&page, "both reveals checked", |s| {
        s["log"].as_array().is_some_and(|l| {
            l.iter()
                .filter(|t| {
                    t.as_str().is_some_and(|t| {
                        t.starts_with("✓ Layouts: the referee committed to 2 deployments, 2 checked")
                            && t.matches("matches the referee's commitment").count() == 2
                    })
                })
                .count()
                == 1
        })
    })
    .await;
    assert!(
        !s["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t.as_str().is_some_and(|t| t.starts_with("✗"))),
        "{s}"
    );
    // The page's check refuses a reveal that does not open its commitment, or that differs from
    // the game's own reveal, and accepts a true one.
    let salt = "ab".repeat(32);
    let layout = "abccddeeffggghhhiiijjkklj";
    let digest = skirmish_protocol::commitment::digest(&salt, layout);
    let verdicts = page
        .execute_async(
            r#"const [digest, salt, layout, done] = arguments;
            import('/audit.js').then(async (m) => {
              const commitments = [{ seat: 1, round: 0, sha256: digest }];
              const reveal = { seat: 1, round: 0, deployment: layout, salt };
              done([
                (await m.checkReveal(commitments, reveal, layout)).ok,
                (await m.checkReveal(commitments, { ...reveal, salt: 'cd'.repeat(32) }, layout)).ok,
                (await m.checkReveal(commitments, reveal, 'abccddeeffggghhhiiijjkljk')).ok,
                (await m.checkReveal([], reveal, layout)).ok,
              ]);
            });"#,
            vec![json!(digest), json!(salt), json!(layout)],
        )
        .await
        .expect("run the page's reveal check");
    assert_eq!(verdicts, json!([true, false, false, false]));
    page.close().await.expect("close the browser");
}

/// Installed in a junqi page: after every change of the DOM while the game runs, every text and
/// attribute value outside one's own pieces and the editor (`data-mine`) and outside what everyone
/// may know (`data-public`: a revealed flag) is searched for rank names; and no enemy piece on the
/// board carries a rank, a revealed flag aside. `window.rankLeaks()` runs the same search now.
const HIDDEN_JS: &str = r#"
const you = arguments[0];
const WORDS = /marshal|general|maj\. gen|brigadier|colonel|major|captain|lieutenant|engineer|landmine|bomb|\bflag\b|司令|军长|师长|旅长|团长|营长|连长|排长|工兵|地雷|炸弹|军旗/i;
window.rankLeaks = () => {
  const leaks = [];
  const walk = (el) => {
    if (el.hasAttribute('data-mine') || el.hasAttribute('data-public')) return;
    for (const a of el.attributes) if (WORDS.test(a.value)) leaks.push(`${el.tagName} ${a.name}=${a.value}`);
    for (const c of el.childNodes) {
      if (c.nodeType === Node.TEXT_NODE && WORDS.test(c.textContent)) leaks.push(`${el.tagName}: ${c.textContent}`);
      else if (c.nodeType === Node.ELEMENT_NODE) walk(c);
    }
  };
  walk(document.body);
  for (const p of document.querySelectorAll('#jq-board [data-owner]')) {
    if (Number(p.dataset.owner) === you || !p.dataset.rank) continue;
    if (!(p.dataset.revealedFlag === 'true' && p.dataset.rank === 'flag')) leaks.push(`enemy rank on ${p.dataset.post}: ${p.dataset.rank}`);
  }
  return leaks;
};
window.hiddenChecks = 0; window.hiddenLeaks = [];
const check = () => {
  const room = document.getElementById('room');
  if (!room || room.dataset.game !== 'junqi' || !['deploying', 'battle'].includes(room.dataset.phase)) return;
  window.hiddenChecks += 1;
  window.hiddenLeaks.push(...window.rankLeaks());
};
new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
check();
"#;

/// A player against a `random` bot, and a spectator who opened the room's link: while the game
/// runs, neither page ever holds an enemy rank (the spectator none at all), checked on every change
/// of the DOM; the spectator sees both sides from red's side, blank. Once the player resigns,
/// the same search finds ranks on both pages: everything is revealed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junqi_ranks_stay_hidden_until_the_end() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let watcher = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Mo").await;
    let room = create_junqi_room(&page).await;
    open_as(&watcher, &format!("{}room/{room}", base(&server)), "Nia").await;
    wait_junqi(&watcher, "the room as a spectator", |s| {
        s["page"] == "junqi" && s["you"].is_null()
    })
    .await;
    page.execute(HIDDEN_JS, vec![serde_json::json!(0)])
        .await
        .expect("the check installs");
    watcher
        .execute(HIDDEN_JS, vec![serde_json::json!(-1)])
        .await
        .expect("the check installs");
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    click(&page, "#deploy-random").await;
    click(&page, "#deploy-send").await;
    wait_junqi(&page, "the battle", |s| s["phase"] == "battle").await;
    for _ in 0..5 {
        if play_a_move(&page, None).await.is_empty() {
            break;
        }
    }
    let w = wait_junqi(&watcher, "the spectator's board", |w| {
        w["moves"].as_array().is_some_and(|m| m.len() >= 2) || w["phase"] == "over"
    })
    .await;
    if w["phase"] == "battle" {
        assert!(
            w["editor"].is_null() && w["movable"].as_array().is_some_and(Vec::is_empty),
            "{w}"
        );
        let ranked: Vec<&Value> = w["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .filter(|p| !p[2].is_null())
            .collect();
        assert!(
            ranked
                .iter()
                .all(|p| w["revealed_flags"].as_array().is_some_and(|f| f.contains(&p[0]))),
            "the spectator sees ranks: {w}"
        );
        assert!(
            w["view"]["pieces"]
                .as_array()
                .is_some_and(|p| p.iter().all(|p| p["rank"].is_null() || p["rank"] == "flag")),
            "{w}"
        );
    }
    if junqi_state(&page).await["phase"] != "over" {
        click(&page, "#resign").await;
        click(&page, "#resign-confirm").await;
    }
    for p in [&page, &watcher] {
        wait_junqi(p, "the end", |s| s["phase"] == "over" && s["result"].is_object()).await;
        let watched = p
            .execute(
                "return [window.hiddenChecks, window.hiddenLeaks, window.rankLeaks().length]",
                vec![],
            )
            .await
            .expect("the check's results");
        assert_eq!(
            watched[1],
            serde_json::json!([]),
            "ranks shown before the end: {watched}"
        );
        assert!(
            watched[0].as_u64().is_some_and(|n| n > 5),
            "renders checked: {watched}"
        );
        assert!(
            watched[2].as_u64().is_some_and(|n| n > 0),
            "the search finds the revealed ranks: {watched}"
        );
    }
    page.close().await.expect("close the browser");
    watcher.close().await.expect("close the browser");
}

#[tokio::test]
async fn a_reload_keeps_the_junqi_seat_its_ranks_and_the_moves() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Lin").await;
    let room = create_junqi_room(&page).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    click(&page, "#deploy-random").await;
    click(&page, "#deploy-send").await;
    for _ in 0..2 {
        assert!(!play_a_move(&page, None).await.is_empty(), "the game goes on");
    }
    let before = wait_junqi(&page, "my turn", |s| {
        s["to_move"] == s["you"] && s["moves"].as_array().is_some_and(|m| m.len() == 4)
    })
    .await;
    page.refresh().await.expect("reload");
    let after = wait_junqi(&page, "the room after the reload", |s| {
        s["page"] == "junqi"
            && s["phase"] == "battle"
            && s["you"] == 0
            && s["moves"].as_array().is_some_and(|m| m.len() == 4)
    })
    .await;
    assert_eq!(after["id"].as_str(), Some(room.as_str()));
    let own = |s: &Value| -> Vec<Value> {
        s["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .filter(|p| p[1] == 0)
            .cloned()
            .collect()
    };
    assert!(own(&before).len() >= 20, "{before}");
    assert_eq!(
        own(&before),
        own(&after),
        "the same pieces with their ranks after the reload"
    );
    assert!(
        own(&after).iter().all(|p| p[2].is_string()),
        "own ranks shown: {after}"
    );
    assert!(
        after["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p[1] == 1)
            .all(|p| p[2].is_null()),
        "enemy ranks still hidden: {after}"
    );
    assert_eq!(before["moves"], after["moves"], "the same move list");
    assert_eq!(
        before["view"]["layout"], after["view"]["layout"],
        "the same starting layout"
    );
    // And the seat still plays.
    assert!(!play_a_move(&page, None).await.is_empty());
    page.close().await.expect("close the browser");
}

// ---------------------------------------------------------------- tournaments and replays

/// A bot connection of the bot account `name` (registered here: tournament entrants are accounts)
/// offering `strategy` for `game` alone, stopped on drop.
async fn named_bot(
    server: &TestServer,
    name: &str,
    game: skirmish_protocol::GameKind,
    strategy: &str,
) -> Bots {
    let token = CancellationToken::new();
    let mut options = BotOptions::new(server.ws_url(), name.into());
    options.token = Some(server.account(name).await);
    options.strategies = std::collections::BTreeMap::from([(game, vec![strategy.to_owned()])]);
    let stop = token.clone();
    tokio::spawn(async move {
        let _ = run(options, stop).await;
    });
    Bots(token)
}

/// An HTTP request to the server's API with an optional JSON body: the status and the JSON answer.
async fn api(server: &TestServer, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    use axum::body::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client as HttpClient;
    use hyper_util::rt::TokioExecutor;
    let client = HttpClient::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let text = body.map(Value::to_string).unwrap_or_default();
    let request = axum::http::Request::builder()
        .method(method)
        .uri(server.http_url(path))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(text)))
        .expect("a request");
    let response = client.request(request).await.expect("the API answers");
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.expect("a body").to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, json)
}

/// Waits until the server lists a connected bot for each of `names`.
async fn wait_for_named_bots(server: &TestServer, names: &[&str]) {
    let start = Instant::now();
    loop {
        let (_, bots) = api(server, "GET", "/api/bots", None).await;
        let connected: HashSet<String> = bots
            .as_array()
            .map(|b| {
                b.iter()
                    .filter_map(|bot| bot["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if names.iter().all(|n| connected.contains(*n)) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "bots {names:?} not all connected: {bots}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Creates a tournament over the HTTP API and returns its id.
async fn create_tournament(server: &TestServer, config: &Value) -> String {
    let (status, body) = api(server, "POST", "/api/tournaments", Some(config)).await;
    assert_eq!(status, 201, "the tournament is made: {body}");
    body["id"].as_str().expect("a tournament id").to_owned()
}

/// The tournament page's state: its `data-*` attributes, the standings table, the match links,
/// and whether any markup got in.
const TOURNAMENT_JS: &str = r#"
const t = document.getElementById('tournament');
if (!t) return { page: 'other' };
return {
  page: 'tournament',
  state: t.dataset.state || null,
  polling: t.dataset.polling || null,
  name: (document.getElementById('t-name') || {}).textContent || null,
  progress: (() => { const p = document.getElementById('t-progress'); return p ? [Number(p.dataset.finished), Number(p.dataset.total)] : null; })(),
  standings: [...document.querySelectorAll('#standings tbody tr')].map((r) => ({
    rank: Number(r.dataset.rank),
    entrant: Number(r.dataset.entrant),
    name: r.querySelector('[data-entrant-name]').textContent,
    score: Number(r.querySelector('[data-score]').dataset.score),
    wdl: r.querySelector('[data-wdl]').dataset.wdl,
    elo: r.querySelector('[data-elo]').textContent,
  })),
  cross: [...document.querySelectorAll('#crosstable [data-cross]')].map((c) => [c.dataset.cross, Number(c.dataset.score), Number(c.dataset.games)]),
  matches: [...document.querySelectorAll('#matches [data-match-id]')].map((r) => [r.dataset.matchId, r.dataset.state]),
  replays: [...document.querySelectorAll('a[data-replay]')].map((a) => a.dataset.replay),
  watch: [...document.querySelectorAll('a[data-watch]')].map((a) => [a.dataset.watch, a.getAttribute('href')]),
  markup: document.querySelectorAll('main img').length,
  xss: window.xss === undefined ? null : window.xss,
};
"#;

/// The replay page's state: where it is, the board drawn (gomoku stones, plane boards).
const REPLAY_JS: &str = r#"
const r = document.getElementById('replay');
if (!r || r.dataset.steps === undefined) return { page: 'other' };
return {
  page: 'replay',
  game: r.dataset.game,
  step: Number(r.dataset.step),
  steps: Number(r.dataset.steps),
  text: document.getElementById('event-text').textContent,
  stones: [...document.querySelectorAll('#goban [data-stone]')]
    .map((e) => [Number(e.dataset.number), e.dataset.point, e.dataset.stone])
    .sort((a, b) => a[0] - b[0]),
  last: [...document.querySelectorAll('#goban [data-last]')].map((e) => e.dataset.point),
  boards: [...document.querySelectorAll('[data-board]')].map((b) => ({
    seat: Number(b.dataset.board),
    planes: [...b.querySelectorAll('[data-plane]')].map((c) => [c.dataset.cell, c.dataset.plane, c.dataset.head === 'true']),
    shots: [...b.querySelectorAll('[data-shot]')].map((c) => [c.dataset.cell, c.dataset.shot]),
  })),
  result: (document.getElementById('match-result') || {}).textContent || null,
  markup: document.querySelectorAll('main img').length,
};
"#;

async fn wait_page(page: &Client, script: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = page.execute(script, vec![]).await.expect("the state script runs");
        if pred(&s) {
            return s;
        }
        assert!(
            start.elapsed() < MATCH_LIMIT,
            "timed out waiting for {what}; page state: {s}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A gomoku bot the test holds back: it connects as the bot account `name` (registered here)
/// offering the strategy `first-empty`, and once `go` is notified answers every turn with the
/// first empty point (a1, b1, ... row by row). Returns the task, to abort at the end.
async fn held_gomoku_bot(server: &TestServer, name: &str, go: Arc<Notify>) -> tokio::task::JoinHandle<()> {
    let token = server.account(name).await;
    let mut client = TestClient::connect(&server.ws_url()).await;
    let hello = json!({
        "type": "hello", "protocol": 1, "name": name, "token": token.expose(),
        "bot": { "games": { "gomoku": ["first-empty"] }, "version": "0.9.0" },
    });
    client.send_text(hello.to_string()).await;
    client
        .recv_until(|m| matches!(m, skirmish_protocol::ServerMsg::Welcome { .. }))
        .await;
    tokio::spawn(async move {
        go.notified().await;
        while let Some(msg) = client.try_recv().await {
            let msg = serde_json::to_value(&msg).expect("server messages serialize");
            if msg["type"] != "your_turn" {
                continue;
            }
            let view = &msg["view"];
            let taken: HashSet<&str> = view["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .filter_map(|m| m["point"].as_str())
                .collect();
            let size = view["size"].as_u64().expect("a size");
            let point = (0..size * size)
                .map(|i| {
                    point(
                        i32::try_from(i % size).expect("small"),
                        i32::try_from(i / size).expect("small"),
                    )
                })
                .find(|p| !taken.contains(p.as_str()))
                .expect("an empty point");
            let act = json!({
                "type": "act", "room": msg["room"], "seat": msg["seat"],
                "action": { "game": "gomoku", "kind": "place", "point": point },
            });
            client.send_text(act.to_string()).await;
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_page_shows_live_standings_and_replays_a_gomoku_match() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    // One bot's name is markup: the pages must show it as text. The test holds the third back
    // until the page has shown its matches running.
    let markup = "<img src=x onerror=window.xss=1>";
    let gomoku = skirmish_protocol::GameKind::Gomoku;
    let _alpha = named_bot(&server, "alpha", gomoku, "random").await;
    let _markup = named_bot(&server, markup, gomoku, "random").await;
    let go = Arc::new(Notify::new());
    let held = held_gomoku_bot(&server, "held", go.clone()).await;
    wait_for_named_bots(&server, &["alpha", markup, "held"]).await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let id = create_tournament(
        &server,
        &json!({
            "name": "Browser cup",
            "game": { "game": "gomoku", "size": 15, "rule": "freestyle" },
            "clock": { "deploy_ms": 60000, "move_ms": 60000 },
            "entrants": [
                { "bot": "alpha", "strategy": "random" },
                { "bot": markup, "strategy": "random" },
                { "bot": "held", "strategy": "first-empty" },
            ],
        }),
    )
    .await;

    // While the held bot waits, the page shows the tournament running, its matches with links
    // to watch them in their rooms.
    page.goto(&server.http_url(&format!("/tournament/{id}")))
        .await
        .expect("the tournament page loads");
    // Its four matches (the four slots of `parallel`) wait for it; the two without it are played
    // before or after them, as the schedule orders them (the circle method puts the held bot's
    // first), so none or both of those are over.
    let running = wait_page(&page, TOURNAMENT_JS, "the held bot's four matches running", |s| {
        s["watch"].as_array().is_some_and(|w| w.len() == 4)
    })
    .await;
    assert_eq!(running["name"], "Browser cup");
    assert_eq!(running["state"], "running");
    assert_eq!(running["polling"], "true");
    let over = running["progress"][0].as_u64().expect("progress");
    assert!(over == 0 || over == 2, "{running}");
    assert_eq!(running["progress"][1], 6, "{running}");
    assert_eq!(
        running["replays"].as_array().map(|r| r.len() as u64),
        Some(over),
        "{running}"
    );
    let (_, status) = api(&server, "GET", &format!("/api/tournaments/{id}"), None).await;
    let held_index = status["entrants"]
        .as_array()
        .expect("entrants")
        .iter()
        .position(|e| e["bot"] == "held")
        .expect("the held bot entered");
    for watch in running["watch"].as_array().expect("watch links") {
        let m = status["schedule"]
            .as_array()
            .expect("a schedule")
            .iter()
            .find(|m| m["id"] == watch[0])
            .unwrap_or_else(|| panic!("match {watch} in {status}"));
        assert!(
            m["seats"]
                .as_array()
                .is_some_and(|s| s.contains(&json!(held_index))),
            "{m}"
        );
        assert_eq!(m["state"], "running", "{status}");
        assert_eq!(
            watch[1],
            format!("/room/{}", m["room"].as_str().expect("a room")),
            "{status}"
        );
    }

    // Let it play: the page follows to the end and stops polling.
    go.notify_one();
    let done = wait_page(&page, TOURNAMENT_JS, "the tournament to finish", |s| {
        s["state"] == "finished" && s["polling"] == "false"
    })
    .await;
    held.abort();
    assert_eq!(done["progress"], json!([6, 6]), "{done}");

    // The page's standings are the API's.
    let (status, standings) = api(&server, "GET", &format!("/api/tournaments/{id}/standings"), None).await;
    assert_eq!(status, 200);
    let entrants = standings["entrants"].as_array().expect("entrants");
    let expected: Vec<Value> = standings["table"]
        .as_array()
        .expect("a table")
        .iter()
        .map(|line| {
            let e = &entrants[usize::try_from(line["entrant"].as_u64().expect("an index")).expect("small")];
            json!([
                line["rank"],
                format!(
                    "{}/{}",
                    e["bot"].as_str().expect("a bot"),
                    e["strategy"].as_str().expect("a strategy")
                ),
                line["score"].as_f64(),
                format!("{}/{}/{}", line["wins"], line["draws"], line["losses"]),
            ])
        })
        .collect();
    let shown: Vec<Value> = done["standings"]
        .as_array()
        .expect("standings rows")
        .iter()
        .map(|r| json!([r["rank"], r["name"], r["score"].as_f64(), r["wdl"]]))
        .collect();
    assert_eq!(shown, expected, "the standings table; page: {done}");
    assert_eq!(standings["matches"], 6);
    // The crosstable: every pair met twice; the scores add up to the games played.
    let cross = done["cross"].as_array().expect("crosstable cells");
    assert_eq!(cross.len(), 6, "{done}");
    assert!(cross.iter().all(|c| c[2] == 2), "{done}");
    let sum: f64 = cross.iter().map(|c| c[1].as_f64().unwrap_or(0.0)).sum();
    assert!((sum - 6.0).abs() < 1e-9, "{done}");
    // Every match finished, each with a replay link; the markup name is text.
    assert_eq!(done["replays"].as_array().map(Vec::len), Some(6), "{done}");
    assert!(done["watch"].as_array().is_some_and(Vec::is_empty), "{done}");
    assert_eq!(done["markup"], 0, "no element made from a bot's name");
    assert!(done["xss"].is_null(), "no script ran from a bot's name");
    let text = page
        .execute("return document.body.innerText", vec![])
        .await
        .expect("the page's text");
    assert!(
        text.as_str()
            .is_some_and(|t| t.contains(&format!("{markup}/random"))),
        "the markup name shown literally: {text}"
    );
    screenshot_file(&page, "tournament.png").await;

    // Follow the first replay link and step through the match.
    let match_id = done["replays"][0].as_str().expect("a match id").to_owned();
    click(&page, &format!("a[data-replay=\"{match_id}\"]")).await;
    let first = wait_page(&page, REPLAY_JS, "the replay", |s| s["page"] == "replay").await;
    assert_eq!(first["game"], "gomoku");
    assert_eq!(first["step"], 0);
    assert_eq!(first["stones"], json!([]), "no stone before the first event");
    let (status, record) = api(&server, "GET", &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200);
    let events = record["events"].as_array().expect("events");
    assert_eq!(first["steps"], events.len());
    let placed: Vec<&Value> = events.iter().filter(|e| e["kind"] == "placed").collect();
    assert!(placed.len() >= 9, "a won game has at least 9 stones: {record}");

    // The arrow key steps; the last step shows every stone, numbered, the last one marked.
    find(&page, "#next")
        .await
        .send_keys("\u{E014}")
        .await
        .expect("the right arrow");
    let one = wait_page(&page, REPLAY_JS, "one step on", |s| s["step"] == 1).await;
    assert!(!one["text"].as_str().unwrap_or_default().is_empty(), "{one}");
    click(&page, "#last").await;
    let end = wait_page(&page, REPLAY_JS, "the last step", |s| s["step"] == s["steps"]).await;
    let stones = end["stones"].as_array().expect("stones");
    assert_eq!(stones.len(), placed.len(), "a stone per `placed` event: {end}");
    for (shown, event) in stones.iter().zip(&placed) {
        assert_eq!(shown[0], event["number"], "{end}");
        assert_eq!(shown[1], event["point"], "{end}");
        assert_eq!(shown[2], event["stone"], "{end}");
    }
    assert_eq!(
        end["last"],
        json!([placed.last().expect("a stone")["point"]]),
        "{end}"
    );
    assert!(
        end["text"].as_str().unwrap_or_default().contains("Game over"),
        "{end}"
    );
    assert_eq!(end["markup"], 0);
    // One step back from the end: the same stones ('ended' adds none); Home: none.
    click(&page, "#prev").await;
    let back = wait_page(&page, REPLAY_JS, "one step back", |s| {
        s["step"] == s["steps"].as_u64().unwrap_or(0) - 1
    })
    .await;
    assert_eq!(back["stones"].as_array().map(Vec::len), Some(placed.len()));
    click(&page, "#first").await;
    let home = wait_page(&page, REPLAY_JS, "the first step", |s| s["step"] == 0).await;
    assert_eq!(home["stones"], json!([]));

    // The lobby lists the tournament, with a link to its page.
    open_as(&page, &base(&server), "viewer").await;
    let text = text_of(
        &page,
        &format!("#tournaments [data-tournament-id=\"{id}\"][data-state=\"finished\"]"),
    )
    .await;
    assert!(
        text.contains("Browser cup") && text.contains("gomoku") && text.contains("6/6"),
        "{text}"
    );
    click(&page, &format!("#tournaments a[href=\"/tournament/{id}\"]")).await;
    wait_page(&page, TOURNAMENT_JS, "the tournament page again", |s| {
        s["state"] == "finished"
    })
    .await;
    page.close().await.expect("close the browser");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plane_battle_replay_shows_every_deployment_and_shot() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let plane = skirmish_protocol::GameKind::Plane;
    let _red = named_bot(&server, "red", plane, "random").await;
    let _blue = named_bot(&server, "blue", plane, "random").await;
    wait_for_named_bots(&server, &["red", "blue"]).await;
    let id = create_tournament(
        &server,
        &json!({
            "game": { "game": "plane", "variant": "classic", "players": 2, "format": { "rounds": 2 } },
            "clock": { "deploy_ms": 5000, "move_ms": 2000 },
            "duplicate": true,
        }),
    )
    .await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&server.http_url(&format!("/tournament/{id}")))
        .await
        .expect("the tournament page loads");
    let done = wait_page(&page, TOURNAMENT_JS, "the tournament to finish", |s| {
        s["state"] == "finished" && s["polling"] == "false"
    })
    .await;
    let match_id = done["replays"][0].as_str().expect("a replay link").to_owned();
    let (status, record) = api(&server, "GET", &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200);
    let events = record["events"].as_array().expect("events");
    click(&page, &format!("a[data-replay=\"{match_id}\"]")).await;
    wait_page(&page, REPLAY_JS, "the replay", |s| s["page"] == "replay").await;

    // Step to the end of each round in turn (the step after its `round_ended`): each seat's
    // board shows the planes it deployed that round, and every shot fired at it.
    let mut round_start = 0;
    for (i, event) in events.iter().enumerate() {
        if event["kind"] == "round_started" {
            round_start = i;
        }
        if event["kind"] != "round_ended" {
            continue;
        }
        let round = &events[round_start..=i];
        page.execute(
            "window.replay && document.getElementById('slider') && (document.getElementById('slider').value = arguments[0], \
             document.getElementById('slider').dispatchEvent(new Event('input')))",
            vec![json!(i + 1)],
        )
        .await
        .expect("move the slider");
        let s = wait_page(&page, REPLAY_JS, "the round's end", |s| s["step"] == i + 1).await;
        for seat in 0..2_usize {
            let deployed = round
                .iter()
                .find(|e| e["kind"] == "deployment" && e["seat"] == seat)
                .unwrap_or_else(|| panic!("seat {seat}'s deployment in the record: {record}"));
            let board = &s["boards"][seat];
            let cells = board["planes"].as_array().expect("plane cells");
            assert_eq!(
                cells.len(),
                10,
                "one plane of 10 cells on seat {seat}'s board: {s}"
            );
            let heads: Vec<&Value> = cells.iter().filter(|c| c[2] == true).map(|c| &c[0]).collect();
            assert_eq!(
                heads,
                vec![&deployed["planes"][0]["head"]],
                "seat {seat}'s head: {s}"
            );
            let mut fired: Vec<(String, String)> = round
                .iter()
                .filter(|e| e["kind"] == "shot" && e["target"] == seat)
                .map(|e| {
                    (
                        e["cell"].as_str().unwrap_or_default().to_owned(),
                        e["result"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            let mut shown: Vec<(String, String)> = board["shots"]
                .as_array()
                .expect("shots")
                .iter()
                .map(|c| {
                    (
                        c[0].as_str().unwrap_or_default().to_owned(),
                        c[1].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            fired.sort();
            shown.sort();
            assert_eq!(shown, fired, "seat {seat}'s shots: {s}");
        }
    }
    click(&page, "#last").await;
    let end = wait_page(&page, REPLAY_JS, "the last step", |s| s["step"] == s["steps"]).await;
    assert!(
        end["text"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&format!("{}. Match over", events.len())),
        "{end}"
    );
    page.close().await.expect("close the browser");
}

/// A replay page's junqi board: every post with a piece, as `[post, owner, rank]`, sorted.
const REPLAY_JUNQI_JS: &str = r#"
const r = document.getElementById('replay');
if (!r || r.dataset.steps === undefined) return { page: 'other' };
return {
  page: 'replay',
  step: Number(r.dataset.step),
  steps: Number(r.dataset.steps),
  pieces: [...document.querySelectorAll('#jq-board [data-owner]')]
    .map((e) => [e.dataset.post, Number(e.dataset.owner), e.dataset.rank || null])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  moves: document.querySelectorAll('#moves [data-move]').length,
};
"#;

/// Moves a replay page's slider to `step`.
async fn replay_to(page: &Client, step: usize) {
    page.execute(
        "const s = document.getElementById('slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
        vec![json!(step)],
    )
    .await
    .expect("move the slider");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_junqi_replay_shows_both_layouts_and_the_final_board_with_every_rank() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let junqi = skirmish_protocol::GameKind::Junqi;
    let _red = named_bot(&server, "red", junqi, "random").await;
    let _blue = named_bot(&server, "blue", junqi, "random").await;
    wait_for_named_bots(&server, &["red", "blue"]).await;
    let id = create_tournament(
        &server,
        &json!({
            "game": { "game": "junqi", "no_attack_limit": 31 },
            "clock": { "deploy_ms": 5000, "move_ms": 2000 },
        }),
    )
    .await;
    let start = Instant::now();
    let status = loop {
        let (_, status) = api(&server, "GET", &format!("/api/tournaments/{id}"), None).await;
        if status["state"] == "finished" {
            break status;
        }
        assert!(
            start.elapsed() < MATCH_LIMIT,
            "the tournament did not finish: {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let match_id = status["schedule"][0]["id"].as_str().expect("a match").to_owned();
    let (_, record) = api(&server, "GET", &format!("/api/matches/{match_id}"), None).await;
    let events = record["events"].as_array().expect("events");
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&server.http_url(&format!("/replay/{match_id}")))
        .await
        .expect("the replay loads");
    let first = wait_page(&page, REPLAY_JUNQI_JS, "the replay", |s| s["page"] == "replay").await;
    assert_eq!(first["steps"], events.len());
    assert_eq!(
        first["pieces"],
        json!([]),
        "nothing on the board before the deployments"
    );

    // Once the battle starts: both layouts in full, every piece with its rank.
    let battle = events
        .iter()
        .position(|e| e["kind"] == "battle_started")
        .expect("the battle started");
    replay_to(&page, battle + 1).await;
    let s = wait_page(&page, REPLAY_JUNQI_JS, "the battle's start", |s| {
        s["step"] == battle + 1
    })
    .await;
    let pieces = s["pieces"].as_array().expect("pieces");
    assert_eq!(pieces.len(), 50, "{s}");
    for owner in 0..2 {
        let ranks: Vec<&str> = pieces
            .iter()
            .filter(|p| p[1] == owner)
            .map(|p| {
                p[2].as_str()
                    .unwrap_or_else(|| panic!("a rank on every piece: {s}"))
            })
            .collect();
        assert_eq!(ranks.len(), 25, "{s}");
        assert_eq!(
            ranks.iter().filter(|r| **r == "flag").count(),
            1,
            "one flag each: {s}"
        );
        assert_eq!(ranks.iter().filter(|r| **r == "landmine").count(), 3, "{s}");
    }

    // Just before the end, the board the page worked out move by move is the outcome's, rank
    // for rank; the last step shows it too, with every move listed.
    let ended = events.last().expect("events");
    assert_eq!(ended["kind"], "ended", "{record}");
    let mut expected: Vec<Value> = ended["outcome"]["pieces"]
        .as_array()
        .expect("the final pieces")
        .iter()
        .map(|p| json!([p["post"], p["owner"], p["rank"]]))
        .collect();
    expected.sort_by(|a, b| a[0].as_str().cmp(&b[0].as_str()));
    replay_to(&page, events.len() - 1).await;
    let before = wait_page(&page, REPLAY_JUNQI_JS, "the step before the end", |s| {
        s["step"] == events.len() - 1
    })
    .await;
    assert_eq!(before["pieces"], json!(expected), "{before}");
    click(&page, "#last").await;
    let end = wait_page(&page, REPLAY_JUNQI_JS, "the last step", |s| {
        s["step"] == s["steps"]
    })
    .await;
    assert_eq!(end["pieces"], json!(expected), "{end}");
    let moved = events.iter().filter(|e| e["kind"] == "moved").count();
    assert_eq!(end["moves"], moved, "{end}");
    page.close().await.expect("close the browser");
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
