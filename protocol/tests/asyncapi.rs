//! The committed AsyncAPI document (`schema/asyncapi.json`) lists every message of both JSON
//! Schemas, and the AsyncAPI initiative's own parser (`@asyncapi/parser`, run by
//! `tests/asyncapi/validate.cjs` under Node) finds it valid, and finds a broken copy invalid.
//!
//! The parser is looked up in `ASYNCAPI_TOOLS` (a directory with `node_modules/@asyncapi/parser`),
//! or else the workspace's `target/tools`, where `scripts/test.sh` installs it with npm; the test
//! fails, naming the command, when it is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use skirmish_protocol::{CLIENT_TYPES, server_schema};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tools_dir() -> PathBuf {
    std::env::var_os("ASYNCAPI_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir().join("../target/tools"))
}

/// Runs the validator on `file`: whether it passed, and what it printed.
fn validate(file: &Path) -> (bool, String) {
    let tools = tools_dir();
    assert!(
        tools.join("node_modules/@asyncapi/parser/package.json").exists(),
        "the AsyncAPI parser is missing from {}: run `scripts/test.sh --install-only` \
         (npm install --prefix target/tools @asyncapi/parser)",
        tools.display()
    );
    let output = Command::new("node")
        .arg(manifest_dir().join("tests/asyncapi/validate.cjs"))
        .arg(&tools)
        .arg(file)
        .output()
        .expect("node runs (Node 20 or newer)");
    let text =
        String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

fn committed() -> PathBuf {
    manifest_dir().join("schema/asyncapi.json")
}

#[test]
fn the_asyncapi_document_is_valid_and_lists_every_message() {
    let (valid, report) = validate(&committed());
    assert!(valid, "schema/asyncapi.json is invalid:\n{report}");
    let listed = report
        .lines()
        .find_map(|l| l.strip_prefix("messages "))
        .unwrap_or_else(|| panic!("the validator lists the messages:\n{report}"));
    let mut listed: Vec<&str> = listed.split(' ').collect();
    listed.sort_unstable();

    // Every message type of both directions, as the JSON Schemas name them.
    let server = server_schema();
    let server_types = server["oneOf"]
        .as_array()
        .expect("ServerMsg is a oneOf")
        .iter()
        .map(|v| {
            v["properties"]["type"]["const"]
                .as_str()
                .expect("a type")
                .to_owned()
        });
    let mut expected: Vec<String> = CLIENT_TYPES
        .iter()
        .map(|t| format!("client.{t}"))
        .chain(server_types.map(|t| format!("server.{t}")))
        .collect();
    expected.sort_unstable();
    assert_eq!(listed, expected);
    assert!(
        report.contains("receiveClientMessage:receive:") && report.contains("sendServerMessage:send:"),
        "{report}"
    );
}

#[test]
fn the_validator_refuses_a_broken_document() {
    // A document the parser must refuse: a message payload that is not a schema, and an
    // operation whose channel points nowhere. Were the validator to pass anything, the test
    // above would prove nothing.
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(committed()).unwrap()).unwrap();
    doc["components"]["messages"]["client.hello"]["payload"] = Value::String("not a schema".into());
    doc["operations"]["sendServerMessage"]["channel"]["$ref"] = Value::String("#/channels/nowhere".into());
    let dir = std::env::temp_dir().join(format!("skirmish-asyncapi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let (valid, report) = validate(&file);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!valid, "the broken document passed:\n{report}");
    assert!(report.contains("error"), "{report}");
}
