//! Plane battle (飞机对战) for 2 or 3 players: secret simultaneous deployment, shots with public
//! results, knockouts, rounds and the scored match (docs/rules.md, plane battle).
//!
//! [`PlaneBattle`] is the referee. It is built from a validated [`Config`], takes [`Action`]s from
//! seats, and emits [`Event`]s tagged with their [`Audience`]. Visibility is decided in two places
//! only, both in this module: [`Event::audience`] for events, and [`PlaneBattle::view`] (through
//! `may_see_planes`) for snapshots. A player's own planes are shown to that player alone until the
//! round ends; a downed plane is shown to everybody at once.

mod action;
mod config;
mod geometry;
mod record;
mod view;

use rand::Rng;
use rand::seq::IndexedRandom;

pub use action::{Action, RuleError};
pub use config::{Config, ConfigError, FirstAttacker, MatchFormat, Variant};
pub use geometry::{Cell, Facing, ParseCellError, Placement, placements};
pub use record::{Outcome, RoundResult, ShotRecord, ShotResult};
pub use view::{BoardView, PhaseView, View};

use crate::{Audience, Game, PerSeat, Seat, Viewer};
/// What happened, with who may see it ([`Event::audience`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Event {
    /// A round begins with secret deployment.
    RoundStarted {
        /// Round number, 0-based, counting extra rounds too.
        round: u32,
        /// Whether this is an extra round to break a tie for first.
        extra: bool,
        /// The seats playing it, in seat order.
        players: Vec<Seat>,
        /// Who fires first once everybody has deployed.
        first_attacker: Seat,
    },
    /// A seat has deployed (public: only *that* it did).
    Ready {
        /// The seat.
        seat: Seat,
        /// Whether its time ran out and the referee deployed for it at random.
        by_default: bool,
    },
    /// The seat's own deployment, shown to that seat alone.
    Deployment {
        /// The seat.
        seat: Seat,
        /// Its planes.
        planes: Vec<Placement>,
    },
    /// A seat must fire now.
    Turn {
        /// The attacker.
        attacker: Seat,
    },
    /// A shot and its public result.
    Shot {
        /// Who fired.
        attacker: Seat,
        /// At whose board.
        target: Seat,
        /// Where.
        cell: Cell,
        /// What it found.
        result: ShotResult,
        /// The plane shot down, revealed whole, when `result` is `down`.
        plane: Option<Placement>,
        /// Points the attacker scored: 0, 1 for a plane, 3 for a knockout.
        points: u32,
        /// Whether the target is now out of the round.
        knocked_out: bool,
        /// Whether the attacker's time ran out and the referee fired for it at random.
        by_default: bool,
    },
    /// The round is over; every deployment is revealed.
    RoundEnded {
        /// The round's result.
        result: RoundResult,
        /// Match totals after it, per seat.
        totals: PerSeat<u32>,
    },
    /// The match is over.
    MatchEnded {
        /// Final scores and placings.
        outcome: Outcome,
    },
}

impl Event {
    /// Who may see this event: the single place that decides it for plane battle.
    pub fn audience(&self) -> Audience {
        match self {
            Event::Deployment { seat, .. } => Audience::Seat(*seat),
            _ => Audience::Everyone,
        }
    }
}
/// One seat's board in the current round (the referee's full knowledge).
#[derive(Clone, Debug)]
struct Board {
    playing: bool,
    planes: Option<Vec<Placement>>,
    plane_cells: Vec<[Cell; 10]>,
    downed: Vec<bool>,
    shots: Vec<ShotRecord>,
    points: u32,
}

impl Board {
    fn new(playing: bool) -> Board {
        Board {
            playing,
            planes: None,
            plane_cells: Vec::new(),
            downed: Vec::new(),
            shots: Vec::new(),
            points: 0,
        }
    }

    fn knocked_out(&self) -> bool {
        self.planes.is_some() && self.downed.iter().all(|d| *d)
    }

    fn in_round(&self) -> bool {
        self.playing && !self.knocked_out()
    }

    /// Whether a cell's content is public: shot before, or part of a downed plane.
    fn is_public(&self, cell: Cell) -> bool {
        self.shots.iter().any(|s| s.cell == cell)
            || self
                .plane_cells
                .iter()
                .zip(&self.downed)
                .any(|(cells, down)| *down && cells.contains(&cell))
    }
}

#[derive(Clone, Debug)]
enum Phase {
    Deploy,
    Attack { attacker: Seat },
    Over,
}

/// The referee of one plane battle match. Cheap to clone (bots search over copies).
#[derive(Clone, Debug)]
pub struct PlaneBattle {
    config: Config,
    round: u32,
    extra: bool,
    players: Vec<Seat>,
    boards: PerSeat<Board>,
    phase: Phase,
    totals: PerSeat<u32>,
    round_wins: PerSeat<u32>,
    history: Vec<RoundResult>,
    outcome: Option<Outcome>,
}

impl PlaneBattle {
    /// A new match, in round 0's deployment, with the [`Event::RoundStarted`] that opens it.
    ///
    /// # Errors
    /// [`ConfigError`] for a player count other than 2 or 3, or a round count outside 1..=1000.
    pub fn new(config: Config) -> Result<(PlaneBattle, Vec<Event>), ConfigError> {
        if !(2..=3).contains(&config.players) {
            return Err(ConfigError::Players(config.players));
        }
        let (MatchFormat::Rounds(n) | MatchFormat::FirstTo(n)) = config.format;
        if n == 0 {
            return Err(ConfigError::NoRounds);
        }
        if n > 1000 {
            return Err(ConfigError::TooManyRounds(n));
        }
        let seats = usize::from(config.players);
        let mut game = PlaneBattle {
            config,
            round: 0,
            extra: false,
            players: Vec::new(),
            boards: PerSeat::filled(seats, Board::new(false)),
            phase: Phase::Deploy,
            totals: PerSeat::filled(seats, 0),
            round_wins: PerSeat::filled(seats, 0),
            history: Vec::new(),
            outcome: None,
        };
        let event = game.start_round(0, false, Seat::all(seats).collect());
        Ok((game, vec![event]))
    }

    /// The match's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The current round, 0-based.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Every finished round so far.
    pub fn history(&self) -> &[RoundResult] {
        &self.history
    }

    /// Match totals so far.
    pub fn totals(&self) -> &PerSeat<u32> {
        &self.totals
    }

    /// Whether a seat's action would be a deployment (`true`) or a shot (`false`) now.
    pub fn deploying(&self) -> bool {
        matches!(self.phase, Phase::Deploy)
    }

    fn start_round(&mut self, round: u32, extra: bool, players: Vec<Seat>) -> Event {
        self.round = round;
        self.extra = extra;
        for (seat, board) in self.boards.0.iter_mut().enumerate() {
            *board = Board::new(players.iter().any(|p| p.index() == seat));
        }
        self.phase = Phase::Deploy;
        let first_attacker = self.first_attacker_of(round, &players);
        self.players = players.clone();
        Event::RoundStarted {
            round,
            extra,
            players,
            first_attacker,
        }
    }

    fn first_attacker_of(&self, round: u32, players: &[Seat]) -> Seat {
        match self.config.first_attacker {
            FirstAttacker::Rotating => players[round as usize % players.len()],
            FirstAttacker::Fixed => players[0],
        }
    }

    fn seat_checked(&self, seat: Seat) -> Result<(), RuleError> {
        if seat.index() >= self.boards.len() {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(RuleError::MatchOver);
        }
        if !self.boards[seat].playing {
            return Err(RuleError::NotInRound(seat));
        }
        Ok(())
    }

    /// Checks a deployment against the variant: plane count, every plane on the board, no overlap.
    ///
    /// # Errors
    /// [`RuleError::PlaneCount`], [`RuleError::PlaneOffBoard`] or [`RuleError::Overlap`].
    pub fn check_deployment(variant: Variant, planes: &[Placement]) -> Result<Vec<[Cell; 10]>, RuleError> {
        if planes.len() != variant.planes() {
            return Err(RuleError::PlaneCount {
                expected: variant.planes(),
                got: planes.len(),
            });
        }
        let side = variant.side();
        let cells = planes
            .iter()
            .map(|p| p.cells(side).ok_or(RuleError::PlaneOffBoard(*p)))
            .collect::<Result<Vec<_>, _>>()?;
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                if cells[i].iter().any(|c| cells[j].contains(c)) {
                    return Err(RuleError::Overlap(planes[i], planes[j]));
                }
            }
        }
        Ok(cells)
    }

    fn deploy(
        &mut self,
        seat: Seat,
        planes: Vec<Placement>,
        by_default: bool,
    ) -> Result<Vec<Event>, RuleError> {
        self.seat_checked(seat)?;
        if !matches!(self.phase, Phase::Deploy) {
            return Err(RuleError::DeploymentClosed);
        }
        if self.boards[seat].planes.is_some() {
            return Err(RuleError::AlreadyDeployed(seat));
        }
        let cells = Self::check_deployment(self.config.variant, &planes)?;
        let board = &mut self.boards[seat];
        board.downed = vec![false; planes.len()];
        board.plane_cells = cells;
        board.planes = Some(planes.clone());
        let mut events = vec![
            Event::Ready { seat, by_default },
            Event::Deployment { seat, planes },
        ];
        if self.players.iter().all(|p| self.boards[*p].planes.is_some()) {
            let attacker = self.first_attacker_of(self.round, &self.players.clone());
            self.phase = Phase::Attack { attacker };
            events.push(Event::Turn { attacker });
        }
        Ok(events)
    }

    fn check_fire(&self, seat: Seat, target: Seat, cell: Cell) -> Result<(), RuleError> {
        self.seat_checked(seat)?;
        let attacker = match self.phase {
            Phase::Deploy => return Err(RuleError::DeployPhase),
            Phase::Attack { attacker } => attacker,
            Phase::Over => return Err(RuleError::MatchOver),
        };
        if attacker != seat {
            return Err(RuleError::NotYourTurn { attacker });
        }
        if target == seat {
            return Err(RuleError::OwnBoard);
        }
        if target.index() >= self.boards.len() {
            return Err(RuleError::NoSuchSeat(target));
        }
        let board = &self.boards[target];
        if !board.in_round() {
            return Err(RuleError::TargetOut(target));
        }
        if !cell.on_board(self.config.variant.side()) {
            return Err(RuleError::CellOffBoard(cell));
        }
        if board.is_public(cell) {
            return Err(RuleError::CellPublic(cell));
        }
        Ok(())
    }

    fn fire(
        &mut self,
        seat: Seat,
        target: Seat,
        cell: Cell,
        by_default: bool,
    ) -> Result<Vec<Event>, RuleError> {
        self.check_fire(seat, target, cell)?;
        let board = &mut self.boards[target];
        let struck = board.plane_cells.iter().position(|cells| cells.contains(&cell));
        let (result, plane) = match struck {
            Some(i) if board.plane_cells[i][0] == cell => {
                board.downed[i] = true;
                (ShotResult::Down, board.planes.as_ref().map(|p| p[i]))
            }
            Some(_) => (ShotResult::Hit, None),
            None => (ShotResult::Miss, None),
        };
        board.shots.push(ShotRecord {
            by: seat,
            cell,
            result,
        });
        let knocked_out = board.knocked_out();
        let points = match (result, knocked_out) {
            (ShotResult::Down, true) => 3,
            (ShotResult::Down, false) => 1,
            _ => 0,
        };
        self.boards[seat].points += points;
        self.totals[seat] += points;
        let mut events = vec![Event::Shot {
            attacker: seat,
            target,
            cell,
            result,
            plane,
            points,
            knocked_out,
            by_default,
        }];
        let left: Vec<Seat> = self
            .players
            .iter()
            .copied()
            .filter(|p| self.boards[*p].in_round())
            .collect();
        if left.len() == 1 {
            events.extend(self.end_round(left[0]));
        } else {
            let attacker = self.next_attacker(seat);
            self.phase = Phase::Attack { attacker };
            events.push(Event::Turn { attacker });
        }
        Ok(events)
    }

    /// The next seat after `seat`, in seat order, that is still in the round.
    fn next_attacker(&self, seat: Seat) -> Seat {
        let n = self.boards.len();
        (1..=n)
            .map(|k| Seat(((seat.index() + k) % n) as u8))
            .find(|s| self.boards[*s].in_round())
            .expect("a round in play has two players left")
    }

    fn end_round(&mut self, survivor: Seat) -> Vec<Event> {
        self.round_wins[survivor] += 1;
        let result = RoundResult {
            round: self.round,
            extra: self.extra,
            survivor,
            points: PerSeat(self.boards.0.iter().map(|b| b.points).collect()),
            deployments: PerSeat(
                self.boards
                    .0
                    .iter()
                    .map(|b| b.planes.clone().unwrap_or_default())
                    .collect(),
            ),
        };
        self.history.push(result.clone());
        let mut events = vec![Event::RoundEnded {
            result,
            totals: self.totals.clone(),
        }];
        let next_round = self.round + 1;
        match self.config.format {
            MatchFormat::FirstTo(wins) => {
                if self.round_wins[survivor] >= wins {
                    events.push(self.finish(survivor));
                } else {
                    let all = Seat::all(self.boards.len()).collect();
                    events.push(self.start_round(next_round, false, all));
                }
            }
            MatchFormat::Rounds(rounds) if next_round < rounds => {
                let all = Seat::all(self.boards.len()).collect();
                events.push(self.start_round(next_round, false, all));
            }
            MatchFormat::Rounds(_) => {
                let top = *self.totals.0.iter().max().expect("at least two seats");
                let tied: Vec<Seat> = self
                    .totals
                    .iter()
                    .filter(|(_, t)| **t == top)
                    .map(|(s, _)| s)
                    .collect();
                if tied.len() == 1 {
                    events.push(self.finish(tied[0]));
                } else {
                    events.push(self.start_round(next_round, true, tied));
                }
            }
        }
        events
    }

    fn finish(&mut self, winner: Seat) -> Event {
        let key = |seat: Seat| self.standing(seat);
        let placings = Seat::all(self.boards.len())
            .map(|seat| {
                if seat == winner {
                    return 1;
                }
                let better = Seat::all(self.boards.len())
                    .filter(|o| *o == winner || key(*o) > key(seat))
                    .count();
                u8::try_from(better + 1).expect("at most 3 seats")
            })
            .collect();
        let outcome = Outcome {
            winner,
            totals: self.totals.clone(),
            round_wins: self.round_wins.clone(),
            placings: PerSeat(placings),
            resigned: None,
        };
        self.phase = Phase::Over;
        self.outcome = Some(outcome.clone());
        Event::MatchEnded { outcome }
    }

    /// What places a seat in the match, higher first: its total (a fixed number of rounds), or its
    /// round wins then total (first to n round wins).
    fn standing(&self, seat: Seat) -> (u32, u32) {
        match self.config.format {
            MatchFormat::Rounds(_) => (self.totals[seat], 0),
            MatchFormat::FirstTo(_) => (self.round_wins[seat], self.totals[seat]),
        }
    }

    /// Ends the match on `seat`'s resignation: the others are placed by the match's order (ties
    /// share a place), the best of them wins (the lowest seat among equals), and `seat` is last.
    fn resign(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        if matches!(self.phase, Phase::Over) {
            return Err(RuleError::MatchOver);
        }
        if seat.index() >= self.boards.len() {
            return Err(RuleError::NoSuchSeat(seat));
        }
        let key = |s: Seat| self.standing(s);
        let seats = self.boards.len();
        let others: Vec<Seat> = Seat::all(seats).filter(|s| *s != seat).collect();
        let winner = *others
            .iter()
            .max_by_key(|s| (key(**s), std::cmp::Reverse(s.0)))
            .expect("2 or 3 seats");
        let placings = Seat::all(seats)
            .map(|s| {
                if s == seat {
                    return u8::try_from(seats).expect("at most 3 seats");
                }
                let better = others
                    .iter()
                    .filter(|o| key(**o) > key(s) || (**o == winner && s != winner))
                    .count();
                u8::try_from(better + 1).expect("at most 3 seats")
            })
            .collect();
        let outcome = Outcome {
            winner,
            totals: self.totals.clone(),
            round_wins: self.round_wins.clone(),
            placings: PerSeat(placings),
            resigned: Some(seat),
        };
        self.phase = Phase::Over;
        self.outcome = Some(outcome.clone());
        Ok(vec![Event::MatchEnded { outcome }])
    }

    /// Whether `viewer` may see all of `seat`'s planes now: only the seat's own player, while the
    /// round is on. (Downed planes and finished rounds are public through other fields.)
    fn may_see_planes(viewer: Viewer, seat: Seat) -> bool {
        viewer == Viewer::Seat(seat)
    }

    /// Every shot `seat` may fire now, as (target, cell): the non-public cells of every opponent
    /// still in the round. Empty when it is not `seat`'s turn.
    pub fn legal_shots(&self, seat: Seat) -> Vec<(Seat, Cell)> {
        if !matches!(self.phase, Phase::Attack { attacker } if attacker == seat) {
            return Vec::new();
        }
        let side = self.config.variant.side();
        let mut out = Vec::new();
        for target in self
            .players
            .iter()
            .copied()
            .filter(|t| *t != seat && self.boards[*t].in_round())
        {
            for index in 0..usize::from(side) * usize::from(side) {
                let cell = Cell::from_index(index, side);
                if !self.boards[target].is_public(cell) {
                    out.push((target, cell));
                }
            }
        }
        out
    }

    /// The action the referee takes for `seat` when its time runs out: a uniformly random legal
    /// deployment during deployment, a uniformly random legal shot during attacks (docs/rules.md
    /// section 1, "Deploy"). `None` when `seat` is not to act.
    pub fn default_action(&self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Option<Action> {
        if !self.to_act().contains(&seat) {
            return None;
        }
        match self.phase {
            Phase::Deploy => Some(Action::Deploy {
                planes: random_deployment(self.config.variant, rng),
            }),
            Phase::Attack { .. } => {
                let (target, cell) = *self.legal_shots(seat).choose(rng)?;
                Some(Action::Fire { target, cell })
            }
            Phase::Over => None,
        }
    }

    /// Applies the [`default_action`](Self::default_action) for `seat`, marking its events as
    /// taken by default. Returns no events when `seat` is not to act.
    pub fn apply_default(&mut self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Vec<Event> {
        match self.default_action(seat, rng) {
            Some(Action::Deploy { planes }) => self.deploy(seat, planes, true),
            Some(Action::Fire { target, cell }) => self.fire(seat, target, cell, true),
            Some(Action::Resign) | None => Ok(Vec::new()),
        }
        .expect("the default action is legal")
    }
}

/// A uniformly random legal deployment for `variant`: uniform over placements for `classic`, over
/// non-overlapping pairs for `double` (by rejection, so every unordered pair is equally likely).
pub fn random_deployment(variant: Variant, rng: &mut (impl Rng + ?Sized)) -> Vec<Placement> {
    let all = placements(variant.side());
    loop {
        let planes: Vec<Placement> = (0..variant.planes())
            .map(|_| *all.choose(rng).expect("placements exist"))
            .collect();
        if PlaneBattle::check_deployment(variant, &planes).is_ok() {
            return planes;
        }
    }
}

impl Game for PlaneBattle {
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = RuleError;
    type Outcome = Outcome;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Deploy => self
                .players
                .iter()
                .copied()
                .filter(|s| self.boards[*s].planes.is_none())
                .collect(),
            Phase::Attack { attacker } => vec![attacker],
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        match action {
            Action::Deploy { planes } => self.deploy(seat, planes, false),
            Action::Fire { target, cell } => self.fire(seat, target, cell, false),
            Action::Resign => self.resign(seat),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        let boards = self
            .boards
            .iter()
            .map(|(seat, board)| BoardView {
                seat,
                playing: board.playing,
                knocked_out: board.knocked_out(),
                shots: board.shots.clone(),
                downed: board
                    .planes
                    .iter()
                    .flatten()
                    .zip(&board.downed)
                    .filter(|(_, down)| **down)
                    .map(|(p, _)| *p)
                    .collect(),
                planes: if Self::may_see_planes(viewer, seat) {
                    board.planes.clone()
                } else {
                    None
                },
                points: board.points,
            })
            .collect();
        let phase = match self.phase {
            Phase::Deploy => PhaseView::Deploy {
                ready: self
                    .players
                    .iter()
                    .copied()
                    .filter(|s| self.boards[*s].planes.is_some())
                    .collect(),
            },
            Phase::Attack { attacker } => PhaseView::Attack { attacker },
            Phase::Over => PhaseView::Over,
        };
        View {
            config: self.config,
            viewer,
            round: self.round,
            extra: self.extra,
            phase,
            boards,
            totals: self.totals.clone(),
            round_wins: self.round_wins.clone(),
            history: self.history.clone(),
            outcome: self.outcome.clone(),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

#[cfg(feature = "serde")]
mod referee;
