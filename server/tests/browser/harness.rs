//! The browser tests' harness: a `chromedriver` process on a free port, headless Chromium sessions
//! with fresh profiles, and helpers that read the web client's `data-*` attributes.
#![allow(unreachable_pub)]

use std::net::TcpListener;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

/// Where Debian's `chromium-driver` package puts the driver.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Where Debian's `chromium` package puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// How long one wait for the page may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(30);

/// Fails with a clear message when the browser or its driver is missing.
///
/// # Panics
/// When either binary is absent.
pub fn require_browser() {
    for (path, package) in [(CHROMEDRIVER, "chromium-driver"), (CHROMIUM, "chromium")] {
        assert!(
            Path::new(path).exists(),
            "{path} is missing: the browser tests need the Debian packages `chromium` and `chromium-driver` \
             (install them with `apt-get install -y chromium chromium-driver`; `{package}` provides {path})"
        );
    }
}

/// A `chromedriver` process and the Chromium browsers it started, all killed on drop (pass or
/// fail, panics included: the driver is dropped while the test unwinds), and the profile folders
/// of its sessions, removed on drop.
///
/// `chromedriver` runs in its own process group, killed whole; each browser is found by its
/// profile folder (`--user-data-dir=.../skirmish-browser-<test pid>-<n>`) and killed with its
/// process group. When the last live driver of the test process is dropped, the harness checks
/// that no `skirmish-browser-<test pid>-*` process is left, and fails the test if one is.
#[derive(Debug)]
pub struct Driver {
    child: Child,
    port: u16,
    profiles: Vec<PathBuf>,
}

/// An emulated screen ([`Driver::phone_in`], [`Driver::desktop_in`]).
#[derive(Clone, Copy, Debug)]
enum Screen {
    /// 390x844 with touch.
    Phone,
    /// 1280x800 with a mouse.
    Desktop,
}

/// Drivers alive in this test process. Held while a driver starts and while the last one's drop
/// checks for survivors, so that no browser starts during that check.
static LIVE_DRIVERS: Mutex<usize> = Mutex::new(0);

/// The ids of the processes (other than this one) whose command line contains `needle`.
fn processes_with(needle: &str) -> Vec<i32> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(needle))
        })
        .filter_map(|pid| i32::try_from(pid).ok())
        .collect()
}

/// SIGKILLs each process and its process group (unless that group is the test's own).
fn kill_with_groups(pids: &[i32]) {
    use rustix::process::{Pid, Signal, getpgid, getpgrp, kill_process, kill_process_group};
    let own = getpgrp();
    for pid in pids.iter().filter_map(|&pid| Pid::from_raw(pid)) {
        if let Ok(group) = getpgid(Some(pid))
            && group != own
        {
            let _ = kill_process_group(group, Signal::KILL);
        }
        let _ = kill_process(pid, Signal::KILL);
    }
}

/// Kills every process whose command line contains one of `needles`, until none is left (10 s at
/// most); returns the ids of any still there.
fn kill_all_with(needles: &[String]) -> Vec<i32> {
    let start = Instant::now();
    loop {
        let left: Vec<i32> = needles.iter().flat_map(|n| processes_with(n)).collect();
        if left.is_empty() || start.elapsed() > Duration::from_secs(10) {
            return left;
        }
        kill_with_groups(&left);
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The part of every profile folder name this test process gives its browsers.
fn profile_prefix() -> String {
    format!("skirmish-browser-{}-", std::process::id())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

impl Driver {
    /// Starts `chromedriver` on a free port and waits until it listens.
    ///
    /// # Panics
    /// When the browser is missing or the driver does not start.
    pub async fn start() -> Driver {
        require_browser();
        let port = free_port();
        let child = {
            let mut live = LIVE_DRIVERS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let child = Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                // Its own process group, killed whole on drop.
                .process_group(0)
                .spawn()
                .unwrap_or_else(|e| {
                    panic!("cannot start {CHROMEDRIVER} (Debian package `chromium-driver`): {e}")
                });
            *live += 1;
            child
        };
        let driver = Driver {
            child,
            port,
            profiles: Vec::new(),
        };
        let start = Instant::now();
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start listening"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        driver
    }

    /// Opens a new headless Chromium with a fresh profile, its language the default (English).
    ///
    /// # Panics
    /// When the session cannot be created.
    pub async fn browser(&mut self) -> Client {
        self.browser_in(None).await
    }

    /// Opens a new headless Chromium with a fresh profile whose language is `lang` (a BCP 47 tag
    /// such as `zh-CN`; `navigator.languages` starts with it), or the default when `None`.
    ///
    /// # Panics
    /// When the session cannot be created.
    pub async fn browser_in(&mut self, lang: Option<&str>) -> Client {
        self.session(lang, None).await
    }

    /// Opens a new headless Chromium that plays a phone: Chromium's mobile emulation with a
    /// 390x844 CSS-pixel viewport, touch (`(pointer: coarse)` matches; a click is a tap) and a
    /// phone's user agent; its language `lang` as in [`Driver::browser_in`].
    ///
    /// # Panics
    /// When the session cannot be created.
    pub async fn phone_in(&mut self, lang: Option<&str>) -> Client {
        self.session(lang, Some(Screen::Phone)).await
    }

    /// Opens a new headless Chromium whose viewport is exactly 1280x800 CSS pixels (a window of
    /// that size has less: its frame takes some), with a mouse, its language `lang` as in
    /// [`Driver::browser_in`].
    ///
    /// # Panics
    /// When the session cannot be created.
    pub async fn desktop_in(&mut self, lang: Option<&str>) -> Client {
        self.session(lang, Some(Screen::Desktop)).await
    }

    async fn session(&mut self, lang: Option<&str>, screen: Option<Screen>) -> Client {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let profile = std::env::temp_dir().join(format!(
            "{}{}",
            profile_prefix(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("a profile folder");
        let mut args = vec![
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--disable-quic".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--window-size=1280,1000".to_owned(),
            format!("--user-data-dir={}", profile.display()),
        ];
        self.profiles.push(profile);
        let mut options = json!({ "binary": CHROMIUM });
        if let Some(lang) = lang {
            args.push(format!("--lang={lang}"));
            options["prefs"] = json!({ "intl.accept_languages": lang });
        }
        match screen {
            Some(Screen::Phone) => {
                options["mobileEmulation"] = json!({
                    "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 1.0, "touch": true, "mobile": true },
                    "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
                });
            }
            Some(Screen::Desktop) => {
                options["mobileEmulation"] = json!({
                    "deviceMetrics": { "width": 1280, "height": 800, "pixelRatio": 1.0, "touch": false, "mobile": false },
                });
            }
            None => {}
        }
        options["args"] = json!(args);
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": options,
        });
        let Value::Object(caps) = caps else { unreachable!() };
        ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a Chromium session from chromedriver")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(group) = i32::try_from(self.child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Arguments in /proc/<pid>/cmdline each end in a NUL: with it, the needle for profile 1
        // does not match profile 12 (another test's browser).
        let mine: Vec<String> = self
            .profiles
            .iter()
            .map(|p| format!("--user-data-dir={}\0", p.display()))
            .collect();
        let left = kill_all_with(&mine);
        for profile in &self.profiles {
            let _ = std::fs::remove_dir_all(profile);
        }
        let mut live = LIVE_DRIVERS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *live -= 1;
        let survivors = if *live == 0 {
            kill_all_with(&[profile_prefix()])
        } else {
            left
        };
        drop(live);
        if !survivors.is_empty() {
            let message = format!("Chromium processes survived their test and SIGKILL: {survivors:?}");
            if std::thread::panicking() {
                eprintln!("{message}");
            } else {
                panic!("{message}");
            }
        }
    }
}

/// The page's state as the tests read it from `data-*` attributes.
const STATE_JS: &str = r#"
const room = document.getElementById('room');
if (!room) return { page: document.getElementById('lobby') ? 'lobby' : 'other' };
const boards = [...document.querySelectorAll('[data-board]')].map((b) => ({
  seat: Number(b.dataset.board),
  out: b.dataset.knockedOut === 'true',
  fireable: [...b.querySelectorAll('[data-fireable]')].map((c) => c.dataset.cell),
  planes: [...b.querySelectorAll('[data-plane]')].map((c) => [c.dataset.cell, c.dataset.plane, c.dataset.head === 'true']),
  shots: [...b.querySelectorAll('[data-shot]')].map((c) => [c.dataset.cell, c.dataset.shot]),
}));
const status = document.getElementById('status');
const deploy = document.getElementById('deploy');
return {
  page: 'room',
  id: room.dataset.roomId,
  phase: room.dataset.phase,
  revealed: room.dataset.revealed === 'true',
  round: room.dataset.round,
  status: room.dataset.status || null,
  you: room.dataset.you === undefined || room.dataset.you === '' ? null : Number(room.dataset.you),
  turn: status ? status.dataset.turn : null,
  deploy: deploy ? deploy.dataset.deployState : null,
  boards,
  totals: [...document.querySelectorAll('[data-total]')].map((e) => Number(e.textContent)),
  placings: [...document.querySelectorAll('[data-placing]')].map((e) => [Number(e.dataset.placing), Number(e.dataset.place)]),
  log: [...document.querySelectorAll('#log li')].map((e) => e.textContent),
};
"#;

/// Reads the page's state (see `STATE_JS`).
///
/// # Panics
/// When the script fails.
pub async fn state(page: &Client) -> Value {
    page.execute(STATE_JS, vec![])
        .await
        .expect("the state script runs")
}

/// Waits until `pred` holds for the page's state, and returns that state.
///
/// # Panics
/// After [`WAIT`], with `what` and the last state.
pub async fn wait_state(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_script(page, STATE_JS, what, pred).await
}

/// Runs `script` until `pred` holds for what it returns, and returns that.
///
/// # Panics
/// When the script fails, or after [`WAIT`], with `what` and the last value.
pub async fn wait_script(page: &Client, script: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = page.execute(script, vec![]).await.expect("the state script runs");
        if pred(&s) {
            return s;
        }
        assert!(
            start.elapsed() < WAIT,
            "timed out waiting for {what}; page state: {s}"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits for an element to appear, and returns it.
///
/// # Panics
/// After [`WAIT`].
pub async fn find(page: &Client, css: &str) -> Element {
    page.wait()
        .at_most(WAIT)
        .every(Duration::from_millis(40))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element `{css}`: {e}"))
}

/// Waits for an element to appear and returns its rendered text (`innerText`), read in the page
/// in one step: the client redraws whole lists on each update, so an element found first and read
/// afterwards may already have been replaced (a stale element).
///
/// # Panics
/// After [`WAIT`].
pub async fn text_of(page: &Client, css: &str) -> String {
    read_element(page, css, "e.innerText")
        .await
        .unwrap_or_else(|| panic!("`{css}` has no text"))
}

/// Waits for an element to appear and returns its attribute `name`, read in the page in one
/// step as [`text_of`] reads text.
///
/// # Panics
/// After [`WAIT`], or when the element has no such attribute.
pub async fn attr_of(page: &Client, css: &str, name: &str) -> String {
    read_element(page, css, &format!("e.getAttribute({})", json!(name)))
        .await
        .unwrap_or_else(|| panic!("`{css}` has no attribute `{name}`"))
}

/// Waits (as [`wait_script`]) for an element matching `css` and evaluates `expr`, JavaScript over
/// the element `e`, in the same script; None when `expr` gave null.
async fn read_element(page: &Client, css: &str, expr: &str) -> Option<String> {
    let script = format!(
        "const e = document.querySelector({}); return e ? [{expr}] : null;",
        json!(css)
    );
    let found = wait_script(page, &script, &format!("the element `{css}`"), Value::is_array).await;
    found[0].as_str().map(str::to_owned)
}

/// Waits for an element and clicks it; an element redrawn between the finding and the click (a
/// stale element) is found again.
///
/// # Panics
/// When it does not appear or cannot be clicked.
pub async fn click(page: &Client, css: &str) {
    let start = Instant::now();
    loop {
        let element = find(page, css).await;
        // As a person scrolls a phone's page: the element to the middle, clear of the sticky bar.
        let _ = page
            .execute(
                "arguments[0].scrollIntoView({ block: 'center', inline: 'nearest' });",
                vec![serde_json::to_value(&element).expect("an element as JSON")],
            )
            .await;
        match element.click().await {
            Ok(()) => return,
            Err(e) if e.is_stale_element_reference() && start.elapsed() < WAIT => {}
            Err(e) => panic!("cannot click `{css}`: {e}"),
        }
    }
}

/// Replaces an input's text.
///
/// # Panics
/// When the input does not appear.
pub async fn type_into(page: &Client, css: &str, text: &str) {
    let input = find(page, css).await;
    input.clear().await.expect("clear the input");
    input.send_keys(text).await.expect("type into the input");
}

/// Opens the web client at `base` and picks a display name.
///
/// # Panics
/// When the page does not load or never connects.
pub async fn open_as(page: &Client, url: &str, name: &str) {
    page.goto(url).await.expect("the page loads");
    type_into(page, "#name-input", name).await;
    click(page, "#name-save").await;
    find(page, "#conn[data-conn=\"open\"]").await;
}

/// Creates a plane battle room from the lobby's form and returns its id once seated.
///
/// # Panics
/// When the room page does not appear.
pub async fn create_room(page: &Client, players: u8, variant: &str, rounds: u32) -> String {
    find(page, "#create-form").await;
    find(page, "#create-players")
        .await
        .select_by_value(&players.to_string())
        .await
        .expect("pick the seats");
    find(page, "#create-variant")
        .await
        .select_by_value(variant)
        .await
        .expect("pick the variant");
    type_into(page, "#create-rounds", &rounds.to_string()).await;
    type_into(page, "#create-move", "60").await;
    type_into(page, "#create-deploy", "120").await;
    click(page, "#create-submit").await;
    let s = wait_state(page, "the new room", |s| s["page"] == "room" && s["you"] == 0).await;
    s["id"].as_str().expect("a room id").to_owned()
}

/// Places planes at random and says ready.
///
/// # Panics
/// When the deploy controls do not appear.
pub async fn deploy_random(page: &Client) {
    click(page, "#deploy-random").await;
    click(page, "#deploy-ready").await;
    wait_state(page, "ready", |s| {
        s["deploy"] == "ready" || s["phase"] != "deploy"
    })
    .await;
}

/// Whether it is this page's player's turn to fire.
pub fn my_turn(s: &Value) -> bool {
    s["phase"] == "attack" && !s["you"].is_null() && s["turn"].as_str() == Some(&s["you"].to_string())
}

/// The page's own plane cells on its own board, with head flags: those still flying
/// (`data-plane="own"`) and those shot down (`downed`), so a downed plane still counts as its own.
pub fn own_planes(s: &Value) -> Vec<(String, bool)> {
    let you = s["you"].as_u64().expect("a seated page");
    let board = &s["boards"][usize::try_from(you).expect("small")];
    board["planes"]
        .as_array()
        .expect("plane cells")
        .iter()
        .filter(|p| p[1] == "own" || p[1] == "downed")
        .map(|p| (p[0].as_str().expect("a cell").to_owned(), p[2] == true))
        .collect()
}

/// Saves a PNG of the page under `$SKIRMISH_SCREENSHOTS/<name>.png` when that variable is set.
///
/// # Panics
/// When the screenshot cannot be taken or written.
pub async fn screenshot(page: &Client, name: &str) {
    screenshot_file(page, &format!("web-{name}.png")).await;
}

/// Saves a PNG of the page as `$SKIRMISH_SCREENSHOTS/<file>` when that variable is set.
///
/// # Panics
/// When the screenshot cannot be taken or written.
pub async fn screenshot_file(page: &Client, file: &str) {
    if let Some(dir) = std::env::var_os("SKIRMISH_SCREENSHOTS") {
        let png = page.screenshot().await.expect("a screenshot");
        let path = Path::new(&dir).join(file);
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

/// A gomoku room page's state: the room's `data-*` attributes, the stones the board draws (in move
/// order: `[number, point, colour]`), the points the page lets its player click, the result shown,
/// and the view the page keeps (`window.skirmish.current()`).
const GOMOKU_JS: &str = r#"
const room = document.getElementById('room');
if (!room) return { page: document.getElementById('lobby') ? 'lobby' : 'other' };
if (room.dataset.game !== 'gomoku') return { page: 'room', phase: room.dataset.phase };
const num = (v) => (v === undefined || v === '' ? null : Number(v));
const result = document.getElementById('result');
const status = document.getElementById('status');
const current = window.skirmish.current();
return {
  page: 'gomoku',
  id: room.dataset.roomId,
  phase: room.dataset.phase,
  status: room.dataset.status,
  you: num(room.dataset.you),
  to_move: num(room.dataset.toMove),
  turn: status ? status.dataset.turn : null,
  status_text: status ? status.textContent : null,
  stones: [...document.querySelectorAll('#goban [data-stone]')]
    .map((e) => [Number(e.dataset.number), e.dataset.point, e.dataset.stone])
    .sort((a, b) => a[0] - b[0]),
  playable: [...document.querySelectorAll('#goban [data-playable]')].map((e) => e.dataset.point),
  forbidden: [...document.querySelectorAll('#goban [data-forbidden]')].map((e) => e.dataset.point),
  last: [...document.querySelectorAll('#goban [data-last]')].map((e) => e.dataset.point),
  win: [...document.querySelectorAll('#goban [data-win]')].map((e) => e.dataset.point),
  move_list: [...document.querySelectorAll('#moves [data-move]')].map((e) => e.dataset.point),
  players: [...document.querySelectorAll('[data-player]')].map((e) => e.textContent),
  resign: Boolean(document.getElementById('resign')),
  clock: document.getElementById('clock') ? document.getElementById('clock').textContent : null,
  result: result ? { end: result.dataset.end, winner: result.dataset.winner,
    text: document.getElementById('result-text').textContent,
    detail: (document.getElementById('result-detail') || {}).textContent || '' } : null,
  view: current ? current.view : null,
  log: [...document.querySelectorAll('#log li')].map((e) => e.textContent),
};
"#;

/// Reads a gomoku page's state (see `GOMOKU_JS`).
///
/// # Panics
/// When the script fails.
pub async fn gomoku_state(page: &Client) -> Value {
    page.execute(GOMOKU_JS, vec![])
        .await
        .expect("the gomoku state script runs")
}

/// Waits until `pred` holds for a gomoku page's state, and returns that state.
///
/// # Panics
/// After [`WAIT`], with `what` and the last state.
pub async fn wait_gomoku(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_script(page, GOMOKU_JS, what, pred).await
}

/// Creates a gomoku room from the lobby's form (`opening` empty for none) and returns its id once
/// seated as black.
///
/// # Panics
/// When the form or the room page does not appear.
pub async fn create_gomoku_room(page: &Client, size: u8, rule: &str, opening: &str) -> String {
    find(page, "#create-form").await;
    find(page, "#create-game")
        .await
        .select_by_value("gomoku")
        .await
        .expect("pick gomoku");
    find(
        page,
        "#create-form[data-game=\"gomoku\"] #gomoku-fields:not([hidden])",
    )
    .await;
    find(page, "#create-size")
        .await
        .select_by_value(&size.to_string())
        .await
        .expect("pick the board size");
    find(page, "#create-rule")
        .await
        .select_by_value(rule)
        .await
        .expect("pick the rule");
    find(page, "#create-opening")
        .await
        .select_by_value(opening)
        .await
        .expect("pick the opening");
    type_into(page, "#create-move", "120").await;
    click(page, "#create-submit").await;
    let s = wait_gomoku(page, "the new gomoku room", |s| {
        s["page"] == "gomoku" && s["you"] == 0
    })
    .await;
    s["id"].as_str().expect("a room id").to_owned()
}

/// The `[number, point, colour]` stones a gomoku page draws, as (point, colour) in move order.
pub fn stones(s: &Value) -> Vec<(String, String)> {
    s["stones"]
        .as_array()
        .expect("stones")
        .iter()
        .map(|t| {
            (
                t[1].as_str().expect("a point").to_owned(),
                t[2].as_str().expect("a colour").to_owned(),
            )
        })
        .collect()
}

/// A junqi room page's state: the room's `data-*` attributes, the editor (layout, broken rules,
/// whether Deploy is enabled), the board's posts (`[post, owner, rank]`, rank null when hidden),
/// the posts the page offers (movable pieces, the selected one, its destinations), the move log,
/// the quiet-move counter, the result, the starting layouts shown at the end, and the view the
/// page keeps (`window.skirmish.current()`).
const JUNQI_JS: &str = r#"
const room = document.getElementById('room');
if (!room) return { page: document.getElementById('lobby') ? 'lobby' : 'other' };
if (room.dataset.game !== 'junqi') return { page: 'room', phase: room.dataset.phase };
const num = (v) => (v === undefined || v === '' ? null : Number(v));
const all = (css) => [...document.querySelectorAll(css)];
const editor = document.getElementById('deploy');
const send = document.getElementById('deploy-send');
const result = document.getElementById('result');
const status = document.getElementById('status');
const quiet = document.getElementById('quiet');
const current = window.skirmish.current();
return {
  page: 'junqi',
  id: room.dataset.roomId,
  phase: room.dataset.phase,
  status: room.dataset.status,
  you: num(room.dataset.you),
  to_move: num(room.dataset.toMove),
  turn: status ? status.dataset.turn : null,
  status_text: status ? status.textContent : null,
  editor: editor ? { layout: editor.dataset.layout, problems: editor.dataset.problems.split(' ').filter(Boolean),
    message: document.getElementById('deploy-problem').textContent, deploy_enabled: Boolean(send && !send.disabled),
    picked: all('#editor-grid [aria-pressed="true"]').map((e) => Number(e.dataset.slot)) } : null,
  pieces: all('#jq-board [data-owner]').map((e) => [e.dataset.post, Number(e.dataset.owner), e.dataset.rank || null]),
  movable: all('#jq-board [data-movable]').map((e) => e.dataset.post),
  selected: all('#jq-board [data-selected]').map((e) => e.dataset.post),
  targets: all('#jq-board [data-target]').map((e) => e.dataset.post),
  revealed_flags: all('#jq-board [data-revealed-flag]').map((e) => e.dataset.post),
  moves: all('#moves [data-move]').map((e) => ({ number: Number(e.dataset.move), seat: Number(e.dataset.seat),
    from: e.dataset.from, to: e.dataset.to, result: e.dataset.result, text: e.textContent })),
  quiet: quiet ? quiet.textContent : null,
  resign: Boolean(document.getElementById('resign')),
  clock: document.getElementById('clock') ? document.getElementById('clock').textContent : null,
  result: result ? { end: result.dataset.end, winner: result.dataset.winner,
    text: document.getElementById('result-text').textContent,
    detail: (document.getElementById('result-detail') || {}).textContent || '' } : null,
  layouts: all('[data-layout-seat]').map((e) => [...e.querySelectorAll('[data-layout-rank]')].map((c) => c.dataset.layoutRank)),
  view: current ? current.view : null,
  log: all('#log li').map((e) => e.textContent),
};
"#;

/// Reads a junqi page's state (see `JUNQI_JS`).
///
/// # Panics
/// When the script fails.
pub async fn junqi_state(page: &Client) -> Value {
    page.execute(JUNQI_JS, vec![])
        .await
        .expect("the junqi state script runs")
}

/// Waits until `pred` holds for a junqi page's state, and returns that state.
///
/// # Panics
/// After [`WAIT`], with `what` and the last state.
pub async fn wait_junqi(page: &Client, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_script(page, JUNQI_JS, what, pred).await
}

/// Creates a junqi room from the lobby's form with the form's default clocks and returns its id
/// once seated as red (seat 0).
///
/// # Panics
/// When the form or the room page does not appear, or the form's junqi defaults are not
/// 180 s to deploy, 60 s per move and a no-attack limit of 31.
pub async fn create_junqi_room(page: &Client) -> String {
    find(page, "#create-form").await;
    find(page, "#create-game")
        .await
        .select_by_value("junqi")
        .await
        .expect("pick junqi");
    find(
        page,
        "#create-form[data-game=\"junqi\"] #junqi-fields:not([hidden])",
    )
    .await;
    let defaults = page
        .execute(
            "return ['create-no-attack', 'create-junqi-deploy', 'create-move'].map((id) => document.getElementById(id).value)",
            vec![],
        )
        .await
        .expect("the form's values");
    assert_eq!(defaults, json!(["31", "180", "60"]), "junqi's defaults");
    click(page, "#create-submit").await;
    let s = wait_junqi(page, "the new junqi room", |s| {
        s["page"] == "junqi" && s["you"] == 0
    })
    .await;
    s["id"].as_str().expect("a room id").to_owned()
}
