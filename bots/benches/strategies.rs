//! Criterion benchmarks of the bots' decision times (docs/performance.md): each strategy's move from
//! a mid-game view, as the bot client computes it on every `your_turn`. Search strategies think
//! within a budget; they are measured at a 50 ms budget, so their figure is mostly that budget.
//! Run with `cargo bench -p skirmish-bots`.
#![allow(missing_docs)]

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use skirmish_bots::Budget;
use skirmish_games::{Game, Seat, Viewer, gomoku, junqi, plane};

/// A 2-player `double` plane battle, both deployed, after up to 20 random shots: the attacker's view.
fn plane_view(rng: &mut SmallRng) -> plane::View {
    let config = plane::Config {
        players: 2,
        ..Default::default()
    };
    let (mut game, _) = plane::PlaneBattle::new(config).expect("a playable config");
    for seat in Seat::all(2) {
        let planes = plane::random_deployment(config.variant, rng);
        game.apply(seat, plane::Action::Deploy { planes }).expect("legal");
    }
    for _ in 0..20 {
        let attacker = game.to_act()[0];
        let (target, cell) = *game.legal_shots(attacker).choose(rng).expect("a shot");
        let round = game.round();
        game.apply(attacker, plane::Action::Fire { target, cell })
            .expect("legal");
        if game.round() != round || game.deploying() {
            break;
        }
    }
    game.view(Viewer::Seat(game.to_act()[0]))
}

fn plane(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let view = plane_view(&mut rng);
    let mut group = c.benchmark_group("plane fire");
    group.sample_size(20);
    for name in skirmish_bots::plane::STRATEGIES {
        let mut strategy = skirmish_bots::plane::strategy(name).expect("a built-in strategy");
        group.bench_function(*name, |b| b.iter(|| strategy.fire(&view, &mut rng)));
    }
    group.finish();
    let mut group = c.benchmark_group("plane deploy");
    let mut strategy = skirmish_bots::plane::strategy("random").expect("a built-in strategy");
    group.bench_function("random", |b| b.iter(|| strategy.deploy(&view, &mut rng)));
    group.finish();
}

fn gomoku(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let (mut game, _) = gomoku::Gomoku::new(gomoku::Config::default()).expect("a playable config");
    for _ in 0..20 {
        let seat = game.to_act()[0];
        let point = game.random_point(&mut rng).expect("an empty point");
        game.apply(seat, gomoku::Action::Place { point }).expect("legal");
    }
    let view = game.view(Viewer::Seat(game.to_act()[0]));
    let budget = Budget::new(0, Duration::from_millis(50));
    let mut group = c.benchmark_group("gomoku move (50 ms budget)");
    group.sample_size(10);
    for name in skirmish_bots::gomoku::STRATEGIES {
        let mut strategy = skirmish_bots::gomoku::strategy(name).expect("a built-in strategy");
        group.bench_function(*name, |b| b.iter(|| strategy.act(&view, budget, &mut rng)));
    }
    group.finish();
}

fn junqi(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let (mut game, _) = junqi::Junqi::new(junqi::Config::default()).expect("a playable config");
    for seat in Seat::all(2) {
        let layout = junqi::Layout::random(&mut rng);
        game.apply(seat, junqi::Action::Deploy { layout }).expect("legal");
    }
    let seat = game.to_act()[0];
    let view = game.view(Viewer::Seat(seat));
    let budget = Budget::new(0, Duration::from_millis(50));
    let mut group = c.benchmark_group("junqi move (50 ms budget)");
    group.sample_size(10);
    for name in skirmish_bots::junqi::STRATEGIES {
        let mut strategy = skirmish_bots::junqi::strategy(name).expect("a built-in strategy");
        group.bench_function(*name, |b| b.iter(|| strategy.act(&view, budget, &mut rng)));
    }
    group.finish();
}

criterion_group!(benches, plane, gomoku, junqi);
criterion_main!(benches);
