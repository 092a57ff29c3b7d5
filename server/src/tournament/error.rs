//! Why a tournament request was refused, each with a stable code.

use skirmish_protocol::ErrorCode;
use skirmish_protocol::tournament::{MatchId, TournamentId};

use crate::store::StoreError;

/// Why a tournament request was refused; each has a stable code.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The settings cannot be played.
    #[error("{0}")]
    BadConfig(String),
    /// An entrant named is not a connected bot account offering that strategy for the game.
    #[error("no connected bot account `{0}` offers the strategy `{1}` for this game")]
    UnknownEntrant(String, String),
    /// Too few entrants for the game's seats.
    #[error("{0} entrant(s): a tournament needs at least {1} (connect bots first, or name them)")]
    TooFewEntrants(usize, usize),
    /// No tournament has this id.
    #[error("no tournament {0}")]
    NoSuchTournament(TournamentId),
    /// The tournament is already over.
    #[error("the tournament is already {0}")]
    Over(&'static str),
    /// The match's deal is still being played at another table.
    #[error(
        "match {0}'s deal is still being played at another table; its record waits until the deal is over everywhere"
    )]
    DealInPlay(MatchId),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TournamentError {
    /// The stable code (`bad_config`, `unknown_entrant`, `too_few_entrants`,
    /// `no_such_tournament`, `tournament_over`, `deal_in_play`, `storage`).
    pub fn code(&self) -> ErrorCode {
        match self {
            TournamentError::BadConfig(_) => ErrorCode::BadConfig,
            TournamentError::UnknownEntrant(..) => ErrorCode::UnknownEntrant,
            TournamentError::TooFewEntrants(..) => ErrorCode::TooFewEntrants,
            TournamentError::NoSuchTournament(_) => ErrorCode::NoSuchTournament,
            TournamentError::Over(_) => ErrorCode::TournamentOver,
            TournamentError::DealInPlay(_) => ErrorCode::DealInPlay,
            TournamentError::Store(_) => ErrorCode::Storage,
        }
    }
}
