//! Bot accounts: what the admin HTTP API (`/api/accounts`, guarded by the server's
//! `--admin-key`) takes and answers, as JSON.
//!
//! A bot account is a name and a secret [`AccountToken`]. `POST /api/accounts` with an
//! [`AccountRequest`] registers one and answers [`AccountIssued`], the only time the token is
//! shown; the server keeps its SHA-256 alone. `POST /api/accounts/{name}/rotate` issues a new token
//! (the old one stops working at once, and the account's connection is closed);
//! `POST /api/accounts/{name}/revoke` takes the token away (the name stays the account's, so no
//! one else can take it; a rotate gives the account a token again). `GET /api/accounts` lists
//! [`Account`]s, tokens never included.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::AccountToken;

/// Registers a bot account (`POST /api/accounts`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AccountRequest {
    /// The bot's name: 1 to 32 printable characters, unique on the server without regard to
    /// case. The bot says it in `hello`, tournaments list it, and no other connection may use it.
    pub name: String,
}

/// A token just issued (register or rotate): shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AccountIssued {
    /// The account's name.
    pub name: String,
    /// The secret token: give it to the bot (`skirmish-bots play --token`); it cannot be shown
    /// again.
    pub token: AccountToken,
}

/// A bot account as the admin API lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Account {
    /// The account's name.
    pub name: String,
    /// When it was registered, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Whether it has a working token (false after a revoke, until a rotate).
    pub active: bool,
}
