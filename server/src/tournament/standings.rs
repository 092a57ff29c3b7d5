//! Standings from finished matches: score, wins/draws/losses, the game's own points, placings,
//! losses on the board apart from forfeits by cause (timeout, disconnection, absence, engine
//! failure), a crosstable and Elo ratings with 95% intervals.
//!
//! Ratings are a Bradley-Terry fit (the model behind Elo; Hunter, "MM algorithms for generalized
//! Bradley-Terry models", Ann. Statist. 2004) of every pairwise result: a 2-player match is one
//! pairwise game; a 3-player match is three, one for each pair of seats, decided by their places.
//! A draw counts as half a win for each side. Every entrant also gets one virtual draw against a
//! fixed opponent of strength 1 (a weak prior, as BayesElo does), so that an entrant who won or
//! lost every game still gets a finite rating. The fit is Newton's method on the log-likelihood;
//! the intervals come from the inverse of its Hessian (the observed information).

use skirmish_protocol::tournament::{
    Crosscell, ForfeitCounts, ForfeitReason, MatchState, MatchSummary, Standing,
};

/// The duplicate comparison of every seat of every finished match whose deal finished at two
/// tables or more: `(entrant, points made in the seat − the mean of the same seat's points at the
/// deal's other finished tables)`, as duplicate bridge compares a board with the other tables
/// that played it. Byes and matches without a deal give nothing.
fn duplicate_comparison(matches: &[MatchSummary]) -> Vec<(usize, f64)> {
    let mut by_deal: std::collections::BTreeMap<u32, Vec<&MatchSummary>> = Default::default();
    for m in matches {
        let finished = m.state == MatchState::Finished && m.result.as_ref().is_some_and(|r| r.end != "bye");
        if let (Some(deal), true) = (m.deal, finished) {
            by_deal.entry(deal).or_default().push(m);
        }
    }
    let mut out = Vec::new();
    for tables in by_deal.values().filter(|t| t.len() >= 2) {
        let points = |m: &MatchSummary, seat: usize| {
            m.result
                .as_ref()
                .and_then(|r| r.points.get(seat))
                .copied()
                .unwrap_or(0.0)
        };
        for (i, m) in tables.iter().enumerate() {
            for (seat, entrant) in m.seats.iter().enumerate() {
                let others: Vec<f64> = tables
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, other)| points(other, seat))
                    .collect();
                #[allow(clippy::cast_precision_loss)] // a handful of tables
                let mean = others.iter().sum::<f64>() / others.len() as f64;
                out.push((*entrant, points(m, seat) - mean));
            }
        }
    }
    out
}

/// Elo points per natural-log unit of strength: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// The rating the entrants' mean is shown at.
const ELO_MEAN: f64 = 1500.0;
/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// One pairwise game: `a` against `b`, `score` being `a`'s (1 win, 0.5 draw, 0 loss).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pairwise {
    /// One entrant.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// `a`'s score.
    pub score: f64,
}

/// The standings of `entrants` entrants in a game of `seats` seats, from `matches` (those not
/// finished are skipped), best first: ordered by score, then points, then Elo, then index.
/// Also returns the crosstable, `crosstable[a][b]` being `a`'s results against `b`.
pub fn standings(
    entrants: usize,
    seats: usize,
    matches: &[MatchSummary],
) -> (Vec<Standing>, Vec<Vec<Crosscell>>, u32) {
    let mut table: Vec<Standing> = (0..entrants)
        .map(|entrant| Standing {
            rank: 0,
            entrant,
            matches: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
            points: 0.0,
            average_points: 0.0,
            placings: vec![0; seats],
            board_losses: 0,
            forfeits: 0,
            forfeits_by: ForfeitCounts::default(),
            duplicate: 0.0,
            duplicate_boards: 0,
            elo: ELO_MEAN,
            elo_low: ELO_MEAN,
            elo_high: ELO_MEAN,
        })
        .collect();
    let mut crosstable = vec![vec![Crosscell::default(); entrants]; entrants];
    let mut pairwise = Vec::new();
    let mut counted = 0;
    let mut played = vec![0u32; entrants];
    for m in matches {
        let Some(result) = m.result.as_ref().filter(|_| m.state == MatchState::Finished) else {
            continue;
        };
        counted += 1;
        if result.end == "bye" {
            if let Some(line) = m.seats.first().and_then(|e| table.get_mut(*e)) {
                line.matches += 1;
                line.wins += 1;
                line.score += 1.0;
            }
            continue;
        }
        let firsts = result.placings.iter().filter(|p| **p == 1).count();
        for (seat, entrant) in m.seats.iter().enumerate() {
            let Some(line) = table.get_mut(*entrant) else {
                continue;
            };
            let placing = result.placings.get(seat).copied().unwrap_or(u8::MAX);
            line.matches += 1;
            played[*entrant] += 1;
            line.points += result.points.get(seat).copied().unwrap_or(0.0);
            if let Some(count) = line.placings.get_mut(usize::from(placing).saturating_sub(1)) {
                *count += 1;
            }
            match (placing, firsts) {
                (1, 1) => {
                    line.wins += 1;
                    line.score += 1.0;
                }
                (1, _) => {
                    line.draws += 1;
                    line.score += 0.5;
                }
                _ => line.losses += 1,
            }
            match result.forfeit.as_ref().filter(|f| f.seat.index() == seat) {
                Some(forfeit) => {
                    line.forfeits += 1;
                    let by = &mut line.forfeits_by;
                    *match forfeit.reason {
                        ForfeitReason::TimedOut => &mut by.timed_out,
                        ForfeitReason::Disconnected => &mut by.disconnected,
                        ForfeitReason::Absent => &mut by.absent,
                        ForfeitReason::EngineFailure => &mut by.engine_failure,
                        ForfeitReason::Other => &mut by.other,
                    } += 1;
                }
                None if placing != 1 => line.board_losses += 1,
                None => {}
            }
        }
        for i in 0..m.seats.len() {
            for j in i + 1..m.seats.len() {
                let (a, b) = (m.seats[i], m.seats[j]);
                if a >= entrants || b >= entrants || a == b {
                    continue;
                }
                let (pa, pb) = (result.placings.get(i), result.placings.get(j));
                let score = match pa.cmp(&pb) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                pairwise.push(Pairwise { a, b, score });
                crosstable[a][b].games += 1;
                crosstable[a][b].score += score;
                crosstable[b][a].games += 1;
                crosstable[b][a].score += 1.0 - score;
            }
        }
    }
    for (entrant, difference) in duplicate_comparison(matches) {
        if let Some(line) = table.get_mut(entrant) {
            line.duplicate += difference;
            line.duplicate_boards += 1;
        }
    }
    for (line, played) in table.iter_mut().zip(&played) {
        if *played > 0 {
            line.average_points = line.points / f64::from(*played);
        }
    }
    for (line, (elo, half_width)) in table.iter_mut().zip(ratings(entrants, &pairwise)) {
        line.elo = elo;
        line.elo_low = elo - half_width;
        line.elo_high = elo + half_width;
    }
    table.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(y.points.total_cmp(&x.points))
            .then(y.elo.total_cmp(&x.elo))
            .then(x.entrant.cmp(&y.entrant))
    });
    for (rank, line) in table.iter_mut().enumerate() {
        line.rank = u32::try_from(rank + 1).unwrap_or(u32::MAX);
    }
    (table, crosstable, counted)
}

/// Bradley-Terry ratings of `n` entrants from `games`: each entrant's Elo (the mean at 1500) and
/// the half-width of its 95% interval relative to that mean, in Elo points.
pub fn ratings(n: usize, games: &[Pairwise]) -> Vec<(f64, f64)> {
    use nalgebra::{DMatrix, DVector};
    if n == 0 {
        return Vec::new();
    }
    // Strengths θ (natural log units); the prior is a draw against θ = 0 for everyone.
    let mut theta = DVector::<f64>::zeros(n);
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let information = |theta: &DVector<f64>| {
        let mut gradient = DVector::<f64>::zeros(n);
        let mut hessian = DMatrix::<f64>::zeros(n, n);
        for i in 0..n {
            let p = sigmoid(theta[i]);
            gradient[i] += 0.5 - p;
            hessian[(i, i)] += p * (1.0 - p);
        }
        for g in games {
            let p = sigmoid(theta[g.a] - theta[g.b]);
            gradient[g.a] += g.score - p;
            gradient[g.b] -= g.score - p;
            let w = p * (1.0 - p);
            hessian[(g.a, g.a)] += w;
            hessian[(g.b, g.b)] += w;
            hessian[(g.a, g.b)] -= w;
            hessian[(g.b, g.a)] -= w;
        }
        (gradient, hessian)
    };
    for _ in 0..100 {
        let (gradient, hessian) = information(&theta);
        let Some(step) = hessian.clone().cholesky().map(|c| c.solve(&gradient)) else {
            break;
        };
        // A damped step keeps far-off starts (one-sided records) from overshooting.
        let largest = step.amax();
        let step = if largest > 1.0 { step / largest } else { step };
        theta += &step;
        if largest < 1e-10 {
            break;
        }
    }
    let (_, hessian) = information(&theta);
    let covariance = hessian.try_inverse().unwrap_or_else(|| DMatrix::zeros(n, n));
    // Ratings are shown relative to the entrants' mean, so their uncertainty is that of θ_i - θ̄:
    // the covariance projected off the common shift, which only the weak prior pins down.
    #[allow(clippy::cast_precision_loss)]
    let centre = DMatrix::<f64>::identity(n, n) - DMatrix::<f64>::from_element(n, n, 1.0 / n as f64);
    let covariance = &centre * covariance * &centre;
    #[allow(clippy::cast_precision_loss)]
    let mean = theta.sum() / n as f64;
    (0..n)
        .map(|i| {
            let elo = ELO_MEAN + ELO_PER_NAT * (theta[i] - mean);
            let half = Z95 * ELO_PER_NAT * covariance[(i, i)].max(0.0).sqrt();
            (elo, half)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skirmish_protocol::tournament::{MatchId, MatchResult};

    fn finished(seats: Vec<usize>, deal: Option<u32>, points: Vec<f64>) -> MatchSummary {
        let placings = points
            .iter()
            .map(|p| 1 + u8::try_from(points.iter().filter(|q| *q > p).count()).unwrap_or(u8::MAX))
            .collect();
        MatchSummary {
            id: MatchId::random(),
            index: 0,
            round: 0,
            seats,
            opening: None,
            deal,
            sealed: false,
            state: MatchState::Finished,
            room: None,
            result: Some(MatchResult {
                points,
                placings,
                end: "match_over".to_owned(),
                forfeit: None,
            }),
        }
    }

    #[test]
    fn the_duplicate_comparison_scores_each_seat_against_the_same_seat_of_the_same_deal() {
        // Deal 0 at two tables: entrants 0 and 2 sat in seat 0, 1 and 3 in seat 1. Entrant 0 made
        // 10 where 2 made 6 with the same boards (+4 and -4); in seat 1, 3 made 8 where 1 made 4.
        // A match without a deal, and a deal played at one table, compare nothing.
        let matches = vec![
            finished(vec![0, 1], Some(0), vec![10.0, 4.0]),
            finished(vec![2, 3], Some(0), vec![6.0, 8.0]),
            finished(vec![0, 3], None, vec![30.0, 0.0]),
            finished(vec![1, 2], Some(1), vec![30.0, 0.0]),
        ];
        let (table, _, _) = standings(4, 2, &matches);
        let line = |e: usize| table.iter().find(|l| l.entrant == e).expect("a line");
        for (entrant, want) in [(0, 4.0), (1, -4.0), (2, -4.0), (3, 4.0)] {
            assert!(
                (line(entrant).duplicate - want).abs() < 1e-9,
                "{entrant}: {table:?}"
            );
            assert_eq!(line(entrant).duplicate_boards, 1, "{table:?}");
        }
        // Three tables: each is measured against the mean of the other two.
        let matches = vec![
            finished(vec![0, 1], Some(0), vec![9.0, 0.0]),
            finished(vec![2, 3], Some(0), vec![3.0, 0.0]),
            finished(vec![4, 5], Some(0), vec![6.0, 0.0]),
        ];
        let (table, _, _) = standings(6, 2, &matches);
        let line = |e: usize| table.iter().find(|l| l.entrant == e).expect("a line");
        assert!((line(0).duplicate - 4.5).abs() < 1e-9);
        assert!((line(2).duplicate + 4.5).abs() < 1e-9);
        assert!(line(4).duplicate.abs() < 1e-9);
    }

    #[test]
    fn equal_records_rate_equally_and_a_stronger_record_rates_higher() {
        let games: Vec<Pairwise> = (0..20)
            .map(|i| Pairwise {
                a: 0,
                b: 1,
                score: if i % 2 == 0 { 1.0 } else { 0.0 },
            })
            .collect();
        let r = ratings(2, &games);
        assert!((r[0].0 - r[1].0).abs() < 1e-6);
        assert!((r[0].0 - 1500.0).abs() < 1e-6);
        let games: Vec<Pairwise> = (0..20)
            .map(|i| Pairwise {
                a: 0,
                b: 1,
                score: if i % 4 == 0 { 0.0 } else { 1.0 },
            })
            .collect();
        let r = ratings(2, &games);
        assert!(r[0].0 > r[1].0 + 100.0, "{r:?}");
        // 15-5 is a 75% score: about +191 Elo apart without the prior; the prior pulls it in.
        assert!(r[0].0 - r[1].0 < 191.0, "{r:?}");
        assert!(r[0].1 > 0.0 && r[0].1 < 400.0, "{r:?}");
    }

    #[test]
    fn a_perfect_record_still_gets_a_finite_rating_and_more_games_narrow_the_interval() {
        let few = ratings(
            2,
            &[Pairwise {
                a: 0,
                b: 1,
                score: 1.0,
            }; 3],
        );
        assert!(few[0].0.is_finite() && few[0].0 > few[1].0);
        let many = ratings(
            2,
            &vec![
                Pairwise {
                    a: 1,
                    b: 0,
                    score: 0.5
                };
                200
            ],
        );
        let few_draws = ratings(
            2,
            &[Pairwise {
                a: 1,
                b: 0,
                score: 0.5,
            }; 4],
        );
        assert!(many[0].1 < few_draws[0].1);
    }
}
