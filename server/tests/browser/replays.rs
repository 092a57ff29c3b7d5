//! My games and replays in the browser: a person plays a short plane battle against a bot, finds
//! it under "My games" from the lobby, and replays it as they saw it (the bot's planes hidden until
//! the round's end) and with everything shown, in Chinese at 390x844 and in English at 1280x800,
//! with no sideways scrolling.

use super::harness::wait_script;
use super::*;

/// The replay page's state: its view, steps, the step shown, each board's planes drawn, the
/// events the page received, and whether the page is wider than the window.
const REPLAY_JS: &str = r#"
const section = document.getElementById('replay');
if (!section || !window.replay || !window.replay.record) return { ready: false, state: section && section.dataset.state };
const R = window.replay;
return {
  ready: true,
  view: section.dataset.view,
  kind: section.dataset.kind,
  steps: Number(section.dataset.steps),
  step: Number(section.dataset.step),
  kinds: R.steps.map((s) => s.kind),
  boards: [...document.querySelectorAll('#boards [data-board]')].map((b) => Number(b.dataset.planes)),
  deployments: R.record.events.filter((e) => e.kind === 'deployment').map((e) => e.seat),
  result: (document.getElementById('match-result') || {}).textContent || '',
  placings: (document.getElementById('placings') || {}).textContent || '',
  too_wide: document.documentElement.scrollWidth > window.innerWidth,
};
"#;

async fn replay_state(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_script(page, REPLAY_JS, what, pred).await
}

/// Opens the replay at `url` afresh (a change of the address's `#step` alone would not reload
/// the page) and waits until it shows step `step`.
async fn open_replay(page: &Client, url: &str, step: usize) -> Value {
    page.goto("about:blank").await.expect("a blank page");
    page.goto(url).await.expect("the replay loads");
    replay_state(page, &format!("step {step} of {url}"), |s| {
        s["ready"] == true && s["step"] == step
    })
    .await
}

/// Plays the page's seat of a 2-seat classic room against the bot to the end.
async fn play_to_the_end(page: &Client) {
    wait_state(page, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(page).await;
    let start = Instant::now();
    let mut pick = 0;
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
        let s = state(page).await;
        if s["phase"] == "over" {
            break;
        }
        if my_turn(&s) {
            pick += 13;
            super::plane::fire_somewhere(page, &s, pick).await;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_listed_and_replayed_as_a_seat_saw_it_and_with_everything() {
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
        wait_for_bots(&page, &server).await;
        open_as(&page, &base(&server), if lang.is_some() { "小明" } else { "Dee" }).await;
        let room = create_room(&page, 2, "classic", 1).await;
        click(&page, "#start-now").await;
        play_to_the_end(&page).await;

        // My games, from the lobby's link: this game, with the seat played.
        page.goto(&base(&server)).await.expect("the lobby");
        click(&page, "#my-games-link").await;
        let listed = wait_script(
            &page,
            "return (document.getElementById('my-games') || {dataset: {}}).dataset.state || null",
            "My games loaded",
            |s| s == "ready" || s == "error",
        )
        .await;
        assert_eq!(listed, "ready");
        find(
            &page,
            &format!("#mygames li[data-room=\"{room}\"][data-seat=\"0\"]"),
        )
        .await;
        let lines = page
            .execute("return document.querySelectorAll('#mygames li').length", vec![])
            .await
            .expect("the list");
        assert_eq!(lines, json!(1), "one game played in this browser");
        let wide = page
            .execute(
                "return document.documentElement.scrollWidth > window.innerWidth",
                vec![],
            )
            .await
            .expect("the width");
        assert_eq!(wide, json!(false), "My games fits the window ({size})");
        if lang.is_some() {
            super::i18n::assert_chinese(&page, "My games").await;
        }
        screenshot_file(&page, &format!("replays-my-games-{size}.png")).await;

        // As the seat saw it: the bot's deployment is not among the events, and its board shows
        // no plane until the round's end reveals every board.
        click(&page, "#mygames [data-replay-seat=\"0\"]").await;
        let seat = replay_state(&page, "the seat's replay", |s| s["ready"] == true).await;
        assert_eq!(seat["view"], "0", "{seat}");
        assert_eq!(seat["kind"], "casual", "{seat}");
        assert_eq!(
            seat["deployments"],
            json!([0]),
            "only the seat's own deployment: {seat}"
        );
        // Step i shows the position after event i - 1 (step 0: before the first event).
        let kinds = seat["kinds"].as_array().unwrap();
        let first_shot = kinds.iter().position(|k| k == "shot").expect("a shot");
        let round_end = kinds
            .iter()
            .position(|k| k == "round_ended")
            .expect("the round's end");
        let at_shot = open_replay(
            &page,
            &format!("{}replay/{room}?seat=0#{first_shot}", base(&server)),
            first_shot,
        )
        .await;
        assert_eq!(
            at_shot["boards"],
            json!([1, 0]),
            "own plane shown, the bot's hidden: {at_shot}"
        );
        assert_eq!(at_shot["too_wide"], false, "{size}: {at_shot}");
        assert!(!at_shot["result"].as_str().unwrap().is_empty(), "{at_shot}");
        if lang.is_some() {
            super::i18n::assert_chinese(&page, "the replay as a seat").await;
        }
        screenshot_file(&page, &format!("replays-seat-{size}.png")).await;
        let revealed = open_replay(
            &page,
            &format!("{}replay/{room}?seat=0#{round_end}", base(&server)),
            round_end,
        )
        .await;
        assert_eq!(
            revealed["boards"],
            json!([1, 1]),
            "the round's end reveals the bot's plane: {revealed}"
        );

        // Everything: the switcher reloads the match with every deployment.
        find(&page, "#view-as")
            .await
            .select_by_value("all")
            .await
            .expect("pick everything");
        let all = replay_state(&page, "everything", |s| s["ready"] == true && s["view"] == "all").await;
        assert_eq!(all["deployments"].as_array().unwrap().len(), 2, "{all}");
        assert!(all["steps"].as_u64() > seat["steps"].as_u64(), "{all} {seat}");
        let all_first_shot = all["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .position(|k| k == "shot")
            .expect("a shot");
        let shown = open_replay(
            &page,
            &format!("{}replay/{room}#{all_first_shot}", base(&server)),
            all_first_shot,
        )
        .await;
        assert_eq!(shown["boards"], json!([1, 1]), "every board shown: {shown}");
        assert_eq!(shown["too_wide"], false, "{size}: {shown}");
        if lang.is_some() {
            super::i18n::assert_chinese(&page, "the replay with everything").await;
        }
        screenshot_file(&page, &format!("replays-all-{size}.png")).await;
        let steps = usize::try_from(all["steps"].as_u64().expect("steps")).expect("small");
        let last = open_replay(&page, &format!("{}replay/{room}#{steps}", base(&server)), steps).await;
        assert!(!last["placings"].as_str().unwrap().is_empty(), "{last}");
        screenshot_file(&page, &format!("replays-end-{size}.png")).await;
        page.close().await.expect("close the browser");
    }
}
