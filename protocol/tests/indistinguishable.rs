//! Indistinguishability: a player's messages do not depend on the opponents' hidden deployments.
//!
//! For random games of plane battle and junqi, each opponent's secret deployment is replaced by
//! others consistent with everything the player has seen (every public result is the same, as the
//! true positions compute it), the same actions are replayed, and the player's messages (each
//! event it may see, with its number in the room's sequence, and its view after every action) are
//! compared byte for byte, up to the game's own reveal. Commitments are left out: they are
//! salted digests that differ between any two runs (see `skirmish_protocol::commitment`).

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use skirmish_games::junqi::{self, Junqi, Layout, Rank};
use skirmish_games::plane::{self, MatchFormat, Placement, PlaneBattle, ShotResult, Variant, placements};
use skirmish_games::{Game, Seat, Viewer};
use skirmish_protocol::{GameEvent, GameView};

/// A player's stream so far: every event it may see (with its index in the whole event sequence)
/// and its view after each action, as JSON text.
#[derive(Default, Debug, PartialEq)]
struct Stream {
    lines: Vec<String>,
    next: usize,
    revealed: bool,
}

impl Stream {
    fn events(
        &mut self,
        viewer: Viewer,
        events: impl IntoIterator<Item = (skirmish_games::Audience, GameEvent, bool)>,
    ) {
        for (audience, event, reveals) in events {
            self.next += 1;
            if self.revealed {
                continue;
            }
            if reveals {
                self.revealed = true;
                continue;
            }
            if audience.includes(viewer) {
                self.lines.push(format!(
                    "{} {}",
                    self.next,
                    serde_json::to_string(&event).unwrap()
                ));
            }
        }
    }

    fn view(&mut self, view: GameView) {
        if !self.revealed {
            self.lines.push(serde_json::to_string(&view).unwrap());
        }
    }
}

// ---------------------------------------------------------------- junqi

/// A whole random junqi game: both layouts and every move.
fn random_junqi(rng: &mut SmallRng) -> ([Layout; 2], Vec<junqi::Move>) {
    let layouts = [Layout::random(rng), Layout::random(rng)];
    let (mut game, _) = Junqi::new(junqi::Config::default()).unwrap();
    for (i, layout) in layouts.iter().enumerate() {
        game.apply(Seat(i as u8), junqi::Action::Deploy { layout: *layout })
            .unwrap();
    }
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < 400 {
        let seat = game.to_act()[0];
        let mv = *game.position().legal_moves(seat).choose(rng).unwrap();
        game.apply(
            seat,
            junqi::Action::Move {
                from: mv.from,
                to: mv.to,
            },
        )
        .unwrap();
        moves.push(mv);
    }
    (layouts, moves)
}

/// What the true positions make public in a junqi game: every move's result, when each field
/// marshal fell (and where its owner's flag then stood), and how the game ended. `None` when a
/// move is illegal with these layouts.
fn junqi_public_truth(layouts: [Layout; 2], moves: &[junqi::Move]) -> Option<Vec<String>> {
    let mut position = junqi::Position::new([&layouts[0], &layouts[1]]);
    let mut truth = Vec::new();
    for &mv in moves {
        let seat = position.to_move();
        position.check_move(seat, mv).ok()?;
        let played = position.play(mv);
        let mut line = format!("{mv} {:?}", played.result);
        for piece in played.removed.into_iter().flatten() {
            if piece.rank == Rank::FieldMarshal {
                line += &format!(" marshal {} flag {:?}", piece.owner.0, position.flag(piece.owner));
            }
        }
        truth.push(line);
    }
    // The referee's verdict, on the same moves.
    let (mut game, _) = Junqi::new(junqi::Config::default()).unwrap();
    for (i, layout) in layouts.iter().enumerate() {
        game.apply(Seat(i as u8), junqi::Action::Deploy { layout: *layout })
            .unwrap();
    }
    for mv in moves {
        let seat = game.to_act().first().copied()?;
        game.apply(
            seat,
            junqi::Action::Move {
                from: mv.from,
                to: mv.to,
            },
        )
        .ok()?;
    }
    truth.push(format!("{:?}", game.outcome().map(|o| (o.winner, o.end.clone()))));
    Some(truth)
}

/// `viewer`'s stream in a junqi game with these layouts and moves.
fn junqi_stream(layouts: [Layout; 2], moves: &[junqi::Move], viewer: Viewer) -> Stream {
    let mut stream = Stream::default();
    let tag = |events: Vec<junqi::Event>| {
        events.into_iter().map(|e| {
            let reveals = matches!(e, junqi::Event::Ended { .. });
            (e.audience(), GameEvent::Junqi(e), reveals)
        })
    };
    let (mut game, opening) = Junqi::new(junqi::Config::default()).unwrap();
    stream.events(viewer, tag(opening));
    for (i, layout) in layouts.iter().enumerate() {
        let events = game
            .apply(Seat(i as u8), junqi::Action::Deploy { layout: *layout })
            .unwrap();
        stream.events(viewer, tag(events));
        stream.view(GameView::Junqi(game.view(viewer)));
    }
    for mv in moves {
        let seat = game.to_act()[0];
        let events = game
            .apply(
                seat,
                junqi::Action::Move {
                    from: mv.from,
                    to: mv.to,
                },
            )
            .unwrap();
        stream.events(viewer, tag(events));
        stream.view(GameView::Junqi(game.view(viewer)));
    }
    stream
}

#[test]
fn a_junqi_players_messages_do_not_depend_on_the_enemy_layout() {
    let mut alternatives = 0;
    for seed in 0..12 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (layouts, moves) = random_junqi(&mut rng);
        for player in [Seat(0), Seat(1)] {
            let enemy = 1 - player.index();
            let truth = junqi_public_truth(layouts, &moves).unwrap();
            let mine = junqi_stream(layouts, &moves, Viewer::Seat(player));
            // Other enemy layouts: two of its pieces swapped, wherever that keeps every public
            // result the same.
            for _ in 0..60 {
                let (i, j) = (rng.random_range(0..25), rng.random_range(0..25));
                let mut other = layouts;
                other[enemy].0.swap(i, j);
                if other[enemy] == layouts[enemy] || other[enemy].check().is_err() {
                    continue;
                }
                if junqi_public_truth(other, &moves).as_ref() != Some(&truth) {
                    continue;
                }
                alternatives += 1;
                let theirs = junqi_stream(other, &moves, Viewer::Seat(player));
                assert_eq!(
                    mine.lines, theirs.lines,
                    "seed {seed}: seat {} can tell the enemy layout {} from {}",
                    player.0, layouts[enemy], other[enemy]
                );
                let spectator = (
                    junqi_stream(layouts, &moves, Viewer::Spectator),
                    junqi_stream(other, &moves, Viewer::Spectator),
                );
                assert_eq!(
                    spectator.0.lines, spectator.1.lines,
                    "seed {seed}: a spectator can tell"
                );
            }
        }
    }
    assert!(
        alternatives >= 50,
        "only {alternatives} consistent alternatives were tried"
    );
}

// ---------------------------------------------------------------- plane battle

const SIDE: u8 = 7;

/// One shot: who fired, at whose board, where.
type Shot = (Seat, Seat, plane::Cell);

/// A random 3-player round of classic plane battle: every deployment, then every shot to the
/// round's end.
fn random_plane(rng: &mut SmallRng) -> (Vec<Vec<Placement>>, Vec<Shot>) {
    let config = plane_config();
    let (mut game, _) = PlaneBattle::new(config).unwrap();
    let deployments: Vec<Vec<Placement>> = (0..3)
        .map(|_| plane::random_deployment(Variant::Classic, rng))
        .collect();
    for (i, planes) in deployments.iter().enumerate() {
        game.apply(
            Seat(i as u8),
            plane::Action::Deploy {
                planes: planes.clone(),
            },
        )
        .unwrap();
    }
    let mut shots = Vec::new();
    // Until the round's end, which reveals everything (a tie for first may add extra rounds).
    while game.history().is_empty() {
        let seat = game.to_act()[0];
        let (target, cell) = *game.legal_shots(seat).choose(rng).unwrap();
        game.apply(seat, plane::Action::Fire { target, cell }).unwrap();
        shots.push((seat, target, cell));
    }
    (deployments, shots)
}

fn plane_config() -> plane::Config {
    plane::Config {
        variant: Variant::Classic,
        players: 3,
        format: MatchFormat::Rounds(1),
        ..plane::Config::default()
    }
}

/// What a shot at `planes` finds, and the plane it downs.
fn shot_at(planes: &[Placement], cell: plane::Cell) -> (ShotResult, Option<Placement>) {
    if let Some(p) = planes.iter().find(|p| p.head == cell) {
        return (ShotResult::Down, Some(*p));
    }
    if planes.iter().any(|p| p.cells(SIDE).unwrap().contains(&cell)) {
        (ShotResult::Hit, None)
    } else {
        (ShotResult::Miss, None)
    }
}

/// `viewer`'s stream in a round with these deployments and shots.
fn plane_stream(deployments: &[Vec<Placement>], shots: &[Shot], viewer: Viewer) -> Stream {
    let mut stream = Stream::default();
    let tag = |events: Vec<plane::Event>| {
        events.into_iter().map(|e| {
            let reveals = matches!(e, plane::Event::RoundEnded { .. });
            (e.audience(), GameEvent::Plane(e), reveals)
        })
    };
    let (mut game, opening) = PlaneBattle::new(plane_config()).unwrap();
    stream.events(viewer, tag(opening));
    for (i, planes) in deployments.iter().enumerate() {
        let events = game
            .apply(
                Seat(i as u8),
                plane::Action::Deploy {
                    planes: planes.clone(),
                },
            )
            .unwrap();
        stream.events(viewer, tag(events));
        stream.view(GameView::Plane(game.view(viewer)));
    }
    for &(seat, target, cell) in shots {
        let events = game
            .apply(seat, plane::Action::Fire { target, cell })
            .unwrap_or_else(|e| panic!("{seat} fires at {target} {cell}: {e} ({deployments:?})"));
        stream.events(viewer, tag(events));
        stream.view(GameView::Plane(game.view(viewer)));
    }
    stream
}

#[test]
fn a_plane_battle_players_messages_do_not_depend_on_the_hidden_boards() {
    let all = placements(SIDE);
    let mut alternatives = 0;
    for seed in 0..300 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (deployments, shots) = random_plane(&mut rng);
        let player = Seat(0);
        let mine = plane_stream(&deployments, &shots, Viewer::Seat(player));
        for opponent in [1usize, 2] {
            // Every other plane on that board that every shot at it would have found the same.
            let at_board: Vec<plane::Cell> = shots
                .iter()
                .filter(|s| s.1.index() == opponent)
                .map(|s| s.2)
                .collect();
            for &other in &all {
                let alt = vec![other];
                if alt == deployments[opponent]
                    || at_board
                        .iter()
                        .any(|&c| shot_at(&alt, c) != shot_at(&deployments[opponent], c))
                {
                    continue;
                }
                alternatives += 1;
                let mut world = deployments.clone();
                world[opponent] = alt;
                let theirs = plane_stream(&world, &shots, Viewer::Seat(player));
                assert_eq!(
                    mine.lines, theirs.lines,
                    "seed {seed}: seat 0 can tell seat {opponent}'s plane {:?} from {other:?}",
                    deployments[opponent]
                );
            }
        }
    }
    assert!(
        alternatives >= 100,
        "only {alternatives} consistent alternatives were tried"
    );
}
