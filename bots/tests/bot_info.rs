//! What the built-in strategies send as an act's `info`: threat-search's score, depth and
//! principal variation with its evaluation, belief-search's rank guesses on the enemy pieces
//! (plane battle's board odds are tested beside them, `plane::odds`). Each is checked as the
//! server checks it ([`BotInfo::check`]): within 4 KiB, every probability in range.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::Budget;
use skirmish_bots::gomoku::pattern_search::PatternSearch;
use skirmish_bots::gomoku::{GomokuStrategy, ThreatSearch};
use skirmish_bots::junqi::{BeliefSearch, JunqiStrategy, RandomMove};
use skirmish_games::gomoku::{Action as Stone, Config as GomokuConfig, Gomoku};
use skirmish_games::junqi::{Action, Config, Junqi};
use skirmish_games::{Game, Seat, Viewer};
use skirmish_protocol::info::Belief;
use skirmish_protocol::{GameKind, MAX_INFO_BYTES};

#[test]
fn threat_search_sends_its_score_depth_and_line_from_its_own_stone() {
    gomoku_info_from_its_own_stone([
        ThreatSearch::with_node_limit(3_000),
        ThreatSearch::with_node_limit(3_000),
    ]);
}

#[test]
fn pattern_search_sends_its_score_depth_and_line_from_its_own_stone() {
    gomoku_info_from_its_own_stone([
        PatternSearch::with_node_limit(3_000),
        PatternSearch::with_node_limit(3_000),
    ]);
}

/// Twelve stones by `players`: each searched one's info starts its line with the stone, is
/// taken once, and passes the server's check.
fn gomoku_info_from_its_own_stone(mut players: [impl GomokuStrategy; 2]) {
    let (mut game, _) = Gomoku::new(GomokuConfig::default()).expect("default config");
    let mut rng = SmallRng::seed_from_u64(3);
    let mut searched = 0;
    for _ in 0..12 {
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let player = &mut players[seat.index()];
        let action = player.act(&view, Budget::new(0, Duration::from_secs(1)), &mut rng);
        let info = player.info();
        assert_eq!(player.info(), None, "taken once");
        let Stone::Place { point } = &action else {
            panic!("a stone: {action:?}")
        };
        if let Some(info) = info {
            assert_eq!(
                info.pv.first(),
                Some(&point.to_string()),
                "the line starts with the stone"
            );
            let Some(Belief::Gomoku { eval }) = info.belief else {
                panic!("an evaluation")
            };
            assert!(eval.abs() <= 1000);
            if info.depth.unwrap_or(0) > 0 {
                searched += 1;
                assert!(info.nodes.unwrap_or(0) > 0);
            }
            let bytes = info.check(GameKind::Gomoku).expect("a valid info");
            assert!(bytes < 1024, "{bytes}");
        }
        game.apply(seat, action).expect("a legal stone");
    }
    assert!(searched >= 8, "most moves searched: {searched}");
}

#[test]
fn belief_search_guesses_a_rank_for_every_enemy_piece_on_the_board() {
    let (mut game, _) = Junqi::new(Config::default()).expect("default config");
    let mut rng = SmallRng::seed_from_u64(5);
    let mut searcher = BeliefSearch::with_samples(20);
    let mut random = RandomMove;
    let budget = Budget::new(0, Duration::from_millis(50));
    for seat in Seat::all(2) {
        let view = game.view(Viewer::Seat(seat));
        let layout = if seat == Seat(0) {
            searcher.deploy(&view, budget, &mut rng)
        } else {
            random.deploy(&view, budget, &mut rng)
        }
        .expect("a layout");
        game.apply(seat, Action::Deploy { layout }).expect("legal");
    }
    let mut guessed = 0;
    for _ in 0..20 {
        if game.outcome().is_some() {
            break;
        }
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let action = if seat == Seat(0) {
            let action = searcher.act(&view, budget, &mut rng);
            if let Some(info) = searcher.info() {
                let Some(Belief::Junqi { pieces }) = &info.belief else {
                    panic!("rank guesses")
                };
                // Every guess is on an enemy piece of the view, and there is one per enemy piece.
                let enemy: Vec<_> = view
                    .pieces
                    .iter()
                    .filter(|p| p.owner == Seat(1))
                    .map(|p| p.post)
                    .collect();
                assert_eq!(pieces.len(), enemy.len());
                assert!(pieces.iter().all(|g| enemy.contains(&g.post) && g.chance <= 1000));
                // The flag is never guessed at the front.
                assert!(
                    pieces
                        .iter()
                        .all(|g| g.rank != skirmish_games::junqi::Rank::Flag || g.post.depth(Seat(1)) <= 1)
                );
                let bytes = info.check(GameKind::Junqi).expect("a valid info");
                assert!(bytes < MAX_INFO_BYTES, "{bytes}");
                guessed += 1;
            }
            action
        } else {
            random.act(&view, budget, &mut rng)
        };
        game.apply(seat, action).expect("legal");
    }
    assert!(guessed >= 5, "{guessed}");
}
