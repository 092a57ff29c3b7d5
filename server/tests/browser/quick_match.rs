//! Quick match and bots by level in the browser: on a phone in Chinese, a person finds quick match
//! and the create form's "Create and sit" without scrolling, presses quick match for gomoku, and
//! plays the bot that fills the other seat after the wait, named by its level ("中等 · 机器人");
//! on a desktop in English, a person picks a level when adding a bot and sees its strategy as
//! the detail.

use super::*;

/// Where the lobby's controls sit on the page: each one's top and bottom, the window's height,
/// whether the page is wider than the window, and the create form's default length.
const LOBBY_LAYOUT_JS: &str = r#"
const box = (css) => { const e = document.querySelector(css); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
return {
  quick: box('[data-quick-match="gomoku"]'),
  submit: box('#create-submit'),
  height: window.innerHeight,
  too_wide: document.documentElement.scrollWidth > window.innerWidth,
  format: document.getElementById('create-format').value,
  rounds: document.getElementById('create-rounds').value,
};
"#;

/// The seats as the room page names them, and each bot's detail.
const SEATS_JS: &str = r#"
return {
  names: [...document.querySelectorAll('[data-seat-name]')].map((e) => e.textContent),
  details: [...document.querySelectorAll('[data-bot-detail]')].map((e) => e.textContent),
  picker: (document.querySelector('[data-seat-row="1"] [data-bot-strategy]') || {}).value || null,
  picker_detail: (document.getElementById('bot-detail-1') || {}).textContent || null,
};
"#;

/// A bot pool whose gomoku strategies are every level's, stopped on drop.
fn level_bots(server: &TestServer) -> Bots {
    let token = CancellationToken::new();
    let mut options = BotOptions::new(server.ws_url(), "pool".into());
    options.strategies.insert(
        skirmish_protocol::GameKind::Gomoku,
        vec![
            "pattern-search".into(),
            "pattern-search-medium".into(),
            "pattern-search-easy".into(),
        ],
    );
    let stop = token.clone();
    tokio::spawn(async move {
        let _ = run(options, stop).await;
    });
    Bots(token)
}

/// Places a black stone on the free point nearest the centre, and waits for the bot's reply.
async fn play_a_move(page: &Client, moves: usize) {
    let s = wait_gomoku(page, "my move", |s| {
        s["phase"] == "play" && s["to_move"] == s["you"] && stones(s).len() == 2 * moves
    })
    .await;
    let playable: HashSet<&str> = s["playable"]
        .as_array()
        .expect("points")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let point = ["h8", "g7", "i9", "g9", "i7", "h6", "h10"]
        .into_iter()
        .find(|p| playable.contains(p))
        .expect("a free point near the centre");
    click(page, &format!("#goban [data-point=\"{point}\"]")).await;
    wait_gomoku(page, "the bot's reply", |s| {
        stones(s).len() == 2 * moves + 2 || s["phase"] == "over"
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_quick_matches_gomoku_on_a_phone_and_plays_a_bot_named_by_its_level() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start_with(skirmish_server::Limits {
        quick_match_wait_ms: 1500,
        ..skirmish_server::Limits::default()
    })
    .await;
    let _bots = level_bots(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser_in(Some("zh-CN")).await;
    page.set_window_size(390, 844).await.expect("the window size");
    wait_for_bots_of(&page, &server, "gomoku").await;
    open_as(&page, &base(&server), "小明").await;
    find(&page, "#lobby").await;
    let layout = page.execute(LOBBY_LAYOUT_JS, vec![]).await.expect("the layout");
    let height = layout["height"].as_f64().unwrap();
    for control in ["quick", "submit"] {
        assert!(
            layout[control]["top"].as_f64().unwrap() >= 0.0
                && layout[control]["bottom"].as_f64().unwrap() <= height,
            "{control} is out of view without scrolling: {layout}"
        );
    }
    assert_eq!(layout["too_wide"], json!(false), "{layout}");
    assert_eq!(
        (layout["format"].as_str(), layout["rounds"].as_str()),
        (Some("quick"), Some("3")),
        "{layout}"
    );
    assert_eq!(text_of(&page, "[data-quick-match=\"gomoku\"]").await, "五子棋");
    i18n::assert_chinese(&page, "the lobby with quick match (phone)").await;
    screenshot_file(&page, "quick-lobby-phone.png").await;

    click(&page, "[data-quick-match=\"gomoku\"]").await;
    let s = wait_gomoku(&page, "the quick match's room", |s| {
        s["page"] == "gomoku" && s["you"] == 0
    })
    .await;
    let room = s["id"].as_str().expect("a room id").to_owned();
    // Nobody else came: after the wait a bot of the medium level takes white.
    wait_gomoku(&page, "the bot and the start", |s| {
        s["phase"] == "play" && s["to_move"] == 0
    })
    .await;
    let seats = page.execute(SEATS_JS, vec![]).await.expect("the seats");
    assert_eq!(seats["names"][1], json!("中等 · 机器人"), "{seats}");
    assert_eq!(
        seats["details"],
        json!(["pattern-search-medium"]),
        "the strategy as the detail: {seats}"
    );
    for n in 0..2 {
        play_a_move(&page, n).await;
    }
    let s = gomoku_state(&page).await;
    assert_eq!(s["id"], json!(room));
    assert!(
        s["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p.as_str().is_some_and(|t| t.contains("中等 · 机器人"))),
        "the board's players name the bot by its level: {s}"
    );
    assert!(
        !s["players"].to_string().contains("pool"),
        "the bot's connection name is not shown: {s}"
    );
    i18n::assert_chinese(&page, "a quick-match gomoku game (phone)").await;
    screenshot_file(&page, "quick-gomoku-phone.png").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_picks_a_level_when_adding_a_bot_on_a_desktop() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.set_window_size(1280, 800).await.expect("the window size");
    wait_for_bots_of(&page, &server, "tic_tac_toe").await;
    open_as(&page, &base(&server), "Hal").await;
    find(&page, "#create-form").await;
    assert_eq!(
        text_of(&page, "[data-quick-match=\"tic_tac_toe\"]").await,
        "Tic-tac-toe"
    );
    screenshot_file(&page, "quick-lobby-desktop.png").await;
    find(&page, "#create-game")
        .await
        .select_by_value("tic_tac_toe")
        .await
        .expect("pick tic-tac-toe");
    click(&page, "#create-submit").await;
    find(&page, "[data-seat-row=\"1\"] [data-bot-strategy]").await;
    let seats = page.execute(SEATS_JS, vec![]).await.expect("the seats");
    assert_eq!(
        seats["picker"],
        json!("level:medium"),
        "a person starts from the medium level: {seats}"
    );
    assert_eq!(seats["picker_detail"], json!("seed-junior"), "{seats}");
    click(&page, "[data-seat-row=\"1\"] [data-bot-level=\"easy\"]").await;
    let seats = page.execute(SEATS_JS, vec![]).await.expect("the seats");
    assert_eq!(seats["picker_detail"], json!("random"), "{seats}");
    click(&page, "[data-seat-row=\"1\"] [data-bot-level=\"hard\"]").await;
    let seats = page.execute(SEATS_JS, vec![]).await.expect("the seats");
    assert_eq!(seats["picker_detail"], json!("seed-rules"), "{seats}");
    screenshot_file(&page, "quick-level-picker-desktop.png").await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    let seats = wait_script(&page, SEATS_JS, "the bot by its level", |s| {
        s["names"][1] == "Bot (Hard)"
    })
    .await;
    assert_eq!(seats["details"], json!(["seed-rules"]), "{seats}");
    let status = text_of(&page, "#status-text").await;
    assert!(
        !status.contains("pool"),
        "the status names the bot by level, not its connection: {status}"
    );
    screenshot_file(&page, "quick-level-bot-desktop.png").await;
}
