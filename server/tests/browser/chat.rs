//! The room's one chat in the browser: a player and a spectator read each other, the player's
//! page counts the line that came while the chat was out of view and brings it into view, and
//! both pages keep the chat through a reload; in Chinese on a phone and in English on a desktop.

use super::*;

/// The chat lines a page shows, as (name, seat or "watching" mark, text).
const LINES_JS: &str = r#"
return [...document.querySelectorAll('#chat-lines [data-chat-n]')].map((e) => [
  e.querySelector('.chat-name').textContent,
  e.querySelector('.chat-tag').textContent,
  e.querySelector('.chat-text').textContent,
]);
"#;

/// What the page shows of the chat: whether it is unfolded and on screen, the unread count, the
/// on-screen button (its label, which says it in full, and the count it shows), the header's count
/// and whether all of it is on screen below the sticky status bar, and whether the page is wider
/// than its viewport.
const CHAT_JS: &str = r#"
const card = document.getElementById('chat');
if (!card) return null;
const list = document.getElementById('chat-lines');
const jump = document.getElementById('chat-jump');
const badge = document.getElementById('chat-unread');
const r = list ? list.getBoundingClientRect() : null;
const b = badge.getBoundingClientRect();
const status = document.getElementById('status');
const below = status ? status.getBoundingClientRect().bottom : 0;
return {
  open: !card.classList.contains('folded'),
  on_screen: Boolean(list && !list.closest('[hidden]') && r.height > 0 && r.top < innerHeight && r.bottom > 0),
  unread: Number(card.dataset.unread),
  jump: jump.hidden ? null : jump.getAttribute('aria-label'),
  jump_count: jump.hidden ? null : document.getElementById('chat-jump-count').textContent,
  badge: badge.hidden ? null : badge.textContent,
  badge_on_screen: !badge.hidden && b.height > 0 && b.top >= below && b.bottom <= innerHeight,
  wide: document.documentElement.scrollWidth > innerWidth,
};
"#;

async fn chat_state(page: &Client) -> Value {
    page.execute(CHAT_JS, vec![]).await.expect("the chat script runs")
}

async fn wait_chat(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    harness::wait_script(page, CHAT_JS, what, |v| !v.is_null() && pred(v)).await
}

async fn wait_lines(page: &Client, what: &str, n: usize) -> Vec<Value> {
    let v = harness::wait_script(page, LINES_JS, what, |v| {
        v.as_array().is_some_and(|a| a.len() == n)
    })
    .await;
    v.as_array().expect("lines").clone()
}

/// Says `text` in the page's chat, unfolding it first if it is folded (as on a phone).
async fn say(page: &Client, text: &str) {
    if chat_state(page).await["open"] == false {
        click(page, "#chat-toggle").await;
    }
    type_into(page, "#chat-input", text).await;
    click(page, "#chat-send").await;
    harness::wait_script(
        page,
        "return document.getElementById('chat-input').value",
        "the input to clear once the line is taken",
        |v| v == "",
    )
    .await;
}

/// Item 6: a spectator's line reaches the seated player and the player's reaches the spectator,
/// as text under the server's names and marks; the player's page, scrolled to its boards, counts
/// the line on a button that brings the chat into view; a reload of either page keeps every line
/// and counts none of them as new again; a line said while the spectator is in the lobby is new
/// when they come back, counted where they see the count until the chat is scrolled to (on a
/// phone), or read as the page shows it (on a desktop, where the chat is on the first screen). In
/// Chinese at 390x844 and in English at 1280x800.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_and_a_player_chat_and_the_chat_survives_a_reload() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (size, lang, (w, h)) in [
        ("phone", Some("zh-CN"), (390, 844)),
        ("desktop", None, (1280, 800)),
    ] {
        let zh = lang.is_some();
        // Where the player looks away from the chat: the top of a phone's page shows the board,
        // the foot of a desktop's the seats (the chat sits beside the boards at the top).
        let away = if zh {
            "window.scrollTo(0, 0);"
        } else {
            "window.scrollTo(0, document.documentElement.scrollHeight);"
        };
        let (host_name, fan_name) = if zh {
            ("阿强", "小美")
        } else {
            ("Ann", "Watcher")
        };
        let page = driver.browser_in(lang).await;
        let fan = driver.browser_in(lang).await;
        for p in [&page, &fan] {
            p.set_window_size(w, h).await.expect("the window size");
        }
        wait_for_bots(&page, &server).await;
        open_as(&page, &base(&server), host_name).await;
        open_as(&fan, &base(&server), fan_name).await;
        let room = create_room(&page, 2, "classic", 1).await;
        click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
        wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
        fan.goto(&format!("{}room/{room}", base(&server)))
            .await
            .expect("open the room");
        wait_state(&fan, "the spectator's page", |s| {
            s["phase"] == "deploy" && s["you"].is_null()
        })
        .await;
        // On a phone the chat starts folded away under the board; on a desktop it is open beside
        // the boards, on the first screen.
        let fan_chat = chat_state(&fan).await;
        assert_eq!(fan_chat["open"], !zh, "{size}: {fan_chat}");
        let top = chat_state(&page).await;
        assert_eq!(top["on_screen"], !zh, "{size}: {top}");

        // The player looks away from the chat (at the board on a phone, at the seats at the foot
        // of a desktop page): the chat is out of view.
        page.execute(away, vec![]).await.expect("scrolled");
        let before = chat_state(&page).await;
        assert_eq!(
            before["on_screen"], false,
            "{size}: the chat is out of view: {before}"
        );
        assert_eq!(before["unread"], 0, "{size}: {before}");
        assert!(before["jump"].is_null(), "{size}: nothing to count yet: {before}");

        let hello = if zh {
            "加油！谁先开火？"
        } else {
            "good luck! who fires first?"
        };
        say(&fan, hello).await;
        let counted = wait_chat(&page, "the new line counted", |c| c["unread"] == 1).await;
        let jump = counted["jump"].as_str().unwrap_or_default().to_owned();
        let want = if zh {
            "聊天：1 条新消息"
        } else {
            "Chat: 1 new message"
        };
        assert_eq!(jump, want, "{size}: the on-screen button: {counted}");
        assert_eq!(counted["jump_count"], "1", "{size}: {counted}");
        assert_eq!(counted["on_screen"], false, "{size}: {counted}");
        screenshot_file(&page, &format!("chat-unread-{size}.png")).await;
        if zh {
            // Folded on the phone: scrolled to, the chat's header counts the line, still unseen.
            page.execute(
                "document.getElementById('chat').scrollIntoView({ block: 'end' });",
                vec![],
            )
            .await
            .expect("scrolled");
            tokio::time::sleep(Duration::from_millis(300)).await;
            let folded = chat_state(&page).await;
            assert_eq!(folded["open"], false, "{folded}");
            assert_eq!(folded["unread"], 1, "a folded chat's line is not seen: {folded}");
            assert_eq!(folded["badge"], "1 条新消息", "{folded}");
            assert!(
                folded["jump"].is_null(),
                "the button gives way to the header: {folded}"
            );
            screenshot_file(&page, "chat-folded-phone.png").await;
            page.execute(away, vec![]).await.expect("scrolled");
            wait_chat(&page, "the button back", |c| c["jump"].is_string()).await;
        }

        // The button brings the chat into view (unfolded on a phone): the line is seen.
        click(&page, "#chat-jump").await;
        let seen = wait_chat(&page, "the chat in view and read", |c| {
            c["on_screen"] == true && c["unread"] == 0
        })
        .await;
        assert!(
            seen["jump"].is_null() && seen["badge"].is_null(),
            "{size}: {seen}"
        );
        let watching = if zh { "观战" } else { "watching" };
        let lines = wait_lines(&page, "the spectator's line on the player's page", 1).await;
        assert_eq!(lines[0], json!([fan_name, watching, hello]), "{size}");
        if zh {
            super::i18n::assert_chinese(&page, "the room with its chat").await;
        }

        // The player answers, with markup that stays text.
        let answer = if zh { "<b>我</b>先来" } else { "<b>me</b>, soon" };
        say(&page, answer).await;
        let seat = if zh { "1号座" } else { "seat 1" };
        let you = if zh { "1号座·你" } else { "seat 1, you" };
        let lines = wait_lines(&fan, "the player's line on the spectator's page", 2).await;
        assert_eq!(lines[1], json!([host_name, seat, answer]), "{size}");
        let lines = wait_lines(&page, "the player's own line", 2).await;
        assert_eq!(lines[1], json!([host_name, you, answer]), "{size}");
        for p in [&page, &fan] {
            let bold = p
                .execute("return document.querySelector('#chat-lines b')", vec![])
                .await
                .unwrap();
            assert!(bold.is_null(), "{size}: markup stays text");
            let c = chat_state(p).await;
            assert_eq!(c["wide"], false, "{size}: nothing wider than the viewport: {c}");
        }
        // The spectator was looking at the chat: nothing counted there.
        let c = wait_chat(&fan, "the answer read where the chat is in view", |c| {
            c["unread"] == 0
        })
        .await;
        assert!(c["jump"].is_null(), "{size}: {c}");
        screenshot_file(&fan, &format!("chat-spectator-{size}.png")).await;

        // Both reload: the room's snapshot brings every line back, none counted as new.
        for (p, who) in [(&fan, "the spectator"), (&page, "the player")] {
            p.refresh().await.expect("reload");
            let lines = wait_lines(p, &format!("{who}'s chat after a reload"), 2).await;
            assert_eq!(lines[0], json!([fan_name, watching, hello]), "{size}: {who}");
            assert_eq!(lines[1][0], host_name, "{size}: {who}");
            assert_eq!(lines[1][2], answer, "{size}: {who}");
            let c = wait_chat(p, "the chat after a reload", |_| true).await;
            assert_eq!(
                c["unread"], 0,
                "{size}: {who}: lines seen before the reload stay seen: {c}"
            );
        }
        wait_state(&page, "the player's seat back", |s| s["you"] == 0).await;
        page.execute(
            "document.getElementById('chat').scrollIntoView({ block: 'end' });",
            vec![],
        )
        .await
        .expect("scrolled");
        screenshot_file(&page, &format!("chat-reloaded-{size}.png")).await;

        // A line said while the spectator's page is away is new to it when it comes back.
        let more = if zh { "布好了" } else { "deployed" };
        fan.goto(&base(&server)).await.expect("to the lobby");
        find(&fan, "#create-form").await;
        say(&page, more).await;
        fan.goto(&format!("{}room/{room}", base(&server)))
            .await
            .expect("back to the room");
        let lines = wait_lines(&fan, "the line said while away", 3).await;
        assert_eq!(lines[2][2], more, "{size}");
        if zh {
            // The phone's page opens on the board, at its top. The spectator's chat is open (they
            // opened it to speak, and the page remembers) and sits right under the board and its
            // legend; with no deploy panel there, its head is on the first screen and its lines
            // start at the screen's foot, so no place on this short page keeps all of the chat
            // out of view. The line is new: its count is in view, on the chat's header (the
            // on-screen button gives way to it, as to a folded chat's header) or, should the head
            // fall below the screen, on the button.
            fan.execute(away, vec![]).await.expect("scrolled");
            wait_chat(&fan, "the line said while away counted", |c| c["unread"] == 1).await;
            // Still new a moment later: lines at the screen's foot are not taken as read.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let c = chat_state(&fan).await;
            assert_eq!(c["unread"], 1, "{size}: the line is new: {c}");
            assert_eq!(c["badge"], "1 条新消息", "{size}: {c}");
            let on_header = c["badge_on_screen"] == true && c["jump"].is_null();
            let on_button = c["jump"] == "聊天：1 条新消息" && c["jump_count"] == "1";
            assert!(
                on_header || on_button,
                "{size}: the count in view, on the header or on the button: {c}"
            );
            screenshot_file(&fan, "chat-away-spectator-phone.png").await;
            // Scrolled to, the chat shows the line: it is read.
            fan.execute(
                "document.getElementById('chat').scrollIntoView({ block: 'end' });",
                vec![],
            )
            .await
            .expect("scrolled");
            let c = wait_chat(&fan, "the line said while away, read in view", |c| {
                c["on_screen"] == true && c["unread"] == 0
            })
            .await;
            assert!(c["badge"].is_null() && c["jump"].is_null(), "{size}: {c}");
        } else {
            // The desktop's page opens with the chat in view: the line is read as it shows.
            let c = wait_chat(&fan, "the line said while away, in view", |c| {
                c["on_screen"] == true
            })
            .await;
            assert_eq!(c["unread"], 0, "{size}: {c}");
        }
    }
}
