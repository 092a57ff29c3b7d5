//! The bot's check on the referee: every reveal must open its commitment, and the deployment it
//! opens must be the one the game revealed and must agree with every public result. See
//! [`skirmish_protocol::commitment`] for the scheme.
//!
//! This module knows no game. [`Audit::observe`] takes every message a client receives, in order,
//! and keeps, per room, the commitments and how many reveals it checked; it opens each reveal
//! against its commitment and hands the opened deployment to the room's [`GameAudit`], which
//! checks it against that game's public results. Each game that hides deployments has one beside
//! its strategies (`plane::audit`: the shots against the revealed planes; `junqi::audit`: the
//! moves replayed through the rules engine), and [`crate::player::AUDITS`] lists them by
//! [`GameKind`](skirmish_protocol::GameKind); a room of a game with nothing hidden (gomoku,
//! tic-tac-toe) is not followed. A failure means the referee changed a secret deployment after
//! committing to it, or reported a result the deployments cannot give: the bot client logs it as
//! an error.
//!
//! [`check_tournament`] (`skirmish-bots audit`) checks a tournament once it is over: its revealed
//! seed opens the commitment published at the start, no entrant played a deal twice, and every
//! dealt board is the one the seed deals (docs/tournaments.md, "Seeds"), each game's boards by its
//! [`GameAudit::check_deal`].

use std::collections::HashMap;

use skirmish_games::Seat;
use skirmish_protocol::tournament::{
    MatchRecord, MatchState, TournamentId, TournamentState, TournamentStatus,
};
use skirmish_protocol::{Commitment, GameConfig, GameEvent, GameView, Reveal, RoomId, RoomStatus, ServerMsg};
use thiserror::Error;

use crate::player::{AUDITS, audit_of};

/// What the referee got wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AuditError {
    /// A reveal came with no commitment for its seat and round.
    #[error("room {room}: seat {seat} round {round} was revealed but never committed")]
    NoCommitment {
        /// The room.
        room: RoomId,
        /// The seat.
        seat: u8,
        /// The round.
        round: u32,
    },
    /// The reveal does not open the commitment.
    #[error("room {room}: seat {seat} round {round}: the reveal does not match the commitment")]
    DigestMismatch {
        /// The room.
        room: RoomId,
        /// The seat.
        seat: u8,
        /// The round.
        round: u32,
    },
    /// The opened deployment is not the one the game revealed, or cannot be read.
    #[error(
        "room {room}: seat {seat} round {round}: the committed deployment is not the one the game revealed"
    )]
    NotTheRevealedDeployment {
        /// The room.
        room: RoomId,
        /// The seat.
        seat: u8,
        /// The round.
        round: u32,
    },
    /// A public result the committed deployments cannot give.
    #[error("room {room}: {what}")]
    InconsistentResult {
        /// The room.
        room: RoomId,
        /// Which result, in words.
        what: String,
    },
}

/// What a game's audit finds wrong with an opened deployment; [`Audit::observe`] reports it as
/// an [`AuditError`] with the room, seat and round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// The opened deployment is not the one the game revealed for its seat and round, or cannot
    /// be read ([`AuditError::NotTheRevealedDeployment`]).
    NotRevealed,
    /// A public result the opened deployments cannot give, in words
    /// ([`AuditError::InconsistentResult`]).
    Inconsistent(String),
}

/// A dealt deployment in a finished match that is not the one its deal's seed gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotDealt {
    /// Whose deployment.
    pub seat: Seat,
    /// The round it belongs to (0 in a game of one deployment, such as junqi).
    pub round: u32,
}

/// One game's checks on one match of a game that hides deployments: what its public results
/// say, and whether a deployment opened from its commitment agrees with them.
///
/// [`Audit`] keeps one per room of such a game (made from [`crate::player::AUDITS`]) and does the
/// game-free part itself: commitments, digests, counting reveals and letting go of the room.
/// [`check_tournament`] makes a fresh one for each finished dealt match.
pub trait GameAudit: Send + std::fmt::Debug {
    /// Takes the game's view from a snapshot of the room (sent when a client joins or comes
    /// back), so that what happened before the client came is known. Nothing by default.
    fn view(&mut self, view: &GameView) {
        let _ = view;
    }

    /// Takes the match's next public event, in order; `false` when `event` is another game's
    /// (and so not taken).
    fn record(&mut self, event: &GameEvent) -> bool;

    /// Checks `seat`'s deployment for `round`, as opened from its commitment (`deployment` is the
    /// reveal's text, see [`skirmish_protocol::commitment`]), against what the game revealed and
    /// every public result so far.
    ///
    /// # Errors
    /// [`Mismatch::NotRevealed`] when the game revealed no deployment for that seat and round, or
    /// another one, or the text cannot be read; [`Mismatch::Inconsistent`] when a public result
    /// disagrees with it.
    fn open(&mut self, seat: Seat, round: u32, deployment: &str) -> Result<(), Mismatch>;

    /// Whether nothing is left to check in this match, `opened` of its `committed` deployments
    /// having been opened: the audit then lets go of the room.
    fn done(&self, opened: usize, committed: usize) -> bool;

    /// Checks every dealt deployment in `events` (every event of a finished match of `game`,
    /// secret ones included) against the deal whose seed is `deal_seed`
    /// ([`skirmish_protocol::deal`]), returning how many it checked.
    ///
    /// # Errors
    /// The first deployment that is not the one the seed deals.
    fn check_deal(
        &mut self,
        game: &GameConfig,
        events: &[GameEvent],
        deal_seed: u64,
    ) -> Result<usize, NotDealt>;
}

/// What one room of a game that hides deployments has shown so far.
#[derive(Debug, Default)]
struct RoomRecord {
    commitments: Vec<Commitment>,
    /// The game's own checks, once the room's game is known.
    game: Option<Box<dyn GameAudit>>,
    /// Reveals checked so far.
    opened: usize,
}

/// The checks, across every room a client sees.
#[derive(Debug, Default)]
pub struct Audit {
    rooms: HashMap<RoomId, RoomRecord>,
    verified: u64,
}

impl Audit {
    /// An audit that has seen nothing.
    pub fn new() -> Audit {
        Audit::default()
    }

    /// Reveals checked and found good so far.
    pub fn verified(&self) -> u64 {
        self.verified
    }

    /// Rooms whose commitments it still follows: a room is dropped once its game is over and
    /// every reveal checked, so a long-running bot's audit does not grow.
    pub fn rooms_followed(&self) -> usize {
        self.rooms.len()
    }

    /// Takes the next message the client received.
    ///
    /// # Errors
    /// The first thing wrong with a reveal (see [`AuditError`]).
    pub fn observe(&mut self, msg: &ServerMsg) -> Result<(), AuditError> {
        match msg {
            ServerMsg::Room(snapshot) if snapshot.room.status != RoomStatus::Finished => {
                // A game that hides nothing has nothing to check.
                let Some(new) = audit_of(snapshot.view.kind()) else {
                    return Ok(());
                };
                let record = self.rooms.entry(snapshot.room.id).or_default();
                for c in &snapshot.commitments {
                    if !record.commitments.contains(c) {
                        record.commitments.push(c.clone());
                    }
                }
                record.game.get_or_insert_with(new).view(&snapshot.view);
            }
            ServerMsg::Commitment { room, commitment } => {
                self.rooms
                    .entry(*room)
                    .or_default()
                    .commitments
                    .push(commitment.clone());
            }
            ServerMsg::Event { room, event, .. } => {
                let taken = self
                    .rooms
                    .get_mut(room)
                    .and_then(|record| record.game.as_mut())
                    .is_some_and(|game| game.record(event));
                if !taken {
                    // A room whose game is not known yet: the game that hides deployments whose
                    // event this is, if any (a game that hides nothing is not followed).
                    let Some(game) = AUDITS.iter().find_map(|(_, new)| {
                        let mut game = new();
                        game.record(event).then_some(game)
                    }) else {
                        return Ok(());
                    };
                    let record = self.rooms.entry(*room).or_default();
                    if record.game.is_none() {
                        record.game = Some(game);
                    }
                }
                self.let_go_if_done(*room);
            }
            ServerMsg::Reveal { room, reveal } => {
                let record = self.rooms.entry(*room).or_default();
                record.check(*room, reveal)?;
                record.opened += 1;
                self.verified += 1;
                self.let_go_if_done(*room);
            }
            _ => {}
        }
        Ok(())
    }

    /// Drops `room` once its game has nothing left to check.
    fn let_go_if_done(&mut self, room: RoomId) {
        if self.rooms.get(&room).is_some_and(|record| {
            record
                .game
                .as_ref()
                .is_some_and(|game| game.done(record.opened, record.commitments.len()))
        }) {
            self.rooms.remove(&room);
        }
    }
}

impl RoomRecord {
    /// Opens `reveal` against its commitment, then has the game check the opened deployment.
    fn check(&mut self, room: RoomId, reveal: &Reveal) -> Result<(), AuditError> {
        let (seat, round) = (reveal.seat.0, reveal.round);
        let commitment = self
            .commitments
            .iter()
            .find(|c| c.seat == reveal.seat && c.round == round)
            .ok_or(AuditError::NoCommitment { room, seat, round })?;
        if !reveal.verify(commitment) {
            return Err(AuditError::DigestMismatch { room, seat, round });
        }
        let not_revealed = AuditError::NotTheRevealedDeployment { room, seat, round };
        let Some(game) = self.game.as_mut() else {
            return Err(not_revealed);
        };
        game.open(reveal.seat, round, &reveal.deployment)
            .map_err(|mismatch| match mismatch {
                Mismatch::NotRevealed => not_revealed,
                Mismatch::Inconsistent(what) => AuditError::InconsistentResult { room, what },
            })
    }
}

/// What [`check_tournament`] finds wrong with a tournament that is over.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentAuditError {
    /// The tournament still runs: its seed is secret until it is over.
    #[error("the tournament is still running: its seed is revealed when it is over")]
    StillRunning,
    /// The revealed seed and salt do not open the commitment published at the start.
    #[error("the revealed seed and salt do not open the commitment {0} published at the start")]
    SeedMismatch(String),
    /// A dealt board is not the one the seed deals.
    #[error(
        "match {index} (deal {deal}): seat {seat}'s board in round {round} is not the one the seed deals"
    )]
    NotTheDealtBoard {
        /// The match's place in the schedule.
        index: u32,
        /// Its deal.
        deal: u32,
        /// The seat.
        seat: u8,
        /// The round (0 in junqi).
        round: u32,
    },
    /// An entrant was given the same deal twice (bridge's rule broken).
    #[error("entrant {entrant} plays deal {deal} twice")]
    DealTwice {
        /// The entrant (index into the tournament's entrants).
        entrant: usize,
        /// The deal.
        deal: u32,
    },
    /// A dealt match's record is missing or is not the match the schedule shows.
    #[error("match {0}: no record of its deal to check")]
    NoRecord(u32),
}

/// What [`check_tournament`] checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TournamentAudit {
    /// Deals in the schedule.
    pub deals: usize,
    /// Dealt matches whose boards were checked.
    pub matches: usize,
    /// Dealt boards checked (one per seat and plane battle round).
    pub boards: usize,
}

/// Checks a tournament that is over against its revealed seed: the seed and salt open the
/// commitment; no entrant plays a deal twice; and every dealt board in `records` (the finished
/// dealt matches' records, `GET /api/matches/{id}`) is the one [`skirmish_protocol::deal`]
/// derives from the seed, seat by seat and round by round. A finished dealt match without a
/// record in `records` is an error.
///
/// # Errors
/// The first thing wrong (see [`TournamentAuditError`]).
pub fn check_tournament(
    status: &TournamentStatus,
    records: &[MatchRecord],
) -> Result<TournamentAudit, TournamentAuditError> {
    use skirmish_protocol::deal;
    if status.summary.state == TournamentState::Running {
        return Err(TournamentAuditError::StillRunning);
    }
    let commitment = &status.seed;
    let Some(seed) = commitment.seed.filter(|_| commitment.verifies()) else {
        return Err(TournamentAuditError::SeedMismatch(commitment.sha256.clone()));
    };
    let mut audit = TournamentAudit::default();
    let mut seen: HashMap<u32, Vec<usize>> = HashMap::new();
    for m in &status.schedule {
        let Some(number) = m.deal else { continue };
        let entrants = seen.entry(number).or_default();
        for e in &m.seats {
            if entrants.contains(e) {
                return Err(TournamentAuditError::DealTwice {
                    entrant: *e,
                    deal: number,
                });
            }
            entrants.push(*e);
        }
    }
    audit.deals = seen.len();
    for m in status
        .schedule
        .iter()
        .filter(|m| m.deal.is_some() && m.state == MatchState::Finished)
    {
        let number = m.deal.unwrap_or_default();
        let record = records
            .iter()
            .find(|r| r.summary.id == m.id && r.summary.deal == m.deal)
            .ok_or(TournamentAuditError::NoRecord(m.index))?;
        let deal_seed = deal::deal_seed(seed, number);
        if let Some(new) = audit_of(record.game.kind()) {
            audit.boards += new()
                .check_deal(&record.game, &record.events, deal_seed)
                .map_err(
                    |NotDealt { seat, round }| TournamentAuditError::NotTheDealtBoard {
                        index: m.index,
                        deal: number,
                        seat: seat.0,
                        round,
                    },
                )?;
        }
        audit.matches += 1;
    }
    Ok(audit)
}

/// `skirmish-bots audit`: checks a tournament that is over against its revealed seed.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// The server's HTTP base URL.
    #[arg(long, env = "SKIRMISH_SERVER", default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// The tournament (finished or cancelled).
    pub tournament: TournamentId,
}

/// Fetches the tournament's status and every dealt match's record, checks them
/// ([`check_tournament`]) and prints what was checked.
///
/// # Errors
/// The server cannot be reached or refuses, or the check fails.
pub async fn run(args: &AuditArgs) -> anyhow::Result<()> {
    use anyhow::Context;
    let http = reqwest::Client::new();
    let base = args.server.trim_end_matches('/');
    let get = |path: String| {
        let http = http.clone();
        async move {
            let response = http.get(&path).send().await.context("reaching the server")?;
            let status = response.status();
            let body = response.text().await?;
            anyhow::ensure!(
                status.is_success(),
                "{path}: the server refused ({status}): {body}"
            );
            Ok::<String, anyhow::Error>(body)
        }
    };
    let status: TournamentStatus =
        serde_json::from_str(&get(format!("{base}/api/tournaments/{}", args.tournament)).await?)?;
    if status.summary.state == TournamentState::Running {
        anyhow::bail!(TournamentAuditError::StillRunning);
    }
    let mut records = Vec::new();
    for m in &status.schedule {
        if m.deal.is_some() && m.state == MatchState::Finished {
            let record: MatchRecord =
                serde_json::from_str(&get(format!("{base}/api/matches/{}", m.id)).await?)?;
            records.push(record);
        }
    }
    let audit = check_tournament(&status, &records)?;
    println!(
        "seed {} opens the commitment {}; no entrant plays a deal twice ({} deals); {} dealt boards in {} matches are the ones the seed deals",
        status.seed.seed.unwrap_or_default(),
        status.seed.sha256,
        audit.deals,
        audit.boards,
        audit.matches
    );
    Ok(())
}
