//! Tournaments: what the HTTP API (`/api/tournaments`) takes and answers, as JSON.
//!
//! A tournament is a schedule of matches between [`Entrant`]s, each a (bot account, strategy)
//! pair, played over the network on the server. [`TournamentConfig`] creates one;
//! [`TournamentStatus`] follows it; [`Standings`] rank its entrants. Every match's full record
//! ([`MatchRecord`]) is stored and can be replayed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::ids::{MatchId, TournamentId};
use crate::{Clock, GameConfig, GameEvent, GameKind, RoomId, Seat};

/// One entrant: a bot account (by its name, which is the account's alone) playing one of its
/// strategies. The same account may enter several times with different strategies. Its seats go
/// to the connection that said `hello` with the account's token, never to another connection,
/// whatever name that one says; anonymous bots (no token) never enter tournaments.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Entrant {
    /// The bot account's name.
    pub bot: String,
    /// The strategy it plays.
    pub strategy: String,
    /// The bot's version as it announced it when the tournament was made (`None`: not said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl std::fmt::Display for Entrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.bot, self.strategy)
    }
}

/// How entrants are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Format {
    /// Every pair of entrants meets (every triple, for 3-player plane battle).
    RoundRobin,
    /// Rounds of pairings between entrants with equal or near scores, no pairing twice while
    /// another is possible; an entrant left over sits the round out with a bye (a win).
    Swiss {
        /// Rounds to play (default: ⌈log2(entrants)⌉, at least 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rounds: Option<u32>,
    },
}

/// What creates a tournament (`POST /api/tournaments`). Every field but `game` has a default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentConfig {
    /// A name to show (default: made from the game and the format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game every match plays, with its settings (plane battle: `players` 2 or 3, the
    /// rounds per match; gomoku: board and rule; junqi: the no-attack limit). A gomoku
    /// `opening` here is ignored: `openings` says which are played.
    pub game: GameConfig,
    /// Time controls: per deployment and per move, and per game (`game_ms`, each seat's whole
    /// thinking time). A bot that runs out of either loses the match. Default: 10 s per
    /// deployment, 5 s per move, no game limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// The pairing format (default: round robin).
    #[serde(default = "round_robin")]
    pub format: Format,
    /// The entrants, each a bot account (by its name) and a strategy. Empty (the default): every
    /// strategy for this game of every bot account connected when the tournament is made.
    /// Anonymous bots (no account token) never enter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entrants: Vec<Entrant>,
    /// Sets of matches per pairing (default 1). A set is every seat order of the pairing (both
    /// colours for 2 players, all 6 orders for 3), and for gomoku every opening in `openings`
    /// with both colours.
    #[serde(default = "one")]
    pub games_per_pairing: u32,
    /// Gomoku openings (docs/rules.md, gomoku), each played once with each colour in every set;
    /// empty: the empty board.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub openings: Vec<String>,
    /// Duplicate matches, bridge's way: the server deals every secret deployment (uniformly
    /// random legal ones, derived from the tournament's seed, see [`crate::deal`]) and plays each
    /// deal at several tables at once, each with different entrants, the seats rotated over the
    /// tournament; no entrant ever plays the same deal twice. With fewer than twice the game's
    /// seats in entrants no two tables can have different entrants: every match then has a fresh
    /// deal of its own ([`Dealing::Fresh`]). Default: on for plane battle; off for junqi, whose
    /// entrants deploy their own layouts (a layout is part of a junqi player's skill; on, junqi
    /// layouts are dealt by the same rule). Ignored for gomoku, which hides nothing. The status
    /// shows the value in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<bool>,
    /// Matches played at once (default 4, at most 256).
    #[serde(default = "four")]
    pub parallel: u32,
    /// Milliseconds a bot that drops out of a match has to reconnect and resume, and an entrant
    /// has to be connected when its match is due; then it loses the match (default 10,000).
    #[serde(default = "ten_seconds")]
    pub grace_ms: u64,
    /// The seed of the schedule and the deals (default: a random one). Secret while the
    /// tournament runs: the status carries only [`SeedCommitment`], and this field is left out
    /// of it (a seed given here too) until the tournament is over. Random seeds are under 2^53,
    /// which JavaScript reads exactly; a larger one given here is kept, but a browser shows it
    /// rounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

fn round_robin() -> Format {
    Format::RoundRobin
}
fn one() -> u32 {
    1
}
fn four() -> u32 {
    4
}
fn ten_seconds() -> u64 {
    10_000
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentState {
    /// Matches are being played.
    Running,
    /// Every match is over.
    Finished,
    /// Stopped by `POST /api/tournaments/{id}/cancel`; finished matches are kept.
    Cancelled,
}

/// A tournament in the list (`GET /api/tournaments`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentSummary {
    /// Its id.
    pub id: TournamentId,
    /// Its name.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// Where it is.
    pub state: TournamentState,
    /// The entrants, in the order standings and crosstables index them.
    pub entrants: Vec<Entrant>,
    /// Matches scheduled so far (a Swiss tournament schedules a round at a time).
    pub matches: u32,
    /// Matches over.
    pub finished: u32,
    /// Matches being played.
    pub running: u32,
    /// Matches a round robin will play in all; for Swiss, the rounds times the matches a round
    /// holds.
    pub total: u32,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// Where one match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchState {
    /// Waiting for a free slot or for its entrants to connect.
    Pending,
    /// Being played, in the room named.
    Running,
    /// Over; the result is final.
    Finished,
    /// Not played: the tournament was cancelled first.
    Cancelled,
}

/// One match of a tournament, as its status lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchSummary {
    /// Its id (`GET /api/matches/{id}` has its full record once it is over).
    pub id: MatchId,
    /// Its place in the schedule, from 0.
    pub index: u32,
    /// The Swiss round it belongs to, from 0 (0 for every round robin match).
    pub round: u32,
    /// The entrant in each seat, as indices into the tournament's entrants.
    pub seats: Vec<usize>,
    /// The gomoku opening played, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    /// The deal it plays, numbered from 0 in the tournament, when the server deals its boards:
    /// every match with the same number is dealt the same boards, seat by seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<u32>,
    /// Its deal is played at other tables too and is not over everywhere: until it is, no one
    /// may watch this match, and its record (`GET /api/matches/{id}`) is refused with
    /// `deal_in_play`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sealed: bool,
    /// Where it is.
    pub state: MatchState,
    /// The room it is played in, to watch it, while it runs (left out while the match is
    /// sealed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<RoomId>,
    /// The result, once it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<MatchResult>,
}

/// How a match ended, per seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchResult {
    /// Points per seat by the game's own scoring: plane battle's match totals (docs/rules.md,
    /// plane battle); 1 for a win, 0.5 for a draw and 0 for a loss in gomoku and junqi.
    pub points: Vec<f64>,
    /// Place per seat, 1 best; seats that share a place (a draw) have the same one.
    pub placings: Vec<u8>,
    /// How it ended, as the game says it (`five`, `flag_captured`, `rounds`, ...), or
    /// `forfeit` when a seat lost by leaving.
    pub end: String,
    /// The seat that lost by forfeit, and why ([`Forfeit::reason`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
}

/// A seat that lost a match without playing it out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Forfeit {
    /// The seat.
    pub seat: Seat,
    /// Why.
    pub reason: ForfeitReason,
    /// What happened, for people (the bot's own words for an `engine_failure`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Why a seat lost a match without playing it out. `disconnected`, `timed_out` and `absent` are
/// the server's to decide; `engine_failure` is the bot's own word (`forfeit` in the protocol,
/// [`crate::ForfeitCause`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// The seat's bot dropped and did not come back within the grace period.
    Disconnected,
    /// A move's time or the seat's game clock ran out.
    TimedOut,
    /// The entrant was not connected when the match was due, nor within the grace period.
    Absent,
    /// The seat's bot said its outside engine failed (crash, time-out, illegal or unreadable
    /// answer).
    EngineFailure,
    /// A reason this version does not know (a record written by another).
    #[serde(other)]
    Other,
}

impl ForfeitReason {
    /// The reason as the protocol writes it (`timed_out`).
    pub fn as_str(self) -> &'static str {
        match self {
            ForfeitReason::Disconnected => "disconnected",
            ForfeitReason::TimedOut => "timed_out",
            ForfeitReason::Absent => "absent",
            ForfeitReason::EngineFailure => "engine_failure",
            ForfeitReason::Other => "other",
        }
    }

    /// The reason `text` names ([`ForfeitReason::Other`] for one this version does not know).
    pub fn parse(text: &str) -> ForfeitReason {
        serde_json::from_value(serde_json::Value::String(text.to_owned())).unwrap_or(ForfeitReason::Other)
    }
}

impl From<crate::ForfeitCause> for ForfeitReason {
    fn from(cause: crate::ForfeitCause) -> Self {
        match cause {
            crate::ForfeitCause::EngineFailure => ForfeitReason::EngineFailure,
        }
    }
}

impl PartialEq<&str> for ForfeitReason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Matches an entrant lost by forfeit, by cause ([`ForfeitReason`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ForfeitCounts {
    /// Lost by a clock running out.
    pub timed_out: u32,
    /// Lost by dropping out and not coming back in time.
    pub disconnected: u32,
    /// Lost by not being connected when the match was due.
    pub absent: u32,
    /// Lost by the bot's outside engine failing.
    pub engine_failure: u32,
    /// Lost by a forfeit of another reason (older records).
    pub other: u32,
}

/// A tournament's status (`GET /api/tournaments/{id}`): the summary, its settings and every match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentStatus {
    /// The summary.
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// The settings, with the defaults filled in; the seed only once the tournament is over.
    pub config: TournamentConfig,
    /// How the secret deployments are dealt.
    pub dealing: Dealing,
    /// The commitment to the seed, published at creation; the seed and salt once it is over.
    pub seed: SeedCommitment,
    /// Every match scheduled so far, in schedule order.
    pub schedule: Vec<MatchSummary>,
}

/// How a tournament's secret deployments are dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Dealing {
    /// Nothing is dealt: every entrant deploys for itself (gomoku has nothing to deploy; junqi
    /// by default; duplicate off).
    Own,
    /// Duplicate: each deal is played at up to `tables` tables at once, each with different
    /// entrants; no entrant plays a deal twice.
    Duplicate {
        /// The most tables one deal is played at (the entrants divided by the seats, rounded
        /// down).
        tables: u32,
    },
    /// Duplicate was asked for but is not possible: with fewer than twice the seats in
    /// entrants, two tables always share an entrant. Every match is dealt fresh boards of its
    /// own, played nowhere else.
    Fresh {
        /// Why, in words.
        why: String,
    },
}

/// A tournament's commitment to its seed (docs/tournaments.md, "Seeds").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeedCommitment {
    /// Lowercase hex SHA-256 of `salt + ":" + seed` (the seed in decimal), published when the
    /// tournament is made ([`crate::commitment::digest`]).
    pub sha256: String,
    /// The seed, once the tournament is over (finished or cancelled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The salt (64 lowercase hex digits), once the tournament is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
}

impl SeedCommitment {
    /// Whether the revealed seed and salt open the commitment (false while they are hidden).
    pub fn verifies(&self) -> bool {
        match (&self.seed, &self.salt) {
            (Some(seed), Some(salt)) => crate::commitment::digest(salt, &seed.to_string()) == self.sha256,
            _ => false,
        }
    }
}

/// A finished match's full record (`GET /api/matches/{id}`), to replay it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MatchRecord {
    /// The match.
    #[serde(flatten)]
    pub summary: MatchSummary,
    /// Its tournament.
    pub tournament: TournamentId,
    /// The entrant in each seat.
    pub entrants: Vec<Entrant>,
    /// The game and its settings.
    pub game: GameConfig,
    /// Every event of the match in order, secret ones included (the match is over, so
    /// nothing is hidden any more).
    pub events: Vec<GameEvent>,
}

/// One entrant's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Standing {
    /// Place in the standings, 1 best (by score, then points, then Elo).
    pub rank: u32,
    /// Index into the tournament's entrants.
    pub entrant: usize,
    /// Matches finished.
    pub matches: u32,
    /// Matches won (placed first alone, or a bye).
    pub wins: u32,
    /// Matches drawn (placed first with another).
    pub draws: u32,
    /// Matches lost.
    pub losses: u32,
    /// Wins plus half the draws.
    pub score: f64,
    /// Points by the game's own scoring, summed over the matches ([`MatchResult::points`]).
    pub points: f64,
    /// Points per match.
    pub average_points: f64,
    /// Times placed 1st, 2nd, 3rd (as many places as the game has seats).
    pub placings: Vec<u32>,
    /// Matches lost on the board: `losses` less `forfeits`.
    #[serde(default)]
    pub board_losses: u32,
    /// Matches lost by forfeit, every cause together.
    pub forfeits: u32,
    /// Matches lost by forfeit, by cause.
    #[serde(default)]
    pub forfeits_by: ForfeitCounts,
    /// The duplicate comparison, as duplicate bridge scores a board against the other tables
    /// that played it: summed over the entrant's seats on deals finished at two tables or more,
    /// the game's points it made in that seat less the mean of what the same seat of the same
    /// deal made at the other tables (plane battle's points; 1/½/0 in gomoku and junqi). 0 when
    /// no deal was compared (fresh deals, or bots deploying their own).
    #[serde(default)]
    pub duplicate: f64,
    /// How many of the entrant's seats the duplicate comparison counted.
    #[serde(default)]
    pub duplicate_boards: u32,
    /// Elo rating: a Bradley-Terry fit of every pairwise result (in a 3-player match, each pair
    /// of seats by their places), on the Elo scale (400 per factor of 10 in the odds), with the
    /// entrants' mean at 1500.
    pub elo: f64,
    /// The 95% interval of `elo`, low end.
    pub elo_low: f64,
    /// The 95% interval of `elo`, high end.
    pub elo_high: f64,
}

/// One cell of the crosstable: how an entrant did against another.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Crosscell {
    /// Pairwise games (a 3-player match counts once for each pair in it).
    pub games: u32,
    /// Pairwise wins plus half the draws.
    pub score: f64,
}

/// A tournament's standings (`GET /api/tournaments/{id}/standings`), from every finished match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Standings {
    /// The tournament.
    pub tournament: TournamentId,
    /// Where it is.
    pub state: TournamentState,
    /// The entrants, as in the summary.
    pub entrants: Vec<Entrant>,
    /// One line per entrant, best first.
    pub table: Vec<Standing>,
    /// `crosstable[a][b]`: how entrant `a` did against entrant `b` (indices into `entrants`).
    pub crosstable: Vec<Vec<Crosscell>>,
    /// Matches counted.
    pub matches: u32,
    /// How the deployments were dealt: `fresh` says duplicate was not possible (too few
    /// entrants), so results are not compared deal by deal.
    pub dealing: Dealing,
}
