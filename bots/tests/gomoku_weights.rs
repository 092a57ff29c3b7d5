//! A fit's values measured before they are checked in (`gomoku-bench --a-weights FILE`,
//! bots/README.md, "Evaluation fitting"): the file is read as the checked-in one is, a file
//! that holds no weights or a side that is no `pattern-search` level is refused, and the engine
//! evaluates with the values it is given.

mod common;

use common::gomoku::{budget, random_positions, view_of_moves};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::gomoku::GomokuStrategy;
use skirmish_bots::gomoku::bench::{self, BenchArgs};
use skirmish_bots::gomoku::pattern_search::eval::Weights;
use skirmish_bots::gomoku::pattern_search::{Level, PatternSearch};
use skirmish_games::gomoku::{Move, Rule};

fn bench_args(a: &str, a_weights: std::path::PathBuf) -> BenchArgs {
    BenchArgs {
        a: a.into(),
        b: "random".into(),
        b_engine: None,
        a_engine: None,
        a_weights: Some(a_weights),
        b_weights: None,
        rule: "freestyle".into(),
        think_ms: 10,
        b_think_ms: None,
        openings: vec!["empty".into()],
        games_per_opening: 1,
        seed: 1,
        size: 15,
        show: false,
    }
}

#[test]
fn a_weights_file_reads_as_the_checked_in_values_and_a_bad_one_is_refused() {
    let dir = common::scratch("weights", "files");
    let good = dir.join("fit.json");
    std::fs::write(&good, serde_json::to_string(Weights::fitted()).unwrap()).unwrap();
    assert_eq!(
        Weights::load(&good).unwrap().as_vector(),
        Weights::fitted().as_vector()
    );

    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"own_pattern\": [1, 2]}").unwrap();
    let err = Weights::load(&bad).unwrap_err().to_string();
    assert!(err.contains("holds no weights"), "{err}");
    let err = Weights::load(&dir.join("missing.json")).unwrap_err().to_string();
    assert!(err.contains("reading"), "{err}");

    // The bench refuses weights for a strategy that has none, and a bad file, before any game.
    let err = bench::run(&bench_args("threat-search", good.clone()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("pattern-search level"), "{err}");
    let err = bench::run(&bench_args("pattern-search-easy", bad))
        .unwrap_err()
        .to_string();
    assert!(err.contains("holds no weights"), "{err}");
}

/// The same positions thought about with the checked-in values and with every value negated:
/// the scores differ, so the values given are the ones the search uses.
#[test]
fn the_engine_evaluates_with_the_values_it_is_given() {
    let mut negated = Weights::fitted().clone();
    for w in negated
        .own_pattern
        .iter_mut()
        .chain(&mut negated.their_pattern)
        .chain(&mut negated.own_combo)
        .chain(&mut negated.their_combo)
    {
        *w = -*w;
    }
    let negated: &'static Weights = Box::leak(Box::new(negated));
    let level = Level {
        ignore_clock: true,
        ..Level::EASY
    };
    let mut differ = 0;
    let positions = random_positions(7, 4, 12, Rule::Freestyle);
    for (board, stone) in &positions {
        let moves: Vec<Move> = board
            .points()
            .filter_map(|q| board.get(q).map(|s| Move { stone: s, point: q }))
            .collect();
        let view = view_of_moves(Rule::Freestyle, moves, *stone);
        let mut scores = Vec::new();
        for mut engine in [
            PatternSearch::with_level(level),
            PatternSearch::with_weights(level, negated),
        ] {
            engine.act(&view, budget(), &mut SmallRng::seed_from_u64(1));
            scores.push(engine.score().expect("a score"));
        }
        differ += usize::from(scores[0] != scores[1]);
    }
    assert!(
        differ * 2 > positions.len(),
        "{differ} of {} positions scored differently",
        positions.len()
    );
}
