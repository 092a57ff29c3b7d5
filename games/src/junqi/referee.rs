//! Junqi behind the refereeing interface: both layouts are deployed in secret and committed to;
//! the game's end reveals them (round 0); a seat still deploying when its time runs out gets a
//! random layout, one to move loses (docs/rules.md, junqi).

use rand::RngCore;

use super::{Action, Config, ConfigError, End, Event, Junqi, Layout, MAX_REASON_BYTES, Phase, RuleError};
use crate::referee::{Dealing, Referee, RuleCode, Sealed, Standing, Step, TurnKind, cut, deal_rng};
use crate::{Audience, Game, Seat};

impl RuleCode for RuleError {
    fn code(&self) -> &'static str {
        RuleError::code(self)
    }
}

impl End {
    /// How the game ended, as the protocol's `kind` tag names it (`flag_captured`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            End::NeitherCanMove => "neither_can_move",
            End::NoLegalMove { .. } => "no_legal_move",
            End::FlagCaptured { .. } => "flag_captured",
            End::TimedOut { .. } => "timed_out",
            End::NoAttackLimit { .. } => "no_attack_limit",
            End::Resigned { .. } => "resigned",
        }
    }
}

fn step(events: Vec<Event>) -> Step<Event> {
    // The deployment's clock starts with the game; each seat's move clock with its turn.
    let new_turn = events.iter().any(|e| {
        matches!(
            e,
            Event::Started { .. } | Event::BattleStarted { .. } | Event::Moved { .. }
        )
    });
    let sealed = events
        .iter()
        .enumerate()
        .filter_map(|(after, e)| match e {
            Event::Deployment { seat, layout } => Some(Sealed {
                after,
                seat: *seat,
                round: 0,
                text: layout.to_string(),
            }),
            _ => None,
        })
        .collect();
    let revealed = events
        .iter()
        .position(|e| matches!(e, Event::Ended { .. }))
        .map(|i| (i, 0));
    Step {
        events,
        new_turn,
        sealed,
        revealed,
    }
}

impl Referee for Junqi {
    type Config = Config;
    type ConfigError = ConfigError;

    const NAME: &'static str = "Junqi";
    const DEALING: Dealing = Dealing::OnRequest;

    fn seats(_: &Config) -> usize {
        2
    }

    fn start(config: Config) -> Result<(Junqi, Step<Event>), ConfigError> {
        let (game, events) = Junqi::new(config)?;
        Ok((game, step(events)))
    }

    fn turn_kind(&self) -> TurnKind {
        if self.phase() == Phase::Deploying {
            TurnKind::Deploy
        } else {
            TurnKind::Move
        }
    }

    fn audience(event: &Event) -> Audience {
        event.audience()
    }

    fn ends_match(event: &Event) -> bool {
        matches!(event, Event::Ended { .. })
    }

    fn act(&mut self, seat: Seat, action: Action) -> Result<Step<Event>, RuleError> {
        self.apply(seat, action).map(step)
    }

    fn time_out(&mut self, seat: Seat, mut rng: &mut dyn RngCore) -> Step<Event> {
        step(Junqi::time_out(self, seat, &mut rng))
    }

    fn resign(&mut self, seat: Seat, reason: &str) -> Step<Event> {
        let reason = Some(cut(reason, MAX_REASON_BYTES));
        self.apply(seat, Action::Resign { reason })
            .map_or_else(|_| Step::none(), step)
    }

    fn deal(&mut self, seat: Seat, deal_seed: u64) -> Option<Step<Event>> {
        if self.turn_kind() != TurnKind::Deploy || !self.to_act().contains(&seat) {
            return None;
        }
        let layout = Layout::random(&mut deal_rng(deal_seed, 0, seat));
        self.apply(seat, Action::Deploy { layout }).ok().map(step)
    }

    fn result(&self) -> Option<Standing> {
        let outcome = self.outcome()?;
        Some(Standing::two_players(outcome.winner, outcome.end.kind()))
    }
}
