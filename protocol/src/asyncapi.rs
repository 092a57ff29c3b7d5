//! The WebSocket protocol as an AsyncAPI 3.0 document (<https://www.asyncapi.com/docs/reference/specification/v3.0.0>),
//! generated from the same serde types as the JSON Schemas, so that it can never say anything the
//! types do not: every client message (each variant of [`ClientMsg`](crate::ClientMsg), with the
//! frame's `req`) and every server message (each variant of [`ServerMsg`](crate::ServerMsg)) is a
//! message of the one channel `/ws`, its payload the variant's schema from [`client_schema`] or
//! [`server_schema`]. Committed as `schema/asyncapi.json` and served by the server at
//! `GET /asyncapi.json`.

use serde_json::{Map, Value, json};

use crate::{PROTOCOL_VERSION, client_schema, server_schema};

/// The AsyncAPI version the document follows.
pub const ASYNCAPI_VERSION: &str = "3.0.0";

/// Where a JSON Schema's definitions go in the AsyncAPI document (its reusable schemas).
const COMPONENT_SCHEMAS: &str = "#/components/schemas/";

/// The AsyncAPI 3.0 document of the protocol, as committed in `schema/asyncapi.json`.
///
/// Its shape: one server (`ws://localhost:8080`), one channel `play` at the address `/ws` listing
/// every message, two operations from the server's side (`receiveClientMessage`: every message
/// a client may send, named `client.<type>`; `sendServerMessage`: every message the server
/// sends, named `server.<type>`), and under `components` the messages and every definition of
/// both JSON Schemas (`$ref`s rewritten from `#/$defs/X` to `#/components/schemas/X`).
///
/// # Panics
/// When the generated JSON Schemas do not have the shape this relies on (a `oneOf` of objects,
/// each with a `type` constant): an invariant of the serde types (`#[serde(tag = "type")]`),
/// checked by the protocol crate's tests.
pub fn document() -> Value {
    let mut client = client_schema();
    let mut server = server_schema();
    let mut schemas = Map::new();
    // Both schemas are generated from one set of types, so a definition of one name is the same
    // in both, and is shared; should one ever differ, the server's gets a name of its own.
    let client_defs = take_defs(&mut client);
    let server_defs = take_defs(&mut server);
    let mut server_names = Map::new();
    for (name, def) in &server_defs {
        let own = match client_defs.get(name) {
            Some(same) if same == def => name.clone(),
            Some(_) => format!("Server{name}"),
            None => name.clone(),
        };
        server_names.insert(name.clone(), Value::String(own));
    }
    let client_name = |name: &str| name.to_owned();
    let server_name = |name: &str| {
        server_names
            .get(name)
            .and_then(Value::as_str)
            .expect("every server $ref names a server definition")
            .to_owned()
    };
    for (name, mut def) in client_defs {
        rewrite_refs(&mut def, &client_name);
        schemas.insert(name, def);
    }
    for (name, mut def) in server_defs {
        rewrite_refs(&mut def, &server_name);
        schemas.insert(server_name(&name), def);
    }
    rewrite_refs(&mut client, &client_name);
    rewrite_refs(&mut server, &server_name);

    // The client frame's own fields (`req`) go into every client message's payload.
    let frame_fields = client
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut messages = Map::new();
    let mut channel_messages = Map::new();
    let mut operations = Map::new();
    for (side, schema, extra, action, operation) in [
        (
            "client",
            &client,
            &frame_fields,
            "receive",
            "receiveClientMessage",
        ),
        ("server", &server, &Map::new(), "send", "sendServerMessage"),
    ] {
        let mut refs = Vec::new();
        for variant in variants(schema) {
            let kind = variant
                .pointer("/properties/type/const")
                .and_then(Value::as_str)
                .expect("every message variant has a `type` constant (#[serde(tag = \"type\")])")
                .to_owned();
            let mut payload = variant.clone();
            if let Some(properties) = payload.get_mut("properties").and_then(Value::as_object_mut) {
                for (field, def) in extra {
                    properties.entry(field.clone()).or_insert_with(|| def.clone());
                }
            }
            let description = variant
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let summary = description
                .split("\n\n")
                .next()
                .unwrap_or_default()
                .replace('\n', " ");
            let id = format!("{side}.{kind}");
            messages.insert(
                id.clone(),
                json!({
                    "name": kind,
                    "title": format!("{kind} ({side} to {})", if side == "client" { "server" } else { "client" }),
                    "summary": summary,
                    "description": description,
                    "contentType": "application/json",
                    "payload": payload,
                }),
            );
            channel_messages.insert(
                id.clone(),
                json!({ "$ref": format!("#/components/messages/{id}") }),
            );
            refs.push(json!({ "$ref": format!("#/channels/play/messages/{id}") }));
        }
        operations.insert(
            operation.to_owned(),
            json!({
                "action": action,
                "channel": { "$ref": "#/channels/play" },
                "summary": schema.get("description").cloned().unwrap_or(Value::Null),
                "messages": refs,
            }),
        );
    }

    json!({
        "asyncapi": ASYNCAPI_VERSION,
        "info": {
            "title": "Skirmish",
            "version": PROTOCOL_VERSION.to_string(),
            "description": "Skirmish's game protocol: JSON text frames over one WebSocket at \
                `/ws`, one message per frame, each an object with a `type`. A client's first \
                message is `hello` (with `\"protocol\": 1`); the server answers `welcome`. A \
                client may put a number `req` on any message; the server's answer carries the \
                same `req`. Generated from the `skirmish-protocol` crate's types; the walk-through \
                is protocol/README.md.",
            "license": { "name": "MIT OR Apache-2.0" },
        },
        "defaultContentType": "application/json",
        "servers": {
            "local": {
                "host": "localhost:8080",
                "protocol": "ws",
                "description": "A server started with its defaults (`skirmish-server`); \
                    `wss` when it has `--tls-cert`.",
            }
        },
        "channels": {
            "play": {
                "address": "/ws",
                "title": "The game connection",
                "description": "One WebSocket per client; every message of the protocol goes \
                    through it.",
                "messages": channel_messages,
            }
        },
        "operations": operations,
        "components": {
            "schemas": schemas,
            "messages": messages,
        },
    })
}

/// Takes the `$defs` out of a generated schema.
fn take_defs(schema: &mut Value) -> Map<String, Value> {
    schema
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .and_then(|d| match d {
            Value::Object(map) => Some(map),
            _ => None,
        })
        .unwrap_or_default()
}

/// The variants of a schema's top-level `oneOf` (one per message type).
fn variants(schema: &Value) -> &[Value] {
    schema
        .get("oneOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .expect("a message enum's schema is a oneOf of its variants")
}

/// Points every `#/$defs/X` reference in `value` at `#/components/schemas/<name(X)>`.
fn rewrite_refs(value: &mut Value, name: &dyn Fn(&str) -> String) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match (key.as_str(), child) {
                    ("$ref", Value::String(target)) => {
                        if let Some(def) = target.strip_prefix("#/$defs/") {
                            *target = format!("{COMPONENT_SCHEMAS}{}", name(def));
                        }
                    }
                    (_, child) => rewrite_refs(child, name),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_refs(v, name)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` of the document points at something in it.
    #[test]
    fn every_reference_resolves() {
        let doc = document();
        fn check(doc: &Value, value: &Value) {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(target)) = map.get("$ref") {
                        let pointer = target.strip_prefix('#').expect("a local $ref");
                        assert!(doc.pointer(pointer).is_some(), "{target} resolves");
                    }
                    map.values().for_each(|v| check(doc, v));
                }
                Value::Array(items) => items.iter().for_each(|v| check(doc, v)),
                _ => {}
            }
        }
        check(&doc, &doc);
        assert!(!doc.to_string().contains("$defs"));
    }
}
