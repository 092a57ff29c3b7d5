//! What the bots thought, on the replay page: tournament matches played by real bot processes
//! that send `info` (plane battle `bayes`, junqi `belief-search`, gomoku `threat-search`, each
//! against `random`), replayed once over: the plane battle heat map over the opponent's board,
//! junqi's rank guesses on the enemy pieces, gomoku's evaluation graph, in English at 1280x800 and
//! in Chinese at 390x844, with no sideways scrolling.

use super::*;

/// The replay page's thoughts: the card's infos and step, the figures shown, the heat maps' cells,
/// the guesses on the pieces, the graph's canvas, and whether the page is wider than the window.
const THOUGHTS_JS: &str = r#"
const section = document.getElementById('replay');
const card = document.getElementById('thoughts');
if (!section || !card) return { ready: false };
return {
  ready: true,
  step: Number(section.dataset.step),
  infos: Number(card.dataset.infos),
  at: card.dataset.at,
  title: card.querySelector('h2').textContent,
  figures: Object.fromEntries([...card.querySelectorAll('[data-figure]')].map((d) => [d.dataset.figure, d.textContent])),
  heat: [...document.querySelectorAll('#replay-view [data-heat]')].map((g) => g.querySelectorAll('.heat-cell').length),
  shot: [...document.querySelectorAll('#replay-view .heat-cell.shot')].map((c) => c.dataset.cell),
  hot: [...document.querySelectorAll('#replay-view .heat-cell')].filter((c) => Number(c.dataset.chance) > 0).length,
  guesses: [...document.querySelectorAll('#replay-view .guess')].map((g) => g.dataset.guess),
  chart: Boolean(document.querySelector('#eval-chart canvas')),
  shown: [...document.querySelectorAll('#replay-view [data-heat]')].every((g) => g.getBoundingClientRect().width > 0),
  too_wide: document.documentElement.scrollWidth > window.innerWidth,
};
"#;

/// A bot account's connection offering `strategy` for `game`, thinking at most 150 ms a move,
/// stopped on drop.
async fn thinking_bot(
    server: &TestServer,
    name: &str,
    game: skirmish_protocol::GameKind,
    strategy: &str,
) -> Bots {
    let token = CancellationToken::new();
    let mut options = BotOptions::new(server.ws_url(), name.into());
    options.token = Some(server.account(name).await);
    options.strategies = std::collections::BTreeMap::from([(game, vec![strategy.to_owned()])]);
    options.think = Duration::from_millis(150);
    let stop = token.clone();
    tokio::spawn(async move {
        let _ = run(options, stop).await;
    });
    Bots(token)
}

async fn get_json(server: &TestServer, path: &str) -> Value {
    reqwest::get(server.http_url(path))
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("JSON")
}

/// Plays a one-match tournament of `game` between `strategy` (which sends infos) and `random`,
/// and returns the finished match's record.
async fn played(
    server: &TestServer,
    game: Value,
    kind: skirmish_protocol::GameKind,
    strategy: &str,
    tag: &str,
) -> Value {
    let thinker = format!("{tag}-thinker");
    let other = format!("{tag}-random");
    let bots = [
        thinking_bot(server, &thinker, kind, strategy).await,
        thinking_bot(server, &other, kind, "random").await,
    ];
    let start = Instant::now();
    let config = json!({
        "game": game,
        "entrants": [{"bot": thinker, "strategy": strategy}, {"bot": other, "strategy": "random"}],
        "games_per_pairing": 1,
    });
    let id = loop {
        let response = reqwest::Client::new()
            .post(server.http_url("/api/tournaments"))
            .bearer_auth(TestServer::TOURNAMENT_KEY)
            .json(&config)
            .send()
            .await
            .expect("the server answers");
        if response.status().as_u16() == 201 {
            let body: Value = response.json().await.expect("JSON");
            break body["id"].as_str().expect("an id").to_owned();
        }
        // The bots are still connecting.
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no tournament: {}",
            response.text().await.unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let status = loop {
        let status = get_json(server, &format!("/api/tournaments/{id}")).await;
        if status["state"] == "finished" {
            break status;
        }
        assert!(
            start.elapsed() < MATCH_LIMIT * 2,
            "the tournament did not finish: {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    drop(bots);
    let match_id = status["schedule"][0]["id"].as_str().expect("a match").to_owned();
    get_json(server, &format!("/api/matches/{match_id}")).await
}

/// Opens `/replay/<id>#step` afresh and waits for the thoughts card at that step.
async fn open_at(page: &Client, server: &TestServer, id: &str, step: u64) -> Value {
    page.goto("about:blank").await.expect("a blank page");
    page.goto(&server.http_url(&format!("/replay/{id}#{step}")))
        .await
        .expect("the replay loads");
    wait_script(page, THOUGHTS_JS, &format!("the thoughts at step {step}"), |s| {
        s["ready"] == true && s["step"] == step
    })
    .await
}

/// Scrolls the element `id` to the top of the window (for a screenshot).
async fn scroll_to(page: &Client, id: &str) {
    page.execute(
        &format!("document.getElementById('{id}').scrollIntoView({{block: 'start'}})"),
        vec![],
    )
    .await
    .expect("scrolled");
}

/// The step after the `n`th info's act (its first event shown), counting from the end when `n`
/// is negative.
fn step_of(record: &Value, n: i64) -> u64 {
    let infos = record["infos"].as_array().expect("infos");
    assert!(!infos.is_empty(), "the bot's infos are in the record");
    let i = if n < 0 { infos.len() as i64 + n } else { n };
    infos[usize::try_from(i).expect("an index")]["at"]
        .as_u64()
        .expect("at")
        + 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_shows_what_each_bot_thought() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    use skirmish_protocol::GameKind;
    let plane = played(
        &server,
        json!({"game": "plane", "variant": "double", "players": 2, "format": {"rounds": 1}}),
        GameKind::Plane,
        "bayes",
        "p",
    )
    .await;
    let gomoku = played(
        &server,
        json!({"game": "gomoku"}),
        GameKind::Gomoku,
        "threat-search",
        "g",
    )
    .await;
    let junqi = played(
        &server,
        json!({"game": "junqi"}),
        GameKind::Junqi,
        "belief-search",
        "j",
    )
    .await;

    let mut driver = Driver::start().await;
    for (size, lang) in [("desktop", None), ("phone", Some("zh-CN"))] {
        let page = if size == "phone" {
            driver.phone_in(lang).await
        } else {
            driver.desktop_in(lang).await
        };
        let title = if lang.is_some() {
            "机器人的想法"
        } else {
            "What the bot thought"
        };

        // Plane battle: the odds on the opponent's 9x9 board, the cell then shot outlined.
        let id = plane["id"].as_str().expect("an id");
        // The seventh shot's thought, or one halfway when the bot cleared the board sooner
        // (while much is still uncertain).
        let shots = i64::try_from(plane["infos"].as_array().map_or(0, Vec::len)).expect("a count");
        let step = step_of(&plane, (shots / 2).min(6));
        let s = open_at(&page, &server, id, step).await;
        assert_eq!(s["title"], title, "{s}");
        assert_eq!(s["heat"], json!([81]), "{s}");
        assert_eq!(s["shown"], true, "the heat map is on screen: {s}");
        assert_eq!(
            s["shot"].as_array().map(Vec::len),
            Some(1),
            "the shot chosen: {s}"
        );
        assert!(s["hot"].as_u64() > Some(10), "{s}");
        assert!(
            s["figures"]["nodes"].as_str().is_some_and(|n| !n.is_empty()),
            "{s}"
        );
        assert_eq!(s["too_wide"], false, "{s}");
        scroll_to(&page, if size == "phone" { "boards" } else { "replay-view" }).await;
        screenshot_file(&page, &format!("replay-bot-beliefs-{size}.png")).await;
        // Before the bot's first shot: nothing thought yet.
        let s = open_at(&page, &server, id, step_of(&plane, 0) - 1).await;
        assert_eq!(s["heat"], json!([]), "{s}");

        // Gomoku: the evaluation graph, and the line from the stone played.
        let id = gomoku["id"].as_str().expect("an id");
        let s = open_at(&page, &server, id, step_of(&gomoku, -1)).await;
        assert_eq!(s["chart"], true, "{s}");
        assert!(
            s["figures"]["line"].as_str().is_some_and(|l| !l.is_empty()),
            "{s}"
        );
        assert!(s["figures"].get("eval").is_some(), "{s}");
        assert_eq!(s["too_wide"], false, "{s}");
        scroll_to(&page, "thoughts").await;
        screenshot_file(&page, &format!("replay-bot-eval-{size}.png")).await;

        // Junqi: a rank guess on each enemy piece.
        let id = junqi["id"].as_str().expect("an id");
        let s = open_at(&page, &server, id, step_of(&junqi, 2)).await;
        let guesses = s["guesses"].as_array().map_or(0, Vec::len);
        assert!((10..=25).contains(&guesses), "{s}");
        assert_eq!(s["too_wide"], false, "{s}");
        scroll_to(&page, "replay-view").await;
        screenshot_file(&page, &format!("replay-bot-guesses-{size}.png")).await;
    }
    server.stop().await;
}
