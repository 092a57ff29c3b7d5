//! The key an HTTP request offers: `Authorization: Bearer KEY` (RFC 6750), the one reader the
//! tournament API and the admin API share.

use axum::http::HeaderMap;
use skirmish_protocol::AccessKey;

/// The credentials of an `Authorization` header in the `Bearer` scheme (RFC 6750), whose name is
/// read without regard to case (RFC 7235, section 2.1): `bearer KEY` and `BEARER KEY` too.
fn bearer(header: &str) -> Option<&str> {
    let (scheme, credentials) = header.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| credentials.trim())
}

/// The key a request offers in its `Authorization: Bearer` header, if it reads as one.
pub(crate) fn offered_key(headers: &HeaderMap) -> Option<AccessKey> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer)
        .and_then(|v| v.parse::<AccessKey>().ok())
}
