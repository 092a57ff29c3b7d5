//! One outside engine process driven over its stdin and stdout, line by line: the machinery the
//! gomoku ([`crate::piskvork`]) and junqi ([`crate::caai`]) engine drivers share.
//!
//! [`EngineProcess::spawn`] starts the program with piped stdio; a reader thread forwards its
//! stdout line by line (each cut to [`MAX_LINE_BYTES`]) and another logs its stderr, so that a
//! driver waits for a line with a deadline ([`EngineProcess::next_line`]) and never blocks on a
//! silent or chatty engine.
//!
//! The engine runs as the leader of a process group of its own (`setpgid(0, 0)` at spawn), and
//! killing it sends `SIGKILL` to that whole group: helpers an engine forks (a search worker, a
//! shell wrapper's child) die with it instead of living on as orphans (issue 19 found 22 after a
//! bench run). The process is killed and reaped when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use tracing::debug;

/// The longest line read from an engine, in bytes; the rest of a longer line is dropped (the
/// piskvork protocol asks a manager to survive "a gigabyte message").
pub(crate) const MAX_LINE_BYTES: usize = 4096;

/// Lines buffered between the engine's stdout reader thread and the driver.
const LINE_QUEUE: usize = 1024;

/// How long a dying engine gets to report its exit status, or to leave after its driver's last
/// word (`END`).
pub(crate) const EXIT_WAIT: Duration = Duration::from_millis(500);

/// The time an engine gets for one move, from a room's move clock and the bot's think time.
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
    /// The limits for a move under a room clock of `move_ms` milliseconds (0: none) for a bot
    /// that thinks for `think`. The engine thinks for `think`; the driver waits a grace of
    /// half that again, at least 1 s, for an engine that runs late. Under a room clock
    /// (`move_ms > 0`) both fit in the clock minus a margin for the network (a tenth of the
    /// clock, at least 200 ms), the grace keeping at least 500 ms (or a quarter of what the clock
    /// leaves, when less), so that a late engine makes its seat resign rather than time out.
    pub fn from_clock(move_ms: u64, think: Duration) -> TurnLimits {
        let think = u64::try_from(think.as_millis()).unwrap_or(u64::MAX).max(1);
        let limits = TurnLimits {
            turn_ms: think,
            grace_ms: (think / 2).max(1000),
            room_ms: None,
        };
        if move_ms == 0 {
            return limits;
        }
        let available = move_ms.saturating_sub((move_ms / 10).max(200));
        TurnLimits {
            room_ms: Some(available),
            ..limits.fit(available)
        }
    }

    /// These limits cut to fit in `left_ms` milliseconds.
    pub(crate) fn fit(self, left_ms: u64) -> TurnLimits {
        let least_grace = (left_ms / 4).min(500);
        let turn_ms = self.turn_ms.min(left_ms.saturating_sub(least_grace)).max(1);
        TurnLimits {
            turn_ms,
            grace_ms: self.grace_ms.min(left_ms.saturating_sub(turn_ms)),
            room_ms: self.room_ms,
        }
    }

    /// How long the driver waits for a move.
    pub(crate) fn wait(self) -> Duration {
        Duration::from_millis(self.turn_ms + self.grace_ms)
    }
}

/// What went wrong with the process itself (rather than with what it said).
#[derive(Debug)]
pub(crate) enum ProcessError {
    /// The process could not be started.
    Spawn(std::io::Error),
    /// The process ended.
    Exited(ExitStatus),
    /// The process closed its output (or input) but kept running.
    ClosedOutput,
    /// No line in time, after this many milliseconds, while waiting for `what`.
    TimedOut {
        /// How long the driver waited, in milliseconds.
        waited_ms: u128,
        /// What it waited for, for the reason ("waiting for a move").
        what: &'static str,
    },
}

impl std::fmt::Display for ProcessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProcessError::Spawn(err) => write!(f, "failed to start ({err})"),
            ProcessError::Exited(status) => write!(f, "crashed ({status})"),
            ProcessError::ClosedOutput => write!(f, "closed its output"),
            ProcessError::TimedOut { waited_ms, what } => {
                write!(f, "timed out after {waited_ms} ms ({what})")
            }
        }
    }
}

/// One running engine process.
pub(crate) struct EngineProcess {
    /// The engine's name in logs.
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's stdout, line by line, from a reader thread; disconnected at end of file.
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `program` with `args`, its stdin, stdout and stderr piped, as the leader of a new
    /// process group (so that [`EngineProcess::kill`] reaches whatever it forks); `name` names it
    /// in logs and thread names.
    pub(crate) fn spawn(program: &Path, args: &[String], name: &str) -> Result<EngineProcess, ProcessError> {
        let mut child = Command::new(program)
            .args(args)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(ProcessError::Spawn)?;
        debug!(engine = %name, pid = child.id(), "engine started");
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = sync_channel(LINE_QUEUE);
        // From here on, a failure drops `process`, which kills the child.
        let process = EngineProcess {
            name: name.to_owned(),
            child,
            stdin,
            lines,
        };
        std::thread::Builder::new()
            .name(format!("{name} stdout"))
            .spawn(move || read_lines(stdout, &sender))
            .map_err(ProcessError::Spawn)?;
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
            .map_err(ProcessError::Spawn)?;
        Ok(process)
    }

    /// The process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `text` with each of its lines ended by `line_end` (`"\r\n"` or `"\n"`).
    pub(crate) fn send(&mut self, text: &str, line_end: &str) -> Result<(), ProcessError> {
        let mut bytes = String::with_capacity(text.len() + 2);
        for line in text.split('\n') {
            bytes.push_str(line);
            bytes.push_str(line_end);
        }
        match self
            .stdin
            .write_all(bytes.as_bytes())
            .and_then(|()| self.stdin.flush())
        {
            Ok(()) => Ok(()),
            Err(err) => {
                debug!(engine = %self.name, cause = %err, "cannot write to the engine");
                Err(self.died())
            }
        }
    }

    /// The engine's next line (trimmed, never empty), before `deadline`; `what` names what the
    /// driver waits for, in the timeout's error.
    pub(crate) fn next_line(
        &mut self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<String, ProcessError> {
        let asked = Instant::now();
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::TimedOut {
                waited_ms: asked.elapsed().as_millis(),
                what,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.died()),
        }
    }

    /// Logs and drops what the engine said since its last answer, so that no stray line is taken
    /// for the next one.
    pub(crate) fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            debug!(engine = %self.name, %line, "engine says, between moves");
        }
    }

    /// What became of an engine whose output or input closed: its exit status if it exits within
    /// [`EXIT_WAIT`], else [`ProcessError::ClosedOutput`].
    pub(crate) fn died(&mut self) -> ProcessError {
        let until = Instant::now() + EXIT_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return ProcessError::Exited(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => return ProcessError::ClosedOutput,
            }
        }
    }

    /// Writes `last_words` (with `line_end`), gives the engine [`EXIT_WAIT`] to leave, then kills
    /// it.
    pub(crate) fn end(&mut self, last_words: &str, line_end: &str) {
        let _ = self
            .stdin
            .write_all(format!("{last_words}{line_end}").as_bytes())
            .and_then(|()| self.stdin.flush());
        let until = Instant::now() + EXIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process's whole group (the engine and everything it forked that did not leave
    /// the group) and reaps the engine.
    pub(crate) fn kill(&mut self) {
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
        debug!(engine = %self.name, pid = self.child.id(), "engine stopped");
    }
}

impl Drop for EngineProcess {
    /// Kills the engine if it still runs, and in any case what is left of its process group (an
    /// engine that exited may have left children behind).
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        } else {
            kill_group(&self.child);
        }
    }
}

/// Sends `SIGKILL` to the process group `child` leads (its id is the group's, see
/// [`EngineProcess::spawn`]). A group already gone (`ESRCH`) is not an error: there is nothing
/// left to kill.
fn kill_group(child: &Child) {
    let group = rustix::process::Pid::from_child(child);
    if let Err(err) = rustix::process::kill_process_group(group, rustix::process::Signal::KILL)
        && err != rustix::io::Errno::SRCH
    {
        debug!(pid = child.id(), cause = %err, "cannot kill the engine's process group");
    }
}

/// `deadline`, or `cap` when that comes first.
pub(crate) fn cap(deadline: Instant, cap: Option<Instant>) -> Instant {
    cap.map_or(deadline, |c| c.min(deadline))
}

/// `text` cut to at most `max` bytes, on a character boundary.
pub(crate) fn truncate(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// The first word of an engine's line, upper-cased, for the protocols' line kinds.
pub(crate) fn keyword(line: &str) -> String {
    line.split_whitespace().next().unwrap_or("").to_ascii_uppercase()
}

/// Forwards `stdout`'s lines (ended by LF, CR or both; trimmed; empty ones skipped) until end of
/// file or until the driver is gone.
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
    fn truncation_keeps_whole_characters() {
        let cut = truncate("é".repeat(300), 201);
        assert_eq!(cut.len(), 200);
        assert_eq!(truncate("short".into(), 200), "short");
    }
}
