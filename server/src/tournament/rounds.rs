//! Planned matches and byes turned into stored matches, and the next Swiss round from the
//! results so far.

use std::collections::HashSet;

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use skirmish_protocol::tournament::{MatchId, MatchResult, MatchState, MatchSummary};

use super::config::set_rules;
use super::schedule::{self, Planned};
use super::standings;
use crate::store::{StoredMatch, StoredTournament};

pub(super) fn to_stored(planned: Vec<Planned>, first_index: usize) -> Vec<StoredMatch> {
    planned
        .into_iter()
        .enumerate()
        .map(|(i, p)| StoredMatch {
            summary: MatchSummary {
                id: MatchId::random(),
                index: u32::try_from(first_index + i).unwrap_or(u32::MAX),
                round: p.round,
                seats: p.seats,
                opening: p.opening,
                deal: p.deal,
                sealed: false,
                state: MatchState::Pending,
                room: None,
                result: None,
            },
        })
        .collect()
}

pub(super) fn byes_of(byes: &[usize], first_index: usize, round: u32) -> Vec<StoredMatch> {
    byes.iter()
        .enumerate()
        .map(|(i, e)| StoredMatch {
            summary: MatchSummary {
                id: MatchId::random(),
                index: u32::try_from(first_index + i).unwrap_or(u32::MAX),
                round,
                seats: vec![*e],
                opening: None,
                deal: None,
                sealed: false,
                state: MatchState::Finished,
                room: None,
                result: Some(MatchResult {
                    points: vec![0.0],
                    placings: vec![1],
                    end: "bye".to_owned(),
                    forfeit: None,
                }),
            },
        })
        .collect()
}

/// Swiss round `round`'s matches and byes, from the results so far, with their deals numbered
/// after every deal of the rounds before. Its randomness (the draw of round 0) comes from the
/// seed and the round, so a restart schedules the same.
pub(super) fn swiss_round(t: &StoredTournament, round: u32) -> (Vec<Planned>, Vec<usize>) {
    let seed = t.config.seed.unwrap_or_default();
    let mut rng = ChaCha12Rng::seed_from_u64(seed ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let summaries: Vec<MatchSummary> = t.matches.iter().map(|m| m.summary.clone()).collect();
    let seats = t.config.game.seats();
    let (table, _, _) = standings::standings(t.entrants.len(), seats, &summaries);
    let mut scores = vec![0.0; t.entrants.len()];
    for line in &table {
        scores[line.entrant] = line.score;
    }
    let ranking = schedule::swiss_ranking(&scores, &mut rng);
    let mut met = HashSet::new();
    let mut had_bye = HashSet::new();
    for m in &summaries {
        if m.seats.len() == 1 {
            had_bye.insert(m.seats[0]);
        }
        for a in &m.seats {
            for b in &m.seats {
                if a < b {
                    met.insert((*a, *b));
                }
            }
        }
    }
    let (groups, byes) = schedule::swiss_groups(&ranking, seats, &met, &had_bye);
    let rules = set_rules(&t.config);
    let mut planned: Vec<Planned> = groups
        .iter()
        .flat_map(|g| schedule::pairing(g, round, &rules))
        .collect();
    let next_deal = t
        .matches
        .iter()
        .filter_map(|m| m.summary.deal)
        .max()
        .map_or(0, |d| d + 1);
    schedule::assign_deals(&mut planned, rules.dealt, next_deal);
    planned.sort_by_key(|p| p.deal);
    (planned, byes)
}
