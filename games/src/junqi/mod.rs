//! Junqi (军棋) for two players with a referee, by the CAAI championship rules (docs/rules.md, junqi).
//!
//! [`Junqi`] is the referee. Both seats deploy at once and in secret ([`Action::Deploy`]); then seat
//! 0 (red) moves first and the seats alternate ([`Action::Move`]). Every move and its result are
//! public; a piece's rank is not. What each viewer may see is decided in one place,
//! [`Junqi::sees_rank`]: one's own pieces, an opponent's flag once its field marshal has fallen,
//! and everything once the game is over. Every event is public but a seat's own
//! [`Event::Deployment`] ([`Event::audience`]), as none carries a rank before the end.
//!
//! Decisions this module makes where the sources are silent (docs/rules.md, "Our decisions"):
//! - a seat whose deployment time runs out is given a uniformly random legal layout
//!   ([`Junqi::time_out`]), as plane battle does; running out of time for a move loses (docs/rules.md);
//! - a field marshal's fall reveals its owner's flag however it fell (won against, traded, against
//!   a bomb or a landmine);
//! - the end rules are checked in docs/rules.md's order after every move, so a capture of the flag that
//!   leaves neither side a legal move is a draw;
//! - either player may resign at any time, deployment included, with an optional reason.

mod board;
mod position;

use rand::Rng;
use thiserror::Error;

pub use board::{COLUMNS, Direction, Link, POSTS, ParsePostError, Post, PostKind, ROWS, links};
pub use position::{
    DeploymentError, LAYOUT_POSTS, Layout, Move, MoveError, MoveResult, ParseLayoutError, Piece, Played,
    Position, Rank, layout_post,
};

use crate::{Audience, Game, PerSeat, Seat, Viewer};

/// Longest resignation reason accepted, in bytes.
pub const MAX_REASON_BYTES: usize = 200;

/// The CAAI championship's no-attack limit: after this many consecutive moves without a collision,
/// the side to move loses (docs/rules.md, junqi, "End of the game" 5).
pub const CAAI_NO_ATTACK_LIMIT: u8 = 31;

/// A junqi game's settings, as a room asks for them; checked by [`Junqi::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Config {
    /// Consecutive moves (both sides counted) without a collision after which the side to move
    /// loses: 10 to 31, *default* [`CAAI_NO_ATTACK_LIMIT`] (31); 0 turns the rule off.
    pub no_attack_limit: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            no_attack_limit: CAAI_NO_ATTACK_LIMIT,
        }
    }
}

/// A [`Config`] the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// The no-attack limit is 0 (off) or 10 to 31.
    #[error("the no-attack limit is 0 (off) or 10 to 31 moves, not {0}")]
    NoAttackLimit(u8),
}

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Action {
    /// Fix one's secret deployment, once, before the battle.
    Deploy {
        /// The layout, in one's own frame.
        layout: Layout,
    },
    /// Move a piece, on one's turn.
    Move {
        /// The piece's post (absolute frame).
        from: Post,
        /// Where it goes or what it attacks (absolute frame).
        to: Post,
    },
    /// Give up the game, at any time.
    Resign {
        /// Why, for the record (at most [`MAX_REASON_BYTES`] bytes).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        reason: Option<String>,
    },
}

/// Why an action was refused. The state is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Junqi has seats 0 (red) and 1 (blue) only.
    #[error("{0} is not at this table")]
    NoSuchSeat(Seat),
    /// The seat has already deployed (deployments are fixed once given).
    #[error("you have already deployed")]
    AlreadyDeployed,
    /// A move before both seats have deployed.
    #[error("the battle starts when both seats have deployed")]
    StillDeploying,
    /// The other player is to move.
    #[error("it is {to_move}'s turn")]
    NotYourTurn {
        /// The seat to move.
        to_move: Seat,
    },
    /// The layout breaks a deployment rule.
    #[error(transparent)]
    Deployment(#[from] DeploymentError),
    /// The move is illegal.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A resignation's reason is longer than [`MAX_REASON_BYTES`].
    #[error("a resignation's reason is at most {MAX_REASON_BYTES} bytes")]
    ReasonTooLong,
}

impl RuleError {
    /// A stable machine-readable code for the error, as sent in protocol `error` messages.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat(_) => "no_such_seat",
            RuleError::AlreadyDeployed => "already_deployed",
            RuleError::StillDeploying => "still_deploying",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::Deployment(e) => e.code(),
            RuleError::Move(e) => e.code(),
            RuleError::ReasonTooLong => "reason_too_long",
        }
    }
}

/// One move as everyone saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MoveRecord {
    /// Its number in the game, from 1.
    pub number: u32,
    /// Who moved.
    pub seat: Seat,
    /// From which post.
    pub from: Post,
    /// To which post.
    pub to: Post,
    /// What happened there.
    pub result: MoveResult,
}

/// A piece as a viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PieceView {
    /// Where it stands.
    pub post: Post,
    /// Whose it is.
    pub owner: Seat,
    /// Its rank, when the viewer may know it; `None` for a hidden enemy piece.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub rank: Option<Rank>,
}

/// How a game ended (docs/rules.md, junqi, "End of the game").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum End {
    /// Neither side has a legal move: a draw.
    NeitherCanMove,
    /// The side to move has no legal move and loses.
    NoLegalMove {
        /// Who.
        seat: Seat,
    },
    /// A flag was removed; its owner loses.
    FlagCaptured {
        /// The flag's owner.
        seat: Seat,
    },
    /// A player's move clock ran out.
    TimedOut {
        /// Who.
        seat: Seat,
    },
    /// The no-attack limit was reached; the side that made the last quiet move of the streak (its
    /// `limit`-th) loses (docs/rules.md, junqi, "End of the game" 5).
    NoAttackLimit {
        /// The side that made the limit-th quiet move, who loses.
        seat: Seat,
        /// The limit in force.
        limit: u8,
    },
    /// A player resigned.
    Resigned {
        /// Who.
        seat: Seat,
        /// Why, when given.
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        reason: Option<String>,
    },
}

/// The result once the game is over: everything is revealed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Seat>,
    /// How it ended.
    pub end: End,
    /// Moves played.
    pub moves: u32,
    /// Each seat's deployment (`None` for a seat that resigned before deploying).
    pub layouts: PerSeat<Option<Layout>>,
    /// Every piece on the board at the end, with its rank.
    pub pieces: Vec<PieceView>,
}

/// What happened. Every event is public: none names a rank before the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Event {
    /// The deployment began.
    Started {
        /// The no-attack limit in force (0: off).
        no_attack_limit: u8,
    },
    /// A seat fixed its deployment (which stays secret).
    Deployed {
        /// Who.
        seat: Seat,
    },
    /// The seat's own deployment, shown to that seat alone (it chose it, or the referee did when
    /// its deployment time ran out).
    Deployment {
        /// The seat.
        seat: Seat,
        /// Its layout, in its own frame.
        layout: Layout,
    },
    /// Both seats have deployed; the battle begins.
    BattleStarted {
        /// The seat to move first.
        to_move: Seat,
    },
    /// A piece moved.
    Moved {
        /// The move and its result.
        #[cfg_attr(feature = "serde", serde(flatten))]
        record: MoveRecord,
    },
    /// A seat's field marshal fell: its flag's post is known from now on.
    FlagRevealed {
        /// The flag's owner.
        seat: Seat,
        /// Where the flag stands.
        post: Post,
    },
    /// The game is over.
    Ended {
        /// The result, with everything revealed.
        outcome: Outcome,
    },
}

impl Event {
    /// Who may see this event: a seat's own [`Event::Deployment`] goes to that seat alone; every
    /// other event to everyone, as none carries a rank or a layout before [`Event::Ended`]. This
    /// is the one place that decides junqi's event visibility.
    pub fn audience(&self) -> Audience {
        match self {
            Event::Deployment { seat, .. } => Audience::Seat(*seat),
            _ => Audience::Everyone,
        }
    }
}

/// The stage a game is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Phase {
    /// Seats are deploying, in secret and at once.
    Deploying,
    /// The seats take turns to move.
    Battle,
    /// The game is over.
    Over,
}

/// What one viewer may know.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// The stage.
    pub phase: Phase,
    /// The no-attack limit in force (0: off).
    pub no_attack_limit: u8,
    /// Consecutive moves since the last collision.
    pub quiet_moves: u16,
    /// Whether each seat has deployed.
    pub deployed: PerSeat<bool>,
    /// The viewer's own deployment, once given (seats only).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub layout: Option<Layout>,
    /// Every piece on the board of a seat that has deployed, A0 to L4; ranks only where the viewer
    /// may know them.
    pub pieces: Vec<PieceView>,
    /// Every move so far, in order.
    pub moves: Vec<MoveRecord>,
    /// Flags whose posts are known to everyone (their field marshal fell), by owner.
    pub revealed_flags: PerSeat<Option<Post>>,
    /// The seat to move, during the battle.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub to_move: Option<Seat>,
    /// The result once the game is over.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub outcome: Option<Outcome>,
}

/// The referee of one junqi game.
#[derive(Clone, Debug)]
pub struct Junqi {
    config: Config,
    layouts: [Option<Layout>; 2],
    position: Position,
    moves: Vec<MoveRecord>,
    revealed_flags: [Option<Post>; 2],
    outcome: Option<Outcome>,
}

impl Junqi {
    /// A game waiting for both deployments, with the event that opens it.
    ///
    /// # Errors
    /// A no-attack limit other than 0 or 10 to 31.
    pub fn new(config: Config) -> Result<(Junqi, Vec<Event>), ConfigError> {
        if config.no_attack_limit != 0 && !(10..=31).contains(&config.no_attack_limit) {
            return Err(ConfigError::NoAttackLimit(config.no_attack_limit));
        }
        let game = Junqi {
            config,
            layouts: [None, None],
            position: Position::empty(Seat(0)),
            moves: Vec::new(),
            revealed_flags: [None, None],
            outcome: None,
        };
        Ok((
            game,
            vec![Event::Started {
                no_attack_limit: config.no_attack_limit,
            }],
        ))
    }

    /// The settings.
    pub fn config(&self) -> Config {
        self.config
    }

    /// The stage.
    pub fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            Phase::Over
        } else if self.layouts.iter().all(Option::is_some) {
            Phase::Battle
        } else {
            Phase::Deploying
        }
    }

    /// The true position (every rank known): for the referee's own use and for tests, never to be
    /// shown to a player.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// `seat`'s deployment, once given (secret until the end: for the referee's own use).
    pub fn layout(&self, seat: Seat) -> Option<Layout> {
        self.layouts.get(seat.index()).copied().flatten()
    }

    /// Every move so far.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// Whether `viewer` may know the rank of `piece` standing on `post`. This is the one place that
    /// decides what junqi hides: a seat knows its own pieces, everyone knows a flag revealed by
    /// its field marshal's fall, and everyone knows everything once the game is over.
    pub fn sees_rank(&self, viewer: Viewer, post: Post, piece: Piece) -> bool {
        self.outcome.is_some()
            || viewer == Viewer::Seat(piece.owner)
            || (piece.rank == Rank::Flag && self.revealed_flags[piece.owner.index()] == Some(post))
    }

    /// Acts on `seat`'s running out of time. While deploying, the seat is given a uniformly random
    /// legal layout ([`Layout::random`]); during the battle, the seat to move loses (docs/rules.md
    /// section 3, "End of the game" 4). Does nothing (no events) when the game is over or `seat`
    /// has nothing to do.
    pub fn time_out(&mut self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Vec<Event> {
        if seat.0 > 1 {
            return Vec::new();
        }
        match self.phase() {
            Phase::Deploying if self.layouts[seat.index()].is_none() => self
                .deploy(seat, Layout::random(rng))
                .expect("a random layout is legal and the seat has not deployed"),
            Phase::Battle if self.position.to_move() == seat => {
                self.finish(Some(other(seat)), End::TimedOut { seat })
            }
            _ => Vec::new(),
        }
    }

    fn deploy(&mut self, seat: Seat, layout: Layout) -> Result<Vec<Event>, RuleError> {
        if self.layouts[seat.index()].is_some() {
            return Err(RuleError::AlreadyDeployed);
        }
        layout.check()?;
        self.layouts[seat.index()] = Some(layout);
        for (post, rank) in layout.pieces(seat) {
            self.position.put(post, Some(Piece { owner: seat, rank }));
        }
        let mut events = vec![Event::Deployed { seat }, Event::Deployment { seat, layout }];
        if self.phase() == Phase::Battle {
            events.push(Event::BattleStarted {
                to_move: self.position.to_move(),
            });
        }
        Ok(events)
    }

    fn play(&mut self, seat: Seat, mv: Move) -> Result<Vec<Event>, RuleError> {
        if self.phase() == Phase::Deploying {
            return Err(RuleError::StillDeploying);
        }
        let to_move = self.position.to_move();
        if seat != to_move {
            return Err(RuleError::NotYourTurn { to_move });
        }
        self.position.check_move(seat, mv)?;
        let played = self.position.play(mv);
        let record = MoveRecord {
            number: u32::try_from(self.moves.len() + 1).expect("under 2^32 moves"),
            seat,
            from: mv.from,
            to: mv.to,
            result: played.result,
        };
        self.moves.push(record);
        let mut events = vec![Event::Moved { record }];
        let mut flag_taken = None;
        for piece in played.removed.into_iter().flatten() {
            match piece.rank {
                Rank::FieldMarshal => {
                    let owner = piece.owner;
                    if self.revealed_flags[owner.index()].is_none()
                        && let Some(post) = self.position.flag(owner)
                    {
                        self.revealed_flags[owner.index()] = Some(post);
                        events.push(Event::FlagRevealed { seat: owner, post });
                    }
                }
                Rank::Flag => flag_taken = Some(piece.owner),
                _ => {}
            }
        }
        // The end rules, in docs/rules.md's order (1, refusal, happened above; 4, the clock, is
        // `time_out`; 6, resignation, is its own action).
        let next = self.position.to_move();
        let next_can = self.position.has_legal_move(next);
        let other_can = self.position.has_legal_move(seat);
        let limit = self.config.no_attack_limit;
        if !next_can && !other_can {
            events.extend(self.finish(None, End::NeitherCanMove));
        } else if !next_can {
            events.extend(self.finish(Some(seat), End::NoLegalMove { seat: next }));
        } else if let Some(owner) = flag_taken {
            events.extend(self.finish(Some(other(owner)), End::FlagCaptured { seat: owner }));
        } else if limit > 0 && self.position.quiet_moves() >= u16::from(limit) {
            // The side that made the limit-th quiet move loses: the seed's "己方第31步未碰棋判负"
            // (docs/rules.md, junqi, "End of the game" 5).
            events.extend(self.finish(Some(next), End::NoAttackLimit { seat, limit }));
        }
        Ok(events)
    }

    fn finish(&mut self, winner: Option<Seat>, end: End) -> Vec<Event> {
        let outcome = Outcome {
            winner,
            end,
            moves: u32::try_from(self.moves.len()).expect("under 2^32 moves"),
            layouts: PerSeat(self.layouts.to_vec()),
            pieces: self
                .position
                .pieces()
                .map(|(post, piece)| PieceView {
                    post,
                    owner: piece.owner,
                    rank: Some(piece.rank),
                })
                .collect(),
        };
        self.outcome = Some(outcome.clone());
        vec![Event::Ended { outcome }]
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

impl Game for Junqi {
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = RuleError;
    type Outcome = Outcome;

    fn to_act(&self) -> Vec<Seat> {
        match self.phase() {
            Phase::Deploying => Seat::all(2)
                .filter(|s| self.layouts[s.index()].is_none())
                .collect(),
            Phase::Battle => vec![self.position.to_move()],
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        if seat.0 > 1 {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        match action {
            Action::Deploy { layout } => self.deploy(seat, layout),
            Action::Move { from, to } => self.play(seat, Move { from, to }),
            Action::Resign { reason } => {
                if reason.as_ref().is_some_and(|r| r.len() > MAX_REASON_BYTES) {
                    return Err(RuleError::ReasonTooLong);
                }
                Ok(self.finish(Some(other(seat)), End::Resigned { seat, reason }))
            }
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        View {
            viewer,
            phase: self.phase(),
            no_attack_limit: self.config.no_attack_limit,
            quiet_moves: self.position.quiet_moves(),
            deployed: PerSeat(self.layouts.iter().map(Option::is_some).collect()),
            layout: match viewer {
                Viewer::Seat(seat) if seat.0 <= 1 => self.layouts[seat.index()],
                _ => None,
            },
            pieces: self
                .position
                .pieces()
                .map(|(post, piece)| PieceView {
                    post,
                    owner: piece.owner,
                    rank: self.sees_rank(viewer, post, piece).then_some(piece.rank),
                })
                .collect(),
            moves: self.moves.clone(),
            revealed_flags: PerSeat(self.revealed_flags.to_vec()),
            to_move: (self.phase() == Phase::Battle).then(|| self.position.to_move()),
            outcome: self.outcome.clone(),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

#[cfg(feature = "serde")]
mod referee;
