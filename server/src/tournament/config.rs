//! A tournament's settings: checked, their defaults filled in, and what they mean for the
//! schedule (sets, openings, deals).

use skirmish_games::referee::Dealing as GameDealing;
use skirmish_protocol::Clock;
use skirmish_protocol::tournament::{Dealing, Format, TournamentConfig};

use super::error::TournamentError;
use super::schedule::{self, SetRules};

/// Checks a tournament's settings and fills in the defaults.
pub(super) fn check(config: &mut TournamentConfig) -> Result<(), TournamentError> {
    let bad = |m: String| Err(TournamentError::BadConfig(m));
    if let Some(without) = config.game.with_opening(None) {
        config.game = without;
        for name in &config.openings {
            let with = config
                .game
                .with_opening(Some(name))
                .expect("the game has openings");
            crate::table::Table::new(&with).map_err(|e| TournamentError::BadConfig(e.to_string()))?;
        }
    } else if !config.openings.is_empty() {
        return bad(format!(
            "{} has no openings (gomoku has)",
            config.game.kind().name()
        ));
    }
    crate::table::Table::new(&config.game).map_err(|e| TournamentError::BadConfig(e.to_string()))?;
    // Duplicate by default where the game says so (plane battle); junqi entrants deploy their
    // own layouts unless asked.
    let duplicate = match config.game.kind().dealing() {
        GameDealing::Never => false,
        GameDealing::ByDefault => config.duplicate.unwrap_or(true),
        GameDealing::OnRequest => config.duplicate.unwrap_or(false),
    };
    config.duplicate = Some(duplicate);
    let clock = config.clock.get_or_insert(Clock {
        deploy_ms: 10_000,
        move_ms: 5_000,
        game_ms: 0,
    });
    let fine = |ms: u64| ms == 0 || (100..=3_600_000).contains(&ms);
    if !fine(clock.deploy_ms) || !fine(clock.move_ms) || !fine(clock.game_ms) {
        return bad("time limits are 100 to 3,600,000 ms, or 0 for none".to_owned());
    }
    if !(1..=100).contains(&config.games_per_pairing) {
        return bad("games_per_pairing is 1 to 100".to_owned());
    }
    if !(1..=256).contains(&config.parallel) {
        return bad("parallel is 1 to 256 matches".to_owned());
    }
    if config.grace_ms > 600_000 {
        return bad("grace_ms is at most 600,000".to_owned());
    }
    if let Format::Swiss { rounds: Some(rounds) } = config.format
        && !(1..=100).contains(&rounds)
    {
        return bad("a Swiss tournament has 1 to 100 rounds".to_owned());
    }
    let name = config.name.get_or_insert_with(|| {
        let game = config.game.kind().name();
        let format = match config.format {
            Format::RoundRobin => "round robin",
            Format::Swiss { .. } => "Swiss",
        };
        format!("{game} {format}")
    });
    *name = skirmish_protocol::clean_name(name);
    if name.is_empty() || name.chars().count() > 64 {
        return bad("a tournament name has 1 to 64 characters".to_owned());
    }
    Ok(())
}

pub(super) fn set_rules(config: &TournamentConfig) -> SetRules {
    SetRules {
        sets: config.games_per_pairing,
        openings: config.openings.clone(),
        dealt: config.duplicate == Some(true) && config.game.kind().dealing() != GameDealing::Never,
    }
}

/// How `config` deals, for `entrants` entrants.
pub(super) fn dealing_of(config: &TournamentConfig, entrants: usize) -> Dealing {
    let seats = config.game.seats();
    if !set_rules(config).dealt {
        Dealing::Own
    } else if schedule::duplicate_possible(entrants, seats) {
        Dealing::Duplicate {
            tables: u32::try_from(entrants / seats).unwrap_or(u32::MAX),
        }
    } else {
        Dealing::Fresh {
            why: format!(
                "duplicate needs at least {} entrants (two tables of {seats} with different entrants); \
                 with {entrants}, every match is dealt fresh boards of its own",
                2 * seats
            ),
        }
    }
}
