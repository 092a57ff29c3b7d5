//! The wire format: round trips, refusals with stable codes, and the committed JSON Schema.

use std::path::PathBuf;

use serde_json::json;
use skirmish_protocol::plane::{self, Cell};
use skirmish_protocol::{
    Action, CLIENT_TYPES, ClientFrame, ClientMsg, ErrorCode, RoomId, Seat, ServerMsg, client_schema,
    parse_client_frame, server_schema,
};

#[test]
fn schemas_are_committed_and_fresh() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema");
    for (file, schema) in [
        ("client.json", client_schema()),
        ("server.json", server_schema()),
        ("asyncapi.json", skirmish_protocol::asyncapi::document()),
    ] {
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        let path = dir.join(file);
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "protocol/schema/{file} is stale: run `UPDATE_SCHEMA=1 cargo test -p skirmish-protocol` and commit it"
        );
    }
}

#[test]
fn a_fire_action_reads_as_documented() {
    let room = RoomId::random();
    let text = json!({
        "type": "act", "req": 7, "room": room.to_string(),
        "action": {"game": "plane", "kind": "fire", "target": 1, "cell": "E5"}
    })
    .to_string();
    let frame = parse_client_frame(&text).unwrap();
    assert_eq!(
        frame,
        ClientFrame {
            req: Some(7),
            msg: ClientMsg::Act {
                room,
                seat: None,
                action: Action::Plane(plane::Action::Fire {
                    target: Seat(1),
                    cell: Cell::new(4, 4)
                }),
                info: None,
            },
        }
    );
    let back: serde_json::Value = serde_json::to_value(&frame).unwrap();
    assert_eq!(back, serde_json::from_str::<serde_json::Value>(&text).unwrap());
}

#[test]
fn bad_frames_get_stable_codes_and_keep_req() {
    let code = |text: &str| parse_client_frame(text).map(|_| ()).unwrap_err();
    assert_eq!(code("{nope").code, ErrorCode::BadJson);
    assert_eq!(code("[1,2]").code, ErrorCode::BadMessage);
    let e = code(r#"{"type":"dance","req":3}"#);
    assert_eq!((e.code, e.req), (ErrorCode::UnknownType, Some(3)));
    let e = code(r#"{"type":"act","req":4,"room":"x"}"#);
    assert_eq!((e.code, e.req), (ErrorCode::BadMessage, Some(4)));
    let e = code(
        r#"{"type":"act","req":5,"room":"5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e","action":{"game":"plane","kind":"fire","target":1,"cell":"Z99x"}}"#,
    );
    assert_eq!((e.code, e.req), (ErrorCode::BadMessage, Some(5)));
    let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(70_000));
    assert_eq!(code(&big).code, ErrorCode::FrameTooLarge);
    // An unknown type is unknown whatever else is wrong with the frame; a known one with bad
    // fields is malformed, whatever serde's message says.
    let e = code(r#"{"type":"dance","req":6,"room":"x","seat":[]}"#);
    assert_eq!((e.code, e.req), (ErrorCode::UnknownType, Some(6)));
    assert_eq!(e.message, "unknown message type `dance`");
    // (Told by serde's message, this one was `bad_message`: serde reads `req` first.)
    let e = code(r#"{"type":"dance","req":"x"}"#);
    assert_eq!((e.code, e.req), (ErrorCode::UnknownType, None));
    let e = code(r#"{"type":"join_room","req":7,"room":"unknown variant"}"#);
    assert_eq!((e.code, e.req), (ErrorCode::BadMessage, Some(7)));
    let e = code(
        r#"{"type":"act","req":8,"room":"5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e","action":{"game":"chess"}}"#,
    );
    assert_eq!((e.code, e.req), (ErrorCode::BadMessage, Some(8)), "{}", e.message);
    assert!(matches!(
        parse_client_frame(r#"{"type":"ping"}"#).unwrap().msg,
        ClientMsg::Ping
    ));
}

#[test]
fn client_types_match_the_schema() {
    // Every `type` the schema gives a client message (a `const` under a `type` property), and
    // none other, is in CLIENT_TYPES: the list that tells `unknown_type` from `bad_message`.
    fn types(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(kind) = map
                    .get("type")
                    .and_then(|t| t.get("const"))
                    .and_then(|c| c.as_str())
                {
                    out.push(kind.to_owned());
                }
                map.values().for_each(|v| types(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| types(v, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    types(&client_schema(), &mut found);
    found.sort();
    let mut listed: Vec<String> = CLIENT_TYPES.iter().map(|&t| t.to_owned()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn server_messages_are_tagged() {
    let msg = ServerMsg::Error {
        req: Some(1),
        code: ErrorCode::rule("cell_public"),
        message: "E5 is already known".into(),
    };
    let value = serde_json::to_value(&msg).unwrap();
    assert_eq!(value["type"], "error");
    assert_eq!(value["code"], "cell_public");
}

#[test]
fn resume_tokens_are_256_random_bits_and_never_debug_printed() {
    use skirmish_protocol::ResumeToken;
    let a = ResumeToken::random();
    let b = ResumeToken::random();
    assert_ne!(a, b);
    assert_eq!(a.as_str().len(), 64);
    assert!(
        a.as_str()
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
    let hello = ClientMsg::Hello {
        protocol: 1,
        name: "Ann".into(),
        bot: None,
        resume: Some(a.clone()),
        key: None,
        token: None,
        turn_view: None,
        ladder: Vec::new(),
    };
    assert!(
        !format!("{hello:?}").contains(a.as_str()),
        "Debug hides the token"
    );
    let json = serde_json::to_string(&hello).unwrap();
    assert!(json.contains(a.as_str()), "the wire carries it");
    // Any short string reads as a token (unknown ones are refused by the server as bad_resume).
    let old: ResumeToken = serde_json::from_str("\"0b9ff1ca-42b3-4fe9-99cd-b49eb0e5b04e\"").unwrap();
    assert_ne!(old, a);
    assert!(serde_json::from_str::<ResumeToken>(&format!("\"{}\"", "x".repeat(129))).is_err());
}

#[test]
fn every_game_is_listed_once_with_its_wire_tag_and_starts_behind_the_table() {
    use skirmish_protocol::GameKind;
    for &kind in GameKind::ALL {
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.tag()), "{kind:?}");
        let config: skirmish_protocol::GameConfig =
            serde_json::from_value(json!({"game": kind.tag()})).unwrap();
        assert_eq!(config.kind(), kind);
        let (table, opening) = config.start().unwrap();
        assert_eq!(table.kind(), kind);
        assert!(!opening.events.is_empty(), "{kind:?} opens with an event");
        assert_eq!(table.to_act().is_empty(), table.is_over());
    }
}

#[test]
fn names_lose_every_invisible_character_and_one_made_only_of_them_is_empty() {
    use skirmish_protocol::{clean_name, is_hidden_char};
    for c in [
        '\u{200B}', '\u{200D}', '\u{FEFF}', '\u{00AD}', '\u{3164}', '\u{202E}', '\u{2066}', '\u{FE0F}', '\n',
        '\u{1B}',
    ] {
        assert!(is_hidden_char(c), "U+{:04X} is shown as nothing", c as u32);
    }
    for c in ['a', 'Z', '中', '军', ' ', '-', 'é', 'а'] {
        assert!(!is_hidden_char(c), "U+{:04X} is visible", c as u32);
    }
    assert_eq!(clean_name("\u{200B}\u{200B}"), "");
    assert_eq!(clean_name(" \u{3164} "), "");
    assert_eq!(clean_name("al\u{200B}pha\u{202E}"), "alpha");
    assert_eq!(clean_name("  小明 "), "小明");
}

#[test]
fn each_end_names_its_kind_as_the_wire_tags_it() {
    // A match's result (`MatchResult::end`) takes the end's kind from `End::kind`, with no JSON
    // round trip: it must be the `kind` tag the `ended` event carries. The matches list every
    // variant, so a new one fails to compile here until it is checked.
    use skirmish_protocol::{gomoku, junqi, tic_tac_toe};
    fn check<E: serde::Serialize + std::fmt::Debug>(end: &E, kind: &str) {
        assert_eq!(serde_json::to_value(end).unwrap()["kind"], kind, "{end:?}");
    }
    let seat = Seat(1);
    for end in [
        gomoku::End::Five { line: Vec::new() },
        gomoku::End::BoardFull,
        gomoku::End::NoLegalPoint,
        gomoku::End::Resigned { seat, reason: None },
        gomoku::End::TimedOut { seat },
        gomoku::End::DrawAgreed { offered_by: seat },
    ] {
        match &end {
            gomoku::End::Five { .. }
            | gomoku::End::BoardFull
            | gomoku::End::NoLegalPoint
            | gomoku::End::Resigned { .. }
            | gomoku::End::TimedOut { .. }
            | gomoku::End::DrawAgreed { .. } => check(&end, end.kind()),
        }
    }
    for end in [
        junqi::End::NeitherCanMove,
        junqi::End::NoLegalMove { seat },
        junqi::End::FlagCaptured { seat },
        junqi::End::TimedOut { seat },
        junqi::End::NoAttackLimit { seat, limit: 31 },
        junqi::End::Resigned { seat, reason: None },
    ] {
        match &end {
            junqi::End::NeitherCanMove
            | junqi::End::NoLegalMove { .. }
            | junqi::End::FlagCaptured { .. }
            | junqi::End::TimedOut { .. }
            | junqi::End::NoAttackLimit { .. }
            | junqi::End::Resigned { .. } => check(&end, end.kind()),
        }
    }
    for end in [
        tic_tac_toe::End::Line { cells: [0, 1, 2] },
        tic_tac_toe::End::BoardFull,
        tic_tac_toe::End::Resigned { seat, reason: None },
        tic_tac_toe::End::TimedOut { seat },
    ] {
        match &end {
            tic_tac_toe::End::Line { .. }
            | tic_tac_toe::End::BoardFull
            | tic_tac_toe::End::Resigned { .. }
            | tic_tac_toe::End::TimedOut { .. } => check(&end, end.kind()),
        }
    }
}
