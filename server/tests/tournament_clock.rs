//! A tournament bot that lets its clock run out loses the match, with the reason recorded, and the
//! tournament goes on.

use std::time::Duration;

use skirmish_protocol::tournament::{MatchState, TournamentState, TournamentStatus};
use skirmish_protocol::{BotOffer, ClientMsg, GameKind, PROTOCOL_VERSION, ServerMsg};
use skirmish_server::testing::{TestClient, TestServer};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_never_moves_loses_each_match_on_time() {
    let server = TestServer::start().await;
    let stop = CancellationToken::new();
    let mut options = skirmish_bots::client::BotOptions::new(server.ws_url(), "mover".to_owned());
    options.set_strategies(&["random".to_owned()]);
    tokio::spawn(skirmish_bots::client::run(options, stop.clone()));
    // A bot that takes seats and never acts.
    let mut silent = TestClient::connect(&server.ws_url()).await;
    let welcome = silent
        .request(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "silent".to_owned(),
            bot: Some(BotOffer {
                games: [(GameKind::Gomoku, vec!["nothing".to_owned()])].into(),
                version: None,
            }),
            resume: None,
            key: None,
        })
        .await;
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    let http = reqwest::Client::new();
    let mut created = None;
    for _ in 0..100 {
        let response = http
            .post(server.http_url("/api/tournaments"))
            .json(&serde_json::json!({
                "game": {"game": "gomoku"},
                "entrants": [{"bot": "mover", "strategy": "random"}, {"bot": "silent", "strategy": "nothing"}],
                "clock": {"move_ms": 300},
            }))
            .send()
            .await
            .expect("the server answers");
        if response.status() == 201 {
            created = Some(response.json::<TournamentStatus>().await.expect("a status"));
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let id = created.expect("made once the mover connected").summary.id;
    let status = loop {
        let status: TournamentStatus = http
            .get(server.http_url(&format!("/api/tournaments/{id}")))
            .send()
            .await
            .expect("the server answers")
            .json()
            .await
            .expect("a status");
        if status.summary.state != TournamentState::Running {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(status.summary.state, TournamentState::Finished);
    assert_eq!(status.schedule.len(), 2, "both colours");
    let silent_index = status
        .summary
        .entrants
        .iter()
        .position(|e| e.bot == "silent")
        .unwrap();
    for m in &status.schedule {
        assert_eq!(m.state, MatchState::Finished);
        let result = m.result.as_ref().expect("a result");
        let forfeit = result.forfeit.as_ref().expect("lost by forfeit");
        assert_eq!(m.seats[forfeit.seat.index()], silent_index);
        assert_eq!(forfeit.reason, "timed_out");
        assert_eq!(result.end, "forfeit");
        assert_eq!(result.placings[forfeit.seat.index()], 2);
    }
    stop.cancel();
}
