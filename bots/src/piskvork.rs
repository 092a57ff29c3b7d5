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
//! The engine's failures never reach the referee as illegal moves and never hang a seat: when the
//! engine cannot be started, exits, says `ERROR`, answers something that is not a legal point, or
//! does not answer within its time plus a grace, the strategy kills it and resigns with the reason
//! ([`Action::Resign`], at most [`MAX_REASON_BYTES`] bytes). `act` blocks its thread for at most
//! the engine's turn time plus the grace (and the engine's start, at most [`START_TIMEOUT`]).
//!
//! Piskvork coordinates are 0-based `x` (column from the left) and `y` (row from the **top**);
//! ours count rows from the bottom, so `piskvork_y = size - 1 - point.y` both ways.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::gomoku::{Action, MAX_REASON_BYTES, Move, Point, Rule, Stone, View};
use tracing::{debug, warn};

use crate::gomoku::{Budget, GomokuStrategy};

/// How long an engine may take to answer `START` (loading its weights, say), at most; capped by
/// the room's move clock.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line read from an engine, in bytes; the rest of a longer line is dropped (the
/// protocol asks a manager to survive "a gigabyte message").
const MAX_LINE_BYTES: usize = 4096;

/// Lines buffered between the engine's stdout reader thread and the driver.
const LINE_QUEUE: usize = 1024;

/// How long a dying engine gets to report its exit status, or to leave after `END`.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// The time an engine gets for one move, from a [`Budget`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLimits {
    /// What the engine is told (`INFO timeout_turn`), in milliseconds.
    pub turn_ms: u64,
    /// How much longer than `turn_ms` the driver waits for the answer before it gives up, in
    /// milliseconds.
    pub grace_ms: u64,
    /// Under a room clock, the most the whole move may take (starting the engine included), in
    /// milliseconds: the clock minus the network's margin.
    pub room_ms: Option<u64>,
}

impl TurnLimits {
    /// The limits for `budget`. The engine thinks for `budget.think`; the driver waits a grace of
    /// half that again, at least 1 s, for an engine that runs late. Under a room clock
    /// (`budget.move_ms > 0`) both fit in the clock minus a margin for the network (a tenth of the
    /// clock, at least 200 ms), the grace keeping at least 500 ms (or a quarter of what the clock
    /// leaves, when less), so that a late engine makes its seat resign rather than time out.
    pub fn from_budget(budget: Budget) -> TurnLimits {
        let think = u64::try_from(budget.think.as_millis()).unwrap_or(u64::MAX).max(1);
        let limits = TurnLimits {
            turn_ms: think,
            grace_ms: (think / 2).max(1000),
            room_ms: None,
        };
        if budget.move_ms == 0 {
            return limits;
        }
        let available = budget.move_ms.saturating_sub((budget.move_ms / 10).max(200));
        TurnLimits {
            room_ms: Some(available),
            ..limits.fit(available)
        }
    }

    /// These limits cut to fit in `left_ms` milliseconds.
    fn fit(self, left_ms: u64) -> TurnLimits {
        let least_grace = (left_ms / 4).min(500);
        let turn_ms = self.turn_ms.min(left_ms.saturating_sub(least_grace)).max(1);
        TurnLimits {
            turn_ms,
            grace_ms: self.grace_ms.min(left_ms.saturating_sub(turn_ms)),
            room_ms: self.room_ms,
        }
    }

    /// How long the driver waits for a move.
    fn wait(self) -> Duration {
        Duration::from_millis(self.turn_ms + self.grace_ms)
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
    engine: Option<Engine>,
}

impl std::fmt::Debug for PiskvorkStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PiskvorkStrategy")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("running", &self.engine.as_ref().map(|e| e.child.id()))
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
            engine: None,
        }
    }

    /// The engine's process id while it runs.
    pub fn engine_pid(&self) -> Option<u32> {
        self.engine.as_ref().map(|e| e.child.id())
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
                view.size,
                view.rule,
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
        let in_sync = view.moves.len() == engine.known.len() + 1
            && view.moves.starts_with(&engine.known)
            && view.moves.last().is_some_and(|m| m.stone != own);
        if in_sync {
            let last = view.moves.last().expect("in sync means one new stone");
            let (x, y) = to_piskvork(last.point, view.size);
            engine.send(&format!("TURN {x},{y}"))?;
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
                    view.size,
                    view.rule,
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
        let point = engine.answer(view, own, limits)?;
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
                    engine.kill();
                }
                Action::Resign { reason: Some(reason) }
            }
        }
    }
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
    /// The process could not be started.
    Spawn(std::io::Error),
    /// The process ended.
    Exited(ExitStatus),
    /// The process closed its output but kept running.
    ClosedOutput,
    /// No answer in time, after this many milliseconds.
    TimedOut { waited_ms: u128, what: &'static str },
    /// The engine refused a command with this line.
    Refused { command: &'static str, line: String },
    /// An answer that is not a legal point.
    Illegal { answer: String, why: String },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NotToMove => write!(f, "asked to move in a finished game"),
            Failure::Spawn(err) => write!(f, "failed to start ({err})"),
            Failure::Exited(status) => write!(f, "crashed ({status})"),
            Failure::ClosedOutput => write!(f, "closed its output"),
            Failure::TimedOut { waited_ms, what } => write!(f, "timed out after {waited_ms} ms ({what})"),
            Failure::Refused { command, line } => {
                write!(f, "refused {command}: `{}`", truncate(line.clone(), 80))
            }
            Failure::Illegal { answer, why } => {
                write!(f, "illegal answer `{}` ({why})", truncate(answer.clone(), 60))
            }
        }
    }
}

/// `deadline`, or `cap` when that comes first.
fn cap(deadline: Instant, cap: Option<Instant>) -> Instant {
    cap.map_or(deadline, |c| c.min(deadline))
}

/// `text` cut to at most `max` bytes, on a character boundary.
fn truncate(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// The first word of an engine's line, upper-cased, for the protocol's line kinds.
fn keyword(line: &str) -> String {
    line.split_whitespace().next().unwrap_or("").to_ascii_uppercase()
}

/// One running engine process.
struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's stdout, line by line, from a reader thread; disconnected at end of file.
    lines: Receiver<String>,
    size: u8,
    rule: Rule,
    /// The stones on the engine's board, in order (its own last answer included).
    known: Vec<Move>,
    /// The `timeout_turn` last sent.
    turn_ms: Option<u64>,
}

impl Engine {
    /// Starts `program`, says `START size` and waits for `OK`, then sends the game's `INFO`.
    fn start(
        program: &Path,
        args: &[String],
        name: &str,
        size: u8,
        rule: Rule,
        deadline: Instant,
    ) -> Result<Engine, Failure> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(Failure::Spawn)?;
        debug!(engine = %name, pid = child.id(), "engine started");
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = sync_channel(LINE_QUEUE);
        std::thread::Builder::new()
            .name(format!("{name} stdout"))
            .spawn(move || read_lines(stdout, &sender))
            .map_err(Failure::Spawn)?;
        let log_name = name.to_owned();
        std::thread::Builder::new()
            .name(format!("{name} stderr"))
            .spawn(move || {
                let mut reader = BufReader::new(stderr);
                let mut line = Vec::new();
                while read_line(&mut reader, &mut line).unwrap_or(false) {
                    debug!(engine = %log_name, stderr = %String::from_utf8_lossy(&line), "engine stderr");
                }
            })
            .map_err(Failure::Spawn)?;
        let mut engine = Engine {
            name: name.to_owned(),
            child,
            stdin,
            lines,
            size,
            rule,
            known: Vec::new(),
            turn_ms: None,
        };
        let ok = engine.start_game(deadline);
        match ok {
            Ok(()) => Ok(engine),
            Err(failure) => {
                engine.kill();
                Err(failure)
            }
        }
    }

    fn start_game(&mut self, deadline: Instant) -> Result<(), Failure> {
        self.send(&format!("START {}", self.size))?;
        let line = self.reply(deadline, "waiting for START's OK")?;
        if keyword(&line) != "OK" {
            return Err(Failure::Refused {
                command: "START",
                line,
            });
        }
        self.send(&format!(
            "INFO timeout_match 0\nINFO max_memory 0\nINFO game_type 1\nINFO rule {}",
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
        while let Ok(line) = self.lines.try_recv() {
            debug!(engine = %self.name, %line, "engine says, between moves");
        }
    }

    /// Writes `text` and a line end.
    fn send(&mut self, text: &str) -> Result<(), Failure> {
        let mut bytes = text.replace('\n', "\r\n").into_bytes();
        bytes.extend_from_slice(b"\r\n");
        match self.stdin.write_all(&bytes).and_then(|()| self.stdin.flush()) {
            Ok(()) => Ok(()),
            Err(err) => {
                debug!(engine = %self.name, cause = %err, "cannot write to the engine");
                Err(self.died())
            }
        }
    }

    /// The next line that is not `MESSAGE` or `DEBUG` (those are logged), before `deadline`.
    fn reply(&mut self, deadline: Instant, what: &'static str) -> Result<String, Failure> {
        let asked = Instant::now();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => match keyword(&line).as_str() {
                    "MESSAGE" | "DEBUG" => debug!(engine = %self.name, %line, "engine says"),
                    _ => return Ok(line),
                },
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::TimedOut {
                        waited_ms: asked.elapsed().as_millis(),
                        what,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
            }
        }
    }

    /// Reads the engine's move and checks it is a legal point for `own` in `view`.
    fn answer(&mut self, view: &View, own: Stone, limits: TurnLimits) -> Result<Point, Failure> {
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
        loop {
            let line = self.reply(deadline, "waiting for a move")?;
            match keyword(&line).as_str() {
                // Some engines answer `UNKNOWN` to an `INFO` key they do not know.
                "UNKNOWN" => warn!(engine = %self.name, %line, "engine did not understand a command"),
                "ERROR" => {
                    return Err(Failure::Refused {
                        command: "to move",
                        line,
                    });
                }
                "SUGGEST" => {
                    // The engine proposes a move and waits for the manager to confirm it with
                    // `PLAY`, which it answers with the same coordinates.
                    let suggested = line.trim()[7..].trim().to_owned();
                    let point = check(&suggested)?;
                    let (x, y) = to_piskvork(point, view.size);
                    self.send(&format!("PLAY {x},{y}"))?;
                }
                _ => return check(&line),
            }
        }
    }

    /// What became of an engine whose output or input closed: its exit status if it exits soon,
    /// else [`Failure::ClosedOutput`].
    fn died(&mut self) -> Failure {
        let until = Instant::now() + EXIT_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Failure::Exited(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => return Failure::ClosedOutput,
            }
        }
    }

    /// Says `END`, lets the engine leave for a moment, then kills it.
    fn end(&mut self) {
        let _ = self.stdin.write_all(b"END\r\n").and_then(|()| self.stdin.flush());
        let until = Instant::now() + EXIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process and reaps it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        debug!(engine = %self.name, pid = self.child.id(), "engine stopped");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// Forwards `stdout`'s lines (ended by LF, CR or both; empty ones skipped) until end of file or
/// until the driver is gone.
fn read_lines(stdout: impl Read, sender: &SyncSender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    while read_line(&mut reader, &mut line).unwrap_or(false) {
        for part in String::from_utf8_lossy(&line).split('\r') {
            let part = part.trim();
            if !part.is_empty() && sender.send(part.to_owned()).is_err() {
                return;
            }
        }
    }
}

/// Reads one `\n`-ended line into `line`, keeping at most [`MAX_LINE_BYTES`]; false at end of
/// file.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(true);
        }
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
    fn long_lines_are_cut_and_line_ends_vary() {
        let mut text = vec![b'x'; MAX_LINE_BYTES * 3];
        text.extend_from_slice(b"\n7,7\r\nMESSAGE a\rDEBUG b\n\n8,8");
        let (sender, receiver) = sync_channel(16);
        read_lines(&text[..], &sender);
        drop(sender);
        let lines: Vec<String> = receiver.iter().collect();
        assert_eq!(lines[0].len(), MAX_LINE_BYTES);
        assert_eq!(&lines[1..], ["7,7", "MESSAGE a", "DEBUG b", "8,8"]);
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
