//! The HTTP routes, driven without a socket.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use skirmish_server::lobby::Lobby;
use skirmish_server::{AppState, app, default_web_root};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

fn state() -> AppState {
    AppState {
        limits: skirmish_server::Limits::default(),
        metrics: std::sync::Arc::default(),
        addresses: skirmish_server::Addresses::default(),
        lobby: Lobby::default(),
        shutdown: CancellationToken::new(),
        sessions: TaskTracker::new(),
    }
}

async fn get(path: &str) -> (StatusCode, String) {
    let response = app(state(), default_web_root())
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
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
}
