//! Plane battle behind the refereeing interface: each round's planes are deployed in secret and
//! committed to, the round's end reveals them, and running out of time makes the referee deploy or
//! fire at random for the seat (docs/rules.md, plane battle).

use rand::RngCore;

use super::{Action, Config, ConfigError, Event, MatchFormat, PlaneBattle, RuleError, random_deployment};
use crate::referee::{Dealing, Referee, RuleCode, Sealed, Standing, Step, TurnKind, deal_rng};
use crate::{Audience, Game, Seat};

impl RuleCode for RuleError {
    fn code(&self) -> &'static str {
        RuleError::code(self)
    }
}

/// `events`, read by the referee; deployments belong to `round`, the round they were made in
/// (taken before the action, which may start the next round).
fn step(events: Vec<Event>, round: u32) -> Step<Event> {
    let new_turn = events
        .iter()
        .any(|e| matches!(e, Event::Turn { .. } | Event::RoundStarted { .. }));
    let sealed = events
        .iter()
        .enumerate()
        .filter_map(|(after, e)| match e {
            Event::Deployment { seat, planes } => Some(Sealed {
                after,
                seat: *seat,
                round,
                // The commitment's text: the planes as JSON, in the order given.
                text: serde_json::to_string(planes).expect("placements serialize"),
            }),
            _ => None,
        })
        .collect();
    let revealed = events.iter().enumerate().find_map(|(i, e)| match e {
        Event::RoundEnded { result, .. } => Some((i, result.round)),
        _ => None,
    });
    Step {
        events,
        new_turn,
        sealed,
        revealed,
    }
}

impl Referee for PlaneBattle {
    type Config = Config;
    type ConfigError = ConfigError;

    const NAME: &'static str = "Plane battle";
    const DEALING: Dealing = Dealing::ByDefault;

    fn seats(config: &Config) -> usize {
        usize::from(config.players)
    }

    fn start(config: Config) -> Result<(PlaneBattle, Step<Event>), ConfigError> {
        let (game, events) = PlaneBattle::new(config)?;
        Ok((game, step(events, 0)))
    }

    fn turn_kind(&self) -> TurnKind {
        if self.deploying() {
            TurnKind::Deploy
        } else {
            TurnKind::Move
        }
    }

    fn audience(event: &Event) -> Audience {
        event.audience()
    }

    fn ends_match(event: &Event) -> bool {
        matches!(event, Event::MatchEnded { .. })
    }

    fn act(&mut self, seat: Seat, action: Action) -> Result<Step<Event>, RuleError> {
        let round = self.round();
        self.apply(seat, action).map(|events| step(events, round))
    }

    fn time_out(&mut self, seat: Seat, mut rng: &mut dyn RngCore) -> Step<Event> {
        let round = self.round();
        step(self.apply_default(seat, &mut rng), round)
    }

    /// Plane battle records no reason: the resigning seat is placed last.
    fn resign(&mut self, seat: Seat, _reason: &str) -> Step<Event> {
        let round = self.round();
        self.apply(seat, Action::Resign)
            .map_or_else(|_| Step::none(), |events| step(events, round))
    }

    fn deal(&mut self, seat: Seat, deal_seed: u64) -> Option<Step<Event>> {
        if !self.deploying() || !self.to_act().contains(&seat) {
            return None;
        }
        let round = self.round();
        let planes = random_deployment(self.config().variant, &mut deal_rng(deal_seed, round, seat));
        self.apply(seat, Action::Deploy { planes })
            .ok()
            .map(|events| step(events, round))
    }

    /// A match not played scores no points for anyone: plane battle's points are shots'.
    fn walkover_points(seats: usize, _absent: &[usize]) -> Vec<f64> {
        vec![0.0; seats]
    }

    fn result(&self) -> Option<Standing> {
        let outcome = self.outcome()?;
        let end = if outcome.resigned.is_some() {
            "resigned"
        } else {
            match self.config().format {
                MatchFormat::Rounds(_) => "rounds",
                MatchFormat::FirstTo(_) => "first_to",
            }
        };
        Some(Standing {
            points: outcome.totals.0.iter().map(|p| f64::from(*p)).collect(),
            placings: outcome.placings.0.clone(),
            end,
        })
    }
}
