//! Tournaments and replays in the browser: live standings, and the replays of a gomoku, a plane
//! battle and a junqi match.

use super::gomoku::point;
use super::*;

/// A bot connection of the bot account `name` (registered here: tournament entrants are accounts)
/// offering `strategy` for `game` alone, stopped on drop.
async fn named_bot(
    server: &TestServer,
    name: &str,
    game: skirmish_protocol::GameKind,
    strategy: &str,
) -> Bots {
    let token = CancellationToken::new();
    let mut options = BotOptions::new(server.ws_url(), name.into());
    options.token = Some(server.account(name).await);
    options.strategies = std::collections::BTreeMap::from([(game, vec![strategy.to_owned()])]);
    let stop = token.clone();
    tokio::spawn(async move {
        let _ = run(options, stop).await;
    });
    Bots(token)
}

/// An HTTP request to the server's API with an optional JSON body: the status and the JSON answer.
async fn api(server: &TestServer, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    use axum::body::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client as HttpClient;
    use hyper_util::rt::TokioExecutor;
    let client = HttpClient::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let text = body.map(Value::to_string).unwrap_or_default();
    let request = axum::http::Request::builder()
        .method(method)
        .uri(server.http_url(path))
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {}", TestServer::TOURNAMENT_KEY))
        .body(Full::new(Bytes::from(text)))
        .expect("a request");
    let response = client.request(request).await.expect("the API answers");
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.expect("a body").to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, json)
}

/// Waits until the server lists a connected bot for each of `names`.
async fn wait_for_named_bots(server: &TestServer, names: &[&str]) {
    let start = Instant::now();
    loop {
        let (_, bots) = api(server, "GET", "/api/bots", None).await;
        let connected: HashSet<String> = bots
            .as_array()
            .map(|b| {
                b.iter()
                    .filter_map(|bot| bot["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if names.iter().all(|n| connected.contains(*n)) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "bots {names:?} not all connected: {bots}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Creates a tournament over the HTTP API and returns its id.
async fn create_tournament(server: &TestServer, config: &Value) -> String {
    let (status, body) = api(server, "POST", "/api/tournaments", Some(config)).await;
    assert_eq!(status, 201, "the tournament is made: {body}");
    body["id"].as_str().expect("a tournament id").to_owned()
}

/// The tournament page's state: its `data-*` attributes, the standings table, the match links,
/// and whether any markup got in.
const TOURNAMENT_JS: &str = r#"
const t = document.getElementById('tournament');
if (!t) return { page: 'other' };
return {
  page: 'tournament',
  state: t.dataset.state || null,
  polling: t.dataset.polling || null,
  name: (document.getElementById('t-name') || {}).textContent || null,
  progress: (() => { const p = document.getElementById('t-progress'); return p ? [Number(p.dataset.finished), Number(p.dataset.total)] : null; })(),
  standings: [...document.querySelectorAll('#standings tbody tr')].map((r) => ({
    rank: Number(r.dataset.rank),
    entrant: Number(r.dataset.entrant),
    name: r.querySelector('[data-entrant-name]').textContent,
    score: Number(r.querySelector('[data-score]').dataset.score),
    wdl: r.querySelector('[data-wdl]').dataset.wdl,
    elo: r.querySelector('[data-elo]').textContent,
  })),
  cross: [...document.querySelectorAll('#crosstable [data-cross]')].map((c) => [c.dataset.cross, Number(c.dataset.score), Number(c.dataset.games)]),
  matches: [...document.querySelectorAll('#matches [data-match-id]')].map((r) => [r.dataset.matchId, r.dataset.state]),
  replays: [...document.querySelectorAll('a[data-replay]')].map((a) => a.dataset.replay),
  watch: [...document.querySelectorAll('a[data-watch]')].map((a) => [a.dataset.watch, a.getAttribute('href')]),
  markup: document.querySelectorAll('main img').length,
  xss: window.xss === undefined ? null : window.xss,
};
"#;

/// The replay page's state: where it is, the board drawn (gomoku stones, plane boards).
const REPLAY_JS: &str = r#"
const r = document.getElementById('replay');
if (!r || r.dataset.steps === undefined) return { page: 'other' };
return {
  page: 'replay',
  game: r.dataset.game,
  step: Number(r.dataset.step),
  steps: Number(r.dataset.steps),
  text: document.getElementById('event-text').textContent,
  stones: [...document.querySelectorAll('#goban [data-stone]')]
    .map((e) => [Number(e.dataset.number), e.dataset.point, e.dataset.stone])
    .sort((a, b) => a[0] - b[0]),
  last: [...document.querySelectorAll('#goban [data-last]')].map((e) => e.dataset.point),
  boards: [...document.querySelectorAll('[data-board]')].map((b) => ({
    seat: Number(b.dataset.board),
    planes: [...b.querySelectorAll('[data-plane]')].map((c) => [c.dataset.cell, c.dataset.plane, c.dataset.head === 'true']),
    shots: [...b.querySelectorAll('[data-shot]')].map((c) => [c.dataset.cell, c.dataset.shot]),
  })),
  result: (document.getElementById('match-result') || {}).textContent || null,
  markup: document.querySelectorAll('main img').length,
};
"#;

async fn wait_page(page: &Client, script: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = page.execute(script, vec![]).await.expect("the state script runs");
        if pred(&s) {
            return s;
        }
        assert!(
            start.elapsed() < MATCH_LIMIT,
            "timed out waiting for {what}; page state: {s}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A gomoku bot the test holds back: it connects as the bot account `name` (registered here)
/// offering the strategy `first-empty`, and once `go` is notified answers every turn with the
/// first empty point (a1, b1, ... row by row). Returns the task, to abort at the end.
async fn held_gomoku_bot(server: &TestServer, name: &str, go: Arc<Notify>) -> tokio::task::JoinHandle<()> {
    let token = server.account(name).await;
    let mut client = TestClient::connect(&server.ws_url()).await;
    let hello = json!({
        "type": "hello", "protocol": 1, "name": name, "token": token.expose(),
        "bot": { "games": { "gomoku": ["first-empty"] }, "version": "0.9.0" },
    });
    client.send_text(hello.to_string()).await;
    client
        .recv_until(|m| matches!(m, skirmish_protocol::ServerMsg::Welcome { .. }))
        .await;
    tokio::spawn(async move {
        go.notified().await;
        while let Some(msg) = client.try_recv().await {
            let msg = serde_json::to_value(&msg).expect("server messages serialize");
            if msg["type"] != "your_turn" {
                continue;
            }
            let view = &msg["view"];
            let taken: HashSet<&str> = view["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .filter_map(|m| m["point"].as_str())
                .collect();
            let size = view["size"].as_u64().expect("a size");
            let point = (0..size * size)
                .map(|i| {
                    point(
                        i32::try_from(i % size).expect("small"),
                        i32::try_from(i / size).expect("small"),
                    )
                })
                .find(|p| !taken.contains(p.as_str()))
                .expect("an empty point");
            let act = json!({
                "type": "act", "room": msg["room"], "seat": msg["seat"],
                "action": { "game": "gomoku", "kind": "place", "point": point },
            });
            client.send_text(act.to_string()).await;
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_page_shows_live_standings_and_replays_a_gomoku_match() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    // One bot's name is markup: the pages must show it as text. The test holds the third back
    // until the page has shown its matches running.
    let markup = "<img src=x onerror=window.xss=1>";
    let gomoku = skirmish_protocol::GameKind::Gomoku;
    let _alpha = named_bot(&server, "alpha", gomoku, "random").await;
    let _markup = named_bot(&server, markup, gomoku, "random").await;
    let go = Arc::new(Notify::new());
    let held = held_gomoku_bot(&server, "held", go.clone()).await;
    wait_for_named_bots(&server, &["alpha", markup, "held"]).await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let id = create_tournament(
        &server,
        &json!({
            "name": "Browser cup",
            "game": { "game": "gomoku", "size": 15, "rule": "freestyle" },
            "clock": { "deploy_ms": 60000, "move_ms": 60000 },
            "entrants": [
                { "bot": "alpha", "strategy": "random" },
                { "bot": markup, "strategy": "random" },
                { "bot": "held", "strategy": "first-empty" },
            ],
        }),
    )
    .await;

    // While the held bot waits, the page shows the tournament running, its matches with links
    // to watch them in their rooms.
    page.goto(&server.http_url(&format!("/tournament/{id}")))
        .await
        .expect("the tournament page loads");
    // Its four matches (the four slots of `parallel`) wait for it; the two without it are played
    // before or after them, as the schedule orders them (the circle method puts the held bot's
    // first), so none or both of those are over.
    let running = wait_page(&page, TOURNAMENT_JS, "the held bot's four matches running", |s| {
        s["watch"].as_array().is_some_and(|w| w.len() == 4)
    })
    .await;
    assert_eq!(running["name"], "Browser cup");
    assert_eq!(running["state"], "running");
    assert_eq!(running["polling"], "true");
    let over = running["progress"][0].as_u64().expect("progress");
    assert!(over == 0 || over == 2, "{running}");
    assert_eq!(running["progress"][1], 6, "{running}");
    assert_eq!(
        running["replays"].as_array().map(|r| r.len() as u64),
        Some(over),
        "{running}"
    );
    let (_, status) = api(&server, "GET", &format!("/api/tournaments/{id}"), None).await;
    let held_index = status["entrants"]
        .as_array()
        .expect("entrants")
        .iter()
        .position(|e| e["bot"] == "held")
        .expect("the held bot entered");
    for watch in running["watch"].as_array().expect("watch links") {
        let m = status["schedule"]
            .as_array()
            .expect("a schedule")
            .iter()
            .find(|m| m["id"] == watch[0])
            .unwrap_or_else(|| panic!("match {watch} in {status}"));
        assert!(
            m["seats"]
                .as_array()
                .is_some_and(|s| s.contains(&json!(held_index))),
            "{m}"
        );
        assert_eq!(m["state"], "running", "{status}");
        assert_eq!(
            watch[1],
            format!("/room/{}", m["room"].as_str().expect("a room")),
            "{status}"
        );
    }

    // Let it play: the page follows to the end and stops polling.
    go.notify_one();
    let done = wait_page(&page, TOURNAMENT_JS, "the tournament to finish", |s| {
        s["state"] == "finished" && s["polling"] == "false"
    })
    .await;
    held.abort();
    assert_eq!(done["progress"], json!([6, 6]), "{done}");

    // The page's standings are the API's.
    let (status, standings) = api(&server, "GET", &format!("/api/tournaments/{id}/standings"), None).await;
    assert_eq!(status, 200);
    let entrants = standings["entrants"].as_array().expect("entrants");
    let expected: Vec<Value> = standings["table"]
        .as_array()
        .expect("a table")
        .iter()
        .map(|line| {
            let e = &entrants[usize::try_from(line["entrant"].as_u64().expect("an index")).expect("small")];
            json!([
                line["rank"],
                format!(
                    "{}/{}",
                    e["bot"].as_str().expect("a bot"),
                    e["strategy"].as_str().expect("a strategy")
                ),
                line["score"].as_f64(),
                format!("{}/{}/{}", line["wins"], line["draws"], line["losses"]),
            ])
        })
        .collect();
    let shown: Vec<Value> = done["standings"]
        .as_array()
        .expect("standings rows")
        .iter()
        .map(|r| json!([r["rank"], r["name"], r["score"].as_f64(), r["wdl"]]))
        .collect();
    assert_eq!(shown, expected, "the standings table; page: {done}");
    assert_eq!(standings["matches"], 6);
    // The crosstable: every pair met twice; the scores add up to the games played.
    let cross = done["cross"].as_array().expect("crosstable cells");
    assert_eq!(cross.len(), 6, "{done}");
    assert!(cross.iter().all(|c| c[2] == 2), "{done}");
    let sum: f64 = cross.iter().map(|c| c[1].as_f64().unwrap_or(0.0)).sum();
    assert!((sum - 6.0).abs() < 1e-9, "{done}");
    // Every match finished, each with a replay link; the markup name is text.
    assert_eq!(done["replays"].as_array().map(Vec::len), Some(6), "{done}");
    assert!(done["watch"].as_array().is_some_and(Vec::is_empty), "{done}");
    assert_eq!(done["markup"], 0, "no element made from a bot's name");
    assert!(done["xss"].is_null(), "no script ran from a bot's name");
    // The same page in Chinese, on a phone and at 1280x800: no English but the entrants' names
    // (and the standings' statistical model), nothing wider than the screen, the seed folded
    // away, the standings' every column in view on the desktop.
    let names = [
        "Browser", "cup", "alpha", "random", "img", "src", "onerror", "window", "xss", "held", "first",
        "empty", "Bradley", "Terry",
    ];
    for (size, phone) in [("phone", true), ("desktop", false)] {
        let zh = if phone {
            driver.phone_in(Some("zh-CN")).await
        } else {
            driver.desktop_in(Some("zh-CN")).await
        };
        zh.goto(&server.http_url(&format!("/tournament/{id}")))
            .await
            .expect("the tournament page loads");
        wait_page(&zh, TOURNAMENT_JS, "the finished tournament", |s| {
            s["state"] == "finished"
        })
        .await;
        screenshot_file(&zh, &format!("zh-tournament-{size}.png")).await;
        super::i18n::assert_chinese_but(&zh, &format!("the tournament page ({size})"), &names).await;
        super::phone::assert_fits(&zh, &format!("the tournament page ({size})")).await;
        let table = zh
            .execute(
                "const s = document.querySelector('.t-standings .scroll'); return [s.scrollWidth, s.clientWidth, [...s.querySelectorAll('tr:first-child > *, tbody tr:first-child > *')].map((c) => c.tagName + ':' + Math.round(c.getBoundingClientRect().width) + ':' + getComputedStyle(c).display), s.querySelector('table').getBoundingClientRect().width];",
                vec![],
            )
            .await
            .expect("the standings' width");
        assert!(
            table[0].as_u64() <= table[1].as_u64(),
            "the standings fit their card ({size}): {table}"
        );
        assert_eq!(
            zh.execute("return document.querySelector('.t-seed').open", vec![])
                .await
                .expect("the seed"),
            json!(false),
            "the seed folded away"
        );
        zh.close().await.expect("close the browser");
    }
    let text = page
        .execute("return document.body.innerText", vec![])
        .await
        .expect("the page's text");
    assert!(
        text.as_str()
            .is_some_and(|t| t.contains(&format!("{markup}/random"))),
        "the markup name shown literally: {text}"
    );
    screenshot_file(&page, "tournament.png").await;

    // Follow the first replay link and step through the match.
    let match_id = done["replays"][0].as_str().expect("a match id").to_owned();
    click(&page, &format!("a[data-replay=\"{match_id}\"]")).await;
    let first = wait_page(&page, REPLAY_JS, "the replay", |s| s["page"] == "replay").await;
    assert_eq!(first["game"], "gomoku");
    assert_eq!(first["step"], 0);
    assert_eq!(first["stones"], json!([]), "no stone before the first event");
    let (status, record) = api(&server, "GET", &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200);
    let events = record["events"].as_array().expect("events");
    assert_eq!(first["steps"], events.len());
    let placed: Vec<&Value> = events.iter().filter(|e| e["kind"] == "placed").collect();
    assert!(placed.len() >= 9, "a won game has at least 9 stones: {record}");

    // The arrow key steps; the last step shows every stone, numbered, the last one marked.
    find(&page, "#next")
        .await
        .send_keys("\u{E014}")
        .await
        .expect("the right arrow");
    let one = wait_page(&page, REPLAY_JS, "one step on", |s| s["step"] == 1).await;
    assert!(!one["text"].as_str().unwrap_or_default().is_empty(), "{one}");
    click(&page, "#last").await;
    let end = wait_page(&page, REPLAY_JS, "the last step", |s| s["step"] == s["steps"]).await;
    let stones = end["stones"].as_array().expect("stones");
    assert_eq!(stones.len(), placed.len(), "a stone per `placed` event: {end}");
    for (shown, event) in stones.iter().zip(&placed) {
        assert_eq!(shown[0], event["number"], "{end}");
        assert_eq!(shown[1], event["point"], "{end}");
        assert_eq!(shown[2], event["stone"], "{end}");
    }
    assert_eq!(
        end["last"],
        json!([placed.last().expect("a stone")["point"]]),
        "{end}"
    );
    assert!(
        end["text"].as_str().unwrap_or_default().contains("Game over"),
        "{end}"
    );
    assert_eq!(end["markup"], 0);
    // One step back from the end: the same stones ('ended' adds none); Home: none.
    click(&page, "#prev").await;
    let back = wait_page(&page, REPLAY_JS, "one step back", |s| {
        s["step"] == s["steps"].as_u64().unwrap_or(0) - 1
    })
    .await;
    assert_eq!(back["stones"].as_array().map(Vec::len), Some(placed.len()));
    click(&page, "#first").await;
    let home = wait_page(&page, REPLAY_JS, "the first step", |s| s["step"] == 0).await;
    assert_eq!(home["stones"], json!([]));

    // The lobby lists the tournament, with a link to its page.
    open_as(&page, &base(&server), "viewer").await;
    let text = text_of(
        &page,
        &format!("#tournaments [data-tournament-id=\"{id}\"][data-state=\"finished\"]"),
    )
    .await;
    assert!(
        text.contains("Browser cup") && text.contains("gomoku") && text.contains("6/6"),
        "{text}"
    );
    click(&page, &format!("#tournaments a[href=\"/tournament/{id}\"]")).await;
    wait_page(&page, TOURNAMENT_JS, "the tournament page again", |s| {
        s["state"] == "finished"
    })
    .await;
    page.close().await.expect("close the browser");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plane_battle_replay_shows_every_deployment_and_shot() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let plane = skirmish_protocol::GameKind::Plane;
    let _red = named_bot(&server, "red", plane, "random").await;
    let _blue = named_bot(&server, "blue", plane, "random").await;
    wait_for_named_bots(&server, &["red", "blue"]).await;
    let id = create_tournament(
        &server,
        &json!({
            "game": { "game": "plane", "variant": "classic", "players": 2, "format": { "rounds": 2 } },
            "clock": { "deploy_ms": 5000, "move_ms": 2000 },
            "duplicate": true,
        }),
    )
    .await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&server.http_url(&format!("/tournament/{id}")))
        .await
        .expect("the tournament page loads");
    let done = wait_page(&page, TOURNAMENT_JS, "the tournament to finish", |s| {
        s["state"] == "finished" && s["polling"] == "false"
    })
    .await;
    let match_id = done["replays"][0].as_str().expect("a replay link").to_owned();
    let (status, record) = api(&server, "GET", &format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200);
    let events = record["events"].as_array().expect("events");
    click(&page, &format!("a[data-replay=\"{match_id}\"]")).await;
    wait_page(&page, REPLAY_JS, "the replay", |s| s["page"] == "replay").await;

    // Step to the end of each round in turn (the step after its `round_ended`): each seat's
    // board shows the planes it deployed that round, and every shot fired at it.
    let mut round_start = 0;
    for (i, event) in events.iter().enumerate() {
        if event["kind"] == "round_started" {
            round_start = i;
        }
        if event["kind"] != "round_ended" {
            continue;
        }
        let round = &events[round_start..=i];
        page.execute(
            "window.replay && document.getElementById('slider') && (document.getElementById('slider').value = arguments[0], \
             document.getElementById('slider').dispatchEvent(new Event('input')))",
            vec![json!(i + 1)],
        )
        .await
        .expect("move the slider");
        let s = wait_page(&page, REPLAY_JS, "the round's end", |s| s["step"] == i + 1).await;
        for seat in 0..2_usize {
            let deployed = round
                .iter()
                .find(|e| e["kind"] == "deployment" && e["seat"] == seat)
                .unwrap_or_else(|| panic!("seat {seat}'s deployment in the record: {record}"));
            let board = &s["boards"][seat];
            let cells = board["planes"].as_array().expect("plane cells");
            assert_eq!(
                cells.len(),
                10,
                "one plane of 10 cells on seat {seat}'s board: {s}"
            );
            let heads: Vec<&Value> = cells.iter().filter(|c| c[2] == true).map(|c| &c[0]).collect();
            assert_eq!(
                heads,
                vec![&deployed["planes"][0]["head"]],
                "seat {seat}'s head: {s}"
            );
            let mut fired: Vec<(String, String)> = round
                .iter()
                .filter(|e| e["kind"] == "shot" && e["target"] == seat)
                .map(|e| {
                    (
                        e["cell"].as_str().unwrap_or_default().to_owned(),
                        e["result"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            let mut shown: Vec<(String, String)> = board["shots"]
                .as_array()
                .expect("shots")
                .iter()
                .map(|c| {
                    (
                        c[0].as_str().unwrap_or_default().to_owned(),
                        c[1].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            fired.sort();
            shown.sort();
            assert_eq!(shown, fired, "seat {seat}'s shots: {s}");
        }
    }
    click(&page, "#last").await;
    let end = wait_page(&page, REPLAY_JS, "the last step", |s| s["step"] == s["steps"]).await;
    assert!(
        end["text"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&format!("{}. Match over", events.len())),
        "{end}"
    );
    page.close().await.expect("close the browser");
}

/// A replay page's junqi board: every post with a piece, as `[post, owner, rank]`, sorted.
const REPLAY_JUNQI_JS: &str = r#"
const r = document.getElementById('replay');
if (!r || r.dataset.steps === undefined) return { page: 'other' };
return {
  page: 'replay',
  step: Number(r.dataset.step),
  steps: Number(r.dataset.steps),
  pieces: [...document.querySelectorAll('#jq-board [data-owner]')]
    .map((e) => [e.dataset.post, Number(e.dataset.owner), e.dataset.rank || null])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  moves: document.querySelectorAll('#moves [data-move]').length,
};
"#;

/// Moves a replay page's slider to `step`.
async fn replay_to(page: &Client, step: usize) {
    page.execute(
        "const s = document.getElementById('slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
        vec![json!(step)],
    )
    .await
    .expect("move the slider");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_junqi_replay_shows_both_layouts_and_the_final_board_with_every_rank() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let junqi = skirmish_protocol::GameKind::Junqi;
    let _red = named_bot(&server, "red", junqi, "random").await;
    let _blue = named_bot(&server, "blue", junqi, "random").await;
    wait_for_named_bots(&server, &["red", "blue"]).await;
    let id = create_tournament(
        &server,
        &json!({
            "game": { "game": "junqi", "no_attack_limit": 31 },
            "clock": { "deploy_ms": 5000, "move_ms": 2000 },
        }),
    )
    .await;
    let start = Instant::now();
    let status = loop {
        let (_, status) = api(&server, "GET", &format!("/api/tournaments/{id}"), None).await;
        if status["state"] == "finished" {
            break status;
        }
        assert!(
            start.elapsed() < MATCH_LIMIT,
            "the tournament did not finish: {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let match_id = status["schedule"][0]["id"].as_str().expect("a match").to_owned();
    let (_, record) = api(&server, "GET", &format!("/api/matches/{match_id}"), None).await;
    let events = record["events"].as_array().expect("events");
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&server.http_url(&format!("/replay/{match_id}")))
        .await
        .expect("the replay loads");
    let first = wait_page(&page, REPLAY_JUNQI_JS, "the replay", |s| s["page"] == "replay").await;
    assert_eq!(first["steps"], events.len());
    assert_eq!(
        first["pieces"],
        json!([]),
        "nothing on the board before the deployments"
    );

    // Once the battle starts: both layouts in full, every piece with its rank.
    let battle = events
        .iter()
        .position(|e| e["kind"] == "battle_started")
        .expect("the battle started");
    replay_to(&page, battle + 1).await;
    let s = wait_page(&page, REPLAY_JUNQI_JS, "the battle's start", |s| {
        s["step"] == battle + 1
    })
    .await;
    let pieces = s["pieces"].as_array().expect("pieces");
    assert_eq!(pieces.len(), 50, "{s}");
    for owner in 0..2 {
        let ranks: Vec<&str> = pieces
            .iter()
            .filter(|p| p[1] == owner)
            .map(|p| {
                p[2].as_str()
                    .unwrap_or_else(|| panic!("a rank on every piece: {s}"))
            })
            .collect();
        assert_eq!(ranks.len(), 25, "{s}");
        assert_eq!(
            ranks.iter().filter(|r| **r == "flag").count(),
            1,
            "one flag each: {s}"
        );
        assert_eq!(ranks.iter().filter(|r| **r == "landmine").count(), 3, "{s}");
    }

    // Just before the end, the board the page worked out move by move is the outcome's, rank
    // for rank; the last step shows it too, with every move listed.
    let ended = events.last().expect("events");
    assert_eq!(ended["kind"], "ended", "{record}");
    let mut expected: Vec<Value> = ended["outcome"]["pieces"]
        .as_array()
        .expect("the final pieces")
        .iter()
        .map(|p| json!([p["post"], p["owner"], p["rank"]]))
        .collect();
    expected.sort_by(|a, b| a[0].as_str().cmp(&b[0].as_str()));
    replay_to(&page, events.len() - 1).await;
    let before = wait_page(&page, REPLAY_JUNQI_JS, "the step before the end", |s| {
        s["step"] == events.len() - 1
    })
    .await;
    assert_eq!(before["pieces"], json!(expected), "{before}");
    click(&page, "#last").await;
    let end = wait_page(&page, REPLAY_JUNQI_JS, "the last step", |s| {
        s["step"] == s["steps"]
    })
    .await;
    assert_eq!(end["pieces"], json!(expected), "{end}");
    let moved = events.iter().filter(|e| e["kind"] == "moved").count();
    assert_eq!(end["moves"], moved, "{end}");
    page.close().await.expect("close the browser");
}
