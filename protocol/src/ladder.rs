//! The standing rated ladders' HTTP API types (`GET /api/ladders`, `GET /api/ladders/{id}`,
//! `GET /api/ladders/{id}/entrants/{entrant}`; docs/ladder.md): which ladders there are, each
//! one's table of rated entrants, and one entrant's rating history, head-to-head results and
//! recent games.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tournament::{ForfeitCounts, ForfeitReason, MatchId, MatchResult};
use crate::{GameConfig, GameKind};

/// The most ladders one `hello` may name (the server has six).
pub const MAX_LADDERS_PER_HELLO: usize = 8;

/// A standing ladder: one game and variant, with its seat count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub enum LadderId {
    /// Plane battle, 2 players.
    #[serde(rename = "plane-2")]
    Plane2,
    /// Plane battle, 3 players.
    #[serde(rename = "plane-3")]
    Plane3,
    /// Gomoku, freestyle (five or more wins), 15x15.
    #[serde(rename = "gomoku-freestyle")]
    GomokuFreestyle,
    /// Gomoku, renju rules (black's forbidden moves), 15x15.
    #[serde(rename = "gomoku-renju")]
    GomokuRenju,
    /// Junqi (2 players, each deploying its own layout).
    #[serde(rename = "junqi")]
    Junqi,
    /// Tic-tac-toe.
    #[serde(rename = "tic-tac-toe")]
    TicTacToe,
}

impl LadderId {
    /// Every ladder, in the order the lobby lists them.
    pub const ALL: [LadderId; 6] = [
        LadderId::GomokuFreestyle,
        LadderId::GomokuRenju,
        LadderId::Plane2,
        LadderId::Plane3,
        LadderId::Junqi,
        LadderId::TicTacToe,
    ];

    /// The id as the wire and the page's address write it (`gomoku-freestyle`).
    pub fn as_str(self) -> &'static str {
        match self {
            LadderId::Plane2 => "plane-2",
            LadderId::Plane3 => "plane-3",
            LadderId::GomokuFreestyle => "gomoku-freestyle",
            LadderId::GomokuRenju => "gomoku-renju",
            LadderId::Junqi => "junqi",
            LadderId::TicTacToe => "tic-tac-toe",
        }
    }

    /// The game this ladder plays.
    pub fn game(self) -> GameKind {
        match self {
            LadderId::Plane2 | LadderId::Plane3 => GameKind::Plane,
            LadderId::GomokuFreestyle | LadderId::GomokuRenju => GameKind::Gomoku,
            LadderId::Junqi => GameKind::Junqi,
            LadderId::TicTacToe => GameKind::TicTacToe,
        }
    }
}

impl std::fmt::Display for LadderId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for LadderId {
    type Err = crate::ParseIdError;

    fn from_str(s: &str) -> Result<LadderId, crate::ParseIdError> {
        LadderId::ALL
            .into_iter()
            .find(|l| l.as_str() == s)
            .ok_or_else(|| crate::ParseIdError(format!("no ladder is called `{s}`")))
    }
}

/// The rating system of a ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RatingSystem {
    /// Glicko-2 (Glickman 2012), for two players: a rating starts at 1500 with a deviation of
    /// 350.
    Glicko2,
    /// Weng-Lin's Bayesian rating for free-for-all games (Weng and Lin 2011, the model of
    /// OpenSkill), for three players: a rating starts at 25 with a deviation of 25/3.
    WengLin,
}

/// Who an entrant is: a bot account, the strategy it plays and the version it declared.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct LadderEntrant {
    /// Its number on this ladder (the `{entrant}` of its address).
    pub id: u64,
    /// The bot account's name.
    pub bot: String,
    /// The strategy.
    pub strategy: String,
    /// The version the bot declared in its offer (empty: none declared).
    pub version: String,
}

/// Why an entrant is not paired for now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Paused {
    /// The cause of the forfeits in a row that paused it (`engine_failure` or `timed_out`).
    pub reason: ForfeitReason,
    /// How many games in a row it lost so.
    pub in_a_row: u32,
    /// When it is paired again, in milliseconds since the Unix epoch (sooner with a new
    /// version, which is a new entrant).
    pub until_ms: u64,
}

/// One line of a ladder's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LadderRow {
    /// Place, 1 best, by the rating less twice its deviation (a conservative estimate: a
    /// provisional entrant ranks low until its deviation falls).
    pub rank: u32,
    /// Who.
    pub entrant: LadderEntrant,
    /// The rating (Glicko-2 points, or Weng-Lin's mu).
    pub rating: f64,
    /// Its deviation (Glicko-2's RD, or Weng-Lin's sigma), on the rating's scale.
    pub deviation: f64,
    /// Whether the deviation is still at or above the ladder's provisional bound.
    pub provisional: bool,
    /// Games rated.
    pub games: u32,
    /// Games won (alone in first place).
    pub wins: u32,
    /// Games drawn (first place shared).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Of the losses, those by forfeit, by cause.
    pub forfeits: ForfeitCounts,
    /// When its bot was last seen connected and in the ladder, in milliseconds since the Unix
    /// epoch.
    pub last_seen_ms: u64,
    /// Whether its bot is connected and in the ladder now.
    pub present: bool,
    /// Set while it is paused, with why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<Paused>,
}

/// A ladder's summary (`GET /api/ladders`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LadderSummary {
    /// Its id.
    pub id: LadderId,
    /// The game and its settings, as every game of the ladder is played.
    pub game: GameConfig,
    /// How results are rated.
    pub rating_system: RatingSystem,
    /// A rating is provisional while its deviation is at or above this.
    pub provisional_deviation: f64,
    /// Entrants ever rated or waiting (every version counted).
    pub entrants: u32,
    /// Games rated so far.
    pub games: u64,
    /// Games being played now.
    pub running: u32,
    /// In a cluster, the id of the node that runs the ladder now (under its lease; none while
    /// no node holds it, for a moment after its node is gone). Absent on a single server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

/// A ladder's table (`GET /api/ladders/{id}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LadderStatus {
    /// The summary.
    #[serde(flatten)]
    pub summary: LadderSummary,
    /// Every entrant, best first.
    pub table: Vec<LadderRow>,
}

/// One point of an entrant's rating history: its rating after a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingPoint {
    /// The game.
    pub game: MatchId,
    /// When it ended, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation after it.
    pub deviation: f64,
}

/// An entrant's results against one other entrant (in 3-player games, each opponent at the
/// table counts: a win is finishing above them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HeadToHead {
    /// The opponent.
    pub opponent: LadderEntrant,
    /// Games together.
    pub games: u32,
    /// Finished above the opponent.
    pub wins: u32,
    /// Finished level.
    pub draws: u32,
    /// Finished below.
    pub losses: u32,
}

/// A rated game of a ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LadderGame {
    /// Its id, also its room's and its replay's (`/replay/{id}`).
    pub id: MatchId,
    /// The entrant in each seat.
    pub seats: Vec<LadderEntrant>,
    /// The result.
    pub result: MatchResult,
    /// The number of its dealt deployments, when dealt (tables paired together share one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<u32>,
    /// When it ended, in milliseconds since the Unix epoch.
    pub finished_ms: u64,
}

/// One entrant's page (`GET /api/ladders/{id}/entrants/{entrant}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EntrantDetail {
    /// The ladder.
    pub ladder: LadderId,
    /// Its line of the table.
    pub row: LadderRow,
    /// Its rating after each game, oldest first (the newest points, at most a bounded number).
    pub history: Vec<RatingPoint>,
    /// Its results against each opponent it met, most games first.
    pub head_to_head: Vec<HeadToHead>,
    /// Its latest games, newest first.
    pub recent: Vec<LadderGame>,
}
