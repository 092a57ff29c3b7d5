//! The bot's check on the referee: every reveal must open its commitment, and the deployment it
//! opens must be the one the game revealed and must agree with every public result (plane battle
//! shots; junqi moves, replayed through the rules engine). See
//! [`skirmish_protocol::commitment`] for the scheme.
//!
//! [`Audit::observe`] takes every message a client receives, in order. A failure means the
//! referee changed a secret deployment after committing to it, or reported a result the
//! deployments cannot give: the bot client logs it as an error.
//!
//! [`check_tournament`] (`skirmish-bots audit`) checks a tournament once it is over: its revealed
//! seed opens the commitment published at the start, no entrant played a deal twice, and every
//! dealt board is the one the seed deals (docs/tournaments.md, "Seeds").

use std::collections::HashMap;

use skirmish_games::junqi::{self, Layout, Position};
use skirmish_games::plane::{self, Placement, ShotResult};
use skirmish_games::{PerSeat, Seat};
use skirmish_protocol::tournament::{
    MatchRecord, MatchState, TournamentId, TournamentState, TournamentStatus,
};
use skirmish_protocol::{Commitment, GameConfig, GameEvent, GameView, Reveal, RoomId, RoomStatus, ServerMsg};
use thiserror::Error;

/// The longest board side of plane battle, in cells: cells of a legal plane are the same on any
/// board at least this wide.
const PLANE_SIDE: u8 = 9;

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

/// One plane battle shot as everyone saw it: the target, the cell, the result, the downed plane.
type Shot = (Seat, plane::Cell, ShotResult, Option<Placement>);

/// What one room has shown so far.
#[derive(Debug, Default)]
struct RoomRecord {
    commitments: Vec<Commitment>,
    /// Plane battle: each round's shots (target, cell, result, downed plane).
    shots: HashMap<u32, Vec<Shot>>,
    /// Plane battle: the round being played.
    round: u32,
    /// Plane battle: each finished round's deployments as the game revealed them.
    plane_revealed: HashMap<u32, PerSeat<Vec<Placement>>>,
    /// Junqi: every move, and the layouts the game revealed at the end.
    junqi_moves: Vec<junqi::MoveRecord>,
    junqi_layouts: Option<PerSeat<Option<Layout>>>,
    /// Junqi: the layouts opened so far.
    junqi_opened: [Option<Layout>; 2],
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
            ServerMsg::Room(snapshot)
                if snapshot.room.status != RoomStatus::Finished
                    && !matches!(snapshot.view, GameView::Gomoku(_)) =>
            {
                let record = self.rooms.entry(snapshot.room.id).or_default();
                for c in &snapshot.commitments {
                    if !record.commitments.contains(c) {
                        record.commitments.push(c.clone());
                    }
                }
                if let GameView::Junqi(view) = &snapshot.view {
                    record.junqi_moves.clone_from(&view.moves);
                }
            }
            ServerMsg::Commitment { room, commitment } => {
                self.rooms
                    .entry(*room)
                    .or_default()
                    .commitments
                    .push(commitment.clone());
            }
            // Gomoku hides nothing; a plane battle's last reveals come before its end.
            ServerMsg::Event {
                event: GameEvent::Gomoku(_),
                ..
            } => {}
            ServerMsg::Event {
                room,
                event: GameEvent::Plane(plane::Event::MatchEnded { .. }),
                ..
            } => {
                self.rooms.remove(room);
            }
            ServerMsg::Event { room, event, .. } => self.rooms.entry(*room).or_default().record(event),
            ServerMsg::Reveal { room, reveal } => {
                let record = self.rooms.entry(*room).or_default();
                record.check(*room, reveal)?;
                record.opened += 1;
                self.verified += 1;
                // A junqi game's reveals follow its end: once all are checked, nothing is left.
                if record.junqi_layouts.is_some() && record.opened == record.commitments.len() {
                    self.rooms.remove(room);
                }
            }
            _ => {}
        }
        Ok(())
    }
}

impl RoomRecord {
    fn record(&mut self, event: &GameEvent) {
        match event {
            GameEvent::Plane(plane::Event::RoundStarted { round, .. }) => self.round = *round,
            GameEvent::Plane(plane::Event::Shot {
                target,
                cell,
                result,
                plane,
                ..
            }) => self
                .shots
                .entry(self.round)
                .or_default()
                .push((*target, *cell, *result, *plane)),
            GameEvent::Plane(plane::Event::RoundEnded { result, .. }) => {
                self.plane_revealed
                    .insert(result.round, result.deployments.clone());
            }
            GameEvent::Junqi(junqi::Event::Moved { record }) => self.junqi_moves.push(*record),
            GameEvent::Junqi(junqi::Event::Ended { outcome }) => {
                self.junqi_layouts = Some(outcome.layouts.clone())
            }
            _ => {}
        }
    }

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
        if let Some(deployments) = self.plane_revealed.get(&round) {
            let planes: Vec<Placement> =
                serde_json::from_str(&reveal.deployment).map_err(|_| not_revealed.clone())?;
            if deployments.0.get(usize::from(seat)) != Some(&planes) {
                return Err(not_revealed);
            }
            return self.check_shots(room, reveal.seat, round, &planes);
        }
        if let Some(layouts) = &self.junqi_layouts {
            let layout: Layout = reveal.deployment.parse().map_err(|_| not_revealed.clone())?;
            if layouts.0.get(usize::from(seat)).copied().flatten() != Some(layout) {
                return Err(not_revealed);
            }
            self.junqi_opened[usize::from(seat).min(1)] = Some(layout);
            if let [Some(red), Some(blue)] = self.junqi_opened {
                return self.check_moves(room, [&red, &blue]);
            }
            return Ok(());
        }
        Err(not_revealed)
    }

    /// Every shot at `seat`'s board in `round` must be what `planes` give.
    fn check_shots(
        &self,
        room: RoomId,
        seat: Seat,
        round: u32,
        planes: &[Placement],
    ) -> Result<(), AuditError> {
        for &(target, cell, result, downed) in self.shots.get(&round).into_iter().flatten() {
            if target != seat {
                continue;
            }
            let head = planes.iter().find(|p| p.head == cell);
            let body = planes
                .iter()
                .any(|p| p.cells(PLANE_SIDE).is_some_and(|cells| cells.contains(&cell)));
            let expected = match (head, body) {
                (Some(_), _) => ShotResult::Down,
                (None, true) => ShotResult::Hit,
                (None, false) => ShotResult::Miss,
            };
            if result != expected || (result == ShotResult::Down && downed != head.copied()) {
                return Err(AuditError::InconsistentResult {
                    room,
                    what: format!(
                        "round {round}: the shot at {cell} on seat {}'s board said {result:?}",
                        seat.0
                    ),
                });
            }
        }
        Ok(())
    }

    /// Replays every junqi move from both layouts: each result must be what the ranks give.
    fn check_moves(&self, room: RoomId, layouts: [&Layout; 2]) -> Result<(), AuditError> {
        let mut position = Position::new(layouts);
        for record in &self.junqi_moves {
            let mv = junqi::Move {
                from: record.from,
                to: record.to,
            };
            let legal = position.check_move(record.seat, mv).is_ok() && position.to_move() == record.seat;
            if !legal || position.play(mv).result != record.result {
                return Err(AuditError::InconsistentResult {
                    room,
                    what: format!(
                        "junqi move {} ({mv}) cannot give {:?}",
                        record.number, record.result
                    ),
                });
            }
        }
        Ok(())
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
        let mut round = 0;
        for event in &record.events {
            let (seat, dealt_round, same) = match (event, &record.game) {
                (GameEvent::Plane(plane::Event::RoundStarted { round: r, .. }), _) => {
                    round = *r;
                    continue;
                }
                (GameEvent::Plane(plane::Event::Deployment { seat, planes }), GameConfig::Plane(config)) => {
                    let dealt = deal::plane_deployment(deal_seed, round, *seat, config.variant);
                    (*seat, round, same_planes(&dealt, planes))
                }
                (GameEvent::Junqi(junqi::Event::Deployment { seat, layout }), _) => {
                    (*seat, 0, deal::junqi_layout(deal_seed, *seat) == *layout)
                }
                _ => continue,
            };
            if !same {
                return Err(TournamentAuditError::NotTheDealtBoard {
                    index: m.index,
                    deal: number,
                    seat: seat.0,
                    round: dealt_round,
                });
            }
            audit.boards += 1;
        }
        audit.matches += 1;
    }
    Ok(audit)
}

/// The same planes, in any order.
fn same_planes(a: &[Placement], b: &[Placement]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
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
