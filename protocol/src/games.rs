//! The games on the wire, listed once.
//!
//! `games!` takes one line per game (its variant, its engine, and a sentence for people) and
//! makes everything that names every game: [`GameKind`], [`GameConfig`], [`Action`], [`GameView`]
//! and [`GameEvent`] (each tagged by `"game"`, the variant's name in snake case), and
//! [`GameConfig::start`], which starts the engine behind [`Table`], the object-safe refereeing
//! interface a server holds. Each game's module in `skirmish_games` names its types `Config`,
//! `Action`, `View` and `Event`, and its engine implements
//! [`Referee`].
//!
//! Adding a game is one line here; nothing else in the protocol or the server names it.

use std::fmt::Debug;

use rand::RngCore;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use skirmish_games::referee::{Dealing, Offer, Referee, RuleCode, Standing, Step, TurnKind};
use skirmish_games::{Audience, Seat, Viewer};

use crate::{gomoku, junqi, plane, tic_tac_toe};

/// An action the table refused, with nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The action is for another game than the table's.
    WrongGame,
    /// The rules refused it: the engine's stable code (`cell_public`, `point_occupied`, ...)
    /// and its explanation.
    Rule {
        /// The engine's code.
        code: &'static str,
        /// The engine's explanation, in English.
        message: String,
    },
}

/// A step of the game as the wire shows it: every event tagged with who may see it.
pub type WireStep = Step<(Audience, GameEvent)>;

/// A game in progress, whatever the game: the refereeing interface
/// ([`Referee`]) over the wire's types.
pub trait Table: Debug + Send + Sync {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// The seats that may act now.
    fn to_act(&self) -> Vec<Seat>;
    /// Whether the seats to act are deploying or moving.
    fn turn_kind(&self) -> TurnKind;
    /// Whether the match is over.
    fn is_over(&self) -> bool;
    /// What `viewer` may know now.
    fn view(&self, viewer: Viewer) -> GameView;
    /// Applies `seat`'s action.
    ///
    /// # Errors
    /// [`Refused`], with the state unchanged.
    fn act(&mut self, seat: Seat, action: Action) -> Result<WireStep, Refused>;
    /// Acts on `seat`'s running out of time (docs/rules.md says what, per game).
    fn time_out(&mut self, seat: Seat, rng: &mut dyn RngCore) -> WireStep;
    /// Ends the match with `seat` resigning; an empty step when it is over.
    fn resign(&mut self, seat: Seat, reason: &str) -> WireStep;
    /// `seat`'s dealt deployment from the deal whose seed is `deal_seed` (duplicate matches),
    /// when it is to deploy.
    fn deal(&mut self, seat: Seat, deal_seed: u64) -> Option<WireStep>;
    /// The result once the match is over.
    fn result(&self) -> Option<Standing>;
    /// A copy, for a server that tries an action before it commits to it.
    fn clone_table(&self) -> Box<dyn Table>;
    /// The action that makes `offer` (`answer` `None`) or answers it (`Some(accept)`); `None`
    /// when the game has no such offer ([`Referee::offer_action`]).
    fn offer_action(&self, offer: Offer, answer: Option<bool>) -> Option<Action>;
    /// The offer `action` makes or answers, if it is one ([`Referee::offer_of`]).
    fn offer_of(&self, action: &Action) -> Option<Offer>;
    /// The offer waiting for `seat`'s answer ([`Referee::offer_to`]).
    fn offer_to(&self, seat: Seat) -> Option<Offer>;
}

impl Clone for Box<dyn Table> {
    fn clone(&self) -> Self {
        self.clone_table()
    }
}

/// An engine as the wire carries it: how its actions, views and events are wrapped.
/// `games!` writes this for each game.
pub trait WireGame: Referee {
    /// Which game.
    const KIND: GameKind;
    /// The action for this game, or the one given back when it is for another.
    ///
    /// # Errors
    /// The action belongs to another game.
    fn action(action: Action) -> Result<Self::Action, Action>;
    /// Wraps an event.
    fn event(event: Self::Event) -> GameEvent;
    /// Wraps a view.
    fn wire_view(view: Self::View) -> GameView;
    /// Wraps an action.
    fn wire_action(action: Self::Action) -> Action;
}

/// Any engine behind [`Table`].
#[derive(Debug, Clone)]
struct Wired<G>(G);

fn wire<G: WireGame>(step: Step<G::Event>) -> WireStep {
    Step {
        events: step
            .events
            .into_iter()
            .map(|e| (G::audience(&e), G::event(e)))
            .collect(),
        new_turn: step.new_turn,
        sealed: step.sealed,
        revealed: step.revealed,
    }
}

impl<G: WireGame> Table for Wired<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn to_act(&self) -> Vec<Seat> {
        self.0.to_act()
    }

    fn turn_kind(&self) -> TurnKind {
        self.0.turn_kind()
    }

    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    fn view(&self, viewer: Viewer) -> GameView {
        G::wire_view(self.0.view(viewer))
    }

    fn act(&mut self, seat: Seat, action: Action) -> Result<WireStep, Refused> {
        let action = G::action(action).map_err(|_| Refused::WrongGame)?;
        self.0
            .act(seat, action)
            .map(wire::<G>)
            .map_err(|e| Refused::Rule {
                code: e.code(),
                message: e.to_string(),
            })
    }

    fn time_out(&mut self, seat: Seat, rng: &mut dyn RngCore) -> WireStep {
        wire::<G>(self.0.time_out(seat, rng))
    }

    fn resign(&mut self, seat: Seat, reason: &str) -> WireStep {
        wire::<G>(self.0.resign(seat, reason))
    }

    fn deal(&mut self, seat: Seat, deal_seed: u64) -> Option<WireStep> {
        self.0.deal(seat, deal_seed).map(wire::<G>)
    }

    fn result(&self) -> Option<Standing> {
        self.0.result()
    }

    fn clone_table(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }

    fn offer_action(&self, offer: Offer, answer: Option<bool>) -> Option<Action> {
        G::offer_action(offer, answer).map(G::wire_action)
    }

    fn offer_of(&self, action: &Action) -> Option<Offer> {
        match G::action(action.clone()) {
            Ok(action) => G::offer_of(&action),
            Err(_) => None,
        }
    }

    fn offer_to(&self, seat: Seat) -> Option<Offer> {
        self.0.offer_to(seat)
    }
}

fn start<G: WireGame>(config: G::Config) -> Result<(Box<dyn Table>, WireStep), String> {
    let (game, step) = G::start(config).map_err(|e| e.to_string())?;
    Ok((Box::new(Wired(game)), wire::<G>(step)))
}

/// Writes the types that name every game from one line per game:
/// `Variant(module::Engine), "what people call it";`.
macro_rules! games {
    ($($variant:ident($module:ident::$engine:ident), $doc:literal;)+) => {
        /// The games Skirmish referees (docs/rules.md has each one's rules).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum GameKind {
            $(#[doc = $doc] $variant,)+
        }

        impl GameKind {
            /// Every game, in the order listed.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant,)+];

            /// The game's name for people (`Plane battle`).
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$module::$engine as Referee>::NAME,)+
                }
            }

            /// The game's tag on the wire (`plane`, `gomoku`), as `"game"` carries it.
            pub fn tag(self) -> &'static str {
                match self {
                    $(GameKind::$variant => stringify!($module),)+
                }
            }

            /// Points per seat of a match that the seats in `absent` did not come to.
            pub fn walkover_points(self, seats: usize, absent: &[usize]) -> Vec<f64> {
                match self {
                    $(GameKind::$variant => <$module::$engine as Referee>::walkover_points(seats, absent),)+
                }
            }

            /// How the game takes part in duplicate tournaments.
            pub fn dealing(self) -> Dealing {
                match self {
                    $(GameKind::$variant => <$module::$engine as Referee>::DEALING,)+
                }
            }
        }

        /// A game and its settings, tagged by game: `{"game": "gomoku", "rule": "renju"}`.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum GameConfig {
            $(#[doc = $doc] $variant($module::Config),)+
        }

        impl GameConfig {
            /// Which game.
            pub fn kind(&self) -> GameKind {
                match self {
                    $(GameConfig::$variant(_) => GameKind::$variant,)+
                }
            }

            /// Seats at the table.
            pub fn seats(&self) -> usize {
                match self {
                    $(GameConfig::$variant(config) => <$module::$engine as Referee>::seats(config),)+
                }
            }

            /// This config set to play the opening named `opening` (or none, for `None`); `None`
            /// when the game has no openings.
            pub fn with_opening(&self, opening: Option<&str>) -> Option<GameConfig> {
                match self {
                    $(GameConfig::$variant(config) => {
                        <$module::$engine as Referee>::with_opening(config, opening).map(GameConfig::$variant)
                    })+
                }
            }

            /// A new match of this game, behind [`Table`], with the step that opens it.
            ///
            /// # Errors
            /// The engine's reason the config cannot be played.
            pub fn start(&self) -> Result<(Box<dyn Table>, WireStep), String> {
                match self {
                    $(GameConfig::$variant(config) => start::<$module::$engine>(config.clone()),)+
                }
            }
        }

        /// An action in a room, tagged by game: `{"game": "plane", "kind": "fire", "target": 1,
        /// "cell": "E5"}`, `{"game": "gomoku", "kind": "place", "point": "h8"}`, `{"game":
        /// "junqi", "kind": "move", "from": "G0", "to": "F0"}`.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum Action {
            $(#[doc = $doc] $variant($module::Action),)+
        }

        /// What one viewer may see of a game, tagged by game.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum GameView {
            $(#[doc = $doc] $variant($module::View),)+
        }

        /// A game event, tagged by game.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum GameEvent {
            $(#[doc = $doc] $variant($module::Event),)+
        }

        impl GameEvent {
            /// Who may see this event: the engine's own [`Referee::audience`], the one function
            /// that decides both what a room streams live and what a replay shows each seat.
            pub fn audience(&self) -> Audience {
                match self {
                    $(GameEvent::$variant(event) => <$module::$engine as Referee>::audience(event),)+
                }
            }

            /// Whether this is the event that ends the match.
            pub fn ends_match(&self) -> bool {
                match self {
                    $(GameEvent::$variant(event) => <$module::$engine as Referee>::ends_match(event),)+
                }
            }
        }

        impl GameView {
            /// Which game.
            pub fn kind(&self) -> GameKind {
                match self {
                    $(GameView::$variant(_) => GameKind::$variant,)+
                }
            }
        }

        $(
            impl WireGame for $module::$engine {
                const KIND: GameKind = GameKind::$variant;

                fn action(action: Action) -> Result<$module::Action, Action> {
                    match action {
                        Action::$variant(action) => Ok(action),
                        #[allow(unreachable_patterns, reason = "a server of one game")]
                        other => Err(other),
                    }
                }

                fn event(event: $module::Event) -> GameEvent {
                    GameEvent::$variant(event)
                }

                fn wire_view(view: $module::View) -> GameView {
                    GameView::$variant(view)
                }

                fn wire_action(action: $module::Action) -> Action {
                    Action::$variant(action)
                }
            }
        )+
    };
}

games! {
    Plane(plane::PlaneBattle), "Plane battle (docs/rules.md, plane battle).";
    Gomoku(gomoku::Gomoku), "Gomoku (docs/rules.md, gomoku).";
    Junqi(junqi::Junqi), "Junqi (docs/rules.md, junqi).";
    TicTacToe(tic_tac_toe::TicTacToe), "Tic-tac-toe (docs/rules.md, tic-tac-toe).";
}
