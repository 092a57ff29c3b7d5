//! A driver for outside gomoku engines ("brains") that speak the Gomocup piskvork protocol over
//! their stdin and stdout (<https://plastovicka.github.io/protocl2en.htm>), as a
//! [`GomokuStrategy`].
//!
//! [`PiskvorkStrategy`] starts its engine on the first [`act`](GomokuStrategy::act), tells it the
//! board size (`START`), the rule (`INFO rule`) and its time (`INFO timeout_turn`, `timeout_match`),
//! then for each move sends either the opponent's last stone (`TURN`, when the engine's board is
//! the view's minus that stone) or the whole position (`BOARD` ... `DONE`, after `RESTART` when the
//! engine already holds a game), and checks the engine's `x,y` answer against the position.
//!
//! An engine that answers `TURN` with `ERROR` or `UNKNOWN` (one that still counted itself as
//! thinking when the `TURN` came, say) is sent the same `TURN` again after [`RETRY_PAUSE`], at
//! most [`TURN_RETRIES`] times, within the move's time. `INFO max_memory` tells it
//! [`DEFAULT_MAX_MEMORY`] unless [`PiskvorkStrategy::max_memory`] says otherwise.
//!
//! The engine's failures never reach the referee as illegal moves and never hang a seat: when the
//! engine cannot be started, exits, says `ERROR` (past the retries), answers something that is not a legal point, or
//! does not answer within its time plus a grace, the strategy kills it and resigns with the reason
//! ([`Action::Resign`], at most [`MAX_REASON_BYTES`] bytes). `act` blocks its thread for at most
//! the engine's turn time plus the grace (and the engine's start, at most [`START_TIMEOUT`]).
//!
//! An engine's `MESSAGE` lines are logged; one that reports its search the way Rapfi and figrid
//! do (`MESSAGE Speed 225K | Depth 9-12 | Eval 17 | Node 79K | Time 350ms`) also gives the move's
//! [`SearchStats`] ([`search_report`]), so `gomoku-bench` prints its speed and depth.
//!
//! Piskvork coordinates are 0-based `x` (column from the left) and `y` (row from the **top**);
//! ours count rows from the bottom, so `piskvork_y = size - 1 - point.y` both ways.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::gomoku::{Action, MAX_REASON_BYTES, Move, Point, Rule, Stone, View};
use tracing::{debug, warn};

use crate::engine_process::{EngineProcess, ProcessError, cap, keyword, truncate};
use crate::gomoku::{Budget, GomokuStrategy, SearchStats};

/// The game its engines play (gomoku): the bot client offers them for it alone.
pub const GAME: skirmish_protocol::GameKind = skirmish_protocol::GameKind::Gomoku;

/// How long an engine may take to answer `START` (loading its weights, say), at most; capped by
/// the room's move clock.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// Piskvork's line end, for what the driver writes.
const LINE_END: &str = "\r\n";

/// The memory an engine is told it may use (`INFO max_memory`, in bytes) unless
/// [`PiskvorkStrategy::max_memory`] says otherwise: 350 MB, Gomocup's limit since 2015 ("memory
/// limit is determined to 350MB", gomocup.org, "Gomocup 2016 Announcement").
pub const DEFAULT_MAX_MEMORY: u64 = 350 * 1024 * 1024;

/// How many times a `TURN` answered by `ERROR` or `UNKNOWN` is sent again before the seat resigns.
pub const TURN_RETRIES: u32 = 2;

/// The pause before a refused `TURN` is sent again: long enough for an engine that was still
/// finishing its last move (the race issue 19 met took 1-2 ms) to be ready.
pub const RETRY_PAUSE: Duration = Duration::from_millis(20);

pub use crate::engine_process::TurnLimits;

impl TurnLimits {
    /// The limits for `budget` ([`TurnLimits::from_clock`] of its room clock and think time).
    pub fn from_budget(budget: Budget) -> TurnLimits {
        TurnLimits::from_clock(budget.move_ms, budget.think)
    }
}

/// The piskvork `INFO rule` code of a rule: a bit mask, 1 for exactly five, 4 for renju.
pub fn rule_code(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// A point as piskvork writes it, `x,y` with `y` counted from the top of a board `size` lines
/// wide.
pub fn to_piskvork(point: Point, size: u8) -> (u8, u8) {
    (point.x, size - 1 - point.y)
}

/// Reads an engine's `x,y` answer (0-based, `y` from the top) into a point on a board `size`
/// lines wide; `None` when it is not two numbers on the board.
pub fn parse_answer(line: &str, size: u8) -> Option<Point> {
    let (x, y) = line.trim().split_once(',')?;
    let x: u8 = x.trim().parse().ok()?;
    let y: u8 = y.trim().parse().ok()?;
    (x < size && y < size).then(|| Point::new(x, size - 1 - y))
}

/// Plays a seat with an outside engine that speaks the piskvork protocol, one engine process per
/// strategy (so per seat), started on the first move and ended (`END`, then killed) on drop.
pub struct PiskvorkStrategy {
    program: PathBuf,
    args: Vec<String>,
    /// The engine's name in resignation reasons and logs: its file name.
    name: String,
    /// What `INFO max_memory` says, in bytes (0: no limit).
    max_memory: u64,
    engine: Option<Engine>,
    /// Whether the engine failed (the strategy resigned for it).
    failed: bool,
    /// How the engine said its last move searched, if it said.
    stats: Option<SearchStats>,
}

impl std::fmt::Debug for PiskvorkStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PiskvorkStrategy")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("running", &self.engine.as_ref().map(|e| e.process.id()))
            .finish()
    }
}

impl PiskvorkStrategy {
    /// A strategy that runs the engine at `program` (nothing is started yet).
    pub fn new(program: impl Into<PathBuf>) -> PiskvorkStrategy {
        PiskvorkStrategy::with_args(program, Vec::new())
    }

    /// A strategy that runs `program` with `args`.
    pub fn with_args(program: impl Into<PathBuf>, args: Vec<String>) -> PiskvorkStrategy {
        let program = program.into();
        let name = program.file_name().map_or_else(
            || program.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        PiskvorkStrategy {
            program,
            args,
            name,
            max_memory: DEFAULT_MAX_MEMORY,
            engine: None,
            failed: false,
            stats: None,
        }
    }

    /// Tells the engine it may use `bytes` of memory (`INFO max_memory`; 0 means no limit) instead
    /// of [`DEFAULT_MAX_MEMORY`]. The protocol leaves enforcing it to the engine.
    #[must_use]
    pub fn max_memory(mut self, bytes: u64) -> PiskvorkStrategy {
        self.max_memory = bytes;
        self
    }

    /// The engine's process id while it runs.
    pub fn engine_pid(&self) -> Option<u32> {
        self.engine.as_ref().map(|e| e.process.id())
    }

    /// The engine's move in `view`, starting or restarting the engine as needed.
    fn play(&mut self, view: &View, budget: Budget) -> Result<Point, Failure> {
        let own = view.stone_to_move().ok_or(Failure::NotToMove)?;
        let started = Instant::now();
        let limits = TurnLimits::from_budget(budget);
        // Under a room clock, nothing may take longer than the clock leaves.
        let act_deadline = limits.room_ms.map(|ms| started + Duration::from_millis(ms));
        if self
            .engine
            .as_ref()
            .is_some_and(|e| e.size != view.size || e.rule != view.rule)
        {
            self.stop();
        }
        if self.engine.is_none() {
            let start_deadline = cap(started + START_TIMEOUT, act_deadline);
            self.engine = Some(Engine::start(
                &self.program,
                &self.args,
                &self.name,
                (view.size, view.rule, self.max_memory),
                start_deadline,
            )?);
        }
        let engine = self.engine.as_mut().expect("the engine was just started");
        // Whatever starting took comes off the engine's turn, under a room clock.
        let limits = match act_deadline {
            Some(deadline) => limits.fit(
                u64::try_from(deadline.saturating_duration_since(Instant::now()).as_millis())
                    .unwrap_or(u64::MAX),
            ),
            None => limits,
        };
        if engine.turn_ms != Some(limits.turn_ms) {
            engine.send(&format!("INFO timeout_turn {}", limits.turn_ms))?;
            engine.turn_ms = Some(limits.turn_ms);
        }
        engine.drain();
        let mut turn = None;
        let in_sync = view.moves.len() == engine.known.len() + 1
            && view.moves.starts_with(&engine.known)
            && view.moves.last().is_some_and(|m| m.stone != own);
        if in_sync {
            let last = view.moves.last().expect("in sync means one new stone");
            let (x, y) = to_piskvork(last.point, view.size);
            let command = format!("TURN {x},{y}");
            engine.send(&command)?;
            turn = Some(command);
        } else {
            if !engine.known.is_empty()
                && !engine.restart(cap(Instant::now() + START_TIMEOUT, act_deadline))?
            {
                // It cannot `RESTART`: a fresh process instead.
                self.stop();
                self.engine = Some(Engine::start(
                    &self.program,
                    &self.args,
                    &self.name,
                    (view.size, view.rule, self.max_memory),
                    cap(Instant::now() + START_TIMEOUT, act_deadline),
                )?);
            }
            let engine = self.engine.as_mut().expect("the engine runs");
            if engine.turn_ms != Some(limits.turn_ms) {
                engine.send(&format!("INFO timeout_turn {}", limits.turn_ms))?;
                engine.turn_ms = Some(limits.turn_ms);
            }
            if view.moves.is_empty() {
                engine.send("BEGIN")?;
            } else {
                let mut text = String::from("BOARD\n");
                for m in &view.moves {
                    let (x, y) = to_piskvork(m.point, view.size);
                    let field = if m.stone == own { 1 } else { 2 };
                    text.push_str(&format!("{x},{y},{field}\n"));
                }
                text.push_str("DONE");
                engine.send(&text)?;
            }
        }
        let engine = self.engine.as_mut().expect("the engine runs");
        engine.report = None;
        self.stats = None;
        let point = engine.answer(view, own, limits, turn.as_deref())?;
        self.stats = engine.report.take();
        engine.known = view.moves.clone();
        engine.known.push(Move { stone: own, point });
        Ok(point)
    }

    /// Ends the engine, if one runs: `END`, a moment to leave, then killed.
    fn stop(&mut self) {
        if let Some(mut engine) = self.engine.take() {
            engine.end();
        }
    }
}

impl GomokuStrategy for PiskvorkStrategy {
    fn act(&mut self, view: &View, budget: Budget, _rng: &mut dyn RngCore) -> Action {
        match self.play(view, budget) {
            Ok(point) => Action::Place { point },
            Err(failure) => {
                let reason = truncate(format!("{}: {failure}", self.name), MAX_REASON_BYTES);
                warn!(engine = %self.name, %reason, "the engine failed: resigning");
                if let Some(mut engine) = self.engine.take() {
                    engine.process.kill();
                }
                self.failed = true;
                Action::Resign { reason: Some(reason) }
            }
        }
    }

    fn engine_failed(&self) -> bool {
        self.failed
    }

    fn stats(&self) -> Option<SearchStats> {
        self.stats
    }
}

/// The search an engine reports in a `MESSAGE` line the way Rapfi and figrid do, fields split by
/// `|`: `Depth D` or `Depth D-S` (the depth completed, then the selective depth; the first is
/// taken), `Node N` or `Nodes N` (a count, with an optional `K`, `M` or `G`), and `Time T` (`ms`
/// or `s`). `None` unless the line has all three; other fields (`Speed`, `Eval`, ...) are
/// ignored.
pub fn search_report(line: &str) -> Option<SearchStats> {
    let text = line.trim_start().strip_prefix("MESSAGE")?;
    let (mut depth, mut nodes, mut elapsed) = (None, None, None);
    for field in text.split('|') {
        let mut words = field.split_whitespace();
        let (Some(key), Some(value)) = (words.next(), words.next()) else {
            continue;
        };
        match key.to_ascii_lowercase().as_str() {
            "depth" => depth = value.split('-').next().and_then(|d| d.parse::<u32>().ok()),
            "node" | "nodes" => nodes = count(value),
            "time" => elapsed = duration(value),
            _ => {}
        }
    }
    Some(SearchStats {
        nodes: nodes?,
        depth: depth?,
        elapsed: elapsed?,
    })
}

/// `79K` as 79,000 (`K`, `M` and `G` multiply by a thousand, a million, a billion).
fn count(value: &str) -> Option<u64> {
    let (number, scale) = match value.char_indices().last()? {
        (i, 'K' | 'k') => (&value[..i], 1e3),
        (i, 'M' | 'm') => (&value[..i], 1e6),
        (i, 'G' | 'g') => (&value[..i], 1e9),
        _ => (value, 1.0),
    };
    let n: f64 = number.parse().ok()?;
    (n.is_finite() && n >= 0.0).then(|| (n * scale).round() as u64)
}

/// `350ms` or `1.5s` as a duration.
fn duration(value: &str) -> Option<Duration> {
    let (number, seconds) = match value.strip_suffix("ms") {
        Some(ms) => (ms, 1e-3),
        None => (value.strip_suffix('s')?, 1.0),
    };
    let n: f64 = number.parse().ok()?;
    Duration::try_from_secs_f64(n * seconds).ok()
}

impl Drop for PiskvorkStrategy {
    /// Ends the engine: on a blocking thread when dropped inside a tokio runtime (the bot client
    /// drops a finished game's seats from its async loop), so that waiting for the engine to leave
    /// holds up no other room.
    fn drop(&mut self) {
        if let Some(mut engine) = self.engine.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => drop(runtime.spawn_blocking(move || engine.end())),
                Err(_) => engine.end(),
            }
        }
    }
}

/// Why the engine gave no move.
#[derive(Debug)]
enum Failure {
    /// The view has nobody to move.
    NotToMove,
    /// The process failed to start, ended, closed its output or did not answer in time.
    Process(ProcessError),
    /// The engine refused a command with this line.
    Refused { command: &'static str, line: String },
    /// An answer that is not a legal point.
    Illegal { answer: String, why: String },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NotToMove => write!(f, "asked to move in a finished game"),
            Failure::Process(err) => err.fmt(f),
            Failure::Refused { command, line } => {
                write!(f, "refused {command}: `{}`", truncate(line.clone(), 80))
            }
            Failure::Illegal { answer, why } => {
                write!(f, "illegal answer `{}` ({why})", truncate(answer.clone(), 60))
            }
        }
    }
}

impl From<ProcessError> for Failure {
    fn from(err: ProcessError) -> Failure {
        Failure::Process(err)
    }
}

/// One running engine process.
struct Engine {
    name: String,
    process: EngineProcess,
    size: u8,
    rule: Rule,
    /// The stones on the engine's board, in order (its own last answer included).
    known: Vec<Move>,
    /// The `timeout_turn` last sent.
    turn_ms: Option<u64>,
    /// `INFO` lines sent since the engine's last move: an `UNKNOWN` may answer one of them (engines answer in order, so none is pending once a move came back).
    unanswered_infos: u32,
    /// The last search report ([`search_report`]) the engine gave since it was asked to move.
    report: Option<SearchStats>,
}

impl Engine {
    /// Starts `program`, says `START size` and waits for `OK`, then sends the game's `INFO`
    /// (`game` is the board size, the rule and the memory limit in bytes).
    fn start(
        program: &Path,
        args: &[String],
        name: &str,
        (size, rule, max_memory): (u8, Rule, u64),
        deadline: Instant,
    ) -> Result<Engine, Failure> {
        let process = EngineProcess::spawn(program, args, name)?;
        let mut engine = Engine {
            name: name.to_owned(),
            process,
            size,
            rule,
            known: Vec::new(),
            turn_ms: None,
            unanswered_infos: 0,
            report: None,
        };
        let ok = engine.start_game(deadline, max_memory);
        match ok {
            Ok(()) => Ok(engine),
            Err(failure) => {
                engine.process.kill();
                Err(failure)
            }
        }
    }

    fn start_game(&mut self, deadline: Instant, max_memory: u64) -> Result<(), Failure> {
        self.send(&format!("START {}", self.size))?;
        let line = self.reply(deadline, "waiting for START's OK")?;
        if keyword(&line) != "OK" {
            return Err(Failure::Refused {
                command: "START",
                line,
            });
        }
        self.send(&format!(
            "INFO timeout_match 0\nINFO max_memory {max_memory}\nINFO game_type 1\nINFO rule {}",
            rule_code(self.rule)
        ))
    }

    /// `RESTART`: whether the engine said `OK` (false when it does not know the command).
    fn restart(&mut self, deadline: Instant) -> Result<bool, Failure> {
        self.send("RESTART")?;
        let line = self.reply(deadline, "waiting for RESTART's OK")?;
        self.known.clear();
        Ok(keyword(&line) == "OK")
    }

    /// Logs and drops what the engine said since its last answer, so that no stray line is taken
    /// for the next one.
    fn drain(&mut self) {
        self.process.drain();
    }

    /// Writes `text` and a line end.
    fn send(&mut self, text: &str) -> Result<(), Failure> {
        let infos = text.lines().filter(|l| keyword(l) == "INFO").count();
        self.unanswered_infos += u32::try_from(infos).unwrap_or(u32::MAX);
        Ok(self.process.send(text, LINE_END)?)
    }

    /// The next line that is not `MESSAGE` or `DEBUG` (those are logged), before `deadline`.
    fn reply(&mut self, deadline: Instant, what: &'static str) -> Result<String, Failure> {
        loop {
            let line = self.process.next_line(deadline, what)?;
            match keyword(&line).as_str() {
                "MESSAGE" | "DEBUG" => {
                    debug!(engine = %self.name, %line, "engine says");
                    if let Some(report) = search_report(&line) {
                        self.report = Some(report);
                    }
                }
                _ => return Ok(line),
            }
        }
    }

    /// Reads the engine's move and checks it is a legal point for `own` in `view`. `turn` is the
    /// `TURN` command the engine is answering, if that is what it was sent: an `ERROR` or
    /// `UNKNOWN` answer to it (not to a pending `INFO`) has it sent again, up to
    /// [`TURN_RETRIES`] times.
    fn answer(
        &mut self,
        view: &View,
        own: Stone,
        limits: TurnLimits,
        turn: Option<&str>,
    ) -> Result<Point, Failure> {
        let deadline = Instant::now() + limits.wait();
        let board = view.board();
        let check = |line: &str| -> Result<Point, Failure> {
            let illegal = |why: String| Failure::Illegal {
                answer: line.to_owned(),
                why,
            };
            let point =
                parse_answer(line, view.size).ok_or_else(|| illegal("not a point on the board".into()))?;
            if board.get(point).is_some() {
                return Err(illegal(format!("{point} already holds a stone")));
            }
            if view.rule == Rule::Renju
                && own == Stone::Black
                && let Some(shape) = board.forbidden(point)
            {
                return Err(illegal(format!("{point} is forbidden for black: {shape}")));
            }
            Ok(point)
        };
        let mut retries = 0;
        loop {
            let line = self.reply(deadline, "waiting for a move")?;
            match keyword(&line).as_str() {
                // Some engines answer `UNKNOWN` to an `INFO` key they do not know; they answer
                // in order, so such a line comes before the move.
                "UNKNOWN" if self.unanswered_infos > 0 => {
                    self.unanswered_infos -= 1;
                    warn!(engine = %self.name, %line, "engine did not take an INFO");
                }
                "UNKNOWN" | "ERROR" => match turn {
                    Some(command) if retries < TURN_RETRIES && Instant::now() + RETRY_PAUSE < deadline => {
                        retries += 1;
                        warn!(engine = %self.name, %line, retries, "engine refused TURN: sending it again");
                        std::thread::sleep(RETRY_PAUSE);
                        self.send(command)?;
                    }
                    _ => {
                        return Err(Failure::Refused {
                            command: "to move",
                            line,
                        });
                    }
                },
                "SUGGEST" => {
                    // The engine proposes a move and waits for the manager to confirm it with
                    // `PLAY`, which it answers with the same coordinates.
                    let suggested = line.trim()[7..].trim().to_owned();
                    let point = check(&suggested)?;
                    let (x, y) = to_piskvork(point, view.size);
                    self.send(&format!("PLAY {x},{y}"))?;
                }
                _ => {
                    self.unanswered_infos = 0;
                    return check(&line);
                }
            }
        }
    }

    /// Says `END`, lets the engine leave for a moment, then kills it.
    fn end(&mut self) {
        self.process.end("END", LINE_END);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_count_rows_from_the_top() {
        assert_eq!(to_piskvork("h8".parse().unwrap(), 15), (7, 7));
        assert_eq!(to_piskvork("a1".parse().unwrap(), 15), (0, 14));
        assert_eq!(to_piskvork("o15".parse().unwrap(), 15), (14, 0));
        assert_eq!(to_piskvork("c2".parse().unwrap(), 19), (2, 17));
        assert_eq!(parse_answer("0,14", 15), Some("a1".parse().unwrap()));
        assert_eq!(parse_answer(" 2 , 17\r", 19), Some("c2".parse().unwrap()));
        assert_eq!(parse_answer("15,0", 15), None);
        assert_eq!(parse_answer("7", 15), None);
        assert_eq!(parse_answer("7,7,1", 15), None);
        assert_eq!(parse_answer("-1,3", 15), None);
    }

    #[test]
    fn an_engines_search_report_is_read_from_its_message() {
        // figrid 1.2.0's line, as it prints it before its move.
        let figrid = "MESSAGE Speed 225K | Depth 9-9 | Eval 17 | Node 79K | Time 350ms";
        assert_eq!(
            search_report(figrid),
            Some(SearchStats {
                nodes: 79_000,
                depth: 9,
                elapsed: Duration::from_millis(350),
            })
        );
        let other = "MESSAGE Depth 14-27 | Eval -M3 | Nodes 1.25M | Time 1.5s";
        assert_eq!(
            search_report(other),
            Some(SearchStats {
                nodes: 1_250_000,
                depth: 14,
                elapsed: Duration::from_millis(1500),
            })
        );
        for line in [
            "MESSAGE config: version=1.2.0; weights=embedded",
            "MESSAGE Depth 9 | Eval 17",
            "MESSAGE Depth x | Node 79K | Time 350ms",
            "MESSAGE Depth 9 | Node -5 | Time 350ms",
            "MESSAGE Depth 9 | Node 79K | Time -1s",
            "DEBUG Depth 9 | Node 79K | Time 350ms",
        ] {
            assert_eq!(search_report(line), None, "{line}");
        }
    }

    #[test]
    fn rule_codes_follow_the_protocol() {
        assert_eq!(rule_code(Rule::Freestyle), 0);
        assert_eq!(rule_code(Rule::Standard), 1);
        assert_eq!(rule_code(Rule::Renju), 4);
    }

    #[test]
    fn the_engine_finishes_within_the_room_clock() {
        let ms = Duration::from_millis;
        // No room clock: the strategy's own think time.
        assert_eq!(
            TurnLimits::from_budget(Budget::new(0, ms(2000))),
            TurnLimits {
                turn_ms: 2000,
                grace_ms: 1000,
                room_ms: None
            }
        );
        // A 30 s clock leaves 27 s; think time is the smaller.
        assert_eq!(
            TurnLimits::from_budget(Budget::new(30_000, ms(2000))).turn_ms,
            2000
        );
        for move_ms in [300, 1000, 5000, 30_000] {
            let limits = TurnLimits::from_budget(Budget::new(move_ms, ms(60_000)));
            let room_ms = limits.room_ms.expect("a room clock");
            assert!(room_ms < move_ms, "{move_ms}: {limits:?}");
            assert!(
                limits.turn_ms + limits.grace_ms <= room_ms,
                "{move_ms}: {limits:?}"
            );
            assert!(limits.turn_ms > 0);
            assert!(limits.grace_ms >= (room_ms / 4).min(500), "{move_ms}: {limits:?}");
            // A short think keeps a full grace.
            let short = TurnLimits::from_budget(Budget::new(move_ms, ms(100)));
            assert!(short.turn_ms + short.grace_ms <= room_ms, "{move_ms}: {short:?}");
        }
        let short = TurnLimits::from_budget(Budget::new(30_000, ms(100)));
        assert_eq!((short.turn_ms, short.grace_ms), (100, 1000));
    }

    #[test]
    fn reasons_fit_the_referee() {
        let long = "é".repeat(300);
        let cut = truncate(long, MAX_REASON_BYTES);
        assert!(cut.len() <= MAX_REASON_BYTES);
        let failure = Failure::Illegal {
            answer: "z".repeat(500),
            why: "not a point on the board".into(),
        };
        assert!(failure.to_string().len() < 120);
    }
}
