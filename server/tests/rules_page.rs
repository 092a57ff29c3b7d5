//! The rules page: `GET /rules` serves docs/rules.md as HTML, with an anchor per game that the
//! web client links to, and the web client links to it from every page (lobby and room pages share
//! index.html's header; the room page links to its game's section).

use skirmish_server::testing::TestServer;

#[tokio::test]
async fn the_rules_page_serves_docs_rules_md_with_an_anchor_per_game() {
    let server = TestServer::start().await;
    let reply = reqwest::get(server.http_url("/rules")).await.unwrap();
    assert_eq!(reply.status(), 200);
    let kind = reply.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(kind.starts_with("text/html"), "{kind}");
    let page = reply.text().await.unwrap();
    for anchor in [
        "1-plane-battle",
        "2-gomoku",
        "3-junqi",
        "forbidden-points-renju",
        "combat",
    ] {
        assert!(page.contains(&format!("id=\"{anchor}\"")), "no #{anchor}");
    }
    // Text from each game's part of docs/rules.md, rendered (tables and all).
    for text in [
        "<strong>3 points</strong>",
        "a <strong>double three</strong>",
        "<td>司令 field marshal</td>",
        "31st step without a collision loses",
    ] {
        assert!(page.contains(text), "missing {text:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn every_page_of_the_web_client_links_to_the_rules() {
    let server = TestServer::start().await;
    for path in ["/", "/room/00000000-0000-0000-0000-000000000000"] {
        let page = reqwest::get(server.http_url(path))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(page.contains(r#"href="/rules""#), "{path} has no rules link");
    }
    // The room page's rules link (`rulesLink` in state.js) takes its game's anchor from the
    // language's catalog (`rules.anchor.<game>`).
    let app = reqwest::get(server.http_url("/i18n/en.json"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for anchor in ["1-plane-battle", "2-gomoku", "3-junqi"] {
        assert!(
            app.contains(&format!("\"{anchor}\"")),
            "the room page does not link to #{anchor}"
        );
    }
    server.stop().await;
}
