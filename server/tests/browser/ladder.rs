//! The ladder page (/ladder/<id>) in the browser: bot accounts of two strengths play the gomoku
//! ladder; the page shows the table with ratings and deviations (the stronger account first,
//! provisional badges while deviations are large), a rating history chart drawn by uPlot, the
//! head-to-head results and recent games whose replay links open the replay; in English and
//! Chinese, on a desktop and a phone, with no markup from a bot's name getting in.

use super::*;

/// A bot connection of the bot account `name` (registered here) in the gomoku freestyle ladder,
/// offering `strategy`, stopped on drop.
async fn ladder_bot(server: &TestServer, name: &str, strategy: &str) -> Bots {
    let token = CancellationToken::new();
    let mut options = BotOptions::new(server.ws_url(), name.into());
    options.token = Some(server.account(name).await);
    options.strategies =
        std::collections::BTreeMap::from([(skirmish_protocol::GameKind::Gomoku, vec![strategy.to_owned()])]);
    options.think = Duration::from_millis(30);
    options.ladders = vec!["gomoku-freestyle".to_owned()];
    let stop = token.clone();
    tokio::spawn(async move {
        let _ = run(options, stop).await;
    });
    Bots(token)
}

/// The ladder page's state: the table's rows, the entrant picked, the chart, head-to-head and
/// recent games.
const LADDER_JS: &str = r#"
const l = document.getElementById('ladder');
if (!l || l.dataset.games === undefined) return { page: 'other' };
const rows = [...document.querySelectorAll('#ladder-table tbody tr')];
return {
  page: 'ladder',
  id: l.dataset.ladderId,
  games: Number(l.dataset.games),
  heading: document.getElementById('ladder-name').textContent,
  rows: rows.map((r) => ({
    bot: r.dataset.bot,
    provisional: r.dataset.provisional === 'true',
    rating: Number(r.querySelector('[data-rating]').dataset.rating),
    text: r.querySelector('[data-rating]').textContent,
  })),
  picked: (document.getElementById('entrant-detail') || { dataset: {} }).dataset.entrant || null,
  chart: !!document.querySelector('#rating-chart canvas'),
  h2h: document.querySelectorAll('#head-to-head tbody tr').length,
  replays: [...document.querySelectorAll('a[data-replay]')].map((a) => a.getAttribute('href')),
  markup: document.querySelectorAll('main img').length,
  xss: window.xss === undefined ? null : window.xss,
  wide: document.documentElement.scrollWidth <= window.innerWidth + 1,
  fits: (() => { const t = document.getElementById('ladder-table'); return !!t && t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1; })(),
};
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_page_shows_ratings_history_and_replays() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let markup = "<img src=x onerror=window.xss=1>";
    let _strong = ladder_bot(&server, "strong", "threat-search").await;
    let _weak = ladder_bot(&server, "weak", "random").await;
    let _odd = ladder_bot(&server, markup, "random").await;

    let mut driver = Driver::start().await;
    let page = driver.desktop_in(Some("en")).await;
    // The lobby links every ladder.
    open_as(&page, &server.http_url("/"), "Ann").await;
    let href = attr_of(&page, "[data-ladder='gomoku-freestyle']", "href").await;
    assert!(href.ends_with("/ladder/gomoku-freestyle"), "{href}");

    page.goto(&server.http_url("/ladder/gomoku-freestyle"))
        .await
        .expect("the ladder page loads");
    let shown = wait_script(&page, LADDER_JS, "six games rated, all three shown", |s| {
        s["games"].as_u64().is_some_and(|g| g >= 6)
            && s["rows"].as_array().is_some_and(|r| r.len() == 3)
            && s["chart"] == true
    })
    .await;
    assert_eq!(shown["heading"], "Ladder: Gomoku, freestyle");
    assert_eq!(shown["rows"][0]["bot"], "strong", "threat-search leads: {shown}");
    assert!(
        shown["rows"][0]["text"].as_str().is_some_and(|t| t.contains('±')),
        "{shown}"
    );
    assert_eq!(shown["markup"], 0);
    assert_eq!(shown["xss"], Value::Null);
    assert!(shown["h2h"].as_u64().is_some_and(|n| n >= 1), "{shown}");
    assert_eq!(shown["wide"], true, "no sideways scroll on a desktop");
    screenshot_file(&page, "ladder-desktop.png").await;

    // Another entrant's history on a click; then its replay opens.
    click(&page, "[data-bot='weak'] button").await;
    let weak = wait_script(&page, LADDER_JS, "the weak bot picked", |s| {
        s["picked"].is_string()
            && s["rows"].as_array().is_some()
            && s["replays"].as_array().is_some_and(|r| !r.is_empty())
    })
    .await;
    let replay = weak["replays"][0].as_str().expect("a replay link").to_owned();
    page.goto(&server.http_url(&replay))
        .await
        .expect("the replay loads");
    wait_script(
        &page,
        "const r = document.getElementById('replay'); return r && r.dataset.steps !== undefined ? Number(r.dataset.steps) : null;",
        "the replay shows its steps",
        |s| s.as_u64().is_some_and(|n| n > 0),
    )
    .await;

    // A phone, in Chinese: the same table, nothing wider than the screen.
    let phone = driver.phone_in(Some("zh-CN")).await;
    phone
        .goto(&server.http_url("/ladder/gomoku-freestyle"))
        .await
        .expect("the ladder page loads");
    let zh = wait_script(&phone, LADDER_JS, "the table on a phone", |s| {
        s["rows"].as_array().is_some_and(|r| r.len() == 3) && s["chart"] == true
    })
    .await;
    assert_eq!(zh["heading"], "天梯：五子棋·无禁手");
    assert_eq!(zh["wide"], true, "no sideways scroll on a phone: {zh}");
    assert_eq!(zh["fits"], true, "the table fits a phone: {zh}");
    screenshot_file(&phone, "ladder-phone-zh.png").await;
    let en_phone = driver.phone_in(Some("en")).await;
    en_phone
        .goto(&server.http_url("/ladder/gomoku-freestyle"))
        .await
        .expect("the ladder page loads");
    let en = wait_script(&en_phone, LADDER_JS, "the table on a phone", |s| {
        s["chart"] == true
    })
    .await;
    assert_eq!(en["fits"], true, "the table fits a phone: {en}");
    screenshot_file(&en_phone, "ladder-phone.png").await;
    en_phone
        .execute(
            "document.getElementById('entrant-detail').scrollIntoView(); return null;",
            vec![],
        )
        .await
        .expect("scrolls");
    screenshot_file(&en_phone, "ladder-phone-detail.png").await;
    let zh_desktop = driver.desktop_in(Some("zh-CN")).await;
    zh_desktop
        .goto(&server.http_url("/ladder/gomoku-freestyle"))
        .await
        .expect("the ladder page loads");
    wait_script(&zh_desktop, LADDER_JS, "the table", |s| s["chart"] == true).await;
    screenshot_file(&zh_desktop, "ladder-desktop-zh.png").await;
    page.goto(&server.http_url("/ladder/gomoku-freestyle"))
        .await
        .expect("the ladder page loads");
    wait_script(&page, LADDER_JS, "the table", |s| s["chart"] == true).await;
    page.execute(
        "document.getElementById('entrant-detail').scrollIntoView(); return null;",
        vec![],
    )
    .await
    .expect("scrolls");
    screenshot_file(&page, "ladder-desktop-detail.png").await;
}
