//! The games on a desktop's first screen: at exactly 1280x800, the boards, the turn, the last
//! action and the chat are in view without scrolling, in English and in Chinese.

use super::junqi::play_a_move;
use super::phone::{assert_fits, on_first_screen, rect_at_top};
use super::plane::fire_somewhere;
use super::*;
use harness::wait_script;

/// Fails unless every element `css` names lies wholly on the first screen.
async fn assert_on_first_screen(page: &Client, what: &str, css: &[&str]) {
    for css in css {
        let r = rect_at_top(page, css).await;
        assert!(
            on_first_screen(&r),
            "{what}: {css} is not on the first screen: {r}"
        );
    }
}

/// Each board's seat and left edge in pixels, left to right.
async fn board_lefts(page: &Client) -> Value {
    page.execute(
        "return [...document.querySelectorAll('#boards [data-board]')].map((b) => [Number(b.dataset.board), Math.round(b.getBoundingClientRect().left)]).sort((a, b) => a[1] - b[1]);",
        vec![],
    )
    .await
    .expect("the boards' places")
}

/// Sends a chat line and waits until the page shows it.
async fn say(page: &Client, text: &str) {
    type_into(page, "#chat-input", text).await;
    click(page, "#chat-send").await;
    wait_script(
        page,
        "return [...document.querySelectorAll('#chat-lines li')].map((e) => e.textContent)",
        "my chat line",
        |lines| {
            lines
                .as_array()
                .is_some_and(|l| l.iter().any(|t| t.as_str().is_some_and(|t| t.contains(text))))
        },
    )
    .await;
}

/// A person plays plane battle with two bots (three boards) at 1280x800, in each language: the
/// three boards, the status bar with the last shot, and the chat with its line are on the first
/// screen while the person fires.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plane_battle_on_a_desktop_keeps_boards_turn_last_shot_and_chat_in_view() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (lang, name, last) in [("en", "Ann", "Last:"), ("zh-CN", "阿强", "上一发")] {
        let page = driver.desktop_in(Some(lang)).await;
        wait_for_bots(&page, &server).await;
        open_as(&page, &base(&server), name).await;
        create_room(&page, 3, "double", 1).await;
        click(&page, "#start-now").await;
        wait_state(&page, "deployment", |s| {
            s["phase"] == "deploy" && s["deploy"] == "placing"
        })
        .await;
        screenshot_file(
            &page,
            &format!(
                "{}plane-deploy-desktop.png",
                if lang == "en" { "" } else { "zh-" }
            ),
        )
        .await;
        assert_on_first_screen(
            &page,
            "the deployment",
            &[
                "#status",
                "[data-board=\"0\"] .grid",
                "#deploy-ready",
                "#chat-input",
            ],
        )
        .await;
        let deploy_order = board_lefts(&page).await;
        deploy_random(&page).await;
        // Fire once; when the turn comes back, the bots have fired too.
        let s = wait_state(&page, "my turn", |s| my_turn(s) || s["phase"] == "over").await;
        if s["phase"] != "over" {
            let before = s["log"].as_array().map_or(0, Vec::len);
            fire_somewhere(&page, &s, 3).await;
            // My shot's line and the two bots' shots' lines.
            wait_state(&page, "my turn after the bots fired", |s| {
                (my_turn(s) && s["log"].as_array().is_some_and(|l| l.len() >= before + 3))
                    || s["phase"] == "over"
            })
            .await;
        }
        say(&page, &format!("{name}: gg")).await;
        let s = state(&page).await;
        if s["phase"] == "attack" {
            assert!(
                text_of(&page, "#status").await.contains(last),
                "the last shot in the status bar"
            );
            assert_on_first_screen(
                &page,
                &format!("the battle ({lang})"),
                &[
                    "#status",
                    "[data-board=\"0\"] .grid",
                    "[data-board=\"1\"] .grid",
                    "[data-board=\"2\"] .grid",
                    "#chat-lines",
                    "#chat-input",
                ],
            )
            .await;
            assert_fits(&page, "the battle").await;
            assert_eq!(
                board_lefts(&page).await,
                deploy_order,
                "the boards keep their places from deployment to battle"
            );
            // The two bots, of one kind, are told apart by their seats.
            let names = page
                .execute("return [...document.querySelectorAll('#boards figcaption strong')].map((e) => e.textContent)", vec![])
                .await
                .expect("the boards' names");
            assert_ne!(names[1], names[2], "two bots with one name: {names}");
            let heads = text_of(&page, "#scoreboard thead").await;
            assert!(
                !heads.contains('*'),
                "the live round's column says what it is: {heads}"
            );
            screenshot_file(
                &page,
                &format!(
                    "{}plane-battle-desktop.png",
                    if lang == "en" { "" } else { "zh-" }
                ),
            )
            .await;
        }
        page.close().await.expect("close the browser");
    }
}

/// Gomoku and junqi against a bot at 1280x800, in English and in Chinese: the board, the status
/// bar and the chat are on the first screen, the junqi status bar with the last move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gomoku_and_junqi_on_a_desktop_keep_board_turn_and_chat_in_view() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (lang, name, prefix, last) in [("en", "Dee", "", "Last:"), ("zh-CN", "小林", "zh-", "上一步")] {
        let page = driver.desktop_in(Some(lang)).await;
        wait_for_bots_of(&page, &server, "gomoku").await;
        open_as(&page, &base(&server), name).await;
        create_gomoku_room(&page, 15, "freestyle", "").await;
        click(&page, "#start-now").await;
        wait_gomoku(&page, "my move", |s| {
            s["phase"] == "play" && s["to_move"] == s["you"]
        })
        .await;
        // One stone, and the bot's reply: the status bar names the last stone.
        click(&page, "#goban [data-point=\"h8\"]").await;
        wait_gomoku(&page, "the bot's reply", |s| {
            s["phase"] == "over"
                || (s["to_move"] == s["you"] && s["stones"].as_array().is_some_and(|v| v.len() == 2))
        })
        .await;
        let gomoku_last = if lang == "en" {
            "Last: white"
        } else {
            "上一手：白棋"
        };
        let status = text_of(&page, "#status").await;
        assert!(
            status.contains(gomoku_last),
            "the last stone in the status bar: {status}"
        );
        say(&page, "hello").await;
        assert_on_first_screen(
            &page,
            "gomoku",
            &["#status", "#goban", "#chat-lines", "#chat-input"],
        )
        .await;
        assert_fits(&page, "gomoku").await;
        screenshot_file(&page, &format!("{prefix}gomoku-play-desktop.png")).await;

        page.close().await.expect("close the browser");

        let page = driver.desktop_in(Some(lang)).await;
        wait_for_bots_of(&page, &server, "junqi").await;
        open_as(&page, &base(&server), name).await;
        create_junqi_room(&page).await;
        click(&page, "#start-now").await;
        wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
        assert_on_first_screen(
            &page,
            "the junqi editor",
            &["#status", "#deploy-send", "#chat-input"],
        )
        .await;
        click(&page, "#deploy-send").await;
        wait_junqi(&page, "the battle", |s| s["phase"] == "battle").await;
        play_a_move(&page, None).await;
        wait_junqi(&page, "the bot's reply", |s| {
            s["phase"] == "over" || s["to_move"] == s["you"]
        })
        .await;
        say(&page, "你好").await;
        assert!(
            text_of(&page, "#status").await.contains(last),
            "the last move in the status bar"
        );
        assert_on_first_screen(
            &page,
            "junqi",
            &["#status", "#jq-board", "#chat-lines", "#chat-input"],
        )
        .await;
        assert_fits(&page, "junqi").await;
        screenshot_file(&page, &format!("{prefix}junqi-battle-desktop.png")).await;
        page.close().await.expect("close the browser");
    }
}
