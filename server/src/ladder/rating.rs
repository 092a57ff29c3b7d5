//! Rating a ladder game's result with the `skillratings` crate: Glicko-2 for two players,
//! Weng-Lin for three.
//!
//! Why these two: both carry each rating's uncertainty (a deviation that shrinks with games and
//! that the page shows), as the issue asks. Glicko-2 (Glickman 2012) is the two-player standard
//! that lichess and many game servers use, and its scale (1500 ± 350 to start) is familiar to
//! bot authors. It has no free-for-all form, so the 3-player ladder uses Weng-Lin (Weng and Lin
//! 2011, the model of OpenSkill), a Bayesian rating made for games of several players ranked
//! by place (25 ± 25/3 to start, TrueSkill's scale). Each game is rated as it ends (a rating
//! period of one game), so the table moves as games come in.

use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};
use skirmish_protocol::ladder::RatingSystem;

use crate::store::EntrantStats;

/// Glicko-2's starting deviation (350, Glickman's paper and `skillratings`' default).
pub const GLICKO2_START_DEVIATION: f64 = 350.0;

/// Weng-Lin's starting deviation (25/3, the paper's and `skillratings`' default).
pub const WENG_LIN_START_DEVIATION: f64 = 25.0 / 3.0;

/// A Glicko-2 rating is provisional while its deviation is at least 110: lichess's bound
/// (lichess.org/faq, "provisional rating"), about a third of the starting 350.
pub const GLICKO2_PROVISIONAL: f64 = 110.0;

/// A Weng-Lin rating is provisional while its deviation is at least 110/350 of the starting
/// 25/3 (about 2.62): the same share of the start as [`GLICKO2_PROVISIONAL`].
pub const WENG_LIN_PROVISIONAL: f64 =
    WENG_LIN_START_DEVIATION * GLICKO2_PROVISIONAL / GLICKO2_START_DEVIATION;

/// The rating system for a game of `seats` seats: Glicko-2 for 2, Weng-Lin for more.
pub fn system_for(seats: usize) -> RatingSystem {
    if seats == 2 {
        RatingSystem::Glicko2
    } else {
        RatingSystem::WengLin
    }
}

/// The deviation at or above which a rating of `system` is provisional.
pub fn provisional_bound(system: RatingSystem) -> f64 {
    match system {
        RatingSystem::Glicko2 => GLICKO2_PROVISIONAL,
        RatingSystem::WengLin => WENG_LIN_PROVISIONAL,
    }
}

/// A new entrant's stats under `system`: the starting rating and deviation, no games.
pub fn fresh(system: RatingSystem, now_ms: u64) -> EntrantStats {
    let (rating, deviation, volatility) = match system {
        RatingSystem::Glicko2 => {
            let r = Glicko2Rating::new();
            (r.rating, r.deviation, r.volatility)
        }
        RatingSystem::WengLin => {
            let r = WengLinRating::new();
            (r.rating, r.uncertainty, 0.0)
        }
    };
    EntrantStats {
        rating,
        deviation,
        volatility,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        forfeits: skirmish_protocol::tournament::ForfeitCounts::default(),
        fail_streak: 0,
        last_fail: None,
        paused_until_ms: 0,
        last_seen_ms: now_ms,
    }
}

/// The new (rating, deviation, volatility) of each seat after a game whose places per seat
/// (1 best, shared on a draw) are `placings`, from `before` in seat order.
///
/// # Panics
/// When `placings` and `before` differ in length (a game's result has one place per seat).
pub fn rate(system: RatingSystem, before: &[(f64, f64, f64)], placings: &[u8]) -> Vec<(f64, f64, f64)> {
    assert_eq!(before.len(), placings.len(), "one place per seat");
    match system {
        RatingSystem::Glicko2 if before.len() == 2 => {
            let r = |(rating, deviation, volatility): (f64, f64, f64)| Glicko2Rating {
                rating,
                deviation,
                volatility,
            };
            let outcome = match placings[0].cmp(&placings[1]) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
            };
            let (a, b) = glicko2(&r(before[0]), &r(before[1]), &outcome, &Glicko2Config::new());
            vec![
                (a.rating, a.deviation, a.volatility),
                (b.rating, b.deviation, b.volatility),
            ]
        }
        _ => {
            let teams: Vec<[WengLinRating; 1]> = before
                .iter()
                .map(|(rating, uncertainty, _)| {
                    [WengLinRating {
                        rating: *rating,
                        uncertainty: *uncertainty,
                    }]
                })
                .collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(placings)
                .map(|(team, place)| (&team[..], MultiTeamOutcome::new(usize::from(*place))))
                .collect();
            weng_lin_multi_team(&ranked, &WengLinConfig::new())
                .into_iter()
                .map(|team| (team[0].rating, team[0].uncertainty, 0.0))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_the_winner_and_every_game_shrinks_the_deviation() {
        let start = (1500.0, 350.0, 0.06);
        let after = rate(RatingSystem::Glicko2, &[start, start], &[1, 2]);
        assert!(after[0].0 > 1500.0 && after[1].0 < 1500.0);
        assert!(after[0].1 < 350.0 && after[1].1 < 350.0);
        let start = (25.0, WENG_LIN_START_DEVIATION, 0.0);
        let after = rate(RatingSystem::WengLin, &[start, start, start], &[2, 1, 3]);
        assert!(after[1].0 > after[0].0 && after[0].0 > after[2].0);
        assert!(after.iter().all(|a| a.1 < WENG_LIN_START_DEVIATION));
    }

    #[test]
    fn a_draw_between_equals_moves_no_rating() {
        let start = (1500.0, 350.0, 0.06);
        let after = rate(RatingSystem::Glicko2, &[start, start], &[1, 1]);
        assert!((after[0].0 - 1500.0).abs() < 1e-9);
    }
}
