//! Plane battle rules: known counts, scoring, refusals, visibility and whole matches.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use skirmish_games::plane::{
    Action, Cell, Config, Event, Facing, FirstAttacker, MatchFormat, PhaseView, Placement, PlaneBattle,
    RuleError, ShotResult, Variant, placements, random_deployment,
};
use skirmish_games::{Audience, Game, Seat, Viewer};

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn plane(head: &str, facing: Facing) -> Placement {
    Placement::new(cell(head), facing)
}

fn config(variant: Variant, players: u8, rounds: u32) -> Config {
    Config {
        variant,
        players,
        format: MatchFormat::Rounds(rounds),
        first_attacker: FirstAttacker::Rotating,
    }
}

fn deploy(game: &mut PlaneBattle, seat: u8, planes: Vec<Placement>) -> Vec<Event> {
    game.apply(Seat(seat), Action::Deploy { planes }).unwrap()
}

fn fire(game: &mut PlaneBattle, seat: u8, target: u8, at: &str) -> Result<Vec<Event>, RuleError> {
    game.apply(
        Seat(seat),
        Action::Fire {
            target: Seat(target),
            cell: cell(at),
        },
    )
}

/// Fires at every cell of `p` on `target`, head last, skipping public cells; returns the last events.
fn down_plane(game: &mut PlaneBattle, attacker: u8, target: u8, p: Placement) -> Vec<Event> {
    let cells = p.cells(game.config().variant.side()).unwrap();
    fire(game, attacker, target, &cells[0].to_string()).unwrap()
}

fn shot_points(events: &[Event]) -> Vec<(u32, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Shot {
                points, knocked_out, ..
            } => Some((*points, *knocked_out)),
            _ => None,
        })
        .collect()
}

#[test]
fn placement_and_deployment_counts() {
    assert_eq!(placements(7).len(), 48);
    let all = placements(9);
    assert_eq!(all.len(), 120);
    let mut pairs = 0;
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if PlaneBattle::check_deployment(Variant::Double, &[*a, *b]).is_ok() {
                pairs += 1;
            }
        }
    }
    assert_eq!(pairs, 2352, "unordered non-overlapping pairs on 9x9");
}

#[test]
fn a_knockout_scores_three_not_four() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Double, 2, 1)).unwrap();
    let a = plane("C1", Facing::Up);
    let b = plane("G5", Facing::Up);
    deploy(&mut game, 0, vec![a, b]);
    deploy(&mut game, 1, vec![a, b]);
    let first = down_plane(&mut game, 0, 1, a);
    assert_eq!(shot_points(&first), vec![(1, false)]);
    fire(&mut game, 1, 0, "A9").unwrap();
    let last = down_plane(&mut game, 0, 1, b);
    assert_eq!(shot_points(&last), vec![(3, true)]);
    assert_eq!(game.totals().0, vec![4, 0]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Seat(0));
    assert_eq!(outcome.placings.0, vec![1, 2]);
}

#[test]
fn classic_downing_is_always_a_knockout() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Classic, 2, 1)).unwrap();
    let p = plane("C1", Facing::Up);
    deploy(&mut game, 0, vec![p]);
    deploy(&mut game, 1, vec![p]);
    let events = fire(&mut game, 0, 1, "C1").unwrap();
    assert_eq!(shot_points(&events), vec![(3, true)]);
    assert!(matches!(events.last(), Some(Event::MatchEnded { .. })));
}

#[test]
fn three_player_round_as_in_the_rules_example() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Double, 3, 1)).unwrap();
    let a = plane("C1", Facing::Up); // C1..; wings row 2
    let b = plane("E6", Facing::Up); // head E6, wings row 7
    for seat in 0..3 {
        deploy(&mut game, seat, vec![a, b]);
    }
    // Seat 0 hits seat 2 at C2 (a wing), seat 1 downs seat 2's first plane, seat 2 misses.
    assert_eq!(
        shot_points(&fire(&mut game, 0, 2, "C2").unwrap()),
        vec![(0, false)]
    );
    assert_eq!(
        shot_points(&fire(&mut game, 1, 2, "C1").unwrap()),
        vec![(1, false)]
    );
    fire(&mut game, 2, 0, "I9").unwrap();
    // Seat 0 downs seat 2's last plane: 3 points, seat 2 out; seat 1 then plays seat 0.
    assert_eq!(
        shot_points(&fire(&mut game, 0, 2, "E6").unwrap()),
        vec![(3, true)]
    );
    assert_eq!(fire(&mut game, 1, 2, "A1"), Err(RuleError::TargetOut(Seat(2))));
    fire(&mut game, 1, 0, "C1").unwrap();
    // Seat 2 is skipped: the turn goes to seat 0.
    assert!(fire(&mut game, 0, 1, "C1").is_ok());
    let events = fire(&mut game, 1, 0, "E6").unwrap();
    assert_eq!(shot_points(&events), vec![(3, true)]);
    let outcome = game.outcome().expect("one round played");
    assert_eq!(outcome.totals.0, vec![4, 5, 0]);
    assert_eq!(outcome.winner, Seat(1));
    assert_eq!(outcome.placings.0, vec![2, 1, 3]);
}

#[test]
fn extra_rounds_decide_only_a_tie_for_first() {
    // Classic, 3 players, 2 rounds: seats 0 and 1 each win one round with 3 + 3 points.
    let (mut game, _) = PlaneBattle::new(config(Variant::Classic, 3, 2)).unwrap();
    let p = plane("C1", Facing::Up);
    for round in 0..2u8 {
        for seat in 0..3 {
            deploy(&mut game, seat, vec![p]);
        }
        let winner = round; // round 0 starts with seat 0, round 1 with seat 1
        let others: Vec<u8> = (0..3).filter(|s| *s != winner).collect();
        fire(&mut game, winner, others[0], "C1").unwrap();
        let next = (0..3)
            .map(|k| (winner + 1 + k) % 3)
            .find(|s| *s != others[0])
            .unwrap();
        assert_eq!(next, others[1]);
        fire(&mut game, next, winner, "A1").unwrap();
        fire(&mut game, winner, others[1], "C1").unwrap();
    }
    assert_eq!(game.totals().0, vec![6, 6, 0]);
    assert!(game.outcome().is_none(), "a tie for first goes to an extra round");
    let view = game.view(Viewer::Spectator);
    assert!(view.extra);
    assert_eq!(
        game.to_act(),
        vec![Seat(0), Seat(1)],
        "only the tied players play it"
    );
    assert_eq!(
        game.apply(Seat(2), Action::Deploy { planes: vec![p] }),
        Err(RuleError::NotInRound(Seat(2)))
    );
    deploy(&mut game, 0, vec![p]);
    deploy(&mut game, 1, vec![p]);
    // Round 2 among [0, 1] starts with players[2 % 2] = seat 0.
    let events = fire(&mut game, 0, 1, "C1").unwrap();
    let Some(Event::MatchEnded { outcome }) = events.last() else {
        panic!("match over: {events:?}")
    };
    assert_eq!(outcome.winner, Seat(0));
    assert_eq!(outcome.totals.0, vec![9, 6, 0]);
    assert_eq!(outcome.placings.0, vec![1, 2, 3], "seat 2 keeps its place");
}

#[test]
fn first_to_format_ends_at_the_wins() {
    let mut cfg = config(Variant::Classic, 2, 1);
    cfg.format = MatchFormat::FirstTo(2);
    let (mut game, _) = PlaneBattle::new(cfg).unwrap();
    let p = plane("C1", Facing::Up);
    for round in 0..3 {
        assert!(game.outcome().is_none());
        deploy(&mut game, 0, vec![p]);
        deploy(&mut game, 1, vec![p]);
        // Rotating first attacker: 0, 1, 0. Seat 0 wins rounds 0 and 2, seat 1 round 1.
        let first = (round % 2) as u8;
        fire(&mut game, first, 1 - first, "C1").unwrap();
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Seat(0));
    assert_eq!(outcome.round_wins.0, vec![2, 1]);
}

#[test]
fn fixed_first_attacker() {
    let mut cfg = config(Variant::Classic, 2, 3);
    cfg.first_attacker = FirstAttacker::Fixed;
    let (mut game, _) = PlaneBattle::new(cfg).unwrap();
    let p = plane("C1", Facing::Up);
    for _ in 0..2 {
        deploy(&mut game, 0, vec![p]);
        deploy(&mut game, 1, vec![p]);
        assert_eq!(game.to_act(), vec![Seat(0)]);
        fire(&mut game, 0, 1, "C1").unwrap();
    }
}

/// Applies `action` expecting `error`, and checks that nothing changed.
fn refused(game: &mut PlaneBattle, seat: u8, action: Action, error: RuleError) {
    let before = format!("{:?}", game);
    assert_eq!(game.apply(Seat(seat), action), Err(error.clone()));
    assert_eq!(format!("{:?}", game), before, "{error:?} changed the state");
    assert!(!error.code().is_empty());
}

#[test]
fn illegal_actions_are_refused_without_change() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Double, 3, 1)).unwrap();
    let a = plane("C1", Facing::Up);
    let b = plane("G5", Facing::Up);
    let fire_at = |target: u8, at: &str| Action::Fire {
        target: Seat(target),
        cell: cell(at),
    };
    refused(&mut game, 0, fire_at(1, "A1"), RuleError::DeployPhase);
    refused(
        &mut game,
        0,
        Action::Deploy { planes: vec![a] },
        RuleError::PlaneCount { expected: 2, got: 1 },
    );
    refused(
        &mut game,
        0,
        Action::Deploy { planes: vec![a, a] },
        RuleError::Overlap(a, a),
    );
    let overlapping = plane("C3", Facing::Left);
    refused(
        &mut game,
        0,
        Action::Deploy {
            planes: vec![a, overlapping],
        },
        RuleError::Overlap(a, overlapping),
    );
    let off = plane("A1", Facing::Up);
    refused(
        &mut game,
        0,
        Action::Deploy { planes: vec![a, off] },
        RuleError::PlaneOffBoard(off),
    );
    refused(
        &mut game,
        3,
        Action::Deploy { planes: vec![a, b] },
        RuleError::NoSuchSeat(Seat(3)),
    );
    deploy(&mut game, 0, vec![a, b]);
    refused(
        &mut game,
        0,
        Action::Deploy { planes: vec![a, b] },
        RuleError::AlreadyDeployed(Seat(0)),
    );
    deploy(&mut game, 1, vec![a, b]);
    // Seat 2's time runs out: the referee deploys for it, and a late deployment is refused.
    let mut rng = StdRng::seed_from_u64(7);
    let events = game.apply_default(Seat(2), &mut rng);
    assert!(events.contains(&Event::Ready {
        seat: Seat(2),
        by_default: true
    }));
    refused(
        &mut game,
        2,
        Action::Deploy { planes: vec![a, b] },
        RuleError::DeploymentClosed,
    );
    refused(
        &mut game,
        1,
        fire_at(2, "A1"),
        RuleError::NotYourTurn { attacker: Seat(0) },
    );
    refused(&mut game, 0, fire_at(0, "A1"), RuleError::OwnBoard);
    refused(
        &mut game,
        0,
        fire_at(1, "J1"),
        RuleError::CellOffBoard(cell("J1")),
    );
    refused(
        &mut game,
        0,
        fire_at(1, "A10"),
        RuleError::CellOffBoard(cell("A10")),
    );
    refused(&mut game, 0, fire_at(5, "A1"), RuleError::NoSuchSeat(Seat(5)));
    // Seat 0 downs seat 1's first plane: its 10 cells become public.
    fire(&mut game, 0, 1, "C1").unwrap();
    fire(&mut game, 1, 0, "A1").unwrap();
    game.apply_default(Seat(2), &mut rng);
    refused(&mut game, 0, fire_at(1, "C1"), RuleError::CellPublic(cell("C1")));
    refused(&mut game, 0, fire_at(1, "A2"), RuleError::CellPublic(cell("A2")));
    fire(&mut game, 0, 1, "A9").unwrap();
    refused(&mut game, 1, fire_at(0, "A1"), RuleError::CellPublic(cell("A1")));
    // Knock seat 1 out; firing at it is then refused.
    fire(&mut game, 1, 0, "B1").unwrap();
    game.apply_default(Seat(2), &mut rng);
    fire(&mut game, 0, 1, "G5").unwrap();
    let attacker = game.to_act()[0];
    assert_ne!(attacker, Seat(1), "a knocked-out seat never attacks");
    refused(
        &mut game,
        attacker.0,
        fire_at(1, "E5"),
        RuleError::TargetOut(Seat(1)),
    );
}

#[test]
fn config_is_checked() {
    assert!(PlaneBattle::new(config(Variant::Double, 1, 18)).is_err());
    assert!(PlaneBattle::new(config(Variant::Double, 4, 18)).is_err());
    assert!(PlaneBattle::new(config(Variant::Double, 2, 0)).is_err());
    assert!(PlaneBattle::new(Config::default()).is_ok());
}

/// Plays a whole match with random legal actions, checking every round's points.
fn random_match(cfg: Config, seed: u64) -> PlaneBattle {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut game, _) = PlaneBattle::new(cfg).unwrap();
    let mut steps = 0;
    while game.outcome().is_none() {
        let seat = *game
            .to_act()
            .choose(&mut rng)
            .expect("someone acts until the match ends");
        let action = game.default_action(seat, &mut rng).unwrap();
        game.apply(seat, action).unwrap();
        steps += 1;
        assert!(steps < 100_000, "the match ends");
    }
    game
}

#[test]
fn random_matches_end_with_consistent_scores() {
    for seed in 0..40 {
        let players = 2 + (seed % 2) as u8;
        let variant = if seed % 4 < 2 {
            Variant::Double
        } else {
            Variant::Classic
        };
        let game = random_match(config(variant, players, 18), seed);
        let outcome = game.outcome().unwrap();
        let history = game.history();
        assert!(history.len() >= 18);
        for seat in 0..players {
            let sum: u32 = history.iter().map(|r| r.points[Seat(seat)]).sum();
            assert_eq!(sum, outcome.totals[Seat(seat)]);
        }
        for round in history {
            let total: u32 = round.points.0.iter().sum();
            let playing = round.deployments.0.iter().filter(|d| !d.is_empty()).count() as u32;
            let knockouts = 3 * (playing - 1);
            let planes = variant.planes() as u32;
            // Knockouts score 3 each; the other downed planes 1 each, at most planes-1 per player.
            assert!(
                total >= knockouts && total <= knockouts + (planes - 1) * playing,
                "{round:?}"
            );
        }
        let max = *outcome.totals.0.iter().max().unwrap();
        assert_eq!(outcome.totals[outcome.winner], max);
        assert_eq!(
            outcome.totals.0.iter().filter(|t| **t == max).count(),
            1,
            "the winner is alone on top"
        );
    }
}

#[test]
fn events_about_a_deployment_reach_only_its_owner() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Double, 3, 1)).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let planes = random_deployment(Variant::Double, &mut rng);
    let events = deploy(&mut game, 1, planes.clone());
    for event in &events {
        match event {
            Event::Deployment { seat, .. } => assert_eq!(event.audience(), Audience::Seat(*seat)),
            _ => assert_eq!(event.audience(), Audience::Everyone),
        }
    }
    assert_eq!(
        game.view(Viewer::Seat(Seat(1))).boards[1].planes.as_ref(),
        Some(&planes)
    );
    assert_eq!(game.view(Viewer::Seat(Seat(0))).boards[1].planes, None);
    assert_eq!(game.view(Viewer::Spectator).boards[1].planes, None);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase, PhaseView::Deploy { ready: vec![Seat(1)] });
}

#[test]
fn shot_results_are_miss_hit_down() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Double, 2, 1)).unwrap();
    let a = plane("C1", Facing::Up);
    let b = plane("G5", Facing::Up);
    deploy(&mut game, 0, vec![a, b]);
    deploy(&mut game, 1, vec![a, b]);
    let result = |events: Vec<Event>| match &events[0] {
        Event::Shot { result, plane, .. } => (*result, *plane),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        result(fire(&mut game, 0, 1, "A1").unwrap()),
        (ShotResult::Miss, None)
    );
    assert_eq!(
        result(fire(&mut game, 1, 0, "C4").unwrap()),
        (ShotResult::Hit, None)
    );
    assert_eq!(
        result(fire(&mut game, 0, 1, "G5").unwrap()),
        (ShotResult::Down, Some(b))
    );
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.boards[1].downed, vec![b]);
}

#[test]
fn a_resignation_ends_the_match_with_the_resigner_last_and_is_refused_once_over() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Classic, 3, 18)).unwrap();
    for seat in 0..3 {
        deploy(&mut game, seat, vec![plane("C1", Facing::Up)]);
    }
    // Seat 0 heads seat 1's only plane: it scores and knocks seat 1 out.
    let events = fire(&mut game, 0, 1, "C1").unwrap();
    assert!(
        shot_points(&events)
            .iter()
            .any(|(points, out)| *points > 0 && *out),
        "{events:?}"
    );
    let totals_before = game.totals().clone();
    assert!(totals_before[Seat(0)] > 0);
    // Seat 0 leads, yet resigning puts it last; of the others (0 points each) the lower seat
    // wins and the other is second.
    let events = game.apply(Seat(0), Action::Resign).unwrap();
    let [Event::MatchEnded { outcome }] = events.as_slice() else {
        panic!("the match ends at once: {events:?}")
    };
    assert_eq!(outcome.resigned, Some(Seat(0)));
    assert_eq!(outcome.winner, Seat(1));
    assert_eq!(outcome.placings.0, vec![3, 1, 2]);
    assert_eq!(&outcome.totals, &totals_before, "points are kept as they were");
    assert_eq!(game.outcome(), Some(outcome));
    assert!(game.to_act().is_empty());
    assert_eq!(game.apply(Seat(1), Action::Resign), Err(RuleError::MatchOver));
    assert_eq!(
        game.apply(
            Seat(1),
            Action::Fire {
                target: Seat(2),
                cell: cell("A1")
            }
        ),
        Err(RuleError::MatchOver)
    );
}

#[test]
fn a_resignation_from_a_seat_not_at_the_table_is_refused_and_changes_nothing() {
    let (mut game, _) = PlaneBattle::new(config(Variant::Classic, 2, 18)).unwrap();
    let before = game.view(Viewer::Spectator);
    assert_eq!(
        game.apply(Seat(2), Action::Resign),
        Err(RuleError::NoSuchSeat(Seat(2)))
    );
    assert_eq!(game.view(Viewer::Spectator), before);
}
