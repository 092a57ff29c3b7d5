//! The HTTP API's one error: a refused request, answered with its status and the body
//! `{"code": ..., "message": ...}`, where `code` is a stable [`ErrorCode`] (the tournament and account APIs'
//! module docs list each route's; docs/tournaments.md, "The HTTP API"). Every handler returns `Result<_, HttpError>`; the errors of
//! tournaments and accounts, and axum's rejection of a body that is not the JSON expected
//! (`bad_json`), become one here.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use skirmish_protocol::ErrorCode;

/// A refused HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HttpError {
    status: StatusCode,
    code: ErrorCode,
    message: String,
}

/// What a refusal's body says.
#[derive(Serialize)]
struct Body<'a> {
    code: &'a ErrorCode,
    message: &'a str,
}

impl HttpError {
    /// A refusal with `status`, the stable `code` and a message for people.
    pub(crate) fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            code,
            message: message.into(),
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let body = Body {
            code: &self.code,
            message: &self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

impl From<JsonRejection> for HttpError {
    fn from(rejection: JsonRejection) -> Self {
        HttpError::new(rejection.status(), ErrorCode::BadJson, rejection.body_text())
    }
}
