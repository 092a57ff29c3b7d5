//! The games on a phone: Chromium's mobile emulation (390x844, touch), in Chinese and in English.
//! Nothing is wider than the screen, and the controls a person needs are in reach: plane battle
//! shows one board at a time and turns to the board to fire at when the turn comes; the junqi
//! editor and board fit the width.

use super::junqi::play_a_move;
use super::plane::fire_somewhere;
use super::*;

/// What sticks out of the screen sideways: the document's scroll width against the viewport's,
/// and the first few elements that reach past either edge (those inside a box that scrolls or
/// clips them, and the screen reader's clipped text, aside).
const OVERFLOW_JS: &str = r#"
const width = document.documentElement.clientWidth;
const clipped = (e) => {
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX;
    if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
  }
  return false;
};
const wide = [...document.querySelectorAll('body *')].filter((e) => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || e.closest('.sr-only, .skip, [hidden]')) return false;
  return (r.right > width + 1 || r.left < -1) && !clipped(e);
});
return {
  width,
  scroll: document.documentElement.scrollWidth,
  wide: wide.slice(0, 6).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
};
"#;

/// Fails when anything reaches past the screen's sides.
pub(crate) async fn assert_fits(page: &Client, what: &str) {
    let fit = page
        .execute(OVERFLOW_JS, vec![])
        .await
        .expect("the overflow script");
    assert!(
        fit["scroll"].as_u64() <= fit["width"].as_u64() && fit["wide"].as_array().is_some_and(Vec::is_empty),
        "{what}: wider than the screen: {fit}"
    );
}

/// The box of the element `css` in the viewport, after scrolling the page to its top:
/// `{top, bottom, left, right, height, shown}` in CSS pixels, `shown` false when it takes no room.
pub(crate) async fn rect_at_top(page: &Client, css: &str) -> Value {
    page.execute(
        "window.scrollTo(0, 0); const e = document.querySelector(arguments[0]); \
         if (!e) return null; const r = e.getBoundingClientRect(); \
         return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, \
                  shown: r.width > 0 && r.height > 0, inner: window.innerHeight };",
        vec![json!(css)],
    )
    .await
    .expect("the rectangle script")
}

/// Whether the rectangle lies wholly inside the first screen.
pub(crate) fn on_first_screen(r: &Value) -> bool {
    r["shown"] == true && r["top"].as_f64() >= Some(0.0) && r["bottom"].as_f64() <= r["inner"].as_f64()
}

/// A person plays plane battle against a bot on a phone (390x844 in zh-CN and English, 360x740 in
/// zh-CN): one board at a
/// time; while deploying their own, with Rotate, Random and Ready on the first screen; when their
/// turn comes, the board to fire at, whole on the first screen, after any board they picked with
/// the tabs; the status bar stays short; nothing is wider than the screen, through the match's end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plane_battle_on_a_phone_shows_one_board_and_keeps_the_controls_in_reach() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (lang, name, small) in [
        ("zh-CN", "阿强", false),
        ("en", "Ann", false),
        ("zh-CN", "小美", true),
    ] {
        let page = if small {
            driver.small_phone_in(Some(lang)).await
        } else {
            driver.phone_in(Some(lang)).await
        };
        wait_for_bots(&page, &server).await;
        open_as(&page, &base(&server), name).await;
        assert_fits(&page, &format!("the lobby ({lang})")).await;
        create_room(&page, 2, "double", 1).await;
        click(&page, "#start-now").await;
        let s = wait_state(&page, "deployment", |s| {
            s["phase"] == "deploy" && s["deploy"] == "placing"
        })
        .await;
        assert_eq!(
            attr_of(&page, "#boards", "data-shown").await,
            "0",
            "my board while I deploy: {s}"
        );
        assert!(
            on_first_screen(&rect_at_top(&page, "[data-board=\"0\"] .grid").await),
            "my board on the first screen"
        );
        for button in ["#deploy-rotate", "#deploy-random", "#deploy-ready"] {
            let r = rect_at_top(&page, button).await;
            assert!(
                on_first_screen(&r),
                "{button} in reach without scrolling ({lang}): {r}"
            );
        }
        assert!(
            !rect_at_top(&page, "[data-board=\"1\"]").await["shown"]
                .as_bool()
                .unwrap_or(true),
            "one board at a time"
        );
        let status = rect_at_top(&page, "#status").await;
        assert!(
            status["height"].as_f64() < Some(90.0),
            "a short status bar: {status}"
        );
        assert_fits(&page, &format!("the deployment ({lang})")).await;
        screenshot_file(
            &page,
            &format!("{}plane-deploy-phone.png", if lang == "en" { "" } else { "zh-" }),
        )
        .await;
        deploy_random(&page).await;

        let start = Instant::now();
        let mut turns = 0;
        // Whether my own board was picked while the bot's turn was still on (so the page, not
        // my pick, must turn to the board to fire at when my turn comes).
        let mut picked_mine = false;
        let mut jumps = 0;
        loop {
            assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
            let s = state(&page).await;
            if s["phase"] == "over" {
                break;
            }
            if !my_turn(&s) {
                // Look at my own board while the bot fires: the page leaves the choice alone
                // until my turn comes, and then turns to the board to fire at.
                if s["phase"] == "attack" && attr_of(&page, "#boards", "data-shown").await != "0" {
                    click(&page, "#board-tab-0").await;
                    picked_mine = !my_turn(&state(&page).await);
                }
                tokio::time::sleep(Duration::from_millis(30)).await;
                continue;
            }
            turns += 1;
            if picked_mine || turns == 1 {
                jumps += 1;
                assert_eq!(
                    attr_of(&page, "#boards", "data-shown").await,
                    "1",
                    "the board to fire at on my turn: {s}"
                );
            } else if attr_of(&page, "#boards", "data-shown").await != "1" {
                click(&page, "#board-tab-1").await;
            }
            picked_mine = false;
            let grid = rect_at_top(&page, "[data-board=\"1\"] .grid").await;
            assert!(
                on_first_screen(&grid),
                "the whole board to fire at on the first screen: {grid}"
            );
            if turns == 2 && !small {
                assert_fits(&page, &format!("the battle ({lang})")).await;
                screenshot_file(
                    &page,
                    &format!("{}plane-battle-phone.png", if lang == "en" { "" } else { "zh-" }),
                )
                .await;
            }
            fire_somewhere(&page, &s, turns * 7).await;
        }
        assert!(
            turns > 0 && jumps > 0,
            "I fired, and the page turned to the board to fire at"
        );
        find(&page, "#final").await;
        // A downed plane's head looks on the board as in the legend.
        let colours = page
            .execute(
                "const cell = document.querySelector('#boards .cell[data-shot=\"down\"]'); \
                 const key = document.querySelector('.legend .cell.shot-down'); \
                 return cell && key ? [getComputedStyle(cell).backgroundColor, getComputedStyle(key).backgroundColor] : null;",
                vec![],
            )
            .await
            .expect("the colours");
        // The match ends with a player knocked out: every plane of theirs downed, head shot.
        let colours = colours
            .as_array()
            .expect("a downed head on a board, and the legend's key");
        assert_eq!(colours[0], colours[1], "a downed head's colour, board and legend");
        assert_fits(&page, &format!("the final panel ({lang})")).await;
        page.close().await.expect("close the browser");
    }
}

/// A person deploys and plays junqi against a bot on a phone (360x740 in zh-CN, 390x844 in
/// English): the editor and the board fit the width, Deploy sends the layout (it is not the Save
/// of a named layout), a tap on a landmine says why nothing moves, and moves are made by tapping.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junqi_on_a_phone_fits_the_screen() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (lang, name, width) in [("zh-CN", "小林", 360.0), ("en", "Lin", 390.0)] {
        // The narrower phone in Chinese: the board is widest for its screen there.
        let page = if lang == "en" {
            driver.phone_in(Some(lang)).await
        } else {
            driver.small_phone_in(Some(lang)).await
        };
        wait_for_bots_of(&page, &server, "junqi").await;
        open_as(&page, &base(&server), name).await;
        create_junqi_room(&page).await;
        click(&page, "#start-now").await;
        wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
        assert_fits(&page, "the junqi deployment editor").await;
        let prefix = if lang == "en" { "" } else { "zh-" };
        screenshot_file(&page, &format!("{prefix}junqi-deploy-phone.png")).await;
        click(&page, "#deploy-random").await;
        click(&page, "#deploy-send").await;
        wait_junqi(&page, "the battle", |s| s["phase"] == "battle").await;
        assert_fits(&page, "the junqi board").await;
        let board = rect_at_top(&page, "#jq-board").await;
        assert!(
            board["left"].as_f64() >= Some(0.0) && board["right"].as_f64() <= Some(width),
            "the board within the width: {board}"
        );
        // A tap on a landmine says why nothing happens, under the board.
        let s = junqi_state(&page).await;
        let mine = s["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .find(|p| p[1] == 0 && p[2] == "landmine")
            .and_then(|p| p[0].as_str())
            .expect("a landmine of mine")
            .to_owned();
        click(&page, &format!("#jq-board [data-post=\"{mine}\"]")).await;
        let notice = text_of(&page, "#junqi-notice").await;
        let (rank, never) = if lang == "en" {
            ("Landmine", "never moves")
        } else {
            ("地雷", "不能移动")
        };
        assert!(
            notice.contains(rank) && notice.contains(never),
            "the refusal in words: {notice}"
        );
        let shot = format!("{prefix}junqi-battle-phone.png");
        for n in 0..3 {
            let mv = play_a_move(&page, (n == 1).then_some(shot.as_str())).await;
            if mv.is_empty() {
                break;
            }
        }
        assert_fits(&page, "the junqi board after a few moves").await;
        page.close().await.expect("close the browser");
    }
}

/// A person plays gomoku against a bot on an English phone: the board fits the width, a stone
/// takes two taps (the confirming tap is on by default on a touch screen), the status bar names
/// the bot's reply, and a tap on a taken point says why nothing happens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gomoku_on_a_phone_fits_the_screen_and_confirms_each_stone() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.phone_in(Some("en")).await;
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "Mei").await;
    create_gomoku_room(&page, 15, "freestyle", "").await;
    click(&page, "#start-now").await;
    wait_gomoku(&page, "my move", |s| {
        s["phase"] == "play" && s["to_move"] == s["you"]
    })
    .await;
    assert_fits(&page, "the gomoku room").await;
    let board = rect_at_top(&page, "#goban").await;
    assert!(
        board["right"].as_f64() <= Some(390.0),
        "the board within the width: {board}"
    );
    click(&page, "#goban [data-point=\"h8\"]").await;
    let s = gomoku_state(&page).await;
    assert!(stones(&s).is_empty(), "one tap places nothing yet: {s}");
    click(&page, "#goban [data-point=\"h8\"]").await;
    wait_gomoku(&page, "the bot's reply", |s| {
        s["phase"] == "over" || (s["to_move"] == s["you"] && stones(s).len() == 2)
    })
    .await;
    let status = text_of(&page, "#status").await;
    assert!(
        status.contains("Last: white"),
        "the bot's stone in the status bar: {status}"
    );
    screenshot_file(&page, "gomoku-play-phone.png").await;
    // A tap on a taken point says why nothing happens, under the board.
    click(&page, "#goban [data-point=\"h8\"]").await;
    let notice = text_of(&page, "#gomoku-notice").await;
    assert!(
        notice.contains("h8 already has a stone"),
        "the refusal in words: {notice}"
    );
    page.close().await.expect("close the browser");
}
