//! A driver for outside junqi engines that speak the CAAI junqi protocol 1.0 over their stdin and
//! stdout (docs/rules.md, junqi, "The CAAI engine protocol"), as a [`JunqiStrategy`].
//!
//! [`CaaiStrategy`] starts its engine in [`deploy`](JunqiStrategy::deploy): `INFO 1.0` (the engine
//! answers `NAME <name>`), `START <first> <seconds> <steps>` (it answers `ARRAY <25 letters>`, its
//! layout). At each of its turns, [`act`](JunqiStrategy::act) tells the engine what it has not
//! been told yet, from the seat's [`View`]: `RESULT <r> <flag>` for its own last move, then
//! `GO <from><to> <r> <flag>` with the opponent's reply (`GO 0000 0 00` for the first move of the
//! game), and checks the engine's `BESTMOVE <from><to>` against the position. When the game is
//! over, [`finish`](JunqiStrategy::finish) says `END <w>` and the engine is stopped.
//!
//! The engine sees its own side at the bottom, rows G-L: for seat 1 every post is turned 180
//! degrees ([`Post::turned`]) both ways. Its `ARRAY` is in its own frame already, as [`Layout`]
//! is.
//!
//! The engine's failures never reach the referee as illegal actions and never hang a seat: when the
//! engine cannot be started, exits, answers something other than the expected line, gives an
//! illegal layout or move, or does not answer in time, the strategy kills it and the seat resigns
//! with the reason (at most [`MAX_REASON_BYTES`] bytes): `deploy` returns it as its error (the
//! client resigns), `act` returns [`Action::Resign`]. The driver writes lines ended by `\n`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::junqi::{
    Action, Layout, MAX_REASON_BYTES, Move, MoveRecord, MoveResult, Outcome, Phase, Post, Rank, View,
};
use skirmish_games::{Seat, Viewer};
use tracing::{debug, warn};

use crate::engine_process::{EngineProcess, ProcessError, TurnLimits, cap, keyword, truncate};
use crate::junqi::random::own_side_position;
use crate::junqi::{Budget, JunqiStrategy};

/// The game its engines play (junqi): the bot client offers them for it alone.
pub const GAME: skirmish_protocol::GameKind = skirmish_protocol::GameKind::Junqi;

/// How long an engine may take from its start to its `ARRAY` (answering `INFO` and `START`), at
/// most; capped by the room's deployment clock.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The line end the driver writes.
const LINE_END: &str = "\n";

/// The protocol version the driver speaks (`INFO 1.0`; docs/rules.md, junqi).
pub const PROTOCOL_VERSION: &str = "1.0";

/// A post as the engine of `seat` sees it: itself for seat 0, turned for seat 1 (the same map both
/// ways).
pub fn engine_post(post: Post, seat: Seat) -> Post {
    post.in_frame_of(seat)
}

/// The `flag` field of `GO` and `RESULT`: the opponent's flag post in the engine's frame once
/// revealed, else `00`.
fn flag_field(flag: Option<Post>, seat: Seat) -> String {
    flag.map_or_else(|| "00".to_owned(), |post| engine_post(post, seat).to_string())
}

/// The `GO` line telling the engine of `seat` the opponent's move `record` (in the engine's frame,
/// with the result digit from the mover's side), or the first move's `GO 0000 0 00`.
pub fn go_line(record: Option<&MoveRecord>, flag: Option<Post>, seat: Seat) -> String {
    match record {
        Some(record) => format!(
            "GO {}{} {} {}",
            engine_post(record.from, seat),
            engine_post(record.to, seat),
            record.result.caai_digit(),
            flag_field(flag, seat)
        ),
        None => "GO 0000 0 00".to_owned(),
    }
}

/// The `RESULT` line telling the engine of `seat` what its own move `record` did.
pub fn result_line(record: &MoveRecord, flag: Option<Post>, seat: Seat) -> String {
    format!("RESULT {} {}", record.result.caai_digit(), flag_field(flag, seat))
}

/// Whether the opponent's flag, found revealed when the engine is next told the news, belongs in
/// the `RESULT` of the engine's own move rather than in the `GO` of the opponent's reply: whether
/// that move, and not the reply, can have killed the opponent's field marshal (the flag is
/// revealed when it falls; docs/rules.md, "3. Junqi").
///
/// Only a trade can kill a field marshal that the engine's move meets (nothing outranks it), and
/// only when the engine's piece was its own field marshal or a bomb (`mover`). The reply kills
/// its field marshal by attacking a landmine (`Lost`) or by a trade with the engine's field
/// marshal or a bomb (`defender`, the engine's piece it attacked). When both could have, the
/// driver cannot tell which did and tells the flag with the reply, a message late rather than
/// early.
pub fn flag_in_result(
    mover: Option<Rank>,
    result: MoveResult,
    reply: Option<(MoveResult, Option<Rank>)>,
) -> bool {
    let trades_marshal = |rank: Option<Rank>| matches!(rank, Some(Rank::FieldMarshal | Rank::Bomb));
    let mine = result == MoveResult::Traded && trades_marshal(mover);
    let theirs = reply.is_some_and(|(result, defender)| match result {
        MoveResult::Lost => defender == Some(Rank::Landmine),
        MoveResult::Traded => trades_marshal(defender),
        MoveResult::Moved | MoveResult::Won => false,
    });
    mine && !theirs
}

/// The `END` digit for `seat` in `outcome`: 1 won, 0 lost, 2 otherwise (a draw: the protocol has
/// no draw, so it is reported as "abnormal").
pub fn end_digit(outcome: &Outcome, seat: Seat) -> u8 {
    match outcome.winner {
        Some(winner) if winner == seat => 1,
        Some(_) => 0,
        None => 2,
    }
}

/// Plays a seat with an outside engine that speaks the CAAI junqi protocol, one engine process
/// per strategy (so per seat and game): started by `deploy`, ended by `finish` (`END <w>`) or,
/// without it, on drop (`END 2`), then killed.
pub struct CaaiStrategy {
    program: PathBuf,
    args: Vec<String>,
    /// The engine's name in resignation reasons and logs: its file name.
    name: String,
    /// The thinking time per game told in `START`, in seconds; `None`: the per-move think time.
    game_seconds: Option<u32>,
    engine: Option<Engine>,
    /// Whether the engine failed (the strategy resigned for it).
    failed: bool,
}

impl std::fmt::Debug for CaaiStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaaiStrategy")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("game_seconds", &self.game_seconds)
            .field("running", &self.engine_pid())
            .finish()
    }
}

impl CaaiStrategy {
    /// A strategy that runs the engine at `program` (nothing is started yet).
    pub fn new(program: impl Into<PathBuf>) -> CaaiStrategy {
        CaaiStrategy::with_args(program, Vec::new())
    }

    /// A strategy that runs `program` with `args`.
    pub fn with_args(program: impl Into<PathBuf>, args: Vec<String>) -> CaaiStrategy {
        let program = program.into();
        let name = program.file_name().map_or_else(
            || program.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        CaaiStrategy {
            program,
            args,
            name,
            game_seconds: None,
            engine: None,
            failed: false,
        }
    }

    /// Tells the engine it has `seconds` of thinking time per game (`START`'s second field; the
    /// CAAI championship gives 1800). By default the engine is told the per-move think time
    /// ([`Budget::think`], in whole seconds, at least 1): the driver's limit is per move, so an
    /// engine that paces itself on a per-game figure is told one it cannot overrun in a move.
    /// Whatever it is told, the driver still stops waiting after the move's time plus a grace.
    #[must_use]
    pub fn game_seconds(mut self, seconds: u32) -> CaaiStrategy {
        self.game_seconds = Some(seconds);
        self
    }

    /// The engine's process id while it runs.
    pub fn engine_pid(&self) -> Option<u32> {
        self.engine.as_ref().map(|e| e.process.id())
    }

    /// `failure` as a resignation reason: the engine's name first, at most [`MAX_REASON_BYTES`].
    fn reason(&self, failure: &Failure) -> String {
        truncate(format!("{}: {failure}", self.name), MAX_REASON_BYTES)
    }

    /// Starts the engine for the seat looking at `view` and reads its layout.
    fn start(&mut self, view: &View, budget: Budget) -> Result<Layout, Failure> {
        let Viewer::Seat(seat) = view.viewer else {
            return Err(Failure::NotASeat);
        };
        if seat.0 > 1 {
            return Err(Failure::NotASeat);
        }
        self.stop(None);
        let started = Instant::now();
        let limits = TurnLimits::from_clock(budget.move_ms, budget.think);
        let deadline = cap(
            started + START_TIMEOUT,
            limits.room_ms.map(|ms| started + Duration::from_millis(ms)),
        );
        let process = EngineProcess::spawn(&self.program, &self.args, &self.name)?;
        let engine = self.engine.insert(Engine {
            process,
            seat,
            told: 0,
            awaiting_result: None,
            own_ranks: Vec::new(),
            flag_known: false,
        });
        engine.send(&format!("INFO {PROTOCOL_VERSION}"))?;
        let line = engine.expect("NAME", deadline, "waiting for NAME")?;
        debug!(engine = %self.name, name = line.get(5..).unwrap_or(""), "engine named itself");
        let seconds = self
            .game_seconds
            .unwrap_or_else(|| u32::try_from(budget.think.as_secs().max(1)).unwrap_or(u32::MAX));
        // docs/rules.md: first 0 means the engine moves first; seat 0 (red) always does.
        let first = u8::from(seat != Seat(0));
        engine.send(&format!("START {first} {seconds} {}", view.no_attack_limit))?;
        let line = engine.expect("ARRAY", deadline, "waiting for ARRAY")?;
        let layout: Layout = line.parse().map_err(|_| Failure::Illegal {
            what: "layout",
            answer: line.clone(),
            why: "not 25 piece letters a to l".into(),
        })?;
        layout.check().map_err(|err| Failure::Illegal {
            what: "layout",
            answer: line.clone(),
            why: err.to_string(),
        })?;
        Ok(layout)
    }

    /// Tells the engine what happened since its last move and reads its next one, in the
    /// absolute frame.
    fn play(&mut self, view: &View, budget: Budget) -> Result<Move, Failure> {
        let Viewer::Seat(seat) = view.viewer else {
            return Err(Failure::NotASeat);
        };
        if view.phase != Phase::Battle || view.to_move != Some(seat) {
            return Err(Failure::NotToMove);
        }
        let engine = self.engine.as_mut().ok_or(Failure::NotRunning)?;
        if engine.seat != seat {
            return Err(Failure::OutOfSync(format!(
                "its engine plays {}, not {seat}",
                engine.seat
            )));
        }
        let deadline = Instant::now() + TurnLimits::from_clock(budget.move_ms, budget.think).wait();
        engine.process.drain();
        let opponent = Seat(1 - seat.0);
        let flag = view.revealed_flags.0.get(opponent.index()).copied().flatten();
        let new = view.moves.get(engine.told..).ok_or_else(|| {
            Failure::OutOfSync(format!(
                "the game has {} moves, fewer than the engine was told",
                view.moves.len()
            ))
        })?;
        let mut new = new.iter();
        let mine = match engine.awaiting_result {
            Some(mine) => Some(
                new.next()
                    .filter(|r| r.seat == seat && r.from == mine.from && r.to == mine.to)
                    .ok_or_else(|| Failure::OutOfSync(format!("its move {mine} is not in the record")))?,
            ),
            None => None,
        };
        let reply = new.next();
        if let Some(record) = mine {
            // The flag belongs with this RESULT if it was known before, or if this move (and not
            // the reply) revealed it; else the reply's GO carries it.
            let rank_at = |post: Post| engine.own_ranks.iter().find(|(p, _)| *p == post).map(|(_, r)| *r);
            let mover = rank_at(record.from);
            let defender = reply.map(|r| {
                if matches!(record.result, MoveResult::Moved | MoveResult::Won) && r.to == record.to {
                    mover
                } else if r.to == record.from {
                    None
                } else {
                    rank_at(r.to)
                }
            });
            let known = engine.flag_known
                || flag_in_result(mover, record.result, reply.map(|r| r.result).zip(defender));
            engine.send(&result_line(record, flag.filter(|_| known), seat))?;
        }
        if new.next().is_some() {
            return Err(Failure::OutOfSync(
                "more moves than one reply since its last".into(),
            ));
        }
        match reply {
            Some(record) if record.seat == opponent => {}
            None if view.moves.is_empty() => {}
            _ => return Err(Failure::OutOfSync("no reply of the opponent to pass on".into())),
        }
        engine.send(&go_line(reply, flag, seat))?;
        engine.flag_known = flag.is_some();
        engine.told = view.moves.len();
        let line = engine.expect("BESTMOVE", deadline, "waiting for BESTMOVE")?;
        let mut words = line.split_whitespace().skip(1);
        let answer = words.next().filter(|_| words.next().is_none()).unwrap_or("");
        let illegal = |why: String| Failure::Illegal {
            what: "move",
            answer: line.clone(),
            why,
        };
        let told: Move = answer
            .parse()
            .ok()
            .filter(|_| answer.len() == 4)
            .ok_or_else(|| illegal("not two posts like G0F0".into()))?;
        let mv = Move {
            from: engine_post(told.from, seat),
            to: engine_post(told.to, seat),
        };
        own_side_position(view, seat)
            .check_move(seat, mv)
            .map_err(|err| {
                illegal(if mv == told {
                    err.to_string()
                } else {
                    format!("{mv} on the board: {err}")
                })
            })?;
        engine.awaiting_result = Some(mv);
        engine.own_ranks = view
            .pieces
            .iter()
            .filter(|p| p.owner == seat)
            .filter_map(|p| Some((p.post, p.rank?)))
            .collect();
        Ok(mv)
    }

    /// Ends the engine, if one runs: `END <w>` (2 when `outcome` is unknown), a moment to leave,
    /// then killed; on a blocking thread when called inside a tokio runtime (the bot client runs
    /// its rooms on one), so that waiting for the engine to leave holds up no other room.
    fn stop(&mut self, outcome: Option<&Outcome>) {
        if let Some(mut engine) = self.engine.take() {
            let w = outcome.map_or(2, |o| end_digit(o, engine.seat));
            let mut end = move || engine.process.end(&format!("END {w}"), LINE_END);
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => drop(runtime.spawn_blocking(end)),
                Err(_) => end(),
            }
        }
    }

    /// Kills the engine after a failure and gives the reason.
    fn fail(&mut self, failure: &Failure) -> String {
        let reason = self.reason(failure);
        self.failed = true;
        warn!(engine = %self.name, %reason, "the engine failed: resigning");
        if let Some(mut engine) = self.engine.take() {
            engine.process.kill();
        }
        reason
    }
}

impl JunqiStrategy for CaaiStrategy {
    /// Starts the engine and returns its `ARRAY`.
    ///
    /// # Errors
    /// The resignation reason when the engine cannot be started, exits, answers something else
    /// than `NAME` then `ARRAY`, gives an illegal layout, or takes longer than [`START_TIMEOUT`]
    /// (or the room's deployment clock less a margin); the engine is killed.
    fn deploy(&mut self, view: &View, budget: Budget, _rng: &mut dyn RngCore) -> Result<Layout, String> {
        self.start(view, budget).map_err(|failure| self.fail(&failure))
    }

    fn act(&mut self, view: &View, budget: Budget, _rng: &mut dyn RngCore) -> Action {
        match self.play(view, budget) {
            Ok(mv) => Action::Move {
                from: mv.from,
                to: mv.to,
            },
            Err(failure) => Action::Resign {
                reason: Some(self.fail(&failure)),
            },
        }
    }

    fn engine_failed(&self) -> bool {
        self.failed
    }

    fn finish(&mut self, seat: Seat, outcome: &Outcome) {
        if self.engine.as_ref().is_some_and(|e| e.seat == seat) {
            self.stop(Some(outcome));
        }
    }
}

impl Drop for CaaiStrategy {
    /// Ends the engine that still runs (`END 2`: the driver does not know how the game ended).
    fn drop(&mut self) {
        self.stop(None);
    }
}

/// Why the engine gave no layout or move.
#[derive(Debug)]
enum Failure {
    /// The view is not a seat's.
    NotASeat,
    /// It is not the seat's turn in the battle.
    NotToMove,
    /// No engine runs for this seat (it did not deploy this seat's layout, or failed before).
    NotRunning,
    /// The view does not follow on from what the engine was told.
    OutOfSync(String),
    /// The process failed to start, ended, closed its output or did not answer in time.
    Process(ProcessError),
    /// A line other than the one expected.
    Garbled { expected: &'static str, line: String },
    /// A layout or a move that breaks the rules.
    Illegal {
        what: &'static str,
        answer: String,
        why: String,
    },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NotASeat => write!(f, "asked to play for a spectator"),
            Failure::NotToMove => write!(f, "asked to move when it is not its turn"),
            Failure::NotRunning => write!(f, "the engine is not running (it did not deploy this seat)"),
            Failure::OutOfSync(why) => write!(f, "out of step with the game ({why})"),
            Failure::Process(err) => err.fmt(f),
            Failure::Garbled { expected, line } => {
                write!(
                    f,
                    "answered `{}` instead of {expected}",
                    truncate(line.clone(), 60)
                )
            }
            Failure::Illegal { what, answer, why } => {
                write!(f, "illegal {what} `{}` ({why})", truncate(answer.clone(), 60))
            }
        }
    }
}

impl From<ProcessError> for Failure {
    fn from(err: ProcessError) -> Failure {
        Failure::Process(err)
    }
}

/// One running engine process and what it has been told.
struct Engine {
    process: EngineProcess,
    /// The seat it plays.
    seat: Seat,
    /// How many of the game's move records the engine knows (its own moves included).
    told: usize,
    /// Its last move (absolute frame), whose `RESULT` it has not been told yet.
    awaiting_result: Option<Move>,
    /// Its own pieces' posts and ranks when it made that move, to tell which move revealed a flag
    /// ([`flag_in_result`]).
    own_ranks: Vec<(Post, Rank)>,
    /// Whether its last `GO` carried the opponent's flag.
    flag_known: bool,
}

impl Engine {
    /// Writes `text` and a line end.
    fn send(&mut self, text: &str) -> Result<(), Failure> {
        debug!(pid = self.process.id(), %text, "to the engine");
        Ok(self.process.send(text, LINE_END)?)
    }

    /// The engine's next line, which must start with `keyword`, before `deadline`.
    fn expect(
        &mut self,
        expected: &'static str,
        deadline: Instant,
        what: &'static str,
    ) -> Result<String, Failure> {
        let line = self.process.next_line(deadline, what)?;
        debug!(pid = self.process.id(), %line, "from the engine");
        if keyword(&line) == expected {
            Ok(line)
        } else {
            Err(Failure::Garbled { expected, line })
        }
    }
}

#[cfg(test)]
mod tests {
    use skirmish_games::junqi::MoveResult;

    use super::*;

    fn record(seat: u8, mv: &str, result: MoveResult) -> MoveRecord {
        let mv: Move = mv.parse().expect("a move");
        MoveRecord {
            number: 1,
            seat: Seat(seat),
            from: mv.from,
            to: mv.to,
            result,
        }
    }

    #[test]
    fn seat_one_sees_the_board_turned() {
        // Seat 0's G0-F0 is, for seat 1's engine, its enemy coming from F4 to G4.
        let opening = record(0, "G0F0", MoveResult::Moved);
        assert_eq!(go_line(Some(&opening), None, Seat(1)), "GO F4G4 3 00");
        assert_eq!(go_line(Some(&opening), None, Seat(0)), "GO G0F0 3 00");
        assert_eq!(go_line(None, None, Seat(0)), "GO 0000 0 00");
        // Seat 0's flag at L3 stands at A1 in seat 1's engine's frame.
        let flag: Post = "L3".parse().expect("a post");
        let attack = record(0, "G2F2", MoveResult::Lost);
        assert_eq!(go_line(Some(&attack), Some(flag), Seat(1)), "GO F2G2 0 A1");
        let own = record(1, "F2G2", MoveResult::Won);
        assert_eq!(result_line(&own, None, Seat(1)), "RESULT 1 00");
        assert_eq!(
            result_line(&own, Some("A1".parse().expect("a post")), Seat(0)),
            "RESULT 1 A1"
        );
    }

    /// Issue 19: `BESTMOVE G2F2` won (`RESULT 1`), then the opponent's field marshal died attacking
    /// a landmine: the CAAI referee says `RESULT 1 00` and `GO F1F2 0 A3`, not `RESULT 1 A3`.
    #[test]
    fn the_flag_is_told_with_the_move_that_revealed_it() {
        use MoveResult::{Lost, Moved, Traded, Won};
        use Rank::{Bomb, Captain, FieldMarshal, Landmine};
        // The engine's move won or moved: it cannot have killed the marshal.
        assert!(!flag_in_result(Some(Captain), Won, Some((Lost, Some(Landmine)))));
        assert!(!flag_in_result(Some(FieldMarshal), Moved, None));
        assert!(!flag_in_result(Some(FieldMarshal), Won, Some((Moved, None))));
        // A trade of the engine's marshal or bomb, and a quiet reply: the RESULT tells it.
        assert!(flag_in_result(Some(FieldMarshal), Traded, Some((Moved, None))));
        assert!(flag_in_result(Some(Bomb), Traded, Some((Won, Some(Captain)))));
        assert!(flag_in_result(Some(Bomb), Traded, None));
        // A trade of a lesser piece cannot involve the marshal.
        assert!(!flag_in_result(Some(Captain), Traded, Some((Moved, None))));
        // Both could have: the reply's GO tells it (a message late, never early).
        assert!(!flag_in_result(Some(Bomb), Traded, Some((Lost, Some(Landmine)))));
        assert!(!flag_in_result(
            Some(FieldMarshal),
            Traded,
            Some((Traded, Some(Bomb)))
        ));
        // A reply that lost against a piece other than a landmine did not lose the marshal.
        assert!(flag_in_result(Some(Bomb), Traded, Some((Lost, Some(Captain)))));
    }

    #[test]
    fn the_end_digit_is_from_the_seats_side() {
        let outcome = |winner| Outcome {
            winner,
            end: skirmish_games::junqi::End::NeitherCanMove,
            moves: 0,
            layouts: skirmish_games::PerSeat(vec![None, None]),
            pieces: Vec::new(),
        };
        assert_eq!(end_digit(&outcome(Some(Seat(0))), Seat(0)), 1);
        assert_eq!(end_digit(&outcome(Some(Seat(0))), Seat(1)), 0);
        assert_eq!(end_digit(&outcome(None), Seat(1)), 2);
    }

    #[test]
    fn reasons_fit_the_referee() {
        let failure = Failure::Illegal {
            what: "move",
            answer: "z".repeat(500),
            why: "not two posts like G0F0".into(),
        };
        assert!(failure.to_string().len() < 120);
        let strategy = CaaiStrategy::new("/x/".to_owned() + &"é".repeat(300));
        assert!(strategy.reason(&failure).len() <= MAX_REASON_BYTES);
    }
}
