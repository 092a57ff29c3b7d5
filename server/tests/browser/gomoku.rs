//! Gomoku in the browser: a game against a bot to its resignation, a named opening, and renju's
//! forbidden points.

use super::*;

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
    // The player gets a link to the game's replay; the spectator does not.
    let href = attr_of(&page, "#replay-link", "href").await;
    assert!(
        href.ends_with(&format!("/replay/{}", s["id"].as_str().expect("the room's id"))),
        "{href}"
    );
    let none = watcher
        .execute("return document.getElementById('replay-link')", vec![])
        .await
        .expect("the spectator's page");
    assert!(none.is_null(), "no replay link for a spectator");
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
pub(crate) fn point(x: i32, y: i32) -> String {
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
    'anchors: for (x, y) in [
        (4, 10),
        (10, 10),
        (4, 4),
        (10, 4),
        (7, 10),
        (10, 7),
        (4, 7),
        (7, 4),
    ] {
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
    let anchor = forbidden_at.expect("the bot left one of eight shapes alone");
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

/// Reads what the offers and the confirming tap show: the ghost stone, the notice under the board,
/// the offer box, the offer buttons, the setting, and whether the page is wider than its viewport.
const OFFERS_JS: &str = r#"
const box = document.getElementById('offer-box');
const button = (id) => { const b = document.getElementById(id); return b ? { text: b.textContent, disabled: b.disabled } : null; };
const confirm = document.getElementById('confirm-tap');
const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.id || e.className);
return {
  ghost: [...document.querySelectorAll('#goban [data-ghost]')].map((e) => e.dataset.point),
  notice: (document.getElementById('gomoku-notice') || {}).textContent || '',
  offer: box ? { kind: box.dataset.offer, mine: box.dataset.mine === 'true', text: box.textContent } : null,
  draw: button('offer-draw'),
  takeback: button('offer-takeback'),
  confirm: confirm ? confirm.checked : null,
  scroll_width: document.documentElement.scrollWidth,
  width: innerWidth,
  coarse: matchMedia('(pointer: coarse)').matches,
  wide: wide.slice(0, 5),
};
"#;

async fn offers_state(page: &Client) -> Value {
    page.execute(OFFERS_JS, vec![])
        .await
        .expect("the offers script runs")
}

async fn wait_offers(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    crate::harness::wait_script(page, OFFERS_JS, what, pred).await
}

/// The page is no wider than its viewport: nothing to scroll sideways.
fn fits(o: &Value, what: &str) {
    assert!(
        o["scroll_width"].as_f64() <= o["width"].as_f64() && o["wide"].as_array().is_some_and(Vec::is_empty),
        "{what} is wider than the screen: {o}"
    );
}

/// On a phone (a 390x844 touch screen) in Chinese, a person plays a bot: the confirming tap is on
/// by default, so the first tap shows a ghost stone and the second plays it; then the person takes
/// the move back (悔棋): the bot grants it at once, both stones come off, the log says 悔棋, and
/// the takeback count goes down. Nothing is wider than the screen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_player_confirms_each_stone_and_takes_a_move_back() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.phone_in(Some("zh-CN")).await;
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "阿强").await;
    create_gomoku_room(&page, 15, "freestyle", "").await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_gomoku(&page, "the game", |s| s["phase"] == "play" && s["to_move"] == 0).await;
    let o = offers_state(&page).await;
    assert_eq!(o["coarse"], true, "a touch screen: {o}");
    assert_eq!(
        o["confirm"], true,
        "the confirming tap is on by default on a touch screen: {o}"
    );
    assert_eq!(o["takeback"]["disabled"], true, "no stone to take back yet: {o}");
    assert_eq!(o["takeback"]["text"], "悔棋（还剩 3 次）", "{o}");
    assert_eq!(o["draw"]["text"], "求和", "{o}");
    fits(&o, "the phone's room page");

    // The first tap: a ghost stone, nothing played. A tap elsewhere moves it.
    click(&page, "#goban [data-point=\"c3\"]").await;
    let o = wait_offers(&page, "the ghost stone", |o| o["ghost"] == json!(["c3"])).await;
    assert!(
        o["notice"].as_str().is_some_and(|n| n.contains("再点一次 c3")),
        "{o}"
    );
    click(&page, "#goban [data-point=\"h8\"]").await;
    let o = wait_offers(&page, "the ghost moved", |o| o["ghost"] == json!(["h8"])).await;
    let s = gomoku_state(&page).await;
    assert!(stones(&s).is_empty(), "one tap plays nothing: {s}");
    screenshot_file(&page, "zh-gomoku-confirm-phone.png").await;
    fits(&o, "the board with a ghost stone");
    // The second tap on the same point plays it; the bot replies.
    click(&page, "#goban [data-point=\"h8\"]").await;
    let s = wait_gomoku(&page, "the bot's reply", |s| {
        stones(s).len() == 2 && s["to_move"] == 0
    })
    .await;
    assert_eq!(stones(&s)[0], ("h8".to_owned(), "black".to_owned()), "{s}");
    let reply = stones(&s)[1].0.clone();
    assert!(
        offers_state(&page).await["ghost"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );

    // 悔棋: the bot grants it at once; her stone and its reply come off.
    click(&page, "#offer-takeback").await;
    let s = wait_gomoku(&page, "the takeback", |s| {
        stones(s).is_empty() && s["to_move"] == 0
    })
    .await;
    assert!(
        s["log"].as_array().is_some_and(|l| l.iter().any(|e| e
            .as_str()
            .is_some_and(|e| e.starts_with("悔棋") && e.contains("h8") && e.contains(&reply)))),
        "the log says 悔棋: {s}"
    );
    assert_eq!(s["move_list"].as_array().map(Vec::len), Some(0), "{s}");
    let o = wait_offers(&page, "the takeback counted", |o| {
        o["takeback"]["text"] == "悔棋（还剩 2 次）"
    })
    .await;
    assert_eq!(o["takeback"]["disabled"], true, "once between two stones: {o}");
    fits(&o, "the room after the takeback");
    screenshot_file(&page, "zh-gomoku-takeback-phone.png").await;
    // The game goes on: two taps play again.
    click(&page, "#goban [data-point=\"c13\"]").await;
    wait_offers(&page, "the ghost stone", |o| o["ghost"] == json!(["c13"])).await;
    click(&page, "#goban [data-point=\"c13\"]").await;
    wait_gomoku(&page, "the bot's reply", |s| {
        stones(s).len() == 2 && s["to_move"] == 0
    })
    .await;
    let o = offers_state(&page).await;
    assert_eq!(
        o["takeback"]["disabled"], false,
        "a new stone: a takeback may be asked again: {o}"
    );
    // The setting is remembered: off, the page plays at the first tap, after a reload too.
    click(&page, "#confirm-tap").await;
    page.refresh().await.expect("reload");
    wait_gomoku(&page, "the room after the reload", |s| {
        s["phase"] == "play" && s["to_move"] == 0
    })
    .await;
    assert_eq!(offers_state(&page).await["confirm"], false);
    let s = gomoku_state(&page).await;
    let free = ["m3", "m13", "c8", "m8"]
        .into_iter()
        .find(|p| s["playable"].as_array().is_some_and(|a| a.iter().any(|q| q == p)))
        .expect("a free point");
    click(&page, &format!("#goban [data-point=\"{free}\"]")).await;
    wait_gomoku(&page, "one tap plays", |s| stones(s).len() >= 3).await;
}

/// At 1280x800 in English, two people play; the confirming tap is off on a desktop (a click
/// plays). White offers a draw: black sees it under the board, declines, and the game goes on;
/// black offers one later, white accepts, and both pages show the draw by agreement.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_agree_a_draw_on_a_desktop() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let alice = driver.desktop_in(None).await;
    let bob = driver.desktop_in(None).await;
    open_as(&alice, &base(&server), "Alice").await;
    let room = create_gomoku_room(&alice, 15, "freestyle", "").await;
    open_as(&bob, &format!("{}room/{room}", base(&server)), "Bob").await;
    click(&bob, "#sit-1").await;
    wait_gomoku(&alice, "the game", |s| s["phase"] == "play" && s["to_move"] == 0).await;
    let o = offers_state(&alice).await;
    assert_eq!(
        (o["coarse"].clone(), o["confirm"].clone()),
        (json!(false), json!(false)),
        "{o}"
    );
    click(&alice, "#goban [data-point=\"h8\"]").await;
    wait_gomoku(&bob, "black's stone", |s| {
        stones(s).len() == 1 && s["to_move"] == 1
    })
    .await;
    // White offers a draw; black declines it.
    click(&bob, "#offer-draw").await;
    let o = wait_offers(&alice, "the offer", |o| o["offer"]["kind"] == "draw").await;
    assert_eq!(o["offer"]["mine"], false);
    assert!(
        o["offer"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("Bob offers a draw.")),
        "{o}"
    );
    let b = wait_offers(&bob, "the offer waiting", |o| o["offer"]["mine"] == true).await;
    assert_eq!(b["draw"]["disabled"], true, "{b}");
    click(&alice, "#offer-decline").await;
    wait_offers(&bob, "the offer declined", |o| o["offer"].is_null()).await;
    let s = wait_gomoku(&bob, "the decline logged", |s| {
        s["log"].as_array().is_some_and(|l| {
            l.iter()
                .any(|e| e.as_str().is_some_and(|e| e.contains("declines the draw")))
        })
    })
    .await;
    assert_eq!(s["phase"], "play");
    click(&bob, "#goban [data-point=\"h9\"]").await;
    wait_gomoku(&alice, "white's stone", |s| {
        stones(s).len() == 2 && s["to_move"] == 0
    })
    .await;
    // Black offers; white accepts.
    click(&alice, "#offer-draw").await;
    wait_offers(&bob, "the offer", |o| o["offer"]["kind"] == "draw").await;
    let o = offers_state(&bob).await;
    fits(&o, "the desktop's room page");
    screenshot_file(&bob, "gomoku-draw-offer-desktop.png").await;
    click(&bob, "#offer-accept").await;
    for page in [&alice, &bob] {
        let s = wait_gomoku(page, "the draw", |s| s["phase"] == "over").await;
        assert_eq!(s["result"]["end"], "draw_agreed", "{s}");
        assert_eq!(s["result"]["winner"], "draw", "{s}");
        assert_eq!(s["result"]["text"], "Draw by agreement.", "{s}");
        assert!(
            s["result"]["detail"]
                .as_str()
                .is_some_and(|d| d.contains("half a point each")),
            "{s}"
        );
        let o = offers_state(page).await;
        assert!(
            o["offer"].is_null() && o["draw"].is_null(),
            "no offers once over: {o}"
        );
    }
    screenshot_file(&alice, "gomoku-draw-desktop.png").await;
}
