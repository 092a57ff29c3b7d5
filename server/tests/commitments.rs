//! Commit and reveal over real WebSockets: in plane battle and junqi played by bots, every secret
//! deployment is committed to every viewer before any shot or move, opened after the game reveals
//! it, and the bots' audit accepts every reveal; a referee that changed a deployment, or reported
//! results its committed deployment cannot give, is caught.

mod common;

use common::*;
use skirmish_bots::audit::{Audit, AuditError};
use skirmish_games::junqi::{self, Layout};
use skirmish_games::plane::{self, MatchFormat, Placement, ShotResult, Variant};
use skirmish_games::{PerSeat, Seat};
use skirmish_protocol::{ClientMsg, GameConfig, GameEvent, Reveal, RoomConfig, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};

/// Runs the audit over `log`, returning the first failure.
fn audit(log: &[ServerMsg]) -> Result<u64, AuditError> {
    let mut audit = Audit::new();
    for msg in log {
        audit.observe(msg)?;
    }
    Ok(audit.verified())
}

/// The rooms an audit still follows after `log`.
fn rooms_left(log: &[ServerMsg]) -> usize {
    let mut audit = Audit::new();
    for msg in log {
        audit.observe(msg).expect("a true log");
    }
    audit.rooms_followed()
}

/// Replaces the commitment and reveal of `seat` in `round` with a fresh seal of `deployment`.
fn reseal(log: &mut [ServerMsg], seat: Seat, round: u32, deployment: String) {
    let (fake_commitment, fake_reveal) = Reveal::seal(seat, round, deployment, &mut rand::rng());
    for msg in log.iter_mut() {
        match msg {
            ServerMsg::Commitment { commitment, .. }
                if commitment.seat == seat && commitment.round == round =>
            {
                *commitment = fake_commitment.clone();
            }
            ServerMsg::Reveal { reveal, .. } if reveal.seat == seat && reveal.round == round => {
                *reveal = fake_reveal.clone();
            }
            _ => {}
        }
    }
}

async fn watch_bots_play(
    server: &TestServer,
    config: RoomConfig,
    seats: usize,
    done: fn(&ServerMsg) -> bool,
) -> Vec<ServerMsg> {
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let room = create(&mut alice, config, false).await;
    alice.request(ClientMsg::Spectate { room }).await;
    add_bots(&mut alice, room, seats, "random").await;
    alice.recv_until(done).await;
    // Each reveal follows the game's own reveal, which may be the last event.
    let count = |log: &[ServerMsg], reveal: bool| {
        log.iter()
            .filter(|m| {
                matches!(m, ServerMsg::Reveal { .. }) == reveal
                    && matches!(m, ServerMsg::Reveal { .. } | ServerMsg::Commitment { .. })
            })
            .count()
    };
    while count(&alice.log, true) < count(&alice.log, false) {
        alice.recv().await;
    }
    alice.log.clone()
}

#[tokio::test]
async fn plane_battle_deployments_are_committed_before_the_shots_and_opened_after_each_round() {
    let server = TestServer::start().await;
    let bots = Bots::start(&server, &["bot-a", "bot-b"], &["random"], None).await;
    let mut config = room_config(Variant::Classic, 2, 2, NO_CLOCK);
    if let GameConfig::Plane(c) = &mut config.game {
        c.format = MatchFormat::Rounds(2);
    }
    let log = watch_bots_play(&server, config, 2, |m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Plane(plane::Event::MatchEnded { .. }),
                ..
            }
        )
    })
    .await;
    bots.stop().await;

    let rounds = log
        .iter()
        .filter(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Plane(plane::Event::RoundEnded { .. }),
                    ..
                }
            )
        })
        .count() as u64;
    assert!(rounds >= 2, "two rounds, and extra ones for a tie");
    assert_eq!(audit(&log), Ok(2 * rounds), "both seats in every round");
    assert_eq!(rooms_left(&log), 0, "the audit lets go of a finished match");
    // Order: each round's two commitments come before its first shot; its reveals after its end.
    let mut round = 0;
    let mut committed = 0;
    let mut ended = false;
    for msg in &log {
        match msg {
            ServerMsg::Event {
                event: GameEvent::Plane(plane::Event::RoundStarted { round: r, .. }),
                ..
            } => {
                round = *r;
                committed = 0;
                ended = false;
            }
            ServerMsg::Commitment { commitment, .. } => {
                assert_eq!(commitment.round, round);
                committed += 1;
            }
            ServerMsg::Event {
                event: GameEvent::Plane(plane::Event::Shot { .. }),
                ..
            } => assert_eq!(committed, 2, "both deployments committed before the first shot"),
            ServerMsg::Event {
                event: GameEvent::Plane(plane::Event::RoundEnded { .. }),
                ..
            } => ended = true,
            ServerMsg::Reveal { reveal, .. } => {
                assert!(ended, "a reveal only after its round's end");
                assert_eq!(reveal.round, round);
            }
            _ => {}
        }
    }

    // A referee that opens another deployment than it committed to is caught.
    let mut tampered = log.clone();
    for msg in &mut tampered {
        if let ServerMsg::Reveal { reveal, .. } = msg
            && reveal.seat == Seat(0)
            && reveal.round == 0
        {
            // Another plane than the committed one (a head at D4 or, if that was it, at E4).
            let head = if reveal.deployment.contains("\"D4\"") {
                "E4"
            } else {
                "D4"
            };
            reveal.deployment =
                serde_json::to_string(&[Placement::new(head.parse().unwrap(), plane::Facing::Up)]).unwrap();
        }
    }
    assert!(matches!(
        audit(&tampered),
        Err(AuditError::DigestMismatch {
            seat: 0,
            round: 0,
            ..
        })
    ));

    // A referee that commits to one deployment but answers shots from another is caught: commit
    // to (and reveal) a plane that disagrees with the first shot at seat 0's board, in the round
    // of that shot (a round can end before seat 0's board is shot at).
    let mut shot_round = 0;
    let shots_at_seat_0: Vec<_> = log
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Event {
                event: GameEvent::Plane(plane::Event::RoundStarted { round, .. }),
                ..
            } => {
                shot_round = *round;
                None
            }
            ServerMsg::Event {
                event:
                    GameEvent::Plane(plane::Event::Shot {
                        target, cell, result, ..
                    }),
                ..
            } if *target == Seat(0) => Some((shot_round, *cell, *result)),
            _ => None,
        })
        .collect();
    // Some cells (the corners) lie on no plane, so a miss there fits every plane: take the first
    // shot some plane disagrees with.
    let (round, fake) = shots_at_seat_0
        .iter()
        .find_map(|&(round, cell, result)| {
            let fake = plane::placements(7).into_iter().find(|p| {
                let would = if p.head == cell {
                    ShotResult::Down
                } else if p.cells(7).unwrap().contains(&cell) {
                    ShotResult::Hit
                } else {
                    ShotResult::Miss
                };
                would != result
            })?;
            Some((round, fake))
        })
        .expect("a shot at seat 0 that some plane would have answered otherwise");
    let mut lying = log.clone();
    reseal(
        &mut lying,
        Seat(0),
        round,
        serde_json::to_string(&[fake]).unwrap(),
    );
    for msg in &mut lying {
        if let ServerMsg::Event {
            event: GameEvent::Plane(plane::Event::RoundEnded { result, .. }),
            ..
        } = msg
            && result.round == round
        {
            result.deployments.0[0] = vec![fake];
        }
    }
    assert!(
        matches!(audit(&lying), Err(AuditError::InconsistentResult { .. })),
        "{:?}",
        audit(&lying)
    );
    // And one whose reveal differs from the game's own reveal.
    let mut mismatched = log.clone();
    reseal(
        &mut mismatched,
        Seat(0),
        round,
        serde_json::to_string(&[fake]).unwrap(),
    );
    assert!(matches!(
        audit(&mismatched),
        Err(AuditError::NotTheRevealedDeployment { seat: 0, round: r, .. }) if r == round
    ));
}

#[tokio::test]
async fn junqi_layouts_are_committed_before_the_battle_and_the_moves_replay_from_the_reveal() {
    let server = TestServer::start().await;
    let bots = Bots::start(&server, &["red-bot", "blue-bot"], &["random"], None).await;
    let config = RoomConfig {
        name: Some("junqi".into()),
        game: GameConfig::Junqi(junqi::Config::default()),
        clock: Some(NO_CLOCK),
        on_drop: None,
    };
    let log = watch_bots_play(&server, config, 2, |m| {
        matches!(
            m,
            ServerMsg::Event {
                event: GameEvent::Junqi(junqi::Event::Ended { .. }),
                ..
            }
        )
    })
    .await;
    bots.stop().await;
    assert_eq!(audit(&log), Ok(2));
    assert_eq!(rooms_left(&log), 0, "the audit lets go of a finished game");
    let first_move = log
        .iter()
        .position(|m| {
            matches!(
                m,
                ServerMsg::Event {
                    event: GameEvent::Junqi(junqi::Event::Moved { .. }),
                    ..
                }
            )
        })
        .expect("a move");
    let commitments: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m, ServerMsg::Commitment { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(commitments.len(), 2);
    assert!(commitments.iter().all(|&i| i < first_move));

    // A referee that swaps two of blue's pieces after committing (and reports the swapped layout
    // consistently at the end) is caught by replaying the moves, whenever the swap matters.
    let layouts: PerSeat<Option<Layout>> = log
        .iter()
        .find_map(|m| match m {
            ServerMsg::Event {
                event: GameEvent::Junqi(junqi::Event::Ended { outcome }),
                ..
            } => Some(outcome.layouts.clone()),
            _ => None,
        })
        .unwrap();
    let blue = layouts[Seat(1)].unwrap();
    let mut caught = 0;
    for i in 0..25 {
        for j in i + 1..25 {
            if blue.0[i] == blue.0[j] {
                continue;
            }
            let mut fake = blue;
            fake.0.swap(i, j);
            let mut lying = log.clone();
            reseal(&mut lying, Seat(1), 0, fake.to_string());
            for msg in &mut lying {
                if let ServerMsg::Event {
                    event: GameEvent::Junqi(junqi::Event::Ended { outcome }),
                    ..
                } = msg
                {
                    outcome.layouts.0[1] = Some(fake);
                }
            }
            match audit(&lying) {
                Ok(_) => {}
                Err(AuditError::InconsistentResult { .. }) => caught += 1,
                Err(other) => panic!("a consistent lie fails only the replay: {other}"),
            }
        }
    }
    assert!(caught > 0, "some swap changes a result or a legal move");
}
