//! A minimal driver for a piskvork (Gomocup) brain, used by `gomoku-bench --b-engine` until the
//! full adapter (`crate::piskvork`, branch `gomoku-pisk`) is merged: it sends the whole position
//! with `BOARD` each move and reads the answer, with no timeout of its own and no restart.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use rand::RngCore;
use skirmish_games::gomoku::{Action, Point, Rule, View};

use super::{Budget, GomokuStrategy};

/// A running piskvork brain playing one game.
pub struct Pbrain {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    started: bool,
}

impl Pbrain {
    /// Starts the brain program at `path`.
    ///
    /// # Errors
    /// When the program cannot be started.
    pub fn spawn(path: &Path) -> std::io::Result<Pbrain> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(Pbrain {
            child,
            stdin,
            stdout,
            started: false,
        })
    }

    fn line(&mut self) -> Result<String, String> {
        let mut s = String::new();
        match self.stdout.read_line(&mut s) {
            Ok(0) => Err("the engine closed its output".to_owned()),
            Ok(_) => Ok(s.trim().to_owned()),
            Err(e) => Err(format!("reading the engine: {e}")),
        }
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("writing to the engine: {e}"))
    }

    fn decide(&mut self, view: &View, budget: Budget) -> Result<Point, String> {
        let size = view.size;
        if !self.started {
            self.send(&format!("START {size}\n"))?;
            loop {
                let l = self.line()?;
                if l.starts_with("OK") {
                    break;
                }
                if l.starts_with("ERROR") {
                    return Err(l);
                }
            }
            let rule = match view.rule {
                Rule::Freestyle => 0,
                Rule::Standard => 1,
                Rule::Renju => 4,
            };
            let ms = budget.think.as_millis();
            self.send(&format!(
                "INFO timeout_turn {ms}\nINFO timeout_match 1000000000\nINFO time_left 1000000000\nINFO rule {rule}\n"
            ))?;
            self.started = true;
        }
        let me = view.stone_to_move().ok_or("the game is over")?;
        let mut text = String::from("BOARD\n");
        for m in &view.moves {
            // piskvork counts rows from the top.
            let who = if m.stone == me { 1 } else { 2 };
            text += &format!("{},{},{who}\n", m.point.x, size - 1 - m.point.y);
        }
        text += "DONE\n";
        self.send(&text)?;
        loop {
            let l = self.line()?;
            if l.starts_with("ERROR") || l.starts_with("UNKNOWN") {
                return Err(l);
            }
            if let Some((x, y)) = l.split_once(',')
                && let (Ok(x), Ok(y)) = (x.trim().parse::<u8>(), y.trim().parse::<u8>())
            {
                if x < size && y < size {
                    return Ok(Point::new(x, size - 1 - y));
                }
                return Err(format!("answer off the board: {l}"));
            }
        }
    }
}

impl GomokuStrategy for Pbrain {
    fn act(&mut self, view: &View, budget: Budget, _rng: &mut dyn RngCore) -> Action {
        match self.decide(view, budget) {
            Ok(point) => Action::Place { point },
            Err(reason) => Action::Resign {
                reason: Some(reason.chars().take(150).collect()),
            },
        }
    }
}

impl Drop for Pbrain {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"END\n");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
