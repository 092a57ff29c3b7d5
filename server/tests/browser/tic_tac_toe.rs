//! Tic-tac-toe in the browser, the game added through the page-module interface (games.js): a
//! person plays the `seed-rules` bot on a phone in Chinese and on a desktop in English and never
//! wins; a click on a taken cell says why nothing happened; two people play each other to a line.

use super::*;

/// A tic-tac-toe room page's state: the room's `data-*` attributes, each cell's mark, the cells
/// the player may click, the notice and the result shown, and whether the page is wider than
/// the window.
const TTT_JS: &str = r#"
const room = document.getElementById('room');
if (!room) return { page: document.getElementById('lobby') ? 'lobby' : 'other' };
if (room.dataset.game !== 'tic_tac_toe') return { page: 'room', phase: room.dataset.phase };
const num = (v) => (v === undefined || v === '' ? null : Number(v));
const result = document.getElementById('result');
return {
  page: 'tic_tac_toe',
  id: room.dataset.roomId,
  phase: room.dataset.phase,
  you: num(room.dataset.you),
  to_move: num(room.dataset.toMove),
  marks: num(room.dataset.marks),
  cells: [...document.querySelectorAll('#ttt-board [data-cell]')].map((e) => e.dataset.mark || null),
  playable: [...document.querySelectorAll('#ttt-board [data-playable]')].map((e) => Number(e.dataset.cell)),
  notice: (document.getElementById('ttt-notice') || {}).textContent || '',
  status_text: (document.getElementById('status-text') || {}).textContent || '',
  result: result ? { end: result.dataset.end, winner: result.dataset.winner,
    text: document.getElementById('result-text').textContent } : null,
  too_wide: document.documentElement.scrollWidth > window.innerWidth,
  board_right: document.getElementById('ttt-board') ? document.getElementById('ttt-board').getBoundingClientRect().right : null,
  width: window.innerWidth,
};
"#;

async fn ttt(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = page.execute(TTT_JS, vec![]).await.expect("the state script runs");
        if pred(&s) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}: {s}"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Creates a tic-tac-toe room from the lobby's form and returns its id once seated as X.
async fn create_ttt_room(page: &Client) -> String {
    find(page, "#create-form").await;
    find(page, "#create-game")
        .await
        .select_by_value("tic_tac_toe")
        .await
        .expect("pick tic-tac-toe");
    find(
        page,
        "#create-form[data-game=\"tic_tac_toe\"] #tic_tac_toe-fields:not([hidden])",
    )
    .await;
    click(page, "#create-submit").await;
    let s = ttt(page, "the new room", |s| {
        s["page"] == "tic_tac_toe" && s["you"] == 0
    })
    .await;
    s["id"].as_str().expect("a room id").to_owned()
}

/// Clicks `cell` when it is this page's turn, and waits until its mark shows.
async fn mark_cell(page: &Client, cell: u64) {
    ttt(page, "my turn", |s| {
        s["phase"] == "play"
            && s["to_move"] == s["you"]
            && s["playable"].as_array().is_some_and(|p| p.contains(&json!(cell)))
    })
    .await;
    click(page, &format!("#ttt-board [data-cell=\"{cell}\"]")).await;
    ttt(page, "my mark", |s| s["cells"][cell as usize].is_string()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_tic_tac_toe_against_the_seed_bot_on_a_phone_and_a_desktop_and_never_wins() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (size, lang, (w, h)) in [
        ("phone", Some("zh-CN"), (390, 844)),
        ("desktop", None, (1280, 800)),
    ] {
        let page = driver.browser_in(lang).await;
        page.set_window_size(w, h).await.expect("the window size");
        wait_for_bots_of(&page, &server, "tic_tac_toe").await;
        open_as(&page, &base(&server), if lang.is_some() { "小明" } else { "Hal" }).await;
        create_ttt_room(&page).await;
        click(
            &page,
            "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"seed-rules\"]",
        )
        .await;
        click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
        let s = ttt(&page, "the game", |s| s["phase"] == "play" && s["to_move"] == 0).await;
        assert_eq!(
            s["playable"].as_array().map(Vec::len),
            Some(9),
            "{size}: every cell is free: {s}"
        );
        // Corner first, then the first free cell, until the game ends.
        let mut refused = false;
        let end = loop {
            let s = ttt(&page, "my turn or the end", |s| {
                s["phase"] == "over"
                    || (s["to_move"] == s["you"] && s["playable"].as_array().is_some_and(|p| !p.is_empty()))
            })
            .await;
            if s["phase"] == "over" {
                break s;
            }
            let marks = s["marks"].as_u64().unwrap_or(0);
            if !refused && marks >= 2 {
                // A click on a taken cell does nothing to the game and says why, under the board.
                let taken = s["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(Value::is_string)
                    .unwrap();
                click(&page, &format!("#ttt-board [data-cell=\"{taken}\"]")).await;
                let s = ttt(&page, "the notice", |s| s["notice"] != "").await;
                assert_eq!(
                    s["marks"],
                    json!(marks),
                    "{size}: a refused click changed the board: {s}"
                );
                refused = true;
            }
            let cell = if s["cells"][0].is_null() {
                0
            } else {
                s["playable"][0].as_u64().unwrap()
            };
            mark_cell(&page, cell).await;
            ttt(&page, "the bot's reply or the end", |s| {
                s["phase"] == "over" || s["marks"].as_u64().unwrap_or(0) >= marks + 2
            })
            .await;
        };
        assert!(
            refused || end["marks"].as_u64() < Some(4),
            "{size}: the refusal was tried: {end}"
        );
        let result = &end["result"];
        assert!(result.is_object(), "{size}: a result panel: {end}");
        assert_ne!(
            result["winner"],
            json!("0"),
            "{size}: the person beat seed-rules: {end}"
        );
        assert!(!result["text"].as_str().unwrap_or("").is_empty(), "{end}");
        assert_eq!(
            end["too_wide"],
            json!(false),
            "{size}: the page is wider than the window: {end}"
        );
        assert!(
            end["board_right"].as_f64().unwrap() <= end["width"].as_f64().unwrap(),
            "{size}: the board runs off the screen: {end}"
        );
        if lang.is_some() {
            i18n::assert_chinese(&page, "a finished tic-tac-toe game on a phone").await;
        }
        screenshot_file(&page, &format!("tic-tac-toe-{size}.png")).await;
        // The finished game's replay draws the board: at its last step, the marks as they ended.
        let room = end["id"].as_str().expect("the room's id").to_owned();
        page.goto(&format!("{}replay/{room}", base(&server)))
            .await
            .expect("the replay page");
        click(&page, "#last").await;
        harness::wait_script(
            &page,
            "return document.querySelectorAll('#ttt-board [data-mark]').length",
            "the replay's last board",
            |n| n.as_u64() == end["marks"].as_u64(),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_tic_tac_toe_in_their_browsers_to_a_line() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let ann = driver.browser().await;
    let bob = driver.browser_in(Some("zh-CN")).await;
    bob.set_window_size(390, 844).await.expect("the window size");
    open_as(&ann, &base(&server), "Ann").await;
    let room = create_ttt_room(&ann).await;
    open_as(&bob, &format!("{}room/{room}", base(&server)), "阿强").await;
    click(&bob, "#sit-1").await;
    ttt(&bob, "Bob seated", |s| s["you"] == 1 && s["phase"] == "play").await;
    // X: 0 1 2 (the top row); O: 3 4.
    for (turn, cell) in [0u64, 3, 1, 4, 2].into_iter().enumerate() {
        let page = if turn % 2 == 0 { &ann } else { &bob };
        mark_cell(page, cell).await;
    }
    for page in [&ann, &bob] {
        let s = ttt(page, "the end", |s| s["phase"] == "over").await;
        assert_eq!(s["result"]["winner"], json!("0"), "{s}");
        assert_eq!(s["result"]["end"], json!("line"), "{s}");
        assert_eq!(
            s["cells"],
            json!(["X", "X", "X", "O", "O", null, null, null, null]),
            "{s}"
        );
    }
}
