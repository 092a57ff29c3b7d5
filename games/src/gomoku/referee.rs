//! Gomoku behind the refereeing interface: everything is public, every stone starts the other
//! side's turn, and running out of time loses (docs/rules.md, gomoku).

use rand::RngCore;

use super::{Action, Config, ConfigError, End, Event, Gomoku, MAX_REASON_BYTES, Opening, RuleError};
use crate::referee::{Dealing, Offer, Referee, RuleCode, Standing, Step, TurnKind, cut};
use crate::{Audience, Game, Seat};

impl RuleCode for RuleError {
    fn code(&self) -> &'static str {
        RuleError::code(self)
    }
}

impl End {
    /// How the game ended, as the protocol's `kind` tag names it (`five`, `resigned`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            End::Five { .. } => "five",
            End::BoardFull => "board_full",
            End::NoLegalPoint => "no_legal_point",
            End::Resigned { .. } => "resigned",
            End::TimedOut { .. } => "timed_out",
            End::DrawAgreed { .. } => "draw_agreed",
        }
    }
}

fn step(events: Vec<Event>) -> Step<Event> {
    let new_turn = events.iter().any(|e| {
        matches!(
            e,
            Event::Started { .. } | Event::Placed { .. } | Event::TakenBack { .. }
        )
    });
    Step {
        events,
        new_turn,
        sealed: Vec::new(),
        revealed: None,
    }
}

impl Referee for Gomoku {
    type Config = Config;
    type ConfigError = ConfigError;

    const NAME: &'static str = "Gomoku";
    const DEALING: Dealing = Dealing::Never;

    fn seats(_: &Config) -> usize {
        2
    }

    fn start(config: Config) -> Result<(Gomoku, Step<Event>), ConfigError> {
        let (game, events) = Gomoku::new(config)?;
        Ok((game, step(events)))
    }

    fn turn_kind(&self) -> TurnKind {
        TurnKind::Move
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

    fn time_out(&mut self, seat: Seat, _: &mut dyn RngCore) -> Step<Event> {
        step(Gomoku::time_out(self, seat))
    }

    fn resign(&mut self, seat: Seat, reason: &str) -> Step<Event> {
        let reason = Some(cut(reason, MAX_REASON_BYTES));
        self.apply(seat, Action::Resign { reason })
            .map_or_else(|_| Step::none(), step)
    }

    fn with_opening(config: &Config, opening: Option<&str>) -> Option<Config> {
        let mut config = config.clone();
        config.opening = opening.map(|name| Opening::Named(name.to_owned()));
        Some(config)
    }

    fn offer_action(offer: Offer, answer: Option<bool>) -> Option<Action> {
        Some(match (offer, answer) {
            (Offer::Draw, None) => Action::OfferDraw,
            (Offer::Draw, Some(accept)) => Action::AnswerDraw { accept },
            (Offer::Takeback, None) => Action::AskTakeback,
            (Offer::Takeback, Some(accept)) => Action::AnswerTakeback { accept },
        })
    }

    fn offer_of(action: &Action) -> Option<Offer> {
        match action {
            Action::OfferDraw | Action::AnswerDraw { .. } => Some(Offer::Draw),
            Action::AskTakeback | Action::AnswerTakeback { .. } => Some(Offer::Takeback),
            Action::Place { .. } | Action::Resign { .. } => None,
        }
    }

    fn offer_to(&self, seat: Seat) -> Option<Offer> {
        let offers = self.offers();
        let theirs = |asker: Option<Seat>| asker.is_some_and(|a| a != seat);
        if theirs(offers.takeback) {
            Some(Offer::Takeback)
        } else if theirs(offers.draw) {
            Some(Offer::Draw)
        } else {
            None
        }
    }

    fn result(&self) -> Option<Standing> {
        let outcome = self.outcome()?;
        Some(Standing::two_players(outcome.winner, outcome.end.kind()))
    }
}
