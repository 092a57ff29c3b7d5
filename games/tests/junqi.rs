//! Junqi's referee (docs/rules.md, junqi): deployment refusals, each end rule (flag captured, no legal
//! move, the no-attack limit and its settings, the clock, resignation), the flag revealed when a
//! field marshal falls, what each viewer sees, and whole random games in which every listed move
//! is accepted, every other move refused with the state unchanged, and no view ever shows an enemy
//! rank before the end.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use skirmish_games::junqi::{
    Action, Config, ConfigError, DeploymentError, End, Event, Junqi, Layout, Move, MoveError, MoveResult,
    Phase, Post, Rank, RuleError,
};
use skirmish_games::{Audience, Game, Seat, Viewer};

fn post(s: &str) -> Post {
    s.parse().unwrap()
}

fn mv(s: &str) -> Action {
    let m: Move = s.parse().unwrap();
    Action::Move {
        from: m.from,
        to: m.to,
    }
}

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

/// A game in the battle, from two layouts.
fn battle(config: Config, red: Layout, blue: Layout) -> Junqi {
    let (mut game, _) = Junqi::new(config).unwrap();
    game.apply(Seat(0), Action::Deploy { layout: red }).unwrap();
    let events = game.apply(Seat(1), Action::Deploy { layout: blue }).unwrap();
    assert_eq!(
        events,
        [
            Event::Deployed { seat: Seat(1) },
            Event::Deployment {
                seat: Seat(1),
                layout: blue
            },
            Event::BattleStarted { to_move: Seat(0) }
        ]
    );
    assert_eq!(
        events[1].audience(),
        Audience::Seat(Seat(1)),
        "a layout goes to its owner alone"
    );
    assert_eq!(events[0].audience(), Audience::Everyone);
    game
}

/// Plays `moves` alternately from seat 0, each of which must be legal; returns the last events.
fn play(game: &mut Junqi, moves: &[&str]) -> Vec<Event> {
    let mut last = Vec::new();
    for m in moves {
        let seat = game.to_act()[0];
        last = game.apply(seat, mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    last
}

fn state(game: &Junqi) -> String {
    format!("{game:?}")
}

#[test]
fn configs_take_the_caai_no_attack_limit_by_default_and_refuse_odd_ones() {
    assert_eq!(Config::default().no_attack_limit, 31);
    for ok in [0, 10, 20, 31] {
        assert!(Junqi::new(Config { no_attack_limit: ok }).is_ok());
    }
    for bad in [1, 9, 32, 255] {
        assert_eq!(
            Junqi::new(Config { no_attack_limit: bad }).unwrap_err(),
            ConfigError::NoAttackLimit(bad)
        );
    }
}

#[test]
fn each_deployment_rule_refuses_and_changes_nothing() {
    let (mut game, _) = Junqi::new(Config::default()).unwrap();
    let before = state(&game);
    for (text, code) in [
        ("bbccddeeffggghhhiiijjkklj", "layout_piece_count"),
        ("abccddeeffggghhhiiijjklkj", "flag_not_in_headquarters"),
        ("abccddeeffggghjhiiihjkklj", "landmine_out_of_back_rows"),
        ("kbccddeeffggghhhiiijjaklj", "bomb_in_front_row"),
    ] {
        let err = game
            .apply(Seat(1), Action::Deploy { layout: layout(text) })
            .unwrap_err();
        assert_eq!(err.code(), code, "{text}: {err}");
        assert_eq!(state(&game), before);
    }
    assert_eq!(
        game.apply(Seat(0), mv("G0F0")).unwrap_err(),
        RuleError::StillDeploying
    );
    assert_eq!(
        game.apply(
            Seat(2),
            Action::Deploy {
                layout: Layout::example()
            }
        )
        .unwrap_err(),
        RuleError::NoSuchSeat(Seat(2))
    );
    assert_eq!(state(&game), before);
    game.apply(
        Seat(1),
        Action::Deploy {
            layout: Layout::example(),
        },
    )
    .unwrap();
    assert_eq!(game.to_act(), [Seat(0)], "seat 0 still deploys");
    let after = state(&game);
    assert_eq!(
        game.apply(
            Seat(1),
            Action::Deploy {
                layout: Layout::example()
            }
        )
        .unwrap_err(),
        RuleError::AlreadyDeployed
    );
    assert_eq!(state(&game), after);
}

#[test]
fn bad_moves_are_refused_with_their_codes_and_change_nothing() {
    let mut game = battle(Config::default(), Layout::example(), Layout::example());
    let before = state(&game);
    let cases = [
        (Seat(1), "F0E0", "not_your_turn"),
        (Seat(0), "L3K3", "immovable_piece"),
        (Seat(0), "K4J4", "immovable_piece"),
        (Seat(0), "F0E0", "no_piece_of_yours"),
        (Seat(0), "H1G1", "no_piece_of_yours"),
        (Seat(0), "G0G1", "own_piece_at_destination"),
        (Seat(0), "G0E0", "unreachable_post"),
        (Seat(0), "L1K1", "piece_in_headquarters"),
    ];
    for (seat, m, code) in cases {
        let err = game.apply(seat, mv(m)).unwrap_err();
        assert_eq!(err.code(), code, "{m}: {err}");
        assert_eq!(state(&game), before, "{m}");
    }
    // A railway turn by a non-engineer, and an attack on a camp.
    play(&mut game, &["G0H1", "F4E3"]);
    let before = state(&game);
    assert_eq!(
        game.apply(Seat(0), mv("G1F0")).unwrap_err(),
        RuleError::Move(MoveError::RailwayTurn {
            from: post("G1"),
            to: post("F0")
        })
    );
    assert_eq!(
        game.apply(Seat(0), mv("G4E3")).unwrap_err().code(),
        "camp_protected"
    );
    assert_eq!(
        game.apply(
            Seat(0),
            Action::Resign {
                reason: Some("x".repeat(201))
            }
        )
        .unwrap_err(),
        RuleError::ReasonTooLong
    );
    assert_eq!(state(&game), before);
}

/// Blue's layout for the flag hunt: weak pieces down its left column (absolute column 0, F0 to
/// B0) and at B1, the flag at A1.
const WEAK_LEFT: &str = "abcchddheefhfigiijggjjklk";

#[test]
fn a_captured_flag_loses_the_game_and_everything_is_revealed() {
    let blue = layout(WEAK_LEFT);
    assert_eq!(blue.check(), Ok(()));
    let mut game = battle(Config::default(), Layout::example(), blue);
    // Red's field marshal runs up column 0 taking a piece each time, along row B, then takes the
    // flag at A1 with a road step; blue shuffles a brigadier between E4 and the camp at E3.
    let events = play(
        &mut game,
        &[
            "G0F0", "E4E3", "F0E0", "E3E4", "E0D0", "E4E3", "D0C0", "E3E4", "C0B0", "E4E3", "B0B1", "E3E4",
        ],
    );
    assert!(matches!(events[0], Event::Moved { record } if record.result == MoveResult::Moved));
    for record in game.moves().iter().filter(|r| r.seat == Seat(0)) {
        assert_eq!(record.result, MoveResult::Won, "{record:?}");
    }
    let events = game.apply(Seat(0), mv("B1A1")).unwrap();
    let Some(Event::Ended { outcome }) = events.last() else {
        panic!("the game ends: {events:?}")
    };
    assert_eq!(outcome.winner, Some(Seat(0)));
    assert_eq!(outcome.end, End::FlagCaptured { seat: Seat(1) });
    assert_eq!(outcome.moves, 13);
    assert_eq!(outcome.layouts.0, [Some(Layout::example()), Some(blue)]);
    assert!(outcome.pieces.iter().all(|p| p.rank.is_some()));
    assert_eq!(game.phase(), Phase::Over);
    assert!(game.to_act().is_empty());
    assert_eq!(game.apply(Seat(1), mv("E4E3")).unwrap_err(), RuleError::GameOver);
    // Once over, every viewer sees every rank.
    let view = game.view(Viewer::Spectator);
    assert!(view.pieces.iter().all(|p| p.rank.is_some()));
}

#[test]
fn a_fallen_field_marshal_reveals_its_owners_flag_to_everyone() {
    // Red's marshal at G4 meets blue's at F4 (both layouts' slot 0, swapped with slot 4 for red).
    let mut red = Layout::example();
    red.0.swap(0, 4);
    let mut game = battle(Config::default(), red, Layout::example());
    let events = game.apply(Seat(0), mv("G4F4")).unwrap();
    assert!(matches!(events[0], Event::Moved { record } if record.result == MoveResult::Traded));
    assert_eq!(
        events[1..],
        [
            Event::FlagRevealed {
                seat: Seat(0),
                post: post("L3")
            },
            Event::FlagRevealed {
                seat: Seat(1),
                post: post("A1")
            },
        ]
    );
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator] {
        let view = game.view(viewer);
        assert_eq!(view.revealed_flags.0, [Some(post("L3")), Some(post("A1"))]);
        for piece in &view.pieces {
            let known = viewer == Viewer::Seat(piece.owner) || piece.rank == Some(Rank::Flag);
            assert_eq!(piece.rank.is_some(), known, "{viewer:?} {piece:?}");
        }
        let flags: Vec<_> = view
            .pieces
            .iter()
            .filter(|p| p.rank == Some(Rank::Flag))
            .collect();
        assert_eq!(flags.len(), 2, "{viewer:?} sees both flags");
    }
}

/// The no-attack rule as the seed paper reads it (docs/rules.md, junqi, "End of the game" 5):
/// the side that makes the limit-th quiet move of a streak loses, for each side and each limit's
/// parity: red (seat 0) starts the streak, so with an odd limit red makes the last quiet move and
/// loses, with an even one blue does.
#[test]
fn the_no_attack_limit_ends_the_game_against_the_side_that_made_the_last_quiet_move() {
    let shuffle = ["G0H1", "F4E3", "H1G0", "E3F4"];
    let quiet: Vec<&str> = shuffle.iter().cycle().take(40).copied().collect();
    for limit in [31_u8, 30, 11, 10] {
        let mut game = battle(
            Config {
                no_attack_limit: limit,
            },
            Layout::example(),
            Layout::example(),
        );
        let steps = usize::from(limit);
        let events = play(&mut game, &quiet[..steps - 1]);
        assert!(
            !events.iter().any(|e| matches!(e, Event::Ended { .. })),
            "limit {limit}: the game goes on until the {limit}th quiet move"
        );
        let events = play(&mut game, &quiet[steps - 1..steps]);
        let Some(Event::Ended { outcome }) = events.last() else {
            panic!("limit {limit}: the {limit}th quiet move ends the game: {events:?}")
        };
        // Red makes quiet moves 1, 3, 5...: the last of an odd limit.
        let last = if limit % 2 == 1 { Seat(0) } else { Seat(1) };
        assert_eq!(outcome.winner, Some(Seat(1 - last.0)), "limit {limit}");
        assert_eq!(
            outcome.end,
            End::NoAttackLimit { seat: last, limit },
            "limit {limit}"
        );
    }
    // A limit of 10; and a collision resets the count.
    let mut game = battle(
        Config { no_attack_limit: 10 },
        Layout::example(),
        Layout::example(),
    );
    play(&mut game, &quiet[..8]);
    assert_eq!(game.view(Viewer::Spectator).quiet_moves, 8);
    play(&mut game, &["G0F0"]);
    assert_eq!(
        game.view(Viewer::Spectator).quiet_moves,
        0,
        "a collision resets the count"
    );
    assert_eq!(game.phase(), Phase::Battle);
    // 0 turns the rule off.
    let mut game = battle(
        Config { no_attack_limit: 0 },
        Layout::example(),
        Layout::example(),
    );
    play(&mut game, &quiet);
    assert_eq!(game.phase(), Phase::Battle);
    assert_eq!(game.view(Viewer::Spectator).quiet_moves, 40);
}

#[test]
fn running_out_of_time_deploys_at_random_or_loses_and_either_side_may_resign() {
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut game, _) = Junqi::new(Config::default()).unwrap();
    game.apply(
        Seat(0),
        Action::Deploy {
            layout: Layout::example(),
        },
    )
    .unwrap();
    assert!(game.time_out(Seat(0), &mut rng).is_empty(), "seat 0 has deployed");
    let events = game.time_out(Seat(1), &mut rng);
    let [
        Event::Deployed { seat: Seat(1) },
        Event::Deployment {
            seat: Seat(1),
            layout,
        },
        Event::BattleStarted { to_move: Seat(0) },
    ] = &events[..]
    else {
        panic!("{events:?}")
    };
    assert_eq!(layout.check(), Ok(()), "the seat is told the layout made for it");
    assert!(game.time_out(Seat(1), &mut rng).is_empty(), "not seat 1's turn");
    let events = game.time_out(Seat(0), &mut rng);
    let Some(Event::Ended { outcome }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert_eq!(outcome.end, End::TimedOut { seat: Seat(0) });
    assert_eq!(outcome.layouts[Seat(1)].map(|l| l.check()), Some(Ok(())));

    // Resigning during the deployment: the other seat wins, and a missing layout stays missing.
    let (mut game, _) = Junqi::new(Config::default()).unwrap();
    let events = game
        .apply(
            Seat(1),
            Action::Resign {
                reason: Some("engine crashed".into()),
            },
        )
        .unwrap();
    let [Event::Ended { outcome }] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(outcome.winner, Some(Seat(0)));
    assert_eq!(outcome.layouts.0, [None, None]);
    assert_eq!(
        outcome.end,
        End::Resigned {
            seat: Seat(1),
            reason: Some("engine crashed".into())
        }
    );
}

#[test]
fn the_side_to_move_with_no_legal_move_loses() {
    // Random play with no no-attack limit goes on until one side cannot move (most games) or a
    // flag falls; check the referee's verdict against the final position each time.
    let mut found = 0;
    for seed in 0..40 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let game = random_game(&mut rng, Config { no_attack_limit: 0 }, |_, _| {});
        let outcome = game.outcome().unwrap();
        match outcome.end {
            End::NoLegalMove { seat } => {
                found += 1;
                assert_eq!(outcome.winner, Some(Seat(1 - seat.0)));
                assert!(!game.position().has_legal_move(seat));
                assert!(game.position().has_legal_move(Seat(1 - seat.0)));
                assert_eq!(game.position().to_move(), seat);
            }
            End::NeitherCanMove => {
                assert_eq!(outcome.winner, None);
                assert!(!game.position().has_legal_move(Seat(0)) && !game.position().has_legal_move(Seat(1)));
            }
            End::FlagCaptured { seat } => {
                assert_eq!(outcome.winner, Some(Seat(1 - seat.0)));
                assert_eq!(game.position().flag(seat), None);
            }
            ref other => panic!("random play without a limit or clock ends by the board: {other:?}"),
        }
    }
    assert!(found > 0, "some random game ended with a side unable to move");
}

/// Plays a whole game of uniformly random layouts and moves, calling `check` after every move.
fn random_game(rng: &mut SmallRng, config: Config, mut check: impl FnMut(&Junqi, &mut SmallRng)) -> Junqi {
    let (mut game, _) = Junqi::new(config).unwrap();
    for seat in [Seat(0), Seat(1)] {
        let layout = Layout::random(rng);
        game.apply(seat, Action::Deploy { layout }).unwrap();
    }
    for _ in 0..5000 {
        if game.phase() == Phase::Over {
            return game;
        }
        let seat = game.to_act()[0];
        let moves = game.position().legal_moves(seat);
        let m = *moves.choose(rng).expect("a side to move has a legal move");
        game.apply(
            seat,
            Action::Move {
                from: m.from,
                to: m.to,
            },
        )
        .unwrap();
        check(&game, rng);
    }
    panic!("a random game lasted 5000 moves");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// In random games, every move `legal_moves` lists is accepted (the game plays them), every
    /// other move tried is refused with the state unchanged, and no seat's or spectator's view
    /// shows an enemy rank (but a revealed flag) before the end.
    #[test]
    fn random_games_keep_the_rules_and_the_secrets(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let game = random_game(&mut rng, Config::default(), |game, rng| {
            if game.phase() == Phase::Over {
                return;
            }
            let seat = game.to_act()[0];
            let legal = game.position().legal_moves(seat);
            for _ in 0..4 {
                let from = Post::from_index(rng.random_range(0..60));
                let to = Post::from_index(rng.random_range(0..60));
                let m = Move { from, to };
                let mut copy = game.clone();
                let before = state(&copy);
                let result = copy.apply(seat, Action::Move { from, to });
                if legal.contains(&m) {
                    assert!(result.is_ok(), "{m} is listed but refused: {result:?}");
                } else {
                    assert!(result.is_err(), "{m} is not listed but accepted");
                    assert_eq!(state(&copy), before);
                }
            }
            for viewer in [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator] {
                let view = game.view(viewer);
                for piece in &view.pieces {
                    let own = viewer == Viewer::Seat(piece.owner);
                    let revealed = view.revealed_flags[piece.owner] == Some(piece.post);
                    if !own {
                        assert!(
                            piece.rank.is_none() || (piece.rank == Some(Rank::Flag) && revealed),
                            "{viewer:?} sees {piece:?}"
                        );
                    } else {
                        assert!(piece.rank.is_some());
                    }
                }
            }
        });
        prop_assert!(game.outcome().is_some());
    }
}

#[test]
fn deployment_errors_name_the_rule() {
    let mut l = Layout::example();
    l.0.swap(23, 22);
    assert_eq!(l.check(), Err(DeploymentError::FlagNotInHeadquarters("L2")));
    assert!(l.check().unwrap_err().to_string().contains("headquarters"));
}
