//! Built-in TLS: with `--tls-cert`/`--tls-key` the server speaks https and wss, and takes a renewed
//! certificate without a restart. The certificates are made by the test (rcgen), self-signed for
//! `localhost`, and the client trusts exactly the one it expects.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use skirmish_server::Limits;
use skirmish_server::testing::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore, crypto::ring};
use tokio_tungstenite::tungstenite::Message;

/// A fresh self-signed certificate for `localhost`, written to `dir`; returns its DER.
fn make_cert(dir: &std::path::Path) -> CertificateDer<'static> {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    // Written to temporary files then renamed, as a renewal would, so that a reload never reads a
    // half-written pair.
    std::fs::write(dir.join("key.pem.new"), cert.signing_key.serialize_pem()).unwrap();
    std::fs::write(dir.join("cert.pem.new"), cert.cert.pem()).unwrap();
    std::fs::rename(dir.join("key.pem.new"), dir.join("key.pem")).unwrap();
    std::fs::rename(dir.join("cert.pem.new"), dir.join("cert.pem")).unwrap();
    cert.cert.der().clone()
}

/// A TLS connection to `server` that trusts only `trusted`.
async fn connect(
    server: &TestServer,
    trusted: &CertificateDer<'static>,
) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let mut roots = RootCertStore::empty();
    roots.add(trusted.clone()).unwrap();
    let config = ClientConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = TcpStream::connect(server.addr).await?;
    TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
}

#[tokio::test]
async fn https_and_wss_with_a_certificate_renewed_without_a_restart() {
    let dir = std::env::temp_dir().join(format!("skirmish-tls-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = make_cert(&dir);
    let limits = Limits {
        tls_cert: Some(dir.join("cert.pem")),
        tls_key: Some(dir.join("key.pem")),
        tls_reload_ms: 100,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    // https: the health check.
    let mut tls = connect(&server, &first).await.expect("a TLS handshake");
    tls.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    tls.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.ends_with("ok"), "{response}");
    // wss: the protocol, hello and welcome.
    let tls = connect(&server, &first).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async("wss://localhost/ws", tls)
        .await
        .expect("a WebSocket over TLS");
    ws.send(Message::text(r#"{"type":"hello","protocol":1,"name":"Secure"}"#))
        .await
        .unwrap();
    let Some(Ok(Message::Text(welcome))) = ws.next().await else {
        panic!("a welcome")
    };
    assert!(welcome.contains(r#""type":"welcome""#), "{welcome}");
    // In clear, the server's port answers nothing HTTP.
    let mut plain = TcpStream::connect(server.addr).await.unwrap();
    plain
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), plain.read_to_end(&mut buf)).await;
    assert!(!String::from_utf8_lossy(&buf).contains("200 OK"));
    // A renewed certificate is taken for the next connections, without a restart.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let second = make_cert(&dir);
    let mut renewed = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if connect(&server, &second).await.is_ok() {
            renewed = true;
            break;
        }
    }
    assert!(renewed, "the renewed certificate is served");
    assert!(
        connect(&server, &first).await.is_err(),
        "the old certificate is no longer served"
    );
    // The WebSocket opened before the renewal goes on.
    ws.send(Message::text(r#"{"type":"ping","req":2}"#))
        .await
        .unwrap();
    let Some(Ok(Message::Text(pong))) = ws.next().await else {
        panic!("a pong")
    };
    assert!(pong.contains("pong"), "{pong}");
    // A pair that does not load (a key of another certificate) leaves the one in use.
    let other = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    std::fs::write(dir.join("key.pem"), other.signing_key.serialize_pem()).unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        connect(&server, &second).await.is_ok(),
        "the certificate in use stays"
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
