//! Plane battle in the browser: people play a match, against each other and against a bot, a
//! reload keeps the seat, and a spectator's page never holds a hidden plane.

use super::*;

pub(crate) fn cells_of(s: &Value, seat: usize, kind: &str) -> HashSet<String> {
    s["boards"][seat]["planes"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|p| p[1] == kind)
                .map(|p| p[0].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn shots_of(s: &Value, seat: usize) -> Vec<(String, String)> {
    s["boards"][seat]["shots"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p[0].as_str().unwrap_or_default().to_owned(),
                        p[1].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Fires at the first open cell of the first opponent board that takes shots (a random one of its
/// open cells), then waits until the shot shows.
pub(crate) async fn fire_somewhere(page: &Client, s: &Value, pick: usize) {
    let board = s["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .find(|b| b["fireable"].as_array().is_some_and(|f| !f.is_empty()))
        .expect("an opponent board with open cells on my turn");
    let open = board["fireable"].as_array().expect("cells");
    let cell = open[pick % open.len()].as_str().expect("a cell");
    fire_at(page, board["seat"].as_u64().expect("a seat"), cell).await;
}

async fn fire_at(page: &Client, seat: u64, cell: &str) {
    click(page, &format!("[data-board=\"{seat}\"] [data-cell=\"{cell}\"]")).await;
    let css_done = format!("{seat}:{cell}");
    wait_state(page, &format!("the shot at {css_done}"), |s| {
        s["phase"] == "over"
            || shots_of(s, usize::try_from(seat).expect("small"))
                .iter()
                .any(|(c, _)| c == cell)
            || !my_turn(s)
    })
    .await;
}

/// Three people on three browsers: a 3-seat `double` room, created and joined from the lobby,
/// deployed and played to the end of a 2-round match by clicking; between the rounds each page
/// shows the round just played with every plane revealed; every page shows the same scores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_play_a_double_match() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let names = ["Ann", "Bob", "Cat"];
    let mut pages = Vec::new();
    for name in names {
        let page = driver.browser().await;
        open_as(&page, &base(&server), name).await;
        pages.push(page);
    }
    let room = create_room(&pages[0], 3, "double", 2).await;
    // The others see the room appear in their lobby and join it.
    for page in &pages[1..] {
        find(page, &format!("[data-room-id=\"{room}\"] [data-action=\"join\"]")).await;
        screenshot(page, "lobby").await;
        click(page, &format!("[data-room-id=\"{room}\"] [data-action=\"join\"]")).await;
        wait_state(page, "a seat", |s| s["page"] == "room" && !s["you"].is_null()).await;
    }
    for page in &pages {
        wait_state(page, "deployment", |s| s["phase"] == "deploy").await;
    }
    // Ann places her planes by pointing: C1 facing up, then (rotated) I7 facing right.
    let ann = &pages[0];
    click(ann, "[data-board=\"0\"] [data-cell=\"C1\"]").await;
    click(ann, "#deploy-rotate").await;
    find(ann, "#deploy-rotate[data-facing=\"right\"]").await;
    // A right-facing plane with its head in column A would leave the board: shown as such, refused.
    click(ann, "[data-board=\"0\"] [data-cell=\"A5\"]").await;
    find(ann, "[data-board=\"0\"] [data-cell=\"A5\"][data-preview=\"bad\"]").await;
    click(ann, "[data-board=\"0\"] [data-cell=\"I7\"]").await;
    let s = state(ann).await;
    assert_eq!(cells_of(&s, 0, "pending").len(), 20, "two planes placed: {s}");
    screenshot(ann, "deploy").await;
    click(ann, "#deploy-ready").await;
    for page in &pages[1..] {
        deploy_random(page).await;
    }
    // Every page draws its own planes; which page holds which seat.
    let mut page_of: HashMap<u64, usize> = HashMap::new();
    for (i, page) in pages.iter().enumerate() {
        let s = wait_state(page, "the attack", |s| s["phase"] == "attack").await;
        page_of.insert(s["you"].as_u64().expect("seated"), i);
        assert_eq!(own_planes(&s).len(), 20, "own planes drawn: {s}");
    }
    let ann_heads: Vec<String> = own_planes(&state(ann).await)
        .into_iter()
        .filter(|(_, h)| *h)
        .map(|(c, _)| c)
        .collect();
    assert_eq!(ann_heads, vec!["C1".to_owned(), "I7".to_owned()]);
    // Each player first fires one shot anywhere, then at the heads of the next opponent (read from
    // that opponent's page). A tie for first means an extra round: deploy again.
    let start = Instant::now();
    let mut fired: HashMap<u64, usize> = HashMap::new();
    let mut shots = 0;
    let mut recaps_seen: HashSet<usize> = HashSet::new();
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
        let mut over = 0;
        for (i, page) in pages.iter().enumerate() {
            let s = state(page).await;
            if s["phase"] == "over" {
                over += 1;
                continue;
            }
            if s["phase"] == "deploy" && s["deploy"] == "placing" {
                if s["round"] != "0" {
                    // The round just played, before the next is deployed: all three boards,
                    // each with both its planes revealed (20 cells).
                    let recap = page.execute(RECAP_JS, vec![]).await.unwrap();
                    let boards = recap["boards"].as_array().expect("the recap's boards");
                    assert_eq!(boards.len(), 3, "{recap}");
                    assert!(boards.iter().all(|b| b["planes"] == 20), "{recap}");
                    recaps_seen.insert(i);
                }
                deploy_random(page).await;
                continue;
            }
            if !my_turn(&s) {
                continue;
            }
            let you = s["you"].as_u64().expect("seated");
            let n = fired.entry(you).or_default();
            *n += 1;
            if *n == 1 {
                fire_somewhere(page, &s, 7).await;
                continue;
            }
            let board = s["boards"]
                .as_array()
                .expect("boards")
                .iter()
                .find(|b| b["fireable"].as_array().is_some_and(|f| !f.is_empty()))
                .expect("an opponent to fire at");
            let target = board["seat"].as_u64().expect("a seat");
            let shot: HashSet<String> = shots_of(&s, usize::try_from(target).expect("small"))
                .into_iter()
                .map(|(c, _)| c)
                .collect();
            let theirs = own_planes(&state(&pages[page_of[&target]]).await);
            let head = theirs
                .iter()
                .find(|(c, h)| *h && !shot.contains(c))
                .map(|(c, _)| c.clone())
                .expect("a head left");
            fire_at(page, target, &head).await;
            shots += 1;
            if shots == 3 {
                screenshot(&pages[2], "battle").await;
            }
        }
        if over == pages.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert_eq!(recaps_seen.len(), 3, "every page showed the first round's recap");
    // Every page shows the same totals and placings, and the final screen.
    let mut finals = Vec::new();
    for page in &pages {
        let s = wait_state(page, "the final screen", |s| {
            s["placings"].as_array().is_some_and(|p| p.len() == 3)
        })
        .await;
        find(page, "#final #rematch").await;
        finals.push((s["totals"].clone(), s["placings"].clone()));
    }
    assert!(
        finals.iter().all(|f| *f == finals[0]),
        "pages disagree: {finals:?}"
    );
    let totals: Vec<u64> = finals[0]
        .0
        .as_array()
        .expect("totals")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(totals.len(), 3);
    assert!(
        totals.iter().sum::<u64>() >= 4,
        "two knockouts score at least 3 + 1: {totals:?}"
    );
    // The first asks for a rematch; the others are told, and one joins it from the final panel.
    let old = state(&pages[0]).await["id"].clone();
    click(&pages[0], "#final #rematch").await;
    let new = wait_state(&pages[0], "the rematch room", |s| {
        s["page"] == "room" && s["id"] != old && s["you"].is_number()
    })
    .await;
    find(
        &pages[1],
        &format!(
            "#rematch-offer[data-rematch-room=\"{}\"]",
            new["id"].as_str().expect("an id")
        ),
    )
    .await;
    click(&pages[1], "#rematch-join").await;
    wait_state(&pages[1], "seated in the rematch", |s| {
        s["id"] == new["id"] && s["you"].is_number()
    })
    .await;
    for page in pages {
        page.close().await.expect("close the browser");
    }
}

/// One person against a bot in a 2-seat `classic` room: the owner adds the bot from the page, and
/// the match is played to its end by clicking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_person_plays_a_bot() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots(&page, &server).await;
    open_as(&page, &base(&server), "Dee").await;
    create_room(&page, 2, "classic", 1).await;
    click(
        &page,
        "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"random\"]",
    )
    .await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&page).await;
    let start = Instant::now();
    let mut pick = 0;
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
        let s = state(&page).await;
        if s["phase"] == "over" {
            break;
        }
        if my_turn(&s) {
            pick += 13;
            fire_somewhere(&page, &s, pick).await;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    let s = wait_state(&page, "the final screen", |s| {
        s["placings"].as_array().is_some_and(|p| p.len() == 2)
    })
    .await;
    let totals: Vec<u64> = s["totals"]
        .as_array()
        .expect("totals")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(
        totals.iter().filter(|t| **t == 3).count(),
        1,
        "one knockout, 3 points: {s}"
    );
    assert!(s["log"].as_array().is_some_and(|l| {
        l.iter()
            .any(|t| t.as_str().is_some_and(|t| t.contains("Match over")))
    }));
    // The round's two deployments were committed to before the shots and checked at its end: one
    // line for the round (issue 18), with each commitment and check in its details.
    let s = wait_state(&page, "both reveals checked", |s| {
        s["log"].as_array().is_some_and(|l| {
            l.iter().any(|t| {
                t.as_str().is_some_and(|t| {
                    t.starts_with("✓ Round 1: 2 secret deployments sealed before play, 2 checked")
                })
            })
        })
    })
    .await;
    let log: Vec<&str> = s["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        log.iter().filter(|t| t.contains("sealed before play")).count(),
        1,
        "one line for the round's commitments: {s}"
    );
    let audit = log.iter().find(|t| t.starts_with("✓")).expect("the round's line");
    assert_eq!(
        audit.matches("matches what was sealed").count(),
        2,
        "each check in the details: {audit}"
    );
    assert!(!log.iter().any(|t| t.starts_with("✗")), "{s}");
    // The final panel links to the game's replay, which steps through it.
    let room = s["id"].as_str().expect("the room's id").to_owned();
    let href = attr_of(&page, "#final #replay-link", "href").await;
    assert!(href.ends_with(&format!("/replay/{room}")), "{href}");
    click(&page, "#final #replay-link").await;
    harness::wait_script(
        &page,
        "const r = document.getElementById('replay'); return r ? Number(r.dataset.steps) : 0;",
        "the replay's steps",
        |n| n.as_u64().is_some_and(|n| n > 2),
    )
    .await;
    page.close().await.expect("close the browser");
}

/// A reload in the middle of a round keeps the seat, the planes and every shot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_seat_and_the_board() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots(&page, &server).await;
    open_as(&page, &base(&server), "Eve").await;
    let room = create_room(&page, 2, "double", 1).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&page).await;
    // Two shots of ours, and the bot's answers.
    for pick in [3, 40] {
        let s = wait_state(&page, "my turn", my_turn).await;
        fire_somewhere(&page, &s, pick).await;
    }
    let before = wait_state(&page, "my turn again", my_turn).await;
    page.refresh().await.expect("reload");
    let after = wait_state(&page, "the room after the reload", |s| {
        s["page"] == "room" && s["phase"] == "attack" && s["you"] == 0
    })
    .await;
    assert_eq!(after["id"].as_str(), Some(room.as_str()));
    let mut mine_before = own_planes(&before);
    let mut mine_after = own_planes(&after);
    mine_before.sort();
    mine_after.sort();
    assert_eq!(mine_before.len(), 20);
    assert_eq!(mine_before, mine_after, "the same planes after the reload");
    for seat in 0..2 {
        assert_eq!(
            shots_of(&before, seat),
            shots_of(&after, seat),
            "the same shots on board {seat}"
        );
    }
    // And the seat still plays: it is our turn, and a shot goes through.
    let s = wait_state(&page, "my turn after the reload", my_turn).await;
    fire_somewhere(&page, &s, 5).await;
    page.close().await.expect("close the browser");
}

/// Installed in the spectator's page: after every change of the DOM (so after every render),
/// unless the round is over and every deployment public, each board may draw plane cells only for
/// planes shot down (10 per `down` shot), and never the own/pending kinds.
const WATCH_JS: &str = r#"
window.watchChecks = 0; window.watchDowns = 0; window.watchViolations = [];
const check = () => {
  const room = document.getElementById('room');
  if (!room || room.dataset.revealed === 'true' || room.dataset.phase === 'over') return;
  window.watchChecks += 1;
  for (const b of document.querySelectorAll('[data-board]')) {
    const planes = [...b.querySelectorAll('[data-plane]')];
    const bad = planes.filter((c) => c.dataset.plane !== 'downed');
    if (bad.length) window.watchViolations.push(`board ${b.dataset.board}: ${bad.map((c) => c.dataset.cell + ' ' + c.dataset.plane)}`);
    const downs = b.querySelectorAll('[data-shot="down"]').length;
    window.watchDowns = Math.max(window.watchDowns, downs);
    if (planes.length !== 10 * downs) window.watchViolations.push(`board ${b.dataset.board}: ${planes.length} plane cells, ${downs} downs`);
  }
};
new MutationObserver(check).observe(document.getElementById('main'), { childList: true, subtree: true, attributes: true });
check();
"#;

/// A spectator, joining by the room's link, sees shots and downed planes, and never a plane cell
/// before it is revealed (shot down, or the round over).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_never_sees_a_hidden_plane() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let player = driver.browser().await;
    let watcher = driver.browser().await;
    wait_for_bots(&player, &server).await;
    open_as(&player, &base(&server), "Fay").await;
    let room = create_room(&player, 3, "double", 1).await;
    // The watcher opens the shared link, before the match starts.
    open_as(&watcher, &format!("{}room/{room}", base(&server)), "Gus").await;
    wait_state(&watcher, "the room as a spectator", |s| {
        s["page"] == "room" && s["you"].is_null()
    })
    .await;
    // Check every render of the spectator's page, not only the ones the polling below catches.
    watcher
        .execute(WATCH_JS, vec![])
        .await
        .expect("the watch script runs");
    // One person and two bots: the owner starts now and bots fill the empty seats.
    click(&player, "#start-now").await;
    wait_state(&player, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&player).await;
    let mine: HashSet<String> = own_planes(&state(&player).await)
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let start = Instant::now();
    let mut pick = 0;
    let mut checks = 0;
    let mut downed_seen = false;
    loop {
        assert!(start.elapsed() < MATCH_LIMIT, "the match took too long");
        let w = state(&watcher).await;
        if w["phase"] == "over" {
            break;
        }
        if w["revealed"] == true {
            // Between the round's end (every deployment revealed) and the match's.
            continue;
        }
        checks += 1;
        for board in w["boards"].as_array().expect("boards") {
            let seat = usize::try_from(board["seat"].as_u64().expect("a seat")).expect("small");
            for (cell, kind, _) in board["planes"]
                .as_array()
                .expect("planes")
                .iter()
                .map(|p| (&p[0], &p[1], &p[2]))
            {
                assert_eq!(
                    kind, "downed",
                    "the spectator sees a {kind} plane cell {cell} on board {seat}: {w}"
                );
            }
            let downs = shots_of(&w, seat).iter().filter(|(_, r)| r == "down").count();
            let shown = cells_of(&w, seat, "downed");
            assert_eq!(
                shown.len(),
                10 * downs,
                "only downed planes are drawn on board {seat}: {w}"
            );
            downed_seen |= downs > 0;
            if seat == 0 {
                assert!(
                    shown.is_subset(&mine),
                    "board 0 shows cells that are not Fay's planes: {w}"
                );
            }
        }
        let s = state(&player).await;
        if my_turn(&s) {
            pick += 17;
            fire_somewhere(&player, &s, pick).await;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    let watched = watcher
        .execute(
            "return [window.watchChecks, window.watchDowns, window.watchViolations]",
            vec![],
        )
        .await
        .expect("the watch results");
    assert_eq!(
        watched[2],
        serde_json::json!([]),
        "the spectator saw hidden planes: {watched}"
    );
    assert!(
        watched[0].as_u64().is_some_and(|n| n > 5),
        "renders checked: {watched}"
    );
    assert!(checks > 0, "the spectator was polled during the round");
    assert!(
        downed_seen || watched[1].as_u64().is_some_and(|n| n > 0),
        "a plane was shot down and shown: {watched}"
    );
    // At the end every deployment is public: the spectator's drawing of Fay's board is hers (unless
    // the bots tied and played an extra round without her).
    let w = state(&watcher).await;
    let shown: HashSet<String> = cells_of(&w, 0, "downed")
        .union(&cells_of(&w, 0, "revealed"))
        .cloned()
        .collect();
    if w["round"] == "0" {
        assert_eq!(shown, mine, "the revealed deployment is Fay's: {w}");
    } else {
        assert!(shown.is_empty(), "Fay did not play the extra round: {w}");
    }
    player.close().await.expect("close the browser");
    watcher.close().await.expect("close the browser");
}

/// A click that fires nothing says why under the boards (one's own board, out of turn), and a
/// player can resign a plane battle match: it ends at once with the resigning seat placed last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_click_says_why_and_a_player_can_resign() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots(&page, &server).await;
    open_as(&page, &base(&server), "Eve").await;
    create_room(&page, 2, "classic", 3).await;
    click(
        &page,
        "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"random\"]",
    )
    .await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
    deploy_random(&page).await;
    let s = wait_state(&page, "my turn", my_turn).await;
    let shots_before = s["boards"].to_string();
    // My own board: nothing is fired, and the notice says why.
    click(&page, "[data-board=\"0\"] [data-cell=\"A1\"]").await;
    let notice = text_of(&page, "#plane-notice").await;
    assert!(notice.contains("your own board"), "{notice}");
    assert_eq!(
        state(&page).await["boards"].to_string(),
        shots_before,
        "a refused click fired"
    );
    // Resign, confirmed: the match ends and Eve is placed last.
    click(&page, "#resign").await;
    click(&page, "#resign-confirm").await;
    let s = wait_state(&page, "the final screen", |s| {
        s["placings"].as_array().is_some_and(|p| p.len() == 2)
    })
    .await;
    assert_eq!(s["phase"], "over", "{s}");
    let eve = s["placings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[0] == 0)
        .expect("Eve's placing");
    assert_eq!(eve[1], 2, "the resigning seat is placed last: {s}");
}

/// What the recap of the round just played holds, if it is shown: its boards, and per board the
/// cells with a plane (revealed, the player's own, or shot down) and the shots.
const RECAP_JS: &str = r#"
const recap = document.getElementById('recap');
if (!recap) return null;
return {
  round: Number(recap.dataset.recapRound),
  boards: [...recap.querySelectorAll('[data-recap-board]')].map((b) => ({
    planes: b.querySelectorAll('[data-recap-plane]').length,
    shots: b.querySelectorAll('[data-recap-shot]').length,
  })),
  ids: recap.querySelectorAll('.recap-boards [id]').length,
  live: recap.querySelectorAll('[data-board], [data-cell], [data-fireable]').length,
};
"#;

/// When a round ends, the boards start the next round empty at once; the round just played stays
/// in view beside them, every plane of it revealed with its shots, in English and in Chinese, on a
/// phone and a desktop, until the next round's first shot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_round_just_played_stays_in_view_with_every_plane_revealed() {
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
        open_as(&page, &base(&server), "Dee").await;
        create_room(&page, 2, "classic", 2).await;
        click(
            &page,
            "[data-seat-row=\"1\"] [data-bot-strategy] option[value=\"random\"]",
        )
        .await;
        click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
        wait_state(&page, "deployment", |s| s["phase"] == "deploy").await;
        assert_eq!(
            page.execute(RECAP_JS, vec![]).await.unwrap(),
            Value::Null,
            "no recap before a round ends"
        );
        deploy_random(&page).await;
        let start = Instant::now();
        let mut pick = 0;
        loop {
            assert!(start.elapsed() < MATCH_LIMIT, "the round took too long");
            let s = state(&page).await;
            if s["round"] == "1" && s["phase"] == "deploy" {
                break;
            }
            if my_turn(&s) {
                pick += 13;
                fire_somewhere(&page, &s, pick).await;
                // The status says what the last shot did, the bot's too.
                if state(&page).await["phase"] == "attack" {
                    let status = text_of(&page, "#status-text").await;
                    let last = if lang.is_some() { "上一发：" } else { "Last: " };
                    assert!(status.contains(last), "{status}");
                }
            } else {
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }
        // The live boards are round 2's: nothing on the bot's board.
        let s = state(&page).await;
        assert!(
            cells_of(&s, 1, "revealed").is_empty() && cells_of(&s, 1, "downed").is_empty(),
            "{s}"
        );
        let recap = page.execute(RECAP_JS, vec![]).await.unwrap();
        assert_eq!(recap["round"], 0, "{recap}");
        let boards = recap["boards"].as_array().expect("the round's boards");
        assert_eq!(boards.len(), 2, "{recap}");
        for board in boards {
            // Every plane of the round (classic: one of ten cells) is drawn, and the shots.
            assert_eq!(board["planes"], 10, "{recap}");
        }
        assert!(boards.iter().any(|b| b["shots"].as_u64() > Some(0)), "{recap}");
        assert_eq!(recap["ids"], 0, "a picture: no ids to clash with the live boards");
        assert_eq!(recap["live"], 0, "nothing of it reads as a live board");
        let title = text_of(&page, "#recap h3").await;
        if lang.is_some() {
            assert!(title.contains("第 1 轮"), "{title}");
        } else {
            assert!(title.contains("Round 1"), "{title}");
        }
        page.execute("window.scrollTo(0, 0);", vec![])
            .await
            .expect("scrolled");
        screenshot_file(&page, &format!("recap-{size}.png")).await;
        // It stays while round 2 is deployed, and goes at round 2's first shot (or gives way to
        // round 2's own recap, when that shot ends the round: not waiting for the page to say
        // ready, which a round ended by the bot's first shot skips).
        click(&page, "#deploy-random").await;
        click(&page, "#deploy-ready").await;
        let recap = page.execute(RECAP_JS, vec![]).await.unwrap();
        let now = state(&page).await;
        let shots: usize = (0..2).map(|seat| shots_of(&now, seat).len()).sum();
        // Round 2's own recap means its first shot came and ended it (one head shot ends a
        // classic round): the recap went at a shot there too.
        assert!(
            shots > 0 || recap["round"] == 0 || recap["round"] == 1,
            "kept until a shot: {recap}"
        );
        let start = Instant::now();
        let mut pick = 0;
        loop {
            assert!(start.elapsed() < MATCH_LIMIT, "round 2 took too long");
            let recap = page.execute(RECAP_JS, vec![]).await.unwrap();
            if recap.is_null() || recap["round"] != 0 {
                break;
            }
            let s = state(&page).await;
            if my_turn(&s) {
                pick += 13;
                fire_somewhere(&page, &s, pick).await;
            } else {
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }
        page.close().await.expect("close the browser");
    }
}
