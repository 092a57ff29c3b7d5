use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_games::plane::{
    Action, BoardView, Config, Placement, PlaneBattle, ShotRecord, ShotResult, Variant, View,
    random_deployment,
};
use skirmish_games::{Game, Seat, Viewer};

use super::*;

/// A 3-player `double` view for seat 0 after every seat deployed (seeded), and the planes.
pub(in crate::plane) fn three_player_view(seed: u64) -> (View, Vec<Vec<Placement>>) {
    let config = Config {
        players: 3,
        variant: Variant::Double,
        ..Config::default()
    };
    let (mut game, _) = PlaneBattle::new(config).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut planes = Vec::new();
    for seat in 0..3u8 {
        let p = random_deployment(Variant::Double, &mut rng);
        game.apply(Seat(seat), Action::Deploy { planes: p.clone() })
            .unwrap();
        planes.push(p);
    }
    (game.view(Viewer::Seat(Seat(0))), planes)
}

/// `by` downs `plane` on `board` (its head shot, the plane revealed).
pub(in crate::plane) fn down(board: &mut BoardView, plane: Placement, by: Seat) {
    board.shots.push(ShotRecord {
        by,
        cell: plane.head,
        result: ShotResult::Down,
    });
    board.downed.push(plane);
}

/// `by` hits every cell of `plane` but its head.
fn hit_body(board: &mut BoardView, plane: Placement, by: Seat) {
    for cell in plane.cells(9).unwrap().into_iter().skip(1) {
        board.shots.push(ShotRecord {
            by,
            cell,
            result: ShotResult::Hit,
        });
    }
}

/// The CV and head counts kept up shot by shot (from the placement counts) equal those
/// `seed_cv::cube_values` recomputes from scratch, and
/// every simulated result is the one the referee's rule gives for the drawn deployment.
#[test]
fn incremental_counts_match_a_full_recount() {
    for seed in 2..8 {
        one_board_cleared(seed);
    }
}

fn one_board_cleared(seed: u64) {
    let (view, _) = three_player_view(seed);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut sim = Sim::draw(&view, &mut rng).unwrap();
    let universe = sim.universe;
    let mut scratch = Vec::new();
    for _ in 0..40 {
        let target = Seat(1);
        if !sim.boards[1].in_round {
            break;
        }
        let cell = sim.my_cell(target, &mut rng, &mut scratch);
        sim.fire(Seat(0), target, cell);
        let b = &sim.boards[1];
        assert!(
            b.alive_list()
                .iter()
                .any(|&i| universe.deployments[usize::from(i)] == b.truth)
        );
        let (cv, heads, alive) = cube_values(universe, &b.know);
        assert_eq!((&b.cv, &b.heads, b.live as usize), (&cv, &heads, alive));
        assert_eq!(b.alive_list(), b.know.consistent(universe));
    }
    assert!(!sim.boards[1].in_round, "40 largest-CV shots clear a board");
    assert_eq!(sim.gained, 4, "1 for the first plane, 3 for the knockout");
}

/// The rollouts draw an opponent's hidden planes in proportion to its prior weights: one
/// deployment weighing 1,000 times the others is drawn about 1,000 / (1,000 + 2,351) of the
/// time, against 1 / 2,352 uniformly; an unweighted seat stays uniform.
#[test]
fn draws_follow_the_learned_prior() {
    let (view, planes) = three_player_view(5);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut sim = Sim::draw(&view, &mut rng).unwrap();
    let universe = sim.universe;
    let favourite = universe.deployments[100];
    let mut weights = vec![1.0; universe.deployments.len()];
    weights[100] = 1000.0;
    let priors = Priors::of(&sim, &[None, Some(weights), None]);
    let (mut seat1, mut seat2) = (0, 0);
    for _ in 0..2000 {
        sim.redraw(&mut rng, &priors);
        seat1 += usize::from(sim.boards[1].truth == favourite);
        seat2 += usize::from(sim.boards[2].truth == favourite);
    }
    // Expected 2000 x 0.298 = 597 and 2000 / 2352 < 1.
    assert!((500..700).contains(&seat1), "{seat1}");
    assert!(seat2 < 10, "{seat2}");
    let mine = &sim.boards[0].truth;
    assert!(
        planes[0]
            .iter()
            .all(|p| mine.planes.contains(&universe.placement_index(*p).unwrap()))
    );
}

/// With seat 1's last plane found but for its head (a knockout, 3 points, for whoever fires
/// there first), the search fires at that head: every rollout of it scores at least 3, more
/// than any other first shot.
#[test]
fn takes_the_knockout_the_next_attacker_would_take() {
    let (mut view, planes) = three_player_view(5);
    down(&mut view.boards[1], planes[1][0], Seat(2));
    hit_body(&mut view.boards[1], planes[1][1], Seat(2));
    let mut rng = SmallRng::seed_from_u64(1);
    let started = Instant::now();
    let search = search(&view, &mut rng, 64, started, Duration::from_secs(10), &[]).unwrap();
    assert_eq!(search.rollouts, 64);
    let best = search.best().unwrap();
    assert_eq!((best.target, best.cell), (Seat(1), planes[1][1].head.index(9)));
    assert!(best.mean >= 3.0, "{search:?}");
}
