//! The web client in Chinese: a browser whose language is zh-CN gets every page in Chinese, at a
//! phone's size and a desktop's; the header's switch changes the language and the page remembers
//! it across a reload.

use super::*;

/// The script that lists the English words a page shows: every run of ASCII letters in
/// `document.body.innerText`, less board coordinates (`h8`, `E5`, `G0`, a column letter), the
/// names the page cannot translate (the product, the bots' strategies) and the allowed words.
const ENGLISH_WORDS_JS: &str = r#"
const allowed = new Set(arguments[0]);
for (const b of (window.skirmish && window.skirmish.bots) || []) {
  for (const list of Object.values(b.offer.games || {})) list.forEach((s) => s.split('-').forEach((w) => allowed.add(w)));
  allowed.add(b.name);
}
const words = document.body.innerText.match(/[A-Za-z]+\d*/g) || [];
return [...new Set(words)].filter((w) => !/^[A-Za-z]\d*$/.test(w) && !allowed.has(w));
"#;

/// Words a Chinese page may show in ASCII letters: the product's name, the SHA-256 of the
/// sealed deployments, the language switch's "English" (the other language, named in itself),
/// and names: the bots' pool the tests connect (`pool`) and the English player of the switch test.
const ALLOWED: &[&str] = &["Skirmish", "SHA", "English", "pool", "Ann"];

/// The English words the page shows, if any, less [`ALLOWED`] and `names`.
async fn english_words(page: &Client, names: &[&str]) -> Vec<String> {
    let allowed: Vec<&str> = ALLOWED.iter().chain(names).copied().collect();
    let words = page
        .execute(ENGLISH_WORDS_JS, vec![json!(allowed)])
        .await
        .expect("the page's words");
    serde_json::from_value(words).expect("a list of words")
}

pub(super) async fn assert_chinese(page: &Client, what: &str) {
    assert_chinese_but(page, what, &[]).await;
}

/// Fails unless the page is Chinese: `<html lang>` and no English word but [`ALLOWED`] and the
/// words of `names` (the entrants' names a tournament page shows, which it cannot translate).
pub(super) async fn assert_chinese_but(page: &Client, what: &str, names: &[&str]) {
    let lang = page
        .execute("return document.documentElement.lang", vec![])
        .await
        .expect("the page's language");
    assert_eq!(lang, json!("zh-CN"), "{what}: <html lang>");
    let words = english_words(page, names).await;
    assert!(words.is_empty(), "{what} shows English: {words:?}");
}

/// A Chinese player's lobby, a room of each game and a finished gomoku game, at 390x844 and
/// 1280x800: no English anywhere. With `SKIRMISH_SCREENSHOTS` set, saves docs/zh-*.png.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_browser_gets_every_page_in_chinese() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    for (size, (w, h)) in [("phone", (390, 844)), ("desktop", (1280, 800))] {
        let page = driver.browser_in(Some("zh-CN")).await;
        page.set_window_size(w, h).await.expect("the window size");
        wait_for_bots_of(&page, &server, "gomoku").await;
        open_as(&page, &base(&server), "小明").await;
        find(&page, "#lobby").await;
        assert_eq!(text_of(&page, "#lang-switch").await, "English");
        assert_chinese(&page, &format!("the lobby ({size})")).await;
        screenshot_file(&page, &format!("zh-lobby-{size}.png")).await;

        // Plane battle: a 2-player room started with a bot, in its deployment.
        create_room(&page, 2, "double", 1).await;
        click(&page, "#start-now").await;
        wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
        assert_chinese(&page, &format!("a plane battle room ({size})")).await;
        screenshot_file(&page, &format!("zh-plane-{size}.png")).await;

        // Junqi: the deployment editor.
        page.goto(&base(&server)).await.expect("the lobby");
        create_junqi_room(&page).await;
        click(&page, "#start-now").await;
        wait_junqi(&page, "the deployment editor", |s| s["phase"] == "deploying").await;
        find(&page, "#deploy[data-deploy-state=\"editing\"]").await;
        assert_chinese(&page, &format!("a junqi room ({size})")).await;
        screenshot_file(&page, &format!("zh-junqi-{size}.png")).await;

        // Gomoku under renju from an opening, played a move, then resigned: the result page.
        page.goto(&base(&server)).await.expect("the lobby");
        create_gomoku_room(&page, 15, "renju", "kagetsu").await;
        click(&page, "#start-now").await;
        let s = wait_gomoku(&page, "white to move", |s| s["phase"] == "play").await;
        assert_eq!(s["phase"], "play", "{s}");
        assert_chinese(&page, &format!("a gomoku room ({size})")).await;
        screenshot_file(&page, &format!("zh-gomoku-{size}.png")).await;
        click(&page, "#resign").await;
        click(&page, "#resign-confirm").await;
        wait_gomoku(&page, "the result", |s| s["phase"] == "over").await;
        find(&page, "#result").await;
        assert_chinese(&page, &format!("a finished gomoku game ({size})")).await;
        page.close().await.expect("close the browser");
    }
}

/// The header's switch turns an English page Chinese and back, and the choice outlives a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_switch_changes_the_page_and_is_remembered() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let lang = |page: &Client| {
        let page = page.clone();
        async move {
            page.execute("return document.documentElement.lang", vec![])
                .await
                .expect("the page's language")
        }
    };
    open_as(&page, &base(&server), "Ann").await;
    assert_eq!(lang(&page).await, json!("en"));
    assert_eq!(text_of(&page, "#lobby h1").await, "Rooms");
    assert_eq!(text_of(&page, "#lang-switch").await, "中文");
    click(&page, "#lang-switch").await;
    find(&page, "#conn[data-conn=\"open\"]").await;
    assert_eq!(lang(&page).await, json!("zh-CN"));
    assert_eq!(text_of(&page, "#lobby h1").await, "房间");
    assert_eq!(text_of(&page, "#rules-link").await, "规则");
    let href = attr_of(&page, "#rules-link", "href").await;
    assert!(href.ends_with("/rules?lang=zh-CN"), "{href}");
    assert_chinese(&page, "the lobby after the switch").await;
    page.refresh().await.expect("reload");
    find(&page, "#conn[data-conn=\"open\"]").await;
    assert_eq!(lang(&page).await, json!("zh-CN"), "the choice outlives a reload");
    assert_eq!(text_of(&page, "#lobby h1").await, "房间");
    // The rules page in Chinese links back to English.
    page.goto(&format!("{}rules?lang=zh-CN", base(&server)))
        .await
        .expect("the rules page");
    assert_eq!(lang(&page).await, json!("zh-CN"));
    assert_eq!(text_of(&page, "#lang-switch").await, "English");
    page.goto(&base(&server)).await.expect("the lobby");
    click(&page, "#lang-switch").await;
    find(&page, "#conn[data-conn=\"open\"]").await;
    assert_eq!(lang(&page).await, json!("en"));
    assert_eq!(text_of(&page, "#lobby h1").await, "Rooms");
    page.close().await.expect("close the browser");
}
