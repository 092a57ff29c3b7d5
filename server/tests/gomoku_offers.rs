//! Gomoku's draw offers and takebacks (悔棋) over real WebSockets (docs/rules.md, gomoku, "Draw
//! offers and takebacks"): a draw offered and accepted ends the game drawn, declined it goes on;
//! a takeback against a bot is granted at once and a draw offered to one declined; against a
//! person a takeback needs their consent; plane battle, junqi and tournament matches refuse both
//! with their codes; a takeback and a waiting offer survive a restart of the server (the room's
//! journal). A hostile peer cannot answer its own offer, take back the other's stone, take back
//! twice, stop its clock by offering, or offer from the spectators' seats.

mod common;

use std::time::Duration;

use common::*;
use skirmish_games::Seat;
use skirmish_games::gomoku::{self, End, Move, Rule};
use skirmish_protocol::{
    Action, BotOffer, ClientMsg, Clock, ErrorCode, GameConfig, GameEvent, GameKind, GameView, Offer,
    PROTOCOL_VERSION, ResumeToken, RoomConfig, RoomId, ServerMsg,
};
use skirmish_server::Limits;
use skirmish_server::testing::{TestClient, TestServer};

const BLACK: Seat = Seat(0);
const WHITE: Seat = Seat(1);

fn gomoku_room(clock: Clock) -> RoomConfig {
    common::gomoku_room_named("offers", Rule::Freestyle, clock)
}

use common::place_stone as place;

fn offer(room: RoomId, offer: Offer) -> ClientMsg {
    ClientMsg::Offer {
        room,
        seat: None,
        offer,
    }
}

fn answer(room: RoomId, offer: Offer, accept: bool) -> ClientMsg {
    ClientMsg::Answer {
        room,
        seat: None,
        offer,
        accept,
    }
}

/// Waits for a gomoku event `pick` takes something from.
async fn gomoku_event<T>(client: &mut TestClient, pick: impl Fn(&gomoku::Event) -> Option<T>) -> T {
    wait_for(client, |m| match m {
        ServerMsg::Event {
            event: GameEvent::Gomoku(e),
            ..
        } => pick(e),
        _ => None,
    })
    .await
}

async fn placed(client: &mut TestClient, number: u32) -> Move {
    gomoku_event(client, |e| match e {
        gomoku::Event::Placed { number: n, stone, .. } if *n == number => Some(*stone),
        _ => None,
    })
    .await
}

async fn ended(client: &mut TestClient) -> gomoku::Outcome {
    gomoku_event(client, |e| match e {
        gomoku::Event::Ended { outcome } => Some(outcome.clone()),
        _ => None,
    })
    .await
}

/// The room's view as a fresh snapshot gives it (everything in gomoku is public).
async fn view(client: &mut TestClient, room: RoomId) -> gomoku::View {
    let reply = client.request(ClientMsg::Spectate { room }).await;
    assert!(matches!(reply, ServerMsg::Done { .. }), "{reply:?}");
    let snapshot = client
        .log
        .iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::Room(snapshot) if snapshot.room.id == room => Some(snapshot.clone()),
            _ => None,
        })
        .expect("a room snapshot");
    let GameView::Gomoku(view) = snapshot.view else {
        panic!("a gomoku view: {snapshot:?}")
    };
    view
}

/// The code of the refusal that answers `msg`.
async fn refused(client: &mut TestClient, msg: ClientMsg) -> ErrorCode {
    match client.request(msg).await {
        ServerMsg::Error { code, .. } => code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn points(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.point.to_string()).collect()
}

/// Alice (black) and Bob (white) in a fresh gomoku room, and Carol watching.
async fn two_people(server: &TestServer, clock: Clock) -> (RoomId, TestClient, TestClient, TestClient) {
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let (mut carol, _) = TestClient::join(&server.ws_url(), "Carol").await;
    let room = create(&mut alice, gomoku_room(clock), true).await;
    assert_eq!(join(&mut bob, room).await, WHITE);
    carol.request(ClientMsg::Spectate { room }).await;
    your_turn(&mut alice).await;
    (room, alice, bob, carol)
}

#[tokio::test]
async fn a_draw_offer_accepted_ends_the_game_drawn_and_declined_it_goes_on() {
    let server = TestServer::start().await;
    let (room, mut alice, mut bob, mut carol) = two_people(&server, NO_CLOCK).await;
    alice.send(place(room, "h8")).await;
    placed(&mut bob, 1).await;
    bob.send(offer(room, Offer::Draw)).await;
    for client in [&mut alice, &mut bob, &mut carol] {
        let seat = gomoku_event(client, |e| match e {
            gomoku::Event::DrawOffered { seat } => Some(*seat),
            _ => None,
        })
        .await;
        assert_eq!(seat, WHITE);
    }
    // Bob cannot accept his own offer, nor offer again; Carol, watching, can do neither.
    assert_eq!(
        refused(&mut bob, answer(room, Offer::Draw, true)).await,
        ErrorCode::rule("no_draw_offer")
    );
    assert_eq!(
        refused(&mut bob, offer(room, Offer::Draw)).await,
        ErrorCode::rule("draw_pending")
    );
    assert_eq!(
        refused(&mut carol, answer(room, Offer::Draw, true)).await,
        ErrorCode::NotSeated
    );
    assert_eq!(view(&mut carol, room).await.offers.draw, Some(WHITE));
    alice.send(answer(room, Offer::Draw, false)).await;
    for client in [&mut alice, &mut bob, &mut carol] {
        gomoku_event(client, |e| {
            matches!(e, gomoku::Event::DrawDeclined { seat: BLACK }).then_some(())
        })
        .await;
    }
    let now = view(&mut carol, room).await;
    assert_eq!(
        (now.outcome, now.offers.draw, now.to_move),
        (None, None, Some(WHITE))
    );
    assert_eq!(
        refused(&mut alice, answer(room, Offer::Draw, true)).await,
        ErrorCode::rule("no_draw_offer"),
        "declined is answered"
    );
    // Once between two of one's stones.
    assert_eq!(
        refused(&mut bob, offer(room, Offer::Draw)).await,
        ErrorCode::rule("draw_offered_already")
    );
    bob.send(place(room, "h9")).await;
    placed(&mut alice, 2).await;
    // Offered with a stone, the offer lapses when the other places one.
    bob.send(offer(room, Offer::Draw)).await;
    gomoku_event(&mut alice, |e| {
        matches!(e, gomoku::Event::DrawOffered { seat: WHITE }).then_some(())
    })
    .await;
    alice.send(place(room, "a1")).await;
    placed(&mut bob, 3).await;
    assert_eq!(
        refused(&mut alice, answer(room, Offer::Draw, true)).await,
        ErrorCode::rule("no_draw_offer")
    );
    // Alice offers; Bob accepts: drawn, for everyone.
    alice.send(offer(room, Offer::Draw)).await;
    gomoku_event(&mut bob, |e| {
        matches!(e, gomoku::Event::DrawOffered { seat: BLACK }).then_some(())
    })
    .await;
    bob.send(answer(room, Offer::Draw, true)).await;
    for client in [&mut alice, &mut bob, &mut carol] {
        let outcome = ended(client).await;
        assert_eq!(outcome.winner, None);
        assert_eq!(outcome.end, End::DrawAgreed { offered_by: BLACK });
        assert_eq!(outcome.stones, 3);
    }
    // The room is over.
    let summary = listed(&mut carol, room).await;
    assert_eq!(summary.status, skirmish_protocol::RoomStatus::Finished);
}

#[tokio::test]
async fn a_takeback_against_a_bot_is_granted_at_once_and_a_draw_declined() {
    let server = TestServer::start().await;
    let bots = Bots::start(&server, &["pool"], &["random"], None).await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let room = create(&mut alice, gomoku_room(NO_CLOCK), true).await;
    add_bots(&mut alice, room, 1, "random").await;
    // The match starts with the bot: its first `your_turn` may come before the bot's `done`.
    if !alice.log.iter().any(|m| matches!(m, ServerMsg::YourTurn { .. })) {
        your_turn(&mut alice).await;
    }
    alice.send(place(room, "h8")).await;
    let reply = placed(&mut alice, 2).await;
    your_turn(&mut alice).await;
    alice.send(offer(room, Offer::Takeback)).await;
    gomoku_event(&mut alice, |e| {
        matches!(e, gomoku::Event::TakebackAsked { seat: BLACK }).then_some(())
    })
    .await;
    let (seat, moves) = gomoku_event(&mut alice, |e| match e {
        gomoku::Event::TakenBack { seat, moves } => Some((*seat, moves.clone())),
        _ => None,
    })
    .await;
    assert_eq!(seat, BLACK);
    assert_eq!(
        points(&moves),
        ["h8".to_owned(), reply.point.to_string()],
        "her stone and the bot's reply"
    );
    your_turn(&mut alice).await;
    let now = view(&mut alice, room).await;
    assert!(now.moves.is_empty());
    assert_eq!(now.to_move, Some(BLACK));
    assert_eq!(now.offers.taken_back, [1, 0]);
    // Once between two of her stones.
    assert_eq!(
        refused(&mut alice, offer(room, Offer::Takeback)).await,
        ErrorCode::rule("takeback_asked_already")
    );
    // A draw offered to the bot is declined at once; the game goes on.
    alice.send(offer(room, Offer::Draw)).await;
    gomoku_event(&mut alice, |e| {
        matches!(e, gomoku::Event::DrawDeclined { seat: WHITE }).then_some(())
    })
    .await;
    alice.send(place(room, "h8")).await;
    placed(&mut alice, 2).await;
    bots.stop().await;
}

#[tokio::test]
async fn a_takeback_against_a_person_needs_their_consent() {
    let server = TestServer::start().await;
    let (room, mut alice, mut bob, mut carol) = two_people(&server, NO_CLOCK).await;
    alice.send(place(room, "h8")).await;
    placed(&mut bob, 1).await;
    // Bob has no stone: he cannot take back Alice's.
    assert_eq!(
        refused(&mut bob, offer(room, Offer::Takeback)).await,
        ErrorCode::rule("nothing_to_take_back")
    );
    bob.send(place(room, "h9")).await;
    placed(&mut alice, 2).await;
    alice.send(offer(room, Offer::Takeback)).await;
    gomoku_event(&mut bob, |e| {
        matches!(e, gomoku::Event::TakebackAsked { seat: BLACK }).then_some(())
    })
    .await;
    // Alice cannot grant it herself, nor ask twice; Bob cannot ask over it; Carol has no say.
    assert_eq!(
        refused(&mut alice, answer(room, Offer::Takeback, true)).await,
        ErrorCode::rule("no_takeback")
    );
    assert_eq!(
        refused(&mut alice, offer(room, Offer::Takeback)).await,
        ErrorCode::rule("takeback_pending")
    );
    assert_eq!(
        refused(&mut bob, offer(room, Offer::Takeback)).await,
        ErrorCode::rule("takeback_pending")
    );
    assert_eq!(
        refused(&mut carol, answer(room, Offer::Takeback, true)).await,
        ErrorCode::NotSeated
    );
    // Refused without his consent: the stones stay.
    bob.send(answer(room, Offer::Takeback, false)).await;
    gomoku_event(&mut alice, |e| {
        matches!(e, gomoku::Event::TakebackDeclined { seat: WHITE }).then_some(())
    })
    .await;
    let now = view(&mut carol, room).await;
    assert_eq!(points(&now.moves), ["h8", "h9"]);
    assert_eq!(now.to_move, Some(BLACK));
    // Alice plays on and asks again while Bob thinks: her stone alone comes off, with his consent.
    alice.send(place(room, "h10")).await;
    placed(&mut bob, 3).await;
    alice.send(offer(room, Offer::Takeback)).await;
    gomoku_event(&mut bob, |e| {
        matches!(e, gomoku::Event::TakebackAsked { seat: BLACK }).then_some(())
    })
    .await;
    bob.send(answer(room, Offer::Takeback, true)).await;
    for client in [&mut alice, &mut bob, &mut carol] {
        let moves = gomoku_event(client, |e| match e {
            gomoku::Event::TakenBack { seat: BLACK, moves } => Some(moves.clone()),
            _ => None,
        })
        .await;
        assert_eq!(points(&moves), ["h10"]);
    }
    your_turn(&mut alice).await;
    // Granted once: not again, and not twice.
    assert_eq!(
        refused(&mut bob, answer(room, Offer::Takeback, true)).await,
        ErrorCode::rule("no_takeback")
    );
    assert_eq!(
        refused(&mut alice, offer(room, Offer::Takeback)).await,
        ErrorCode::rule("takeback_asked_already")
    );
    // Bob is not to move: his clock-free turn never came, and his stone is his.
    let now = view(&mut carol, room).await;
    assert_eq!(points(&now.moves), ["h8", "h9"]);
    assert_eq!(now.offers.taken_back, [1, 0]);
    assert_eq!(
        refused(&mut bob, place(room, "a1")).await,
        ErrorCode::rule("not_your_turn"),
        "it is Alice's turn again"
    );
}

#[tokio::test]
async fn offering_does_not_stop_the_offerers_clock() {
    let server = TestServer::start().await;
    let clock = Clock {
        deploy_ms: 0,
        move_ms: 400,
        game_ms: 0,
    };
    let (room, mut alice, mut bob, _carol) = two_people(&server, clock).await;
    // Alice, to move, offers a draw and waits: her turn runs out all the same.
    alice.send(offer(room, Offer::Draw)).await;
    gomoku_event(&mut bob, |e| {
        matches!(e, gomoku::Event::DrawOffered { seat: BLACK }).then_some(())
    })
    .await;
    let outcome = tokio::time::timeout(Duration::from_secs(5), ended(&mut bob))
        .await
        .expect("the clock ran on");
    assert_eq!(outcome.end, End::TimedOut { seat: BLACK });
}

#[tokio::test]
async fn plane_battle_junqi_and_tournament_matches_refuse_offers_with_their_codes() {
    let server = TestServer::start().await;
    let (mut alice, _) = TestClient::join(&server.ws_url(), "Alice").await;
    let (mut bob, _) = TestClient::join(&server.ws_url(), "Bob").await;
    let plane_room = create(
        &mut alice,
        room_config(skirmish_games::plane::Variant::Classic, 2, 1, NO_CLOCK),
        true,
    )
    .await;
    join(&mut bob, plane_room).await;
    let junqi_room = create(
        &mut alice,
        RoomConfig {
            name: None,
            game: GameConfig::Junqi(skirmish_games::junqi::Config::default()),
            clock: Some(NO_CLOCK),
            on_drop: None,
        },
        true,
    )
    .await;
    join(&mut bob, junqi_room).await;
    for room in [plane_room, junqi_room] {
        for what in [Offer::Takeback, Offer::Draw] {
            assert_eq!(
                refused(&mut alice, offer(room, what)).await,
                ErrorCode::OfferNotInGame
            );
            assert_eq!(
                refused(&mut bob, answer(room, what, true)).await,
                ErrorCode::OfferNotInGame
            );
        }
    }

    // A tournament match: an entrant that asks for a takeback or offers a draw is refused, by
    // the generic message or by the game's own action.
    let stop = tokio_util::sync::CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "mover".to_owned());
    options.token = Some(server.account("mover").await);
    options.set_strategies(&["random".to_owned()]);
    tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    let mut entrant = TestClient::connect(&server.ws_url()).await;
    let welcome = entrant
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "asker".to_owned(),
            bot: Some(BotOffer {
                games: [(GameKind::Gomoku, vec!["asks".to_owned()])].into(),
                version: None,
            }),
            resume: None,
            key: None,
            token: Some(server.account("asker").await),
            turn_view: Some(true),
            ladder: Vec::new(),
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    create_tournament(
        &server.http_url(""),
        serde_json::json!({
            "game": {"game": "gomoku"},
            "entrants": [{"bot": "mover", "strategy": "random"}, {"bot": "asker", "strategy": "asks"}],
            "clock": {"move_ms": 3000},
        }),
    )
    .await;
    let (room, seat) = wait_for(&mut entrant, |m| match m {
        ServerMsg::YourTurn { room, seat, .. } => Some((*room, *seat)),
        _ => None,
    })
    .await;
    for msg in [
        offer(room, Offer::Takeback),
        offer(room, Offer::Draw),
        answer(room, Offer::Draw, true),
        answer(room, Offer::Takeback, true),
        ClientMsg::Act {
            room,
            seat: Some(seat),
            action: Action::Gomoku(gomoku::Action::AskTakeback),
            info: None,
        },
        ClientMsg::Act {
            room,
            seat: Some(seat),
            action: Action::Gomoku(gomoku::Action::OfferDraw),
            info: None,
        },
    ] {
        assert_eq!(refused(&mut entrant, msg).await, ErrorCode::CasualOnly);
    }
    stop.cancel();
}

fn token(welcome: &ServerMsg) -> ResumeToken {
    let ServerMsg::Welcome { resume, .. } = welcome else {
        panic!("a welcome: {welcome:?}")
    };
    resume.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_and_a_waiting_offer_survive_a_restart_of_the_server() {
    let database = std::env::temp_dir().join(format!("skirmish-offers-{}.db", uuid::Uuid::new_v4()));
    let store = skirmish_server::store::Store::open(&database).await.unwrap();
    let server = TestServer::start_with_store(Limits::default(), store).await;
    let (mut alice, welcome) = TestClient::join(&server.ws_url(), "Alice").await;
    let alice_token = token(&welcome);
    let (mut bob, welcome) = TestClient::join(&server.ws_url(), "Bob").await;
    let bob_token = token(&welcome);
    let room = create(&mut alice, gomoku_room(NO_CLOCK), true).await;
    join(&mut bob, room).await;
    alice.send(place(room, "h8")).await;
    placed(&mut bob, 1).await;
    bob.send(place(room, "h9")).await;
    placed(&mut alice, 2).await;
    alice.send(place(room, "h10")).await;
    placed(&mut bob, 3).await;
    alice.send(offer(room, Offer::Takeback)).await;
    gomoku_event(&mut bob, |e| {
        matches!(e, gomoku::Event::TakebackAsked { .. }).then_some(())
    })
    .await;
    bob.send(answer(room, Offer::Takeback, true)).await;
    gomoku_event(&mut alice, |e| {
        matches!(e, gomoku::Event::TakenBack { .. }).then_some(())
    })
    .await;
    bob.send(offer(room, Offer::Draw)).await;
    gomoku_event(&mut alice, |e| {
        matches!(e, gomoku::Event::DrawOffered { .. }).then_some(())
    })
    .await;
    let before = view(&mut alice, room).await;
    assert_eq!(points(&before.moves), ["h8", "h9"]);
    drop((alice, bob));
    server.stop().await;

    let store = skirmish_server::store::Store::open(&database).await.unwrap();
    let server = TestServer::start_with_store(Limits::default(), store).await;
    let (mut alice, _) = TestClient::resume(&server.ws_url(), "Alice", alice_token).await;
    let (mut bob, _) = TestClient::resume(&server.ws_url(), "Bob", bob_token).await;
    let after = view(&mut alice, room).await;
    assert_eq!(after.moves, before.moves, "the stones taken back stay off");
    assert_eq!(
        after.offers, before.offers,
        "the takeback counted, the draw offer waiting"
    );
    assert_eq!(after.offers.taken_back, [1, 0]);
    assert_eq!(after.offers.draw, Some(WHITE));
    assert_eq!(after.to_move, Some(BLACK));
    // The game goes on from there: Alice accepts the draw.
    alice.send(answer(room, Offer::Draw, true)).await;
    let outcome = ended(&mut bob).await;
    assert_eq!(outcome.end, End::DrawAgreed { offered_by: WHITE });
    server.stop().await;
    let _ = std::fs::remove_file(&database);
}
