//! A bot connects over `wss://` to a server with built-in TLS (`--tls-cert`), so that its account
//! token never crosses the network in clear (issue 16). The server's certificate is self-signed
//! for `localhost` (made here with rcgen): without `--ca-cert` the bot refuses it (Mozilla's roots
//! do not cover it) and does not connect at all; with it, the bot is welcomed as its account.

use std::time::Duration;

use skirmish_bots::client::{BotOptions, run};
use skirmish_server::Limits;
use skirmish_server::testing::TestServer;
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_over_wss_trusting_the_servers_certificate_and_refuses_one_it_does_not_know() {
    let dir = std::env::temp_dir().join(format!("skirmish-bots-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    std::fs::write(dir.join("key.pem"), cert.signing_key.serialize_pem()).unwrap();
    std::fs::write(dir.join("cert.pem"), cert.cert.pem()).unwrap();
    let limits = Limits {
        tls_cert: Some(dir.join("cert.pem")),
        tls_key: Some(dir.join("key.pem")),
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await;
    let url = format!("wss://localhost:{}/ws", server.addr.port());

    // An unknown certificate: no connection, so no `hello` (and no token) ever sent.
    let mut options = BotOptions::new(url.clone(), "tlsbot".to_owned());
    options.reconnect = false;
    options.token = Some(server.account("tlsbot").await);
    let refused = run(options.clone(), CancellationToken::new()).await;
    let cause = format!(
        "{:#}",
        refused.expect_err("a certificate no root covers is refused")
    );
    assert!(cause.to_lowercase().contains("certificate"), "{cause}");

    // Trusting the server's certificate: welcomed over wss as its account.
    let transcript = dir.join("transcript.jsonl");
    options.ca_cert = Some(dir.join("cert.pem"));
    options.transcript = Some(transcript.clone());
    let stop = CancellationToken::new();
    let bot = tokio::spawn(run(options, stop.clone()));
    let mut welcomed = false;
    for _ in 0..200 {
        let text = std::fs::read_to_string(&transcript).unwrap_or_default();
        if text.contains(r#""type":"welcome""#) && text.contains(r#""name":"tlsbot""#) {
            welcomed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.cancel();
    let _ = bot.await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(welcomed, "the bot was not welcomed over wss");
}
