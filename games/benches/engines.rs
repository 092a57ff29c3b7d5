//! Criterion benchmarks of the rules engines' hot paths (docs/performance.md): a plane battle shot
//! and the view the server then computes, a gomoku stone with its win check, and junqi's legal move
//! generation (positions per second). Run with `cargo bench -p skirmish-games`.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use skirmish_games::{Game, Seat, Viewer, gomoku, junqi, plane};

/// A 2-player `double` plane battle, both deployed, after `shots` random shots (fewer if the round
/// ends first).
fn plane_midgame(shots: usize, rng: &mut SmallRng) -> plane::PlaneBattle {
    let config = plane::Config {
        players: 2,
        ..Default::default()
    };
    let (mut game, _) = plane::PlaneBattle::new(config).expect("a playable config");
    for seat in Seat::all(2) {
        let planes = plane::random_deployment(config.variant, rng);
        game.apply(seat, plane::Action::Deploy { planes })
            .expect("a legal deployment");
    }
    for _ in 0..shots {
        let attacker = game.to_act()[0];
        let (target, cell) = *game.legal_shots(attacker).choose(rng).expect("a shot");
        let round = game.round();
        game.apply(attacker, plane::Action::Fire { target, cell })
            .expect("a legal shot");
        if game.round() != round || game.deploying() {
            break;
        }
    }
    game
}

fn plane_shot_and_view(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let game = plane_midgame(20, &mut rng);
    let attacker = game.to_act()[0];
    let (target, cell) = *game.legal_shots(attacker).choose(&mut rng).expect("a shot");
    let mut group = c.benchmark_group("plane");
    group.throughput(Throughput::Elements(1));
    group.bench_function("shot + 3 views (2 seats, spectator)", |b| {
        b.iter_batched(
            || game.clone(),
            |mut game| {
                let events = game
                    .apply(attacker, plane::Action::Fire { target, cell })
                    .expect("legal");
                let views: Vec<_> = [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator]
                    .into_iter()
                    .map(|v| game.view(v))
                    .collect();
                (events, views)
            },
            BatchSize::SmallInput,
        );
    });
    group.bench_function("view", |b| b.iter(|| game.view(Viewer::Seat(attacker))));
    group.bench_function("legal_shots", |b| b.iter(|| game.legal_shots(attacker)));
    group.finish();
}

fn gomoku_move_and_win_check(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let (mut game, _) = gomoku::Gomoku::new(gomoku::Config::default()).expect("a playable config");
    for _ in 0..40 {
        let seat = game.to_act()[0];
        let point = game.random_point(&mut rng).expect("an empty point");
        game.apply(seat, gomoku::Action::Place { point }).expect("legal");
        if game.to_act().is_empty() {
            break;
        }
    }
    let seat = game.to_act()[0];
    let point = game.random_point(&mut rng).expect("an empty point");
    let mut group = c.benchmark_group("gomoku");
    group.throughput(Throughput::Elements(1));
    group.bench_function("stone + win check (15x15, 40 stones down)", |b| {
        b.iter_batched(
            || game.clone(),
            |mut game| game.apply(seat, gomoku::Action::Place { point }).expect("legal"),
            BatchSize::SmallInput,
        );
    });
    let renju = gomoku::Config {
        rule: gomoku::Rule::Renju,
        ..Default::default()
    };
    let (renju, _) = gomoku::Gomoku::new(renju).expect("a playable config");
    group.bench_function("renju forbidden points (empty board)", |b| {
        b.iter(|| renju.forbidden_points())
    });
    group.finish();
}

fn junqi_legal_moves(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let layouts = [junqi::Layout::random(&mut rng), junqi::Layout::random(&mut rng)];
    let mut position = junqi::Position::new([&layouts[0], &layouts[1]]);
    // Thirty random moves in, so that pieces have left the back rows and railways are open.
    for _ in 0..30 {
        let seat = position.to_move();
        let Some(mv) = position.legal_moves(seat).choose(&mut rng).copied() else {
            break;
        };
        position.play(mv);
    }
    let seat = position.to_move();
    let mut group = c.benchmark_group("junqi");
    group.throughput(Throughput::Elements(1));
    group.bench_function("legal moves of a position (positions/s)", |b| {
        b.iter(|| position.legal_moves(seat))
    });
    let start = junqi::Position::new([&layouts[0], &layouts[1]]);
    group.bench_function("legal moves of the starting position", |b| {
        b.iter(|| start.legal_moves(Seat(0)))
    });
    group.finish();
}

criterion_group!(
    benches,
    plane_shot_and_view,
    gomoku_move_and_win_check,
    junqi_legal_moves
);
criterion_main!(benches);
