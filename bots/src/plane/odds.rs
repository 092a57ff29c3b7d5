//! What plane battle's Bayesian strategies send as their `info` ([`BotInfo`]): for every
//! opponent board still in play, the filter's probability that each cell holds part of a plane,
//! in thousandths, over the deployments consistent with the board's public results (weighted by
//! a prior over deployments when the strategy has one: `points`'s learned habits).

use skirmish_games::Seat;
use skirmish_games::plane::View;
use skirmish_protocol::info::{Belief, BoardOdds, BotInfo};

use super::belief::{Knowledge, Universe};

/// The odds on each target board of `view` (the opponents' boards that may be fired at), under
/// the uniform prior, or under `prior(seat)` (one weight per deployment of the variant's
/// [`Universe`]) where it gives one. `nodes` is the number of consistent deployments weighed.
/// A board with no consistent deployment (which the referee never allows) gets none.
pub fn board_odds<'w>(view: &View, prior: &dyn Fn(Seat) -> Option<&'w [f64]>) -> BotInfo {
    let universe = Universe::of(view.config.variant);
    let mut weighed = 0u64;
    let boards = super::targets(view)
        .into_iter()
        .filter_map(|board| {
            let knowledge = Knowledge::of_board(universe, board);
            let alive = knowledge.consistent(universe);
            weighed += alive.len() as u64;
            let weights = prior(board.seat);
            let weight = |d: u16| weights.map_or(1.0, |w| w.get(usize::from(d)).copied().unwrap_or(0.0));
            let mut mass = vec![0f64; universe.cells];
            let mut total = 0f64;
            for &d in &alive {
                let w = weight(d);
                total += w;
                let occupied = universe.deployments[usize::from(d)].occupied;
                for (cell, m) in mass.iter_mut().enumerate() {
                    if occupied & (1u128 << cell) != 0 {
                        *m += w;
                    }
                }
            }
            (total > 0.0).then(|| BoardOdds {
                seat: board.seat,
                // Rounded to thousandths: 0 to 1000 by construction.
                cells: mass.iter().map(|m| (1000.0 * m / total).round() as u16).collect(),
            })
        })
        .collect();
    BotInfo {
        nodes: Some(weighed),
        belief: Some(Belief::Plane { boards }),
        ..BotInfo::default()
    }
}

#[cfg(test)]
mod tests {
    use skirmish_games::plane::Variant;
    use skirmish_protocol::{GameKind, MAX_INFO_BYTES};

    use super::*;

    #[test]
    fn each_unshot_nine_by_nine_board_holds_two_planes_of_ten_cells_and_fits_an_info() {
        let (view, _) = crate::plane::rollout::tests::three_player_view(5);
        assert_eq!(view.config.variant, Variant::Double);
        let info = board_odds(&view, &|_| None);
        let Some(Belief::Plane { boards }) = &info.belief else {
            panic!("a plane belief")
        };
        assert_eq!(boards.len(), 2, "the two opponents' boards");
        for board in boards {
            assert_eq!(board.cells.len(), 81);
            let planes: u32 = board.cells.iter().map(|&p| u32::from(p)).sum();
            // 20 plane cells, each cell rounded by at most half a thousandth.
            assert!((20_000 - 41..=20_000 + 41).contains(&planes), "{planes}");
            // The middle of the board is likelier than a corner.
            assert!(board.cells[40] > board.cells[0]);
        }
        let bytes = info.check(GameKind::Plane).expect("a valid info");
        assert!(bytes < MAX_INFO_BYTES, "{bytes}");
    }
}
