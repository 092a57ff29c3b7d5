//! The HTTP routes, driven without a socket.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use skirmish_server::lobby::Lobby;
use skirmish_server::{AppState, app, default_web_root};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

async fn state(limits: skirmish_server::Limits) -> AppState {
    let lobby = Lobby::default();
    let shutdown = CancellationToken::new();
    let store = skirmish_server::store::Store::in_memory().await.unwrap();
    let tournaments = skirmish_server::tournament::Tournaments::restore(
        store.clone(),
        lobby.clone(),
        skirmish_server::journal::Journal::start(store.clone()),
        shutdown.clone(),
        Vec::new(),
    )
    .await
    .unwrap();
    let ladders = skirmish_server::ladder::Ladders::open(
        store.clone(),
        lobby.clone(),
        skirmish_server::journal::Journal::start(store.clone()),
        shutdown.clone(),
        &tournaments,
        limits.ladder_options(),
    )
    .await
    .unwrap();
    AppState::new(skirmish_server::SharedState {
        limits,
        metrics: std::sync::Arc::default(),
        addresses: skirmish_server::Addresses::default(),
        unwelcomed: skirmish_server::Addresses::default(),
        lobby,
        shutdown,
        sessions: TaskTracker::new(),
        tournaments,
        ladders,
        journal: skirmish_server::journal::Journal::start(store.clone()),
        store,
        cluster: None,
        tournament_makers: skirmish_server::TournamentMakers::default(),
    })
}

async fn send(limits: skirmish_server::Limits, request: Request<Body>) -> (StatusCode, String) {
    let response = app(state(limits).await, default_web_root())
        .oneshot(request)
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

async fn get(path: &str) -> (StatusCode, String) {
    send(
        skirmish_server::Limits::default(),
        Request::get(path).body(Body::empty()).unwrap(),
    )
    .await
}

fn post(path: &str, body: &str, key: Option<&str>) -> Request<Body> {
    let mut request = Request::post(path).header("content-type", "application/json");
    if let Some(key) = key {
        request = request.header("authorization", format!("Bearer {key}"));
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

fn code(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).unwrap();
    value["code"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn tournament_requests_that_cannot_be_played_are_refused_with_a_code() {
    let limits = || skirmish_server::Limits {
        open_tournaments: true,
        ..skirmish_server::Limits::default()
    };
    let (status, body) = send(limits(), post("/api/tournaments", "{not json", None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "bad_json")
    );
    let (status, body) = send(
        limits(),
        post("/api/tournaments", r#"{"format":{"kind":"round_robin"}}"#, None),
    )
    .await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_json")
    );
    let gomoku = r#"{"game":{"game":"gomoku"}}"#;
    let (status, body) = send(limits(), post("/api/tournaments", gomoku, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "too_few_entrants")
    );
    let named = r#"{"game":{"game":"gomoku"},"entrants":[{"bot":"ghost","strategy":"random"}]}"#;
    let (status, body) = send(limits(), post("/api/tournaments", named, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "unknown_entrant")
    );
    let bad = r#"{"game":{"game":"plane","players":4}}"#;
    let (status, body) = send(limits(), post("/api/tournaments", bad, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "bad_config")
    );
    let bad = r#"{"game":{"game":"gomoku"},"parallel":0}"#;
    let (status, body) = send(limits(), post("/api/tournaments", bad, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "bad_config")
    );
    let bad = r#"{"game":{"game":"gomoku"},"openings":["no-such-opening"]}"#;
    let (status, body) = send(limits(), post("/api/tournaments", bad, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "bad_config")
    );
    let (status, body) = get("/api/tournaments/00000000-0000-0000-0000-000000000000").await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::NOT_FOUND, "no_such_tournament")
    );
    let (status, body) = get("/api/tournaments/nonsense/standings").await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::NOT_FOUND, "no_such_tournament")
    );
    let (status, body) = get("/api/matches/00000000-0000-0000-0000-000000000000").await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::NOT_FOUND, "no_such_match")
    );
    let (status, body) = get("/api/tournaments").await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::OK, "[]"),
        "nothing was made"
    );
}

#[tokio::test]
async fn a_default_server_makes_and_cancels_no_tournament_for_a_stranger() {
    let gomoku = r#"{"game":{"game":"gomoku"}}"#;
    let cancel = "/api/tournaments/00000000-0000-0000-0000-000000000000/cancel";
    for key in [None, Some("anything")] {
        let (status, body) = send(
            skirmish_server::Limits::default(),
            post("/api/tournaments", gomoku, key),
        )
        .await;
        assert_eq!(
            (status, code(&body).as_str()),
            (StatusCode::UNAUTHORIZED, "bad_key"),
            "{body}"
        );
        assert!(
            body.contains("--open-tournaments"),
            "says how to open them: {body}"
        );
        let (status, body) = send(skirmish_server::Limits::default(), post(cancel, "", key)).await;
        assert_eq!(
            (status, code(&body).as_str()),
            (StatusCode::UNAUTHORIZED, "bad_key")
        );
    }
    // The admin key makes them too; a stranger still cannot.
    let with_admin = || skirmish_server::Limits {
        admin_key: Some("root".parse().unwrap()),
        ..skirmish_server::Limits::default()
    };
    let (status, body) = send(with_admin(), post("/api/tournaments", gomoku, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_key")
    );
    let (status, body) = send(with_admin(), post("/api/tournaments", gomoku, Some("root"))).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "too_few_entrants")
    );
    // An open server lets a stranger make one, but a stranger of unknown address cancels nothing.
    let open = || skirmish_server::Limits {
        open_tournaments: true,
        ..skirmish_server::Limits::default()
    };
    let (status, body) = send(open(), post("/api/tournaments", gomoku, None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "too_few_entrants")
    );
    let (status, body) = send(open(), post(cancel, "", None)).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_key")
    );
}

#[tokio::test]
async fn a_server_with_a_tournament_key_makes_and_cancels_tournaments_only_with_it() {
    let limits = || skirmish_server::Limits {
        tournament_key: Some("sesame".parse().unwrap()),
        ..skirmish_server::Limits::default()
    };
    let gomoku = r#"{"game":{"game":"gomoku"}}"#;
    for key in [None, Some("wrong")] {
        let (status, body) = send(limits(), post("/api/tournaments", gomoku, key)).await;
        assert_eq!(
            (status, code(&body).as_str()),
            (StatusCode::UNAUTHORIZED, "bad_key")
        );
        let cancel = "/api/tournaments/00000000-0000-0000-0000-000000000000/cancel";
        let (status, body) = send(limits(), post(cancel, "", key)).await;
        assert_eq!(
            (status, code(&body).as_str()),
            (StatusCode::UNAUTHORIZED, "bad_key")
        );
    }
    // With the key, the request goes through to the next check (no bots are connected).
    let (status, body) = send(limits(), post("/api/tournaments", gomoku, Some("sesame"))).await;
    assert_eq!(
        (status, code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "too_few_entrants")
    );
    // The scheme's name is read without regard to case (RFC 7235, section 2.1); the key is not.
    for (header, expected) in [
        ("bearer sesame", "too_few_entrants"),
        ("BEARER sesame", "too_few_entrants"),
        ("bEaReR  sesame ", "too_few_entrants"),
        ("Bearer SESAME", "bad_key"),
        ("Basic sesame", "bad_key"),
        ("Bearersesame", "bad_key"),
    ] {
        let request = Request::post("/api/tournaments")
            .header("content-type", "application/json")
            .header("authorization", header)
            .body(Body::from(gomoku))
            .unwrap();
        let (_, body) = send(limits(), request).await;
        assert_eq!(code(&body), expected, "{header}");
    }
}

#[tokio::test]
async fn health_rooms_bots_and_the_web_client() {
    assert_eq!(get("/healthz").await, (StatusCode::OK, "ok".to_owned()));
    assert_eq!(get("/api/rooms").await, (StatusCode::OK, "[]".to_owned()));
    assert_eq!(get("/api/bots").await, (StatusCode::OK, "[]".to_owned()));
    let (status, page) = get("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("<script type=\"module\" src=\"/app.js\">"),
        "the web client"
    );
    let (status, page) = get("/room/5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e").await;
    assert_eq!(status, StatusCode::OK, "a room link opens the client");
    assert!(
        page.contains("<script type=\"module\" src=\"/app.js\">"),
        "the web client"
    );
    let (status, script) = get("/app.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        script.contains("WebSocket") || script.contains("import"),
        "the client's module is served"
    );
    assert_eq!(get("/no-such-file.js").await.0, StatusCode::NOT_FOUND);
    // A tournament's page and a match's replay are pages of their own.
    for (path, module) in [
        (
            "/tournament/5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e",
            "/tournament.js",
        ),
        ("/replay/5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e", "/replay.js"),
    ] {
        let (status, page) = get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            page.contains(&format!("<script type=\"module\" src=\"{module}\">")),
            "{path}: {page}"
        );
        assert_eq!(get(module).await.0, StatusCode::OK, "{module}");
    }
}

#[tokio::test]
async fn every_page_and_answer_carries_a_content_security_policy_and_nosniff() {
    for path in [
        "/",
        "/room/00000000-0000-0000-0000-000000000000",
        "/rules",
        "/app.js",
        "/api/rooms",
        "/api/tournaments/x",
    ] {
        let response = app(
            state(skirmish_server::Limits::default()).await,
            default_web_root(),
        )
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
        let headers = response.headers();
        let csp = headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"))
            .to_str()
            .unwrap();
        assert_eq!(csp, skirmish_server::CONTENT_SECURITY_POLICY, "{path}");
        assert!(
            csp.contains("script-src 'self';"),
            "{path}: inline script allowed: {csp}"
        );
        assert!(!csp.contains("unsafe-eval"), "{path}: {csp}");
        assert_eq!(
            headers.get("x-content-type-options").map(|v| v.to_str().unwrap()),
            Some("nosniff"),
            "{path}"
        );
    }
}
