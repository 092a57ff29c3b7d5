//! Junqi in the browser: the page's legal destinations against the engine's, a deployment and a
//! game against a bot, ranks hidden until the end, and a reload.

use super::*;

/// Runs web-client/junqi.js's `legalMoves` in the page for `seat` on each position (the other
/// seat's ranks hidden, as a player's page holds them), each position given as its pieces.
const JUNQI_MOVES_JS: &str = r#"
const [positions, done] = [arguments[0], arguments[arguments.length - 1]];
import('/junqi.js').then((J) => done(positions.map(({ pieces, seat }) => {
  const seen = pieces.map((p) => (p.owner === seat ? p : { post: p.post, owner: p.owner }));
  return J.legalMoves(J.boardOf(seen), seat).map(([from, to]) => from + to).sort();
}))).catch((e) => done(String(e)));
"#;

/// A position's pieces as the view lists them: `{post, owner, rank}`.
fn pieces_json(position: &Position) -> Value {
    position
        .pieces()
        .map(|(post, piece)| {
            serde_json::json!({ "post": post.to_string(), "owner": piece.owner.0, "rank": piece.rank })
        })
        .collect()
}

/// The engine's legal moves of `seat`, as sorted `G0F0` strings.
fn engine_moves(position: &Position, seat: Seat) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves(seat)
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    moves
}

/// The page's legal-destination function agrees with the engine's `Position::legal_moves` on
/// positions from random games (every 7th position of a few random playouts, for the side to move
/// and the other), on the CAAI example layouts (34 first moves each, games/src/junqi), and on a
/// lone engineer or colonel on K0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junqi_legal_destinations_match_the_engine() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    page.goto(&base(&server)).await.expect("the page loads");
    let mut positions = vec![Position::new([&Layout::example(), &Layout::example()])];
    for (rank, to_move) in [(Rank::Engineer, 0), (Rank::Colonel, 0)] {
        let mut lone = Position::empty(Seat(to_move));
        lone.put(
            "K0".parse::<Post>().expect("a post"),
            Some(Piece { owner: Seat(0), rank }),
        );
        positions.push(lone);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..4 {
        let mut p = Position::new([&Layout::random(&mut rng), &Layout::random(&mut rng)]);
        for n in 0..300 {
            let moves = p.legal_moves(p.to_move());
            let Some(&mv) = moves.choose(&mut rng) else { break };
            if n % 7 == 0 {
                positions.push(p);
            }
            p.play(mv);
        }
    }
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for p in &positions {
        for seat in [Seat(0), Seat(1)] {
            cases.push(serde_json::json!({ "pieces": pieces_json(p), "seat": seat.0 }));
            expected.push(engine_moves(p, seat));
        }
    }
    assert!(cases.len() > 100, "{} cases", cases.len());
    let got = page
        .execute_async(JUNQI_MOVES_JS, vec![Value::Array(cases)])
        .await
        .expect("the script runs");
    let got: Vec<Vec<String>> = serde_json::from_value(got.clone()).unwrap_or_else(|e| panic!("{e}: {got}"));
    assert_eq!(got.len(), expected.len());
    assert_eq!(got[0].len(), 34, "the example layout's first moves");
    assert_eq!(
        got[2].len(),
        33,
        "a lone engineer on K0: every railway post, L0 and J1"
    );
    assert_eq!(got[4].len(), 15, "a lone colonel on K0 runs straight");
    for (i, (page_moves, engine)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(page_moves, engine, "case {i}: the page and the engine disagree");
    }
    page.close().await.expect("close the browser");
}

/// The slot of a layout's first `letter` at or after `from`.
fn slot_of(layout: &str, letter: char, from: usize) -> usize {
    layout
        .char_indices()
        .find(|&(i, c)| c == letter && i >= from)
        .map(|(i, _)| i)
        .expect("the letter is in the layout")
}

/// Swaps two editor slots by clicking them, and returns the page's state once the layout changed.
async fn swap_slots(page: &Client, a: usize, b: usize) -> Value {
    let before = junqi_state(page).await["editor"]["layout"].clone();
    click(page, &format!("#slot-{a}")).await;
    click(page, &format!("#slot-{b}")).await;
    wait_junqi(page, "the swap", |s| s["editor"]["layout"] != before).await
}

/// The engine's word on a layout the page shows: `Ok` or the first broken rule's code.
fn engine_verdict(layout: &Value) -> Result<(), &'static str> {
    let layout: Layout = layout.as_str().expect("a layout").parse().expect("25 letters");
    layout.check().map_err(|e| e.code())
}

/// The board the page draws as an engine position (hidden ranks guessed as captains: a
/// destination depends only on the mover's rank and on who owns each post).
fn position_of(s: &Value, to_move: u8) -> Position {
    let mut p = Position::empty(Seat(to_move));
    for piece in s["pieces"].as_array().expect("pieces") {
        let post: Post = piece[0].as_str().expect("a post").parse().expect("a post");
        let owner = Seat(u8::try_from(piece[1].as_u64().expect("an owner")).expect("a seat"));
        let rank = piece[2].as_str().map_or(Rank::Captain, |r| {
            serde_json::from_value(Value::String(r.into())).expect("a rank")
        });
        p.put(post, Some(Piece { owner, rank }));
    }
    p
}

fn strings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// On the page's turn: selects movable pieces until one can attack (at most four tries), checks
/// each selection's shown destinations against the engine's, and clicks an attack if there is one,
/// else the first destination. Returns the move played (`G0F0`).
pub(crate) async fn play_a_move(page: &Client, shot: Option<&str>) -> String {
    let s = wait_junqi(page, "my turn", |s| {
        s["phase"] == "over"
            || (s["to_move"] == s["you"] && s["movable"].as_array().is_some_and(|m| !m.is_empty()))
    })
    .await;
    if s["phase"] == "over" {
        return String::new();
    }
    let you = u8::try_from(s["you"].as_u64().expect("seated")).expect("a seat");
    let engine = position_of(&s, you);
    let enemy: HashSet<String> = s["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .filter(|p| p[1] != you)
        .map(|p| p[0].as_str().expect("a post").to_owned())
        .collect();
    let movable = strings(&s["movable"]);
    let mut choice = None;
    for from in movable.iter().take(4) {
        click(page, &format!("#jq-board [data-post=\"{from}\"]")).await;
        let sel = wait_junqi(page, "the selection", |s| {
            s["selected"] == serde_json::json!([from])
        })
        .await;
        let shown = strings(&sel["targets"]);
        let post: Post = from.parse().expect("a post");
        let mut wanted: Vec<String> = engine
            .destinations(post)
            .iter()
            .map(ToString::to_string)
            .collect();
        wanted.sort();
        assert_eq!(
            shown, wanted,
            "destinations of {from} as shown and as the engine has them: {sel}"
        );
        assert!(!shown.is_empty(), "a movable piece has somewhere to go: {sel}");
        let attack = shown.iter().find(|t| enemy.contains(*t));
        choice = Some((from.clone(), attack.unwrap_or(&shown[0]).clone()));
        if attack.is_some() {
            break;
        }
    }
    let (from, to) = choice.expect("a movable piece");
    // Reselect the chosen piece (the last one clicked may be another).
    let now = junqi_state(page).await;
    if now["selected"] != serde_json::json!([from]) {
        click(page, &format!("#jq-board [data-post=\"{from}\"]")).await;
        wait_junqi(page, "the selection", |s| {
            s["selected"] == serde_json::json!([from])
        })
        .await;
    }
    if let Some(name) = shot {
        page.execute("document.getElementById('status').scrollIntoView()", vec![])
            .await
            .expect("scroll to the board");
        screenshot_file(page, name).await;
    }
    let n = now["moves"].as_array().map_or(0, Vec::len);
    click(page, &format!("#jq-board [data-post=\"{to}\"]")).await;
    wait_junqi(page, &format!("my move {from}{to}"), |s| {
        s["phase"] == "over"
            || s["moves"]
                .as_array()
                .is_some_and(|m| m.len() > n && m[n]["from"] == from.as_str() && m[n]["to"] == to.as_str())
    })
    .await;
    format!("{from}{to}")
}

/// A person creates a junqi room from the lobby (junqi's default clocks), adds a `random` bot,
/// deploys through the editor (Random; a flag out of its headquarters and a bomb in the front row
/// each named and disabling Deploy; a layout saved and loaded by name), plays a few moves by
/// clicking (each selection's destinations as the engine has them, each move's result in words in
/// the log), resigns, and then sees every piece's rank and both starting layouts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_deploys_and_plays_junqi_against_a_bot() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Lin").await;
    create_junqi_room(&page).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    let s = wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    assert_eq!(s["phase"], "deploying", "{s}");
    assert_eq!(
        s["editor"]["layout"], "abccddeeffggghhhiiijjkklj",
        "the CAAI example to start: {s}"
    );
    assert_eq!(s["editor"]["deploy_enabled"], true, "{s}");
    // Random gives a new legal layout.
    click(&page, "#deploy-random").await;
    let s = wait_junqi(&page, "a random layout", |s| {
        s["editor"]["layout"] != "abccddeeffggghhhiiijjkklj"
    })
    .await;
    assert_eq!(engine_verdict(&s["editor"]["layout"]), Ok(()), "{s}");
    assert!(
        s["editor"]["problems"].as_array().is_some_and(Vec::is_empty),
        "{s}"
    );
    let layout = s["editor"]["layout"].as_str().expect("a layout").to_owned();
    // The flag swapped into the front row breaks a rule: named, and Deploy is disabled.
    let flag = slot_of(&layout, 'l', 0);
    let s = swap_slots(&page, flag, 0).await;
    assert_eq!(
        s["editor"]["problems"],
        serde_json::json!(["flag_not_in_headquarters"]),
        "{s}"
    );
    assert_eq!(
        engine_verdict(&s["editor"]["layout"]),
        Err("flag_not_in_headquarters")
    );
    assert!(
        s["editor"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("headquarters")),
        "{s}"
    );
    assert_eq!(s["editor"]["deploy_enabled"], false, "{s}");
    let s = swap_slots(&page, 0, flag).await;
    assert_eq!(s["editor"]["layout"], layout.as_str(), "swapped back: {s}");
    assert_eq!(s["editor"]["deploy_enabled"], true, "{s}");
    // So does a bomb in the front row.
    let bomb = slot_of(&layout, 'k', 5);
    let s = swap_slots(&page, bomb, 2).await;
    assert_eq!(
        s["editor"]["problems"],
        serde_json::json!(["bomb_in_front_row"]),
        "{s}"
    );
    assert_eq!(engine_verdict(&s["editor"]["layout"]), Err("bomb_in_front_row"));
    assert!(
        s["editor"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("front row")),
        "{s}"
    );
    assert_eq!(s["editor"]["deploy_enabled"], false, "{s}");
    swap_slots(&page, 2, bomb).await;
    // Save it by name, roll another, load it back.
    type_into(&page, "#layout-name", "Test A").await;
    click(&page, "#layout-save").await;
    find(&page, "#layout-saved option[value=\"Test A\"]").await;
    click(&page, "#deploy-random").await;
    wait_junqi(&page, "another layout", |s| {
        s["editor"]["layout"] != layout.as_str()
    })
    .await;
    click(&page, "#layout-load").await;
    let s = wait_junqi(&page, "the saved layout", |s| {
        s["editor"]["layout"] == layout.as_str()
    })
    .await;
    assert_eq!(s["editor"]["deploy_enabled"], true, "{s}");
    click(&page, "#deploy-send").await;
    let s = wait_junqi(&page, "the battle", |s| {
        s["phase"] == "battle" && s["to_move"] == 0
    })
    .await;
    // Own pieces by rank where the layout put them; the bot's blank on its half.
    let layout: Layout = layout.parse().expect("a layout");
    let mine: HashMap<String, Value> = layout
        .pieces(Seat(0))
        .map(|(post, rank)| (post.to_string(), serde_json::to_value(rank).expect("a rank")))
        .collect();
    let pieces = s["pieces"].as_array().expect("pieces");
    assert_eq!(pieces.len(), 50, "{s}");
    for p in pieces {
        let post = p[0].as_str().expect("a post");
        if p[1] == 0 {
            assert_eq!(Some(&p[2]), mine.get(post), "my piece on {post}: {s}");
        } else {
            assert!(p[2].is_null(), "an enemy rank on {post}: {s}");
            assert!(post.starts_with(['A', 'B', 'C', 'D', 'E', 'F']), "{s}");
        }
    }
    assert!(s["quiet"].as_str().is_some_and(|q| q.contains("0/31")), "{s}");
    assert!(
        s["clock"].as_str().is_some_and(|c| c.contains(':')),
        "a move clock: {s}"
    );
    // A few moves, then resign (with a confirmation step).
    let mut played = Vec::new();
    for n in 0..6 {
        let mv = play_a_move(&page, (n == 3).then_some("junqi.png")).await;
        if mv.is_empty() {
            break;
        }
        played.push(mv);
    }
    assert!(!played.is_empty(), "at least one move");
    let s = junqi_state(&page).await;
    let first = &s["moves"][0];
    assert_eq!(first["seat"], 0, "{s}");
    let text = first["text"].as_str().expect("a move text");
    assert!(
        text.contains(&played[0][..2]) && text.contains(&played[0][2..]),
        "the move in words: {s}"
    );
    let words = ["took the piece at", "and lost", "both removed", "moved to"];
    assert!(
        words.iter().any(|w| text.contains(w)),
        "the result in words: {text}"
    );
    assert!(
        s["log"]
            .as_array()
            .is_some_and(|l| l.iter().any(|t| t.as_str().is_some_and(|t| t.contains(text)))),
        "the result in the event log too: {s}"
    );
    assert!(
        s["moves"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["seat"] == 1)),
        "the bot answered: {s}"
    );
    if s["phase"] != "over" {
        click(&page, "#resign").await;
        click(&page, "#resign-confirm").await;
    }
    let s = wait_junqi(&page, "the result", |s| {
        s["phase"] == "over" && s["result"].is_object()
    })
    .await;
    let outcome = &s["view"]["outcome"];
    if outcome["end"]["kind"] == "resigned" {
        assert_eq!(s["result"]["winner"], "1", "{s}");
        assert!(
            s["result"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("resigned")),
            "{s}"
        );
    }
    // Every piece on the board shows its rank, the bot's as the outcome lists them.
    let shown: HashSet<(String, u64, String)> = s["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| {
            let rank = p[2]
                .as_str()
                .unwrap_or_else(|| panic!("a piece without its rank at the end: {s}"));
            (
                p[0].as_str().expect("a post").to_owned(),
                p[1].as_u64().expect("an owner"),
                rank.to_owned(),
            )
        })
        .collect();
    let listed: HashSet<(String, u64, String)> = outcome["pieces"]
        .as_array()
        .expect("the outcome's pieces")
        .iter()
        .map(|p| {
            (
                p["post"].as_str().expect("a post").to_owned(),
                p["owner"].as_u64().expect("an owner"),
                p["rank"].as_str().expect("a rank").to_owned(),
            )
        })
        .collect();
    assert_eq!(shown, listed, "the board at the end: {s}");
    assert!(shown.iter().any(|p| p.1 == 1), "enemy pieces revealed: {s}");
    // Both starting layouts, in full.
    let bot_layout: Layout = outcome["layouts"][1]
        .as_str()
        .expect("the bot's layout")
        .parse()
        .expect("a layout");
    let bot_ranks: Vec<Value> = bot_layout
        .0
        .iter()
        .map(|r| serde_json::to_value(r).expect("a rank"))
        .collect();
    assert_eq!(
        s["layouts"][1],
        Value::Array(bot_ranks),
        "the bot's starting layout: {s}"
    );
    assert_eq!(s["layouts"][0].as_array().map(Vec::len), Some(25), "{s}");
    // The page checked both layouts against the referee's commitments.
    let s = wait_junqi(&page, "both reveals checked", |s| {
        s["log"].as_array().is_some_and(|l| {
            l.iter()
                .filter(|t| {
                    t.as_str().is_some_and(|t| {
                        t.starts_with("✓ Layouts: 2 secret deployments sealed before play, 2 checked")
                            && t.matches("matches what was sealed").count() == 2
                    })
                })
                .count()
                == 1
        })
    })
    .await;
    assert!(
        !s["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t.as_str().is_some_and(|t| t.starts_with("✗"))),
        "{s}"
    );
    // The page's check refuses a reveal that does not open its commitment, or that differs from
    // the game's own reveal, and accepts a true one.
    let salt = "ab".repeat(32);
    let layout = "abccddeeffggghhhiiijjkklj";
    let digest = skirmish_protocol::commitment::digest(&salt, layout);
    let verdicts = page
        .execute_async(
            r#"const [digest, salt, layout, done] = arguments;
            import('/audit.js').then(async (m) => {
              const commitments = [{ seat: 1, round: 0, sha256: digest }];
              const reveal = { seat: 1, round: 0, deployment: layout, salt };
              done([
                (await m.checkReveal(commitments, reveal, layout)).ok,
                (await m.checkReveal(commitments, { ...reveal, salt: 'cd'.repeat(32) }, layout)).ok,
                (await m.checkReveal(commitments, reveal, 'abccddeeffggghhhiiijjkljk')).ok,
                (await m.checkReveal([], reveal, layout)).ok,
              ]);
            });"#,
            vec![json!(digest), json!(salt), json!(layout)],
        )
        .await
        .expect("run the page's reveal check");
    assert_eq!(verdicts, json!([true, false, false, false]));
    page.close().await.expect("close the browser");
}

/// Installed in a junqi page: after every change of the DOM while the game runs, every text and
/// attribute value outside one's own pieces and the editor (`data-mine`) and outside what everyone
/// may know (`data-public`: a revealed flag) is searched for rank names; and no enemy piece on the
/// board carries a rank, a revealed flag aside. `window.rankLeaks()` runs the same search now.
const HIDDEN_JS: &str = r#"
const you = arguments[0];
const WORDS = /marshal|general|maj\. gen|brigadier|colonel|major|captain|lieutenant|engineer|landmine|bomb|\bflag\b|司令|军长|师长|旅长|团长|营长|连长|排长|工兵|地雷|炸弹|军旗/i;
window.rankLeaks = () => {
  const leaks = [];
  const walk = (el) => {
    if (el.hasAttribute('data-mine') || el.hasAttribute('data-public')) return;
    for (const a of el.attributes) if (WORDS.test(a.value)) leaks.push(`${el.tagName} ${a.name}=${a.value}`);
    for (const c of el.childNodes) {
      if (c.nodeType === Node.TEXT_NODE && WORDS.test(c.textContent)) leaks.push(`${el.tagName}: ${c.textContent}`);
      else if (c.nodeType === Node.ELEMENT_NODE) walk(c);
    }
  };
  walk(document.body);
  for (const p of document.querySelectorAll('#jq-board [data-owner]')) {
    if (Number(p.dataset.owner) === you || !p.dataset.rank) continue;
    if (!(p.dataset.revealedFlag === 'true' && p.dataset.rank === 'flag')) leaks.push(`enemy rank on ${p.dataset.post}: ${p.dataset.rank}`);
  }
  return leaks;
};
window.hiddenChecks = 0; window.hiddenLeaks = [];
const check = () => {
  const room = document.getElementById('room');
  if (!room || room.dataset.game !== 'junqi' || !['deploying', 'battle'].includes(room.dataset.phase)) return;
  window.hiddenChecks += 1;
  window.hiddenLeaks.push(...window.rankLeaks());
};
new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
check();
"#;

/// A player against a `random` bot, and a spectator who opened the room's link: while the game
/// runs, neither page ever holds an enemy rank (the spectator none at all), checked on every change
/// of the DOM; the spectator sees both sides from red's side, blank. Once the player resigns,
/// the same search finds ranks on both pages: everything is revealed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junqi_ranks_stay_hidden_until_the_end() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    let watcher = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Mo").await;
    let room = create_junqi_room(&page).await;
    open_as(&watcher, &format!("{}room/{room}", base(&server)), "Nia").await;
    wait_junqi(&watcher, "the room as a spectator", |s| {
        s["page"] == "junqi" && s["you"].is_null()
    })
    .await;
    page.execute(HIDDEN_JS, vec![serde_json::json!(0)])
        .await
        .expect("the check installs");
    watcher
        .execute(HIDDEN_JS, vec![serde_json::json!(-1)])
        .await
        .expect("the check installs");
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    click(&page, "#deploy-random").await;
    click(&page, "#deploy-send").await;
    wait_junqi(&page, "the battle", |s| s["phase"] == "battle").await;
    for _ in 0..5 {
        if play_a_move(&page, None).await.is_empty() {
            break;
        }
    }
    let w = wait_junqi(&watcher, "the spectator's board", |w| {
        w["moves"].as_array().is_some_and(|m| m.len() >= 2) || w["phase"] == "over"
    })
    .await;
    if w["phase"] == "battle" {
        assert!(
            w["editor"].is_null() && w["movable"].as_array().is_some_and(Vec::is_empty),
            "{w}"
        );
        let ranked: Vec<&Value> = w["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .filter(|p| !p[2].is_null())
            .collect();
        assert!(
            ranked
                .iter()
                .all(|p| w["revealed_flags"].as_array().is_some_and(|f| f.contains(&p[0]))),
            "the spectator sees ranks: {w}"
        );
        assert!(
            w["view"]["pieces"]
                .as_array()
                .is_some_and(|p| p.iter().all(|p| p["rank"].is_null() || p["rank"] == "flag")),
            "{w}"
        );
    }
    if junqi_state(&page).await["phase"] != "over" {
        click(&page, "#resign").await;
        click(&page, "#resign-confirm").await;
    }
    for p in [&page, &watcher] {
        wait_junqi(p, "the end", |s| s["phase"] == "over" && s["result"].is_object()).await;
        let watched = p
            .execute(
                "return [window.hiddenChecks, window.hiddenLeaks, window.rankLeaks().length]",
                vec![],
            )
            .await
            .expect("the check's results");
        assert_eq!(
            watched[1],
            serde_json::json!([]),
            "ranks shown before the end: {watched}"
        );
        assert!(
            watched[0].as_u64().is_some_and(|n| n > 5),
            "renders checked: {watched}"
        );
        assert!(
            watched[2].as_u64().is_some_and(|n| n > 0),
            "the search finds the revealed ranks: {watched}"
        );
    }
    page.close().await.expect("close the browser");
    watcher.close().await.expect("close the browser");
}

#[tokio::test]
async fn a_reload_keeps_the_junqi_seat_its_ranks_and_the_moves() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start().await;
    let _bots = Bots::start(&server);
    let mut driver = Driver::start().await;
    let page = driver.browser().await;
    wait_for_bots_of(&page, &server, "junqi").await;
    open_as(&page, &base(&server), "Lin").await;
    let room = create_junqi_room(&page).await;
    click(&page, "[data-seat-row=\"1\"] [data-action=\"add-bot\"]").await;
    wait_junqi(&page, "the editor", |s| s["editor"].is_object()).await;
    click(&page, "#deploy-random").await;
    click(&page, "#deploy-send").await;
    for _ in 0..2 {
        assert!(!play_a_move(&page, None).await.is_empty(), "the game goes on");
    }
    let before = wait_junqi(&page, "my turn", |s| {
        s["to_move"] == s["you"] && s["moves"].as_array().is_some_and(|m| m.len() == 4)
    })
    .await;
    page.refresh().await.expect("reload");
    let after = wait_junqi(&page, "the room after the reload", |s| {
        s["page"] == "junqi"
            && s["phase"] == "battle"
            && s["you"] == 0
            && s["moves"].as_array().is_some_and(|m| m.len() == 4)
    })
    .await;
    assert_eq!(after["id"].as_str(), Some(room.as_str()));
    let own = |s: &Value| -> Vec<Value> {
        s["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .filter(|p| p[1] == 0)
            .cloned()
            .collect()
    };
    assert!(own(&before).len() >= 20, "{before}");
    assert_eq!(
        own(&before),
        own(&after),
        "the same pieces with their ranks after the reload"
    );
    assert!(
        own(&after).iter().all(|p| p[2].is_string()),
        "own ranks shown: {after}"
    );
    // A lost marshal reveals its side's flag to all (docs/rules.md); every
    // other enemy rank stays hidden.
    let revealed = after["revealed_flags"].as_array().expect("revealed flags");
    assert!(
        after["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p[1] == 1 && !revealed.contains(&p[0]))
            .all(|p| p[2].is_null()),
        "enemy ranks still hidden: {after}"
    );
    assert_eq!(before["moves"], after["moves"], "the same move list");
    assert_eq!(
        before["view"]["layout"], after["view"]["layout"],
        "the same starting layout"
    );
    // And the seat still plays.
    assert!(!play_a_move(&page, None).await.is_empty());
    page.close().await.expect("close the browser");
}
